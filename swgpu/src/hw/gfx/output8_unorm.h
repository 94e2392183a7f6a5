/* SPDX-License-Identifier: MIT */
/*
 * 8-bit RGBA/BGRA UNORM colour output, fused: each quad (or pair of
 * quads) goes through destination decode, blend and packing in
 * registers, one pass over the batch (output8_unorm.c; AVX2 variant in
 * output8_avx2.c, chosen at run time). Bytes identical to output.c's
 * per-pixel path (the format encoder and gfx_blend_unorm8).
 */
#ifndef SWGPU_GFX_OUTPUT8_UNORM_H
#define SWGPU_GFX_OUTPUT8_UNORM_H

#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/unorm8.h"

/* What the kernels of one batch and target need. */
/* A piece of the batch, in batch order: n > 0: quads q .. q + n - 1,
 * all lanes covered, inside the mapped area, side by side in one row
 * pair from r0 (the usual pieces of a large primitive); n = 0: quad q
 * alone (row, whole and qmask say the rest). */
struct out8_piece {
	uint8_t *r0;
	uint16_t q, n;
};

struct out8_job {
	uint32_t nq;
	const uint8_t *qmask;
	uint32_t npieces;
	struct out8_piece piece[GFX_BATCH_QUADS];
	uint64_t pitch;             /* bytes from a row to the next */
	/* quads of n = 0 pieces only: */
	bool whole[GFX_BATCH_QUADS];   /* entirely inside the mapped area */
	uint8_t *row[GFX_BATCH_QUADS][2];  /* its two rows of 2 pixels */
	const float *src[4];        /* channel lane arrays (R, G, B, A) */
	const float *src1[4];       /* dual source; NULL: zeros */
	bool blend;
	struct swgpu_blend_attachment b;
	uint32_t k8;                /* blend constants quantized
	                               (unorm8_quantize), packed as a pixel */
	uint32_t sh[4];             /* bit position of channel c in a pixel */
	const float *blend_const;
};

/* One quad, pixel by pixel (quads at an edge of an odd-sized area). */
void out8_quad_scalar(const struct out8_job *j, uint32_t q);

/* The whole batch: SSE2 (or scalar) and AVX2 kernels. */
void out8_run_sse2(const struct out8_job *j);
/* Only when out8_have_avx2() (the CPU has it; SWGPU_GFX_AVX2=0 turns
 * it off); x86 builds only. */
void out8_run_avx2(const struct out8_job *j);
bool out8_have_avx2(void);
/* Tests: choose the kernel (AVX2 only where the CPU has it); returns
 * whether AVX2 is now used. */
bool out8_use_avx2(bool on);

#endif

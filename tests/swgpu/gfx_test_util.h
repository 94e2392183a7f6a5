/* SPDX-License-Identifier: MIT */
/*
 * Fixture of the graphics engine tests (test_gfx_*.c): a VA space
 * without engines, a graphics state with its raster pool, an IB to emit
 * packets into, and host programs (hw/gfx/gfx_internal.h) standing in for
 * SPIR-V shaders, so the fixed function is checked on its own:
 *
 *   vertex program: position = attribute location 0; output location k
 *       = attribute location k (k = 1 .. GT_LOCS - 1); PointSize from
 *       gt.point_size when set.
 *   fragment program: colour outputs 0..3 = input location 1 (or a C
 *       callback's result); inputs take the interpolation modes in
 *       gt.interp[]; with gt.dual the Index 1 output = input location 2,
 *       with gt.frag_depth FragDepth = input location 2.x.
 */
#ifndef GFX_TEST_UTIL_H
#define GFX_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/gfx/gfx_internal.h"
#include "hw/packet/packet_exec.h"
#include "kmd/mem.h"
#include "kmd/vaspace.h"

#define GT_LOCS 4u               /* attribute / varying locations used */

struct gt_buf {
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

struct gt;

/* A fragment callback: colour of lane l from the batch's registers
 * (e, in[] the input registers of location 1), or discard. */
typedef void (*gt_frag_fn)(struct gt *t, struct gfx_exec *e, uint32_t n,
                           const uint8_t *live, uint8_t *discarded);

struct gt {
	struct swgpu_mem mem;
	struct swgpu_vaspace *vs;
	struct exec_env env;
	swgpu_fault_info fault;
	swgpu_engine_stats stats;
	struct gfx_pool *pool;
	struct gfx_state *g;
	struct gt_buf ib;
	uint32_t n;                    /* dwords emitted */
	struct gt_buf scratch;         /* state structs, bump allocated */
	uint64_t scratch_used;
	/* programs */
	struct ir_io vs_io, fs_io;
	struct gfx_program vsp, fsp;
	uint8_t interp[GT_LOCS];       /* fragment input modes */
	bool point_size;               /* VS writes PointSize from loc 3.x */
	bool clip_cull;                /* VS writes ClipDistance[0] = loc 3.y,
	                                  CullDistance[0] = loc 3.z */
	bool distance_inputs;          /* FS reads ClipDistance[0] and
	                                  CullDistance[0] (GT_CLIP_IN,
	                                  GT_CULL_IN) */
	bool frag_depth;               /* FS writes FragDepth = in 2.x */
	bool no_fs;                    /* depth/stencil only */
	bool dual;                     /* FS writes Index 1 = input loc 2 */
	bool early;                    /* FS declares EarlyFragmentTests */
	gt_frag_fn frag;               /* NULL: colour = input location 1 */
	bool fs_sample_builtins;       /* the fs reads SampleId and
	                                  SamplePosition (per-sample) */
	bool frag_no_discard;          /* frag never discards (early tests
	                                  stay allowed) */
	bool input_attachment;         /* FS "reads an input attachment" */
	void *user;
	uint32_t frag_runs;            /* fragment batches run */
	bool frag_hang;                /* the fragment program "hangs" */
};

/* Register numbers of the host programs. */
#define GT_IN(loc, c) (IR_REG_FIRST_FREE + 4u * (loc) + (c))
#define GT_OUT(loc, c) (IR_REG_FIRST_FREE + 4u * GT_LOCS + 4u * (loc) + (c))
#define GT_POS (IR_REG_FIRST_FREE + 8u * GT_LOCS)
#define GT_PSIZE (GT_POS + 4u)
#define GT_FDEPTH (GT_POS + 5u)
#define GT_OUT1(c) (GT_POS + 6u + (c))   /* Location 0 Index 1 */
#define GT_CLIP (GT_POS + 10u)
#define GT_CULL (GT_POS + 11u)
#define GT_CLIP_IN (GT_POS + 12u)
#define GT_CULL_IN (GT_POS + 13u)
#define GT_NREGS (GT_POS + 14u)

/* threads: raster threads (1 = the caller only). */
void gt_init(struct gt *t, uint32_t threads);
void gt_fini(struct gt *t);
/* Install the host programs (after changing the gt fields above). */
void gt_programs(struct gt *t);

struct gt_buf gt_buf(struct gt *t, uint64_t size, uint32_t va_flags);
/* Copy size bytes into scratch memory; returns its VA (8-aligned). */
uint64_t gt_put(struct gt *t, const void *data, uint64_t size);

uint32_t *gt_emit(struct gt *t, uint32_t ndw);
/* Run what was emitted; true when no fault. */
bool gt_run(struct gt *t);
void gt_expect_fault(struct gt *t, swgpu_fault_kind kind, uint32_t opcode);

/* A colour/depth/stencil attachment over a fresh buffer (w x h, layers
 * 1, tight pitch). */
struct gt_image {
	struct gt_buf mem;
	uint32_t format, w, h, bpp;
	uint64_t pitch;
};
struct gt_image gt_image(struct gt *t, uint32_t format, uint32_t w,
                         uint32_t h);
void gt_attachment(const struct gt_image *im, struct swgpu_attachment *a,
                   uint32_t load_op, const uint32_t clear[4]);
static inline uint8_t *
gt_px(const struct gt_image *im, uint32_t x, uint32_t y)
{
	return im->mem.cpu + y * im->pitch + (uint64_t)x * im->bpp;
}
float gt_pxf(const struct gt_image *im, uint32_t x, uint32_t y, uint32_t c);

/* A pipeline state with defaults: triangle list, fill, no culling,
 * one viewport/scissor covering w x h, depth range 0..1, every colour
 * attachment written (no blending), vertex binding 0 with attributes
 * location 0..nattr-1 of R32G32B32A32_SFLOAT at 16-byte offsets. */
void gt_pipeline_defaults(struct swgpu_pipeline_state *ps, uint32_t w,
                          uint32_t h, uint32_t nattr);

void gt_begin_pass(struct gt *t, const struct swgpu_pass *ps);
void gt_end_pass(struct gt *t);
void gt_set_pipeline(struct gt *t, const struct swgpu_pipeline_state *ps);
void gt_set_dynamic(struct gt *t, const struct swgpu_raster_state *rs);
/* Vertex buffer binding 0 = data (nverts x nattr vec4). */
void gt_vertices(struct gt *t, const float *data, uint32_t nverts,
                 uint32_t nattr);
void gt_draw(struct gt *t, uint32_t count, uint32_t instances);

static inline uint32_t
gt_fbits(float f)
{
	union { float f; uint32_t u; } v = { .f = f };
	return v.u;
}

#endif

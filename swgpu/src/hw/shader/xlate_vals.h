/* SPDX-License-Identifier: MIT */
/*
 * Value helpers shared by the translator's instruction files
 * (xlate_ops.c, xlate_glsl.c): operand register lists and scalar
 * emission.
 */
#ifndef SWGPU_SHADER_XLATE_VALS_H
#define SWGPU_SHADER_XLATE_VALS_H

#include "xlate.h"

#define MAXV 256

/* The registers of one operand (copied: the pools may move). */
struct vals {
	uint32_t n;
	uint32_t r[MAXV];
};

void xl_getv(struct xl *x, uint32_t id, struct vals *v);
/* One instruction into a fresh register; returns the register. */
uint32_t xl_emit1(struct xl *x, uint32_t op, uint32_t a, uint32_t b,
               uint32_t c);
uint32_t xl_result_n(struct xl *x, const uint32_t *in);
/* Component-wise op over operand ids ops[0..nops-1]; scalars broadcast;
 * the result is in[2] of type in[1]. */
void xl_elementwise(struct xl *x, const uint32_t *in, uint32_t op,
                 const uint32_t *ops, uint32_t nops);
void xl_set_regs(struct xl *x, const uint32_t *in, const uint32_t *regs,
              uint32_t n);
/* Float dot product of a[i] and b[i * stride_b]. */
uint32_t xl_fdot(struct xl *x, const uint32_t *a, const uint32_t *b, uint32_t n,
             uint32_t stride_b);
/* GLSL.std.450 OpExtInst (xlate_glsl.c). */
void xl_ext_inst(struct xl *x, const uint32_t *in, uint32_t wc);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the SIMT interpreter (internal to src/shader): the
 * per-thread execution state and the lane loop macro.
 */
#ifndef SWGPU_SHADER_INTERP_UTIL_H
#define SWGPU_SHADER_INTERP_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

struct ir_exec {
	const struct ir_program *p;
	uint32_t width;            /* lanes, a multiple of the subgroup */
	uint32_t lanes;            /* real invocations of a workgroup */
	lane_t *regs;              /* nregs * width */
	uint32_t *pc, *prev;       /* per lane block index / previous */
	uint8_t *mask;             /* lanes running the current block */
	uint8_t *shared;           /* Workgroup memory */
	uint64_t blocks_run;       /* for the periodic hang check */
};

#define SG 32u                 /* subgroup size */

/* Run body for every active lane: a plain loop when all lanes are active
 * (the compiler vectorizes it), else a masked one. */
#define LANES(...)                                                      \
	do {                                                            \
		if (full) {                                             \
			for (uint32_t l = 0; l < W; l++) { __VA_ARGS__; } \
		} else {                                                \
			for (uint32_t l = 0; l < W; l++)                \
				if (m[l]) { __VA_ARGS__; }              \
		}                                                       \
	} while (0)

/* Subgroup instructions (interp_group.c). */
void interp_group(struct ir_exec *e, const struct ir_instr *in, bool full);
/* 64-bit integer instructions (interp_int64.c). */
void interp_int64(struct ir_exec *e, const struct ir_dispatch *d,
                  const struct ir_instr *in, bool full);

/* Half-float conversions (interp.c). */
uint16_t interp_f32_to_f16(float f);
float interp_f16_to_f32(uint16_t h);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What the sampling tests over test_shader_texture's sh_fs_lod share
 * (test_shader_sample_fast.c, test_shader_sample_fixed.c): the program,
 * its inputs, a way to make the fast path decline, and a seeded
 * xorshift generator (each test sets rng_state before it relies on a
 * sequence).
 */
#ifndef SWGPU_TESTS_SAMPLE_LOD_UTIL_H
#define SWGPU_TESTS_SAMPLE_LOD_UTIL_H

#include "shader_stage_util.h"

#include "sh_fs_lod.spv.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Uniform in [lo, hi). */
static inline float
rndf(float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd() & 0xffffff) / 16777216.0f;
}

/* Input location loc, component c of lane l. */
#define IN(e, io, loc, c, l) (ss_lane((e), (io)->in_reg[loc][c], (l))->f)

/* sh_fs_lod: one combined image sampler. */
static inline struct ir_program *
lod_program(void)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;

	return ss_translate(sh_fs_lod_spv, sizeof(sh_fs_lod_spv),
	                    SWGPU_SHADER_STAGE_FRAGMENT, &t, 1, 0);
}

/* Sampler index register of every IR_IMGSAMPLE: 0 (none) as
 * translated, or a register (the same sampler when it holds 0 in every
 * lane, but the fast path declines instructions with index registers,
 * so the general path runs). */
static inline void
set_sampler_index(struct ir_program *p, uint32_t reg)
{
	for (uint32_t i = 0; i < p->ninstr; i++)
		if (p->code[i].op == IR_IMGSAMPLE)
			p->code[i].c = reg;
}

#endif

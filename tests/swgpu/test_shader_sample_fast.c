/* SPDX-License-Identifier: MIT */
/*
 * The fast sampling path (hw/shader/interp_sample_fast.c) against the
 * general one (interp_sample.c), bit for bit: sh_fs_lod.frag's samples
 * (implicit LOD, Bias, explicit Lod, MinLod, projective, a ConstOffset;
 * Grad and textureQueryLod take the general path anyway) over byte-
 * channel formats (RGBA8, BGRA8, sRGB, R8, RG8), power-of-two and odd
 * sizes, mip chains and a single level, every address mode pair
 * tried, NEAREST / LINEAR filters and mipmap modes, sampler bias and LOD clamps; coordinates random per
 * quad with random derivatives, plus NaN, infinities, huge values and
 * -0.0 in some lanes, per-lane Bias and Lod in some quads (the quad
 * path's fallback), pairs of quads reading the same levels (the AVX2
 * form, two quads at once: the default run; swgpu_shader_sample_fast_-
 * sse2 runs the SSE2 quads alone).
 *
 * Each configuration runs twice on the same inputs: as translated (the
 * fast path takes what it can), then with every IR_IMGSAMPLE's sampler
 * index register set to a register holding 0 in all lanes: the same
 * sampler, but the fast path declines instructions with index
 * registers, so the general path runs. White-box check that the first
 * run really went fast: interp_sample_fast accepts exactly the
 * implicit / explicit-LOD samples of the configurations it covers
 * (no CLAMP_TO_BORDER, byte-channel formats) and nothing else.
 */
#include "sample_lod_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "hw/shader/interp_sample.h"

#define W 128u
#define NOUT 9u

/* >= 0: fill_inputs gives every lane the same Bias and Lod but this
 * one (test_one_lane_differs) */
static int32_t odd_lane = -1;

/* The same inputs for both runs (regenerated from a saved seed). */
static void
fill_inputs(struct ir_exec *e, const struct ir_io *io, uint64_t seed)
{
	float step = 1.0f, dxu = 0.0f, dxv = 0.0f, dyu = 0.0f, dyv = 0.0f;
	float qbias = 0.0f, qlod = 0.0f;

	rng_state = seed;
	for (uint32_t q = 0; q < W / 4; q++) {
		const float bu = rndf(-2.5f, 2.5f), bv = rndf(-2.5f, 2.5f);

		/* quads 4..15 in pairs (4, 5), (6, 7)...: the second takes
		 * the first's derivatives, Bias and Lod, so both read the
		 * same levels (the AVX2 form's two quads at once); in
		 * (12, 13) and (14, 15) the second's Lod is the first's
		 * whole part (no level blend beside one that blends) */
		if (q < 4 || q >= 16 || !(q & 1)) {
			step = ldexpf(1.0f, (int)(rnd() % 11) - 8);
			dxu = rndf(-step, step);
			dxv = rndf(-step, step);
			dyu = rndf(-step, step);
			dyv = rndf(-step, step);
			qbias = rndf(-3.0f, 3.0f);
			qlod = rndf(-1.0f, 6.0f);
		} else if (q >= 12) {
			qlod = floorf(qlod);
		}
		if (q == 3) {   /* constant coordinates: lambda -inf */
			dxu = dxv = dyu = dyv = 0.0f;
		} else if (q == 2) {    /* subnormal squared scale */
			dxu = dyv = 0x1p-70f;
			dxv = dyu = 0.0f;
		}

		for (uint32_t i = 0; i < 4; i++) {
			const uint32_t l = 4 * q + i;
			const float fx = (float)(i & 1), fy = (float)(i >> 1);

			IN(e, io, 0, 0, l) = bu + dxu * fx + dyu * fy;
			IN(e, io, 0, 1, l) = bv + dxv * fx + dyv * fy;
			for (uint32_t c = 0; c < 4; c++)
				IN(e, io, 1, c, l) = rndf(-step, step);
			/* quads 16 and up: per-lane Bias and Lod */
			IN(e, io, 2, 0, l) = q < 16 ? qbias : rndf(-3.0f, 3.0f);
			IN(e, io, 3, 0, l) = q < 16 ? qlod : rndf(-1.0f, 6.0f);
		}
	}
	/* odd values in a few lanes */
	IN(e, io, 0, 0, 120) = NAN;
	IN(e, io, 0, 1, 121) = INFINITY;
	IN(e, io, 0, 0, 122) = -INFINITY;
	IN(e, io, 0, 1, 123) = 1e12f;
	IN(e, io, 0, 0, 124) = -1e12f;
	IN(e, io, 0, 0, 125) = -0.0f;
	IN(e, io, 0, 1, 126) = 0.5f;
	IN(e, io, 3, 0, 127) = NAN;
	IN(e, io, 2, 0, 119) = INFINITY;
	if (odd_lane >= 0)
		for (uint32_t l = 0; l < W; l++) {
			IN(e, io, 2, 0, l) = (int32_t)l == odd_lane ? 2.5f
			                                             : 0.25f;
			IN(e, io, 3, 0, l) = (int32_t)l == odd_lane ? 4.0f
			                                             : 1.5f;
		}
}

static void
save_outputs(struct ir_exec *e, const struct ir_io *io, uint32_t *out)
{
	for (uint32_t loc = 0; loc < NOUT; loc++)
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < W; l++)
				out[(loc * 4 + c) * W + l] =
					io->out_reg[loc][c]
					? ss_lane(e, io->out_reg[loc][c], l)->u
					: 0;
}

/* How many IR_IMGSAMPLEs interp_sample_fast accepts; expect_ok: how
 * many have an implicit or explicit LOD (what it covers). */
static uint32_t
fast_accepts(struct ir_exec *e, const struct ir_dispatch *d,
             const struct ir_program *p, uint32_t *expect_ok)
{
	uint32_t n = 0;

	*expect_ok = 0;
	memset(e->mask, 1, W);
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];
		const uint32_t mode = in->aux2 & IR_SMP_LOD_MASK;

		if (in->op != IR_IMGSAMPLE)
			continue;
		*expect_ok += mode == IR_SMP_LOD_IMPLICIT ||
		              mode == IR_SMP_LOD_EXPLICIT;
		n += interp_sample_fast(e, d, in, true);
	}
	return n;
}

static const uint32_t formats[] = {
	SWGPU_FORMAT_R8G8B8A8_UNORM, SWGPU_FORMAT_B8G8R8A8_UNORM,
	SWGPU_FORMAT_R8G8B8A8_SRGB, SWGPU_FORMAT_R8_UNORM,
	SWGPU_FORMAT_R8G8_UNORM, SWGPU_FORMAT_R32G32B32A32_SFLOAT,
};
/* the last one has a single level: with equal mag and min filters the
 * fast path skips the LOD (no lambda can change the sample) */
static const uint32_t sizes[][3] = { { 16, 16, 5 }, { 13, 7, 4 },
                                     { 16, 8, 1 } };
static const uint32_t addr[][2] = {
	{ 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 0, 2 }, { 2, 0 },
	{ 1, 4 },
};
static const uint32_t filters[] = {
	0,
	SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR,
	SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		SWGPU_SAMPLER_MIP_LINEAR,
	SWGPU_SAMPLER_MIN_LINEAR | SWGPU_SAMPLER_MIP_LINEAR,
	SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIP_LINEAR |
		(uint32_t)(uint16_t)(int16_t)(0.75 * 256) << 16,
};

static void
test_fast_equals_general(void **state)
{
	struct ir_program *p = lod_program();
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint32_t *fast = malloc(NOUT * 4 * W * 4);
	uint32_t *gen = malloc(NOUT * 4 * W * 4);
	uint8_t live[W];
	uint32_t configs = 0, fast_configs = 0;

	(void)state;
	assert_non_null(e);
	for (uint32_t l = 0; l < W; l++)
		live[l] = l != 5 && l != 66;
	for (uint32_t fi = 0; fi < sizeof(formats) / sizeof(formats[0]); fi++)
	for (uint32_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
	for (uint32_t ai = 0; ai < sizeof(addr) / sizeof(addr[0]); ai++)
	for (uint32_t ki = 0; ki < sizeof(filters) / sizeof(filters[0]); ki++) {
		struct ir_image_binding im;
		const uint64_t seed = 0x1234567ull + 7919ull * configs;
		uint64_t size = ss_image(&im, 1, formats[fi], sizes[si][0],
		                         sizes[si][1], 1, sizes[si][2]);
		uint8_t *mem = malloc(size);
		uint32_t ok, want;

		rng_state = seed ^ 0xabcdefull;
		for (uint64_t b = 0; b < size; b++)
			mem[b] = (uint8_t)rnd();
		if (formats[fi] == SWGPU_FORMAT_R32G32B32A32_SFLOAT)
			for (uint64_t b = 0; b < size / 4; b++)
				((float *)mem)[b] = rndf(0.0f, 1.0f);
		im.has_sampler = true;
		im.sampler = (struct swgpu_sampler_state){
			.filter = filters[ki],
			.address = addr[ai][0] | addr[ai][1] << 8 | 2u << 16 |
			           3u << 24,
			/* min LOD 0.5 and max 3.25 in odd configurations */
			.lod = configs & 1 ? 128u | 832u << 16 : 255u * 256u << 16,
		};
		ss_bind_image(d, p, 0, mem, size, &im);

		set_sampler_index(p, 0);
		fill_inputs(e, io, seed);
		assert_true(ir_exec_run_batch(e, d, W, live, NULL));
		save_outputs(e, io, fast);
		ok = fast_accepts(e, d, p, &want);
		const bool covered = formats[fi] !=
		                     SWGPU_FORMAT_R32G32B32A32_SFLOAT &&
		                     addr[ai][0] != 3 && addr[ai][1] != 3;
		if (covered) {
			assert_true(want > 0);
			assert_int_equal(ok, want);
			fast_configs++;
		} else {
			assert_int_equal(ok, 0);
		}

		set_sampler_index(p, IR_REG_SAMPLE_ID);
		memset(ir_exec_reg(e, IR_REG_SAMPLE_ID), 0, W * sizeof(lane_t));
		fill_inputs(e, io, seed);
		assert_true(ir_exec_run_batch(e, d, W, live, NULL));
		save_outputs(e, io, gen);
		assert_int_equal(fast_accepts(e, d, p, &want), 0);

		for (uint32_t loc = 0; loc < NOUT; loc++)
			for (uint32_t c = 0; c < 4; c++)
				for (uint32_t l = 0; l < W; l++) {
					const uint32_t k = (loc * 4 + c) * W + l;
					if (live[l] && fast[k] != gen[k])
						fail_msg("format %u %ux%u address "
						         "%u/%u filter %#x: out %u."
						         "%u lane %u: fast %a, "
						         "general %a",
						         formats[fi], sizes[si][0],
						         sizes[si][1], addr[ai][0],
						         addr[ai][1], filters[ki],
						         loc, c, l, ss_f(fast[k]),
						         ss_f(gen[k]));
				}
		free(mem);
		configs++;
	}
	assert_true(fast_configs > 100);
	free(fast);
	free(gen);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* Both runs of one binding (fast, then general) into fast and gen;
 * fails at the first live lane that differs. */
static void
run_both(struct ir_program *p, struct ir_dispatch *d, struct ir_exec *e,
         uint64_t seed, const uint8_t *live, uint32_t *fast, uint32_t *gen,
         const char *what)
{
	const struct ir_io *io = &p->io;
	uint32_t want;

	set_sampler_index(p, 0);
	fill_inputs(e, io, seed);
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	save_outputs(e, io, fast);
	assert_true(fast_accepts(e, d, p, &want) > 0);
	set_sampler_index(p, IR_REG_SAMPLE_ID);
	memset(ir_exec_reg(e, IR_REG_SAMPLE_ID), 0, W * sizeof(lane_t));
	fill_inputs(e, io, seed);
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	save_outputs(e, io, gen);
	for (uint32_t k = 0; k < NOUT * 4 * W; k++)
		if (live[k % W] && fast[k] != gen[k])
			fail_msg("%s: out %u.%u lane %u: fast %a, general %a",
			         what, k / W / 4, k / W % 4, k % W,
			         ss_f(fast[k]), ss_f(gen[k]));
}

/*
 * The resolved-image cache (interp_sample_setup.c) sees a binding
 * change that keeps every pointer and the range: the same memory and
 * binding slot read as RGBA8, then BGRA8 (only the format differs),
 * then with another sampler state (only the filter differs), then
 * after the texels themselves changed (nothing to resolve again: the
 * cache keeps no texels). Each is checked against the general path, so
 * a cache keyed on pointers alone fails here.
 */
static void
test_cache_rebind(void **state)
{
	struct ir_program *p = lod_program();
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint32_t *fast = malloc(NOUT * 4 * W * 4);
	uint32_t *gen = malloc(NOUT * 4 * W * 4);
	uint32_t *first = malloc(NOUT * 4 * W * 4);
	uint8_t live[W];
	struct ir_image_binding im;
	const uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R8G8B8A8_UNORM,
	                               16, 16, 1, 5);
	uint8_t *mem = malloc(size);

	(void)state;
	assert_non_null(e);
	memset(live, 1, sizeof(live));
	rng_state = 0x5eed;
	for (uint64_t b = 0; b < size; b++)
		mem[b] = (uint8_t)rnd();
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_MIP_LINEAR,
		.address = 0u | 2u << 8 | 2u << 16,
		.lod = 255u * 256u << 16,
	};
	ss_bind_image(d, p, 0, mem, size, &im);
	run_both(p, d, e, 77, live, fast, gen, "RGBA8");
	memcpy(first, fast, NOUT * 4 * W * 4);

	const struct swgpu_sampler_state smp = im.sampler;
	ss_image(&im, 1, SWGPU_FORMAT_B8G8R8A8_UNORM, 16, 16, 1, 5);
	im.has_sampler = true;
	im.sampler = smp;
	ss_bind_image(d, p, 0, mem, size, &im);
	run_both(p, d, e, 77, live, fast, gen, "BGRA8");
	assert_memory_not_equal(first, fast, NOUT * 4 * W * 4);

	im.sampler.filter = SWGPU_SAMPLER_MIP_LINEAR;
	ss_bind_image(d, p, 0, mem, size, &im);
	run_both(p, d, e, 77, live, fast, gen, "BGRA8 NEAREST");
	memcpy(first, fast, NOUT * 4 * W * 4);

	for (uint64_t b = 0; b < size; b++)
		mem[b] ^= 0x5a;
	run_both(p, d, e, 77, live, fast, gen, "BGRA8 new texels");
	assert_memory_not_equal(first, fast, NOUT * 4 * W * 4);

	free(mem);
	free(first);
	free(fast);
	free(gen);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/*
 * Every lane's Bias and Lod the same but one lane's, at each position
 * of the batch in turn: the fast path checks whether these operands
 * are the same in every lane (lanes_uniform, several lanes a step) to
 * select the levels of all quads at once; a lane it missed would take
 * lane 0's level there, and differ from the general path.
 */
static void
test_one_lane_differs(void **state)
{
	struct ir_program *p = lod_program();
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint32_t *fast = malloc(NOUT * 4 * W * 4);
	uint32_t *gen = malloc(NOUT * 4 * W * 4);
	uint32_t *same = malloc(NOUT * 4 * W * 4);
	uint8_t live[W];
	struct ir_image_binding im;
	const uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R8G8B8A8_UNORM,
	                               64, 64, 1, 7);
	uint8_t *mem = malloc(size);
	char what[32];

	(void)state;
	assert_non_null(e);
	memset(live, 1, sizeof(live));
	rng_state = 0x0dd1a4e;
	for (uint64_t b = 0; b < size; b++)
		mem[b] = (uint8_t)rnd();
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_MIP_LINEAR,
		.address = 0u | 0u << 8 | 0u << 16,
		.lod = 255u * 256u << 16,
	};
	ss_bind_image(d, p, 0, mem, size, &im);
	odd_lane = W;           /* no lane differs */
	run_both(p, d, e, 99, live, same, gen, "uniform");
	for (int32_t l = 0; l < (int32_t)W; l++) {
		odd_lane = l;
		snprintf(what, sizeof(what), "lane %d differs", l);
		run_both(p, d, e, 99, live, fast, gen, what);
		/* the odd lane's own results moved (a bias of 2.25 more, a
		 * Lod 2.5 higher): the case tests something */
		bool moved = false;

		for (uint32_t k = 0; k < NOUT * 4; k++)
			moved = moved || fast[k * W + (uint32_t)l] !=
			                 same[k * W + (uint32_t)l];
		assert_true(moved);
	}
	odd_lane = -1;
	free(mem);
	free(same);
	free(fast);
	free(gen);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* A sample on a partial mask writes its active lanes only: the lanes
 * of an inactive lane's quad and group keep what the register held (a
 * divergent branch's other side may own it), the active ones get what
 * every lane active gives. Every quad has the same derivatives, so
 * whole groups of four quads share their levels and go to the
 * four-quad filter at once (also with one level, where every quad
 * reads the same); lanes 17 and 54 (quads 4 and 13) are inactive. */
static void
inactive_lanes_kept(uint32_t levels, uint32_t filter)
{
	struct ir_program *p = lod_program();
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct ir_image_binding im;
	const uint64_t size = ss_image(&im, 1, SWGPU_FORMAT_R8G8B8A8_UNORM,
	                               64, 64, 1, levels);
	uint8_t *mem = malloc(size);
	uint8_t live[W];
	uint32_t ref[4][W], nsamples = 0;

	assert_non_null(e);
	rng_state = 0x1ac7;
	for (uint64_t b = 0; b < size; b++)
		mem[b] = (uint8_t)rnd();
	im.has_sampler = true;
	im.sampler = (struct swgpu_sampler_state){
		.filter = filter,
		.lod = 255u * 256u << 16,
	};
	ss_bind_image(d, p, 0, mem, size, &im);
	odd_lane = W;           /* the same Bias and Lod in every lane */
	fill_inputs(e, io, 7);
	odd_lane = -1;
	/* every quad: footprint 1.3 texels of level 0 (levels 0 and 1
	 * blended) */
	for (uint32_t q = 0; q < W / 4; q++) {
		const float bu = rndf(0.0f, 1.0f), bv = rndf(0.0f, 1.0f);
		const float step = 1.3f / 64.0f;

		for (uint32_t i = 0; i < 4; i++) {
			IN(e, io, 0, 0, 4 * q + i) = bu + step * (float)(i & 1);
			IN(e, io, 0, 1, 4 * q + i) = bv + step * (float)(i >> 1);
		}
	}
	memset(live, 1, sizeof(live));
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];

		if (in->op != IR_IMGSAMPLE ||
		    (in->aux2 & IR_SMP_LOD_MASK) != IR_SMP_LOD_IMPLICIT)
			continue;
		memset(e->mask, 1, W);
		assert_true(interp_sample_fast(e, d, in, true));
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < W; l++)
				ref[c][l] = ss_lane(e, in->dst + c, l)->u;
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < W; l++)
				ss_lane(e, in->dst + c, l)->u = 0x7fc0beefu;
		e->mask[17] = e->mask[54] = 0;
		assert_true(interp_sample_fast(e, d, in, false));
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < W; l++) {
				const uint32_t v = ss_lane(e, in->dst + c, l)->u;
				const uint32_t want = e->mask[l] ? ref[c][l]
				                                  : 0x7fc0beefu;

				if (v != want)
					fail_msg("sample %u channel %u lane %u: "
					         "0x%x, want 0x%x", i, c, l, v,
					         want);
			}
		nsamples++;
	}
	assert_true(nsamples > 0);
	free(mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

static void
test_inactive_lanes_kept(void **state)
{
	(void)state;
	/* seven levels, LINEAR blended: levels selected ahead */
	inactive_lanes_kept(7, SWGPU_SAMPLER_MAG_LINEAR |
	                       SWGPU_SAMPLER_MIN_LINEAR |
	                       SWGPU_SAMPLER_MIP_LINEAR);
	/* one level, NEAREST (vkcube's): every quad reads lod0 */
	inactive_lanes_kept(1, 0);
}

/* The LOD's log2 (smp_log2, shared by both paths) against the C
 * library's double log2: within 2e-7 of it for every normal and
 * subnormal float tried, exact at powers of two, monotonic along the
 * sweep, and the special values. */
static void
test_lod_log2(void **state)
{
	float prev = -INFINITY;
	double worst = 0.0;

	(void)state;
	for (int k = -149; k < 128; k++)
		assert_true(smp_log2(ldexpf(1.0f, k)) == (float)k);
	/* every 4099th float from the smallest subnormal up */
	for (uint32_t b = 1; b < 0x7f800000u; b += 4099u) {
		union { uint32_t u; float f; } v = { .u = b };
		const float x = v.f, y = smp_log2(x);
		const double err = fabs((double)y - log2((double)x));

		assert_true(y >= prev);
		prev = y;
		worst = err > worst ? err : worst;
	}
	assert_true(worst < 2e-7 * 128.0);    /* absolute, |y| <= 149 */
	for (uint32_t i = 0; i < 200000; i++) {
		const float x = rndf(0.5f, 2.0f);

		assert_true(fabs((double)smp_log2(x) - log2((double)x)) <
		            2e-7);
	}
	assert_true(smp_log2(0.0f) == -INFINITY);
	assert_true(smp_log2(-0.0f) == -INFINITY);
	assert_true(smp_log2(INFINITY) == INFINITY);
	assert_true(isnan(smp_log2(NAN)));
	assert_true(isnan(smp_log2(-1.0f)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lod_log2),
		cmocka_unit_test(test_fast_equals_general),
		cmocka_unit_test(test_cache_rebind),
		cmocka_unit_test(test_one_lane_differs),
		cmocka_unit_test(test_inactive_lanes_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

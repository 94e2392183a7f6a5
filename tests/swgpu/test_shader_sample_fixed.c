/* SPDX-License-Identifier: MIT */
/*
 * LINEAR filtering of 8-bit UNORM textures against the spec's
 * definition, not against swgpu's own output: the bilinear weighted
 * average of the four texels of each level (s, t) * size - 0.5 selects,
 * blended between levels by the fraction of an explicit Lod
 * (textureLod of sh_fs_lod), computed here in doubles from the texels'
 * codes. The spec lets each axis's sub-texel fraction snap to
 * 2^subTexelPrecisionBits divisions (swgpu claims 8), so a result is
 * right when it lies between the smallest and largest bilinear values
 * over fractions within 1/256 of the exact one on both axes (the
 * bilinear form is linear in each fraction: its extremes are at the
 * corners of that square), levels blended with the exact Lod fraction,
 * plus 2^-20 for the float rounding of the coordinates and the result.
 * Both the fast path (one quad, two quads at once, lanes one by one)
 * and the general path (a sampler index register makes the fast path
 * decline) are checked, over RGBA8, BGRA8 and R8, power-of-two and odd
 * sizes, REPEAT and CLAMP_TO_EDGE.
 *
 * With fixed point on (the default; SWGPU_SAMPLE_FIXED=0 runs the
 * float weights, swgpu_shader_sample_fixed_off), two exact cases: a
 * fraction of 0.5 + 2^-10 between codes 0 and 255 gives exactly 0.5
 * (the fraction snapped down to 128/256; float weights give 0.50098),
 * and texel centres return the texels' own values (NEAREST's bits).
 */
#include "sample_lod_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "hw/shader/interp_sample.h"
#include "hw/shader/interp_sample_fast.h"

#define W 128u
#define LOC_LOD 3u              /* o_lod = textureLod(tex, uv, lodv) */

struct tex {
	struct ir_image_binding im;
	uint8_t *mem;
	uint64_t size;
	uint32_t format, w, h, levels, addr;
};

static uint32_t
channels(uint32_t format)
{
	return format == SWGPU_FORMAT_R8_UNORM ? 1 : 4;
}

/* Code of channel c (R, G, B, A) of texel (x, y) of a level; a channel
 * the format lacks reads 0, alpha 255. */
static double
code(const struct tex *t, uint32_t level, int32_t x, int32_t y, uint32_t c)
{
	const uint8_t *p = ss_texel(&t->im, t->mem, level, 0, (uint32_t)x,
	                            (uint32_t)y);

	if (channels(t->format) == 1)
		return c == 0 ? p[0] : c == 3 ? 255.0 : 0.0;
	if (t->format == SWGPU_FORMAT_B8G8R8A8_UNORM && c != 1 && c != 3)
		return p[2 - c];
	return p[c];
}

static int32_t
wrap(int32_t i, int32_t n, uint32_t mode)
{
	if (mode == 0)
		return ((i % n) + n) % n;
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

static int32_t
level_size(uint32_t base, uint32_t level)
{
	const uint32_t s = base >> level;

	return s ? (int32_t)s : 1;
}

/* The bilinear value of channel c at level, texel origin (i0, j0),
 * fractions (a, b). */
static double
bilinear(const struct tex *t, uint32_t level, int32_t i0, int32_t j0,
         double a, double b, uint32_t c)
{
	const int32_t w = level_size(t->w, level), h = level_size(t->h, level);
	const int32_t x0 = wrap(i0, w, t->addr), x1 = wrap(i0 + 1, w, t->addr);
	const int32_t y0 = wrap(j0, h, t->addr), y1 = wrap(j0 + 1, h, t->addr);

	return (1 - a) * (1 - b) * code(t, level, x0, y0, c) +
	       a * (1 - b) * code(t, level, x1, y0, c) +
	       (1 - a) * b * code(t, level, x0, y1, c) +
	       a * b * code(t, level, x1, y1, c);
}

static double
clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The range of one level's value (codes) the spec allows at (s, t),
 * and the exact value. */
static void
level_range(const struct tex *t, uint32_t level, float s, float tc,
            uint32_t c, double *lo, double *hi, double *exact)
{
	const double u = (double)s * level_size(t->w, level) - 0.5;
	const double v = (double)tc * level_size(t->h, level) - 0.5;
	const double fu = floor(u), fv = floor(v);
	const double a = u - fu, b = v - fv, d = 1.0 / 256.0;

	*exact = bilinear(t, level, (int32_t)fu, (int32_t)fv, a, b, c);
	*lo = INFINITY;
	*hi = -INFINITY;
	for (uint32_t k = 0; k < 4; k++) {
		const double aa = clamp01(k & 1 ? a + d : a - d);
		const double bb = clamp01(k & 2 ? b + d : b - d);
		const double x = bilinear(t, level, (int32_t)fu, (int32_t)fv,
		                          aa, bb, c);

		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
	}
}

/* Runs the program on lanes with coordinates uv and Lod lod, fast
 * (general: false) or general, and returns o_lod in out[c][l]. */
static void
run(struct ir_program *p, struct ir_dispatch *d, struct ir_exec *e,
    const float (*uv)[2], const float *lod, bool general, float out[4][W])
{
	const struct ir_io *io = &p->io;
	uint8_t live[W];

	memset(live, 1, sizeof(live));
	set_sampler_index(p, general ? IR_REG_SAMPLE_ID : 0);
	memset(ir_exec_reg(e, IR_REG_SAMPLE_ID), 0, W * sizeof(lane_t));
	for (uint32_t l = 0; l < W; l++) {
		IN(e, io, 0, 0, l) = uv[l][0];
		IN(e, io, 0, 1, l) = uv[l][1];
		for (uint32_t c = 0; c < 4; c++)
			IN(e, io, 1, c, l) = 0.0f;
		IN(e, io, 2, 0, l) = 0.0f;
		IN(e, io, 3, 0, l) = lod[l];
	}
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	for (uint32_t c = 0; c < 4; c++)
		for (uint32_t l = 0; l < W; l++)
			out[c][l] = ss_lane(e, io->out_reg[LOC_LOD][c], l)->f;
}

static void
make_texture(struct tex *t, struct ir_dispatch *d, const struct ir_program *p,
             uint32_t format, uint32_t w, uint32_t h, uint32_t levels,
             uint32_t addr)
{
	t->format = format;
	t->w = w;
	t->h = h;
	t->levels = levels;
	t->addr = addr;
	t->size = ss_image(&t->im, 1, format, w, h, 1, levels);
	t->mem = malloc(t->size);
	for (uint64_t b = 0; b < t->size; b++)
		t->mem[b] = (uint8_t)rnd();
	t->im.has_sampler = true;
	t->im.sampler = (struct swgpu_sampler_state){
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_MIP_LINEAR,
		.address = addr | addr << 8 | addr << 16,
		.lod = 255u * 256u << 16,       /* min 0, max 255 */
	};
	ss_bind_image(d, p, 0, t->mem, t->size, &t->im);
}

static void
test_within_spec(void **state)
{
	static const uint32_t formats[] = { SWGPU_FORMAT_R8G8B8A8_UNORM,
		                            SWGPU_FORMAT_B8G8R8A8_UNORM,
		                            SWGPU_FORMAT_R8_UNORM };
	static const uint32_t sizes[][3] = { { 16, 16, 5 }, { 13, 7, 4 },
		                             { 64, 32, 7 } };
	struct ir_program *p = lod_program();
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	double worst = 0.0, worst_exact = 0.0;
	uint32_t checked = 0;

	(void)state;
	assert_non_null(e);
	rng_state = 0x2545f4914f6cdd1dull;
	for (uint32_t fi = 0; fi < 3; fi++)
	for (uint32_t si = 0; si < 3; si++)
	for (uint32_t addr = 0; addr <= 2; addr += 2)
	for (uint32_t round = 0; round < 8; round++) {
		struct tex t;
		float uv[W][2], lod[W], out[2][4][W];

		/* REPEAT on an odd size goes lane by lane; fine too */
		make_texture(&t, d, p, formats[fi], sizes[si][0],
		             sizes[si][1], sizes[si][2], addr);
		for (uint32_t l = 0; l < W; l++) {
			const uint32_t q = l / 4;

			uv[l][0] = rndf(-1.5f, 2.5f);
			uv[l][1] = rndf(-1.5f, 2.5f);
			/* quads 0..15: one Lod per pair of quads (the
			 * two-quads form); 16..31: per lane */
			if (q < 16 && (l & 7) == 0)
				lod[l] = rndf(0.0f,
				              (float)(t.levels - 1) + 0.5f);
			else if (q < 16)
				lod[l] = lod[l & ~7u];
			else
				lod[l] = rndf(-0.5f, (float)t.levels);
		}
		run(p, d, e, (const float (*)[2])uv, lod, false, out[0]);
		run(p, d, e, (const float (*)[2])uv, lod, true, out[1]);
		for (uint32_t l = 0; l < W; l++) {
			const float L = lod[l] < 0.0f ? 0.0f
			                : lod[l] > (float)(t.levels - 1)
			                ? (float)(t.levels - 1) : lod[l];
			const uint32_t lo = (uint32_t)L;
			const uint32_t hi = lo + 1 < t.levels ? lo + 1 : lo;
			const double delta = (double)L - lo;

			for (uint32_t c = 0; c < 4; c++) {
				double lmin, lmax, lex, hmin, hmax, hex;

				level_range(&t, lo, uv[l][0], uv[l][1], c,
				            &lmin, &lmax, &lex);
				level_range(&t, hi, uv[l][0], uv[l][1], c,
				            &hmin, &hmax, &hex);
				const double mn = ((1 - delta) * lmin +
				                   delta * hmin) / 255.0;
				const double mx = ((1 - delta) * lmax +
				                   delta * hmax) / 255.0;
				const double ex = ((1 - delta) * lex +
				                   delta * hex) / 255.0;

				for (uint32_t k = 0; k < 2; k++) {
					const double r = out[k][c][l];

					if (r < mn - 0x1p-20 ||
					    r > mx + 0x1p-20)
						fail_msg("format %u %ux%u addr "
						         "%u %s lane %u c %u: "
						         "%.9f not in "
						         "[%.9f, %.9f] (exact "
						         "%.9f)", t.format,
						         t.w, t.h, addr,
						         k ? "general" : "fast",
						         l, c, r, mn, mx, ex);
					const double dev = fabs(r - ex) *
					                   255.0;
					worst_exact = dev > worst_exact ?
					              dev : worst_exact;
					const double out_of =
						r < mn ? mn - r :
						r > mx ? r - mx : 0.0;
					worst = out_of > worst ? out_of
					                       : worst;
					checked++;
				}
			}
		}
		free(t.mem);
	}
	/* the measured precision, for the docs */
	printf("sample_fixed: %u values, largest distance from the exact "
	       "filter %.4f codes, beyond the snapped range %.3g\n", checked,
	       worst_exact, worst);
	assert_true(checked > 50000);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/* Code of every channel of texel (x, y) of test_exact_cases's level:
 * 0 in column 4, 255 in column 5, the rest various. */
static uint8_t
exact_code(uint32_t x, uint32_t y)
{
	return x == 4 ? 0 : x == 5 ? 255 : (uint8_t)(37 * y + 5 * x + 1);
}

static void
test_exact_cases(void **state)
{
	struct ir_program *p = lod_program();
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	struct tex t;
	float uv[W][2], lod[W], out[2][4][W];
	const bool fixed = smp_fixed_enabled();

	(void)state;
	assert_non_null(e);
	make_texture(&t, d, p, SWGPU_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 0);
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 16; x++)
			memset(ss_texel(&t.im, t.mem, 0, 0, x, y),
			       exact_code(x, y), 4);
	for (uint32_t l = 0; l < W; l++) {
		/* even lanes: u = 4.5 + 0.5 + 2^-10 texels, the fraction
		 * 0.5 + 2^-10 from texel 4 (code 0) to 5 (255); odd
		 * lanes: the centre of texel ((l / 2) % 16, l / 8) */
		const float x = l & 1 ? (float)(l / 2 % 16) + 0.5f
		                      : 5.0f + 0x1p-10f;

		uv[l][0] = x / 16.0f;
		uv[l][1] = ((float)(l / 8) + 0.5f) / 16.0f;
		lod[l] = 0.0f;
	}
	run(p, d, e, (const float (*)[2])uv, lod, false, out[0]);
	run(p, d, e, (const float (*)[2])uv, lod, true, out[1]);
	for (uint32_t k = 0; k < 2; k++)
		for (uint32_t l = 0; l < W; l++)
			for (uint32_t c = 0; c < 4; c++) {
				const float r = out[k][c][l];
				const char *path = k ? "general" : "fast";

				if (l & 1) {
					/* the texel's value, rounded once */
					const float want = (float)exact_code(
						l / 2 % 16, l / 8) / 255.0f;

					if (r != want)
						fail_msg("%s lane %u: texel "
						         "centre %a, not %a",
						         path, l, r, want);
				} else if (fixed ? r != 0.5f
				                 : !(r > 0.5009f &&
				                     r < 0.5010f)) {
					fail_msg("%s lane %u: %.7f (fixed %d)",
					         path, l, r, fixed);
				}
			}
	free(t.mem);
	ir_exec_destroy(e);
	free(d);
	ir_program_free(p);
}

/*
 * The AVX2 filter's last step, sum / scale clamped to 1 (with FMA a
 * reciprocal product and one correction), against the division, bit for
 * bit: sums of codes (integers up to 255 2^16), level blends of them,
 * tiny sums at and below 2^-100 (where the FMA form must fall back),
 * zero, and 2^20 random finite floats >= 0, for both scales.
 */
static void
test_values_avx2(void **state)
{
	const float scales[2] = { 255.0f, smp_codes_scale(true, 2) };
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	float sums[32], out[32];
	uint32_t n = 0, wrong = 0;

	(void)state;
	if (!smp_have_avx2())
		skip();
	for (uint32_t i = 0; i < (1u << 20) + 64; i++) {
		float v;

		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		const uint32_t r = (uint32_t)(rng >> 32);
		switch (i & 7) {
		case 0: v = (float)(r % (255u << 16 | 1u)); break;
		case 1: v = (float)(r % 256u) * 65536.0f *
		            ((float)(r >> 24) / 256.0f); break;
		case 2: v = ldexpf(1.0f + (float)(r & 0xffff) / 65536.0f,
		                   -96 - (int)(r >> 28)); break;
		case 3: v = i < 64 ? 0.0f : (float)(r % 256u); break;
		default: {
			const uint32_t b = r & 0x7f7fffffu;  /* finite, >= 0 */
			memcpy(&v, &b, 4);
		}
		}
		sums[n++] = v;
		if (n < 32)
			continue;
		n = 0;
		for (uint32_t k = 0; k < 2; k++) {
			smp_values_avx2(sums, scales[k], out, 8);
			for (uint32_t l = 0; l < 32; l++) {
				float want = sums[l] / scales[k];

				want = want > 1.0f ? 1.0f : want;
				if (memcmp(&want, &out[l], 4) && wrong++ < 8)
					print_error("%a / %a: %a, want %a\n",
					            (double)sums[l],
					            (double)scales[k],
					            (double)out[l], (double)want);
			}
		}
	}
	assert_int_equal(wrong, 0);
}

/*
 * The AVX-512 four-quad filter against two calls of the AVX2 two-quad
 * one, bit for bit, LINEAR and (one call in eleven) NEAREST: random
 * 256x256 and 200x120 RGBA8 / BGRA8 levels
 * (REPEAT on the power-of-two one, so texel pairs load as one; CLAMP on
 * the odd one, so they do not), one and two levels with per-quad
 * blends, coordinates random, on texel centres (fractions 0, the
 * weight-256 case) and far outside [0, 1] (wraps and clamps).
 */
static void
test_four_quads_avx512(void **state)
{
	static uint8_t mem[2][256 * 256 * 4 + 128 * 128 * 4];
	uint64_t rng = 0x2545f4914f6cdd1dull;
	uint32_t wrong = 0, blended = 0;

	(void)state;
	if (!smp_have_avx512())
		skip();
	for (uint32_t k = 0; k < 2; k++)
		for (uint32_t i = 0; i < sizeof(mem[0]); i++)
			mem[k][i] = (uint8_t)(((i + k) * 2654435761u) >> 13);
	for (uint32_t it = 0; it < 40000; it++) {
		const uint32_t kind = it % 2;
		struct fast_img fi;

		memset(&fi, 0, sizeof(fi));
		fi.elem = 4;
		fi.vec = fi.codes = fi.fixed = fi.off32 = true;
		fi.pairs = (it / 2) % 4 != 0;
		fi.bgra = (it / 8) % 2;
		fi.addr[0] = fi.addr[1] = kind;      /* 0 REPEAT, 1 CLAMP */
		const int32_t w0 = kind ? 200 : 256, h0 = kind ? 120 : 256;
		const uint8_t *b = mem[kind];
		for (uint32_t l = 0; l < 2; l++) {
			const int32_t w = w0 >> l, h = h0 >> l;

			fi.lv[l] = (struct fast_level){
				.base = b, .row_pitch = (uint32_t)w * 4, .w = w,
				.h = h, .fw = (float)w, .fh = (float)h };
			b += (size_t)w * (size_t)h * 4;
		}
		float S[16], T[16], lo[4], hi[4], a[64], bb[64];
		for (uint32_t k = 0; k < 16; k++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			const uint32_t r = (uint32_t)(rng >> 32);
			const float span = (it % 5 == 0) ? 9.0f : 1.0f;

			S[k] = span * ((float)(r & 0xffff) / 65536.0f) -
			       (span - 1.0f) / 2.0f;
			T[k] = span * ((float)(r >> 16) / 65536.0f) -
			       (span - 1.0f) / 2.0f;
			if (it % 7 == 0) {      /* texel centres */
				S[k] = ((float)(r % 97u) + 0.5f) / (float)w0;
				T[k] = ((float)(r % 89u) + 0.5f) / (float)h0;
			}
		}
		for (uint32_t q = 0; q < 4; q++) {
			const float f = (float)((it + q) % 9) / 8.0f;

			lo[q] = 1.0f - f;
			hi[q] = f;
		}
		const struct fast_level *lh = it % 3 ? &fi.lv[1] : NULL;

		blended += lh != NULL;
		const bool linear = it % 11 != 0;

		smp_four_quads_avx512(&fi, &fi.lv[0], lh, linear, S, T, lo, hi,
		                      a, 16);
		smp_two_quads_avx2(&fi, &fi.lv[0], lh, linear, S, T, lo, hi,
		                   bb, 16);
		smp_two_quads_avx2(&fi, &fi.lv[0], lh, linear, S + 8, T + 8,
		                   lo + 2, hi + 2, bb + 8, 16);
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t k = 0; k < 16; k++)
				if (memcmp(&a[16 * c + k], &bb[16 * c + k], 4) &&
				    wrong++ < 8)
					print_error("it %u lane %u ch %u: %a, "
					            "want %a\n", it, k, c,
					            (double)a[16 * c + k],
					            (double)bb[16 * c + k]);
	}
	assert_int_equal(wrong, 0);
	assert_true(blended > 20000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_within_spec),
		cmocka_unit_test(test_exact_cases),
		cmocka_unit_test(test_values_avx2),
		cmocka_unit_test(test_four_quads_avx512),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

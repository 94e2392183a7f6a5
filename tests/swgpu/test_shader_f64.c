/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: doubles (capability Float64) against host-computed
 * results, bit-exact (the engine computes in host binary64 with the same
 * operation order): arithmetic with infinities, NaN, signed zeros and
 * denormals, division by zero, ordered/unordered comparisons, the
 * GLSL.std.450 functions, conversions to/from float and 32/64-bit
 * integers (out-of-range values saturate and NaN gives 0, as the engine
 * defines), vectors, dot, shared and Function memory, push constants and
 * a loop (the shader also runs optimized by glslang -Os).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shader_test_util.h"

#include "sh_f64.spv.h"
#include "sh_f64_opt.spv.h"

#define NOUT 32
#define NW 8
#define LANES 256u

static const double edges[] = {
	0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0.5, 1e300, -1e300, DBL_MIN / 4,
	-DBL_MIN / 3, INFINITY, -INFINITY, NAN, 3e9, -3e9, 1e19, 7.0,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static int32_t
d2s(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

static uint32_t
d2u(double v)
{
	if (!(v > 0.0))
		return 0;
	if (v >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)v;
}

static int64_t
d2s64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775808.0)
		return INT64_MAX;
	if (v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static uint64_t
d2u64(double v)
{
	if (!(v > 0.0))
		return 0;
	if (v >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

static uint64_t
bits(double v)
{
	uint64_t b;

	memcpy(&b, &v, 8);
	return b;
}

static uint32_t
fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static double
series(double x)
{
	double s = 0.0;

	for (int i = 0; i < 8; i++)
		s = s * x + (double)i;
	return s;
}

static double
dsign(double v)
{
	return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : v;
}

static void
expected(const double *a, const double *b, double k, uint32_t i,
         double *r, uint32_t *w)
{
	double x = a[i], y = b[i];
	double u[3] = { x * 2.0 + 1.0, y * 2.0 + 2.0, k * 2.0 + 3.0 };
	double arr[4] = { x, y, x + y, x - y };
	uint64_t xb = bits(x), t64;
	int64_t s64 = d2s64(x);
	uint64_t u64 = d2u64(y);
	double clamped = fmin(fmax(x, -1000.0), 1000.0);

	r[0] = x + y;
	r[1] = x - y;
	r[2] = x * y;
	r[3] = x / y;
	r[4] = -x;
	r[5] = fabs(x);
	r[6] = floor(x);
	r[7] = ceil(x);
	r[8] = trunc(x);
	r[9] = x - floor(x);
	r[10] = sqrt(fabs(x));
	r[11] = fmin(x, y);
	r[12] = fmax(x, y);
	r[13] = clamped;
	r[14] = x + (y - x) * 0.25;
	r[15] = x * y + k;
	r[16] = dsign(x);
	r[17] = rint(x);
	r[18] = x < y ? 0.0 : 1.0;
	r[19] = x - y * floor(x / y);
	r[20] = (double)(float)x;
	r[21] = (double)((int32_t)i - 100);
	r[22] = (double)(uint32_t)(i * 3000000000u);
	r[23] = (double)((int64_t)i * -0x123456789ll);
	r[24] = x * u[0] + y * u[1] + k * u[2];
	r[25] = u[2];
	r[26] = 0.0;      /* neighbour: filled by the caller */
	r[27] = series(1.0 / 3.0) + (double)i;
	r[28] = arr[d2u(fabs(y)) & 3u];
	r[29] = 1.0 / sqrt(4.0 + fabs(x));
	t64 = (uint64_t)i | (uint64_t)0x40000000u << 32;
	memcpy(&r[30], &t64, 8);
	r[31] = x > 0.0 ? y : x;
	w[0] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 |
	       (x == y) << 4 | (x != y) << 5 | (x != x) << 6 |
	       (isinf(x) != 0) << 7;
	w[1] = (uint32_t)d2s(x);
	w[2] = d2u(x);
	w[3] = fbits((float)x);
	w[4] = (uint32_t)xb ^ (uint32_t)(xb >> 32);
	w[5] = (uint32_t)s64 ^ (uint32_t)((uint64_t)s64 >> 32);
	w[6] = (uint32_t)u64 ^ (uint32_t)(u64 >> 32);
	w[7] = (uint32_t)!(x < y) | (uint32_t)!(x >= y) << 1;
}

/* Same double, NaNs equal whatever their payload. */
static bool
same(double got, double want)
{
	if (want != want)
		return got != got;
	return bits(got) == bits(want);
}

static void
run_f64(const uint32_t *code, size_t size)
{
	struct st_env e;
	double *a, *b, *o;
	uint32_t *w;
	struct { uint32_t pad, pad2; double k; } push = { 0, 0, -0.375 };
	uint64_t seed = 99;
	swgpu_shader *s;

	st_init(&e);
	a = st_buf(&e, LANES * 8);
	b = st_buf(&e, LANES * 8);
	o = st_buf(&e, LANES * NOUT * 8);
	w = st_buf(&e, LANES * NW * 4);
	for (uint32_t i = 0; i < LANES; i++) {
		if (i < NEDGES * NEDGES / 2) {
			/* the edge pairs, half of them (all rows, odd
			 * and even columns alternate) */
			uint32_t r = (i * 2) / NEDGES, c = (i * 2) % NEDGES;

			a[i] = edges[r];
			b[i] = edges[(c + (r & 1)) % NEDGES];
		} else {
			a[i] = ((double)(int64_t)api_rand(&seed) -
			        (double)(1ull << 31)) / 1024.0;
			b[i] = ((double)(int64_t)api_rand(&seed) + 1.0) /
			       3.0 * (i & 1 ? 1 : -1);
		}
	}
	s = st_shader(&e, code, size, NULL, NULL, 0);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, &push, sizeof(push),
	                                LANES / 64, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		double r[NOUT];
		uint32_t ww[NW], nb = (i & ~63u) | ((i + 1) & 63u);

		expected(a, b, push.k, i, r, ww);
		r[26] = a[nb] * 3.0;
		for (uint32_t j = 0; j < NOUT; j++)
			if (!same(o[i * NOUT + j], r[j])) {
				print_error("lane %u (a %a b %a) result %u: "
				            "got %a want %a\n", i, a[i], b[i], j,
				            o[i * NOUT + j], r[j]);
				fail();
			}
		for (uint32_t j = 0; j < NW; j++)
			if (w[i * NW + j] != ww[j]) {
				print_error("lane %u (a %a b %a) word %u: "
				            "got %x want %x\n", i, a[i], b[i], j,
				            w[i * NW + j], ww[j]);
				fail();
			}
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_f64_ops(void **state)
{
	(void)state;
	run_f64(sh_f64_spv, sizeof(sh_f64_spv));
}

/* -Os: SSA with double phis, folded constants and composites. */
static void
test_f64_ops_opt(void **state)
{
	(void)state;
	run_f64(sh_f64_opt_spv, sizeof(sh_f64_opt_spv));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f64_ops),
		cmocka_unit_test(test_f64_ops_opt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

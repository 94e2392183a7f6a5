/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: 64-bit integers (capability Int64) against host-computed
 * results, including the edge cases: wrap-around at 64 bits,
 * INT64_MIN / -1, division by zero (defined results, no trap), shifts,
 * saturating float conversions, and 64-bit values through storage
 * buffers, push constants, shared memory, Function variables and phis
 * (the shader also runs optimized by glslang -Os).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "shader_test_util.h"

#include "sh_i64.spv.h"
#include "sh_i64_opt.spv.h"
#include "sh_i64_atomic.spv.h"
#include "sh_i64_mem.spv.h"
#include "sh_i64_mem_opt.spv.h"
#include "sh_i64_subgroup.spv.h"

#define NOUT 41
#define LANES 256u

static const int64_t edges[] = {
	0, 1, -1, 2, -2, 7, INT64_MIN, INT64_MAX, 0x7fffffffll,
	0x80000000ll, 0xffffffffll, 0x100000000ll, -0x100000000ll,
	-0x80000001ll, 63, 64,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static uint64_t
sdiv(uint64_t a, uint64_t b)
{
	if (!b)
		return UINT64_MAX;
	if (b == UINT64_MAX)
		return 0 - a;
	return (uint64_t)((int64_t)a / (int64_t)b);
}

/* GLSL % on signed values is OpSMod: the sign follows the divisor. */
static uint64_t
smod(uint64_t a, uint64_t b)
{
	int64_t r;

	if (!b || b == UINT64_MAX)
		return 0;
	r = (int64_t)a % (int64_t)b;
	if (r && ((r < 0) != ((int64_t)b < 0)))
		r += (int64_t)b;
	return (uint64_t)r;
}

/* Float -> int64 as the engine defines it: saturate, NaN -> 0. */
static int64_t
f2s(float f)
{
	if (f != f)
		return 0;
	if (f >= 9223372036854775808.0f)
		return INT64_MAX;
	if (f < -9223372036854775808.0f)
		return INT64_MIN;
	return (int64_t)f;
}

static uint64_t
f2u(float f)
{
	if (!(f > 0.0f))
		return 0;
	if (f >= 18446744073709551616.0f)
		return UINT64_MAX;
	return (uint64_t)f;
}

static int64_t
smin(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t
smax(int64_t a, int64_t b) { return a > b ? a : b; }

static void
expected(const int64_t *a, const int64_t *b, const float *f, uint64_t k,
         uint32_t i, uint64_t *r)
{
	int64_t x = a[i], y = b[i];
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y, t = 0;

	r[0] = ux + uy;
	r[1] = ux - uy;
	r[2] = ux * uy;
	r[3] = sdiv(ux, uy);
	r[4] = uy ? ux / uy : UINT64_MAX;
	r[5] = smod(ux, uy);
	r[6] = uy ? ux % uy : UINT64_MAX;
	r[7] = ux << (uy & 63);
	r[8] = (uint64_t)(x >> (uy & 63));
	r[9] = ux >> (uy & 63);
	r[10] = ux & uy;
	r[11] = ux | uy;
	r[12] = ux ^ uy;
	r[13] = ~ux;
	r[14] = 0 - ux;
	r[15] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 |
	        (x == y) << 4 | (x != y) << 5 | (ux < uy) << 6 |
	        (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
	r[16] = (uint64_t)(int64_t)(int32_t)(uint32_t)ux;
	r[17] = (uint32_t)ux;
	r[18] = (uint64_t)(int64_t)(int32_t)(uint32_t)uy * (uint32_t)ux;
	r[19] = ux >> 32 | ux << 32;
	r[20] = (uint64_t)smin(x, y);
	r[21] = (uint64_t)smax(x, y);
	r[22] = ux < uy ? ux : uy;
	r[23] = ux > uy ? ux : uy;
	r[24] = x < 0 ? 0 - ux : ux;
	r[25] = (uint64_t)smin(smax(x, -1000), 1000);
	r[26] = (uint64_t)(x > 0 ? 1 : x < 0 ? -1 : 0);
	r[27] = ux * 3 + k;
	r[28] = uy * 3 + k;
	/* v3 = (x, v.y, v.x) -> x ^ v.y ^ (v.x << 1) */
	r[29] = ux ^ r[28] ^ (r[27] << 1);
	r[30] = 0;   /* filled by the caller (neighbour) */
	r[31] = (uy & 3) == 0 ? ux : (uy & 3) == 1 ? uy :
	        (uy & 3) == 2 ? ux + 1 : uy - 1;
	for (uint64_t j = 0; j < (ux & 15); j++)
		t += j * 0x100000001ull;
	r[32] = t;
	r[33] = (uint64_t)f2s((float)x);
	r[34] = f2u((float)ux);
	r[35] = (uint64_t)f2s(f[i * 2]);
	r[36] = f2u(f[i * 2 + 1]);
	r[37] = x > 0 ? uy : ux;
	r[38] = k + i;
	r[39] = 0x123456789abcdef0ull + ((uint32_t)ux >> 3);
	r[40] = (uint32_t)ux >> (uy & 31);
}

static void
run_i64(const uint32_t *code, size_t size)
{
	struct st_env e;
	int64_t *a, *b, *o;
	float *f, *fin = malloc(LANES * 2 * sizeof(float));
	static const float specials[] = {
		NAN, INFINITY, -INFINITY, 1e19f, -1e19f, 2e19f, -5.5f,
		123.75f, 9.3e18f, -9.3e18f, 0.0f, -0.0f, 4294967296.0f,
		-1.0f, 0.999f, 1.8e19f,
	};
	/* std430: the uint64_t member sits at offset 8 */
	struct { uint32_t pad, pad2; uint32_t k_lo, k_hi; } push;
	uint64_t k = 0xfedcba9876543210ull, seed = 64;
	swgpu_shader *s;

	st_init(&e);
	a = st_buf(&e, LANES * 8);
	b = st_buf(&e, LANES * 8);
	o = st_buf(&e, LANES * NOUT * 8);
	f = st_buf(&e, LANES * 2 * 4);
	for (uint32_t i = 0; i < LANES; i++) {
		if (i < NEDGES * NEDGES) {
			a[i] = edges[i / NEDGES];
			b[i] = edges[i % NEDGES];
		} else {
			a[i] = (int64_t)(api_rand(&seed) << 32 ^
			                 api_rand(&seed));
			b[i] = (int64_t)(api_rand(&seed) << 32 ^
			                 api_rand(&seed)) >> (i % 50);
		}
		f[i * 2] = specials[i % 16];
		f[i * 2 + 1] = i < 16 ? specials[(i + 5) % 16] :
		    (float)(api_rand(&seed) % 100000) * 1e10f;
	}
	memcpy(fin, f, LANES * 2 * sizeof(float));
	push.pad = 0;
	push.k_lo = (uint32_t)k;
	push.k_hi = (uint32_t)(k >> 32);
	push.pad2 = 0;
	s = st_shader(&e, code, size, NULL, NULL, 0);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, &push, sizeof(push),
	                                LANES / 64, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		uint64_t r[NOUT];
		uint32_t nb = (i & ~63u) | ((i + 1) & 63u);

		expected(a, b, fin, k, i, r);
		r[30] = (uint64_t)a[nb] * 7;
		for (uint32_t j = 0; j < NOUT; j++)
			if ((uint64_t)o[i * NOUT + j] != r[j]) {
				print_error("lane %u (a %lld b %lld) result %u:"
				            " got %llx want %llx\n", i,
				            (long long)a[i], (long long)b[i], j,
				            (unsigned long long)o[i * NOUT + j],
				            (unsigned long long)r[j]);
				fail();
			}
		assert_true(f[i * 2] == (float)a[i]);
		assert_true(f[i * 2 + 1] == (float)(uint64_t)a[i]);
	}
	swgpu_shader_destroy(s);
	free(fin);
	st_fini(&e);
}

static void
test_int64_ops(void **state)
{
	(void)state;
	run_i64(sh_i64_spv, sizeof(sh_i64_spv));
}

/* -Os: SSA with 64-bit OpPhi, folded constants and composites. */
static void
test_int64_ops_opt(void **state)
{
	(void)state;
	run_i64(sh_i64_opt_spv, sizeof(sh_i64_opt_spv));
}

/* 64-bit atomics under contention: 64 workgroups of 64 lanes spread over
 * the engine threads all hit the same words; results must be exact. */
static void
test_int64_atomics(void **state)
{
	struct st_env e;
	const uint32_t groups = 64, n = groups * 64;
	uint64_t *c, *old, *sh, want_xor = 0, want_sum = 0;
	uint8_t *seen = calloc(n, 1);
	int64_t smin = INT64_MAX, smax = INT64_MIN;
	uint64_t umin = UINT64_MAX, umax = 0;
	swgpu_shader *s;
	bool xchg_ok = false;

	(void)state;
	st_init(&e);
	c = st_buf(&e, 12 * 8);
	old = st_buf(&e, n * 8);
	sh = st_buf(&e, groups * 2 * 8);
	c[2] = (uint64_t)INT64_MAX;
	c[3] = (uint64_t)INT64_MIN;
	c[4] = UINT64_MAX;
	c[7] = UINT64_MAX;
	s = st_shader(&e, sh_i64_atomic_spv, sizeof(sh_i64_atomic_spv), NULL,
	              NULL, 0);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, NULL, 0, groups, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = (uint64_t)i * 0x9e3779b97f4a7c15ull;

		want_xor ^= v;
		smin = smin < (int64_t)v ? smin : (int64_t)v;
		smax = smax > (int64_t)v ? smax : (int64_t)v;
		umin = umin < v ? umin : v;
		umax = umax > v ? umax : v;
		xchg_ok |= c[10] == v;
		/* every old value of the add is distinct: k * 0x100000001 */
		assert_true(old[i] % 0x100000001ull == 0);
		assert_true(old[i] / 0x100000001ull < n);
		assert_false(seen[old[i] / 0x100000001ull]);
		seen[old[i] / 0x100000001ull] = 1;
	}
	assert_true(c[0] == (uint64_t)n * 0x100000001ull);
	assert_true((int64_t)c[1] == -(int64_t)n * (n - 1) / 2);
	assert_true((int64_t)c[2] == smin);
	assert_true((int64_t)c[3] == smax);
	assert_true(c[4] == umin);
	assert_true(c[5] == umax);
	assert_true(c[6] == UINT64_MAX);
	assert_true(c[7] == 0);
	assert_true(c[8] == want_xor);
	assert_true(c[9] == (uint64_t)n * 0x80000000ull);
	assert_true(xchg_ok);
	assert_true(c[11] == n);
	for (uint32_t g = 0; g < groups; g++) {
		int64_t m = INT64_MAX;

		want_sum = 0;
		for (uint32_t l = 0; l < 64; l++) {
			uint64_t i = g * 64 + l;
			uint64_t v = i * 0x9e3779b97f4a7c15ull;
			int64_t t = -(int64_t)(v >> 2);

			want_sum += i << 31;
			m = m < t ? m : t;
		}
		assert_true(sh[g * 2] == want_sum);
		assert_true((int64_t)sh[g * 2 + 1] == m);
	}
	swgpu_shader_destroy(s);
	free(seen);
	st_fini(&e);
}

/* std140 / std430 offsets of 64-bit members (see sh_i64_mem.comp). */
static void
run_i64_mem(const uint32_t *code, size_t size, bool spec)
{
	/* a 64-bit specialization constant (size 8) */
	const swgpu_spec_constant sc = {
		.id = 3, .size = 8, .value = 0xfedcba9876543210ull,
	};
	struct st_env e;
	/* st_shader reads a type for every one of ST_MAX_BUFS bindings */
	swgpu_descriptor_type types[ST_MAX_BUFS];
	uint8_t *ub, *sb;
	uint64_t *o, z0[3], z1[3], w[4];
	int64_t y = -0x123456789ll;
	swgpu_shader *s;

	for (uint32_t i = 0; i < ST_MAX_BUFS; i++)
		types[i] = i ? SWGPU_DESCRIPTOR_STORAGE_BUFFER :
		               SWGPU_DESCRIPTOR_UNIFORM_BUFFER;
	for (uint32_t i = 0; i < 3; i++) {
		z0[i] = 0x1111111100000000ull * (i + 1) + i;
		z1[i] = 0xa0a0a0a0b0b0b0b0ull ^ ((uint64_t)i << 40);
	}
	for (uint32_t i = 0; i < 4; i++)
		w[i] = (uint64_t)-(int64_t)(i * 0x100000003ull);
	st_init(&e);
	ub = st_buf(&e, 64);
	sb = st_buf(&e, 160);
	o = st_buf(&e, 16 * 8);
	*(uint32_t *)(ub + 0) = 2;                       /* a */
	*(uint64_t *)(ub + 8) = 0x8000000000000001ull;   /* b */
	*(int64_t *)(ub + 16) = 5;                       /* c.x */
	*(int64_t *)(ub + 24) = -0x7000000000000000ll;   /* c.y */
	for (uint32_t i = 0; i < 3; i++)                 /* d */
		*(uint64_t *)(ub + 32 + 8 * i) = 0xdead0000beef0000ull + i;
	*(uint32_t *)(ub + 56) = 0xfffffff0u;            /* e */
	*(uint32_t *)(sb + 0) = 77;                      /* x */
	memcpy(sb + 8, &y, 8);                           /* y */
	memcpy(sb + 32, z0, 24);                         /* z[0] */
	memcpy(sb + 64, z1, 24);                         /* z[1] */
	*(uint32_t *)(sb + 96) = 3;                      /* q */
	memcpy(sb + 128, w, 32);                         /* w */
	s = st_shader(&e, code, size, types, spec ? &sc : NULL, spec);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	assert_true(o[0] == 0x8000000000000001ull);
	assert_true(o[1] == (uint64_t)-0x7000000000000000ll);
	for (uint32_t i = 0; i < 3; i++)
		assert_true(o[2 + i] == 0xdead0000beef0000ull + i);
	assert_true(o[5] == 0xdead0000beef0002ull);
	assert_true(o[6] == 0xfffffff0u);
	assert_true(o[7] == z1[2] + z0[0]);
	assert_true(o[8] == z0[2]);             /* a & 1 = 0: z[0], comp 2 */
	assert_true(o[9] == z0[2] + 1);
	{
		int64_t sv = spec ? (int64_t)sc.value : -0x100000002ll;
		int64_t s2 = (int64_t)((uint64_t)sv * 3 + 1) >> 1;

		assert_true(o[10] == (uint64_t)sv);
		assert_true(o[11] == (uint64_t)s2);
		assert_true(o[12] == (sv < 0 ? 1u : 2u));
		assert_true(o[13] == (uint64_t)(int64_t)(int32_t)(uint32_t)sv);
	}
	w[2] = (uint64_t)-5ll;
	assert_true(memcmp(sb + 128, w, 32) == 0);
	y = y * 2 + 77 + 3;
	assert_true(memcmp(sb + 8, &y, 8) == 0);
	assert_true(memcmp(sb + 64, z1, 24) == 0);
	{
		uint64_t zr[3] = { z1[2], z1[1], z1[0] };

		assert_true(memcmp(sb + 32, zr, 24) == 0);
	}
	/* bytes between members are untouched */
	assert_true(*(uint32_t *)(sb + 4) == 0);
	assert_true(*(uint64_t *)(sb + 56) == 0);
	assert_true(*(uint32_t *)(sb + 100) == 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_int64_memory_layouts(void **state)
{
	(void)state;
	run_i64_mem(sh_i64_mem_spv, sizeof(sh_i64_mem_spv), false);
	run_i64_mem(sh_i64_mem_spv, sizeof(sh_i64_mem_spv), true);
	run_i64_mem(sh_i64_mem_opt_spv, sizeof(sh_i64_mem_opt_spv), false);
	run_i64_mem(sh_i64_mem_opt_spv, sizeof(sh_i64_mem_opt_spv), true);
}

/* 64-bit subgroup arithmetic: sums that carry into the high word, an
 * inclusive scan, a signed minimum, a clustered sum, moves of both words
 * (quad swap, broadcast, shuffle xor), AllEqual on both words; doubles
 * (add, exclusive min, clustered max, mul). */
static void
test_int64_subgroup_arith(void **state)
{
	struct st_env e;
	(void)state;

	st_init(&e);
	uint64_t *o = st_buf(&e, 384 * 8);
	for (uint32_t i = 0; i < 32; i++)
		o[i] = 0xfffffff0ull + ((uint64_t)i << 32) + i;
	swgpu_shader *s = st_shader(&e, sh_i64_subgroup_spv,
	                            sizeof(sh_i64_subgroup_spv), NULL, NULL,
	                            0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	uint64_t sum = 0, scan = 0;
	for (uint32_t i = 0; i < 32; i++)
		sum += 0xfffffff0ull + ((uint64_t)i << 32) + i;
	for (uint32_t i = 0; i < 32; i++) {
		scan += 0xfffffff0ull + ((uint64_t)i << 32) + i;
		assert_int_equal(o[i], sum);
		assert_int_equal(o[32 + i], scan);
		assert_int_equal(o[64 + i],
		                 (uint64_t)(int64_t)(0xfffffff0ll - 0x100000000ll));
	}
	for (uint32_t i = 0; i < 32; i++) {
		uint64_t c = 0;

		for (uint32_t j = i & ~3u; j < (i & ~3u) + 4; j++)
			c += 0xfffffff0ull + ((uint64_t)j << 32) + j;
		assert_int_equal(o[96 + i], c);
		assert_int_equal(o[128 + i], 0xfffffff0ull +
		                 ((uint64_t)(i ^ 3) << 32) + (i ^ 3));
		assert_int_equal(o[160 + i], 0xfffffff0ull +
		                 ((uint64_t)5 << 32) + 5);
		assert_int_equal(o[192 + i], 0xfffffff0ull +
		                 ((uint64_t)(i ^ 7) << 32) + (i ^ 7));
		assert_int_equal(o[224 + i], 2);
	}
	/* doubles: i / 2 + 1 sums to 280 over the subgroup */
	for (uint32_t i = 0; i < 32; i++) {
		double got[4];

		for (uint32_t k = 0; k < 4; k++)
			memcpy(&got[k], &o[256 + 32 * k + i], 8);
		assert_true(got[0] == 280.0);
		/* the minimum of -d over the lanes below: -(i - 1) / 2 - 1 */
		assert_true(got[1] == (i ? -((double)(i - 1) * 0.5 + 1.0)
		                         : INFINITY));
		assert_true(got[2] == (double)((i | 7) * 0.5 + 1.0));
		assert_true(got[3] == 1.0 * 1.5 * 2.0 * 2.5);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_int64_capability(void **state)
{
	(void)state;
	assert_true(swgpu_shader_capability_supported(SpvCapabilityInt64));
	assert_true(swgpu_shader_capability_supported(
		SpvCapabilityInt64Atomics));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int64_capability),
		cmocka_unit_test(test_int64_ops),
		cmocka_unit_test(test_int64_ops_opt),
		cmocka_unit_test(test_int64_atomics),
		cmocka_unit_test(test_int64_memory_layouts),
		cmocka_unit_test(test_int64_subgroup_arith),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: 8- and 16-bit integers (Int8, Int16 and the 8/16-bit
 * storage capabilities) against host-computed results: wrap-around at
 * the type's width, signed division (INT8_MIN / -1 wraps), remainders,
 * shifts, comparisons, min/max/abs/sign/clamp, sign and zero extension,
 * truncation, conversions to/from float and 64-bit, bitcasts that
 * repack (pack32/unpack8/unpack16), byte/short arrays, vectors and
 * struct members in storage buffers (neighbouring bytes untouched), a
 * uniform buffer and push constants (the shader also runs optimized by
 * glslang -Os). 16-bit floats (Float16): each operation rounded to
 * nearest even at half precision, with overflow, denormals, NaN and
 * infinities, against a host model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shader_test_util.h"

#include "sh_narrow.spv.h"
#include "sh_narrow_opt.spv.h"
#include "sh_half.spv.h"

#define NOUT 24
#define LANES 256u

static int32_t
sdiv(int32_t a, int32_t b)
{
	return a / b;   /* never INT32_MIN / -1: operands are narrow */
}

/* GLSL % on signed values is OpSMod: the sign follows the divisor. */
static int32_t
smod(int32_t a, int32_t b)
{
	int32_t r = a % b;

	if (r && ((r < 0) != (b < 0)))
		r += b;
	return r;
}

static int32_t
findmsb(int32_t v)
{
	uint32_t u = (uint32_t)(v < 0 ? ~v : v);

	return u ? 31 - __builtin_clz(u) : -1;
}

static int32_t
findlsb(uint32_t u)
{
	return u ? __builtin_ctz(u) : -1;
}

static uint32_t
fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static void
expected(const int8_t *a8, const int16_t *a16, uint32_t i, int16_t u16,
         uint8_t u8, uint8_t p8, int16_t p16, uint32_t *r)
{
	int8_t x = a8[i], y = a8[(i * 7u + 3u) & 255u];
	int16_t s = a16[i], t = a16[(i * 5u + 1u) & 255u];
	uint8_t ux = (uint8_t)x, uy = (uint8_t)y;
	uint16_t us = (uint16_t)s, ut = (uint16_t)t;
	int8_t yd = y ? y : 1, ym = y ? y : 3;
	int16_t td = t ? t : 1;
	int64_t w = (int64_t)s * x;
	uint32_t v = i * 0x01020304u, v2 = i * 0x9e3779b9u;
	int8_t absx = (int8_t)(x < 0 ? -x : x);
	int16_t cl = s < -100 ? -100 : s > 100 ? 100 : s;

	r[0] = (uint8_t)(x + y) | (uint32_t)(uint8_t)(x * y) << 8 |
	       (uint32_t)(uint8_t)(x - y) << 16 |
	       (uint32_t)(uint8_t)-x << 24;
	r[1] = (uint16_t)(s + t) | (uint32_t)(uint16_t)(s * t) << 16;
	r[2] = ((uint32_t)(int8_t)sdiv(x, yd) & 0xffu) |
	       ((uint32_t)(int8_t)smod(x, ym) << 8 & 0xff00u);
	r[3] = (uint32_t)(int16_t)sdiv(s, td);
	r[4] = (uint32_t)(ux / (uy ? uy : 1)) |
	       (uint32_t)(us % (ut ? ut : 9)) << 8;
	r[5] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 |
	       (uint32_t)(x > y) << 2 | (uint32_t)(ux < uy) << 3 |
	       (uint32_t)(s < t) << 4 | (uint32_t)(us < ut) << 5 |
	       (uint32_t)(x == y) << 6 | (uint32_t)(s >= t) << 7;
	r[6] = (uint32_t)(int8_t)(x >> 3) ^ (uint32_t)(int16_t)(s >> 5) << 8;
	r[7] = (uint32_t)(ux >> 3) | (uint32_t)(us >> 5) << 8;
	r[8] = (uint8_t)((uint32_t)x << 3) |
	       (uint32_t)(uint16_t)((uint32_t)s << 7) << 8;
	r[9] = (uint32_t)(x < y ? x : y) ^ (uint32_t)(s > t ? s : t) << 8;
	r[10] = (uint32_t)absx ^
	        (uint32_t)(s > 0 ? 1 : s < 0 ? -1 : 0) << 12 ^
	        (uint32_t)(ux < uy ? ux : uy) << 20;
	r[11] = (uint32_t)cl;
	r[12] = (uint32_t)x ^ (uint32_t)s << 3;
	r[13] = ux | (uint32_t)us << 8;
	r[14] = (uint32_t)(int8_t)s | (uint32_t)(uint8_t)us << 8 |
	        (uint32_t)(int16_t)x << 16;
	r[15] = (uint32_t)w ^ (uint32_t)((uint64_t)w >> 32);
	r[16] = (uint32_t)(int16_t)(int64_t)((int64_t)i * 0x12345);
	r[17] = fbits((float)x + (float)us);
	r[18] = (uint32_t)(int8_t)(int32_t)((float)y * 0.5f);
	r[19] = ux | (uint32_t)uy << 8 | (uint32_t)(uint8_t)i << 16 |
	        255u << 24;
	r[20] = (v & 0xff) + (v >> 24) * 3u +
	        (uint32_t)(int16_t)(v2 >> 16) * 5u;
	r[21] = (uint32_t)u16 + u8 + p8 + (uint32_t)p16;
	r[22] = (uint8_t)~ux | (uint32_t)(uint16_t)~us << 8;
	r[23] = (uint32_t)__builtin_popcount(ux) |
	        (uint32_t)findmsb(s) << 8 | (uint32_t)findlsb(us) << 16;
}

static void
run_narrow(const uint32_t *code, size_t size)
{
	static const int8_t e8[] = { 0, 1, -1, 127, -128, 2, -2, 64 };
	static const int16_t e16[] = { 0, 1, -1, 32767, -32768, 256, -256,
	                               7 };
	swgpu_descriptor_type types[ST_MAX_BUFS];
	struct st_env e;
	int8_t *a8;
	int16_t *a16;
	uint32_t *o;
	uint8_t *sb, *ub;
	struct { uint8_t p8, pad; int16_t p16; } push = { 200, 0, -1234 };
	uint64_t seed = 5;
	swgpu_shader *s;

	for (uint32_t i = 0; i < ST_MAX_BUFS; i++)
		types[i] = i == 4 ? SWGPU_DESCRIPTOR_UNIFORM_BUFFER :
		                    SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	st_init(&e);
	a8 = st_buf(&e, LANES);
	a16 = st_buf(&e, LANES * 2);
	o = st_buf(&e, LANES * NOUT * 4);
	sb = st_buf(&e, 3328);
	ub = st_buf(&e, 16);
	for (uint32_t i = 0; i < LANES; i++) {
		a8[i] = i < 8 ? e8[i] : (int8_t)api_rand(&seed);
		a16[i] = i < 8 ? e16[i] : (int16_t)api_rand(&seed);
	}
	memset(sb, 0xa5, 3328);
	*(int16_t *)(void *)ub = -300;
	ub[2] = 250;
	ub[3] = 0x77;     /* next to u8: must not be read into it */
	s = st_shader(&e, code, size, types, NULL, 0);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, &push, sizeof(push),
	                                LANES / 64, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		uint32_t r[NOUT];
		int8_t x = a8[i], y = a8[(i * 7u + 3u) & 255u];
		uint16_t us = (uint16_t)a16[i];
		uint16_t ut = (uint16_t)a16[(i * 5u + 1u) & 255u];
		uint16_t v16[4];

		expected(a8, a16, i, -300, 250, push.p8, push.p16, r);
		for (uint32_t j = 0; j < NOUT; j++)
			if (o[i * NOUT + j] != r[j]) {
				print_error("lane %u (x %d s %d) result %u: "
				            "got %x want %x\n", i, a8[i], a16[i],
				            j, o[i * NOUT + j], r[j]);
				fail();
			}
		assert_int_equal(sb[i], (uint8_t)(x + 1));
		memcpy(v16, sb + 256 + i * 8, 8);
		assert_int_equal(v16[0], us);
		assert_int_equal(v16[1], ut);
		assert_int_equal(v16[2], us ^ ut);
		assert_int_equal(v16[3], 0xa5a5);   /* padding untouched */
		assert_int_equal((int8_t)sb[2304 + i * 4], x);
		assert_int_equal((int8_t)sb[2304 + i * 4 + 1], y);
		assert_int_equal((int8_t)sb[2304 + i * 4 + 2], (int8_t)-x);
		assert_int_equal(sb[2304 + i * 4 + 3], (uint8_t)i);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_narrow_ops(void **state)
{
	(void)state;
	run_narrow(sh_narrow_spv, sizeof(sh_narrow_spv));
}

/* -Os: SSA with narrow phis, folded constants and composites. */
static void
test_narrow_ops_opt(void **state)
{
	(void)state;
	run_narrow(sh_narrow_opt_spv, sizeof(sh_narrow_opt_spv));
}

/* A 1- or 2-byte access past the end of the bound range reads 0 and
 * writes nothing (robust buffer access), with no host fault. */
static void
test_narrow_out_of_range(void **state)
{
	swgpu_descriptor_type types[ST_MAX_BUFS];
	uint64_t ranges[ST_MAX_BUFS] = { 5, 7, LANES * NOUT * 4, 300, 16 };
	struct st_env e;
	struct { uint8_t p8, pad; int16_t p16; } push = { 1, 0, 2 };
	uint8_t *sb;
	uint32_t *o;
	swgpu_shader *s;

	(void)state;
	for (uint32_t i = 0; i < ST_MAX_BUFS; i++)
		types[i] = i == 4 ? SWGPU_DESCRIPTOR_UNIFORM_BUFFER :
		                    SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	st_init(&e);
	memset(st_buf(&e, LANES), 9, LANES);
	memset(st_buf(&e, LANES * 2), 0, LANES * 2);
	o = st_buf(&e, LANES * NOUT * 4);
	sb = st_buf(&e, 3328);
	st_buf(&e, 16);
	s = st_shader(&e, sh_narrow_spv, sizeof(sh_narrow_spv), types, NULL,
	              0);
	api_check(SWGPU_OK, st_dispatch(&e, s, ranges, &push, sizeof(push),
	                                LANES / 64, 1, 1));
	/* lane 5 read a8[5] = 0 (range 5): ux + 1 = 1 */
	assert_int_equal(sb[5], 1);
	assert_int_equal(sb[4], 10);
	/* o[13] = ux | us << 8: lane 4 in range for a8 only; a16[4] out
	 * (range 7 covers a16[0..2]) */
	assert_int_equal(o[4 * NOUT + 13], 9);
	/* stores past 300 bytes of S dropped */
	for (uint32_t k = 300; k < 3328; k++)
		assert_int_equal(sb[k], 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* IEEE half <-> float on the host (round to nearest even). */
static float
h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31;
	uint32_t m = h & 0x3ffu;
	float f;

	if (e == 31)
		return m ? NAN : (sign ? -INFINITY : INFINITY);
	f = e ? ldexpf(1.0f + (float)m / 1024.0f, (int)e - 15)
	      : ldexpf((float)m, -24);
	return sign ? -f : f;
}

static uint16_t
f2h(float f)
{
	uint16_t sign = signbit(f) ? 0x8000u : 0;
	float a = fabsf(f);
	int e;

	if (isnan(f))
		return 0x7e00u | sign;
	if (a >= 65520.0f)       /* rounds to infinity */
		return 0x7c00u | sign;
	if (a < 0x1p-14f) {      /* denormal: units of 2^-24 */
		return sign | (uint16_t)nearbyintf(a * 0x1p24f);
	}
	frexpf(a, &e);           /* a = m * 2^e, m in [0.5, 1) */
	{
		float unit = ldexpf(1.0f, e - 11);
		uint32_t q = (uint32_t)nearbyintf(a / unit); /* 11 bits */
		uint32_t he = (uint32_t)(e - 1 + 15);

		if (q == 2048) {
			q = 1024;
			he++;
		}
		return (uint16_t)(sign | he << 10 | (q - 1024));
	}
}

/* The engine's NaN is 0x7e00 with the sign: any NaN matches a NaN. */
static bool
same_half(uint16_t got, uint16_t want)
{
	if ((want & 0x7c00u) == 0x7c00u && (want & 0x3ffu))
		return (got & 0x7c00u) == 0x7c00u && (got & 0x3ffu);
	return got == want;
}

#define HOUT 12

static void
half_expected(const uint16_t *a, uint32_t i, uint16_t k, uint32_t *r,
              uint32_t *nanmask)
{
	uint16_t hx = a[i], hy = a[(i * 5u + 2u) & 255u];
	float x = h2f(hx), y = h2f(hy), c = fminf(fmaxf(x, -1000), 1000);
	uint32_t fb;

	r[0] = f2h(x + y) | (uint32_t)f2h(x * y) << 16;
	r[1] = f2h(x - y) | (uint32_t)f2h(x / y) << 16;
	r[2] = (uint16_t)(hx ^ 0x8000u) | (uint32_t)(hy & 0x7fffu) << 16;
	r[3] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 |
	       (uint32_t)(x == y) << 2 | (uint32_t)(x != y) << 3 |
	       (uint32_t)(isnan(x) != 0) << 4 | (uint32_t)(isinf(x) != 0) << 5;
	memcpy(&fb, &x, 4);
	r[4] = fb;
	r[5] = f2h(y * 3.0f) | (uint32_t)hx << 16;
	r[6] = (uint32_t)(int32_t)c;
	/* min with a NaN operand is undefined (GLSL.std.450 FMin): the
	 * low half only then */
	r[7] = f2h((float)((int32_t)i - 128)) |
	       (uint32_t)f2h(fminf(x, y)) << 16;
	if (isnan(x) || isnan(y))
		r[7] = (r[7] & 0xffffu) | 0x7e000000u;
	r[8] = f2h(floorf(x)) | (uint32_t)f2h(x * h2f(k)) << 16;
	r[9] = f2h(h2f(f2h(x * 2.0f)) * 1.0f) |
	       (uint32_t)f2h(y * 2.0f) << 16;
	r[10] = f2h(sqrtf(fabsf(x)));
	/* dot: the products and sum in float (exact), rounded once */
	r[11] = f2h(x * y + y * x);
	/* words made of two halves where NaN bits may differ */
	*nanmask = 0;
	for (uint32_t j = 0; j < HOUT; j++)
		if (j != 3 && j != 4 && j != 6)
			*nanmask |= 1u << j;
}

static void
test_half_ops(void **state)
{
	static const uint16_t edges[] = {
		0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0001, 0x8001,
		0x03ff, 0x0400, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x5640, 0x2e66,
	};
	struct st_env e;
	uint16_t *a, *v;
	uint32_t *o;
	struct { uint16_t k, pad; } push = { 0x4100, 0 };   /* 2.5 */
	uint64_t seed = 17;
	swgpu_shader *s;

	(void)state;
	st_init(&e);
	a = st_buf(&e, LANES * 2);
	o = st_buf(&e, LANES * HOUT * 4);
	v = st_buf(&e, LANES * 8);
	for (uint32_t i = 0; i < LANES; i++)
		a[i] = i < 16 ? edges[i] : (uint16_t)api_rand(&seed);
	s = st_shader(&e, sh_half_spv, sizeof(sh_half_spv), NULL, NULL, 0);
	api_check(SWGPU_OK, st_dispatch(&e, s, NULL, &push, sizeof(push),
	                                LANES / 64, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		uint32_t r[HOUT], nanmask;
		uint16_t hx = a[i], hy = a[(i * 5u + 2u) & 255u];

		half_expected(a, i, push.k, r, &nanmask);
		for (uint32_t j = 0; j < HOUT; j++) {
			uint32_t g = o[i * HOUT + j];
			/* clamp of a NaN is undefined too */
			if (j == 6 && isnan(h2f(hx)))
				continue;
			if (j == 7 && (r[j] >> 16) == 0x7e00u)
				g = (g & 0xffffu) | 0x7e000000u;
			bool ok = nanmask >> j & 1 ?
			    same_half((uint16_t)g, (uint16_t)r[j]) &&
			    same_half((uint16_t)(g >> 16),
			              (uint16_t)(r[j] >> 16)) :
			    g == r[j] || (j == 4 && isnan(h2f(hx)) &&
			                  isnan(st_f(g)));

			if (!ok) {
				print_error("lane %u (x %04x y %04x) result "
				            "%u: got %x want %x\n", i, hx, hy,
				            j, g, r[j]);
				fail();
			}
		}
		assert_true(same_half(v[i * 4], hx));
		assert_true(same_half(v[i * 4 + 1], hy));
		assert_true(same_half(v[i * 4 + 2], f2h(h2f(hx) + h2f(hy))));
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_narrow_ops),
		cmocka_unit_test(test_narrow_ops_opt),
		cmocka_unit_test(test_narrow_out_of_range),
		cmocka_unit_test(test_half_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

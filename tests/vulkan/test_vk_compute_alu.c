/* SPDX-License-Identifier: MIT */
/*
 * Shader engine, instruction level: each opcode family of what glslang
 * emits for GLSL 4.50 compute (integer and float arithmetic, vectors and
 * matrices, conversions, bit operations, comparisons and selects,
 * GLSL.std.450) run through the loader on 256 lanes with edge-case
 * inputs, every result checked against the host -- exactly where Vulkan
 * requires it (integer ops, correctly rounded float ops), within the
 * spec's ULP / absolute bounds elsewhere. Skips (77) without a COMPUTE
 * queue.
 */
#include "vkh_compute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alu_bits.spv.h"
#include "alu_cmp.spv.h"
#include "alu_conv.spv.h"
#include "alu_divzero.spv.h"
#include "alu_float.spv.h"
#include "alu_int.spv.h"
#include "alu_vec.spv.h"

#define LANES 256u
#define GROUPS (LANES / 64u)

static uint32_t
rnd(uint32_t *s)
{
	/* xorshift32: deterministic inputs, reproducible failures. */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static const uint32_t edge[] = {
	0x80000000u, 0x7fffffffu, 0xffffffffu, 0, 1, 2, 0x80000001u,
	0x7ffffffeu, 0x10000u, 0xffff0000u, 31, 32, 33, 0xaaaaaaaau,
	0x55555555u, 0xfffffffeu,
};
#define NEDGE (sizeof(edge) / sizeof(edge[0]))

/* Lane i's operands: all pairs of edge values first, then random. */
static void
int_inputs(uint32_t *a, uint32_t *b)
{
	uint32_t s = 0x12345678u;

	for (uint32_t i = 0; i < LANES; i++) {
		if (i < NEDGE * NEDGE) {
			a[i] = edge[i / NEDGE];
			b[i] = edge[i % NEDGE];
		} else {
			a[i] = rnd(&s);
			b[i] = (i & 1) ? rnd(&s) : rnd(&s) % 100;
		}
	}
}

/* 32-bit two's complement helpers without C's signed-overflow UB. */
static int32_t
s32(uint32_t v)
{
	int32_t r;

	memcpy(&r, &v, 4);
	return r;
}

static float
f32(uint32_t v)
{
	float r;

	memcpy(&r, &v, 4);
	return r;
}

static uint32_t
fbits(float f)
{
	uint32_t r;

	memcpy(&r, &f, 4);
	return r;
}

/* Buffers of n uints each; all destroyed by put_bufs. */
static bool
get_bufs(struct vkh *h, struct vkh_device *d, struct vkh_buffer *b,
         unsigned n, const VkDeviceSize *sizes)
{
	memset(b, 0, n * sizeof(*b));
	for (unsigned i = 0; i < n; i++)
		if (vkh_host_buffer(h, d, sizes[i], 0, &b[i]) != VK_SUCCESS)
			return false;
	return true;
}

static void
put_bufs(struct vkh_device *d, struct vkh_buffer *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		vkh_buffer_destroy(d, &b[i]);
}

/* ---- integer ---- */

#define INT_K 24u

static void
int_model(uint32_t x, uint32_t y, uint32_t *o)
{
	int32_t sx = s32(x), sy = s32(y);
	int32_t syd = (sy == 0 || (x == 0x80000000u && sy == -1)) ? 7 : sy;
	uint32_t uyd = y ? y : 7;
	uint32_t m = (x & 0x7fffffffu), dv = ((uint32_t)syd & 0x7fffffffu) | 1;

	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = (uint32_t)(sx / syd);
	o[4] = 0u - x;
	o[5] = m % dv;
	o[6] = (uint32_t)(sx >> (y & 31)); /* gcc: arithmetic shift */
	o[7] = x << (y & 31);
	o[8] = sx < 0 ? 0u - x : x;
	o[9] = (uint32_t)(sx > 0 ? 1 : sx < 0 ? -1 : 0);
	o[10] = (uint32_t)(sx < sy ? sx : sy);
	o[11] = (uint32_t)(sx > sy ? sx : sy);
	o[12] = (uint32_t)(sx < -1000 ? -1000 : sx > 1000 ? 1000 : sx);
	o[13] = x + y;
	o[14] = x - y;
	o[15] = x * y;
	o[16] = x / uyd;
	o[17] = x % uyd;
	o[18] = x >> (y & 31);
	o[19] = x < y ? x : y;
	o[20] = x > y ? x : y;
	o[21] = x < 1000 ? 1000 : x > 0x80000000u ? 0x80000000u : x;
	o[22] = x * 3u + y * (0u - 5u) - 17u;
	o[23] = (x + 1u) + y;
}

static void
test_int(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * INT_K * 4 };
	struct vkh_buffer b[3];
	uint32_t *a, *bb, *o, want[INT_K];
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	int_inputs(a, bb);
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_int_spv, sizeof(alu_int_spv),
	                                b, 3, NULL, 0, GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		int_model(a[i], bb[i], want);
		for (uint32_t k = 0; k < INT_K; k++) {
			if (o[i * INT_K + k] != want[k] && bad++ < 8)
				fprintf(stderr, "  lane %u op %u: x=0x%08x "
				        "y=0x%08x got 0x%08x want 0x%08x\n", i,
				        k, a[i], bb[i], o[i * INT_K + k],
				        want[k]);
		}
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u integer result(s) wrong", bad);
}

static void
test_divzero(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * 6 * 4 };
	struct vkh_buffer b[3];
	uint32_t *a, *bb, *o;
	unsigned bad = 0, zero_lanes = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	for (uint32_t i = 0; i < LANES; i++) {
		a[i] = i * 977u + 5u;
		if (i % 64 == 63)
			a[i] = 0x80000000u;
		/* Zero divisors on every 3rd lane: lanes of one subgroup
		 * diverge between defined and undefined results. */
		bb[i] = i % 3 == 0 ? 0 : i % 64 == 63 ? 0xffffffffu : i;
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_divzero_spv,
	                                sizeof(alu_divzero_spv), b, 3, NULL,
	                                0, GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		uint32_t x = a[i], y = bb[i];
		if (o[i * 6 + 5] != x + 1u && bad++ < 8)
			fprintf(stderr, "  lane %u: x+1 = 0x%08x\n", i,
			        o[i * 6 + 5]);
		if (y == 0 || (x == 0x80000000u && y == 0xffffffffu)) {
			zero_lanes++;
			if (y == 0)
				continue;
			/* INT_MIN / -1: signed results undefined, the
			 * unsigned ones are not. */
			if (o[i * 6 + 1] != x / y || o[i * 6 + 2] != x % y)
				bad++;
			continue;
		}
		if (o[i * 6 + 0] != (uint32_t)(s32(x) / s32(y)) ||
		    o[i * 6 + 1] != x / y || o[i * 6 + 2] != x % y) {
			if (bad++ < 8)
				fprintf(stderr, "  lane %u: %u / %u wrong\n",
				        i, x, y);
		}
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u lane(s) wrong around division by "
	              "zero", bad);
	printf("  %u lanes divided by zero (or INT_MIN / -1); dispatch "
	       "completed, other lanes exact\n", zero_lanes);
}

/* ---- float ---- */

#define FLT_K 32u

/* Distance in ULPs between two finite floats of the same sign region. */
static double
ulps(float got, double want)
{
	float w = (float)want;
	double u = nextafterf(fabsf(w), INFINITY) - fabsf(w);

	return fabs((double)got - want) / u;
}

struct fcheck {
	const char *name;
	/* 0 exact, 1 ULP bound, 2 absolute, 3 relative, 4 log2's bound
	 * (tol ULP, or 2^-21 absolute when the result is near 0) */
	int kind;
	double tol;
};

static const struct fcheck fchecks[FLT_K] = {
	{ "add", 0, 0 }, { "sub", 0, 0 }, { "mul", 0, 0 },
	{ "div", 1, 2.5 }, { "neg", 0, 0 }, { "abs", 0, 0 },
	{ "sign", 0, 0 }, { "floor", 0, 0 }, { "ceil", 0, 0 },
	/* fract: inherited from x - floor(x) */
	{ "fract", 2, 1e-5 }, { "trunc", 0, 0 }, { "roundEven", 0, 0 },
	{ "min", 0, 0 }, { "max", 0, 0 }, { "clamp", 0, 0 },
	{ "step", 0, 0 },
	/* sqrt: inherited from 1/inversesqrt (2 ULP + 2.5 ULP) */
	{ "sqrt", 3, 1e-6 }, { "inversesqrt", 1, 2 },
	/* exp2: 3 + 2|x| ULP, x <= 12.5 here */
	{ "exp2", 1, 3 + 2 * 12.5 },
	/* log2: 3 ULP outside [0.5, 2], absolute 2^-21 inside */
	{ "log2", 4, 3 },
	/* exp, log, pow, atan, tanh: inherited / 4096 ULP-class bounds */
	{ "exp", 3, 1e-5 }, { "log", 2, 1e-5 }, { "pow", 3, 1e-4 },
	/* sin, cos: absolute 2^-11 in [-pi, pi] */
	{ "sin", 2, 1.0 / 2048 }, { "cos", 2, 1.0 / 2048 },
	{ "atan", 3, 1e-3 }, { "mix", 2, 1e-4 }, { "fma", 2, 1e-3 },
	{ "mod", 2, 1e-4 }, { "smoothstep", 2, 1e-5 },
	{ "radians", 3, 1e-6 }, { "tanh", 2, 1e-4 },
};

static void
float_model(float x, float y, double *o)
{
	double ang = (double)(x * 0.0314159f);
	float t;

	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = (double)x / y;
	o[4] = -x;
	o[5] = fabsf(x);
	o[6] = x > 0 ? 1 : x < 0 ? -1 : 0;
	o[7] = floorf(x);
	o[8] = ceilf(x);
	o[9] = (double)x - floor(x);
	o[10] = truncf(x);
	o[11] = nearbyintf(x); /* default rounding: to even */
	o[12] = x < y ? x : y;
	o[13] = x > y ? x : y;
	o[14] = x < -y ? -y : x > y ? y : x;
	o[15] = x < y ? 0 : 1;
	o[16] = sqrt(y);
	o[17] = 1 / sqrt(y);
	o[18] = exp2((double)(y * 0.25f));
	o[19] = log2(y);
	o[20] = exp((double)(y * 0.1f));
	o[21] = log(y);
	o[22] = pow(y, 1.5);
	o[23] = sin(ang);
	o[24] = cos(ang);
	o[25] = atan2(x, y);
	o[26] = (double)x * 0.75 + (double)y * 0.25;
	o[27] = (double)x * y + 1;
	o[28] = (double)x - (double)y * floor((double)x / y);
	t = (x + 50.0f) / 100.0f;
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	o[29] = (double)t * t * (3 - 2 * (double)t);
	o[30] = (double)x * (M_PI / 180);
	o[31] = tanh(ang);
}

static bool
float_ok(const struct fcheck *c, float got, double want)
{
	if (isnan(got))
		return false;
	switch (c->kind) {
	case 0:
		return (double)got == (double)(float)want;
	case 1:
		return want == 0 ? got == 0 : ulps(got, want) <= c->tol;
	case 2:
		return fabs((double)got - want) <= c->tol;
	case 3:
		return fabs((double)got - want) <=
		       c->tol * fabs(want) + 1e-30;
	default:
		return fabs((double)got - want) <= ldexp(1, -21) ||
		       ulps(got, want) <= c->tol;
	}
}

static void
test_float(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * FLT_K * 4 };
	struct vkh_buffer b[3];
	float *a, *bb, *o;
	double want[FLT_K];
	uint32_t s = 0xf1f2f3f4u;
	static const float xs[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f,
	                            2.5f, -2.5f, 99.75f, -100.0f, 3.0f,
	                            -7.25f };
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	for (uint32_t i = 0; i < LANES; i++) {
		/* x in [-100, 100] (with the .5 ties of roundEven first),
		 * y in [0.5, 50]. */
		a[i] = i < sizeof(xs) / sizeof(xs[0]) ? xs[i] :
		       (float)((int)(rnd(&s) % 200001) - 100000) / 1000.0f;
		bb[i] = 0.5f + (float)(rnd(&s) % 49501) / 1000.0f;
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_float_spv,
	                                sizeof(alu_float_spv), b, 3, NULL, 0,
	                                GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		float_model(a[i], bb[i], want);
		for (uint32_t k = 0; k < FLT_K; k++) {
			float got = o[i * FLT_K + k];
			/* Signed zeros are not preserved without
			 * shaderSignedZeroInfNanPreserve. */
			if (got == 0 && want[k] == 0)
				continue;
			if (!float_ok(&fchecks[k], got, want[k]) &&
			    bad++ < 8)
				fprintf(stderr, "  lane %u %s(%.9g, %.9g) = "
				        "%.9g, want %.9g\n", i,
				        fchecks[k].name, a[i], bb[i], got,
				        want[k]);
		}
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u float result(s) out of bounds", bad);
}

/* NaN and denormal inputs: Vulkan lets an implementation flush denormals
 * and need not produce NaNs (without the float-controls features), so
 * only what stays defined is checked: the dispatch completes, normal
 * lanes are exact, a flushed-or-kept denormal sum is one of the allowed
 * values. */
static void
test_float_special(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * FLT_K * 4 };
	struct vkh_buffer b[3];
	uint32_t *a, *bb;
	float *o;
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	for (uint32_t i = 0; i < LANES; i++) {
		switch (i % 4) {
		case 0: a[i] = 0x7fc00000u; break;          /* qNaN */
		case 1: a[i] = 0x00000001u + i; break;      /* denormal */
		case 2: a[i] = 0x80400000u; break;          /* -denormal */
		default: a[i] = fbits((float)i); break;
		}
		bb[i] = fbits(1.0f + (float)(i % 7));
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_float_spv,
	                                sizeof(alu_float_spv), b, 3, NULL, 0,
	                                GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		float x = f32(a[i]), y = f32(bb[i]);
		float got_add = o[i * FLT_K + 0], got_mul = o[i * FLT_K + 2];
		if (i % 4 == 3) {
			if (got_add != x + y || got_mul != x * y)
				bad++;
		} else if (i % 4 != 0) {
			/* A denormal x: x + y is y or y + x rounded (the
			 * same here), x * y a denormal, or 0 if flushed. */
			if (got_add != x + y && got_add != y)
				bad++;
			if (got_mul != x * y && got_mul != 0.0f &&
			    fabsf(got_mul) >= 1.2e-38f)
				bad++;
		}
		/* NaN lanes: nothing is guaranteed but the completion. */
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u NaN/denormal-adjacent result(s) "
	              "wrong", bad);
}

/* ---- vectors and matrices ---- */

#define VEC_K 12u

static void
vec_model(const int32_t *x, int32_t o[VEC_K][4])
{
	int32_t y[4] = { x[3] + 1, x[2] - 2, x[1] + 3, x[0] - 4 };
	float fx[4], fy[4], m[4][4], m23[2][3];

	for (int c = 0; c < 4; c++) {
		fx[c] = (float)x[c];
		fy[c] = (float)y[c];
	}
	for (int r = 0; r < 4; r++) {
		m[0][r] = fx[r];
		m[1][r] = fy[r];
		m[2][r] = fx[(r + 1) % 4];
		m[3][r] = fy[(r + 2) % 4];
	}
	for (int r = 0; r < 3; r++) {
		m23[0][r] = fx[r];
		m23[1][r] = fy[r];
	}
	for (int c = 0; c < 4; c++) {
		uint32_t ux = (uint32_t)x[c], uy = (uint32_t)y[c];
		float mv = 0, vm = 0, mmt = 0;
		for (int k = 0; k < 4; k++) {
			mv += m[k][c] * fy[k];       /* (m * fy)[c] */
			vm += fy[k] * m[c][k];       /* (fy * m)[c] */
			mmt += m[k][c] * m[k][1];    /* (m * m^T)[1][c] */
		}
		o[0][c] = x[c] + y[c] * 3 - (x[c] & y[c]);
		o[1][c] = (int32_t)((ux * uy + (ux >> 3)) ^ uy);
		o[2][c] = (int32_t)(fx[c] * fy[c] - fx[c] * 0.5f * 4.0f);
		o[3][c] = (int32_t)mv;
		o[4][c] = (int32_t)vm;
		o[5][c] = (int32_t)mmt;
		o[8][c] = c < 2 ? (x[c] < y[c] ? x[c] : y[c]) :
		                  (int32_t)(ux > uy ? ux : uy);
		o[10][c] = (x[c] < y[c]) + (fx[c] == fy[c]) * 2 +
		           (ux >= uy) * 4;
	}
	for (int r = 0; r < 3; r++)
		o[6][r] = (int32_t)(m23[0][r] * fx[2] + m23[1][r] * fx[3]);
	o[6][3] = (int32_t)(fx[0] * fy[0] + fx[1] * fy[1] + fx[2] * fy[2] +
	                    fx[3] * fy[3]);
	o[7][0] = (int32_t)(fx[1] * fy[2] - fx[2] * fy[1]);
	o[7][1] = (int32_t)(fx[2] * fy[0] - fx[0] * fy[2]);
	o[7][2] = (int32_t)(fx[0] * fy[1] - fx[1] * fy[0]);
	o[7][3] = x[0] + x[1];
	{
		static const int zz[4] = { 2, 2, 0, 1 }, ww[4] = { 3, 0, 1, 3 };
		for (int c = 0; c < 4; c++)
			o[9][c] = x[zz[c]] * 2 + y[ww[c]];
	}
	for (int c = 0; c < 3; c++) {
		int32_t dlt = x[c] - y[c];
		o[11][c] = (dlt < 0 ? -dlt : dlt) *
		           (x[c] > 0 ? 1 : x[c] < 0 ? -1 : 0);
	}
	o[11][3] = 5 * (x[0] < 0 ? -x[0] : x[0]);
}

static void
test_vec(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[2] = { LANES * 16, LANES * VEC_K * 16 };
	struct vkh_buffer b[2];
	int32_t *a, *o, want[VEC_K][4];
	uint32_t s = 0xabcdef01u;
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 2, sz));
	a = b[0].map;
	o = b[1].map;
	for (uint32_t i = 0; i < LANES * 4; i++)
		a[i] = (int32_t)(rnd(&s) % 201) - 100;
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_vec_spv, sizeof(alu_vec_spv),
	                                b, 2, NULL, 0, GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		vec_model(a + i * 4, want);
		for (uint32_t k = 0; k < VEC_K; k++) {
			const int32_t *g = o + (i * VEC_K + k) * 4;
			if (memcmp(g, want[k], 16) && bad++ < 8)
				fprintf(stderr, "  lane %u op %u: got (%d %d "
				        "%d %d) want (%d %d %d %d)\n", i, k,
				        g[0], g[1], g[2], g[3], want[k][0],
				        want[k][1], want[k][2], want[k][3]);
		}
	}
	put_bufs(d, b, 2);
	VKH_CHECK_MSG(h, bad == 0, "%u vector result(s) wrong", bad);
}

/* ---- bits ---- */

#define BITS_K 24u

static uint32_t
popcount(uint32_t x)
{
	return (uint32_t)__builtin_popcount(x);
}

static uint32_t
bit_extract_u(uint32_t x, int off, int bits)
{
	return bits == 32 ? x : (x >> off) & ((1u << bits) - 1);
}

static void
bits_model(uint32_t x, uint32_t y, uint32_t *o)
{
	int off = (int)(y & 15), bits = (int)((y >> 4) & 15) + 1;
	uint32_t mask = ((bits == 32 ? 0 : 1u << bits) - 1u) << off;
	uint32_t r = 0, e;
	uint64_t p = (uint64_t)x * y;
	int64_t sp = (int64_t)s32(x) * s32(y);

	for (int k = 0; k < 32; k++)
		r |= ((x >> k) & 1u) << (31 - k);
	o[0] = x & y;
	o[1] = x | y;
	o[2] = x ^ y;
	o[3] = ~x;
	o[4] = x << (y & 31);
	o[5] = x >> (y & 31);
	o[6] = bit_extract_u(x, off, bits);
	e = bit_extract_u(x, off, bits);
	if (bits < 32 && (e >> (bits - 1)) & 1)
		e |= ~0u << bits; /* sign-extend */
	o[7] = e;
	o[8] = (x & ~mask) | ((y << off) & mask);
	o[9] = r;
	o[10] = popcount(x);
	o[11] = x ? (uint32_t)__builtin_ctz(x) : 0xffffffffu;
	o[12] = x ? 31u - (uint32_t)__builtin_clz(x) : 0xffffffffu;
	/* findMSB(int): highest bit differing from the sign; -1 for 0 and
	 * -1. */
	{
		uint32_t v = (x & 0x80000000u) ? ~x : x;
		o[13] = v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
	}
	o[14] = x + y;
	o[15] = x + y < x;
	o[16] = x - y;
	o[17] = x < y;
	o[18] = (uint32_t)(p >> 32);
	o[19] = (uint32_t)p;
	o[20] = (uint32_t)((uint64_t)sp >> 32);
	o[21] = (uint32_t)sp;
	o[22] = 0;
	o[23] = (x << 1) | (x >> 31);
}

static void
test_bits(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * BITS_K * 4 };
	struct vkh_buffer b[3];
	uint32_t *a, *bb, *o, want[BITS_K];
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	int_inputs(a, bb);
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_bits_spv,
	                                sizeof(alu_bits_spv), b, 3, NULL, 0,
	                                GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		bits_model(a[i], bb[i], want);
		for (uint32_t k = 0; k < BITS_K; k++)
			if (o[i * BITS_K + k] != want[k] && bad++ < 8)
				fprintf(stderr, "  lane %u op %u: x=0x%08x "
				        "y=0x%08x got 0x%08x want 0x%08x\n", i,
				        k, a[i], bb[i], o[i * BITS_K + k],
				        want[k]);
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u bit-operation result(s) wrong", bad);
}

/* ---- conversions ---- */

#define CONV_K 16u

static float
half_to_float(uint16_t hv)
{
	int e = (hv >> 10) & 31, m = hv & 1023;
	float v = e ? ldexpf((float)(m | 1024), e - 25) :
	              ldexpf((float)m, -24);

	return (hv & 0x8000) ? -v : v;
}

static void
test_conv(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[4] = { LANES * 4, LANES * 4, LANES * 4,
	                       LANES * CONV_K * 4 };
	struct vkh_buffer b[4];
	float *a;
	int32_t *bs;
	uint32_t *c, *o, s = 0x0badf00du;
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 4, sz));
	a = b[0].map;
	bs = b[1].map;
	c = b[2].map;
	o = b[3].map;
	for (uint32_t i = 0; i < LANES; i++) {
		a[i] = (float)((int32_t)(rnd(&s) % 33554431u) - 16777215) /
		       (float)(1u << (i % 12));
		bs[i] = (int32_t)(rnd(&s) % 33554431u) - 16777215;
		c[i] = i < NEDGE ? edge[i] : rnd(&s);
	}
	c[5] = 0x7fc00001u; /* NaN payloads survive a bitcast pair */
	c[6] = 0xff800000u;
	c[7] = 0x00000003u;
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_conv_spv,
	                                sizeof(alu_conv_spv), b, 4, NULL, 0,
	                                GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		float f = a[i];
		int32_t sv = bs[i];
		uint32_t u = c[i], w[CONV_K];
		const uint32_t *g = o + i * CONV_K;
		float un = (float)((u >> 8) & 255);

		w[0] = (uint32_t)(int32_t)f;
		w[1] = (uint32_t)fabsf(f);
		w[2] = fbits((float)sv);
		w[3] = fbits((float)(uint32_t)(sv < 0 ? -sv : sv));
		w[4] = (uint32_t)sv;
		w[5] = u;
		w[6] = u;
		w[7] = (sv < 0) + (u != 0) * 2u;
		w[8] = fbits(sv > 0 ? 1.0f : 0.0f);
		{
			/* half of an integer 0..1023: exact */
			uint32_t n = (uint32_t)(sv & 1023), hv = 0;
			if (n) {
				int e = 31 - __builtin_clz(n);
				hv = (uint32_t)((e + 15) << 10) |
				     ((n << (10 - e)) & 1023u);
			}
			w[9] = (0xb800u << 16) | hv;
		}
		w[10] = fbits(half_to_float((uint16_t)(u & 0x7bffu)));
		w[11] = fbits(half_to_float((uint16_t)((u >> 16) & 0x7bffu)));
		w[12] = 0xff40ff00u;
		w[13] = 0; /* checked with a tolerance below */
		w[14] = (uint32_t)(int32_t)-f;
		w[15] = fbits((float)(s32(fbits(f)) & 0xffff));
		for (uint32_t k = 0; k < CONV_K; k++) {
			bool ok = k == 13 ? fabsf(f32(g[k]) - un) < 1e-3f :
			                    g[k] == w[k];
			if (!ok && bad++ < 8)
				fprintf(stderr, "  lane %u conv %u: f=%.9g "
				        "s=%d u=0x%08x got 0x%08x want "
				        "0x%08x\n", i, k, f, sv, u, g[k],
				        w[k]);
		}
	}
	put_bufs(d, b, 4);
	VKH_CHECK_MSG(h, bad == 0, "%u conversion result(s) wrong", bad);
}

/* ---- comparisons and selects ---- */

static void
test_cmp(struct vkh *h, struct vkh_device *d)
{
	VkDeviceSize sz[3] = { LANES * 4, LANES * 4, LANES * 16 };
	struct vkh_buffer b[3];
	uint32_t *a, *bb, *o;
	unsigned bad = 0;

	VKH_CHECK(h, get_bufs(h, d, b, 3, sz));
	a = b[0].map;
	bb = b[1].map;
	o = b[2].map;
	int_inputs(a, bb);
	for (uint32_t i = NEDGE * NEDGE; i < LANES; i += 5)
		bb[i] = a[i]; /* equal operands too */
	VKH_CHECK_VK(h, vkh_compute_run(h, d, alu_cmp_spv, sizeof(alu_cmp_spv),
	                                b, 3, NULL, 0, GROUPS, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		uint32_t x = a[i], y = bb[i], mask = 0, w[4], v[4];
		int32_t sx = s32(x), sy = s32(y);
		float fx = (float)(sx >> 8), fy = (float)(sy >> 8);
		bool p[18] = {
			sx < sy, sx <= sy, sx > sy, sx >= sy, sx == sy,
			sx != sy, x < y, x <= y, x > y, x >= y, fx < fy,
			fx <= fy, fx > fy, fx >= fy, fx == fy, fx != fy,
			(x < y) != (sx < sy), ((x < y) && !(fx > fy)) || !x,
		};
		bool sel[4] = { p[0], p[6], p[10], p[14] };

		for (int k = 0; k < 18; k++)
			mask |= (uint32_t)p[k] << k;
		for (int k = 0; k < 4; k++)
			v[k] = sel[k] ? x : (uint32_t)k + 1;
		w[0] = mask;
		w[1] = sx < sy ? x : y;
		w[2] = v[0] + v[1] * 3 + v[2] * 5 + v[3] * 7;
		w[3] = (uint32_t)(sel[0] || sel[1] || sel[2] || sel[3]) |
		       (uint32_t)(sel[0] && sel[1] && sel[2] && sel[3]) << 1 |
		       (uint32_t)(!sel[0] || !sel[1] || !sel[2] ||
		                  !sel[3]) << 2;
		if (memcmp(o + i * 4, w, 16) && bad++ < 8)
			fprintf(stderr, "  lane %u: x=0x%08x y=0x%08x got "
			        "%08x %08x %08x %x want %08x %08x %08x %x\n",
			        i, x, y, o[i * 4], o[i * 4 + 1], o[i * 4 + 2],
			        o[i * 4 + 3], w[0], w[1], w[2], w[3]);
	}
	put_bufs(d, b, 3);
	VKH_CHECK_MSG(h, bad == 0, "%u comparison result(s) wrong", bad);
}

static const struct vkh_test tests[] = {
	{ "int_arith", test_int, 1, VK_QUEUE_COMPUTE_BIT },
	{ "int_divzero", test_divzero, 1, VK_QUEUE_COMPUTE_BIT },
	{ "float_arith", test_float, 1, VK_QUEUE_COMPUTE_BIT },
	{ "float_nan_denorm", test_float_special, 1, VK_QUEUE_COMPUTE_BIT },
	{ "vector_matrix", test_vec, 1, VK_QUEUE_COMPUTE_BIT },
	{ "bit_ops", test_bits, 1, VK_QUEUE_COMPUTE_BIT },
	{ "conversions", test_conv, 1, VK_QUEUE_COMPUTE_BIT },
	{ "compare_select", test_cmp, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_alu", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: arithmetic opcode families against host-computed values
 * (integer with wrap-around and division by zero, float and GLSL.std.450
 * with NaN/Inf inputs), run through real DISPATCH submits.
 */
#include <math.h>
#include <string.h>

#include "shader_test_util.h"

#include "sh_float.spv.h"
#include "sh_float_opt.spv.h"
#include "sh_int.spv.h"
#include "sh_int_opt.spv.h"
#include "sh_matfn.spv.h"

/* Int and float run as glslang emits them and optimized (-Os). */
#define SPV(name, st) ((st) ? name##_opt_spv : name##_spv)
#define SPV_SIZE(name, st) ((st) ? sizeof(name##_opt_spv) : \
                                   sizeof(name##_spv))
static int opt_on = 1;
#include "sh_saxpy.spv.h"

static uint32_t
bfe_u(uint32_t v, uint32_t off, uint32_t n)
{
	return n ? (v >> off) & ((n >= 32 ? 0u : 1u << n) - 1u) : 0;
}

static int32_t
bfe_s(uint32_t v, uint32_t off, uint32_t n)
{
	uint32_t r = bfe_u(v, off, n);

	if (n && n < 32 && (r >> (n - 1)) & 1)
		r |= ~((1u << n) - 1u);
	return (int32_t)r;
}

static uint32_t
bfi(uint32_t base, uint32_t ins, uint32_t off, uint32_t n)
{
	uint32_t mk = ((n >= 32 ? 0u : 1u << n) - 1u) << off;

	return (base & ~mk) | ((ins << off) & mk);
}

static int32_t
find_msb_s(int32_t x)
{
	uint32_t v = x < 0 ? ~(uint32_t)x : (uint32_t)x;

	return v ? 31 - __builtin_clz(v) : -1;
}

static uint32_t
rev(uint32_t v)
{
	uint32_t r = 0;

	for (int i = 0; i < 32; i++)
		if (v & (1u << i))
			r |= 1u << (31 - i);
	return r;
}

static void
test_int_ops(void **state)
{
	struct st_env e;
	const uint32_t n = 128;
	int32_t *a, *b, *o;
	swgpu_shader *s;
	uint64_t seed = 7;

	st_init(&e);
	a = st_buf(&e, n * 4);
	b = st_buf(&e, n * 4);
	o = st_buf(&e, n * 24 * 4);
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (int32_t)api_rand(&seed);
		b[i] = (int32_t)api_rand(&seed) >> (i % 28);
	}
	/* edge cases: overflow, division by zero, INT_MIN / -1 */
	a[0] = INT32_MAX; b[0] = 1;
	a[1] = INT32_MIN; b[1] = -1;
	a[2] = 12345; b[2] = 0;
	a[3] = -7; b[3] = 2;
	a[4] = 0; b[4] = 0;
	s = st_shader(&e, SPV(sh_int, *state),
	                SPV_SIZE(sh_int, *state), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, n / 64, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		int32_t x = a[i], y = b[i];
		uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
		const int32_t *r = o + i * 24;
		int32_t sdiv = y == 0 ? -1 : y == -1 ? (int32_t)(0u - ux)
		               : x / y;
		int32_t srem = (y == 0 || y == -1) ? 0 : x % y;
		int32_t smod = srem;
		uint32_t ctz = uy ? (uint32_t)__builtin_ctz(uy) : UINT32_MAX;
		uint32_t umsb = ux ? 31u - (uint32_t)__builtin_clz(ux)
		                   : UINT32_MAX;

		if (smod && ((smod < 0) != (y < 0)))
			smod += y;
		assert_int_equal(r[0], (int32_t)(ux + uy));
		assert_int_equal(r[1], (int32_t)(ux - uy));
		assert_int_equal(r[2], (int32_t)(ux * uy));
		assert_int_equal(r[3], sdiv);
		assert_int_equal((uint32_t)r[4], uy ? ux / uy : UINT32_MAX);
		/* GLSL % on ints is OpSRem or OpSMod depending on glslang */
		assert_true(r[5] == srem || r[5] == smod);
		assert_int_equal((uint32_t)r[6], uy ? ux % uy : UINT32_MAX);
		assert_int_equal(r[7], (int32_t)(ux << (uy & 31)));
		assert_int_equal(r[8], x >> (uy & 31));
		assert_int_equal((uint32_t)r[9], ux >> (uy & 31));
		assert_int_equal(r[10], x & y);
		assert_int_equal(r[11], x | y);
		assert_int_equal(r[12], x ^ y);
		assert_int_equal(r[13], ~x);
		assert_int_equal(r[14], (int32_t)(0u - ux));
		assert_int_equal(r[15], (int32_t)((uint32_t)(x < y ? x : y) +
		                 (uint32_t)(x > y ? x : y) * 3u));
		assert_int_equal((uint32_t)r[16], (ux < uy ? ux : uy) ^
		                 (ux > uy ? ux : uy));
		assert_int_equal(r[17], (int32_t)((x < 0 ? 0u - ux : ux) +
		                 (uint32_t)(y > 0 ? 1 : y < 0 ? -1 : 0)));
		assert_int_equal(r[18], x < -100 ? -100 : x > 100 ? 100 : x);
		assert_int_equal(r[19], (int32_t)((uint32_t)bfe_s(ux, 3, 9) +
		                 bfi(ux, uy, 5, 7)));
		assert_int_equal(r[20], (int32_t)((uint32_t)__builtin_popcount(
		                 ux) + ctz * 64u + (uint32_t)find_msb_s(x) *
		                 4096u));
		assert_int_equal((uint32_t)r[21], rev(ux));
		assert_int_equal(r[22], (x < y) + 2 * (ux < uy) + 4 * (x == y) +
		                 8 * (x >= y));
		assert_int_equal((uint32_t)r[23], bfe_u(ux, 4, 12) +
		                 umsb * 100000u);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static bool
close_to(float got, float want, float rel)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabsf(got - want) <= rel * fmaxf(1.0f, fabsf(want));
}

static void
check_f(uint32_t i, uint32_t k, float got, float want, float rel)
{
	if (!close_to(got, want, rel)) {
		print_error("invocation %u result %u: got %.9g want %.9g\n", i,
		            k, (double)got, (double)want);
		fail();
	}
}

static void
test_float_ops(void **state)
{
	struct st_env e;
	const uint32_t n = 96;
	float *a, *b, *o;
	uint32_t *u;
	swgpu_shader *s;
	uint64_t seed = 99;

	st_init(&e);
	a = st_buf(&e, n * 4);
	b = st_buf(&e, n * 4);
	o = st_buf(&e, n * 32 * 4);
	u = st_buf(&e, n * 4 * 4);
	for (uint32_t i = 0; i < n; i++) {
		a[i] = (float)((int64_t)(api_rand(&seed) % 20001) - 10000) /
		       997.0f;
		b[i] = (float)((int64_t)(api_rand(&seed) % 20001) - 10000) /
		       1009.0f;
	}
	a[0] = 1.0f; b[0] = 0.0f;         /* x / 0 = inf */
	a[1] = 0.0f; b[1] = 0.0f;         /* 0 / 0 = NaN */
	a[2] = NAN; b[2] = 2.0f;
	a[3] = -2.5f; b[3] = 3.5f;        /* rounding halves */
	a[4] = 0.5f; b[4] = -0.5f;
	s = st_shader(&e, SPV(sh_float, *state),
	                SPV_SIZE(sh_float, *state), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, n / 32, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		float x = a[i], y = b[i];
		const float *r = o + i * 32;
		const float tol = 1e-5f;
		float cx = fminf(fmaxf(x, -1.0f), 1.0f);
		float t = fminf(fmaxf((x + 2.0f) / 4.0f, 0.0f), 1.0f);

		check_f(i, 0, r[0], x + y, 0);
		check_f(i, 1, r[1], x - y, 0);
		check_f(i, 2, r[2], x * y, 0);
		check_f(i, 3, r[3], x / y, tol);
		if (y != 0.0f && !isnan(x))
			check_f(i, 4, r[4], x - y * floorf(x / y), 1e-4f);
		if (!isnan(x)) {
			check_f(i, 5, r[5], x < y ? x : y, 0);
			check_f(i, 6, r[6], x > y ? x : y, 0);
			check_f(i, 7, r[7], cx, 0);
			check_f(i, 10, r[10], t * t * (3.0f - 2.0f * t), tol);
		}
		check_f(i, 8, r[8], x * 0.75f + y * 0.25f, tol);
		if (!isnan(x))
			check_f(i, 9, r[9], y < x ? 0.0f : 1.0f, 0);
		check_f(i, 11, r[11], sqrtf(fabsf(x)), tol);
		check_f(i, 12, r[12], 1.0f / sqrtf(fabsf(x) + 1.0f), tol);
		check_f(i, 13, r[13], powf(fabsf(x) + 0.5f, 1.5f), tol);
		if (!isnan(x))
			check_f(i, 14, r[14], expf(fminf(fmaxf(x, -10.0f),
			                                 10.0f)), tol);
		check_f(i, 15, r[15], logf(fabsf(x) + 1.0f), tol);
		check_f(i, 16, r[16], exp2f(fminf(fmaxf(y, -10.0f), 10.0f)),
		        tol);
		check_f(i, 17, r[17], log2f(fabsf(y) + 1.0f), tol);
		check_f(i, 18, r[18], sinf(x) + cosf(y), tol);
		if (!isnan(x))
			check_f(i, 19, r[19], tanf(cx), tol);
		check_f(i, 20, r[20], atan2f(x, y), tol);
		check_f(i, 21, r[21], floorf(x) + ceilf(y) * 10.0f, 0);
		check_f(i, 22, r[22], x - floorf(x), 0);
		check_f(i, 23, r[23], roundf(x) + rintf(y) * 100.0f, 0);
		check_f(i, 24, r[24], truncf(x) + (y > 0 ? 1.0f : y < 0 ? -1.0f
		                                   : 0.0f) * 10.0f, 0);
		check_f(i, 25, r[25], fmaf(x, y, 1.0f), tol);
		if (!isnan(x))
			check_f(i, 26, r[26], (float)(int32_t)x +
			        (float)(uint32_t)fabsf(y) * 1000.0f, 0);
		if (!isnan(x))
			check_f(i, 27, r[27], asinf(cx) +
			        acosf(fminf(fmaxf(y, -1.0f), 1.0f)), tol);
		check_f(i, 28, r[28], sqrtf(x * x + y * y + 1.0f), tol);
		check_f(i, 29, r[29], 2.0f * x * y, tol);
		check_f(i, 30, r[30], sqrtf(x * x + y * y), tol);
		check_f(i, 31, r[31], 1.0f / sqrtf(x * x + 1.0f), tol);
		assert_int_equal(u[i * 4 + 2],
		                 (uint32_t)isnan(x / y) +
		                 2u * (uint32_t)(isinf(x / y) != 0) +
		                 4u * (uint32_t)isnan(x));
		if (!isnan(y) && fabsf(y) < 60000.0f)
			check_f(i, 100, st_f(u[i * 4 + 3]), y, 1e-3f);
	}
	/* packHalf2x16(1.0, 0.0) and packUnorm4x8 of invocation 0 */
	assert_int_equal(u[0] & 0xffffu, 0x3c00u);
	assert_int_equal(u[1], 0x00u << 24 | 0x80u << 16 | 0x00u << 8 | 0xffu);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* std430 layout of sh_matfn.comp's block, in floats */
enum { MF_M4 = 0, MF_M3 = 16, MF_X = 28, MF_DET4, MF_DET3, MF_FR, MF_WHOLE,
       MF_MANT, MF_EX, MF_INV4 = 36, MF_INV3 = 52 };

static void
test_matrix_functions(void **state)
{
	struct st_env e;
	float *b;
	swgpu_shader *s;
	static const float m4[16] = {
		2, 0, 1, 3,   1, 3, 0, 1,   0, 1, 4, 2,   1, 0, 2, 5,
	};
	static const float m3[12] = {
		4, 7, 2, 0,   3, 6, 1, 0,   2, 5, 3, 0,
	};

	(void)state;
	st_init(&e);
	b = st_buf(&e, 4096);
	memcpy(b + MF_M4, m4, sizeof(m4));
	memcpy(b + MF_M3, m3, sizeof(m3));
	b[MF_X] = -6.75f;
	s = st_shader(&e, sh_matfn_spv, sizeof(sh_matfn_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	/* det3 of [[4,3,2],[7,6,5],[2,1,3]] (rows) */
	check_f(0, 0, b[MF_DET3], 4 * (6 * 3 - 5 * 1) - 3 * (7 * 3 - 5 * 2) +
	        2 * (7 * 1 - 6 * 2), 1e-5f);
	assert_true(fabsf(b[MF_DET4]) > 1.0f);
	/* m * inverse(m) == identity */
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++) {
			float acc = 0;

			for (int k = 0; k < 4; k++)
				acc += m4[k * 4 + r] * b[MF_INV4 + c * 4 + k];
			check_f(0, 100 + c * 4 + r, acc, r == c ? 1.0f : 0.0f,
			        1e-4f);
		}
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++) {
			float acc = 0;

			for (int k = 0; k < 3; k++)
				acc += m3[k * 4 + r] * b[MF_INV3 + c * 4 + k];
			check_f(0, 200 + c * 3 + r, acc, r == c ? 1.0f : 0.0f,
			        1e-4f);
		}
	check_f(0, 300, b[MF_FR], -0.75f, 0);
	check_f(0, 301, b[MF_WHOLE], -6.0f, 0);
	check_f(0, 302, b[MF_MANT], -0.84375f, 0);
	assert_int_equal(((int32_t *)(void *)b)[MF_EX], 3);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/*
 * Integer dot products (SPV_KHR_integer_dot_product, core in SPIR-V 1.6)
 * that this glslang cannot emit: hand-written SPIR-V assembly, assembled
 * with spirv-as --target-env vulkan1.3 (source kept below). The buffer's
 * words 0..2 are a, b, acc; words 4..9 receive SDot, UDot, SUDot (packed
 * 4x8), SDotAccSat, UDotAccSat (packed) and SDot of two ivec2.
 *
 * OpCapability Shader
 * OpCapability DotProduct
 * OpCapability DotProductInput4x8BitPacked
 * OpCapability DotProductInputAll
 * OpMemoryModel Logical GLSL450
 * OpEntryPoint GLCompute %main "main" %buf
 * OpExecutionMode %main LocalSize 1 1 1
 * OpDecorate %arr ArrayStride 4
 * OpMemberDecorate %S 0 Offset 0
 * OpDecorate %S Block
 * OpDecorate %buf DescriptorSet 0
 * OpDecorate %buf Binding 0
 * %void = OpTypeVoid
 * %fn = OpTypeFunction %void
 * %uint = OpTypeInt 32 0
 * %int = OpTypeInt 32 1
 * %v2int = OpTypeVector %int 2
 * %u16 = OpConstant %uint 16
 * %arr = OpTypeArray %uint %u16
 * %S = OpTypeStruct %arr
 * %pS = OpTypePointer StorageBuffer %S
 * %pu = OpTypePointer StorageBuffer %uint
 * %buf = OpVariable %pS StorageBuffer
 * %c0 = OpConstant %uint 0
 * %c1 = OpConstant %uint 1
 * %c2 = OpConstant %uint 2
 * %c3 = OpConstant %uint 3
 * %c4 = OpConstant %uint 4
 * %c5 = OpConstant %uint 5
 * %c6 = OpConstant %uint 6
 * %c7 = OpConstant %uint 7
 * %c8 = OpConstant %uint 8
 * %c9 = OpConstant %uint 9
 * %main = OpFunction %void None %fn
 * %lbl = OpLabel
 * %pa = OpAccessChain %pu %buf %c0 %c0
 * %pb = OpAccessChain %pu %buf %c0 %c1
 * %pc = OpAccessChain %pu %buf %c0 %c2
 * %a = OpLoad %uint %pa
 * %b = OpLoad %uint %pb
 * %acc = OpLoad %uint %pc
 * %acci = OpBitcast %int %acc
 * %r0 = OpSDot %int %a %b PackedVectorFormat4x8Bit
 * %r1 = OpUDot %uint %a %b PackedVectorFormat4x8Bit
 * %r2 = OpSUDot %int %a %b PackedVectorFormat4x8Bit
 * %r3 = OpSDotAccSat %int %a %b %acci PackedVectorFormat4x8Bit
 * %r4 = OpUDotAccSat %uint %a %b %acc PackedVectorFormat4x8Bit
 * %ai = OpBitcast %int %a
 * %bi = OpBitcast %int %b
 * %va = OpCompositeConstruct %v2int %ai %bi
 * %vb = OpCompositeConstruct %v2int %bi %ai
 * %r5 = OpSDot %int %va %vb
 * %u0 = OpBitcast %uint %r0
 * %u2 = OpBitcast %uint %r2
 * %u3 = OpBitcast %uint %r3
 * %u5 = OpBitcast %uint %r5
 * %p4 = OpAccessChain %pu %buf %c0 %c4
 * %p5 = OpAccessChain %pu %buf %c0 %c5
 * %p6 = OpAccessChain %pu %buf %c0 %c6
 * %p7 = OpAccessChain %pu %buf %c0 %c7
 * %p8 = OpAccessChain %pu %buf %c0 %c8
 * %p9 = OpAccessChain %pu %buf %c0 %c9
 * OpStore %p4 %u0
 * OpStore %p5 %r1
 * OpStore %p6 %u2
 * OpStore %p7 %u3
 * OpStore %p8 %r4
 * OpStore %p9 %u5
 * OpReturn
 * OpFunctionEnd
 */
static const uint32_t int_dot_spv[] = {
	0x07230203, 0x00010600, 0x00070000, 0x00000033, 0x00000000,
	0x00020011, 0x00000001, 0x00020011, 0x00001783, 0x00020011,
	0x00001782, 0x00020011, 0x00001780, 0x0003000e, 0x00000000,
	0x00000001, 0x0006000f, 0x00000005, 0x00000001, 0x6e69616d,
	0x00000000, 0x00000002, 0x00060010, 0x00000001, 0x00000011,
	0x00000001, 0x00000001, 0x00000001, 0x00040047, 0x00000003,
	0x00000006, 0x00000004, 0x00050048, 0x00000004, 0x00000000,
	0x00000023, 0x00000000, 0x00030047, 0x00000004, 0x00000002,
	0x00040047, 0x00000002, 0x00000022, 0x00000000, 0x00040047,
	0x00000002, 0x00000021, 0x00000000, 0x00020013, 0x00000005,
	0x00030021, 0x00000006, 0x00000005, 0x00040015, 0x00000007,
	0x00000020, 0x00000000, 0x00040015, 0x00000008, 0x00000020,
	0x00000001, 0x00040017, 0x00000009, 0x00000008, 0x00000002,
	0x0004002b, 0x00000007, 0x0000000a, 0x00000010, 0x0004001c,
	0x00000003, 0x00000007, 0x0000000a, 0x0003001e, 0x00000004,
	0x00000003, 0x00040020, 0x0000000b, 0x0000000c, 0x00000004,
	0x00040020, 0x0000000c, 0x0000000c, 0x00000007, 0x0004003b,
	0x0000000b, 0x00000002, 0x0000000c, 0x0004002b, 0x00000007,
	0x0000000d, 0x00000000, 0x0004002b, 0x00000007, 0x0000000e,
	0x00000001, 0x0004002b, 0x00000007, 0x0000000f, 0x00000002,
	0x0004002b, 0x00000007, 0x00000010, 0x00000003, 0x0004002b,
	0x00000007, 0x00000011, 0x00000004, 0x0004002b, 0x00000007,
	0x00000012, 0x00000005, 0x0004002b, 0x00000007, 0x00000013,
	0x00000006, 0x0004002b, 0x00000007, 0x00000014, 0x00000007,
	0x0004002b, 0x00000007, 0x00000015, 0x00000008, 0x0004002b,
	0x00000007, 0x00000016, 0x00000009, 0x00050036, 0x00000005,
	0x00000001, 0x00000000, 0x00000006, 0x000200f8, 0x00000017,
	0x00060041, 0x0000000c, 0x00000018, 0x00000002, 0x0000000d,
	0x0000000d, 0x00060041, 0x0000000c, 0x00000019, 0x00000002,
	0x0000000d, 0x0000000e, 0x00060041, 0x0000000c, 0x0000001a,
	0x00000002, 0x0000000d, 0x0000000f, 0x0004003d, 0x00000007,
	0x0000001b, 0x00000018, 0x0004003d, 0x00000007, 0x0000001c,
	0x00000019, 0x0004003d, 0x00000007, 0x0000001d, 0x0000001a,
	0x0004007c, 0x00000008, 0x0000001e, 0x0000001d, 0x00061162,
	0x00000008, 0x0000001f, 0x0000001b, 0x0000001c, 0x00000000,
	0x00061163, 0x00000007, 0x00000020, 0x0000001b, 0x0000001c,
	0x00000000, 0x00061164, 0x00000008, 0x00000021, 0x0000001b,
	0x0000001c, 0x00000000, 0x00071165, 0x00000008, 0x00000022,
	0x0000001b, 0x0000001c, 0x0000001e, 0x00000000, 0x00071166,
	0x00000007, 0x00000023, 0x0000001b, 0x0000001c, 0x0000001d,
	0x00000000, 0x0004007c, 0x00000008, 0x00000024, 0x0000001b,
	0x0004007c, 0x00000008, 0x00000025, 0x0000001c, 0x00050050,
	0x00000009, 0x00000026, 0x00000024, 0x00000025, 0x00050050,
	0x00000009, 0x00000027, 0x00000025, 0x00000024, 0x00051162,
	0x00000008, 0x00000028, 0x00000026, 0x00000027, 0x0004007c,
	0x00000007, 0x00000029, 0x0000001f, 0x0004007c, 0x00000007,
	0x0000002a, 0x00000021, 0x0004007c, 0x00000007, 0x0000002b,
	0x00000022, 0x0004007c, 0x00000007, 0x0000002c, 0x00000028,
	0x00060041, 0x0000000c, 0x0000002d, 0x00000002, 0x0000000d,
	0x00000011, 0x00060041, 0x0000000c, 0x0000002e, 0x00000002,
	0x0000000d, 0x00000012, 0x00060041, 0x0000000c, 0x0000002f,
	0x00000002, 0x0000000d, 0x00000013, 0x00060041, 0x0000000c,
	0x00000030, 0x00000002, 0x0000000d, 0x00000014, 0x00060041,
	0x0000000c, 0x00000031, 0x00000002, 0x0000000d, 0x00000015,
	0x00060041, 0x0000000c, 0x00000032, 0x00000002, 0x0000000d,
	0x00000016, 0x0003003e, 0x0000002d, 0x00000029, 0x0003003e,
	0x0000002e, 0x00000020, 0x0003003e, 0x0000002f, 0x0000002a,
	0x0003003e, 0x00000030, 0x0000002b, 0x0003003e, 0x00000031,
	0x00000023, 0x0003003e, 0x00000032, 0x0000002c, 0x000100fd,
	0x00010038,
};

static int32_t
dot4(uint32_t a, uint32_t b, bool sa, bool sb)
{
	int32_t acc = 0;

	for (int k = 0; k < 32; k += 8) {
		int32_t x = sa ? (int8_t)(a >> k) : (int32_t)((a >> k) & 0xff);
		int32_t y = sb ? (int8_t)(b >> k) : (int32_t)((b >> k) & 0xff);

		acc += x * y;
	}
	return acc;
}

static void
test_integer_dot(void **state)
{
	struct st_env e;
	uint32_t *b;
	swgpu_shader *s;
	const uint32_t a = 0x80ff7f02u, bb = 0xfe7f8003u;

	(void)state;
	st_init(&e);
	b = st_buf(&e, 64);
	b[0] = a;
	b[1] = bb;
	b[2] = 0x7ffffff0u;   /* saturates */
	s = st_shader(&e, int_dot_spv, sizeof(int_dot_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	assert_int_equal((int32_t)b[4], dot4(a, bb, true, true));
	assert_int_equal(b[5], (uint32_t)dot4(a, bb, false, false));
	assert_int_equal((int32_t)b[6], dot4(a, bb, true, false));
	assert_int_equal((int32_t)b[7], dot4(a, bb, true, true) > 15 ?
	                 INT32_MAX : 0x7ffffff0 + dot4(a, bb, true, true));
	assert_int_equal(b[8], 0x7ffffff0u + (uint32_t)dot4(a, bb, false,
	                                                      false));
	assert_int_equal(b[9], a * bb + bb * a);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_saxpy(void **state)
{
	struct st_env e;
	const uint32_t n = 100000;   /* not a multiple of the group size */
	float *x, *y;
	swgpu_shader *s;
	struct { float a; uint32_t n; } push = { 2.5f, n };

	(void)state;
	st_init(&e);
	x = st_buf(&e, n * 4);
	y = st_buf(&e, n * 4 + 1024);
	for (uint32_t i = 0; i < n; i++) {
		x[i] = (float)i * 0.5f;
		y[i] = (float)(n - i);
	}
	y[n] = 1234.0f;   /* beyond n: must stay */
	s = st_shader(&e, sh_saxpy_spv, sizeof(sh_saxpy_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, &push, sizeof(push),
	                   (n + 255) / 256, 1, 1));
	for (uint32_t i = 0; i < n; i++)
		if (y[i] != 2.5f * ((float)i * 0.5f) + (float)(n - i)) {
			print_error("y[%u] = %g\n", i, (double)y[i]);
			fail();
		}
	assert_true(y[n] == 1234.0f);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_ops),
		cmocka_unit_test(test_float_ops),
		cmocka_unit_test_prestate(test_int_ops, &opt_on),
		cmocka_unit_test_prestate(test_float_ops, &opt_on),
		cmocka_unit_test(test_matrix_functions),
		cmocka_unit_test(test_integer_dot),
		cmocka_unit_test(test_saxpy),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

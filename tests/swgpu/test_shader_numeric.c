/* SPDX-License-Identifier: MIT */
/*
 * Numeric corners of the shader engine, each from hand-written SPIR-V
 * (shaders/sh_idot.spvasm, sh_half_conv.spvasm) with hand-computed
 * results: integer dot products on every operand form, half-float
 * modf/frexp struct results, OpQuantizeToF16's flush of half denormals,
 * the RTZ FPRoundingMode decoration of conversions and the
 * DenormFlushToZero and RoundingModeRTZ execution modes (sh_ftz.spvasm,
 * sh_rtz.spvasm).
 */
#include "shader_test_util.h"

#include "sh_idot.spv.h"
#include "sh_half_conv.spv.h"
#include "sh_ftz.spv.h"
#include "sh_rtz.spv.h"

/*
 * Operands: w0 = 0x80ff7f02 and w1 = 0x7f80ff03 hold the bytes
 * (2, 127, -1, -128) and (3, -1, -128, 127) signed, (2, 127, 255, 128)
 * and (3, 255, 128, 127) unsigned, the halves (32514, -32513) and
 * (-253, 32640) signed, (65283, 32640) unsigned.
 *   s.s = 6 - 127 + 128 - 16256 = -16249 (0xffffc087)
 *   u.u = 6 + 32385 + 32640 + 16256 = 81287 (0x13d87)
 *   s.u = 6 + 32385 - 128 - 16256 = 16007
 */
static void
test_integer_dot_product(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *d = st_buf(&e, 4096);
	d[0] = 0x80ff7f02u;
	d[1] = 0x7f80ff03u;
	d[2] = 0x80007000u;   /* 16-bit accumulators 28672, -32768 */
	d[3] = 0x01020304u;   /* u8 (4, 3, 2, 1): u.u = 30 */
	d[4] = 5;
	d[5] = 0x80000000u;   /* 64-bit accumulator INT64_MIN + 5 */
	d[6] = 0x000001fau;   /* u8 accumulators 250, 1 */
	d[8] = 0;
	d[9] = 1;             /* x0 = 1 << 32 */
	d[10] = 0x40000000u;
	d[11] = 1;
	d[12] = 0xffffffffu;
	d[13] = 0x7ffffffeu;
	swgpu_shader *s = st_shader(&e, sh_idot_spv, sizeof(sh_idot_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	/* packed: s.s as int and as short, u.u as uint */
	assert_int_equal(d[16], 0xffffc087u);
	assert_int_equal(d[17], 0xc087u);
	assert_int_equal(d[18], 81287u);
	/* packed s.u + 28672 = 44679 saturates at 32767; s.s - 32768
	 * saturates at -32768 */
	assert_int_equal(d[19], 0x7fffu);
	assert_int_equal(d[20], 0x8000u);
	/* packed s.s + INT64_MIN + 5 saturates at INT64_MIN */
	assert_int_equal(d[21], 0u);
	assert_int_equal(d[22], 0x80000000u);
	/* char4 s.s as the packed form; uchar4 30 + 250 saturates at 255,
	 * 30 + 1 does not */
	assert_int_equal(d[23], 0xffffc087u);
	assert_int_equal(d[24], 255u);
	assert_int_equal(d[25], 31u);
	/* short2: 32514 * -253 + -32513 * 32640 = -1069450362; mixed:
	 * 32514 * 65283 + -32513 * 32640 = 1061387142 */
	assert_int_equal(d[26], 0xc0417b86u);
	assert_int_equal(d[27], 1061387142u);
	/* int2 (2^30, 1) . (1, 1) + 2^30 saturates at INT32_MAX */
	assert_int_equal(d[28], 0x7fffffffu);
	/* long2 (2^32, -1) . (3, 5) = 3 * 2^32 - 5 */
	assert_int_equal(d[29], 0xfffffffbu);
	assert_int_equal(d[30], 2u);
	/* ulong2 (2^32, 2^32) . (3, 3) = 6 * 2^32, + 0xffffffff00000000
	 * saturates at UINT64_MAX */
	assert_int_equal(d[31], 0xffffffffu);
	assert_int_equal(d[32], 0xffffffffu);
	/* the same signed + -1 = 0x5ffffffff; + 0x7ffffffeffffffff
	 * saturates at INT64_MAX */
	assert_int_equal(d[33], 0xffffffffu);
	assert_int_equal(d[34], 5u);
	assert_int_equal(d[35], 0xffffffffu);
	assert_int_equal(d[36], 0x7fffffffu);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Halves: 0x4248 = 3.140625 (frac 0x3080 = 0.140625, whole 0x4200 = 3),
 * 0x0201 = 513 * 2^-24, a denormal: its own fraction, whole 0, frexp
 * 0.5009765625 (0x3802) * 2^-14. */
static void
test_half_corners(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *d = st_buf(&e, 4096);
	uint16_t *h = st_buf(&e, 4096);
	d[0] = 0x02014248u;
	d[1] = 0x0000c248u;   /* -3.140625 */
	d[2] = 0x37800000u;   /* 2^-16: a half denormal */
	d[3] = 0xb5800000u;   /* -2^-20 */
	d[4] = 0x3f800800u;   /* 1 + 2^-12 */
	d[5] = 0x38800000u;   /* 2^-14, the least normal half */
	d[6] = 0x3f801800u;   /* 1 + 3 * 2^-12: 0.75 half ulp above 1 */
	d[7] = 0xbf801800u;   /* its negative */
	d[8] = 0x4788b800u;   /* 70000, past the largest half */
	d[9] = 0x33e00000u;   /* 7 * 2^-26: 1.75 half denormal ulps */
	d[10] = 0xfffff000u;  /* the double 1 + 2^-10 - 2^-40 */
	d[11] = 0x3ff003ffu;
	swgpu_shader *s = st_shader(&e, sh_half_conv_spv,
	                            sizeof(sh_half_conv_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	/* ModfStruct (fraction, whole part) as two halves of a word */
	assert_int_equal(d[16], 0x42003080u);
	assert_int_equal(d[17], 0x00000201u);
	/* FrexpStruct of the denormal */
	assert_int_equal(d[18], 0x3802u);
	assert_int_equal(d[19], (uint32_t)-14);
	/* Modf through a pointer: -0.140625, -3 */
	assert_int_equal(d[20], 0xc200b080u);
	/* OpQuantizeToF16: half denormals become zeros of their sign,
	 * 1 + 2^-12 rounds to 1, the least normal half stays */
	assert_int_equal(d[21], 0u);
	assert_int_equal(d[22], 0x80000000u);
	assert_int_equal(d[23], 0x3f800000u);
	assert_int_equal(d[24], 0x38800000u);
	/* FConvert with FPRoundingMode: RTZ drops the 0.75 ulp, RTE
	 * rounds it up; RTZ keeps 70000 at the largest finite half and
	 * 1.75 denormal ulps at one */
	assert_int_equal(h[0], 0x3c00u);
	assert_int_equal(h[1], 0x3c01u);
	assert_int_equal(h[2], 0xbc00u);
	assert_int_equal(h[3], 0x7bffu);
	assert_int_equal(h[4], 0x0001u);
	/* double -> half RTZ: just below 1 + 2^-10 is 1 (rounding the
	 * double to a float to nearest first would give 1 + 2^-10) */
	assert_int_equal(h[5], 0x3c00u);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_denorm_flush_to_zero(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *d = st_buf(&e, 4096);
	d[0] = 0x000003f0u;   /* a float denormal */
	d[1] = 0;
	d[2] = 0x03f003f0u;   /* two half denormals */
	d[3] = 0xffffffffu;   /* the largest double denormal */
	d[4] = 0x000fffffu;
	swgpu_shader *s = st_shader(&e, sh_ftz_spv, sizeof(sh_ftz_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	assert_int_equal(d[16], 0u);           /* denormal + 0 */
	assert_int_equal(d[17], 0u);           /* denormal * 2^20 */
	assert_int_equal(d[18], 0x80000000u);  /* -denormal */
	assert_int_equal(d[19], 0x000003f0u);  /* a copy keeps it */
	assert_int_equal(d[20], 0u);           /* unpackHalf2x16 */
	assert_int_equal(d[21], 0u);
	assert_int_equal(d[22], 0u);           /* half denormal sums */
	assert_int_equal(d[23], 0u);           /* double denormal * 2^20 */
	assert_int_equal(d[24], 0u);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Each case rounds up to nearest even and down toward zero. */
static void
test_rounding_mode_rtz(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *d = st_buf(&e, 4096);
	d[0] = 0x3f800000u;   /* 1.0f */
	d[1] = 0x34400000u;   /* 3 * 2^-24: 1.5 ulps of 1 */
	d[2] = 0x40400000u;   /* 3.0f */
	d[3] = 16777219u;     /* 2^24 + 3 */
	d[4] = 0x12003c00u;   /* halves 1.0 and 0.75 * 2^-10 */
	d[5] = 0;
	d[6] = 0x3ff00000u;   /* 1.0 */
	d[7] = 0;
	d[8] = 0x40240000u;   /* 10.0 */
	swgpu_shader *s = st_shader(&e, sh_rtz_spv, sizeof(sh_rtz_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	assert_int_equal(d[16], 0x3f800001u);  /* RTE: 0x3f800002 */
	assert_int_equal(d[17], 0x3eaaaaaau);  /* RTE: 0x3eaaaaab */
	assert_int_equal(d[18], 0x4b800001u);  /* 2^24 + 2; RTE: + 4 */
	assert_int_equal(d[19], 0x3c003c00u);  /* RTE: 0x3c01 */
	assert_int_equal(d[20], 0x99999999u);  /* RTE: ...9a */
	assert_int_equal(d[21], 0x3fb99999u);
	/* spec constants: 0.1 (double) to float, 0.7f to half */
	assert_int_equal(d[22], 0x3dccccccu);  /* RTE: 0x3dcccccd */
	assert_int_equal(d[23], 0x39993999u);  /* RTE: 0x399a */
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integer_dot_product),
		cmocka_unit_test(test_half_corners),
		cmocka_unit_test(test_denorm_flush_to_zero),
		cmocka_unit_test(test_rounding_mode_rtz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

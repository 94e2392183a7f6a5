/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V forms the translator takes since issue 23, each checked against
 * results computed by hand:
 *  - physical storage buffer pointers made by access chains used as
 *    values: OpPhi (from later blocks), OpSelect, function parameters
 *    and return values (sh_phys_values.spvasm);
 *  - decoration groups, OpCopyMemory of a struct, an int64 constant
 *    struct index, empty structs, OpSpecConstantOp conversions,
 *    VectorShuffle and CompositeInsert (with default and specialized
 *    values), and a module with two GLCompute entry points
 *    (sh_spirv_forms.spvasm);
 *  - matrix operations on doubles (sh_f64_mat.comp), their determinant
 *    and inverse (sh_f64_inv.comp);
 *  - combined image sampler bindings serving a shader's separate
 *    texture and sampler arrays (sh_sample.comp), and no other mix;
 *  - translation failures naming the SPIR-V instruction and its id, and
 *    the engine's limits reported as SWGPU_ERR_NO_HOST_MEMORY.
 */
#include <math.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "shader_test_util.h"

#include "sh_f64_inv.spv.h"
#include "sh_f64_mat.spv.h"
#include "sh_sample.spv.h"
#include "sh_phys_values.spv.h"
#include "sh_spirv_forms.spv.h"

static void
test_phys_pointer_values(void **state)
{
	struct st_env e;
	uint64_t push[2];

	(void)state;
	st_init(&e);
	uint32_t *a = st_buf(&e, 64 * 4);
	uint32_t *o = st_buf(&e, 96 * 4);
	for (uint32_t i = 0; i < 64; i++)
		a[i] = 100 + i;
	push[0] = e.bufs[0].va;
	push[1] = e.bufs[1].va;
	swgpu_shader *s = st_shader(&e, sh_phys_values_spv,
	                            sizeof(sh_phys_values_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, push, sizeof(push), 1, 1, 1));
	for (uint32_t g = 0; g < 32; g++) {
		uint32_t p = g & 1 ? g : g + 32;
		uint32_t q = g < 16 ? 2 * g : 63 - g;
		uint32_t r = g & 2 ? 1 : 2;

		assert_int_equal(o[3 * g], 100 + p);
		assert_int_equal(o[3 * g + 1], 100 + q);
		assert_int_equal(o[3 * g + 2], 100 + r);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* sh_spirv_forms' entry point `entry` with buffers 0 (input) and 1
 * (output) as storage buffers, spec constants optional. */
static swgpu_shader *
forms_shader(struct st_env *e, const char *entry,
             const swgpu_spec_constant *spec, uint32_t nspec)
{
	swgpu_shader_binding b[2];
	char err[256] = "";
	swgpu_shader_info info = {
		.code = sh_spirv_forms_spv,
		.code_size = sizeof(sh_spirv_forms_spv),
		.entry_point = entry,
		.bindings = b,
		.binding_count = 2,
		.spec_constants = spec,
		.spec_constant_count = nspec,
		.error = err,
		.error_size = sizeof(err),
	};
	swgpu_shader *s = NULL;

	for (uint32_t i = 0; i < 2; i++)
		b[i] = (swgpu_shader_binding){
			.set = 0, .binding = i,
			.type = SWGPU_DESCRIPTOR_STORAGE_BUFFER,
			.offset = i * SWGPU_DESCRIPTOR_SIZE, .count = 1,
		};
	if (swgpu_shader_create(e->ctx, &info, &s) != SWGPU_OK)
		print_error("%s: %s\n", entry, err);
	assert_non_null(s);
	return s;
}

/* Run entry point "main" with SpecId 1 (int16) at s16; out: 18 words
 * (Pair, then o[16]). */
static void
run_forms(int16_t s16, bool specialize, uint32_t *out)
{
	struct st_env e;
	const swgpu_spec_constant spec = {
		.id = 1, .size = 2, .value = (uint16_t)s16,
	};

	st_init(&e);
	uint32_t *in = st_buf(&e, 64);
	uint32_t *o = st_buf(&e, 18 * 4);
	in[0] = 11;
	in[1] = 22;
	in[2] = 33;
	in[3] = 44;
	swgpu_shader *s = forms_shader(&e, "main", specialize ? &spec : NULL,
	                               specialize);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	memcpy(out, o, 18 * 4);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_spirv_forms(void **state)
{
	const struct {
		int16_t s16;
		bool specialize;
	} runs[] = { { -5, false }, { -300, true } };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		const int32_t v = runs[k].s16;
		const uint32_t want[18] = {
			33, 44,           /* OpCopyMemory of the Pair */
			22,               /* member 1 by an int64 index */
			7,                /* through a struct with an empty one */
			(uint32_t)v,      /* SConvert int16 -> int32 */
			65531,            /* UConvert uint16 -> uint32 */
			(uint32_t)(v >> 1),   /* ShiftRightArithmetic int16 */
			0x3dcccccdu,      /* FConvert double 0.1 -> float */
			0x3dccc000u,      /* float 0.1 -> half 0x2e66 -> float */
			40, 10, 30, 20,   /* VectorShuffle 3 0 2 1 */
			10, 99,           /* CompositeInsert 99 at 1 */
			13, 0, 0,
		};
		uint32_t o[18];

		run_forms(runs[k].s16, runs[k].specialize, o);
		for (uint32_t i = 0; i < 18; i++)
			if (o[i] != want[i])
				print_error("run %zu word %u: 0x%x, want 0x%x\n",
				            k, i, o[i], want[i]);
		assert_memory_equal(o, want, sizeof(want));
	}
}

/* The module's second GLCompute entry point runs its own function. */
static void
test_second_entry_point(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	st_buf(&e, 64);
	uint32_t *o = st_buf(&e, 18 * 4);
	swgpu_shader *s = forms_shader(&e, "second", NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	assert_int_equal(o[2], 1234);
	assert_int_equal(o[0], 0);
	assert_int_equal(o[3], 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_f64_matrices(void **state)
{
	static const double in_vals[18] = {
		1, 2, 3, 4, 5, 6,          /* A: dmat2x3, columns */
		7, 8, 9, 10, 11, 12,       /* B: dmat3x2, columns */
		1, -2, 0.5,                /* v */
		2, -1,                     /* u */
		0.25,                      /* s */
	};
	/* By hand: transpose(A); A * B (A's columns weighted by B's);
	 * A * u = 2 c0 - c1; v * A = (v.c0, v.c1); A * s; v u^T. */
	static const double want[32] = {
		1, 4, 2, 5, 3, 6,
		39, 54, 69, 49, 68, 87, 59, 82, 105,
		-2, -1, 0,
		-1.5, -3,
		0.25, 0.5, 0.75, 1, 1.25, 1.5,
		2, -4, 1, -1, 2, -0.5,
	};
	struct st_env e;

	(void)state;
	st_init(&e);
	double *in = st_buf(&e, sizeof(in_vals));
	double *o = st_buf(&e, sizeof(want));
	memcpy(in, in_vals, sizeof(in_vals));
	swgpu_shader *s = st_shader(&e, sh_f64_mat_spv, sizeof(sh_f64_mat_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	for (uint32_t i = 0; i < 32; i++)
		if (o[i] != want[i])
			print_error("o[%u] = %g, want %g\n", i, o[i], want[i]);
	assert_memory_equal(o, want, sizeof(want));
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_f64_inverse(void **state)
{
	/* Matrices with exact inverses (determinants 1, 1, 4), columns:
	 * M2 rows (2 1 / 1 1); M3 rows (1 2 3 / 0 1 4 / 0 0 1); M4 =
	 * diag(2, 4, 0.5, 1) plus row 3 column 0 = 1. */
	static const double in_vals[29] = {
		2, 1, 1, 1,
		1, 0, 0, 2, 1, 0, 3, 4, 1,
		2, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1,
	};
	/* By hand: the determinants, then each inverse by columns: M2^-1
	 * rows (1 -1 / -1 2); M3^-1 rows (1 -2 5 / 0 1 -4 / 0 0 1); M4^-1 =
	 * diag(0.5, 0.25, 2, 1) with row 3 column 0 = -0.5. */
	static const double want[32] = {
		1, 1, 4,
		1, -1, -1, 2,
		1, 0, 0, -2, 1, 0, 5, -4, 1,
		0.5, 0, 0, -0.5, 0, 0.25, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1,
	};
	struct st_env e;

	(void)state;
	st_init(&e);
	double *in = st_buf(&e, sizeof(in_vals));
	double *o = st_buf(&e, sizeof(want));
	memcpy(in, in_vals, sizeof(in_vals));
	swgpu_shader *s = st_shader(&e, sh_f64_inv_spv, sizeof(sh_f64_inv_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	for (uint32_t i = 0; i < 32; i++) {
		if (o[i] != want[i])
			print_error("o[%u] = %g, want %g\n", i, o[i], want[i]);
		/* == : a zero of either sign is the exact answer */
		assert_true(o[i] == want[i]);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Texel (x, y) of level l of sh_sample's image (test_shader_sample.c):
 * every channel tells where it came from. */
static void
texel(uint32_t x, uint32_t y, uint32_t l, float v[4])
{
	v[0] = (float)(x + 10 * y + 100 * l);
	v[1] = (float)(1000 + x);
	v[2] = (float)(2000 + y);
	v[3] = (float)(3000 + l);
}

/* A COMBINED_IMAGE_SAMPLER descriptor of the 4x2, 3-level RGBA32F image
 * at va into descriptor slot index. */
static void
combined(struct st_env *e, uint32_t index, uint64_t va, uint32_t swizzle,
         const struct swgpu_sampler_state *smp)
{
	struct swgpu_descriptor_image t = {
		.type = SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER,
		.format = SWGPU_FORMAT_R32G32B32A32_SFLOAT | swizzle << 16,
		.va = va, .width = 4, .height = 2, .depth = 1, .layers = 1,
		.row_pitch = 64, .element_size = 16, .slice_pitch = 128,
		.view_type = 1 | 3 << 8,            /* 2D, 3 levels */
		.sampler = *smp,
	};

	memcpy(e->desc.cpu + index * SWGPU_DESCRIPTOR_SIZE, &t, sizeof(t));
}

#define B(bi, i, t, n) { .set = 0, .binding = (bi), .count = (n), \
                         .type = (t), .offset = (i) * SWGPU_DESCRIPTOR_SIZE }

/* sh_sample's `texture2D tex[2]` and `sampler smp[2]` (bindings 1, 2)
 * served by COMBINED_IMAGE_SAMPLER bindings: the texture reads the image
 * half (BGRA swizzle on tex[1]), the sampler the sampler half (smp[0]
 * NEAREST, smp[1] LINEAR) of their descriptors. A SAMPLED_IMAGE binding
 * for the shader's sampler2D is refused. */
static void
test_combined_serves_separate(void **state)
{
	swgpu_shader_binding b[] = {
		B(0, 0, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 1),
		B(1, 1, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 2),
		B(2, 3, SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER, 2),
		B(3, 5, SWGPU_DESCRIPTOR_STORAGE_BUFFER, 1),
	};
	const struct swgpu_sampler_state nearest = {
		.filter = 0, .address = 2 | 2 << 8 | 2 << 16,
		.lod = 3 * 256 << 16,
	};
	const struct swgpu_sampler_state linear = {
		.filter = SWGPU_SAMPLER_MAG_LINEAR | SWGPU_SAMPLER_MIN_LINEAR |
		          SWGPU_SAMPLER_MIP_LINEAR,
		.address = 0, .lod = 3 * 256 << 16,
	};
	const uint32_t bgra = 5 | 4 << 3 | 3 << 6 | 6 << 9;
	struct {
		float uv[4][4];
		float lod[4];
		int32_t ti, si;
	} pc = {
		.uv = { { 0.375f, 0.25f }, { 0.5f, 0.5f } },
		.ti = 1, .si = 1,
	};
	static const uint32_t lw[3] = { 4, 2, 1 }, lh[3] = { 2, 1, 1 };
	static const uint32_t loff[3] = { 0, 128, 160 };
	static const uint32_t lpitch[3] = { 64, 32, 16 };
	struct st_env e;
	swgpu_shader *s = NULL;
	char err[256] = "";
	float t[4];

	(void)state;
	st_init(&e);
	float *img = st_buf(&e, 176);
	float *out = st_buf(&e, 4096);
	for (uint32_t l = 0; l < 3; l++)
		for (uint32_t y = 0; y < lh[l]; y++)
			for (uint32_t x = 0; x < lw[l]; x++)
				texel(x, y, l, img + (loff[l] + y * lpitch[l] +
				                      x * 16) / 4);
	s = st_make_shader(&e, sh_sample_spv, sizeof(sh_sample_spv), b, 4, 88);
	memset(e.desc.cpu, 0, 4096);
	combined(&e, 0, e.bufs[0].va, 0, &nearest);
	combined(&e, 1, e.bufs[0].va, 0, &nearest);     /* tex[0] */
	combined(&e, 2, e.bufs[0].va, bgra, &nearest);  /* tex[1] */
	combined(&e, 3, e.bufs[0].va, 0, &nearest);     /* smp[0] */
	combined(&e, 4, e.bufs[0].va, 0, &linear);      /* smp[1] */
	swgpu_write_buffer_descriptor(e.desc.cpu + 5 * SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[1].va, 4096);
	api_ok(st_dispatch_desc(&e, s, &pc, sizeof(pc), 1, 1, 1));
	/* LINEAR: a texel centre, then the middle of texels (1..2, 0..1):
	 * x 1.5, y 0.5 averaged, swizzled BGRA. */
	texel(1, 0, 0, t);
	for (uint32_t c = 0; c < 4; c++)
		assert_true(fabsf(out[16 + c] - (float[4]){ t[2], t[1], t[0],
		                                            t[3] }[c]) < 1e-3f);
	assert_true(fabsf(out[20] - 2000.5f) < 1e-3f);
	assert_true(fabsf(out[21] - 1001.5f) < 1e-3f);
	assert_true(fabsf(out[22] - 6.5f) < 1e-3f);
	assert_true(fabsf(out[23] - 3000.0f) < 1e-3f);
	/* NEAREST (smp[0]) at the same middle: texel (2, 1). */
	pc.si = 0;
	api_ok(st_dispatch_desc(&e, s, &pc, sizeof(pc), 1, 1, 1));
	texel(2, 1, 0, t);
	assert_true(out[20] == t[2] && out[21] == t[1] && out[22] == t[0] &&
	            out[23] == t[3]);
	swgpu_shader_destroy(s);
	/* No other mix: a sampled image binding for the sampler2D. */
	b[0].type = SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
	swgpu_shader_info info = {
		.code = sh_sample_spv, .code_size = sizeof(sh_sample_spv),
		.entry_point = "main", .bindings = b, .binding_count = 4,
		.push_constant_size = 88, .error = err,
		.error_size = sizeof(err),
	};
	s = NULL;
	assert_int_equal(swgpu_shader_create(e.ctx, &info, &s),
	                 SWGPU_ERR_INVALID_ARG);
	assert_null(s);
	assert_non_null(strstr(err, "layout type 7"));
	st_fini(&e);
}

/* A failure names the instruction and its result id; an engine limit
 * is SWGPU_ERR_NO_HOST_MEMORY. */
static void
test_errors_name_the_instruction(void **state)
{
	static const uint32_t bad_load[] = {
		0x07230203, 0x00010000, 0, 12, 0,
		0x00020011, 1,                        /* Capability Shader */
		0x0003000e, 0, 1,                     /* MemoryModel */
		0x0005000f, 5, 1, 0x6e69616d, 0,      /* EntryPoint "main" */
		0x00060010, 1, 17, 1, 1, 1,           /* LocalSize 1 1 1 */
		0x00020013, 2,                        /* %2 = TypeVoid */
		0x00030021, 3, 2,                     /* %3 = TypeFunction */
		0x00040015, 4, 32, 0,                 /* %4 = TypeInt 32 0 */
		0x00050036, 2, 1, 0, 3,               /* %1 = Function */
		0x000200f8, 6,                        /* %6 = Label */
		0x0004003d, 4, 7, 11,                 /* %7 = Load %4 %11 */
		0x000100fd, 0x00010038,               /* Return, End */
	};
	struct st_env e;
	swgpu_shader *s = NULL;
	char err[256] = "";

	(void)state;
	st_init(&e);
	api_check(SWGPU_ERR_INVALID_ARG,
	          st_try_shader(&e, bad_load, sizeof(bad_load), &s, err,
	                        sizeof(err)));
	assert_null(s);
	print_message("%s\n", err);
	assert_non_null(strstr(err, "(at OpLoad %7, word 37)"));
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phys_pointer_values),
		cmocka_unit_test(test_spirv_forms),
		cmocka_unit_test(test_second_entry_point),
		cmocka_unit_test(test_f64_matrices),
		cmocka_unit_test(test_f64_inverse),
		cmocka_unit_test(test_combined_serves_separate),
		cmocka_unit_test(test_errors_name_the_instruction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Large arrays (issue 16): fixed-size arrays in storage and uniform
 * buffers and behind buffer device addresses may be as large as the
 * buffer range (a vec2[1 << 24] storage array of 128 MiB, a vec4[1 << 20]
 * uniform array of 16 MiB); an index past 4 GiB / stride stays out of
 * range instead of wrapping; arrays that need registers or shared memory
 * keep their limits, and the error names the variable.
 */
#include "shader_test_util.h"

#include <stdio.h>
#include <string.h>

#include "sh_big.spv.h"
#include "sh_big_private.spv.h"
#include "sh_big_shared.spv.h"

#define BIG_ELEMS (1u << 24)
#define UBO_ELEMS (1u << 20)
#define INVOCATIONS 1024u

static void
test_big_arrays(void **state)
{
	static const swgpu_descriptor_type types[ST_MAX_BUFS] = {
		SWGPU_DESCRIPTOR_STORAGE_BUFFER,
		SWGPU_DESCRIPTOR_UNIFORM_BUFFER,
		SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	};
	struct st_env e;
	struct { uint64_t addr; uint32_t far; uint32_t pad; } push;

	(void)state;
	st_init(&e);
	float *data = st_buf(&e, (uint64_t)BIG_ELEMS * 8);
	float *u = st_buf(&e, (uint64_t)UBO_ELEMS * 16);
	uint32_t *o = st_buf(&e, INVOCATIONS * 16);
	for (uint32_t j = 0; j < UBO_ELEMS; j++)
		u[j * 4 + 1] = (float)j * 0.5f;
	data[1] = 7.0f;      /* data[0].y: what a wrapped offset would read */
	swgpu_shader *s = st_shader(&e, sh_big_spv, sizeof(sh_big_spv), types,
	                            NULL, 0);
	/* The pipeline layout: binding 1 is a uniform buffer. */
	push.addr = e.bufs[0].va;
	push.far = 1u << 29;           /* x 8 bytes = 4 GiB */
	push.pad = 0;
	memset(e.desc.cpu, 0, 4096);
	for (uint32_t b = 0; b < 3; b++)
		swgpu_write_buffer_descriptor(
			e.desc.cpu + b * SWGPU_DESCRIPTOR_SIZE, types[b],
			e.bufs[b].va, e.bufs[b].size);
	api_ok(st_dispatch_desc(&e, s, &push, sizeof(push),
	                        INVOCATIONS / 64, 1, 1));
	unsigned bad = 0;
	for (uint32_t i = 0; i < INVOCATIONS; i++) {
		uint32_t k = i == 1 ? BIG_ELEMS - 1
		                    : (i * 16411u + 5u) & (BIG_ELEMS - 1);
		uint32_t j = i == 1 ? UBO_ELEMS - 1
		                    : (i * 4099u) & (UBO_ELEMS - 1);
		const uint32_t *r = o + i * 4;

		if (r[3] != k || st_f(r[0]) != (float)j * 0.5f ||
		    st_f(r[1]) != (float)k || r[2] != 0 ||
		    data[(size_t)k * 2] != (float)k ||
		    data[(size_t)k * 2 + 1] != 2.0f) {
			if (bad++ < 4)
				print_error("invocation %u: k %u (want %u) "
				            "u %g bda %g far 0x%x data (%g, %g)\n",
				            i, r[3], k, st_f(r[0]), st_f(r[1]),
				            r[2], data[(size_t)k * 2],
				            data[(size_t)k * 2 + 1]);
		}
	}
	assert_int_equal(bad, 0);
	/* The last element was written, nothing past it. */
	assert_true(data[(size_t)(BIG_ELEMS - 1) * 2] ==
	            (float)(BIG_ELEMS - 1));
	assert_true(data[1] == 7.0f);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Register and shared-memory arrays keep their limits: the shader is
 * refused with a message naming the variable. */
static void
test_limits_name_the_variable(void **state)
{
	static const struct {
		const uint32_t *code;
		size_t size;
		swgpu_result r;
		const char *needle;
	} cases[] = {
		{ sh_big_private_spv, sizeof(sh_big_private_spv),
		  SWGPU_ERR_NO_HOST_MEMORY, "Function variable \"scratch\"" },
		{ sh_big_shared_spv, sizeof(sh_big_shared_spv),
		  SWGPU_ERR_INVALID_ARG, "Workgroup variable \"tile\"" },
	};

	(void)state;
	for (size_t c = 0; c < API_ARRAY_SIZE(cases); c++) {
		struct st_env e;
		swgpu_shader *s = NULL;
		char err[256] = "";

		st_init(&e);
		api_check(cases[c].r, st_try_shader(&e, cases[c].code,
		                                    cases[c].size, &s, err,
		                                    sizeof(err)));
		assert_null(s);
		print_message("%s\n", err);
		assert_non_null(strstr(err, cases[c].needle));
		st_fini(&e);
	}
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_big_arrays),
		cmocka_unit_test(test_limits_name_the_variable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

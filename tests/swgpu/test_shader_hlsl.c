/* SPDX-License-Identifier: MIT */
/*
 * The HLSL reflection decorations DXC emits (VK_GOOGLE_hlsl_functionality1,
 * VK_GOOGLE_decorate_string, VK_GOOGLE_user_type): OpDecorateString,
 * OpMemberDecorateString and OpDecorateId CounterBuffer carry no
 * semantics, so a shader using them runs exactly as without them.
 */
#include "shader_test_util.h"

#include "sh_hlsl_decorations.spv.h"

static void
test_hlsl_reflection_decorations(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *buf = st_buf(&e, 4096);
	st_buf(&e, 4096);                /* the counter buffer, unused */
	swgpu_shader *s = st_shader(&e, sh_hlsl_decorations_spv,
	                            sizeof(sh_hlsl_decorations_spv), NULL,
	                            NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 2, 1, 1));
	for (uint32_t i = 0; i < 128; i++)
		assert_int_equal(buf[i], i * 3);
	assert_int_equal(buf[128], 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hlsl_reflection_decorations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

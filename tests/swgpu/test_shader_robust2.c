/* SPDX-License-Identifier: MIT */
/*
 * robustBufferAccess2 (VK_EXT_robustness2) in the engine: bounds are the
 * descriptor's exact byte range, and a 64-bit scalar straddling its end
 * is outside as a whole (both words read 0, a store writes neither), not
 * half read and half zero.
 */
#include "shader_test_util.h"

#include <string.h>

#include "sh_robust64.spv.h"

static void
test_64bit_scalar_straddling_the_range(void **state)
{
	struct st_env e;
	const uint64_t ranges[3] = { 12, 12, 32 };  /* [1] straddles byte 12 */
	uint32_t push = 1;

	(void)state;
	st_init(&e);
	double *d = st_buf(&e, 4096);
	uint64_t *u = st_buf(&e, 4096);
	uint8_t *o = st_buf(&e, 4096);
	d[0] = 3.25;
	d[1] = -1.0 / 3.0;   /* both words non-zero */
	u[0] = 0xaaaabbbbccccddddull;
	u[1] = 0x0123456789abcdefull;
	swgpu_shader *s = st_shader(&e, sh_robust64_spv, sizeof(sh_robust64_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, ranges, &push, sizeof(push), 1, 1, 1));
	double od[2];
	uint64_t ou[2];
	memcpy(od, o, 16);
	memcpy(ou, o + 16, 16);
	assert_true(od[0] == 3.25);
	assert_true(od[1] == 0.0);           /* not half of -1/3 */
	assert_true(ou[0] == 0xaaaabbbbccccddddull);
	assert_true(ou[1] == 0);
	assert_true(d[1] == -1.0 / 3.0);     /* neither word written */
	assert_true(u[1] == 0x0123456789abcdefull);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_64bit_scalar_straddling_the_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

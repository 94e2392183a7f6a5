/* SPDX-License-Identifier: MIT */
/*
 * Variable pointers in the engine (VariablePointers; issue 16): pointers
 * chosen per invocation between two storage buffers (OpSelect), loads and
 * stores through them, a loop walking a buffer by OpPhi and
 * OpPtrAccessChain, a pointer kept in a Function variable, OpPtrEqual /
 * NotEqual / Diff, a null pointer, and Workgroup pointers. The shader is
 * hand-written SPIR-V (GLSL has no variable pointers):
 * shaders/sh_varptr.spvasm. Every output is checked exactly.
 */
#include "shader_test_util.h"

#include <string.h>

#include "sh_varptr.spv.h"
#include "sh_bda_ptrchain.spv.h"

#define N 256u           /* invocations: 4 groups of 64 */
#define WORDS 2048u      /* of each input buffer */

static void
test_variable_pointers(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *a = st_buf(&e, WORDS * 4);
	uint32_t *b = st_buf(&e, WORDS * 4);
	uint32_t *o = st_buf(&e, N * 8 * 4);
	for (uint32_t i = 0; i < WORDS; i++) {
		a[i] = 1000 + i;
		b[i] = 5000 + i;
	}
	swgpu_shader *s = st_shader(&e, sh_varptr_spv, sizeof(sh_varptr_spv),
	                            NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, N / 64, 1, 1));
	unsigned bad = 0;
	for (uint32_t g = 0; g < N; g++) {
		const bool even = !(g & 1);
		const uint32_t base = even ? 1000 : 5000, l = g % 64;
		const uint32_t *r = o + g * 8;
		const uint32_t want[8] = {
			base + g,
			0,                   /* k = 1 unused */
			4 * (base + 1024 + g) + 6,
			base + 1024 + g,
			1u | (even ? 0u : 2u),
			2u,
			(l & 1 ? 7u : 3u) * (63 - l),
			3u,
		};

		for (uint32_t k = 0; k < 8; k++)
			if (r[k] != want[k] && bad++ < 8)
				print_error("invocation %u output %u: %u, want "
				            "%u\n", g, k, r[k], want[k]);
		/* The store went through the selected pointer only. */
		if ((even ? a[g] : b[g]) != base + g + 5 ||
		    (even ? b[g] : a[g]) != (even ? 5000 : 1000) + g) {
			if (bad++ < 8)
				print_error("invocation %u: a %u b %u\n", g,
				            a[g], b[g]);
		}
	}
	assert_int_equal(bad, 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* OpPtrAccessChain on a buffer device address, element indices below
 * the base pointer included (64-bit arithmetic). */
static void
test_ptr_access_chain_on_device_address(void **state)
{
	struct st_env e;

	(void)state;
	st_init(&e);
	uint32_t *buf = st_buf(&e, 4096);
	uint64_t push = e.bufs[0].va;
	swgpu_shader *s = st_shader(&e, sh_bda_ptrchain_spv,
	                            sizeof(sh_bda_ptrchain_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, &push, sizeof(push), 1, 1, 1));
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(buf[i], i >= 16 && i < 48 ? (i - 16) * 7 : 0);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variable_pointers),
		cmocka_unit_test(test_ptr_access_chain_on_device_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Float atomics and the shader clock in the engine (issue 16):
 * OpAtomicFAddEXT / FMinEXT / FMaxEXT and float exchange on 32- and
 * 64-bit floats in a storage buffer, in shared memory and through a
 * buffer device address (with a 64-bit integer atomic there too), and
 * OpReadClockKHR at subgroup and device scope. Every result is checked
 * against its exact value: the adds are of exactly representable
 * numbers, so any order gives the same sum.
 */
#include "shader_test_util.h"

#include <string.h>

#include "sh_fatomic.spv.h"

#define N 256u

struct b_layout {
	float fsum, fmin, fmax, fxch;
	double dsum, dmin, dmax;
	float psum;
	uint32_t pad;
	uint64_t pcount;
};

struct o_layout {
	float old[N];
	float shared_sum[4];
	double shared_dsum[4];
	uint32_t clocks[N][2];
	uint32_t sub_ok[N];
};

static void
test_float_atomics_and_clock(void **state)
{
	struct st_env e;
	struct b_layout *b;
	struct o_layout *o;
	uint64_t push;

	(void)state;
	st_init(&e);
	b = st_buf(&e, 4096);
	o = st_buf(&e, sizeof(*o) + 64);
	b->fmin = 1e9f;
	b->fmax = -1e9f;
	b->fxch = -1.0f;
	b->dmin = 1e300;
	b->dmax = -1e300;
	push = e.bufs[0].va;
	swgpu_shader *s = st_shader(&e, sh_fatomic_spv, sizeof(sh_fatomic_spv),
	                            NULL, NULL, 0);
	uint64_t before = swgpu_now_ns();
	api_ok(st_dispatch(&e, s, NULL, &push, sizeof(push), N / 64, 1, 1));
	uint64_t after = swgpu_now_ns();

	assert_true(b->fsum == (float)N);
	assert_true(b->fmin == -100.5f);
	assert_true(b->fmax == (float)(N - 1) * 0.25f);
	assert_true(b->fxch >= 0.0f && b->fxch <= (float)(N - 1) &&
	            b->fxch == (float)(uint32_t)b->fxch);
	assert_true(b->dsum == 0.5 * N);
	assert_true(b->dmin == 0.25);
	assert_true(b->dmax == (double)(N - 1) * 2.0);
	assert_true(b->psum == 0.5f * N);
	assert_true(b->pcount == N);
	/* Every add returned a distinct old value: 0, 1, ..., N - 1. */
	bool seen[N] = { false };
	for (uint32_t i = 0; i < N; i++) {
		float v = o->old[i];
		uint32_t k = (uint32_t)v;

		assert_true(v == (float)k && k < N && !seen[k]);
		seen[k] = true;
	}
	for (uint32_t g = 0; g < N / 64; g++) {
		assert_true(o->shared_sum[g] == 128.0f);
		assert_true(o->shared_dsum[g] == 8.0);
	}
	/* Clocks: monotonic in each invocation; the device clock is the
	 * host's CLOCK_MONOTONIC, read during the dispatch. */
	for (uint32_t i = 0; i < N; i++) {
		uint64_t t = (uint64_t)o->clocks[i][1] << 32 | o->clocks[i][0];

		assert_int_equal(o->sub_ok[i], 3);
		assert_true(t >= before && t <= after);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_float_atomics_and_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

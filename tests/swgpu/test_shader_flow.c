/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: divergent control flow, barriers with shared memory,
 * subgroup operations, spec constants / matrices / composites, and
 * DISPATCH_INDIRECT, checked against host-computed values.
 */
#include <math.h>
#include <string.h>

#include "shader_test_util.h"

#include "sh_control.spv.h"
#include "sh_control_opt.spv.h"
#include "sh_fib.spv.h"
#include "sh_func.spv.h"
#include "sh_misc.spv.h"
#include "sh_misc_opt.spv.h"
#include "sh_scan.spv.h"
#include "sh_scan_opt.spv.h"
#include "sh_subgroup.spv.h"
#include "sh_subgroup_opt.spv.h"

/* Each test runs the glslang output as is and optimized (-Os: OpPhi,
 * no Function variables); state selects which. */
#define SPV(name, st) ((st) ? name##_opt_spv : name##_spv)
#define SPV_SIZE(name, st) ((st) ? sizeof(name##_opt_spv) : \
                                   sizeof(name##_spv))
static int opt_on = 1;

static int
collatz(int n)
{
	int steps = 0;

	while (n != 1) {
		if (steps > 1000)
			return -1;
		n = (n & 1) == 0 ? n / 2 : 3 * n + 1;
		steps++;
	}
	return steps;
}

static int
nested(int i)
{
	int acc = 0;

	for (int a = 0; a < 8; a++) {
		if (a == i % 5)
			continue;
		for (int b = 0; b < a; b++) {
			if (b * a > i)
				break;
			acc += b ^ a;
		}
		if (acc > 50 + i)
			break;
	}
	return acc;
}

static void
test_control_flow(void **state)
{
	struct st_env e;
	const int n = 256;
	int32_t *o;
	swgpu_shader *s;

	st_init(&e);
	o = st_buf(&e, (size_t)n * 16);
	s = st_shader(&e, SPV(sh_control, *state),
	                SPV_SIZE(sh_control, *state), NULL, NULL,
	              0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, (uint32_t)n / 64, 1, 1));
	for (int i = 0; i < n; i++) {
		int r = i % 3 == 0 ? i * 7 : i % 3 == 1 ? -i : i * i;
		int sw;

		switch (i & 7) {
		case 0: sw = 10; break;
		case 1: case 2: sw = 20 + i; break;
		case 5: case 6: sw = 60 + i; break;
		default: sw = -1; break;
		}
		assert_int_equal(o[i * 4 + 0], r);
		assert_int_equal(o[i * 4 + 1], collatz(i + 1));
		assert_int_equal(o[i * 4 + 2], nested(i));
		assert_int_equal(o[i * 4 + 3], sw);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_functions(void **state)
{
	static const int arr[6] = { 4, 8, 15, 16, 23, 42 };
	struct st_env e;
	int32_t *o;
	swgpu_shader *s;

	st_init(&e);
	o = st_buf(&e, 32 * 16);
	s = st_shader(&e, sh_func_spv, sizeof(sh_func_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 2, 1, 1));
	for (int i = 0; i < 32; i++) {
		int f = -1;

		for (int k = 0; k < 6; k++)
			if (arr[k] == i + 3) {
				f = k;
				break;
			}
		assert_int_equal(o[i * 4 + 0], i + 6);
		assert_int_equal(o[i * 4 + 1], (i + 6) * 2);
		assert_int_equal(o[i * 4 + 2], f);
		assert_int_equal(o[i * 4 + 3], i * 5 + i + (i > 7 ? -i : 100));
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_fibonacci_early_return(void **state)
{
	const swgpu_spec_constant spec = { .id = 0, .size = 4, .value = 40 };
	struct st_env e;
	uint32_t *v;
	swgpu_shader *s;

	st_init(&e);
	v = st_buf(&e, 64 * 4);
	for (uint32_t i = 0; i < 64; i++)
		v[i] = i;
	s = st_shader(&e, sh_fib_spv, sizeof(sh_fib_spv), NULL, &spec, 1);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 64, 1, 1));
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t want = i, curr = 1, prev = 1;

		if (i >= 40) {
			assert_int_equal(v[i], i);   /* returned early */
			continue;
		}
		if (i > 1) {
			for (uint32_t k = 2; k < i; k++) {
				uint32_t t = curr;

				curr += prev;
				prev = t;
			}
			want = curr;
		}
		assert_int_equal(v[i], want);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_shared_prefix_sum(void **state)
{
	struct st_env e;
	const uint32_t groups = 37, n = groups * 256;
	uint32_t *in, *out, *tot;
	swgpu_shader *s;
	swgpu_shader_properties props;

	st_init(&e);
	in = st_buf(&e, n * 4);
	out = st_buf(&e, n * 4);
	tot = st_buf(&e, groups * 4);
	for (uint32_t i = 0; i < n; i++)
		in[i] = (i * 2654435761u) >> 20;
	s = st_shader(&e, SPV(sh_scan, *state),
	                SPV_SIZE(sh_scan, *state), NULL, NULL, 0);
	swgpu_shader_query_properties(s, &props);
	assert_int_equal(props.local_size[0], 256);
	assert_int_equal(props.shared_memory_size, 2 * 256 * 4);
	assert_true(props.uses_barrier);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, groups, 1, 1));
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t acc = 0;

		for (uint32_t l = 0; l < 256; l++) {
			acc += in[g * 256 + l];
			assert_int_equal(out[g * 256 + l], acc);
		}
		assert_int_equal(tot[g], acc);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_subgroups(void **state)
{
	struct st_env e;
	const uint32_t n = 128;
	uint32_t *v, *o;
	swgpu_shader *s;

	st_init(&e);
	v = st_buf(&e, n * 4);
	o = st_buf(&e, n * 16 * 4);
	for (uint32_t i = 0; i < n; i++)
		v[i] = (i * 37u + 11u) % 101u;
	s = st_shader(&e, SPV(sh_subgroup, *state),
	                SPV_SIZE(sh_subgroup, *state), NULL,
	              NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, n / 64, 1, 1));
	for (uint32_t sg = 0; sg < n / 32; sg++) {
		const uint32_t *x = v + sg * 32;
		uint32_t sum = 0, mn = UINT32_MAX, mx = 0, ballot = 0, any7 = 0;
		uint32_t all = 1, odd_sum = 0, gt50 = 0, orv = 0, pre = 0;

		for (uint32_t l = 0; l < 32; l++) {
			sum += x[l];
			mn = x[l] < mn ? x[l] : mn;
			mx = x[l] > mx ? x[l] : mx;
			ballot |= (x[l] & 1u) << l;
			any7 |= x[l] == 7;
			all &= x[l] < 1000;
			odd_sum += (l & 1) ? x[l] : 0;
			gt50 += x[l] > 50;
			orv |= x[l];
		}
		for (uint32_t l = 0; l < 32; l++) {
			const uint32_t *r = o + (sg * 32 + l) * 16;
			uint32_t wg_sg = sg % 2;

			assert_int_equal(r[0], 32u | l << 8 | wg_sg << 16 |
			                 2u << 24);
			assert_int_equal(r[1], sum);
			assert_int_equal(r[2], pre + x[l]);
			assert_int_equal(r[3], pre);
			pre += x[l];
			assert_int_equal(r[4], mn);
			assert_int_equal(r[5], mx);
			assert_int_equal(r[6], x[5]);
			assert_int_equal(r[7], x[0]);
			assert_int_equal(r[8], ballot);
			assert_int_equal(r[9], l == 0);
			assert_int_equal(r[10], all | any7 << 1);
			assert_int_equal(r[11], x[(l + 3) & 31]);
			assert_int_equal(r[12], x[l ^ 1]);
			assert_int_equal(r[13], l < 31 ? x[l + 1] : x[l]);
			assert_int_equal(r[14], (l & 1) ? odd_sum +
			                 ((l == 1) << 24) : 0);
			assert_int_equal(r[15], gt50 | orv << 8);
		}
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
run_misc(struct st_env *e, swgpu_shader *s, uint32_t lsize, int scale,
         bool flip, bool indirect)
{
	float *o = (float *)(void *)e->bufs[0].cpu;
	float *mb = (float *)(void *)e->bufs[1].cpu;
	const uint32_t groups = 3, n = groups * lsize;

	memset(o, 0, e->bufs[0].size);
	if (indirect) {
		struct swgpu_bind_table bt;
		uint32_t *args = (uint32_t *)(void *)(e->desc.cpu + 2048);
		uint32_t *p;
		swgpu_ib ib;

		memset(&bt, 0, sizeof(bt));
		memset(e->desc.cpu, 0, 1024);
		for (uint32_t i = 0; i < e->nbufs; i++)
			swgpu_write_buffer_descriptor(
				e->desc.cpu + i * SWGPU_DESCRIPTOR_SIZE,
				SWGPU_DESCRIPTOR_STORAGE_BUFFER, e->bufs[i].va,
				e->bufs[i].size);
		bt.set_va[0] = e->desc.va;
		memcpy(e->table.cpu, &bt, sizeof(bt));
		args[0] = groups;
		args[1] = 1;
		args[2] = 1;
		api_cmd_reset(&e->cmd);
		p = api_cmd_reserve(&e->cmd, SWGPU_LEN_DISPATCH_INDIRECT);
		swgpu_emit_dispatch_indirect(p, swgpu_shader_code_va(s),
		                             e->table.va, e->desc.va + 2048,
		                             0, 0, 0);
		ib = api_cmd_end(&e->cmd);
		api_ok(api_submit(e->q, &ib, NULL, 0, NULL, 0, NULL));
		api_ok(swgpu_queue_wait(e->q, 0, api_deadline_ms(API_WAIT_MS)));
	} else {
		api_ok(st_dispatch(e, s, NULL, NULL, 0, groups, 1, 1));
	}
	for (uint32_t i = 0; i < n; i++) {
		const float *r = o + i * 16;
		const float *m = mb, *v = mb + 16;
		float want[4], c[3], dv[4];

		for (int row = 0; row < 4; row++) {
			want[row] = 0;
			for (int col = 0; col < 4; col++)
				want[row] += m[col * 4 + row] * v[col];
			assert_true(fabsf(r[row] - want[row]) < 1e-4f);
		}
		assert_true(fabsf(r[4] - (m[12] * v[0] + m[13] * v[1] +
		            m[14] * v[2] + m[15] * v[3])) < 1e-4f);
		assert_true(r[5] == (float)((int)(i % 8) * scale) + (float)i);
		{
			const float *sp = mb + 20 + (i % 4) * 4;
			int32_t k;

			memcpy(&k, sp + 2, 4);
			assert_true(r[6] == sp[1] + (float)k);
		}
		c[0] = 2.0f * 0.0f - 3.0f * 1.0f;
		c[1] = 3.0f * (float)i - 1.0f * 0.0f;
		c[2] = 1.0f * 1.0f - 2.0f * (float)i;
		assert_true(r[7] == c[0] + c[1] * 10.0f + c[2] * 100.0f);
		assert_true(r[8] == v[3] - v[0]);
		assert_true(r[9] == (flip ? -1.0f : 1.0f));
		assert_true(r[10] == (float)lsize);
		assert_true(r[11] == 3.0f);
		memcpy(dv, v, sizeof(dv));
		dv[i % 4] = 100.0f;
		assert_true(r[12] == dv[(i + 1) % 4] + 100.0f);
		assert_true(r[13] == (float)(groups * 1000 + i / lsize));
		assert_true(r[14] == (float)(i % lsize));
		assert_true(r[15] == 1.0f);
	}
}

static void
test_spec_matrix_composite(void **state)
{
	struct st_env e;
	float *mb;
	swgpu_shader *s;
	swgpu_shader_properties props;
	swgpu_spec_constant spec[] = {
		{ .id = 0, .size = 4, .value = 48 },
		{ .id = 1, .size = 4, .value = 5 },
		{ .id = 2, .size = 4, .value = 1 },
	};

	st_init(&e);
	st_buf(&e, 3 * 48 * 16 * 4);
	mb = st_buf(&e, 4096);
	for (int i = 0; i < 20; i++)
		mb[i] = (float)(i * 3 % 7) - 2.5f;
	for (int i = 0; i < 4; i++) {
		int32_t k = i * 11 - 7;

		mb[20 + i * 4 + 0] = (float)i;
		mb[20 + i * 4 + 1] = (float)i * 0.5f + 0.25f;
		memcpy(&mb[20 + i * 4 + 2], &k, 4);
	}
	/* default spec constants: local size must come from id 0 */
	s = st_shader(&e, SPV(sh_misc, *state),
	                SPV_SIZE(sh_misc, *state), NULL, spec, 3);
	swgpu_shader_query_properties(s, &props);
	assert_int_equal(props.local_size[0], 48);
	run_misc(&e, s, 48, 5, true, false);
	run_misc(&e, s, 48, 5, true, true);
	swgpu_shader_destroy(s);
	spec[0].value = 32;
	s = st_shader(&e, SPV(sh_misc, *state),
	                SPV_SIZE(sh_misc, *state), NULL, spec, 1);
	run_misc(&e, s, 32, 3, false, false);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_flow),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_fibonacci_early_return),
		cmocka_unit_test(test_shared_prefix_sum),
		cmocka_unit_test(test_subgroups),
		cmocka_unit_test(test_spec_matrix_composite),
		cmocka_unit_test_prestate(test_control_flow, &opt_on),
		cmocka_unit_test_prestate(test_shared_prefix_sum, &opt_on),
		cmocka_unit_test_prestate(test_subgroups, &opt_on),
		cmocka_unit_test_prestate(test_spec_matrix_composite, &opt_on),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

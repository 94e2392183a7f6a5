/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: atomics under contention, robust out-of-bounds access,
 * uniform buffers with dynamic offsets, malformed or unsupported SPIR-V
 * rejected cleanly, and bad DISPATCH packets faulting the context.
 */
#include <stdlib.h>
#include <string.h>

#include "shader_test_util.h"

#include "sh_atomic.spv.h"
#include "sh_descidx.spv.h"
#include "sh_unsupported.spv.h"
#include "sh_loop.spv.h"
#include "sh_robust.spv.h"
#include "sh_saxpy.spv.h"
#include "sh_ubo.spv.h"
#include "sh_zeroinit.spv.h"
#include "sh_explicit_shared.spv.h"
#include "sh_bda.spv.h"

static void
test_atomics_contention(void **state)
{
	struct st_env e;
	const uint32_t groups = 500, n = groups * 64;
	uint32_t *c, *pg, *ret;
	uint8_t *seen;
	swgpu_shader *s;
	uint32_t x = 0, orv = 0;

	(void)state;
	st_init(&e);
	c = st_buf(&e, 64);
	pg = st_buf(&e, groups * 4);
	ret = st_buf(&e, n * 4);
	c[2] = (uint32_t)INT32_MAX;        /* smin */
	c[3] = (uint32_t)INT32_MIN;        /* smax */
	c[4] = UINT32_MAX;                 /* umin */
	c[6] = UINT32_MAX;                 /* and */
	c[10] = 0;                         /* cas: chain 0->1->2... */
	s = st_shader(&e, sh_atomic_spv, sizeof(sh_atomic_spv), NULL, NULL,
	              0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, groups, 1, 1));
	assert_int_equal(c[0], n);
	assert_int_equal(c[1], 0u - 2u * n);
	assert_int_equal((int32_t)c[2], -5000);
	assert_int_equal((int32_t)c[3], (int32_t)n - 1 - 5000);
	assert_int_equal(c[4], 7);
	assert_int_equal(c[5], (n - 1) * 3);
	assert_int_equal(c[6], 0x80000000u);
	for (uint32_t g = 0; g < n; g++) {
		x ^= g;
		orv |= 1u << (g % 31);
	}
	assert_int_equal(c[7], orv);
	assert_int_equal(c[8], x);
	assert_int_equal(c[9], 42);
	/* compare-swap: at least the g == 0 swap happened; never past n */
	assert_true(c[10] >= 1 && c[10] <= n);
	for (uint32_t g = 0; g < groups; g++)
		assert_int_equal(pg[g], 128);
	/* every atomicAdd returned a distinct old value 0..n-1 */
	seen = calloc(n, 1);
	assert_non_null(seen);
	for (uint32_t i = 0; i < n; i++) {
		assert_true(ret[i] < n);
		assert_false(seen[ret[i]]);
		seen[ret[i]] = 1;
	}
	free(seen);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_robust_oob(void **state)
{
	struct st_env e;
	uint32_t *d, *o;
	swgpu_shader *s;
	/* d's buffer is 4096 bytes but the descriptor's range is 256 */
	const uint64_t ranges[2] = { 256, 4096 };
	const uint32_t push[2] = { 32, 48 };

	(void)state;
	st_init(&e);
	d = st_buf(&e, 4096);
	o = st_buf(&e, 4096);
	for (uint32_t i = 0; i < 1024; i++)
		d[i] = i;
	s = st_shader(&e, sh_robust_spv, sizeof(sh_robust_spv), NULL, NULL,
	              0);
	api_ok(st_dispatch(&e, s, ranges, push, sizeof(push), 1, 1, 1));
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t idx = 32 + i, sidx = 48 + i;

		/* loads inside the range see data, past it read 0 */
		assert_int_equal(o[i], (idx < 64 ? idx : 0) + 1);
		if (sidx < 64)
			assert_int_equal(d[sidx], 0xdead0000u + i);
		else
			assert_int_equal(d[sidx], sidx);  /* dropped */
	}
	assert_int_equal(o[64], 64);   /* length() from the range */
	assert_int_equal(swgpu_context_query_state(e.ctx, NULL),
	                 SWGPU_CONTEXT_OK);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_uniform_dynamic(void **state)
{
	struct st_env e;
	uint32_t *o, *u, *p;
	swgpu_shader *s;
	struct swgpu_bind_table bt;
	swgpu_descriptor_type types[ST_MAX_BUFS];
	swgpu_ib ib;

	(void)state;
	for (uint32_t i = 0; i < ST_MAX_BUFS; i++)
		types[i] = SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	types[1] = SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC;
	st_init(&e);
	o = st_buf(&e, 64 * 4);
	u = st_buf(&e, 4096);
	for (uint32_t i = 0; i < 1024; i++)
		u[i] = i * 3;
	s = st_shader(&e, sh_ubo_spv, sizeof(sh_ubo_spv), types, NULL, 0);
	memset(&bt, 0, sizeof(bt));
	memset(e.desc.cpu, 0, 4096);
	swgpu_write_buffer_descriptor(e.desc.cpu,
	                              SWGPU_DESCRIPTOR_STORAGE_BUFFER,
	                              e.bufs[0].va, 256);
	swgpu_write_buffer_descriptor(e.desc.cpu + SWGPU_DESCRIPTOR_SIZE,
	                              SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC,
	                              e.bufs[1].va, 256);
	bt.set_va[0] = e.desc.va;
	bt.dynamic_offsets[0] = 512;   /* dword 128 */
	memcpy(e.table.cpu, &bt, sizeof(bt));
	p = api_cmd_reserve(&e.cmd, SWGPU_LEN_DISPATCH);
	swgpu_emit_dispatch(p, swgpu_shader_code_va(s), e.table.va, 2, 1, 1,
	                    0, 0, 0);
	ib = api_cmd_end(&e.cmd);
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t i = 0; i < 64; i++)
		assert_int_equal(o[i], (128 + (i % 4) * 4 + (i / 4) % 4) * 3 +
		                 i * 1000);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
expect_reject(struct st_env *e, const uint32_t *code, size_t size,
              swgpu_result want, const char *needle)
{
	swgpu_shader *s = (swgpu_shader *)(uintptr_t)1;
	char err[256] = "";

	api_check(want, st_try_shader(e, code, size, &s, err, sizeof(err)));
	if (!strstr(err, needle)) {
		print_error("message \"%s\" lacks \"%s\"\n", err, needle);
		fail();
	}
}

static void
test_malformed_spirv(void **state)
{
	struct st_env e;
	uint32_t *copy = malloc(sizeof(sh_saxpy_spv));
	size_t n = sizeof(sh_saxpy_spv) / 4;

	(void)state;
	assert_non_null(copy);
	st_init(&e);
	/* truncated in the middle of an instruction */
	expect_reject(&e, sh_saxpy_spv, (n - 3) * 4, SWGPU_ERR_INVALID_ARG,
	              "truncated");
	expect_reject(&e, sh_saxpy_spv, 8, SWGPU_ERR_INVALID_ARG, "size");
	expect_reject(&e, sh_saxpy_spv, sizeof(sh_saxpy_spv) - 2,
	              SWGPU_ERR_INVALID_ARG, "size");
	/* bad magic */
	memcpy(copy, sh_saxpy_spv, sizeof(sh_saxpy_spv));
	copy[0] = 0x12345678u;
	expect_reject(&e, copy, sizeof(sh_saxpy_spv), SWGPU_ERR_INVALID_ARG,
	              "magic");
	/* an unknown opcode: turn the first OpName/OpSource (or any
	 * instruction after the header) into opcode 0x7fff */
	memcpy(copy, sh_saxpy_spv, sizeof(sh_saxpy_spv));
	copy[5] = (copy[5] & 0xffff0000u) | 0x7fffu;
	expect_reject(&e, copy, sizeof(sh_saxpy_spv), SWGPU_ERR_UNSUPPORTED,
	              "opcode");
	/* zero word count */
	memcpy(copy, sh_saxpy_spv, sizeof(sh_saxpy_spv));
	copy[5] = 0;
	expect_reject(&e, copy, sizeof(sh_saxpy_spv), SWGPU_ERR_INVALID_ARG,
	              "truncated");
	/* id bound too small: ids out of range */
	memcpy(copy, sh_saxpy_spv, sizeof(sh_saxpy_spv));
	copy[3] = 3;
	{
		swgpu_shader *s = NULL;
		char err[256] = "";

		assert_true(st_try_shader(&e, copy, sizeof(sh_saxpy_spv), &s,
		                          err, sizeof(err)) < 0);
		assert_null(s);
		assert_true(err[0] != '\0');
	}
	/* random corruption never crashes: flip words one at a time */
	for (size_t i = 5; i < n; i += 3) {
		swgpu_shader *s = NULL;
		char err[256];

		memcpy(copy, sh_saxpy_spv, sizeof(sh_saxpy_spv));
		copy[i] ^= 0x00050003u;
		if (st_try_shader(&e, copy, sizeof(sh_saxpy_spv), &s, err,
		                  sizeof(err)) == SWGPU_OK)
			swgpu_shader_destroy(s);
	}
	/* valid SPIR-V the engine does not support: a sparse image load
	 * (capability SparseResidency) */
	expect_reject(&e, sh_unsupported_spv, sizeof(sh_unsupported_spv),
	              SWGPU_ERR_UNSUPPORTED, "capability");
	free(copy);
	st_fini(&e);
}

/* Workgroup variables with a null initializer start at zero in every
 * workgroup, although earlier groups wrote the memory. */
static void
test_zero_initialized_shared(void **state)
{
	struct st_env e;
	(void)state;

	st_init(&e);
	uint32_t *o = st_buf(&e, 64 * 16 * 4);
	swgpu_shader *s = st_shader(&e, sh_zeroinit_spv,
	                            sizeof(sh_zeroinit_spv), NULL, NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 16, 1, 1));
	for (uint32_t g = 0; g < 16; g++)
		for (uint32_t i = 0; i < 64; i++)
			assert_int_equal(o[g * 64 + i], g);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Block Workgroup variables alias in an explicit layout: words written
 * through one are read as bytes, halves and 64-bit values. */
static void
test_explicit_layout_shared(void **state)
{
	struct st_env e;
	(void)state;

	st_init(&e);
	uint32_t *o = st_buf(&e, 32 * 4);
	swgpu_shader *s = st_shader(&e, sh_explicit_shared_spv,
	                            sizeof(sh_explicit_shared_spv), NULL,
	                            NULL, 0);
	api_ok(st_dispatch(&e, s, NULL, NULL, 0, 3, 1, 1));
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t w = 0x04030201u * (i + 1);
		assert_int_equal(o[i], (w >> 8) & 0xff);
		assert_int_equal(o[8 + i], w >> 16);
	}
	assert_int_equal(o[16], 0xabcdef01u);
	assert_int_equal(o[17], 0);
	assert_int_equal(o[18], 0);
	assert_int_equal(o[19], (0x04030201u & 0x00ffffffu) | 0xee000000u);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

/* Buffer device addresses: atomics and stores through a VA in push
 * constants; an unmapped address is a page fault of the context. */
static void
test_buffer_device_address(void **state)
{
	struct st_env e;
	uint64_t va;
	(void)state;

	st_init(&e);
	uint32_t *c = st_buf(&e, 4096);
	swgpu_shader *s = st_shader(&e, sh_bda_spv, sizeof(sh_bda_spv), NULL,
	                            NULL, 0);
	va = e.bufs[0].va;
	api_ok(st_dispatch(&e, s, NULL, &va, sizeof(va), 4, 1, 1));
	assert_int_equal(c[0], 128);
	for (uint32_t k = 0; k < 4; k++) {
		uint32_t sum = 0;
		for (uint32_t i = k; i < 128; i += 4)
			sum += i;
		assert_int_equal(c[1 + k], sum);
	}
	for (uint32_t i = 0; i < 128; i++)
		assert_int_equal(c[5 + i], i * 3 + 1);
	/* Below every mapping: the job faults, nothing else is touched. */
	va = 0x1000;
	assert_int_equal(st_dispatch(&e, s, NULL, &va, sizeof(va), 1, 1, 1),
	                 SWGPU_ERR_CONTEXT_LOST);
	assert_int_equal(c[0], 128);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_descriptor_indexing(void **state)
{
	struct st_env e;
	uint32_t *buf[3], *cnt, *p;
	swgpu_shader_binding b[2] = {
		{ .set = 0, .binding = 0, .count = 3,
		  .type = SWGPU_DESCRIPTOR_STORAGE_BUFFER },
		{ .set = 0, .binding = 3, .count = 1,
		  .offset = 3 * SWGPU_DESCRIPTOR_SIZE,
		  .type = SWGPU_DESCRIPTOR_STORAGE_BUFFER },
	};
	swgpu_shader_info info = {
		.code = sh_descidx_spv, .code_size = sizeof(sh_descidx_spv),
		.entry_point = "main", .bindings = b, .binding_count = 2,
	};
	swgpu_shader *s = NULL;
	struct swgpu_bind_table bt;
	swgpu_ib ib;

	(void)state;
	st_init(&e);
	for (int k = 0; k < 3; k++) {
		buf[k] = st_buf(&e, 1024);
		for (uint32_t i = 0; i < 64; i++)
			buf[k][i] = i + 1000u * (uint32_t)k;
	}
	cnt = st_buf(&e, 16);
	api_ok(swgpu_shader_create(e.ctx, &info, &s));
	memset(&bt, 0, sizeof(bt));
	for (uint32_t i = 0; i < 4; i++)
		swgpu_write_buffer_descriptor(
			e.desc.cpu + i * SWGPU_DESCRIPTOR_SIZE,
			SWGPU_DESCRIPTOR_STORAGE_BUFFER, e.bufs[i].va,
			e.bufs[i].size);
	bt.set_va[0] = e.desc.va;
	memcpy(e.table.cpu, &bt, sizeof(bt));
	p = api_cmd_reserve(&e.cmd, SWGPU_LEN_DISPATCH);
	swgpu_emit_dispatch(p, swgpu_shader_code_va(s), e.table.va, 1, 1, 1,
	                    0, 0, 0);
	ib = api_cmd_end(&e.cmd);
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_ok(swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t k = i % 3, x = i + 1000u * k;

		assert_int_equal(buf[(k + 1) % 3][i + 64], x * 10 + k);
	}
	for (uint32_t k = 0; k < 3; k++) {
		uint32_t n = 64 / 3 + (k < 64 % 3);

		assert_int_equal(buf[k][200], n);
		assert_int_equal(cnt[k], n);
	}
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_layout_mismatch(void **state)
{
	struct st_env e;
	swgpu_shader_binding b[2] = {
		{ .set = 0, .binding = 0, .count = 1,
		  .type = SWGPU_DESCRIPTOR_STORAGE_BUFFER },
		{ .set = 0, .binding = 1, .count = 1,
		  .offset = SWGPU_DESCRIPTOR_SIZE,
		  .type = SWGPU_DESCRIPTOR_UNIFORM_BUFFER },
	};
	swgpu_shader_info info = {
		.code = sh_saxpy_spv, .code_size = sizeof(sh_saxpy_spv),
		.entry_point = "main", .bindings = b, .binding_count = 1,
	};
	swgpu_shader *s = NULL;
	char err[256] = "";

	(void)state;
	st_init(&e);
	info.error = err;
	info.error_size = sizeof(err);
	/* binding 1 is used by the shader but missing */
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_shader_create(e.ctx, &info, &s));
	assert_non_null(strstr(err, "missing"));
	/* binding 1 is a storage buffer, the layout says uniform */
	info.binding_count = 2;
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_shader_create(e.ctx, &info, &s));
	assert_non_null(strstr(err, "does not match"));
	/* wrong entry point name */
	b[1].type = SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	info.entry_point = "other";
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_shader_create(e.ctx, &info, &s));
	assert_non_null(strstr(err, "entry point"));
	info.entry_point = "main";
	api_ok(swgpu_shader_create(e.ctx, &info, &s));
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_bad_shader_va_faults(void **state)
{
	struct st_env e;
	swgpu_shader *s;
	swgpu_fault_info f;
	uint32_t *p;
	swgpu_ib ib;

	(void)state;
	st_init(&e);
	st_buf(&e, 4096);
	st_buf(&e, 4096);
	s = st_shader(&e, sh_saxpy_spv, sizeof(sh_saxpy_spv), NULL, NULL, 0);
	/* a mapped VA that is not a shader: the descriptor set */
	p = api_cmd_reserve(&e.cmd, SWGPU_LEN_DISPATCH);
	swgpu_emit_dispatch(p, e.desc.va, 0, 1, 1, 1, 0, 0, 0);
	ib = api_cmd_end(&e.cmd);
	api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(e.q, 0, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(swgpu_context_query_state(e.ctx, &f),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(f.kind, SWGPU_FAULT_BAD_PACKET);
	assert_int_equal(f.opcode, SWGPU_OP_DISPATCH);
	assert_true(f.address == e.desc.va);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

static void
test_bad_packets_fault(void **state)
{
	static const struct {
		uint32_t groups;
		bool bad_table;
		swgpu_fault_kind kind;
	} cases[] = {
		{ SWGPU_SHADER_MAX_WORKGROUP_COUNT_X + 1, false,
		  SWGPU_FAULT_BAD_PACKET },
		{ 1, true, SWGPU_FAULT_PAGE_READ },
	};

	(void)state;
	for (size_t c = 0; c < API_ARRAY_SIZE(cases); c++) {
		struct st_env e;
		swgpu_shader *s;
		swgpu_fault_info f;
		uint32_t *p;
		swgpu_ib ib;

		st_init(&e);
		s = st_shader(&e, sh_saxpy_spv, sizeof(sh_saxpy_spv), NULL,
		              NULL, 0);
		p = api_cmd_reserve(&e.cmd, SWGPU_LEN_DISPATCH);
		swgpu_emit_dispatch(p, swgpu_shader_code_va(s),
		                    cases[c].bad_table ? 0x7000000000ull : 0,
		                    cases[c].groups, 1, 1, 0, 0, 0);
		ib = api_cmd_end(&e.cmd);
		api_ok(api_submit(e.q, &ib, NULL, 0, NULL, 0, NULL));
		api_check(SWGPU_ERR_CONTEXT_LOST,
		          swgpu_queue_wait(e.q, 0,
		                           api_deadline_ms(API_WAIT_MS)));
		swgpu_context_query_state(e.ctx, &f);
		assert_int_equal(f.kind, cases[c].kind);
		swgpu_shader_destroy(s);
		st_fini(&e);
	}
}

static void
test_endless_shader_hangs(void **state)
{
	struct st_env e;
	swgpu_config cfg;
	swgpu_shader *s;
	swgpu_fault_info f;

	(void)state;
	memset(&e, 0, sizeof(e));
	api_config_small(&cfg);
	cfg.hang_timeout_ms = 300;
	e.dev = api_open(&cfg);
	api_ok(swgpu_context_create(e.dev, &e.ctx));
	e.q = api_queue(e.ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&e.cmd, e.dev, e.ctx, 4096);
	api_buf_init(&e.desc, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&e.table, e.dev, e.ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	st_buf(&e, 4096);
	s = st_shader(&e, sh_loop_spv, sizeof(sh_loop_spv), NULL, NULL, 0);
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          st_dispatch(&e, s, NULL, NULL, 0, 1, 1, 1));
	swgpu_context_query_state(e.ctx, &f);
	assert_int_equal(f.kind, SWGPU_FAULT_HANG);
	swgpu_shader_destroy(s);
	st_fini(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomics_contention),
		cmocka_unit_test(test_robust_oob),
		cmocka_unit_test(test_uniform_dynamic),
		cmocka_unit_test(test_descriptor_indexing),
		cmocka_unit_test(test_zero_initialized_shared),
		cmocka_unit_test(test_explicit_layout_shared),
		cmocka_unit_test(test_buffer_device_address),
		cmocka_unit_test(test_malformed_spirv),
		cmocka_unit_test(test_layout_mismatch),
		cmocka_unit_test(test_bad_shader_va_faults),
		cmocka_unit_test(test_bad_packets_fault),
		cmocka_unit_test(test_endless_shader_hangs),
	};

	api_apply_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

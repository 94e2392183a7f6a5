/* SPDX-License-Identifier: MIT */
/*
 * Configuration and device info through the public API: defaults, the
 * documented SWGPU_* environment overrides, and malformed values being
 * ignored (the default stays).
 */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>

static const char *const env_names[] = {
	"SWGPU_GRAPHICS_ENGINES", "SWGPU_GFX_THREADS",
	"SWGPU_COMPUTE_ENGINES", "SWGPU_COPY_ENGINES", "SWGPU_VRAM_MB",
	"SWGPU_BAR_MB", "SWGPU_SYSTEM_MB", "SWGPU_RING_KB",
	"SWGPU_TIMEOUT_MS", "SWGPU_SPIN_US", "SWGPU_FAULT", "SWGPU_TRACE",
	"SWGPU_DEBUG",
};

static int
clear_env(void **state)
{
	for (size_t i = 0; i < API_ARRAY_SIZE(env_names); i++)
		unsetenv(env_names[i]);
	return 0;
}

static void
test_defaults(void **state)
{
	swgpu_config cfg;
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_GRAPHICS], 1);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 2);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 2);
	assert_int_equal(cfg.gfx_threads, 2);
	assert_true(cfg.vram_size == 4096ull << 20);
	assert_true(cfg.bar_size == 256ull << 20);
	assert_true(cfg.system_size == 8192ull << 20);
	assert_int_equal(cfg.ring_size, 64 * 1024);
	assert_int_equal(cfg.hang_timeout_ms, 5000);
	assert_int_equal(cfg.spin_us, 20);
	assert_null(cfg.fault);
	assert_null(cfg.trace);
	assert_false(cfg.debug);
}

/* Device info must describe the configured device truthfully. */
static void
test_info_matches_config(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_GRAPHICS] = 2;
	cfg.engine_count[SWGPU_ENGINE_COMPUTE] = 3;
	cfg.engine_count[SWGPU_ENGINE_COPY] = 1;
	cfg.ring_size = 8192;
	cfg.hang_timeout_ms = 1234;
	swgpu_device *dev = api_open(&cfg);

	swgpu_device_info info;
	memset(&info, 0xcc, sizeof(info));
	swgpu_device_query_info(dev, &info);
	assert_int_equal(info.api_version, SWGPU_API_VERSION);
	assert_true(strnlen(info.name, sizeof(info.name)) > 0);
	assert_true(strnlen(info.name, sizeof(info.name)) < sizeof(info.name));
	assert_int_equal(info.engine_count, 6);
	assert_int_equal(info.engine_class_count[SWGPU_ENGINE_GRAPHICS], 2);
	assert_int_equal(info.engine_class_count[SWGPU_ENGINE_COMPUTE], 3);
	assert_int_equal(info.engine_class_count[SWGPU_ENGINE_COPY], 1);
	assert_true(info.heap_size[SWGPU_HEAP_VRAM] == cfg.vram_size);
	assert_true(info.heap_size[SWGPU_HEAP_SYSTEM] == cfg.system_size);
	assert_true(info.bar_size == cfg.bar_size);
	assert_int_equal(info.page_size, 4096);
	assert_true(info.va_alignment >= info.page_size);
	assert_true(info.va_size > 0);
	assert_true(info.max_bo_size > 0);
	assert_int_equal(info.ring_size, 8192);
	assert_true(info.max_ib_depth >= 1);
	assert_true(info.max_ib_size_dw >= 16);
	assert_true(info.timestamp_frequency == 1000000000ull);
	assert_true(info.timestamp_valid_bits >= 1 &&
	            info.timestamp_valid_bits <= 64);
	assert_int_equal(info.hang_timeout_ms, 1234);

	/* Engine names are "<class><index>" and each (class, index) pair
	 * appears exactly once. */
	uint32_t seen[SWGPU_ENGINE_CLASS_COUNT] = { 0 };
	for (uint32_t e = 0; e < info.engine_count; e++) {
		const swgpu_engine_info *ei = &info.engines[e];
		char want[16];
		assert_true(ei->engine_class < SWGPU_ENGINE_CLASS_COUNT);
		snprintf(want, sizeof(want), "%s%u",
		         ei->engine_class == SWGPU_ENGINE_COPY ? "copy"
		         : ei->engine_class == SWGPU_ENGINE_GRAPHICS ? "gfx"
		                                             : "compute",
		         ei->index_in_class);
		assert_string_equal(ei->name, want);
		assert_true(ei->index_in_class <
		            info.engine_class_count[ei->engine_class]);
		assert_false(seen[ei->engine_class] &
		             (1u << ei->index_in_class));
		seen[ei->engine_class] |= 1u << ei->index_in_class;

		swgpu_engine_stats st;
		memset(&st, 0xcc, sizeof(st));
		api_ok(swgpu_engine_query_stats(dev, e, &st));
		assert_true(st.jobs_completed == 0 && st.jobs_failed == 0);
		assert_true(st.bytes_written == 0);
	}
	swgpu_engine_stats st;
	api_check(SWGPU_ERR_INVALID_ARG,
	          swgpu_engine_query_stats(dev, info.engine_count, &st));

	/* A second device gets the next index and a different uuid. */
	swgpu_device *dev2 = api_open(&cfg);
	swgpu_device_info info2;
	swgpu_device_query_info(dev2, &info2);
	assert_true(info2.device_index > info.device_index);
	assert_memory_not_equal(info.uuid, info2.uuid, sizeof(info.uuid));
	swgpu_device_close(dev2);
	swgpu_device_close(dev);
}

static void
test_bad_config_rejected(void **state)
{
	swgpu_config cfg;
	swgpu_device *dev = NULL;

	api_config_small(&cfg);
	cfg.ring_size = 5000; /* not a power of two */
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_device_open(&cfg, &dev));
	assert_null(dev);

	api_config_small(&cfg);
	cfg.ring_size = 2048; /* below the 4096 minimum */
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_device_open(&cfg, &dev));

	api_config_small(&cfg);
	cfg.bar_size = cfg.vram_size + 4096; /* bar must be <= vram */
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_device_open(&cfg, &dev));

	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_COPY] = SWGPU_MAX_ENGINES;
	api_check(SWGPU_ERR_INVALID_ARG, swgpu_device_open(&cfg, &dev));

	api_check(SWGPU_ERR_INVALID_ARG, swgpu_device_open(NULL, NULL));
}

static void
test_env_copy_engines(void **state)
{
	setenv("SWGPU_COPY_ENGINES", "3", 1);
	swgpu_config cfg;
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY], 3);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 2);
	cfg.vram_size = 256ull << 20;
	cfg.bar_size = 64ull << 20;
	cfg.system_size = 256ull << 20;
	swgpu_device *dev = api_open(&cfg);
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	assert_int_equal(info.engine_class_count[SWGPU_ENGINE_COPY], 3);
	assert_int_equal(info.engine_count, 6);
	/* copy2 exists and takes work. */
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 2);
	assert_int_equal(swgpu_queue_engine(q),
	                 api_engine(dev, SWGPU_ENGINE_COPY, 2));
	assert_string_equal(info.engines[swgpu_queue_engine(q)].name, "copy2");
	struct api_buf dst;
	struct api_cmd cmd;
	api_buf_init(&dst, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 64);
	api_emit_write32(&cmd, dst.va + 8, 0xc0ffee03);
	swgpu_ib ib = api_cmd_end(&cmd);
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q);
	assert_int_equal(api_load32(dst.cpu + 8), 0xc0ffee03);
	swgpu_engine_stats st;
	api_ok(swgpu_engine_query_stats(dev, swgpu_queue_engine(q), &st));
	assert_true(st.jobs_completed == 1);
	assert_true(st.bytes_written >= 4);
	api_cmd_fini(&cmd);
	api_buf_fini(&dst);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
	unsetenv("SWGPU_COPY_ENGINES");
}

/* Each documented variable changes exactly its field. */
static void
test_env_each_variable(void **state)
{
	swgpu_config def, cfg;
	swgpu_config_init(&def);

	setenv("SWGPU_COMPUTE_ENGINES", "1", 1);
	setenv("SWGPU_GRAPHICS_ENGINES", "2", 1);
	setenv("SWGPU_GFX_THREADS", "3", 1);
	setenv("SWGPU_VRAM_MB", "1024", 1);
	setenv("SWGPU_BAR_MB", "32", 1);
	setenv("SWGPU_SYSTEM_MB", "2048", 1);
	setenv("SWGPU_RING_KB", "4", 1);
	setenv("SWGPU_TIMEOUT_MS", "777", 1);
	setenv("SWGPU_SPIN_US", "0", 1);
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COMPUTE], 1);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_GRAPHICS], 2);
	assert_int_equal(cfg.gfx_threads, 3);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY],
	                 def.engine_count[SWGPU_ENGINE_COPY]);
	assert_true(cfg.vram_size == 1024ull << 20);
	assert_true(cfg.bar_size == 32ull << 20);
	assert_true(cfg.system_size == 2048ull << 20);
	assert_int_equal(cfg.ring_size, 4096);
	assert_int_equal(cfg.hang_timeout_ms, 777);
	assert_int_equal(cfg.spin_us, 0);
	clear_env(NULL);

	setenv("SWGPU_DEBUG", "1", 1);
	setenv("SWGPU_FAULT", "pagefault:queue=7:job=9", 1);
	swgpu_config_init(&cfg);
	assert_true(cfg.debug);
	assert_non_null(cfg.fault);
	assert_string_equal(cfg.fault, "pagefault:queue=7:job=9");
	clear_env(NULL);
}

/* "A malformed variable is reported on stderr and ignored." */
static void
test_env_malformed_ignored(void **state)
{
	static const char *const bad[] = {
		"", "abc", "3x", "x3", "-1", "0x", "2.5", " ",
		"99999999999999999999999",
	};
	swgpu_config def;
	swgpu_config_init(&def);
	for (size_t i = 0; i < API_ARRAY_SIZE(bad); i++) {
		swgpu_config cfg;
		setenv("SWGPU_COPY_ENGINES", bad[i], 1);
		setenv("SWGPU_VRAM_MB", bad[i], 1);
		setenv("SWGPU_TIMEOUT_MS", bad[i], 1);
		swgpu_config_init(&cfg);
		if (cfg.engine_count[SWGPU_ENGINE_COPY] !=
		    def.engine_count[SWGPU_ENGINE_COPY])
			fail_msg("SWGPU_COPY_ENGINES='%s' not ignored: %u",
			         bad[i], cfg.engine_count[SWGPU_ENGINE_COPY]);
		assert_true(cfg.vram_size == def.vram_size);
		assert_int_equal(cfg.hang_timeout_ms, def.hang_timeout_ms);
	}
	clear_env(NULL);

	/* Out-of-range or structurally invalid values are malformed too. */
	swgpu_config cfg;
	setenv("SWGPU_RING_KB", "5", 1); /* not a power of two */
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.ring_size, def.ring_size);
	setenv("SWGPU_RING_KB", "2", 1); /* below 4096 bytes */
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.ring_size, def.ring_size);
	setenv("SWGPU_COPY_ENGINES", "100", 1); /* > SWGPU_MAX_ENGINES */
	swgpu_config_init(&cfg);
	assert_int_equal(cfg.engine_count[SWGPU_ENGINE_COPY],
	                 def.engine_count[SWGPU_ENGINE_COPY]);
	clear_env(NULL);

	/* A malformed value never stops a device from opening. */
	setenv("SWGPU_COPY_ENGINES", "three", 1);
	swgpu_config_init(&cfg);
	cfg.vram_size = 256ull << 20;
	cfg.bar_size = 16ull << 20;
	cfg.system_size = 256ull << 20;
	swgpu_device *dev = api_open(&cfg);
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	assert_int_equal(info.engine_class_count[SWGPU_ENGINE_COPY],
	                 def.engine_count[SWGPU_ENGINE_COPY]);
	swgpu_device_close(dev);
	clear_env(NULL);
}

static void
test_result_strings_and_clock(void **state)
{
	assert_string_equal(swgpu_result_str(SWGPU_OK), "SWGPU_OK");
	assert_string_equal(swgpu_result_str(SWGPU_ERR_CONTEXT_LOST),
	                    "SWGPU_ERR_CONTEXT_LOST");
	assert_string_equal(swgpu_result_str(SWGPU_TIMEOUT), "SWGPU_TIMEOUT");
	assert_non_null(swgpu_result_str((swgpu_result)-1000));
	assert_non_null(swgpu_result_str((swgpu_result)1000));

	uint64_t a = swgpu_now_ns();
	uint64_t b = swgpu_now_ns();
	assert_true(a > 0 && b >= a);
	uint64_t d = swgpu_deadline_from_timeout(1000000);
	assert_true(d >= b + 1000000);
	assert_true(d < swgpu_now_ns() + 1000000000ull);
	assert_true(swgpu_deadline_from_timeout(UINT64_MAX) ==
	            SWGPU_DEADLINE_INFINITE);
	assert_true(swgpu_deadline_from_timeout(UINT64_MAX - 5) ==
	            SWGPU_DEADLINE_INFINITE);

	/* Destroy/close functions accept NULL. */
	swgpu_device_close(NULL);
	swgpu_context_destroy(NULL);
	swgpu_bo_destroy(NULL);
	swgpu_queue_destroy(NULL);
	swgpu_syncobj_destroy(NULL);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_defaults, clear_env,
		                                clear_env),
		cmocka_unit_test_setup_teardown(test_info_matches_config,
		                                clear_env, clear_env),
		cmocka_unit_test_setup_teardown(test_bad_config_rejected,
		                                clear_env, clear_env),
		cmocka_unit_test_setup_teardown(test_env_copy_engines,
		                                clear_env, clear_env),
		cmocka_unit_test_setup_teardown(test_env_each_variable,
		                                clear_env, clear_env),
		cmocka_unit_test_setup_teardown(test_env_malformed_ignored,
		                                clear_env, clear_env),
		cmocka_unit_test(test_result_strings_and_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Device configuration: defaults, SWGPU_* environment, validation, and the
 * SWGPU_FAULT parser. */
#include "kmd/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define MIB (1024ull * 1024ull)

static bool
is_pow2_u64(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* Read a MiB count from name into *bytes if it is a sane non-zero value
 * (zero allowed when allow_zero); malformed values are logged, ignored. */
static bool
env_mib(const char *name, uint64_t *bytes, bool allow_zero)
{
	uint64_t v;

	if (!swgpu_env_u64(name, &v))
		return false;
	if ((!allow_zero && v == 0) || v > UINT64_MAX / MIB) {
		swgpu_log("ignoring %s=%llu (out of range)", name,
		          (unsigned long long)v);
		return false;
	}
	*bytes = v * MIB;
	return true;
}

static bool
env_u32_range(const char *name, uint32_t *out, uint64_t min, uint64_t max)
{
	uint64_t v;

	if (!swgpu_env_u64(name, &v))
		return false;
	if (v < min || v > max) {
		swgpu_log("ignoring %s=%llu (must be %llu..%llu)", name,
		          (unsigned long long)v, (unsigned long long)min,
		          (unsigned long long)max);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

static void
env_engines(swgpu_config *cfg)
{
	static const char *const names[SWGPU_ENGINE_CLASS_COUNT] = {
		[SWGPU_ENGINE_COMPUTE] = "SWGPU_COMPUTE_ENGINES",
		[SWGPU_ENGINE_COPY] = "SWGPU_COPY_ENGINES",
		[SWGPU_ENGINE_GRAPHICS] = "SWGPU_GRAPHICS_ENGINES",
	};
	uint32_t count[SWGPU_ENGINE_CLASS_COUNT];
	uint32_t total = 0;

	for (uint32_t c = 0; c < SWGPU_ENGINE_CLASS_COUNT; c++) {
		count[c] = cfg->engine_count[c];
		env_u32_range(names[c], &count[c], 0,
		              SWGPU_MAX_ENGINES_PER_CLASS);
		total += count[c];
	}
	/* A device with no engine could never run a job. */
	if (total == 0 || total > SWGPU_MAX_ENGINES) {
		swgpu_log("ignoring SWGPU_GRAPHICS_ENGINES/SWGPU_COMPUTE_ENGINES/"
		          "SWGPU_COPY_ENGINES (total %u engines, must be "
		          "1..%u)", total,
		          SWGPU_MAX_ENGINES);
		return;
	}
	for (uint32_t c = 0; c < SWGPU_ENGINE_CLASS_COUNT; c++)
		cfg->engine_count[c] = count[c];
}

static void
env_ring(swgpu_config *cfg)
{
	uint64_t kb;

	if (!swgpu_env_u64("SWGPU_RING_KB", &kb))
		return;
	if (kb > SWGPU_MAX_RING_SIZE / 1024 || !is_pow2_u64(kb) ||
	    kb * 1024 < SWGPU_MIN_RING_SIZE) {
		swgpu_log("ignoring SWGPU_RING_KB=%llu (must be a power of "
		          "two, %u..%u)", (unsigned long long)kb,
		          SWGPU_MIN_RING_SIZE / 1024,
		          SWGPU_MAX_RING_SIZE / 1024);
		return;
	}
	cfg->ring_size = (uint32_t)(kb * 1024);
}

static void
env_heaps(swgpu_config *cfg)
{
	uint64_t bar = cfg->bar_size;
	bool bar_set;

	env_mib("SWGPU_VRAM_MB", &cfg->vram_size, false);
	env_mib("SWGPU_SYSTEM_MB", &cfg->system_size, false);
	/* 0 (unset) keeps "the whole VRAM"; a budget above VRAM is clamped
	 * by mem_init, so it follows a vram_size changed after init. */
	env_mib("SWGPU_VRAM_BUDGET_MB", &cfg->vram_budget, false);
	bar_set = env_mib("SWGPU_BAR_MB", &bar, true);
	if (bar > cfg->vram_size) {
		if (bar_set)
			swgpu_log("ignoring SWGPU_BAR_MB=%llu (larger than "
			          "VRAM, %llu MiB)",
			          (unsigned long long)(bar / MIB),
			          (unsigned long long)(cfg->vram_size / MIB));
		/* The default window cannot exceed a small VRAM either. */
		bar = cfg->bar_size;
		if (bar > cfg->vram_size)
			bar = cfg->vram_size;
	}
	cfg->bar_size = bar;
}

static void
env_strings(swgpu_config *cfg)
{
	const char *s;
	uint64_t v;

	s = getenv("SWGPU_FAULT");
	if (s && *s) {
		struct fault_spec specs[SWGPU_MAX_FAULT_SPECS];
		uint32_t n;

		if (fault_spec_parse(s, specs, SWGPU_MAX_FAULT_SPECS, &n) ==
		    SWGPU_OK)
			cfg->fault = s;
		else
			swgpu_log("ignoring malformed SWGPU_FAULT=\"%s\"", s);
	}
	s = getenv("SWGPU_TRACE");
	if (s && *s)
		cfg->trace = s;
	s = getenv("SWGPU_DUMP_DIR");
	if (s && *s)
		cfg->dump_dir = s;
	if (swgpu_env_u64("SWGPU_DEBUG", &v))
		cfg->debug = v != 0;
}

void
swgpu_config_init(swgpu_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->engine_count[SWGPU_ENGINE_GRAPHICS] =
		SWGPU_DEFAULT_GRAPHICS_ENGINES;
	cfg->engine_count[SWGPU_ENGINE_COMPUTE] = SWGPU_DEFAULT_COMPUTE_ENGINES;
	cfg->engine_count[SWGPU_ENGINE_COPY] = SWGPU_DEFAULT_COPY_ENGINES;
	cfg->vram_size = SWGPU_DEFAULT_VRAM_MB * MIB;
	cfg->bar_size = SWGPU_DEFAULT_BAR_MB * MIB;
	cfg->system_size = SWGPU_DEFAULT_SYSTEM_MB * MIB;
	cfg->ring_size = SWGPU_DEFAULT_RING_KB * 1024u;
	cfg->hang_timeout_ms = SWGPU_DEFAULT_TIMEOUT_MS;
	cfg->spin_us = SWGPU_DEFAULT_SPIN_US;
	cfg->fault = NULL;
	cfg->trace = NULL;
	cfg->debug = false;

	env_engines(cfg);
	env_heaps(cfg);
	env_ring(cfg);
	env_u32_range("SWGPU_TIMEOUT_MS", &cfg->hang_timeout_ms, 1,
	              UINT32_MAX);
	env_u32_range("SWGPU_SPIN_US", &cfg->spin_us, 0, UINT32_MAX);
	cfg->gfx_threads = SWGPU_DEFAULT_GFX_THREADS;
	env_u32_range("SWGPU_GFX_THREADS", &cfg->gfx_threads, 1,
	              SWGPU_MAX_GFX_THREADS);
	cfg->slice_ms = SWGPU_DEFAULT_SLICE_MS;
	env_u32_range("SWGPU_SLICE_MS", &cfg->slice_ms, 0, 60000u);
	uint32_t preempt = 1;
	env_u32_range("SWGPU_PREEMPT", &preempt, 0, 1);
	cfg->no_preempt = !preempt;
	uint32_t migrate = 1;
	env_u32_range("SWGPU_MIGRATE", &migrate, 0, 1);
	cfg->no_migrate = !migrate;
	uint32_t publish = 1;
	env_u32_range("SWGPU_PUBLISH", &publish, 0, 1);
	cfg->no_publish = !publish;
	cfg->publish_ms = SWGPU_DEFAULT_PUBLISH_MS;
	env_u32_range("SWGPU_PUBLISH_MS", &cfg->publish_ms, 10, 60000u);
	cfg->preempt_chaos = 0;
	env_u32_range("SWGPU_PREEMPT_CHAOS", &cfg->preempt_chaos, 0,
	              UINT32_MAX);
	env_strings(cfg);
}

swgpu_result
config_validate(const swgpu_config *cfg)
{
	uint32_t total = 0;

	if (!cfg) {
		swgpu_log("config: NULL configuration");
		return SWGPU_ERR_INVALID_ARG;
	}
	for (uint32_t c = 0; c < SWGPU_ENGINE_CLASS_COUNT; c++) {
		if (cfg->engine_count[c] > SWGPU_MAX_ENGINES_PER_CLASS) {
			swgpu_log("config: %u engines of class %u (max %u)",
			          cfg->engine_count[c], c,
			          SWGPU_MAX_ENGINES_PER_CLASS);
			return SWGPU_ERR_INVALID_ARG;
		}
		total += cfg->engine_count[c];
	}
	if (total == 0 || total > SWGPU_MAX_ENGINES) {
		swgpu_log("config: %u engines in total (must be 1..%u)", total,
		          SWGPU_MAX_ENGINES);
		return SWGPU_ERR_INVALID_ARG;
	}
	if (!is_pow2_u64(cfg->ring_size) ||
	    cfg->ring_size < SWGPU_MIN_RING_SIZE ||
	    cfg->ring_size > SWGPU_MAX_RING_SIZE) {
		swgpu_log("config: ring_size %u is not a power of two in "
		          "%u..%u", cfg->ring_size, SWGPU_MIN_RING_SIZE,
		          SWGPU_MAX_RING_SIZE);
		return SWGPU_ERR_INVALID_ARG;
	}
	if (cfg->vram_size == 0 || cfg->system_size == 0) {
		swgpu_log("config: heap sizes must be non-zero (vram %llu, "
		          "system %llu)", (unsigned long long)cfg->vram_size,
		          (unsigned long long)cfg->system_size);
		return SWGPU_ERR_INVALID_ARG;
	}
	if (cfg->bar_size > cfg->vram_size) {
		swgpu_log("config: bar_size %llu > vram_size %llu",
		          (unsigned long long)cfg->bar_size,
		          (unsigned long long)cfg->vram_size);
		return SWGPU_ERR_INVALID_ARG;
	}
	if (cfg->gfx_threads > SWGPU_MAX_GFX_THREADS) {
		swgpu_log("config: gfx_threads %u (max %u)", cfg->gfx_threads,
		          SWGPU_MAX_GFX_THREADS);
		return SWGPU_ERR_INVALID_ARG;
	}
	if (cfg->hang_timeout_ms == 0) {
		swgpu_log("config: hang_timeout_ms must be > 0");
		return SWGPU_ERR_INVALID_ARG;
	}
	if (cfg->fault && *cfg->fault) {
		struct fault_spec specs[SWGPU_MAX_FAULT_SPECS];
		uint32_t n;

		if (fault_spec_parse(cfg->fault, specs, SWGPU_MAX_FAULT_SPECS,
		                     &n) != SWGPU_OK)
			return SWGPU_ERR_INVALID_ARG;
	}
	return SWGPU_OK;
}

/* ------------------------------------------------------------------ */
/* SWGPU_FAULT parser                                                  */
/* ------------------------------------------------------------------ */

static const struct {
	const char *name;
	swgpu_fault_kind kind;
} fault_kinds[] = {
	{ "pagefault", SWGPU_FAULT_INJECTED },
	{ "hang", SWGPU_FAULT_HANG },
};

/* Parse the unsigned decimal number in [p, end) into *out (<= max). */
static bool
parse_num(const char *p, const char *end, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (p == end)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		uint64_t d = (uint64_t)(*p - '0');
		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool
token_is(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) == n && memcmp(p, word, n) == 0;
}

/* One "<kind>:key=value:..." item in [p, end). */
static bool
parse_one(const char *p, const char *end, struct fault_spec *spec,
          const char **why)
{
	const char *colon = memchr(p, ':', (size_t)(end - p));
	const char *kend = colon ? colon : end;
	bool have_queue = false, have_job = false, have_dev = false;
	bool found = false;

	for (size_t i = 0; i < SWGPU_ARRAY_SIZE(fault_kinds); i++) {
		if (token_is(p, kend, fault_kinds[i].name)) {
			spec->kind = fault_kinds[i].kind;
			found = true;
		}
	}
	if (!found) {
		*why = "unknown kind (expected pagefault or hang)";
		return false;
	}
	spec->device_index = -1;
	p = kend;
	while (p < end) {
		p++; /* the ':' */
		const char *fend = memchr(p, ':', (size_t)(end - p));
		if (!fend)
			fend = end;
		const char *eq = memchr(p, '=', (size_t)(fend - p));
		uint64_t v;

		if (!eq) {
			*why = "expected key=value";
			return false;
		}
		if (token_is(p, eq, "queue") && !have_queue) {
			if (!parse_num(eq + 1, fend, UINT32_MAX, &v)) {
				*why = "bad queue id";
				return false;
			}
			spec->queue_id = (uint32_t)v;
			have_queue = true;
		} else if (token_is(p, eq, "job") && !have_job) {
			if (!parse_num(eq + 1, fend, UINT64_MAX, &v) ||
			    v == 0) {
				*why = "bad job seqno (must be >= 1)";
				return false;
			}
			spec->job_seqno = v;
			have_job = true;
		} else if (token_is(p, eq, "device") && !have_dev) {
			if (!parse_num(eq + 1, fend, INT32_MAX, &v)) {
				*why = "bad device index";
				return false;
			}
			spec->device_index = (int32_t)v;
			have_dev = true;
		} else {
			*why = "unknown or repeated key";
			return false;
		}
		p = fend;
	}
	if (!have_queue || !have_job) {
		*why = "queue= and job= are required";
		return false;
	}
	return true;
}

swgpu_result
fault_spec_parse(const char *s, struct fault_spec *out, uint32_t max,
                 uint32_t *count)
{
	uint32_t n = 0;

	if (!count || (max > 0 && !out)) {
		swgpu_log("fault_spec_parse: NULL argument");
		return SWGPU_ERR_INVALID_ARG;
	}
	*count = 0;
	if (!s || !*s)
		return SWGPU_OK;

	const char *p = s;
	for (;;) {
		const char *end = strchr(p, ',');
		const char *why = NULL;
		struct fault_spec spec = { 0 };

		if (!end)
			end = p + strlen(p);
		if (!parse_one(p, end, &spec, &why)) {
			swgpu_log("SWGPU_FAULT: malformed spec \"%.*s\": %s",
			          (int)(end - p), p, why);
			return SWGPU_ERR_INVALID_ARG;
		}
		if (n == max) {
			swgpu_log("SWGPU_FAULT: more than %u specs", max);
			return SWGPU_ERR_INVALID_ARG;
		}
		out[n++] = spec;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	*count = n;
	return SWGPU_OK;
}

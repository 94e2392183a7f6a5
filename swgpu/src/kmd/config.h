/* SPDX-License-Identifier: MIT */
/*
 * Device configuration (internal): validation of a swgpu_config and the
 * SWGPU_FAULT fault-injection spec parser. swgpu_config_init() itself is
 * public (swgpu.h) and lives in config.c.
 */
#ifndef SWGPU_CONFIG_H
#define SWGPU_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

/* Limits swgpu_config_init() and config_validate() enforce. */
#define SWGPU_MAX_ENGINES_PER_CLASS 8u
#define SWGPU_MIN_RING_SIZE 4096u
#define SWGPU_MAX_RING_SIZE (1u << 30)

/* Default configuration (before the environment). */
#define SWGPU_DEFAULT_GRAPHICS_ENGINES 1u
#define SWGPU_DEFAULT_COMPUTE_ENGINES 2u
#define SWGPU_DEFAULT_COPY_ENGINES 2u
#define SWGPU_DEFAULT_VRAM_MB 4096u
#define SWGPU_DEFAULT_BAR_MB 256u
#define SWGPU_DEFAULT_SYSTEM_MB 8192u
#define SWGPU_DEFAULT_RING_KB 64u
#define SWGPU_DEFAULT_TIMEOUT_MS 5000u
#define SWGPU_DEFAULT_SPIN_US 20u
#define SWGPU_DEFAULT_SLICE_MS 4u
#define SWGPU_DEFAULT_PUBLISH_MS 500u  /* status page refresh */
/* Raster threads per graphics engine (engine thread + 1 worker: the
 * machine model has two cores). */
#define SWGPU_DEFAULT_GFX_THREADS 2u
#define SWGPU_MAX_GFX_THREADS 16u

/*
 * Check a configuration handed to swgpu_device_open(): engine counts
 * 0..SWGPU_MAX_ENGINES_PER_CLASS per class, total 1..SWGPU_MAX_ENGINES;
 * ring_size a power of two in [SWGPU_MIN_RING_SIZE, SWGPU_MAX_RING_SIZE];
 * vram_size and system_size > 0; bar_size <= vram_size;
 * hang_timeout_ms > 0; fault NULL or a well-formed SWGPU_FAULT spec.
 * Logs the first problem (always) and returns SWGPU_ERR_INVALID_ARG, or
 * SWGPU_OK.
 */
swgpu_result config_validate(const swgpu_config *cfg);

/*
 * One armed fault from SWGPU_FAULT.
 *
 * SWGPU_FAULT=<kind>:queue=<id>:job=<n>[:device=<index>][,<kind>:...]
 *   kind "pagefault" -> SWGPU_FAULT_INJECTED. The job faults before its
 *        first IB as if it had read an unmapped VA; the context's fault
 *        record carries kind SWGPU_FAULT_INJECTED (so tests and users can
 *        tell an injected fault from a real SWGPU_FAULT_PAGE_READ), the
 *        same kind swgpu_debug_inject_fault() is called with.
 *   kind "hang" -> SWGPU_FAULT_HANG: the job stops making progress until
 *        the watchdog declares a hang (may be unimplemented by engines).
 *   The keys queue= and job= are required (job >= 1), device= optional;
 *   keys may come in any order, each at most once.
 */
struct fault_spec {
	swgpu_fault_kind kind;
	uint32_t queue_id;
	uint64_t job_seqno;
	int32_t device_index; /* -1: any device */
};

/* Upper bound of specs a device keeps from SWGPU_FAULT. */
#define SWGPU_MAX_FAULT_SPECS 16u

/*
 * Parse s (SWGPU_FAULT syntax; NULL or "" is zero specs) into out[0..max).
 * On success *count is the number of specs. A malformed spec, or more than
 * max specs, is logged and returns SWGPU_ERR_INVALID_ARG (*count is then
 * 0 and out contents are unspecified).
 */
swgpu_result fault_spec_parse(const char *s, struct fault_spec *out,
                              uint32_t max, uint32_t *count);

#endif

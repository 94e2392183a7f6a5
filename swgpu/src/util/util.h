/* SPDX-License-Identifier: MIT */
/*
 * Small internal helpers shared by every swgpu source file: clocks,
 * logging, the error-with-origin helper and environment parsing.
 * (swgpu_result_str, swgpu_now_ns and swgpu_deadline_from_timeout are
 * public and declared in swgpu.h; they are implemented in util.c.)
 */
#ifndef SWGPU_UTIL_H
#define SWGPU_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#if defined(__GNUC__) || defined(__clang__)
#define SWGPU_PRINTF(fmt_idx, arg_idx) \
	__attribute__((format(printf, fmt_idx, arg_idx)))
#else
#define SWGPU_PRINTF(fmt_idx, arg_idx)
#endif

#define SWGPU_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Always printed: one line on stderr, prefixed "swgpu: ", newline added
 * if fmt lacks one. Thread-safe (one fprintf per line). */
void swgpu_log(const char *fmt, ...) SWGPU_PRINTF(1, 2);

/*
 * Error helper: when debug is true, logs
 *   "swgpu: file:line func: SWGPU_ERR_...: message"
 * and in every case returns r, so call sites read
 *   return SWGPU_ERR(dev->cfg.debug, SWGPU_ERR_INVALID_ARG, "size 0");
 * fmt is mandatory (C11 needs at least one variadic argument).
 */
swgpu_result swgpu_err_at(bool debug, swgpu_result r, const char *file,
                          int line, const char *func, const char *fmt, ...)
	SWGPU_PRINTF(6, 7);

#define SWGPU_ERR(debug, r, ...) \
	swgpu_err_at((debug), (r), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* SWGPU_DEBUG from the environment (cached after the first call), for code
 * that has no device config at hand (vaspace, packet decode). */
bool swgpu_debug_env(void);

/*
 * Parse the numeric environment variable name (decimal, or 0x hex) into
 * *out. Returns true if it is set and well formed; an unset variable
 * returns false silently, a malformed one (empty, trailing junk, overflow,
 * negative) is logged and returns false with *out untouched.
 */
bool swgpu_env_u64(const char *name, uint64_t *out);

/*
 * Zeroed memory for n elements of size bytes on cache lines of its own
 * (SWGPU_PRIVATE_ALIGN-aligned, the size rounded up to it), freed with
 * free(); NULL on overflow or no memory. For state one thread writes
 * while another thread works on its own: two small heap blocks of two
 * threads side by side share a line, and each write then takes the
 * line from the other core (the raster threads' batches ran at half
 * speed that way). 128: the adjacent-line prefetcher pairs lines.
 */
#define SWGPU_PRIVATE_ALIGN 128u
void *swgpu_calloc_private(size_t n, size_t size);

/* a + b, saturating at UINT64_MAX. */
static inline uint64_t
swgpu_add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

#endif

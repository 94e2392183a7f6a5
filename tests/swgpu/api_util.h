/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the swgpu public-API tests (test_api_*.c). They use
 * only <swgpu/swgpu.h> and <swgpu/swgpu_packet.h>, like a front end would.
 *
 * Helpers that assert (api_*) use cmocka's assert macros and must only be
 * called from the test's main thread: cmocka reports failures with a
 * longjmp into the test runner, which is meaningless on another thread.
 */
#ifndef SWGPU_TESTS_API_UTIL_H
#define SWGPU_TESTS_API_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

/* Every host wait in the tests is bounded by this (a hang is a failure,
 * never a stuck test). */
#define API_WAIT_MS 30000u

#define API_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Thread sanitizer builds run ~10x slower; the few tests that care scale
 * their work down with this. */
#if defined(__SANITIZE_THREAD__)
#define API_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define API_TSAN 1
#endif
#endif
#ifndef API_TSAN
#define API_TSAN 0
#endif

/* Assert a swgpu call returned the expected result, printing both names
 * on failure. */
#define api_check(expected, call)                                          \
	do {                                                               \
		swgpu_result api_r_ = (call);                              \
		if (api_r_ != (expected))                                  \
			print_error("%s returned %s, expected %s\n", #call,\
			            swgpu_result_str(api_r_),              \
			            swgpu_result_str(expected));           \
		assert_int_equal(api_r_, (expected));                      \
	} while (0)

#define api_ok(call) api_check(SWGPU_OK, call)

uint64_t api_deadline_ms(uint64_t ms);

/* Open a device (cfg NULL: defaults + environment) and assert success. */
swgpu_device *api_open(const swgpu_config *cfg);
/* SWGPU_MODE=shared: devices are the daemon's (swgpud). Tests check what
 * differs by design: handles are the client's own (an import is a new
 * handle to the same object), every BO is shareable, host memory cannot
 * be imported. */
bool api_shared_mode(void);

/* The shader compiler runs: SWGPU_SHADER=jit, or no SWGPU_SHADER in a
 * driver with LLVM (the default back end); SWGPU_SHADER=interp
 * interprets. */
bool api_jit_mode(void);

/* Default config with small heaps, so tests don't reserve gigabytes. */
void api_config_small(swgpu_config *cfg);

/* Engine index of the n-th engine of a class (asserts it exists). */
uint32_t api_engine(swgpu_device *dev, swgpu_engine_class cls, uint32_t n);

swgpu_queue *api_queue(swgpu_context *ctx, swgpu_engine_class cls,
                       uint32_t index);

/* A BO with a GPU mapping in one context and, when the heap allows, a
 * host mapping. */
struct api_buf {
	swgpu_bo *bo;
	swgpu_context *ctx;
	uint8_t *cpu;       /* NULL when not host-mappable */
	uint64_t va;
	uint64_t size;
};

/* heap SYSTEM or VRAM; bo_flags SWGPU_BO_*; host-maps when possible. */
void api_buf_init(struct api_buf *b, swgpu_device *dev, swgpu_context *ctx,
                  uint64_t size, swgpu_heap heap, uint32_t bo_flags,
                  uint32_t va_flags);
void api_buf_fini(struct api_buf *b);

/* Command memory: a SYSTEM BO used as a linear arena of packets. One
 * arena per queue (or per test) so reuse never races with the GPU. */
struct api_cmd {
	struct api_buf buf;
	uint32_t *dw;
	uint32_t cap;       /* dwords */
	uint32_t pos;       /* next free dword */
	uint32_t start;     /* first dword of the IB being recorded */
};

void api_cmd_init(struct api_cmd *c, swgpu_device *dev, swgpu_context *ctx,
                  uint32_t cap_dw);
void api_cmd_fini(struct api_cmd *c);
/* Reserve ndw dwords of the current IB (asserts capacity). */
uint32_t *api_cmd_reserve(struct api_cmd *c, uint32_t ndw);
/* Close the current IB and return it; the next one starts after it. */
swgpu_ib api_cmd_end(struct api_cmd *c);
/* Start over (only when the GPU is done with every IB of the arena). */
void api_cmd_reset(struct api_cmd *c);

void api_emit_nop(struct api_cmd *c, uint32_t len_dw);
void api_emit_write32(struct api_cmd *c, uint64_t va, uint32_t v);
void api_emit_write64(struct api_cmd *c, uint64_t va, uint64_t v);
void api_emit_write(struct api_cmd *c, uint64_t va, const uint32_t *v,
                    uint32_t n);
void api_emit_copy(struct api_cmd *c, uint64_t dst, uint64_t src,
                   uint64_t size);
void api_emit_fill(struct api_cmd *c, uint64_t dst, uint64_t size,
                   uint32_t pattern);
void api_emit_sem_wait(struct api_cmd *c, uint64_t va, uint64_t value);
void api_emit_sem_signal(struct api_cmd *c, uint64_t va, uint64_t value,
                         uint32_t flags);
void api_emit_timestamp(struct api_cmd *c, uint64_t va);
void api_emit_indirect(struct api_cmd *c, swgpu_ib ib);

/* Submit one job with at most one IB (ib NULL: sync-only). Returns the
 * result without asserting. */
swgpu_result api_submit(swgpu_queue *q, const swgpu_ib *ib,
                        const swgpu_sync_point *waits, uint32_t wait_count,
                        const swgpu_sync_point *signals,
                        uint32_t signal_count, uint64_t *seqno);

/* Wait until everything submitted to q is done; asserts OK. */
void api_queue_idle(swgpu_queue *q);

/* Deterministic byte pattern: byte i of stream seed. */
static inline uint8_t
api_pattern_byte(uint64_t i, uint32_t seed)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)seed << 17;
	x ^= x >> 29;
	return (uint8_t)(x ^ (x >> 8) ^ seed);
}

void api_fill_pattern(uint8_t *p, uint64_t n, uint64_t first, uint32_t seed);
/* Index of the first byte that differs from the pattern, or n. */
uint64_t api_find_pattern_mismatch(const uint8_t *p, uint64_t n,
                                   uint64_t first, uint32_t seed);
/* Index of the first byte != v, or n. */
uint64_t api_find_byte_mismatch(const uint8_t *p, uint64_t n, uint8_t v);

/* Atomic 32/64-bit host access to GPU-shared memory (the GPU may write or
 * poll it concurrently). */
static inline uint32_t
api_load32(const void *p)
{
	return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
}

static inline uint64_t
api_load64(const void *p)
{
	return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

static inline void
api_store64(void *p, uint64_t v)
{
	__atomic_store_n((uint64_t *)p, v, __ATOMIC_RELEASE);
}

/* Small deterministic PRNG (xorshift64*), per test, thread-local use. */
static inline uint64_t
api_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/* Spin-then-sleep poll until *p (32-bit) == v or deadline; returns true
 * when reached. For checks that a GPU write did NOT happen yet, use
 * api_stays32 instead. */
bool api_poll32(const void *p, uint32_t v, uint64_t deadline_ns);

/* Returns true if *p stays == v for ms milliseconds (a negative check:
 * "this job must not have run"). */
bool api_stays32(const void *p, uint32_t v, uint32_t ms);

/* Honour API_TEST_FILTER / API_TEST_SKIP (cmocka globs); call first in
 * main(). */
void api_apply_filter(void);

#endif

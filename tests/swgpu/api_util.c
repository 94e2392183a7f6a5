/* SPDX-License-Identifier: MIT */
#include "api_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t
api_deadline_ms(uint64_t ms)
{
	return swgpu_deadline_from_timeout(ms * 1000000ull);
}

void
api_config_small(swgpu_config *cfg)
{
	swgpu_config_init(cfg);
	/* Small heaps: tests open many devices, sometimes several at once
	 * under ctest -j. */
	cfg->vram_size = 512ull << 20;
	cfg->bar_size = 64ull << 20;
	cfg->system_size = 512ull << 20;
}

swgpu_device *
api_open(const swgpu_config *cfg)
{
	swgpu_device *dev = NULL;
	api_ok(swgpu_device_open(cfg, &dev));
	assert_non_null(dev);
	return dev;
}

uint32_t
api_engine(swgpu_device *dev, swgpu_engine_class cls, uint32_t n)
{
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	for (uint32_t e = 0; e < info.engine_count; e++) {
		if (info.engines[e].engine_class == cls &&
		    info.engines[e].index_in_class == n)
			return e;
	}
	fail_msg("device has no engine %u of class %d", n, (int)cls);
	return UINT32_MAX;
}

swgpu_queue *
api_queue(swgpu_context *ctx, swgpu_engine_class cls, uint32_t index)
{
	swgpu_queue *q = NULL;
	api_ok(swgpu_queue_create(ctx, cls, index, SWGPU_PRIORITY_NORMAL, &q));
	assert_non_null(q);
	return q;
}

void
api_buf_init(struct api_buf *b, swgpu_device *dev, swgpu_context *ctx,
             uint64_t size, swgpu_heap heap, uint32_t bo_flags,
             uint32_t va_flags)
{
	memset(b, 0, sizeof(*b));
	b->ctx = ctx;
	b->size = size;
	api_ok(swgpu_bo_create(dev, size, heap, bo_flags, &b->bo));
	assert_true(swgpu_bo_size(b->bo) >= size);
	if (heap == SWGPU_HEAP_SYSTEM || (bo_flags & SWGPU_BO_BAR)) {
		void *p = NULL;
		api_ok(swgpu_bo_map(b->bo, &p));
		assert_non_null(p);
		b->cpu = p;
	}
	if (ctx) {
		api_ok(swgpu_va_map(ctx, b->bo, 0, size, va_flags, &b->va));
		assert_true(b->va != 0);
	}
}

void
api_buf_fini(struct api_buf *b)
{
	if (b->ctx && b->va)
		api_ok(swgpu_va_unmap(b->ctx, b->va));
	if (b->cpu)
		swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
	memset(b, 0, sizeof(*b));
}

void
api_cmd_init(struct api_cmd *c, swgpu_device *dev, swgpu_context *ctx,
             uint32_t cap_dw)
{
	memset(c, 0, sizeof(*c));
	api_buf_init(&c->buf, dev, ctx, (uint64_t)cap_dw * 4,
	             SWGPU_HEAP_SYSTEM, 0, SWGPU_VA_READ);
	c->dw = (uint32_t *)c->buf.cpu;
	c->cap = cap_dw;
}

void
api_cmd_fini(struct api_cmd *c)
{
	api_buf_fini(&c->buf);
	memset(c, 0, sizeof(*c));
}

uint32_t *
api_cmd_reserve(struct api_cmd *c, uint32_t ndw)
{
	if ((uint64_t)c->pos + ndw > c->cap)
		fail_msg("command arena full (%u + %u > %u dwords)", c->pos,
		         ndw, c->cap);
	uint32_t *p = c->dw + c->pos;
	c->pos += ndw;
	return p;
}

swgpu_ib
api_cmd_end(struct api_cmd *c)
{
	swgpu_ib ib = {
		.va = c->buf.va + (uint64_t)c->start * 4,
		.size_dw = c->pos - c->start,
	};
	c->start = c->pos;
	return ib;
}

void
api_cmd_reset(struct api_cmd *c)
{
	c->pos = c->start = 0;
}

void
api_emit_nop(struct api_cmd *c, uint32_t len_dw)
{
	swgpu_emit_nop(api_cmd_reserve(c, len_dw), len_dw);
}

void
api_emit_write(struct api_cmd *c, uint64_t va, const uint32_t *v, uint32_t n)
{
	uint32_t *p = api_cmd_reserve(c, SWGPU_LEN_WRITE_DATA(n));
	swgpu_emit_write_data_header(p, va, n);
	memcpy(p + 3, v, (size_t)n * 4);
}

void
api_emit_write32(struct api_cmd *c, uint64_t va, uint32_t v)
{
	api_emit_write(c, va, &v, 1);
}

void
api_emit_write64(struct api_cmd *c, uint64_t va, uint64_t v)
{
	uint32_t d[2] = { (uint32_t)v, (uint32_t)(v >> 32) };
	api_emit_write(c, va, d, 2);
}

void
api_emit_copy(struct api_cmd *c, uint64_t dst, uint64_t src, uint64_t size)
{
	swgpu_emit_copy(api_cmd_reserve(c, SWGPU_LEN_COPY), dst, src, size);
}

void
api_emit_fill(struct api_cmd *c, uint64_t dst, uint64_t size,
              uint32_t pattern)
{
	swgpu_emit_fill(api_cmd_reserve(c, SWGPU_LEN_FILL), dst, size,
	                pattern);
}

void
api_emit_sem_wait(struct api_cmd *c, uint64_t va, uint64_t value)
{
	swgpu_emit_sem_wait(api_cmd_reserve(c, SWGPU_LEN_SEM_WAIT), va, value);
}

void
api_emit_sem_signal(struct api_cmd *c, uint64_t va, uint64_t value,
                    uint32_t flags)
{
	swgpu_emit_sem_signal(api_cmd_reserve(c, SWGPU_LEN_SEM_SIGNAL), va,
	                      value, flags);
}

void
api_emit_timestamp(struct api_cmd *c, uint64_t va)
{
	swgpu_emit_timestamp(api_cmd_reserve(c, SWGPU_LEN_TIMESTAMP), va);
}

void
api_emit_indirect(struct api_cmd *c, swgpu_ib ib)
{
	swgpu_emit_indirect(api_cmd_reserve(c, SWGPU_LEN_INDIRECT_BUFFER),
	                    ib.va, ib.size_dw);
}

swgpu_result
api_submit(swgpu_queue *q, const swgpu_ib *ib, const swgpu_sync_point *waits,
           uint32_t wait_count, const swgpu_sync_point *signals,
           uint32_t signal_count, uint64_t *seqno)
{
	swgpu_submit_info si = {
		.ibs = ib,
		.ib_count = ib ? 1 : 0,
		.waits = waits,
		.wait_count = wait_count,
		.signals = signals,
		.signal_count = signal_count,
	};
	return swgpu_submit(q, &si, seqno);
}

void
api_queue_idle(swgpu_queue *q)
{
	api_ok(swgpu_queue_wait(q, 0, api_deadline_ms(API_WAIT_MS)));
}

void
api_fill_pattern(uint8_t *p, uint64_t n, uint64_t first, uint32_t seed)
{
	for (uint64_t i = 0; i < n; i++)
		p[i] = api_pattern_byte(first + i, seed);
}

uint64_t
api_find_pattern_mismatch(const uint8_t *p, uint64_t n, uint64_t first,
                          uint32_t seed)
{
	for (uint64_t i = 0; i < n; i++) {
		if (p[i] != api_pattern_byte(first + i, seed))
			return i;
	}
	return n;
}

uint64_t
api_find_byte_mismatch(const uint8_t *p, uint64_t n, uint8_t v)
{
	for (uint64_t i = 0; i < n; i++) {
		if (p[i] != v)
			return i;
	}
	return n;
}

static void
api_nap_us(uint32_t us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)us * 1000 };
	nanosleep(&ts, NULL);
}

bool
api_poll32(const void *p, uint32_t v, uint64_t deadline_ns)
{
	for (;;) {
		if (api_load32(p) == v)
			return true;
		if (swgpu_now_ns() >= deadline_ns)
			return false;
		api_nap_us(200);
	}
}

bool
api_stays32(const void *p, uint32_t v, uint32_t ms)
{
	uint64_t end = api_deadline_ms(ms);
	do {
		if (api_load32(p) != v)
			return false;
		api_nap_us(500);
	} while (swgpu_now_ns() < end);
	return api_load32(p) == v;
}

void
api_apply_filter(void)
{
	/* Debugging aid: API_TEST_FILTER=<glob> runs only matching tests,
	 * API_TEST_SKIP=<glob> skips matching ones. */
	const char *f = getenv("API_TEST_FILTER");
	const char *s = getenv("API_TEST_SKIP");
	if (f && *f)
		cmocka_set_test_filter(f);
	if (s && *s)
		cmocka_set_skip_filter(s);
}

bool
api_shared_mode(void)
{
	const char *m = getenv("SWGPU_MODE");

	return m && !strcmp(m, "shared");
}

bool
api_jit_mode(void)
{
	const char *s = getenv("SWGPU_SHADER");

	return s ? !strcmp(s, "jit") : SWGPU_TEST_JIT_DEFAULT;
}

/* SPDX-License-Identifier: MIT */
/* Helpers of the swgpu-API benchmarks (swgpu_api_bench.h). */
#include "swgpu_api_bench.h"

void
buf_init(struct buf *b, swgpu_device *dev, swgpu_context *ctx,
         uint64_t size, uint32_t va_flags)
{
	void *p;

	b->ctx = ctx;
	CHECK(swgpu_bo_create(dev, size, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	                      &b->bo));
	CHECK(swgpu_bo_map(b->bo, &p));
	b->cpu = p;
	CHECK(swgpu_va_map(ctx, b->bo, 0, size, va_flags, &b->va));
}

void
buf_fini(struct buf *b)
{
	CHECK(swgpu_va_unmap(b->ctx, b->va));
	swgpu_bo_unmap(b->bo);
	swgpu_bo_destroy(b->bo);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double
quantile_us(uint64_t *v, uint32_t n, double q)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(uint32_t)(q * (n - 1) + 0.5)] / 1e3;
}

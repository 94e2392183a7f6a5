/* SPDX-License-Identifier: MIT */
/*
 * What the benchmarks on the swgpu API (sched_latency.c, bench_preempt.c)
 * share: a call that must succeed, a mapped buffer, a quantile.
 */
#ifndef SWGPU_API_BENCH_H
#define SWGPU_API_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <swgpu/swgpu.h>

/* A benchmark cannot go on without it: name the call and exit. */
#define CHECK(call)                                                        \
	do {                                                               \
		swgpu_result r_ = (call);                                  \
		if (r_ != SWGPU_OK) {                                      \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__,       \
			        __LINE__, #call, swgpu_result_str(r_));    \
			exit(1);                                           \
		}                                                          \
	} while (0)

/* A cached SYSTEM-heap BO, mapped on the host and in ctx. */
struct buf {
	swgpu_bo *bo;
	swgpu_context *ctx;
	uint8_t *cpu;
	uint64_t va;
};

void buf_init(struct buf *b, swgpu_device *dev, swgpu_context *ctx,
              uint64_t size, uint32_t va_flags);
void buf_fini(struct buf *b);

/* Sorts v (ns); its q-quantile (nearest rank) in us. */
double quantile_us(uint64_t *v, uint32_t n, double q);

#endif

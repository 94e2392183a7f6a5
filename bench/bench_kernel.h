/* SPDX-License-Identifier: MIT */
/*
 * Compute-figure plumbing shared by bench_compute*.c: a pipeline over
 * storage buffers with push constants, untimed copies on the compute
 * queue, and one timed dispatch (submit -> fence).
 */
#ifndef SWGPU_BENCH_KERNEL_H
#define SWGPU_BENCH_KERNEL_H

#include "bench.h"

#define BENCH_SSBO_USAGE (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT)

struct bench_kernel {
	VkDescriptorSetLayout dsl;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool pool;
	VkDescriptorSet set;
};

VkResult bench_kernel_create(struct bench_vk *vk, const uint32_t *code,
                             size_t code_size, struct bench_buffer **bufs,
                             uint32_t nbuf, uint32_t push_size,
                             struct bench_kernel *k);
void bench_kernel_destroy(struct bench_vk *vk, struct bench_kernel *k);
/* Record a bind + push constants + dispatch of gx x gy workgroups. */
void bench_kernel_record(VkCommandBuffer cb, const struct bench_kernel *k,
                         const void *push, uint32_t push_size, uint32_t gx,
                         uint32_t gy);
/* Compute writes -> compute reads and writes, between dispatches. */
void bench_compute_barrier(VkCommandBuffer cb);
VkResult bench_untimed(struct bench_vk *vk, struct bench_buffer *from,
                       struct bench_buffer *to, VkDeviceSize size,
                       bool host_read);
void bench_grid(uint32_t groups, uint32_t *gx, uint32_t *gy);
/* One dispatch of `groups` workgroups laid out by bench_grid, timed from
 * submit to fence (ns); *ok false when it failed. */
uint64_t bench_timed_dispatch(struct bench_vk *vk, struct bench_kernel *k,
                              const void *push, uint32_t push_size,
                              uint32_t groups, bool *ok);

/*
 * A whole compute figure: per run (warm-up first), prepare() resets the
 * inputs untimed, record() records the timed commands (after a transfer ->
 * compute barrier), which run from submit to fence; then `out` is copied
 * to the readback buffer `rb` and check() judges it. value() turns the
 * run's nanoseconds into the figure's unit (ms, GFLOPS, ...). A failed or
 * wrong run ends the figure as verified=no.
 */
struct bench_compute_figure {
	const char *figure;
	const char *unit;
	void *ctx;
	VkResult (*prepare)(void *ctx);
	void (*record)(void *ctx, VkCommandBuffer cb);
	bool (*check)(void *ctx, const void *got);
	double (*value)(void *ctx, uint64_t ns);
	struct bench_buffer *out;
	VkDeviceSize out_size;
};
void bench_compute_run(struct bench_vk *vk, const struct bench_opts *o,
                       struct bench_buffer *rb,
                       const struct bench_compute_figure *f);
/* ns -> ms, the unit of most compute figures. */
double bench_ns_to_ms(void *ctx, uint64_t ns);

#endif /* SWGPU_BENCH_KERNEL_H */

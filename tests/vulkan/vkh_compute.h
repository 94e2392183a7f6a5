/* SPDX-License-Identifier: MIT */
/*
 * vkh_compute: compute pipelines for the vk_harness tests and samples.
 * A pipeline here owns its shader module, set layouts (bindings numbered
 * 0..n-1 in each set), pipeline layout (one push-constant range), a
 * descriptor pool and one descriptor set per set layout, so a test only
 * writes its buffers into the sets and dispatches.
 */
#ifndef VKH_COMPUTE_H
#define VKH_COMPUTE_H

#include "vk_harness.h"

#include <stddef.h>

#define VKH_PIPE_MAX_SETS 4
#define VKH_PIPE_MAX_BINDINGS 8

/* What a pipeline looks like; zero-initialise and fill in. A set with
 * binding_count 0 gets an empty layout (a hole in the set numbers). */
struct vkh_pipe_desc {
	const uint32_t *spv;
	size_t spv_size;                   /* bytes */
	uint32_t set_count;
	uint32_t binding_count[VKH_PIPE_MAX_SETS];
	VkDescriptorType types[VKH_PIPE_MAX_SETS][VKH_PIPE_MAX_BINDINGS];
	uint32_t push_bytes;               /* 0: no push constants */
	const VkSpecializationInfo *spec;  /* may be NULL */
	VkPipelineCreateFlags flags;       /* e.g. DISPATCH_BASE */
	VkPipelineShaderStageCreateFlags stage_flags;
	const void *stage_next;            /* shader stage pNext chain */
	VkPipelineCache cache;             /* may be VK_NULL_HANDLE */
	const void *pipeline_next;         /* VkComputePipelineCreateInfo
	                                      pNext (e.g. creation feedback) */
};

struct vkh_pipe {
	VkShaderModule module;
	uint32_t set_count;
	VkDescriptorSetLayout set_layouts[VKH_PIPE_MAX_SETS];
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool pool;
	VkDescriptorSet sets[VKH_PIPE_MAX_SETS];
	uint32_t push_bytes;
};

/* True when some queue family of the picked device has COMPUTE. */
bool vkh_has_compute(const struct vkh *h);

VkResult vkh_pipe_create(struct vkh_device *d, const struct vkh_pipe_desc *desc,
                         struct vkh_pipe *out);

/* The common case: nbuf storage buffers at set 0, bindings 0..nbuf-1. */
VkResult vkh_pipe_create_simple(struct vkh_device *d, const uint32_t *spv,
                                size_t spv_size, uint32_t nbuf,
                                uint32_t push_bytes,
                                const VkSpecializationInfo *spec,
                                struct vkh_pipe *out);

void vkh_pipe_destroy(struct vkh_device *d, struct vkh_pipe *p);

/* Write a buffer descriptor (whatever type the layout gave the binding). */
void vkh_pipe_set_buffer(struct vkh_device *d, struct vkh_pipe *p,
                         uint32_t set, uint32_t binding,
                         VkDescriptorType type, VkBuffer buf,
                         VkDeviceSize offset, VkDeviceSize range);

/* Record: bind pipeline, every set (with dynamic offsets), push constants. */
void vkh_pipe_bind(VkCommandBuffer cb, const struct vkh_pipe *p,
                   uint32_t dyn_count, const uint32_t *dyn,
                   const void *push);

/* Compute shader writes -> compute shader reads/writes. */
void vkh_cmd_compute_barrier(VkCommandBuffer cb);
/* Compute shader writes -> host reads. */
void vkh_cmd_compute_host_barrier(VkCommandBuffer cb);

/* One-shot: bind p (no dynamic offsets), push, dispatch gx*gy*gz groups,
 * make the writes visible to the host, submit on queue qi and wait. */
VkResult vkh_dispatch_sync(struct vkh_device *d, uint32_t qi,
                           const struct vkh_pipe *p, const void *push,
                           uint32_t gx, uint32_t gy, uint32_t gz);

/* vkh_cmd_submit_wait with a longer bound for the fence wait (big
 * dispatches in sanitizer builds); on a timeout the command buffer is
 * left pending (leaked). */
VkResult vkh_cmd_submit_wait_ns(struct vkh_device *d, uint32_t qi,
                                VkCommandBuffer cb, uint64_t timeout_ns);

/* A storage buffer of size bytes in host-visible memory (for tests:
 * inputs written and results read through the mapping). */
VkResult vkh_host_buffer(struct vkh *h, struct vkh_device *d,
                         VkDeviceSize size, VkBufferUsageFlags extra_usage,
                         struct vkh_buffer *out);

/* Make host writes to a mapped buffer visible to the device (flush when
 * the memory type is not coherent). */
void vkh_buffer_flush(struct vkh *h, struct vkh_device *d,
                      struct vkh_buffer *b);

/* The whole one-shot test flow: pipeline from spv with nbuf storage
 * buffers (set 0, bindings 0..nbuf-1, each bound whole), host writes
 * flushed, dispatch gx*gy*gz on queue 0, results invalidated, pipeline
 * destroyed. Returns the first failing VkResult (after a log line). */
VkResult vkh_compute_run(struct vkh *h, struct vkh_device *d,
                         const uint32_t *spv, size_t spv_size,
                         struct vkh_buffer *bufs, uint32_t nbuf,
                         const void *push, uint32_t push_bytes,
                         uint32_t gx, uint32_t gy, uint32_t gz);

/* A device with one queue of the first family having all of required,
 * created with the given VkPhysicalDeviceFeatures2 chain (for features
 * vkh_device_create does not enable). Destroy with vkh_device_destroy. */
/* The same with device extensions enabled. */
VkResult vkh_device_create_features_ext(struct vkh *h, VkQueueFlags required,
                                        const VkPhysicalDeviceFeatures2 *features,
                                        const char *const *exts,
                                        uint32_t next, struct vkh_device *out);
VkResult vkh_device_create_features(struct vkh *h, VkQueueFlags required,
                                    const VkPhysicalDeviceFeatures2 *features,
                                    struct vkh_device *out);

#endif /* VKH_COMPUTE_H */

/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of test_icd_compute_objects (test_icd_compute_objects.c:
 * descriptors and dispatches; test_icd_compute_pipeline.c: pipeline
 * caches, shader modules, pipeline layouts, properties).
 */
#ifndef TEST_ICD_COMPUTE_OBJECTS_H
#define TEST_ICD_COMPUTE_OBJECTS_H

#include "vk_harness.h"

#define SSBO VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
#define SSBO_DYN VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC
#define UBO_DYN VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC

/* The add and groups shaders (ico_*.comp), defined once in
 * test_icd_compute_objects.c. */
extern const uint32_t ico_add_spv[];
extern const size_t ico_add_spv_size;
extern const uint32_t ico_groups_spv[];
extern const size_t ico_groups_spv_size;

struct pipe {
	VkPipelineLayout layout;
	VkPipeline pipeline;
};

/* A set layout of n single-descriptor compute bindings 0..n-1. */
VkResult make_set_layout(struct vkh_device *d, uint32_t n,
                         const VkDescriptorType *t,
                         VkDescriptorSetLayout *out);
/* Module (destroyed again), pipeline layout with one compute push range
 * of push_size bytes (0: none), compute pipeline with entry "main". */
VkResult make_pipeline(struct vkh_device *d, const uint32_t *spv,
                       size_t spv_size, uint32_t nsets,
                       const VkDescriptorSetLayout *sets, uint32_t push_size,
                       const VkSpecializationInfo *spec,
                       VkPipelineCreateFlags flags, VkPipelineCache cache,
                       struct pipe *out);
void destroy_pipeline(struct vkh_device *d, struct pipe *p);
VkResult make_pool(struct vkh_device *d, VkDescriptorPoolCreateFlags flags,
                   uint32_t max_sets, VkDescriptorType type, uint32_t count,
                   VkDescriptorPool *out);
VkResult alloc_set(struct vkh_device *d, VkDescriptorPool pool,
                   VkDescriptorSetLayout layout, VkDescriptorSet *out);
void write_buffer(struct vkh_device *d, VkDescriptorSet set,
                  uint32_t binding, VkDescriptorType type, VkBuffer buf,
                  VkDeviceSize offset, VkDeviceSize range);
/* Compute shader writes -> host reads. */
void compute_to_host(VkCommandBuffer cb);

void test_pipeline_cache(struct vkh *h, struct vkh_device *d);
void test_pipeline_cache_threads(struct vkh *h, struct vkh_device *d);
void test_shader_module_header(struct vkh *h, struct vkh_device *d);
void test_pipeline_layouts(struct vkh *h, struct vkh_device *d);
void test_set_hole(struct vkh *h, struct vkh_device *d);
void test_compute_properties(struct vkh *h, struct vkh_device *d);

#endif /* TEST_ICD_COMPUTE_OBJECTS_H */

/* SPDX-License-Identifier: MIT */
/* Shared by the two halves of test_icd_instance (see test_icd_instance.c). */
#ifndef TEST_ICD_INSTANCE_H
#define TEST_ICD_INSTANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#define SWGPU_VENDOR_ID 0x10fff
#define MAX_INJECT 100000

extern int failures;
extern int validation_messages;

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
			        __FILE__, __LINE__, #cond);               \
			failures++;                                       \
		}                                                         \
	} while (0)

#define VK(call)                                                          \
	do {                                                              \
		VkResult vk_r_ = (call);                                  \
		if (vk_r_ != VK_SUCCESS) {                                \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__,     \
			        __LINE__, #call, (int)vk_r_);             \
			exit(1);                                          \
		}                                                         \
	} while (0)

/* Counting allocator with failure injection. */
struct counting_allocator {
	long live;       /* blocks allocated and not yet freed */
	long calls;      /* allocation attempts (alloc + realloc) */
	long fail_at;    /* fail the attempt with this index; -1: never */
	bool failed;     /* an attempt was failed */
	bool bad_align;  /* a block was not aligned as asked */
};

VkAllocationCallbacks counting_callbacks(struct counting_allocator *c);

VKAPI_ATTR VkBool32 VKAPI_CALL
on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
           VkDebugUtilsMessageTypeFlagsEXT types,
           const VkDebugUtilsMessengerCallbackDataEXT *data, void *user);
bool has_layer(const char *name);
VkResult create_instance(bool validation, const VkAllocationCallbacks *alloc,
                         VkInstance *out);
VkPhysicalDevice first_physical_device(VkInstance inst);
/* A device with every queue of every family. */
VkResult create_device(VkPhysicalDevice pd, const VkAllocationCallbacks *alloc,
                       const void *pnext,
                       const VkPhysicalDeviceFeatures *features,
                       uint32_t ext_count, const char *const *exts,
                       VkDevice *out);
uint32_t find_memory_type(const VkPhysicalDeviceMemoryProperties *mp,
                          uint32_t bits, VkMemoryPropertyFlags want);
bool req_eq(const VkMemoryRequirements *a, const VkMemoryRequirements *b);
bool is_pow2(uint64_t v);
/* swgpu: the device has a graphics engine (family 0 is GRAPHICS). */
bool has_graphics_engine(VkPhysicalDevice pd);
/* A small linear 2D image every driver can create. */
extern const VkImageCreateInfo image_linear_ci;

/* test_icd_instance_errors.c */
void test_error_paths(void);
void test_physical_device_count(void);
void test_alloc_failures(void);

#endif

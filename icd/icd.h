/* SPDX-License-Identifier: MIT */
/*
 * icd.h — shared definitions of the swgpu Vulkan ICD: the object header,
 * handle casts, allocation and error helpers, and the core objects that
 * several object families use (instance, physical device, device, queue,
 * device memory, buffer, image). Families used by one file only keep their
 * struct in their own .c or header.
 *
 * The ICD talks to the GPU only through <swgpu/swgpu.h>.
 */
#ifndef ICD_H
#define ICD_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <vulkan/vulkan.h>
#include <vulkan/vk_icd.h>
#include "vk_supplement.h"   /* extensions newer than the headers */

#include <swgpu/swgpu.h>

#include "icd_entrypoints.h" /* generated: prototypes of icd_<Command> */
#include "icd_structs.h"     /* generated: feature/property chain helpers */

/* Vulkan 1.3, with the patch level of the headers the ICD is built from. */
#define ICD_API_VERSION VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION)
/* No PCI vendor: an id above the PCI range and outside the ids Khronos has
 * assigned (VkVendorId), so no tool mistakes us for someone else. */
#define ICD_VENDOR_ID 0x10fff
/*
 * VkDriverId: none is registered for swgpu, and a value outside the enum
 * is "UNKNOWN" to every tool (vulkaninfo printed
 * UNKNOWN_VkDriverId_value1398231111), so one of the defined values has
 * to stand in. What applications do with driverID: (1) show it, (2) key
 * workarounds for a vendor's driver bugs on it, (3) recognise software
 * implementations, to rank a real GPU first or skip heavy work, (4)
 * conformance bookkeeping. A hardware vendor's ID would trigger (2) for
 * bugs swgpu does not have; VK_DRIVER_ID_MESA_LLVMPIPE claims Mesa (apps
 * parse "Mesa x.y" out of driverInfo for Mesa workarounds). GOOGLE_
 * SWIFTSHADER is the other CPU implementation, not Mesa: what apps key
 * on it is the software case (3) — right for swgpu, a software GPU —
 * while browsers' SwiftShader paths key on Google's vendor ID 0x1AE0,
 * which swgpu does not claim (ICD_VENDOR_ID). driverName and driverInfo
 * say what the driver really is. One line to change once swgpu has an
 * ID of its own.
 */
#define ICD_DRIVER_ID VK_DRIVER_ID_GOOGLE_SWIFTSHADER
/* What maxMemoryAllocationCount promises: every allocation takes at least
 * 64 KiB of VA plus a 64 KiB guard in its device's 1 TiB VA space (8 M
 * of them), half of which is left to the driver's own memory (command
 * chunks, descriptor pools, shaders). lavapipe tells 2^32 - 1. */
#define ICD_MAX_MEMORY_ALLOCATIONS (1u << 22)
/* Alignment of buffers and images within a VkDeviceMemory: a cache line,
 * the memory map alignment and non-coherent atom size. */
#define ICD_RESOURCE_ALIGNMENT 64
#define ICD_MAX_QUEUE_FAMILIES 4
#define ICD_MAX_QUEUES_PER_FAMILY 16
#define ICD_MAX_PHYSICAL_DEVICES 4

/* ------------------------------------------------------------------ */
/* Object header and handle casts                                      */
/* ------------------------------------------------------------------ */

/*
 * Every driver object begins with icd_object. For dispatchable objects the
 * loader's dispatch slot must be the very first word, so icd_object starts
 * with it for all objects (unused by non-dispatchable ones); the type is
 * checked on every handle cast in debug builds.
 */
struct icd_object {
	VK_LOADER_DATA loader_data; /* must stay first: the loader writes it */
	VkObjectType type;
};

static inline void
icd_object_init(struct icd_object *o, VkObjectType type)
{
	/* Dispatchable objects carry the loader magic until the loader
	 * overwrites the slot with its dispatch table pointer. */
	set_loader_magic_value(o);
	o->type = type;
}

#define ICD_DEFINE_HANDLE_CASTS(__struct, __VkType, __objtype)            \
	static inline struct __struct *__struct##_from_handle(__VkType h)     \
	{                                                                     \
		struct __struct *o = (struct __struct *)(uintptr_t)h;         \
		assert(!o || o->base.type == (__objtype));                   \
		return o;                                                     \
	}                                                                     \
	static inline __VkType __struct##_to_handle(struct __struct *o)       \
	{                                                                     \
		return (__VkType)(uintptr_t)o;                                \
	}

/* ------------------------------------------------------------------ */
/* Logging, errors and allocation                                      */
/* ------------------------------------------------------------------ */

/* Always printed to stderr, prefixed "swgpu: ". */
void icd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Log (when SWGPU_DEBUG is set) where an error came from, return it. */
VkResult icd_error_at(VkResult r, const char *file, int line,
                      const char *func, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
#define icd_error(r, ...) icd_error_at((r), __FILE__, __LINE__, __func__, \
                                       __VA_ARGS__)

/* A command the device cannot carry out: always logs, returns
 * VK_ERROR_FEATURE_NOT_PRESENT. */
VkResult icd_unsupported(const char *command);

/* A vkCmd* the device cannot record: logs and marks the command buffer so
 * vkEndCommandBuffer fails (strong definition in cmd_buffer.c; the
 * generated entry points carry a weak log-only fallback). */
void icd_cmd_unsupported(VkCommandBuffer commandBuffer, const char *command);

/* swgpu result -> VkResult (CONTEXT_LOST -> VK_ERROR_DEVICE_LOST, ...). */
VkResult icd_result_from_swgpu(swgpu_result r);

/* The default callbacks (malloc/aligned_alloc based). */
extern const VkAllocationCallbacks icd_default_allocator;

/* Allocation through the object's callbacks, falling back to the parent's,
 * then to the default ones. Returns NULL on failure (the caller returns
 * VK_ERROR_OUT_OF_HOST_MEMORY). zalloc zero-fills. */
void *icd_alloc(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
                size_t size, size_t align, VkSystemAllocationScope scope);
void *icd_zalloc(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
                 size_t size, size_t align, VkSystemAllocationScope scope);
void icd_free(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
              void *p);

/* Drop the private data (vkSetPrivateData) of an object being freed. */
void icd_private_data_forget(const void *object);

/* Walk a pNext chain for a structure type. */
static inline const void *
icd_find_struct(const void *chain, VkStructureType type)
{
	for (const VkBaseInStructure *s = chain; s; s = s->pNext)
		if (s->sType == type)
			return s;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Instance and physical device                                        */
/* ------------------------------------------------------------------ */

struct icd_queue_family {
	VkQueueFlags flags;
	uint32_t queue_count;
	swgpu_engine_class engine_class;
};

struct icd_physical_device {
	struct icd_object base;
	struct icd_instance *instance;
	swgpu_device *swdev;
	swgpu_device_info info;
	uint32_t queue_family_count;
	struct icd_queue_family queue_families[ICD_MAX_QUEUE_FAMILIES];
	VkPhysicalDeviceMemoryProperties memory;
	/* memory type index -> swgpu heap and BO flags */
	swgpu_heap type_heap[VK_MAX_MEMORY_TYPES];
	uint32_t type_bo_flags[VK_MAX_MEMORY_TYPES];
	/* what vkGetPhysicalDevice{Properties,Features}[2] report */
	VkPhysicalDeviceProperties properties;
	struct icd_properties properties_1x;
	struct icd_features features;
	/* Candidate device extensions whose gate features are on
	 * (icd_device_extensions_supported): what the device lists. */
	struct icd_ext_set supported_extensions;
};

struct icd_instance {
	struct icd_object base;
	VkAllocationCallbacks alloc;
	uint32_t api_version;   /* the application's, 1.0 if none given */
	struct icd_ext_set enabled_extensions;   /* ICD_INSTANCE_EXT_* */
	/* Device extensions some physical device lists: the ones whose
	 * commands vkGetInstanceProcAddr returns. */
	struct icd_ext_set available_device_extensions;
	uint32_t physical_device_count;
	struct icd_physical_device physical_devices[ICD_MAX_PHYSICAL_DEVICES];
};

/* ------------------------------------------------------------------ */
/* Device and queues                                                   */
/* ------------------------------------------------------------------ */

struct icd_queue {
	struct icd_object base;
	struct icd_device *device;
	uint32_t family;
	uint32_t index;
	VkDeviceQueueCreateFlags flags;
	float priority;
	swgpu_queue *swq;
};

struct icd_device {
	struct icd_object base;
	struct icd_physical_device *pdev;
	VkAllocationCallbacks alloc;
	swgpu_context *ctx;
	uint32_t queue_count[ICD_MAX_QUEUE_FAMILIES];
	struct icd_queue *queues[ICD_MAX_QUEUE_FAMILIES];  /* arrays */
	/* enabled features the ICD must honour */
	bool timeline_semaphore;
	bool synchronization2;
	bool host_query_reset;
	bool buffer_device_address;
	bool texel_buffer_alignment; /* VK_EXT_texel_buffer_alignment's */
	struct icd_ext_set enabled_extensions;   /* ICD_DEVICE_EXT_* */
	/* Free for event.c's per-device GPU-word heap (ICD-B); unused by
	 * device.c, which only guarantees it is NULL at creation. */
	void *gpu_words;
	/* min(instance apiVersion, device apiVersion): what
	 * vkGetDeviceProcAddr offers */
	uint32_t api_version;
};

/* Open / close the swgpu device behind a physical device (instance.c
 * calls them at vkCreateInstance / vkDestroyInstance). */
/* Physical device index of inst: the process's swgpu device of that
 * index, shared with every other instance (physical_device.c). */
VkResult icd_physical_device_init(struct icd_physical_device *pdev,
                                  struct icd_instance *inst, uint32_t index);
void icd_physical_device_finish(struct icd_physical_device *pdev);

/* Vulkan "count + array" output: copies min(*count, n) elements, returns
 * VK_INCOMPLETE if that was fewer than n. out NULL: *count = n. */
VkResult icd_fill_array(void *out, uint32_t *count, const void *src,
                        uint32_t n, size_t elem_size);

/* VK_ERROR_DEVICE_LOST once the device's swgpu context is guilty/lost. */
VkResult icd_device_check_lost(struct icd_device *dev);

/* ------------------------------------------------------------------ */
/* Memory, buffers, images                                             */
/* ------------------------------------------------------------------ */

struct icd_device_memory {
	struct icd_object base;
	struct icd_device *device;
	swgpu_bo *bo;
	uint64_t va;            /* GPU VA of offset 0 in the device's context */
	VkDeviceSize size;
	uint32_t type_index;
	void *map;              /* host pointer of offset 0 while mapped */
};

struct icd_buffer {
	struct icd_object base;
	VkDeviceSize size;
	VkBufferUsageFlags usage;
	VkBufferCreateFlags flags;
	struct icd_device_memory *mem;
	VkDeviceSize mem_offset;
	uint64_t va;            /* mem->va + mem_offset once bound, else 0 */
};

/* Placement of one subresource (mip level of one array layer). */
struct icd_subresource_layout {
	VkDeviceSize offset;    /* from the image's start */
	VkDeviceSize size;
	VkDeviceSize row_pitch;
	VkDeviceSize depth_pitch;
};

#define ICD_MAX_MIP_LEVELS 16

struct icd_image {
	struct icd_object base;
	VkImageType type;
	VkFormat format;
	VkExtent3D extent;
	uint32_t mip_levels;
	uint32_t array_layers;
	VkSampleCountFlagBits samples;
	VkImageTiling tiling;
	VkImageUsageFlags usage;
	/* The stencil aspect's (VkImageStencilUsageCreateInfo, core 1.2 /
	 * VK_EXT_separate_stencil_usage); usage without the struct. */
	VkImageUsageFlags stencil_usage;
	VkImageCreateFlags flags;
	/* One plane per stored aspect (image.c): colour, or depth then
	 * stencil. Subresource (plane p, mip m, layer a) starts at
	 * planes[p].offset + a * planes[p].array_pitch +
	 * planes[p].mips[m].offset; pitches count texel blocks. */
	uint32_t plane_count;
	struct icd_image_plane {
		VkImageAspectFlagBits aspect;
		uint32_t block_size;         /* bytes per texel block */
		uint32_t block_w, block_h;   /* block extent in texels */
		uint32_t swgpu_format;       /* enum swgpu_format, 0 = none */
		VkDeviceSize offset;         /* from the image's start */
		VkDeviceSize array_pitch;    /* bytes between array layers */
		VkDeviceSize sample_pitch;   /* bytes between the sample
		                                slices of a layer: array_pitch
		                                / samples (image.c) */
		struct icd_subresource_layout mips[ICD_MAX_MIP_LEVELS];
	} planes[2];
	VkDeviceSize size;
	VkDeviceSize alignment;
	struct icd_device_memory *mem;
	VkDeviceSize mem_offset;
	uint64_t va;                 /* mem->va + mem_offset once bound */
};

/* VK_EXT_external_memory_host: what can be imported, the alignment of
 * pointer and size (minImportedHostPointerAlignment: the page), and the
 * memory types that can take it (memory.c). */
#define ICD_HOST_POINTER_HANDLE_TYPES \
	(VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT | \
	 VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT)
#define ICD_HOST_POINTER_ALIGNMENT 4096u
/* VK_KHR_external_memory_fd / _semaphore_fd / _fence_fd: opaque fds
 * (memory_fd.c, sync_fd.c; docs/ARCHITECTURE.md "External memory and
 * sync"). */
#define ICD_MEMORY_FD_HANDLE_TYPES VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
#define ICD_SEMAPHORE_FD_HANDLE_TYPES \
	VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT
#define ICD_FENCE_FD_HANDLE_TYPES VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT
/* What buffers and images of OPAQUE_FD memory report (physical_device.c). */
void icd_external_memory_opaque_fd(VkExternalMemoryProperties *p);
uint32_t icd_memory_host_pointer_types(const struct icd_physical_device *pdev);

/* A resource of size bytes bound at offset must fit the memory and be
 * aligned: else a log line naming the call and
 * VK_ERROR_OUT_OF_DEVICE_MEMORY (the bind's only failure code). */
VkResult icd_memory_check_bind(const char *call,
                               const struct icd_device_memory *mem,
                               VkDeviceSize offset, VkDeviceSize size,
                               VkDeviceSize alignment);

ICD_DEFINE_HANDLE_CASTS(icd_instance, VkInstance, VK_OBJECT_TYPE_INSTANCE)
ICD_DEFINE_HANDLE_CASTS(icd_physical_device, VkPhysicalDevice,
                        VK_OBJECT_TYPE_PHYSICAL_DEVICE)
ICD_DEFINE_HANDLE_CASTS(icd_device, VkDevice, VK_OBJECT_TYPE_DEVICE)
ICD_DEFINE_HANDLE_CASTS(icd_queue, VkQueue, VK_OBJECT_TYPE_QUEUE)
ICD_DEFINE_HANDLE_CASTS(icd_device_memory, VkDeviceMemory,
                        VK_OBJECT_TYPE_DEVICE_MEMORY)
ICD_DEFINE_HANDLE_CASTS(icd_buffer, VkBuffer, VK_OBJECT_TYPE_BUFFER)
ICD_DEFINE_HANDLE_CASTS(icd_image, VkImage, VK_OBJECT_TYPE_IMAGE)

/* Write the engine descriptor a view resolved at creation
 * (SWGPU_DESCRIPTOR_SIZE bytes at dst): an image of type (image_view.c;
 * COMBINED_IMAGE_SAMPLER with the sampler state smp, which may be NULL),
 * a texel buffer of type (buffer_view.c); a null (all-zero) one for
 * VK_NULL_HANDLE. */
struct swgpu_sampler_state;
void icd_write_image_view_descriptor(void *dst, VkImageView view,
                                     VkDescriptorType type,
                                     const struct swgpu_sampler_state *smp);
/* The engine's packed state of a sampler (sampler.c); false for
 * VK_NULL_HANDLE. */
bool icd_sampler_state(VkSampler sampler, struct swgpu_sampler_state *out);
void icd_write_buffer_view_descriptor(void *dst, VkBufferView view,
                                      VkDescriptorType type);

/* Fill a feature struct of an extension outside core 1.3 with what the
 * device supports (physical_device_features.c); other structs are left
 * alone. */
void icd_features_write_ext(VkBaseOutStructure *s);
/* The first feature struct of an extension outside core 1.3 in a
 * vkCreateDevice chain that asks for a feature the device lacks (its
 * name), else NULL. */
const char *icd_ext_features_missing(const void *chain);
/* What vkGetPhysicalDeviceProperties(2) / Features(2) tell, set once
 * when the physical device opens (physical_device_props.c,
 * physical_device_features.c). */
void icd_physical_device_init_properties(struct icd_physical_device *pdev);
void icd_physical_device_init_features(struct icd_physical_device *pdev);

/* Graphics (physical_device_gfx.c): whether the device has a graphics
 * engine (queue family 0 is GRAPHICS), its limits and features applied
 * to pdev's, and the feature structs of the graphics extensions. */
bool icd_physical_device_has_graphics(const struct icd_physical_device *pdev);
void icd_physical_device_init_gfx(struct icd_physical_device *pdev);
void icd_features_write_gfx_ext(VkBaseOutStructure *s);
void icd_properties_write_gfx_ext(VkBaseOutStructure *o);

/* VK_EXT_multi_draw: elements per vkCmdDrawMulti*EXT (a packet each). */
#define ICD_MAX_MULTI_DRAW_COUNT 65536u

#endif /* ICD_H */

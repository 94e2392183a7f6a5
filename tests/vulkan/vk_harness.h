/* SPDX-License-Identifier: MIT */
/*
 * vk_harness: a small test harness for Vulkan programs that go through the
 * real loader like any application. It owns the instance (with the Khronos
 * validation layer and a debug-utils messenger that counts errors), picks a
 * physical device, creates devices with queues chosen by capability, picks
 * memory types by role (device-local, upload, readback) and offers one-shot
 * submission helpers with bounded waits.
 *
 * Nothing here knows which driver is underneath: queues and memory types are
 * chosen by their flags, so the same test runs on lavapipe and on swgpu.
 *
 * Environment:
 *   VKH_NO_VALIDATION=1    run without the validation layer (otherwise a
 *                          missing layer is a hard failure)
 *   VKH_NO_SYNC_VALIDATION=1  core validation only (synchronization
 *                          validation is on by default)
 *   VKH_DEVICE_INDEX=<n>   physical device to use (default 0)
 *   VKH_DRIVER_NAME=<s>    else the first device whose driver name
 *                          contains s (default: device 0)
 *   VKH_RELAXED_QUEUE_TYPES=1  run tests that need GRAPHICS/COMPUTE queues
 *                          (vkCmd* event and query-pool commands) on
 *                          TRANSFER queues when nothing else exists, with
 *                          the layer's queue-type errors expected: checks
 *                          a driver's implementation beyond the spec
 */
#ifndef VK_HARNESS_H
#define VK_HARNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

#define VKH_MAX_QUEUES 8
#define VKH_MAX_DEVICES 4
#define VKH_MAX_EXPECTED 8

/* Every wait in a test is bounded by this; a correct driver finishes the
 * small jobs the tests submit in far less. */
#define VKH_TIMEOUT_NS (10ull * 1000 * 1000 * 1000)

/* Exit status that ctest's SKIP_RETURN_CODE maps to "skipped". */
#define VKH_EXIT_SKIP 77

struct vkh_queue {
	VkQueue queue;
	uint32_t family;
	uint32_t index;       /* index within the family */
	VkQueueFlags flags;
	uint32_t timestamp_valid_bits;
	VkCommandPool pool;   /* RESET_COMMAND_BUFFER pool for this queue */
	bool aliased;         /* same VkQueue as an earlier entry */
};

struct vkh_device {
	VkDevice device;
	uint32_t queue_count; /* entries in queues[], aliased ones included */
	uint32_t distinct_queues;
	uint32_t distinct_families;
	struct vkh_queue queues[VKH_MAX_QUEUES];
	const VkAllocationCallbacks *alloc;
};

struct vkh {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	bool validation;
	VkPhysicalDevice phys;
	VkPhysicalDeviceProperties props;
	VkPhysicalDeviceDriverProperties driver;
	VkPhysicalDeviceMemoryProperties mem;
	uint32_t family_count;
	VkQueueFamilyProperties families[16];
	bool is_swgpu;
	uint32_t api_version;  /* the instance's (the application's) */
	bool timeline_semaphore;
	bool synchronization2;
	bool host_query_reset;
	/* Required by Vulkan 1.3; needed by SPIR-V 1.6 compute shaders
	 * (glslang --target-env vulkan1.3 emits LocalSizeId). */
	bool maintenance4;
	bool private_data;
	/* Graphics: enabled on every device when supported. */
	bool dynamic_rendering;
	bool shader_draw_parameters;
	bool draw_indirect_count;
	bool imageless_framebuffer;
	VkPhysicalDeviceFeatures features;   /* supported core features */

	struct vkh_device *devices[VKH_MAX_DEVICES]; /* alive, for cleanup */

	/* Test bookkeeping. */
	int failures;
	bool skipped;
	const char *current_test;
};

/* Messages counted by the messenger. Errors that match an expected
 * substring (vkh_expect_message) are counted separately. */
extern volatile int vkh_validation_errors;
extern volatile int vkh_validation_warnings;
extern volatile int vkh_expected_errors;

/* ---- instance / physical device ---- */

/* Set before vkh_init / vkh_run_tests to change the create infos the
 * harness builds just before vkCreateInstance / vkCreateDevice, e.g. to
 * add the extensions and features of the driver part a test is about
 * (the WSI tests add surface and swapchain extensions). Extension names
 * added must be supported; the harness's own (debug utils) stay first
 * and must be kept. NULL: no change. */
extern void (*vkh_instance_hook)(VkInstanceCreateInfo *ici);
extern void (*vkh_device_hook)(struct vkh *h, VkDeviceCreateInfo *dci);

/* Create the instance (validation layer + debug utils messenger) and pick a
 * physical device. Returns VK_SUCCESS or the failing VkResult (after a log
 * line). api is e.g. VK_API_VERSION_1_3. */
VkResult vkh_init(struct vkh *h, const char *app_name, uint32_t api);

/* As vkh_init, with allocation callbacks for the instance. */
VkResult vkh_init_alloc(struct vkh *h, const char *app_name, uint32_t api,
                        const VkAllocationCallbacks *alloc);

/* Before vkh_init / vkh_run_tests: the application's API version (0:
 * the one passed to vkh_init) and extra instance extensions (at most 32;
 * the array must live as long as the harness). A 1.0 instance queries
 * the physical device with the 1.0 commands only (props.apiVersion and
 * the memory and queue properties are set; driver name only through
 * VK_KHR_get_physical_device_properties2 if it is enabled). */
void vkh_configure_instance(uint32_t api, const char *const *exts,
                            uint32_t n);

/* Destroy every device still alive, the messenger and the instance.
 * Returns 0 when no validation error was seen and no check failed, 1
 * otherwise. */
int vkh_finish(struct vkh *h);

/* Count validation errors containing substr as expected, not as failures,
 * until vkh_expect_clear(). */
void vkh_expect_message(const char *substr);
void vkh_expect_clear(void);

/* Count validation errors about this object (any handle type) as
 * tolerated, not as failures, until vkh_tolerate_clear(). Used for the
 * objects of a VkDevice that was deliberately lost. */
void vkh_tolerate_object(uint64_t handle);
void vkh_tolerate_clear(void);

const char *vkh_result_str(VkResult r);

/* ---- devices and queues ---- */

/* Create a device with up to want_queues queues whose family has all bits of
 * required. Queues are spread over distinct families first, then distinct
 * queues within a family; if the driver has fewer, the remaining entries
 * alias earlier queues (aliased = true). Enables timelineSemaphore,
 * synchronization2, hostQueryReset and maintenance4 when available, and
 * for graphics dynamicRendering, shaderDrawParameters and the core
 * rasterization features the graphics tests use (vkh_device.c). */
VkResult vkh_device_create(struct vkh *h, VkQueueFlags required,
                           uint32_t want_queues,
                           const VkAllocationCallbacks *alloc,
                           struct vkh_device *out);

/* Like vkh_device_create but with exactly the given (family, count) pairs;
 * used where the test needs control over which queues exist. */
VkResult vkh_device_create_explicit(struct vkh *h, uint32_t family,
                                    uint32_t count,
                                    const VkAllocationCallbacks *alloc,
                                    struct vkh_device *out);

void vkh_device_destroy(struct vkh *h, struct vkh_device *d);

/* Devices created from now on enable robustBufferAccess (when
 * supported); off by default. */
extern bool vkh_robust_buffer_access;

/* ---- memory ---- */

/* First memory type in type_bits that has all of want and none of avoid,
 * or -1. */
int vkh_find_memory_type(const struct vkh *h, uint32_t type_bits,
                         VkMemoryPropertyFlags want,
                         VkMemoryPropertyFlags avoid);

/* Role-based picks (D3D12 DEFAULT / UPLOAD / READBACK). Each prefers the
 * dedicated type and falls back to any type that still does the job. */
int vkh_memtype_device_local(const struct vkh *h, uint32_t type_bits);
int vkh_memtype_upload(const struct vkh *h, uint32_t type_bits);
int vkh_memtype_readback(const struct vkh *h, uint32_t type_bits);

/* Print "type N (heap H, flags)" to f. */
void vkh_print_memtype(const struct vkh *h, FILE *f, int type);

enum vkh_mem_role {
	VKH_MEM_DEVICE_LOCAL,
	VKH_MEM_UPLOAD,
	VKH_MEM_READBACK,
};

struct vkh_buffer {
	VkBuffer buffer;
	VkDeviceMemory memory;
	VkDeviceSize size;
	int mem_type;
	void *map; /* non-NULL when host visible */
};

/* Create a buffer of size bytes with usage and bind it to a fresh
 * allocation of memory type mem_type (or by role when mem_type < 0);
 * host-visible memory is mapped persistently. */
VkResult vkh_buffer_create(struct vkh *h, struct vkh_device *d,
                           VkDeviceSize size, VkBufferUsageFlags usage,
                           enum vkh_mem_role role, int mem_type,
                           struct vkh_buffer *out);
void vkh_buffer_destroy(struct vkh_device *d, struct vkh_buffer *b);
/* Invalidate a mapped range if the memory is not coherent. */
void vkh_buffer_invalidate(struct vkh *h, struct vkh_device *d,
                           struct vkh_buffer *b);

/* ---- command buffers ---- */

/* Allocate a primary command buffer from queue qi's pool and begin it
 * (ONE_TIME_SUBMIT). */
VkCommandBuffer vkh_cmd_begin(struct vkh_device *d, uint32_t qi);

/* End cb, submit it on queue qi with a fence, wait (bounded), free cb.
 * Returns the first failing VkResult. */
VkResult vkh_cmd_submit_wait(struct vkh_device *d, uint32_t qi,
                             VkCommandBuffer cb);

/* A full-pipeline memory barrier for transfer writes -> transfer accesses,
 * the barrier between two dependent copies in one command buffer. */
void vkh_cmd_transfer_barrier(VkCommandBuffer cb);

/* A barrier making transfer writes visible to the host. */
void vkh_cmd_host_barrier(VkCommandBuffer cb);

/* One-shot copy of size bytes on queue qi, followed by a transfer->host
 * barrier, submitted and waited for. */
VkResult vkh_copy_sync(struct vkh_device *d, uint32_t qi, VkBuffer src,
                       VkDeviceSize src_off, VkBuffer dst,
                       VkDeviceSize dst_off, VkDeviceSize size);

/* ---- misc ---- */

uint64_t vkh_now_ns(void);

/* The driver under test is swgpu compiling shaders: SWGPU_SHADER=jit, or
 * no SWGPU_SHADER in a build with LLVM (the default back end). */
bool vkh_swgpu_jit(const struct vkh *h);

/* Deterministic pattern byte for (seed, offset). */
static inline uint8_t
vkh_pattern(uint32_t seed, uint64_t off)
{
	uint64_t x = off * 0x9e3779b97f4a7c15ull + seed * 0xbf58476d1ce4e5b9ull;

	x ^= x >> 29;
	return (uint8_t)(x ^ (x >> 17));
}

/* ---- test runner ---- */

struct vkh_test {
	const char *name;
	void (*fn)(struct vkh *h, struct vkh_device *d);
	/* Device the runner creates for the test; want_queues 0 means the
	 * test makes its own devices. */
	uint32_t want_queues;
	/* Queue capabilities the test needs (0: TRANSFER). Without a family
	 * that has them the test is skipped. E.g. vkCmdSetEvent,
	 * vkCmdWaitEvents, vkCmdResetQueryPool and vkCmdCopyQueryPoolResults
	 * are only valid on GRAPHICS or COMPUTE queues. */
	VkQueueFlags queue_flags;
};

/* Run each test (or only those named on the command line) on a fresh
 * device; prints "[ RUN ]"/"[  OK  ]"/"[ FAIL ]"/"[ SKIP ]" lines. A test
 * fails if a check fails or a validation error was reported during it.
 * Returns the process exit status: 0 pass, 1 fail, VKH_EXIT_SKIP if every
 * test that ran was skipped. */
int vkh_run_tests(int argc, char **argv, const char *prog,
                  const struct vkh_test *tests, unsigned count);

void vkh_fail(struct vkh *h, const char *file, int line, const char *fmt,
              ...) __attribute__((format(printf, 4, 5)));
void vkh_skip(struct vkh *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Checks record a failure and return from the calling test function. */
#define VKH_CHECK(h, cond)                                                    \
	do {                                                                  \
		if (!(cond)) {                                                \
			vkh_fail((h), __FILE__, __LINE__, "%s", #cond);       \
			return;                                               \
		}                                                             \
	} while (0)

#define VKH_CHECK_MSG(h, cond, ...)                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			vkh_fail((h), __FILE__, __LINE__, __VA_ARGS__);       \
			return;                                               \
		}                                                             \
	} while (0)

/* Expect an exact VkResult. */
#define VKH_CHECK_RESULT(h, expr, want)                                       \
	do {                                                                  \
		VkResult vkh_r_ = (expr);                                     \
		if (vkh_r_ != (want)) {                                       \
			vkh_fail((h), __FILE__, __LINE__, "%s = %s, want %s", \
			         #expr, vkh_result_str(vkh_r_),               \
			         vkh_result_str(want));                       \
			return;                                               \
		}                                                             \
	} while (0)

#define VKH_CHECK_VK(h, expr) VKH_CHECK_RESULT(h, expr, VK_SUCCESS)

#endif /* VK_HARNESS_H */

/* SPDX-License-Identifier: MIT */
/* test_icd_instance helpers: counting allocator, instance and device. */
#include "test_icd_instance.h"

int failures;
int validation_messages;

/* ------------------------------------------------------------------ */
/* Counting allocator with failure injection                           */
/* ------------------------------------------------------------------ */


struct block_header {
	void *raw;
	size_t size;
};

static bool
counting_should_fail(struct counting_allocator *c)
{
	if (c->fail_at >= 0 && c->calls++ == c->fail_at) {
		c->failed = true;
		return true;
	}
	if (c->fail_at < 0)
		c->calls++;
	return false;
}

static void *VKAPI_PTR
counting_alloc_raw(struct counting_allocator *c, size_t size, size_t align)
{
	size_t hdr = sizeof(struct block_header);
	uint8_t *raw, *p;

	if (align < 16)
		align = 16;
	raw = malloc(size + hdr + align);
	if (!raw)
		return NULL;
	p = (uint8_t *)(((uintptr_t)raw + hdr + align - 1) &
	                ~(uintptr_t)(align - 1));
	((struct block_header *)p)[-1] = (struct block_header){ raw, size };
	c->live++;
	return p;
}

static void *VKAPI_PTR
counting_alloc(void *user, size_t size, size_t align,
               VkSystemAllocationScope scope)
{
	struct counting_allocator *c = user;

	if (align == 0 || (align & (align - 1)))
		c->bad_align = true;
	if (counting_should_fail(c))
		return NULL;
	return counting_alloc_raw(c, size, align);
}

static void VKAPI_PTR
counting_free(void *user, void *p)
{
	struct counting_allocator *c = user;

	if (!p)
		return;
	c->live--;
	free(((struct block_header *)p)[-1].raw);
}

static void *VKAPI_PTR
counting_realloc(void *user, void *old, size_t size, size_t align,
                 VkSystemAllocationScope scope)
{
	struct counting_allocator *c = user;
	size_t old_size;
	void *p;

	if (!old)
		return counting_alloc(user, size, align, scope);
	if (size == 0) {
		counting_free(user, old);
		return NULL;
	}
	if (counting_should_fail(c))
		return NULL;
	p = counting_alloc_raw(c, size, align);
	if (!p)
		return NULL;
	old_size = ((struct block_header *)old)[-1].size;
	memcpy(p, old, old_size < size ? old_size : size);
	counting_free(user, old);
	return p;
}

VkAllocationCallbacks
counting_callbacks(struct counting_allocator *c)
{
	return (VkAllocationCallbacks){
		.pUserData = c,
		.pfnAllocation = counting_alloc,
		.pfnReallocation = counting_realloc,
		.pfnFree = counting_free,
	};
}

/* ------------------------------------------------------------------ */
/* Instance helpers                                                    */
/* ------------------------------------------------------------------ */

VKAPI_ATTR VkBool32 VKAPI_CALL
on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
           VkDebugUtilsMessageTypeFlagsEXT types,
           const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	fprintf(stderr, "validation: %s\n", data->pMessage);
	validation_messages++;
	return VK_FALSE;
}

bool
has_layer(const char *name)
{
	VkLayerProperties props[64];
	uint32_t n = 64;

	if (vkEnumerateInstanceLayerProperties(&n, props) < 0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(props[i].layerName, name))
			return true;
	return false;
}

VkResult
create_instance(bool validation, const VkAllocationCallbacks *alloc,
                VkInstance *out)
{
	static const char *layer = "VK_LAYER_KHRONOS_validation";
	static const char *ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "test_icd_instance",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};

	if (validation) {
		ci.enabledLayerCount = 1;
		ci.ppEnabledLayerNames = &layer;
		ci.enabledExtensionCount = 1;
		ci.ppEnabledExtensionNames = &ext;
	}
	return vkCreateInstance(&ci, alloc, out);
}

VkPhysicalDevice
first_physical_device(VkInstance inst)
{
	VkPhysicalDevice pd[8];
	uint32_t n = 8;

	VK(vkEnumeratePhysicalDevices(inst, &n, pd));
	if (n == 0) {
		fprintf(stderr, "no physical device\n");
		exit(1);
	}
	return pd[0];
}

/* Create a device with every queue of every family. */
VkResult
create_device(VkPhysicalDevice pd, const VkAllocationCallbacks *alloc,
              const void *pnext, const VkPhysicalDeviceFeatures *features,
              uint32_t ext_count, const char *const *exts, VkDevice *out)
{
	VkQueueFamilyProperties qf[8];
	VkDeviceQueueCreateInfo qci[8];
	static const float prios[16] = { 1.0f, 0.25f, 1.0f, 0.25f, 1.0f,
	                                 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f,
	                                 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };
	uint32_t n = 8;

	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
	for (uint32_t i = 0; i < n; i++)
		qci[i] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = i,
			.queueCount = qf[i].queueCount < 16 ?
			              qf[i].queueCount : 16,
			.pQueuePriorities = prios,
		};
	VkDeviceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = pnext,
		.queueCreateInfoCount = n,
		.pQueueCreateInfos = qci,
		.enabledExtensionCount = ext_count,
		.ppEnabledExtensionNames = exts,
		.pEnabledFeatures = features,
	};
	return vkCreateDevice(pd, &ci, alloc, out);
}

uint32_t
find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits,
                 VkMemoryPropertyFlags want)
{
	for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (mp->memoryTypes[i].propertyFlags & want) == want)
			return i;
	return UINT32_MAX;
}

/* Field by field: the struct has padding memcmp would read. */
bool
req_eq(const VkMemoryRequirements *a, const VkMemoryRequirements *b)
{
	return a->size == b->size && a->alignment == b->alignment &&
	       a->memoryTypeBits == b->memoryTypeBits;
}

bool
is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

bool
has_graphics_engine(VkPhysicalDevice pd)
{
	VkQueueFamilyProperties qf[8];
	uint32_t n = 8;
	bool g = false;

	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
	for (uint32_t i = 0; i < n; i++)
		g = g || (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
	return g;
}

const VkImageCreateInfo image_linear_ci = {
	.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
	.imageType = VK_IMAGE_TYPE_2D,
	.format = VK_FORMAT_R8G8B8A8_UNORM,
	.extent = { 33, 17, 1 },
	.mipLevels = 1,
	.arrayLayers = 1,
	.samples = VK_SAMPLE_COUNT_1_BIT,
	.tiling = VK_IMAGE_TILING_LINEAR,
	.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
};

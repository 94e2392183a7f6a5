/* SPDX-License-Identifier: MIT */
/*
 * wsi_surface.c — VK_KHR_surface and its queries, the same for every
 * window system: the platform says only what its window is like now
 * (wsi_platform_ops.query); what a swapchain on it can be follows from
 * how swgpu presents (wsi_present.c):
 *
 *   - images are B8G8R8A8 (UNORM or SRGB, the same bytes): the texel
 *     layout of X11's 24/32-bit TrueColor visuals and of wl_shm's
 *     XRGB/ARGB8888, so showing one is a copy of rows, no conversion;
 *   - every present mode works on every window system, because the
 *     presenter thread paces them itself (FIFO at the display's refresh,
 *     60 Hz where none is known), and a swapchain may switch between
 *     them per present (VK_EXT_swapchain_maintenance1);
 *   - 2 to WSI_MAX_IMAGES images: a shown image is free again at once (the
 *     window system got a copy), so two images never block the
 *     application for longer than FIFO's pacing requires.
 */
#include <time.h>

#include "format.h"
#include "wsi.h"

const VkPresentModeKHR wsi_present_modes[4] = {
	VK_PRESENT_MODE_FIFO_KHR,
	VK_PRESENT_MODE_FIFO_RELAXED_KHR,
	VK_PRESENT_MODE_MAILBOX_KHR,
	VK_PRESENT_MODE_IMMEDIATE_KHR,
};

static const VkSurfaceFormatKHR wsi_formats[] = {
	{ VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR },
	{ VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR },
};

#define WSI_MIN_IMAGES 2u

bool
wsi_present_mode_supported(VkPresentModeKHR mode)
{
	for (uint32_t i = 0; i < 4; i++)
		if (wsi_present_modes[i] == mode)
			return true;
	return false;
}

bool
wsi_format_supported(VkFormat format, VkColorSpaceKHR space)
{
	for (uint32_t i = 0; i < sizeof(wsi_formats) / sizeof(wsi_formats[0]);
	     i++)
		if (wsi_formats[i].format == format &&
		    wsi_formats[i].colorSpace == space)
			return true;
	return false;
}

VkResult
wsi_surface_create(VkInstance instance, const VkAllocationCallbacks *alloc,
                   const struct wsi_platform_ops *ops,
                   struct icd_surface **out)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);
	struct icd_surface *s = NULL;
	pthread_condattr_t ca;

	s = icd_zalloc(alloc, &inst->alloc, sizeof(*s), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!s)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "surface");
	icd_object_init(&s->base, VK_OBJECT_TYPE_SURFACE_KHR);
	s->ops = ops;
	s->instance = inst;
	pthread_mutex_init(&s->lock, NULL);
	/* Timed waits use CLOCK_MONOTONIC, the clock of swgpu_now_ns. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	*out = s;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroySurfaceKHR(VkInstance instance, VkSurfaceKHR surface,
                      const VkAllocationCallbacks *pAllocator)
{
	struct icd_instance *inst = icd_instance_from_handle(instance);
	struct icd_surface *s = icd_surface_from_handle(surface);

	if (!s)
		return;
	if (s->ops->destroy)
		s->ops->destroy(s);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	icd_free(pAllocator, &inst->alloc, s);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateHeadlessSurfaceEXT(VkInstance instance,
                             const VkHeadlessSurfaceCreateInfoEXT *pCreateInfo,
                             const VkAllocationCallbacks *pAllocator,
                             VkSurfaceKHR *pSurface)
{
	struct icd_surface *s = NULL;
	VkResult r = wsi_surface_create(instance, pAllocator,
	                                &wsi_headless_ops, &s);

	if (r == VK_SUCCESS)
		*pSurface = icd_surface_to_handle(s);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfaceSupportKHR(VkPhysicalDevice physicalDevice,
                                       uint32_t queueFamilyIndex,
                                       VkSurfaceKHR surface,
                                       VkBool32 *pSupported)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	struct icd_surface *s = icd_surface_from_handle(surface);
	struct wsi_window win;
	VkResult r;

	/* A present is a job with no packets: any queue runs it. */
	*pSupported = VK_FALSE;
	r = s->ops->query(s, &win);
	if (r != VK_SUCCESS)
		return r;
	*pSupported = queueFamilyIndex < pdev->queue_family_count;
	return VK_SUCCESS;
}

/* Usages of a swapchain image: what an ordinary B8G8R8A8_UNORM image
 * allows, and COLOR_ATTACHMENT, which the spec requires of every surface
 * (its swapchains then fail to create, with a log line, while images
 * cannot be attachments). */
static VkImageUsageFlags
wsi_supported_usage(struct icd_physical_device *pdev)
{
	static const VkImageUsageFlags candidates[] = {
		VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
		VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		VK_IMAGE_USAGE_SAMPLED_BIT,
		VK_IMAGE_USAGE_STORAGE_BIT,
		VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT,
	};
	VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
	VkImageFormatProperties fp;

	for (uint32_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]);
	     i++)
		if (icd_image_format_properties(pdev,
		                                VK_FORMAT_B8G8R8A8_UNORM,
		                                VK_IMAGE_TYPE_2D,
		                                VK_IMAGE_TILING_OPTIMAL,
		                                candidates[i], 0,
		                                &fp) == VK_SUCCESS)
			usage |= candidates[i];
	return usage;
}

VkResult
wsi_surface_capabilities(struct icd_physical_device *pdev,
                         struct icd_surface *surface,
                         VkSurfaceCapabilitiesKHR *caps)
{
	struct wsi_window win;
	VkResult r = surface->ops->query(surface, &win);

	memset(caps, 0, sizeof(*caps));
	if (r != VK_SUCCESS)
		return r;
	caps->minImageCount = WSI_MIN_IMAGES;
	caps->maxImageCount = WSI_MAX_IMAGES;
	caps->currentExtent = win.current_extent;
	if (win.current_extent.width == UINT32_MAX) {
		caps->minImageExtent = (VkExtent2D){ 1, 1 };
		caps->maxImageExtent = (VkExtent2D){
			SWGPU_GFX_MAX_FRAMEBUFFER_DIM,
			SWGPU_GFX_MAX_FRAMEBUFFER_DIM };
	} else {
		caps->minImageExtent = win.current_extent;
		caps->maxImageExtent = win.current_extent;
	}
	caps->maxImageArrayLayers = 1;
	caps->supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	caps->currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
	caps->supportedCompositeAlpha = win.composite_alpha;
	caps->supportedUsageFlags = wsi_supported_usage(pdev);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfaceCapabilitiesKHR(
	VkPhysicalDevice physicalDevice, VkSurfaceKHR surface,
	VkSurfaceCapabilitiesKHR *pSurfaceCapabilities)
{
	return wsi_surface_capabilities(
		icd_physical_device_from_handle(physicalDevice),
		icd_surface_from_handle(surface), pSurfaceCapabilities);
}

/* VK_EXT_surface_maintenance1 outputs: every mode can switch to every
 * other (the presenter paces each present by its own mode); no scaling
 * (images must match the window). */
static void
wsi_capabilities2_chain(void *chain, const VkSurfaceCapabilitiesKHR *caps)
{
	for (VkBaseOutStructure *s = chain; s; s = s->pNext) {
		switch (s->sType) {
		case VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_COMPATIBILITY_EXT: {
			VkSurfacePresentModeCompatibilityEXT *c = (void *)s;

			(void)icd_fill_array(c->pPresentModes,
			                     &c->presentModeCount,
			                     wsi_present_modes, 4,
			                     sizeof(VkPresentModeKHR));
			break;
		}
		case VK_STRUCTURE_TYPE_SURFACE_PRESENT_SCALING_CAPABILITIES_EXT: {
			VkSurfacePresentScalingCapabilitiesEXT *c = (void *)s;

			c->supportedPresentScaling = 0;
			c->supportedPresentGravityX = 0;
			c->supportedPresentGravityY = 0;
			c->minScaledImageExtent = caps->minImageExtent;
			c->maxScaledImageExtent = caps->maxImageExtent;
			break;
		}
		default:
			break;
		}
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfaceCapabilities2KHR(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceSurfaceInfo2KHR *pSurfaceInfo,
	VkSurfaceCapabilities2KHR *pSurfaceCapabilities)
{
	const VkSurfacePresentModeEXT *pm = icd_find_struct(
		pSurfaceInfo->pNext, VK_STRUCTURE_TYPE_SURFACE_PRESENT_MODE_EXT);
	VkSurfaceCapabilitiesKHR *caps =
		&pSurfaceCapabilities->surfaceCapabilities;
	VkResult r;

	if (pm && !wsi_present_mode_supported(pm->presentMode)) {
		icd_log("vkGetPhysicalDeviceSurfaceCapabilities2KHR: present "
		        "mode %d is not supported", pm->presentMode);
		return VK_ERROR_UNKNOWN;
	}
	r = wsi_surface_capabilities(
		icd_physical_device_from_handle(physicalDevice),
		icd_surface_from_handle(pSurfaceInfo->surface), caps);
	if (r != VK_SUCCESS)
		return r;
	wsi_capabilities2_chain(pSurfaceCapabilities->pNext, caps);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfaceFormatsKHR(VkPhysicalDevice physicalDevice,
                                       VkSurfaceKHR surface,
                                       uint32_t *pSurfaceFormatCount,
                                       VkSurfaceFormatKHR *pSurfaceFormats)
{
	struct icd_surface *s = icd_surface_from_handle(surface);
	struct wsi_window win;
	VkResult r = s->ops->query(s, &win);

	if (r != VK_SUCCESS)
		return r;
	return icd_fill_array(pSurfaceFormats, pSurfaceFormatCount,
	                      wsi_formats,
	                      sizeof(wsi_formats) / sizeof(wsi_formats[0]),
	                      sizeof(wsi_formats[0]));
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfaceFormats2KHR(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceSurfaceInfo2KHR *pSurfaceInfo,
	uint32_t *pSurfaceFormatCount, VkSurfaceFormat2KHR *pSurfaceFormats)
{
	struct icd_surface *s = icd_surface_from_handle(pSurfaceInfo->surface);
	const uint32_t n = sizeof(wsi_formats) / sizeof(wsi_formats[0]);
	struct wsi_window win;
	VkResult r = s->ops->query(s, &win);
	uint32_t k;

	if (r != VK_SUCCESS)
		return r;
	if (!pSurfaceFormats) {
		*pSurfaceFormatCount = n;
		return VK_SUCCESS;
	}
	k = *pSurfaceFormatCount < n ? *pSurfaceFormatCount : n;
	for (uint32_t i = 0; i < k; i++)
		pSurfaceFormats[i].surfaceFormat = wsi_formats[i];
	*pSurfaceFormatCount = k;
	return k < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceSurfacePresentModesKHR(VkPhysicalDevice physicalDevice,
                                            VkSurfaceKHR surface,
                                            uint32_t *pPresentModeCount,
                                            VkPresentModeKHR *pPresentModes)
{
	struct icd_surface *s = icd_surface_from_handle(surface);
	struct wsi_window win;
	VkResult r = s->ops->query(s, &win);

	if (r != VK_SUCCESS)
		return r;
	return icd_fill_array(pPresentModes, pPresentModeCount,
	                      wsi_present_modes, 4, sizeof(VkPresentModeKHR));
}

/* The whole window; an undefined extent stays undefined (the swapchain
 * decides it). */
VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDevicePresentRectanglesKHR(VkPhysicalDevice physicalDevice,
                                          VkSurfaceKHR surface,
                                          uint32_t *pRectCount,
                                          VkRect2D *pRects)
{
	struct icd_surface *s = icd_surface_from_handle(surface);
	struct wsi_window win;
	VkResult r = s->ops->query(s, &win);
	VkRect2D rect;

	if (r != VK_SUCCESS)
		return r;
	rect.offset = (VkOffset2D){ 0, 0 };
	rect.extent = win.current_extent;
	return icd_fill_array(pRects, pRectCount, &rect, 1, sizeof(rect));
}

/* One physical device per group: it presents its own images. */
VKAPI_ATTR VkResult VKAPI_CALL
icd_GetDeviceGroupPresentCapabilitiesKHR(
	VkDevice device, VkDeviceGroupPresentCapabilitiesKHR *pCaps)
{
	memset(pCaps->presentMask, 0, sizeof(pCaps->presentMask));
	pCaps->presentMask[0] = 1;
	pCaps->modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetDeviceGroupSurfacePresentModesKHR(
	VkDevice device, VkSurfaceKHR surface,
	VkDeviceGroupPresentModeFlagsKHR *pModes)
{
	struct icd_surface *s = icd_surface_from_handle(surface);
	struct wsi_window win;
	VkResult r = s->ops->query(s, &win);

	*pModes = r == VK_SUCCESS ? VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR
	                          : 0;
	return r;
}

bool
wsi_features_write(VkBaseOutStructure *s)
{
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT:
		((VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT *)s)
			->swapchainMaintenance1 = VK_TRUE;
		return true;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_ID_FEATURES_KHR:
		((VkPhysicalDevicePresentIdFeaturesKHR *)s)->presentId = VK_TRUE;
		return true;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRESENT_WAIT_FEATURES_KHR:
		((VkPhysicalDevicePresentWaitFeaturesKHR *)s)->presentWait =
			VK_TRUE;
		return true;
	default:
		return false;
	}
}

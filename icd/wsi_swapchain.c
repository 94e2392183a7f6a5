/* SPDX-License-Identifier: MIT */
/*
 * wsi_swapchain.c — VkSwapchainKHR: creation, images, acquire, release.
 *
 * A swapchain image is an ordinary icd_image (image.c's layout) bound to
 * its own allocation of host-visible, cached SYSTEM memory (the readback
 * type), mapped for the swapchain's life: the application renders or
 * copies into it on any queue like into any image, and the presenter
 * thread reads its rows on the host to hand them to the window system.
 * A GPU would scan out of or blit from such memory; our "display" is the
 * window system, which takes a copy.
 *
 * Image life: FREE -> (acquire) ACQUIRED -> (present) QUEUED -> (the
 * presenter has shown or dropped it) FREE. Acquire returns only FREE
 * images, so its semaphore and fence are signalled on the host at once:
 * nothing reads the image any more. It blocks (up to its timeout) only
 * while every image is acquired or waits in the presenter, which is
 * exactly the throttling FIFO requires.
 */
#include <errno.h>
#include <time.h>

#include "image.h"
#include "sync.h"
#include "wsi.h"

/* Order of badness: a status only ever gets worse. */
static int
wsi_status_rank(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return 0;
	case VK_SUBOPTIMAL_KHR: return 1;
	case VK_ERROR_OUT_OF_DATE_KHR: return 2;
	case VK_ERROR_SURFACE_LOST_KHR: return 3;
	default: return 4;  /* VK_ERROR_DEVICE_LOST */
	}
}

void
wsi_swapchain_set_status(struct wsi_swapchain *sc, VkResult status)
{
	if (wsi_status_rank(status) > wsi_status_rank(sc->status)) {
		sc->status = status;
		pthread_cond_broadcast(&sc->surface->cond);
	}
}

bool
wsi_cond_wait_until(struct icd_surface *s, uint64_t abs_ns)
{
	struct timespec ts;

	if (abs_ns == UINT64_MAX) {
		pthread_cond_wait(&s->cond, &s->lock);
		return true;
	}
	ts.tv_sec = (time_t)(abs_ns / 1000000000u);
	ts.tv_nsec = (long)(abs_ns % 1000000000u);
	return pthread_cond_timedwait(&s->cond, &s->lock, &ts) != ETIMEDOUT;
}

/* The readback memory type (host visible and cached: the presenter reads
 * every texel on the host), else any host-visible one. */
static int
wsi_memory_type(const struct icd_physical_device *pdev)
{
	const VkMemoryPropertyFlags want =
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
	int fallback = -1;

	for (uint32_t i = 0; i < pdev->memory.memoryTypeCount; i++) {
		VkMemoryPropertyFlags f = pdev->memory.memoryTypes[i].propertyFlags;

		if ((f & want) == want)
			return (int)i;
		if ((f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) && fallback < 0)
			fallback = (int)i;
	}
	return fallback;
}

static void
wsi_image_destroy(struct wsi_swapchain *sc, struct wsi_image *wi)
{
	VkDevice device = icd_device_to_handle(sc->device);

	if (wi->ready)
		swgpu_syncobj_destroy(wi->ready);
	if (wi->pixels)
		icd_UnmapMemory(device, wi->memory);
	icd_DestroyImage(device, wi->image, &sc->alloc);
	icd_FreeMemory(device, wi->memory, &sc->alloc);
	memset(wi, 0, sizeof(*wi));
}

/* The memory of swapchain image wi: the window system's pages when it
 * offers them (image_pages: it then reads the image in place, and show
 * copies nothing), imported as host memory; else (no pages, or the device
 * cannot import them, e.g. in shared mode) an allocation of its own. */
static VkResult
wsi_image_memory(struct wsi_swapchain *sc, struct wsi_image *wi,
                 const VkMemoryRequirements *req, uint32_t type)
{
	struct icd_device *dev = sc->device;
	VkDevice device = icd_device_to_handle(dev);
	const struct wsi_platform_ops *ops = sc->surface->ops;
	const VkDeviceSize size = (req->size + ICD_HOST_POINTER_ALIGNMENT - 1) /
	                          ICD_HOST_POINTER_ALIGNMENT *
	                          ICD_HOST_POINTER_ALIGNMENT;
	void *pages = NULL;

	if (ops->image_pages &&
	    (icd_memory_host_pointer_types(dev->pdev) & (1u << type)))
		pages = ops->image_pages(sc, wi->index, (size_t)size);
	if (pages) {
		const VkImportMemoryHostPointerInfoEXT host = {
			.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
			.handleType =
				VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
			.pHostPointer = pages,
		};

		if (icd_AllocateMemory(device, &(VkMemoryAllocateInfo){
			.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
			.pNext = &host,
			.allocationSize = size,
			.memoryTypeIndex = type,
		}, &sc->alloc, &wi->memory) == VK_SUCCESS) {
			wi->shared = true;
			return VK_SUCCESS;
		}
		ops->image_pages_unused(sc, wi->index);
	}
	return icd_AllocateMemory(device, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req->size,
		.memoryTypeIndex = type,
	}, &sc->alloc, &wi->memory);
}

static VkResult
wsi_image_create(struct wsi_swapchain *sc, const VkSwapchainCreateInfoKHR *ci,
                 struct wsi_image *wi)
{
	struct icd_device *dev = sc->device;
	VkDevice device = icd_device_to_handle(dev);
	const VkImageCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = ci->imageFormat,
		.extent = { ci->imageExtent.width, ci->imageExtent.height, 1 },
		.mipLevels = 1,
		.arrayLayers = ci->imageArrayLayers,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = ci->imageUsage,
		.sharingMode = ci->imageSharingMode,
		.queueFamilyIndexCount = ci->queueFamilyIndexCount,
		.pQueueFamilyIndices = ci->pQueueFamilyIndices,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	int type = wsi_memory_type(dev->pdev);
	VkMemoryRequirements req;
	const struct icd_image *img;
	const struct icd_image_plane *pl;
	void *map;
	VkResult r;
	swgpu_result sr;

	if (type < 0)
		return icd_error(VK_ERROR_INITIALIZATION_FAILED,
		                 "swapchain: no host-visible memory type");
	r = icd_CreateImage(device, &ici, &sc->alloc, &wi->image);
	if (r != VK_SUCCESS) {
		icd_log("vkCreateSwapchainKHR: images of format %d, usage 0x%x "
		        "cannot be created (see vkGetPhysicalDeviceImage"
		        "FormatProperties)", ci->imageFormat, ci->imageUsage);
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	icd_GetImageMemoryRequirements(device, wi->image, &req);
	r = wsi_image_memory(sc, wi, &req, (uint32_t)type);
	if (r != VK_SUCCESS)
		return r;
	r = icd_BindImageMemory(device, wi->image, wi->memory, 0);
	if (r != VK_SUCCESS)
		return r;
	r = icd_MapMemory(device, wi->memory, 0, VK_WHOLE_SIZE, 0, &map);
	if (r != VK_SUCCESS)
		return r;
	img = icd_image_from_handle(wi->image);
	pl = icd_image_plane(img, VK_IMAGE_ASPECT_COLOR_BIT);
	wi->pixels = (const uint8_t *)map +
	             icd_image_subresource_offset(pl, 0, 0);
	wi->row_pitch = pl->mips[0].row_pitch;
	sr = swgpu_syncobj_create(dev->pdev->swdev, SWGPU_SYNCOBJ_BINARY, 0,
	                          &wi->ready);
	if (sr != SWGPU_OK)
		return icd_error(icd_result_from_swgpu(sr),
		                 "swapchain: swgpu_syncobj_create: %s",
		                 swgpu_result_str(sr));
	wi->state = WSI_IMAGE_FREE;
	wi->sc = sc;
	return VK_SUCCESS;
}

/* What the spec lets us refuse with a log line, or what swgpu cannot do:
 * VK_ERROR_INITIALIZATION_FAILED (validation reports the application's
 * mistakes; this keeps them from reaching the presenter). */
static VkResult
wsi_check_create_info(struct icd_device *dev,
                      const VkSwapchainCreateInfoKHR *ci,
                      const VkSurfaceCapabilitiesKHR *caps)
{
	const VkSwapchainPresentModesCreateInfoEXT *modes = icd_find_struct(
		ci->pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODES_CREATE_INFO_EXT);
	const VkSwapchainPresentScalingCreateInfoEXT *scaling =
		icd_find_struct(ci->pNext,
		                VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_SCALING_CREATE_INFO_EXT);
	const VkSwapchainCreateFlagsKHR flags_ok =
		icd_ext_set_has(&dev->enabled_extensions,
		                ICD_DEVICE_EXT_EXT_swapchain_maintenance1)
			? VK_SWAPCHAIN_CREATE_DEFERRED_MEMORY_ALLOCATION_BIT_EXT
			: 0;
	const char *why = NULL;

	if (!wsi_format_supported(ci->imageFormat, ci->imageColorSpace))
		why = "format/colour space";
	else if (!wsi_present_mode_supported(ci->presentMode))
		why = "present mode";
	else if (ci->flags & ~flags_ok)
		why = "flags";
	else if (ci->minImageCount > WSI_MAX_IMAGES)
		why = "minImageCount (more than maxImageCount)";
	else if (ci->imageArrayLayers != 1)
		why = "imageArrayLayers (maxImageArrayLayers is 1)";
	else if (!ci->imageExtent.width || !ci->imageExtent.height ||
	         ci->imageExtent.width > caps->maxImageExtent.width ||
	         ci->imageExtent.height > caps->maxImageExtent.height)
		why = "imageExtent";
	else if (ci->preTransform != VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
		why = "preTransform";
	else if (!(ci->compositeAlpha & caps->supportedCompositeAlpha))
		why = "compositeAlpha";
	else if (scaling && (scaling->scalingBehavior ||
	                     scaling->presentGravityX ||
	                     scaling->presentGravityY))
		why = "present scaling (none is supported)";
	for (uint32_t i = 0; !why && modes && i < modes->presentModeCount; i++)
		if (!wsi_present_mode_supported(modes->pPresentModes[i]))
			why = "VkSwapchainPresentModesCreateInfoEXT mode";
	if (!why)
		return VK_SUCCESS;
	icd_log("vkCreateSwapchainKHR: unsupported %s (format %d, colour space "
	        "%d, mode %d, flags 0x%x, %u images, %ux%u, %u layers)", why,
	        ci->imageFormat, ci->imageColorSpace, ci->presentMode,
	        ci->flags, ci->minImageCount, ci->imageExtent.width,
	        ci->imageExtent.height, ci->imageArrayLayers);
	return VK_ERROR_INITIALIZATION_FAILED;
}

/* The images first: the window system's resources (finish) may be their
 * memory (image_pages). */
static void
wsi_swapchain_free(struct wsi_swapchain *sc)
{
	for (uint32_t i = 0; i < sc->image_count; i++)
		wsi_image_destroy(sc, &sc->images[i]);
	sc->surface->ops->finish(sc);
	icd_free(NULL, &sc->alloc, sc);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_CreateSwapchainKHR(VkDevice device,
                       const VkSwapchainCreateInfoKHR *pCreateInfo,
                       const VkAllocationCallbacks *pAllocator,
                       VkSwapchainKHR *pSwapchain)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_surface *surface =
		icd_surface_from_handle(pCreateInfo->surface);
	struct wsi_swapchain *old =
		wsi_swapchain_from_handle(pCreateInfo->oldSwapchain);
	VkSurfaceCapabilitiesKHR caps;
	struct wsi_swapchain *sc;
	VkResult r;

	*pSwapchain = VK_NULL_HANDLE;
	r = icd_device_check_lost(dev);
	if (r != VK_SUCCESS)
		return r;
	r = wsi_surface_capabilities(dev->pdev, surface, &caps);
	if (r != VK_SUCCESS)
		return r;
	r = wsi_check_create_info(dev, pCreateInfo, &caps);
	if (r != VK_SUCCESS)
		return r;

	sc = icd_zalloc(pAllocator, &dev->alloc, sizeof(*sc), 8,
	                VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!sc)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "swapchain");
	icd_object_init(&sc->base, VK_OBJECT_TYPE_SWAPCHAIN_KHR);
	sc->device = dev;
	sc->surface = surface;
	sc->alloc = pAllocator ? *pAllocator : dev->alloc;
	sc->format = pCreateInfo->imageFormat;
	sc->extent = pCreateInfo->imageExtent;
	sc->composite_alpha = pCreateInfo->compositeAlpha;
	sc->mode = pCreateInfo->presentMode;
	sc->image_count = pCreateInfo->minImageCount > caps.minImageCount
	                  ? pCreateInfo->minImageCount : caps.minImageCount;
	/* The window system first: it may give the images' memory. */
	r = surface->ops->init(sc);
	if (r != VK_SUCCESS) {
		sc->image_count = 0;
		goto fail;
	}
	/* Images are allocated now even with DEFERRED_MEMORY_ALLOCATION: the
	 * flag permits deferring, it does not require it. */
	for (uint32_t i = 0; i < sc->image_count; i++) {
		sc->images[i].index = i;
		r = wsi_image_create(sc, pCreateInfo, &sc->images[i]);
		if (r != VK_SUCCESS) {
			sc->image_count = i + 1;
			goto fail;
		}
	}

	pthread_mutex_lock(&surface->lock);
	if (surface->swapchain && surface->swapchain != old) {
		pthread_mutex_unlock(&surface->lock);
		icd_log("vkCreateSwapchainKHR: the surface already has a "
		        "swapchain that is not oldSwapchain");
		r = VK_ERROR_NATIVE_WINDOW_IN_USE_KHR;
		goto fail;
	}
	surface->swapchain = sc;
	/* The old swapchain's acquired images may still be presented; the
	 * surface's one presenter shows them before this one's. */
	if (old) {
		old->retired = true;
		pthread_cond_broadcast(&surface->cond);
	}
	pthread_mutex_unlock(&surface->lock);
	r = wsi_presenter_join(sc);
	if (r != VK_SUCCESS) {
		pthread_mutex_lock(&surface->lock);
		surface->swapchain = NULL;
		pthread_mutex_unlock(&surface->lock);
		goto fail;
	}
	*pSwapchain = wsi_swapchain_to_handle(sc);
	return VK_SUCCESS;

fail:
	wsi_swapchain_free(sc);
	return r;
}

VKAPI_ATTR void VKAPI_CALL
icd_DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                        const VkAllocationCallbacks *pAllocator)
{
	struct wsi_swapchain *sc = wsi_swapchain_from_handle(swapchain);

	if (!sc)
		return;
	pthread_mutex_lock(&sc->surface->lock);
	if (sc->surface->swapchain == sc)
		sc->surface->swapchain = NULL;
	pthread_mutex_unlock(&sc->surface->lock);
	wsi_presenter_leave(sc);
	wsi_swapchain_free(sc);
}

VkResult
wsi_bind_swapchain_image(struct icd_image *img, VkSwapchainKHR swapchain,
                         uint32_t index)
{
	struct wsi_swapchain *sc = wsi_swapchain_from_handle(swapchain);
	const struct icd_image *si;

	if (!sc || index >= sc->image_count) {
		icd_log("vkBindImageMemory2: swapchain image %u does not "
		        "exist", index);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	si = icd_image_from_handle(sc->images[index].image);
	/* The same create parameters (the spec: those of the swapchain's
	 * images) give the same layout and size. */
	if (img->size > si->size) {
		icd_log("vkBindImageMemory2: the image (%llu bytes) is larger "
		        "than swapchain image %u", (unsigned long long)img->size,
		        index);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	img->mem = si->mem;
	img->mem_offset = si->mem_offset;
	img->va = si->va;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain,
                          uint32_t *pSwapchainImageCount,
                          VkImage *pSwapchainImages)
{
	struct wsi_swapchain *sc = wsi_swapchain_from_handle(swapchain);
	VkImage images[WSI_MAX_IMAGES];

	for (uint32_t i = 0; i < sc->image_count; i++)
		images[i] = sc->images[i].image;
	return icd_fill_array(pSwapchainImages, pSwapchainImageCount, images,
	                      sc->image_count, sizeof(VkImage));
}

/* The window as it is now against the swapchain: a window of another size
 * makes the swapchain out of date, a vanished one lost. */
static void
wsi_check_window(struct wsi_swapchain *sc)
{
	struct wsi_window win;
	VkResult r = sc->surface->ops->query(sc->surface, &win);

	pthread_mutex_lock(&sc->surface->lock);
	if (r != VK_SUCCESS)
		wsi_swapchain_set_status(sc, r);
	else if (win.current_extent.width != UINT32_MAX &&
	         (win.current_extent.width != sc->extent.width ||
	          win.current_extent.height != sc->extent.height))
		wsi_swapchain_set_status(sc, VK_ERROR_OUT_OF_DATE_KHR);
	pthread_mutex_unlock(&sc->surface->lock);
}

/* How often a blocked acquire or present wait looks at the device: a
 * device lost while nothing is queued wakes nobody. */
#define WSI_LOST_POLL_NS (100u * 1000 * 1000)

static VkResult
wsi_acquire(struct icd_device *dev, struct wsi_swapchain *sc,
            uint64_t timeout, VkSemaphore semaphore, VkFence fence,
            uint32_t *index)
{
	uint64_t deadline = swgpu_deadline_from_timeout(timeout);
	VkResult r;
	uint32_t i;

	r = icd_device_check_lost(dev);
	if (r != VK_SUCCESS)
		return r;
	wsi_check_window(sc);

	pthread_mutex_lock(&sc->surface->lock);
	for (;;) {
		if (sc->status < 0) {
			r = sc->status;
			goto out;
		}
		if (sc->retired) {
			r = VK_ERROR_OUT_OF_DATE_KHR;
			goto out;
		}
		for (i = 0; i < sc->image_count; i++)
			if (sc->images[i].state == WSI_IMAGE_FREE)
				break;
		if (i < sc->image_count)
			break;
		if (timeout == 0) {
			r = VK_NOT_READY;
			goto out;
		}
		uint64_t now = swgpu_now_ns();
		if (now >= deadline) {
			r = VK_TIMEOUT;
			goto out;
		}
		if (!wsi_cond_wait_until(sc->surface,
		                         deadline - now > WSI_LOST_POLL_NS
		                         ? now + WSI_LOST_POLL_NS : deadline) &&
		    icd_device_check_lost(dev) != VK_SUCCESS)
			wsi_swapchain_set_status(sc, VK_ERROR_DEVICE_LOST);
	}
	sc->images[i].state = WSI_IMAGE_ACQUIRED;
	*index = i;
	r = sc->status;  /* VK_SUCCESS or VK_SUBOPTIMAL_KHR */
out:
	pthread_mutex_unlock(&sc->surface->lock);
	if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
		return r;
	/* The image is free: nothing will read or write it any more, so
	 * the acquire's semaphore and fence are signalled now. */
	if (semaphore != VK_NULL_HANDLE)
		swgpu_syncobj_signal(icd_semaphore_obj(
			icd_semaphore_from_handle(semaphore)), 0);
	if (fence != VK_NULL_HANDLE)
		swgpu_syncobj_signal(icd_fence_obj(icd_fence_from_handle(
			fence)), 0);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                        uint64_t timeout, VkSemaphore semaphore,
                        VkFence fence, uint32_t *pImageIndex)
{
	return wsi_acquire(icd_device_from_handle(device),
	                   wsi_swapchain_from_handle(swapchain), timeout,
	                   semaphore, fence, pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_AcquireNextImage2KHR(VkDevice device,
                         const VkAcquireNextImageInfoKHR *pAcquireInfo,
                         uint32_t *pImageIndex)
{
	/* deviceMask: one physical device, so 1. */
	return wsi_acquire(icd_device_from_handle(device),
	                   wsi_swapchain_from_handle(pAcquireInfo->swapchain),
	                   pAcquireInfo->timeout, pAcquireInfo->semaphore,
	                   pAcquireInfo->fence, pImageIndex);
}

/* VK_EXT_swapchain_maintenance1: acquired images given back unpresented. */
VKAPI_ATTR VkResult VKAPI_CALL
icd_ReleaseSwapchainImagesEXT(VkDevice device,
                              const VkReleaseSwapchainImagesInfoEXT *pInfo)
{
	struct wsi_swapchain *sc = wsi_swapchain_from_handle(pInfo->swapchain);
	VkResult r = VK_SUCCESS;

	pthread_mutex_lock(&sc->surface->lock);
	for (uint32_t i = 0; i < pInfo->imageIndexCount; i++) {
		uint32_t k = pInfo->pImageIndices[i];

		if (k >= sc->image_count ||
		    sc->images[k].state != WSI_IMAGE_ACQUIRED) {
			icd_log("vkReleaseSwapchainImagesEXT: image %u is not "
			        "acquired", k);
			r = VK_ERROR_UNKNOWN;
			continue;
		}
		sc->images[k].state = WSI_IMAGE_FREE;
	}
	pthread_cond_broadcast(&sc->surface->cond);
	pthread_mutex_unlock(&sc->surface->lock);
	return r;
}

/* VK_KHR_present_wait: until the present with presentId (or a later
 * one) was shown or replaced. */
VKAPI_ATTR VkResult VKAPI_CALL
icd_WaitForPresentKHR(VkDevice device, VkSwapchainKHR swapchain,
                      uint64_t presentId, uint64_t timeout)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct wsi_swapchain *sc = wsi_swapchain_from_handle(swapchain);
	uint64_t deadline = swgpu_deadline_from_timeout(timeout);
	VkResult r = icd_device_check_lost(dev);

	if (r != VK_SUCCESS)
		return r;
	pthread_mutex_lock(&sc->surface->lock);
	while (sc->present_id_done < presentId) {
		uint64_t now = swgpu_now_ns();

		if (sc->status < 0) {
			r = sc->status;
			break;
		}
		if (now >= deadline) {
			r = VK_TIMEOUT;
			break;
		}
		if (!wsi_cond_wait_until(sc->surface,
		                         deadline - now > WSI_LOST_POLL_NS
		                         ? now + WSI_LOST_POLL_NS : deadline) &&
		    icd_device_check_lost(dev) != VK_SUCCESS)
			wsi_swapchain_set_status(sc, VK_ERROR_DEVICE_LOST);
	}
	pthread_mutex_unlock(&sc->surface->lock);
	return r;
}

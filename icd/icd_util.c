/* SPDX-License-Identifier: MIT */
/*
 * icd_util.c — logging, error reporting, swgpu result mapping and host
 * allocation through VkAllocationCallbacks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "icd.h"

void
icd_log(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	/* Formatted first and written with one call, so lines of different
	 * threads do not interleave mid-line. */
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "swgpu: %s\n", line);
}

static bool
icd_debug_enabled(void)
{
	/* Read every time: cheap, and tests may set it at run time. */
	const char *v = getenv("SWGPU_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

VkResult
icd_error_at(VkResult r, const char *file, int line, const char *func,
             const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	if (!icd_debug_enabled())
		return r;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	icd_log("%s:%d %s: error %d: %s", file, line, func, (int)r, msg);
	return r;
}

VkResult
icd_unsupported(const char *command)
{
	icd_log("%s is not supported by this device", command);
	return VK_ERROR_FEATURE_NOT_PRESENT;
}

VkResult
icd_result_from_swgpu(swgpu_result r)
{
	switch (r) {
	case SWGPU_OK:
		return VK_SUCCESS;
	case SWGPU_TIMEOUT:
		return VK_TIMEOUT;
	case SWGPU_NOT_READY:
		return VK_NOT_READY;
	case SWGPU_DISCARDED:
		return VK_SUCCESS;
	case SWGPU_ERR_NO_HOST_MEMORY:
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	case SWGPU_ERR_NO_DEVICE_MEMORY:
	case SWGPU_ERR_NO_VA_SPACE:
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	case SWGPU_ERR_NOT_MAPPABLE:
	case SWGPU_ERR_NOT_MAPPED:
		return VK_ERROR_MEMORY_MAP_FAILED;
	case SWGPU_ERR_CONTEXT_LOST:
		return VK_ERROR_DEVICE_LOST;
	case SWGPU_ERR_UNSUPPORTED:
		return VK_ERROR_FEATURE_NOT_PRESENT;
	case SWGPU_ERR_BAD_HANDLE:
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	case SWGPU_ERR_NOT_PERMITTED:
		/* VK_KHR_global_priority: vkCreateDevice's answer to a
		 * level the caller may not use. */
		return VK_ERROR_NOT_PERMITTED_KHR;
	case SWGPU_ERR_INVALID_ARG:
	case SWGPU_ERR_TIMELINE_REWIND:
	case SWGPU_ERR_NOT_SUBMITTED:
	case SWGPU_ERR_DEVICE_BUSY:
	default:
		/* A valid Vulkan call never reaches these; the ICD passed
		 * something swgpu rejects. */
		return VK_ERROR_UNKNOWN;
	}
}

/* ------------------------------------------------------------------ */
/* Default allocator                                                   */
/* ------------------------------------------------------------------ */

/*
 * realloc must keep the alignment, which plain realloc does not promise for
 * large alignments, so every block carries a small header with its size and
 * the offset back to the malloc'ed start.
 */
struct icd_alloc_header {
	size_t size;
	size_t offset;
};

static void *VKAPI_PTR
icd_default_alloc(void *user, size_t size, size_t align,
                  VkSystemAllocationScope scope)
{
	size_t hdr = sizeof(struct icd_alloc_header);
	uint8_t *raw, *p;

	if (align < _Alignof(max_align_t))
		align = _Alignof(max_align_t);
	if (size > SIZE_MAX - hdr - align)
		return NULL;
	raw = malloc(size + hdr + align);
	if (!raw)
		return NULL;
	p = (uint8_t *)(((uintptr_t)raw + hdr + align - 1) &
	                ~(uintptr_t)(align - 1));
	((struct icd_alloc_header *)p)[-1] =
		(struct icd_alloc_header){ size, (size_t)(p - raw) };
	return p;
}

static void VKAPI_PTR
icd_default_free(void *user, void *p)
{
	if (p)
		free((uint8_t *)p - ((struct icd_alloc_header *)p)[-1].offset);
}

static void *VKAPI_PTR
icd_default_realloc(void *user, void *old, size_t size, size_t align,
                    VkSystemAllocationScope scope)
{
	void *p;
	size_t old_size;

	if (!old)
		return icd_default_alloc(user, size, align, scope);
	if (size == 0) {
		icd_default_free(user, old);
		return NULL;
	}
	p = icd_default_alloc(user, size, align, scope);
	if (!p)
		return NULL;
	old_size = ((struct icd_alloc_header *)old)[-1].size;
	memcpy(p, old, old_size < size ? old_size : size);
	icd_default_free(user, old);
	return p;
}

const VkAllocationCallbacks icd_default_allocator = {
	.pUserData = NULL,
	.pfnAllocation = icd_default_alloc,
	.pfnReallocation = icd_default_realloc,
	.pfnFree = icd_default_free,
};

static const VkAllocationCallbacks *
icd_pick(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent)
{
	if (obj)
		return obj;
	if (parent)
		return parent;
	return &icd_default_allocator;
}

void *
icd_alloc(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
          size_t size, size_t align, VkSystemAllocationScope scope)
{
	const VkAllocationCallbacks *a = icd_pick(obj, parent);

	return a->pfnAllocation(a->pUserData, size, align, scope);
}

void *
icd_zalloc(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
           size_t size, size_t align, VkSystemAllocationScope scope)
{
	void *p = icd_alloc(obj, parent, size, align, scope);

	if (p)
		memset(p, 0, size);
	return p;
}

void
icd_free(const VkAllocationCallbacks *obj, const VkAllocationCallbacks *parent,
         void *p)
{
	const VkAllocationCallbacks *a = icd_pick(obj, parent);

	if (p) {
		/* Its private data must not reach a new object here. */
		icd_private_data_forget(p);
		a->pfnFree(a->pUserData, p);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * physical_device.c — one VkPhysicalDevice per swgpu device: the swgpu
 * device behind it, queue families, memory types and budgets, the
 * extension list and the external/sparse queries, told truthfully.
 * Properties and limits: physical_device_props.c; features:
 * physical_device_features.c.
 *
 * What the device can do: transfers, barriers, events, timestamps, fences
 * and semaphores on every queue, and compute shaders (DISPATCH) on the
 * compute-class family; there is no graphics engine yet.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* Memory types (see icd_physical_device_init_memory). */
enum {
	ICD_MEM_TYPE_VRAM = 0,
	ICD_MEM_TYPE_UPLOAD = 1,
	ICD_MEM_TYPE_READBACK = 2,
	ICD_MEM_TYPE_BAR = 3,
};

static void
icd_physical_device_init_queues(struct icd_physical_device *pdev)
{
	/* Family order as on real GPUs: graphics engines first
	 * (GRAPHICS|COMPUTE|TRANSFER: a GFX ring runs every packet in ring
	 * order), then the async compute engines (COMPUTE|TRANSFER), then
	 * the copy engines (TRANSFER only). A class without engines has no
	 * family. */
	static const swgpu_engine_class order[] = {
		SWGPU_ENGINE_GRAPHICS, SWGPU_ENGINE_COMPUTE, SWGPU_ENGINE_COPY,
	};
	static const VkQueueFlags flags[] = {
		[SWGPU_ENGINE_GRAPHICS] = VK_QUEUE_GRAPHICS_BIT |
		                          VK_QUEUE_COMPUTE_BIT |
		                          VK_QUEUE_TRANSFER_BIT,
		[SWGPU_ENGINE_COMPUTE] = VK_QUEUE_COMPUTE_BIT |
		                         VK_QUEUE_TRANSFER_BIT,
		[SWGPU_ENGINE_COPY] = VK_QUEUE_TRANSFER_BIT,
	};

	pdev->queue_family_count = 0;
	for (uint32_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		uint32_t n = pdev->info.engine_class_count[order[i]];
		struct icd_queue_family *f;

		if (!n)
			continue;
		if (n > ICD_MAX_QUEUES_PER_FAMILY)
			n = ICD_MAX_QUEUES_PER_FAMILY;
		f = &pdev->queue_families[pdev->queue_family_count++];
		f->flags = flags[order[i]];
		f->queue_count = n;
		f->engine_class = order[i];
	}
}

/*
 * Heaps: 0 VRAM outside the BAR window, 1 SYSTEM, 2 the BAR window.
 * Types, in the order the spec asks for (a type whose flags are a subset of
 * another's comes first): 0 DEVICE_LOCAL, 1 upload (HOST_VISIBLE|COHERENT,
 * uncached system memory), 2 readback (+HOST_CACHED), 3 DEVICE_LOCAL|
 * HOST_VISIBLE|HOST_COHERENT (VRAM BOs in the BAR window).
 */
static void
icd_physical_device_init_memory(struct icd_physical_device *pdev)
{
	VkPhysicalDeviceMemoryProperties *m = &pdev->memory;
	const swgpu_device_info *info = &pdev->info;
	uint64_t vram = info->heap_size[SWGPU_HEAP_VRAM];
	uint64_t bar = info->bar_size < vram ? info->bar_size : vram;

	memset(m, 0, sizeof(*m));
	m->memoryHeapCount = 2;
	m->memoryHeaps[0] = (VkMemoryHeap){ vram - bar,
	                                    VK_MEMORY_HEAP_DEVICE_LOCAL_BIT };
	m->memoryHeaps[1] = (VkMemoryHeap){ info->heap_size[SWGPU_HEAP_SYSTEM],
	                                    0 };
	m->memoryTypeCount = 3;
	m->memoryTypes[ICD_MEM_TYPE_VRAM] = (VkMemoryType){
		VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0 };
	m->memoryTypes[ICD_MEM_TYPE_UPLOAD] = (VkMemoryType){
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1 };
	m->memoryTypes[ICD_MEM_TYPE_READBACK] = (VkMemoryType){
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
		VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1 };
	pdev->type_heap[ICD_MEM_TYPE_VRAM] = SWGPU_HEAP_VRAM;
	pdev->type_bo_flags[ICD_MEM_TYPE_VRAM] = 0;
	pdev->type_heap[ICD_MEM_TYPE_UPLOAD] = SWGPU_HEAP_SYSTEM;
	pdev->type_bo_flags[ICD_MEM_TYPE_UPLOAD] = 0;
	pdev->type_heap[ICD_MEM_TYPE_READBACK] = SWGPU_HEAP_SYSTEM;
	pdev->type_bo_flags[ICD_MEM_TYPE_READBACK] = SWGPU_BO_CACHED;
	if (bar) {
		m->memoryHeapCount = 3;
		m->memoryHeaps[2] = (VkMemoryHeap){
			bar, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT };
		m->memoryTypeCount = 4;
		m->memoryTypes[ICD_MEM_TYPE_BAR] = (VkMemoryType){
			VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
			VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
			VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 2 };
		pdev->type_heap[ICD_MEM_TYPE_BAR] = SWGPU_HEAP_VRAM;
		pdev->type_bo_flags[ICD_MEM_TYPE_BAR] = SWGPU_BO_BAR;
	}
}

/*
 * The software GPUs of the process: physical device i of every VkInstance
 * is the same swgpu device (opened by the first instance, closed with the
 * last), as a real GPU is one whatever instance looks at it — so memory
 * one instance allocates shows in the budget another reads, and
 * deviceUUID is the same. Configuration (SWGPU_*) is read when it opens.
 */
static pthread_mutex_t icd_gpus_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	swgpu_device *dev;
	uint32_t refs;
} icd_gpus[ICD_MAX_PHYSICAL_DEVICES];

static swgpu_result
icd_gpu_get(uint32_t index, swgpu_device **out)
{
	swgpu_result sr = SWGPU_OK;

	pthread_mutex_lock(&icd_gpus_lock);
	if (!icd_gpus[index].dev) {
		swgpu_config cfg;
		swgpu_config_init(&cfg);
		sr = swgpu_device_open(&cfg, &icd_gpus[index].dev);
		if (sr != SWGPU_OK)
			icd_gpus[index].dev = NULL;
	}
	if (sr == SWGPU_OK) {
		icd_gpus[index].refs++;
		*out = icd_gpus[index].dev;
	}
	pthread_mutex_unlock(&icd_gpus_lock);
	return sr;
}

static void
icd_gpu_put(swgpu_device *dev)
{
	pthread_mutex_lock(&icd_gpus_lock);
	for (uint32_t i = 0; i < ICD_MAX_PHYSICAL_DEVICES; i++) {
		if (icd_gpus[i].dev != dev)
			continue;
		if (--icd_gpus[i].refs == 0) {
			swgpu_device_close(dev);
			icd_gpus[i].dev = NULL;
		}
		break;
	}
	pthread_mutex_unlock(&icd_gpus_lock);
}

VkResult
icd_physical_device_init(struct icd_physical_device *pdev,
                         struct icd_instance *inst, uint32_t index)
{
	swgpu_result sr;

	memset(pdev, 0, sizeof(*pdev));
	icd_object_init(&pdev->base, VK_OBJECT_TYPE_PHYSICAL_DEVICE);
	pdev->instance = inst;
	sr = icd_gpu_get(index, &pdev->swdev);
	if (sr != SWGPU_OK) {
		icd_log("cannot open swgpu device: %s", swgpu_result_str(sr));
		pdev->swdev = NULL;
		return sr == SWGPU_ERR_NO_HOST_MEMORY ?
		       VK_ERROR_OUT_OF_HOST_MEMORY :
		       VK_ERROR_INITIALIZATION_FAILED;
	}
	swgpu_device_query_info(pdev->swdev, &pdev->info);
	icd_physical_device_init_queues(pdev);
	icd_physical_device_init_memory(pdev);
	icd_physical_device_init_properties(pdev);
	icd_physical_device_init_features(pdev);
	/* Graphics limits and features (physical_device_gfx.c). */
	icd_physical_device_init_gfx(pdev);
	/* The extension list follows the features just stated. */
	icd_device_extensions_supported(icd_physical_device_to_handle(pdev),
	                                &pdev->supported_extensions);
	return VK_SUCCESS;
}

void
icd_physical_device_finish(struct icd_physical_device *pdev)
{
	if (pdev->swdev)
		icd_gpu_put(pdev->swdev);
	pdev->swdev = NULL;
}

/* ------------------------------------------------------------------ */
/* Queries                                                             */
/* ------------------------------------------------------------------ */

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceQueueFamilyProperties(
	VkPhysicalDevice physicalDevice, uint32_t *pCount,
	VkQueueFamilyProperties *pProps)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	VkQueueFamilyProperties props[ICD_MAX_QUEUE_FAMILIES];

	for (uint32_t i = 0; i < pdev->queue_family_count; i++) {
		props[i] = (VkQueueFamilyProperties){
			.queueFlags = pdev->queue_families[i].flags,
			.queueCount = pdev->queue_families[i].queue_count,
			.timestampValidBits = pdev->info.timestamp_valid_bits,
			.minImageTransferGranularity = { 1, 1, 1 },
		};
	}
	(void)icd_fill_array(pProps, pCount, props, pdev->queue_family_count,
	                     sizeof(props[0]));
}

/* VK_KHR/EXT_global_priority(_query): every family offers every level
 * (the scheduler weights them, see swgpu sched.c). */
static void
icd_queue_family_global_priorities(void *chain)
{
	for (VkBaseOutStructure *s = chain; s; s = s->pNext) {
		if (s->sType !=
		    VK_STRUCTURE_TYPE_QUEUE_FAMILY_GLOBAL_PRIORITY_PROPERTIES_KHR)
			continue;
		VkQueueFamilyGlobalPriorityPropertiesKHR *gp = (void *)s;
		static const VkQueueGlobalPriorityKHR levels[] = {
			VK_QUEUE_GLOBAL_PRIORITY_LOW_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_MEDIUM_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_HIGH_KHR,
			VK_QUEUE_GLOBAL_PRIORITY_REALTIME_KHR,
		};
		gp->priorityCount = sizeof(levels) / sizeof(levels[0]);
		memset(gp->priorities, 0, sizeof(gp->priorities));
		memcpy(gp->priorities, levels, sizeof(levels));
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceQueueFamilyProperties2(
	VkPhysicalDevice physicalDevice, uint32_t *pCount,
	VkQueueFamilyProperties2 *pProps)
{
	struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	VkQueueFamilyProperties props[ICD_MAX_QUEUE_FAMILIES];
	uint32_t n = ICD_MAX_QUEUE_FAMILIES;

	icd_GetPhysicalDeviceQueueFamilyProperties(physicalDevice, &n, props);
	if (!pProps) {
		*pCount = n;
		return;
	}
	if (*pCount > pdev->queue_family_count)
		*pCount = pdev->queue_family_count;
	for (uint32_t i = 0; i < *pCount; i++) {
		pProps[i].queueFamilyProperties = props[i];
		icd_queue_family_global_priorities(pProps[i].pNext);
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties *pMemoryProperties)
{
	*pMemoryProperties = icd_physical_device_from_handle(physicalDevice)
		->memory;
}

#define ICD_STYPE_MEMORY_BUDGET \
	VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT

static uint64_t
icd_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t
icd_sat_sub_u64(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * VK_EXT_memory_budget: the swgpu VRAM budget is shared by heap 0 (VRAM
 * outside the BAR window) and heap 2 (the window), so each heap's budget
 * is what is left of it after the other heap's usage, capped at the heap
 * size: an allocation within a heap's budget fits. Usage is the process's
 * (every VkDevice and the driver's own command memory on this swgpu
 * device), page rounded. In shared mode swgpud answers for this process
 * alone: its usage, and as budget its usage plus what the machine's
 * other processes leave free of the heap. Heap 2 is also bounded by the
 * BAR window: its budget is at most this process's BAR usage plus what
 * every process leaves free of the window (swgpu_bar_budget).
 */
static void
icd_memory_budget(const struct icd_physical_device *pdev,
                  VkPhysicalDeviceMemoryBudgetPropertiesEXT *b)
{
	const VkPhysicalDeviceMemoryProperties *m = &pdev->memory;
	uint64_t vram_used, vram_budget, sys_used, sys_budget, bar_used;
	uint64_t heap0_used, bar_budget;

	memset(b->heapBudget, 0, sizeof(b->heapBudget));
	memset(b->heapUsage, 0, sizeof(b->heapUsage));
	if (swgpu_heap_budget(pdev->swdev, SWGPU_HEAP_VRAM, &vram_used,
	                      &vram_budget) != SWGPU_OK ||
	    swgpu_heap_budget(pdev->swdev, SWGPU_HEAP_SYSTEM, &sys_used,
	                      &sys_budget) != SWGPU_OK) {
		icd_log("memory budget: swgpu_heap_budget failed");
		return;
	}
	if (swgpu_bar_budget(pdev->swdev, &bar_used, &bar_budget) !=
	    SWGPU_OK) {
		icd_log("memory budget: swgpu_bar_budget failed");
		return;
	}
	/* Separate reads: clamp so a racing allocation cannot wrap a
	 * figure. */
	if (bar_used > vram_used)
		bar_used = vram_used;
	heap0_used = vram_used - bar_used;
	b->heapUsage[0] = heap0_used;
	b->heapBudget[0] = icd_min_u64(m->memoryHeaps[0].size,
	                               icd_sat_sub_u64(vram_budget, bar_used));
	b->heapUsage[1] = sys_used;
	b->heapBudget[1] = icd_min_u64(m->memoryHeaps[1].size, sys_budget);
	if (m->memoryHeapCount > 2) {
		b->heapUsage[2] = bar_used;
		b->heapBudget[2] = icd_min_u64(
			icd_min_u64(m->memoryHeaps[2].size, bar_budget),
			icd_sat_sub_u64(vram_budget, heap0_used));
	}
	/* The spec wants a non-zero budget for every heap; 0 happens only
	 * when the other VRAM heap holds the whole budget. One page is an
	 * honest "next to nothing" (allocations will fail until the other
	 * heap shrinks). */
	for (uint32_t i = 0; i < m->memoryHeapCount; i++)
		if (!b->heapBudget[i])
			b->heapBudget[i] = icd_min_u64(pdev->info.page_size,
			                               m->memoryHeaps[i].size);
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceMemoryProperties2(
	VkPhysicalDevice physicalDevice,
	VkPhysicalDeviceMemoryProperties2 *pMemoryProperties)
{
	const struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);

	pMemoryProperties->memoryProperties = pdev->memory;
	for (VkBaseOutStructure *s = pMemoryProperties->pNext; s;
	     s = s->pNext) {
		if (s->sType == ICD_STYPE_MEMORY_BUDGET)
			icd_memory_budget(pdev, (void *)s);
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                       const char *pLayerName,
                                       uint32_t *pPropertyCount,
                                       VkExtensionProperties *pProperties)
{
	const struct icd_physical_device *pdev =
		icd_physical_device_from_handle(physicalDevice);
	VkExtensionProperties list[ICD_DEVICE_EXT_COUNT];
	uint32_t n = 0;

	if (pLayerName)
		return icd_error(VK_ERROR_LAYER_NOT_PRESENT, "layer %s",
		                 pLayerName);
	for (uint32_t i = 0; i < ICD_DEVICE_EXT_COUNT; i++)
		if (icd_ext_set_has(&pdev->supported_extensions, i))
			list[n++] = icd_device_extensions[i];
	return icd_fill_array(pProperties, pPropertyCount, list, n,
	                      sizeof(VkExtensionProperties));
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_EnumerateDeviceLayerProperties(VkPhysicalDevice physicalDevice,
                                   uint32_t *pPropertyCount,
                                   VkLayerProperties *pProperties)
{
	*pPropertyCount = 0;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice,
                                    uint32_t *pToolCount,
                                    VkPhysicalDeviceToolProperties *pTools)
{
	*pToolCount = 0;
	return VK_SUCCESS;
}

/* External memory: host allocations can be imported into buffers
 * (VK_EXT_external_memory_host); opaque fds export and import memory,
 * semaphores and fences (memory_fd.c, sync_fd.c). In-process mode: memory
 * and timeline fds work in other processes too, binary semaphore and
 * fence fds only in this one (docs/ARCHITECTURE.md, "External memory and
 * sync"). */
static const VkExternalMemoryProperties icd_opaque_fd_memory = {
	.externalMemoryFeatures = VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT |
	                          VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT,
	.exportFromImportedHandleTypes = ICD_MEMORY_FD_HANDLE_TYPES,
	.compatibleHandleTypes = ICD_MEMORY_FD_HANDLE_TYPES,
};

void
icd_external_memory_opaque_fd(VkExternalMemoryProperties *p)
{
	*p = icd_opaque_fd_memory;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalBufferProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalBufferInfo *pInfo,
	VkExternalBufferProperties *pProps)
{
	VkExternalMemoryProperties *p = &pProps->externalMemoryProperties;

	memset(p, 0, sizeof(*p));
	if (pInfo->handleType & ICD_HOST_POINTER_HANDLE_TYPES) {
		p->externalMemoryFeatures =
			VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
		p->compatibleHandleTypes = pInfo->handleType;
	} else if (pInfo->handleType == ICD_MEMORY_FD_HANDLE_TYPES &&
	           !(pInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT |
	                             VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
	                             VK_BUFFER_CREATE_SPARSE_ALIASED_BIT))) {
		*p = icd_opaque_fd_memory;
	}
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalFenceProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalFenceInfo *pInfo,
	VkExternalFenceProperties *pProps)
{
	bool fd = pInfo->handleType == ICD_FENCE_FD_HANDLE_TYPES;

	pProps->exportFromImportedHandleTypes =
		fd ? ICD_FENCE_FD_HANDLE_TYPES : 0;
	pProps->compatibleHandleTypes = fd ? ICD_FENCE_FD_HANDLE_TYPES : 0;
	pProps->externalFenceFeatures =
		fd ? VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT |
		     VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT : 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceExternalSemaphoreProperties(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceExternalSemaphoreInfo *pInfo,
	VkExternalSemaphoreProperties *pProps)
{
	bool fd = pInfo->handleType == ICD_SEMAPHORE_FD_HANDLE_TYPES;

	/* Binary and timeline semaphores alike. */
	pProps->exportFromImportedHandleTypes =
		fd ? ICD_SEMAPHORE_FD_HANDLE_TYPES : 0;
	pProps->compatibleHandleTypes =
		fd ? ICD_SEMAPHORE_FD_HANDLE_TYPES : 0;
	pProps->externalSemaphoreFeatures =
		fd ? VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
		     VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT : 0;
}

/* No sparse resources. */
VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceSparseImageFormatProperties(
	VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
	VkSampleCountFlagBits samples, VkImageUsageFlags usage,
	VkImageTiling tiling, uint32_t *pPropertyCount,
	VkSparseImageFormatProperties *pProperties)
{
	*pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL
icd_GetPhysicalDeviceSparseImageFormatProperties2(
	VkPhysicalDevice physicalDevice,
	const VkPhysicalDeviceSparseImageFormatInfo2 *pFormatInfo,
	uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *pProperties)
{
	*pPropertyCount = 0;
}

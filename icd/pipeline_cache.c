/* SPDX-License-Identifier: MIT */
/*
 * pipeline_cache.c — VkPipelineCache objects and their serialized form.
 *
 * Layout of vkGetPipelineCacheData's blob (little endian):
 *
 *   0   VkPipelineCacheHeaderVersionOne: headerSize (32), headerVersion
 *       (VK_PIPELINE_CACHE_HEADER_VERSION_ONE), vendorID, deviceID,
 *       pipelineCacheUUID[16] — exactly the physical device's properties
 *   32  uint32 magic "SWPC", uint32 key count n
 *   40  n uint64 keys, ascending
 *   40+8n  uint64 FNV-1a checksum of bytes 32 .. 40+8n
 *
 * Initial data that does not match in every field (another driver,
 * device or build, a truncated or corrupted blob) is ignored: the cache
 * starts empty, as the spec allows ("the implementation will ignore the
 * data"), with a debug log line saying why.
 */
#include <stdlib.h>

#include "pipeline.h"
#include "pipeline_cache.h"

#define CACHE_HEADER_SIZE 32u
#define CACHE_MAGIC 0x43505753u /* "SWPC" */
#define CACHE_BODY_FIXED 8u     /* magic + count */
#define CACHE_CHECKSUM_SIZE 8u

static size_t
blob_size(uint32_t n)
{
	return CACHE_HEADER_SIZE + CACHE_BODY_FIXED + (size_t)n * 8 +
	       CACHE_CHECKSUM_SIZE;
}

static void
header_fill(const struct icd_physical_device *pdev, uint8_t *p)
{
	VkPipelineCacheHeaderVersionOne h = {
		.headerSize = CACHE_HEADER_SIZE,
		.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE,
		.vendorID = pdev->properties.vendorID,
		.deviceID = pdev->properties.deviceID,
	};

	memcpy(h.pipelineCacheUUID, pdev->properties.pipelineCacheUUID,
	       VK_UUID_SIZE);
	/* The struct has no padding: 4 x uint32 + 16 bytes. */
	memcpy(p, &h, CACHE_HEADER_SIZE);
}

static bool
keys_reserve(struct icd_pipeline_cache *c, uint32_t n)
{
	uint32_t cap = c->key_capacity ? c->key_capacity : 16;
	uint64_t *keys;

	if (n <= c->key_capacity)
		return true;
	while (cap < n)
		cap *= 2;
	keys = icd_alloc(NULL, &c->device->alloc, (size_t)cap * 8, 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!keys)
		return false;
	if (c->key_count)
		memcpy(keys, c->keys, (size_t)c->key_count * 8);
	icd_free(NULL, &c->device->alloc, c->keys);
	c->keys = keys;
	c->key_capacity = cap;
	return true;
}

/* Index of the first key >= key. */
static uint32_t
keys_find(const struct icd_pipeline_cache *c, uint64_t key)
{
	uint32_t lo = 0, hi = c->key_count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Caller holds the lock. */
static void
keys_insert_locked(struct icd_pipeline_cache *c, uint64_t key)
{
	uint32_t i = keys_find(c, key);

	if (i < c->key_count && c->keys[i] == key)
		return;
	if (!keys_reserve(c, c->key_count + 1)) {
		icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline cache entry");
		return;
	}
	memmove(c->keys + i + 1, c->keys + i,
	        (size_t)(c->key_count - i) * 8);
	c->keys[i] = key;
	c->key_count++;
}

void
icd_pipeline_cache_insert(struct icd_pipeline_cache *c, uint64_t key)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	keys_insert_locked(c, key);
	pthread_mutex_unlock(&c->lock);
}

/* Why initial data is ignored, or NULL if it is ours and intact. */
static const char *
blob_check(const struct icd_physical_device *pdev, const uint8_t *p,
           size_t size, uint32_t *count)
{
	uint8_t want[CACHE_HEADER_SIZE];
	uint32_t magic, n;
	uint64_t sum;

	if (size < CACHE_HEADER_SIZE)
		return "shorter than the header";
	header_fill(pdev, want);
	/* headerSize, headerVersion, vendorID, deviceID, UUID in turn. */
	if (memcmp(p, want, 4) != 0)
		return "header size";
	if (memcmp(p + 4, want + 4, 4) != 0)
		return "header version";
	if (memcmp(p + 8, want + 8, 8) != 0)
		return "vendor or device id";
	if (memcmp(p + 16, want + 16, VK_UUID_SIZE) != 0)
		return "pipelineCacheUUID (another driver build)";
	if (size < blob_size(0))
		return "truncated body";
	memcpy(&magic, p + CACHE_HEADER_SIZE, 4);
	memcpy(&n, p + CACHE_HEADER_SIZE + 4, 4);
	if (magic != CACHE_MAGIC)
		return "body magic";
	if (n > (size - blob_size(0)) / 8 || size < blob_size(n))
		return "key count larger than the data";
	memcpy(&sum, p + blob_size(n) - CACHE_CHECKSUM_SIZE, 8);
	if (sum != icd_hash64(p + CACHE_HEADER_SIZE,
	                      CACHE_BODY_FIXED + (size_t)n * 8, 0))
		return "checksum";
	*count = n;
	return NULL;
}

VkResult
icd_CreatePipelineCache(VkDevice device,
                        const VkPipelineCacheCreateInfo *ci,
                        const VkAllocationCallbacks *pAllocator,
                        VkPipelineCache *pPipelineCache)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *c;
	const uint8_t *data = ci->pInitialData;
	uint32_t n = 0;

	c = icd_zalloc(pAllocator, &dev->alloc, sizeof(*c), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!c)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline cache");
	icd_object_init(&c->base, VK_OBJECT_TYPE_PIPELINE_CACHE);
	c->device = dev;
	pthread_mutex_init(&c->lock, NULL);
	if (ci->initialDataSize) {
		const char *why = blob_check(dev->pdev, data,
		                             ci->initialDataSize, &n);

		if (why) {
			icd_error(VK_SUCCESS, "pipeline cache data of %zu "
			          "bytes ignored: %s", ci->initialDataSize,
			          why);
			n = 0;
		}
	}
	if (n && keys_reserve(c, n)) {
		const uint8_t *k = data + CACHE_HEADER_SIZE + CACHE_BODY_FIXED;

		/* Insert one by one: sorted and unique even if the blob
		 * was not (it passed the checksum, not our invariants). */
		for (uint32_t i = 0; i < n; i++) {
			uint64_t key;

			memcpy(&key, k + (size_t)i * 8, 8);
			keys_insert_locked(c, key);
		}
	}
	*pPipelineCache = icd_pipeline_cache_to_handle(c);
	return VK_SUCCESS;
}

void
icd_DestroyPipelineCache(VkDevice device, VkPipelineCache pipelineCache,
                         const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *c =
		icd_pipeline_cache_from_handle(pipelineCache);

	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	icd_free(NULL, &dev->alloc, c->keys);
	icd_free(pAllocator, &dev->alloc, c);
}

/*
 * The two-call idiom. A pDataSize too small for everything gets a valid
 * blob with as many keys as fit and VK_INCOMPLETE; too small even for an
 * empty blob gets nothing and *pDataSize = 0 (the spec's rule for a size
 * below the header).
 */
VkResult
icd_GetPipelineCacheData(VkDevice device, VkPipelineCache pipelineCache,
                         size_t *pDataSize, void *pData)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *c =
		icd_pipeline_cache_from_handle(pipelineCache);
	VkResult r = VK_SUCCESS;
	uint8_t *p = pData;
	uint32_t n, magic = CACHE_MAGIC;
	uint64_t sum;

	pthread_mutex_lock(&c->lock);
	n = c->key_count;
	if (!pData) {
		*pDataSize = blob_size(n);
		goto out;
	}
	if (*pDataSize < blob_size(n)) {
		r = VK_INCOMPLETE;
		if (*pDataSize < blob_size(0)) {
			*pDataSize = 0;
			goto out;
		}
		n = (uint32_t)((*pDataSize - blob_size(0)) / 8);
	}
	header_fill(dev->pdev, p);
	memcpy(p + CACHE_HEADER_SIZE, &magic, 4);
	memcpy(p + CACHE_HEADER_SIZE + 4, &n, 4);
	if (n)
		memcpy(p + CACHE_HEADER_SIZE + CACHE_BODY_FIXED, c->keys,
		       (size_t)n * 8);
	sum = icd_hash64(p + CACHE_HEADER_SIZE,
	                 CACHE_BODY_FIXED + (size_t)n * 8, 0);
	memcpy(p + blob_size(n) - CACHE_CHECKSUM_SIZE, &sum, 8);
	*pDataSize = blob_size(n);
out:
	pthread_mutex_unlock(&c->lock);
	return r;
}

VkResult
icd_MergePipelineCaches(VkDevice device, VkPipelineCache dstCache,
                        uint32_t srcCacheCount,
                        const VkPipelineCache *pSrcCaches)
{
	struct icd_pipeline_cache *dst =
		icd_pipeline_cache_from_handle(dstCache);

	/* Two threads may merge A into B and B into A at once: copy each
	 * source's keys out under its lock, then insert under dst's, so no
	 * thread ever holds two cache locks. */
	for (uint32_t i = 0; i < srcCacheCount; i++) {
		struct icd_pipeline_cache *src =
			icd_pipeline_cache_from_handle(pSrcCaches[i]);
		uint64_t *keys = NULL;
		uint32_t n;

		pthread_mutex_lock(&src->lock);
		n = src->key_count;
		if (n) {
			keys = icd_alloc(NULL, &dst->device->alloc,
			                 (size_t)n * 8, 8,
			                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
			if (keys)
				memcpy(keys, src->keys, (size_t)n * 8);
		}
		pthread_mutex_unlock(&src->lock);
		if (n && !keys)
			return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                 "merging pipeline caches");
		pthread_mutex_lock(&dst->lock);
		for (uint32_t k = 0; k < n; k++)
			keys_insert_locked(dst, keys[k]);
		pthread_mutex_unlock(&dst->lock);
		icd_free(NULL, &dst->device->alloc, keys);
	}
	return VK_SUCCESS;
}

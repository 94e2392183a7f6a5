/* SPDX-License-Identifier: MIT */
/*
 * pipeline_cache.c — VkPipelineCache objects and their serialized form.
 *
 * Layout of vkGetPipelineCacheData's blob (little endian):
 *
 *   0   VkPipelineCacheHeaderVersionOne: headerSize (32), headerVersion
 *       (VK_PIPELINE_CACHE_HEADER_VERSION_ONE), vendorID, deviceID,
 *       pipelineCacheUUID[16] — exactly the physical device's properties
 *       (the UUID hashes the compiler version, LLVM's version, the CPU
 *       and the driver build: swgpu_shader_cache_uuid)
 *   32  uint32 magic "SWPC", uint32 format version (2), uint32 key
 *       count n, uint32 binary count m
 *   48  n uint64 pipeline keys, ascending
 *       m binaries: uint8 key[16], uint64 size s, s bytes (swgpu's blob:
 *       its own header with key, size and checksum), zeros to a
 *       multiple of 8
 *   end uint64 FNV-1a checksum of bytes 32 .. end
 *
 * Initial data that does not match in every field (another driver,
 * device or build, a truncated or corrupted blob) is ignored: the cache
 * starts empty, as the spec allows ("the implementation will ignore the
 * data"), with a log line saying why. A binary that passes these checks
 * is still checked again by swgpu before it is loaded (key, size, its
 * own checksum, and LLVM loading it); a failure there compiles the
 * shader as if the cache had nothing.
 */
#include <stdlib.h>

#include "pipeline.h"
#include "pipeline_cache.h"

#define CACHE_HEADER_SIZE 32u
#define CACHE_MAGIC 0x43505753u /* "SWPC" */
#define CACHE_FORMAT 2u
#define CACHE_BODY_FIXED 16u    /* magic, format, key and binary counts */
#define CACHE_CHECKSUM_SIZE 8u
#define BIN_FIXED 24u           /* key + size */

static size_t
pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t
blob_size(uint32_t n, size_t bins_bytes)
{
	return CACHE_HEADER_SIZE + CACHE_BODY_FIXED + (size_t)n * 8 +
	       bins_bytes + CACHE_CHECKSUM_SIZE;
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

/* Why initial data is ignored, or NULL if it is ours and intact: then
 * *count keys, *nbins binaries starting at *bins. */
static const char *
blob_check(const struct icd_physical_device *pdev, const uint8_t *p,
           size_t size, uint32_t *count, uint32_t *nbins,
           const uint8_t **bins)
{
	uint8_t want[CACHE_HEADER_SIZE];
	uint32_t magic, format, n, m;
	uint64_t sum;
	size_t off;

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
		return "pipelineCacheUUID (another driver build or compiler)";
	if (size < blob_size(0, 0))
		return "truncated body";
	memcpy(&magic, p + CACHE_HEADER_SIZE, 4);
	memcpy(&format, p + CACHE_HEADER_SIZE + 4, 4);
	memcpy(&n, p + CACHE_HEADER_SIZE + 8, 4);
	memcpy(&m, p + CACHE_HEADER_SIZE + 12, 4);
	if (magic != CACHE_MAGIC || format != CACHE_FORMAT)
		return "body magic or format";
	if (n > (size - blob_size(0, 0)) / 8)
		return "key count larger than the data";
	off = CACHE_HEADER_SIZE + CACHE_BODY_FIXED + (size_t)n * 8;
	*bins = p + off;
	for (uint32_t i = 0; i < m; i++) {
		uint64_t bs;

		if (size - CACHE_CHECKSUM_SIZE - off < BIN_FIXED)
			return "binary count larger than the data";
		memcpy(&bs, p + off + 16, 8);
		if (bs > size - CACHE_CHECKSUM_SIZE - off - BIN_FIXED ||
		    pad8(bs) > size - CACHE_CHECKSUM_SIZE - off - BIN_FIXED)
			return "binary larger than the data";
		off += BIN_FIXED + pad8(bs);
	}
	if (off + CACHE_CHECKSUM_SIZE != size)
		return "size";
	memcpy(&sum, p + off, 8);
	if (sum != icd_hash64(p + CACHE_HEADER_SIZE, off - CACHE_HEADER_SIZE,
	                      0))
		return "checksum";
	*count = n;
	*nbins = m;
	return NULL;
}

/* ---- native code ---- */

/* Caller holds the lock. */
static struct icd_pipeline_binary *
bin_find_locked(struct icd_pipeline_cache *c, const uint8_t *key)
{
	for (uint32_t i = 0; i < c->bin_count; i++)
		if (!memcmp(c->bins[i].key, key, SWGPU_SHADER_BINARY_KEY_SIZE))
			return &c->bins[i];
	return NULL;
}

/* Caller holds the lock: a new entry for key (blob NULL), or the one
 * there; NULL when out of memory. */
static struct icd_pipeline_binary *
bin_add_locked(struct icd_pipeline_cache *c, const uint8_t *key)
{
	struct icd_pipeline_binary *b = bin_find_locked(c, key);

	if (b)
		return b;
	if (c->bin_count == c->bin_capacity) {
		uint32_t cap = c->bin_capacity ? c->bin_capacity * 2 : 8;
		struct icd_pipeline_binary *n = icd_alloc(
			NULL, &c->device->alloc, (size_t)cap * sizeof(*n), 8,
			VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);

		if (!n)
			return NULL;
		if (c->bin_count)
			memcpy(n, c->bins, (size_t)c->bin_count * sizeof(*n));
		icd_free(NULL, &c->device->alloc, c->bins);
		c->bins = n;
		c->bin_capacity = cap;
	}
	b = &c->bins[c->bin_count++];
	memset(b, 0, sizeof(*b));
	memcpy(b->key, key, SWGPU_SHADER_BINARY_KEY_SIZE);
	return b;
}

/* Caller holds the lock: b holds a copy of size bytes at data. */
static bool
bin_set_locked(struct icd_pipeline_cache *c, struct icd_pipeline_binary *b,
               const void *data, size_t size)
{
	void *copy = icd_alloc(NULL, &c->device->alloc, size ? size : 1, 8,
	                       VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);

	if (!copy)
		return false;
	memcpy(copy, data, size);
	b->blob = copy;
	b->size = size;
	return true;
}

/* swgpu_shader_info.binary_lookup: the blob for key, valid while the
 * cache lives (blobs are never replaced or freed before). */
static const void *
cache_lookup(void *user, const uint8_t key[16], size_t *size)
{
	struct icd_pipeline_cache *c = user;
	struct icd_pipeline_binary *b;
	const void *blob = NULL;

	pthread_mutex_lock(&c->lock);
	b = bin_find_locked(c, key);
	if (b && b->blob) {
		blob = b->blob;
		*size = b->size;
	}
	pthread_mutex_unlock(&c->lock);
	return blob;
}

void
icd_pipeline_cache_attach(struct icd_pipeline_cache *c,
                          swgpu_shader_info *info)
{
	info->binary_lookup = c ? cache_lookup : NULL;
	info->binary_user = c;
}

void
icd_pipeline_cache_add_shader(struct icd_pipeline_cache *c,
                              const swgpu_shader *shader)
{
	uint8_t key[SWGPU_SHADER_BINARY_KEY_SIZE];

	if (!c || !swgpu_shader_binary_key(shader, key))
		return;
	pthread_mutex_lock(&c->lock);
	if (!bin_add_locked(c, key))
		icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline cache code");
	pthread_mutex_unlock(&c->lock);
}

/* Caller holds the lock: fetch the code of entries that have none yet
 * from swgpu (waiting for their compiles); entries swgpu has no code
 * for (compile failed, shader destroyed before its compile ran) go. */
static void
bins_resolve_locked(struct icd_pipeline_cache *c)
{
	uint32_t out = 0;

	for (uint32_t i = 0; i < c->bin_count; i++) {
		struct icd_pipeline_binary *b = &c->bins[i];

		if (!b->blob) {
			size_t size = 0;
			void *blob = swgpu_shader_binary_get(b->key, &size);

			if (blob)
				bin_set_locked(c, b, blob, size);
			free(blob);
		}
		if (b->blob)
			c->bins[out++] = *b;
	}
	c->bin_count = out;
}

static size_t
bins_bytes_locked(const struct icd_pipeline_cache *c, uint32_t m)
{
	size_t bytes = 0;

	for (uint32_t i = 0; i < m; i++)
		bytes += BIN_FIXED + pad8(c->bins[i].size);
	return bytes;
}

VkResult
icd_CreatePipelineCache(VkDevice device,
                        const VkPipelineCacheCreateInfo *ci,
                        const VkAllocationCallbacks *pAllocator,
                        VkPipelineCache *pPipelineCache)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_pipeline_cache *c;
	const uint8_t *data = ci->pInitialData, *bins = NULL;
	uint32_t n = 0, m = 0;

	c = icd_zalloc(pAllocator, &dev->alloc, sizeof(*c), 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!c)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pipeline cache");
	icd_object_init(&c->base, VK_OBJECT_TYPE_PIPELINE_CACHE);
	c->device = dev;
	pthread_mutex_init(&c->lock, NULL);
	if (ci->initialDataSize) {
		const char *why = blob_check(dev->pdev, data,
		                             ci->initialDataSize, &n, &m,
		                             &bins);

		if (why) {
			icd_error(VK_SUCCESS, "pipeline cache data of %zu "
			          "bytes ignored: %s", ci->initialDataSize,
			          why);
			n = m = 0;
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
	/* Binaries: copied as they are; swgpu checks each before use. */
	for (uint32_t i = 0; i < m; i++) {
		struct icd_pipeline_binary *b;
		uint64_t size;

		memcpy(&size, bins + 16, 8);
		b = bin_add_locked(c, bins);
		if (b && !b->blob)
			bin_set_locked(c, b, bins + BIN_FIXED, (size_t)size);
		bins += BIN_FIXED + pad8((size_t)size);
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
	for (uint32_t i = 0; i < c->bin_count; i++)
		icd_free(NULL, &dev->alloc, c->bins[i].blob);
	icd_free(NULL, &dev->alloc, c->bins);
	icd_free(pAllocator, &dev->alloc, c);
}

/*
 * The two-call idiom. A pDataSize too small for everything gets a valid
 * blob with as many keys and binaries as fit (keys first) and
 * VK_INCOMPLETE; too small even for an empty blob gets nothing and
 * *pDataSize = 0 (the spec's rule for a size below the header). Code
 * still compiling in the background is waited for, on both calls, so
 * that the two agree.
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
	uint32_t n, m, magic = CACHE_MAGIC, format = CACHE_FORMAT;
	size_t off;
	uint64_t sum;

	pthread_mutex_lock(&c->lock);
	bins_resolve_locked(c);
	n = c->key_count;
	m = c->bin_count;
	if (!pData) {
		*pDataSize = blob_size(n, bins_bytes_locked(c, m));
		goto out;
	}
	if (*pDataSize < blob_size(n, bins_bytes_locked(c, m))) {
		r = VK_INCOMPLETE;
		if (*pDataSize < blob_size(0, 0)) {
			*pDataSize = 0;
			goto out;
		}
		if (*pDataSize < blob_size(n, 0))
			n = (uint32_t)((*pDataSize - blob_size(0, 0)) / 8);
		while (m && *pDataSize < blob_size(n, bins_bytes_locked(c, m)))
			m--;
	}
	header_fill(dev->pdev, p);
	memcpy(p + CACHE_HEADER_SIZE, &magic, 4);
	memcpy(p + CACHE_HEADER_SIZE + 4, &format, 4);
	memcpy(p + CACHE_HEADER_SIZE + 8, &n, 4);
	memcpy(p + CACHE_HEADER_SIZE + 12, &m, 4);
	off = CACHE_HEADER_SIZE + CACHE_BODY_FIXED;
	if (n)
		memcpy(p + off, c->keys, (size_t)n * 8);
	off += (size_t)n * 8;
	for (uint32_t i = 0; i < m; i++) {
		const struct icd_pipeline_binary *b = &c->bins[i];
		uint64_t size = b->size;

		memcpy(p + off, b->key, 16);
		memcpy(p + off + 16, &size, 8);
		memcpy(p + off + BIN_FIXED, b->blob, b->size);
		memset(p + off + BIN_FIXED + b->size, 0,
		       pad8(b->size) - b->size);
		off += BIN_FIXED + pad8(b->size);
	}
	sum = icd_hash64(p + CACHE_HEADER_SIZE, off - CACHE_HEADER_SIZE, 0);
	memcpy(p + off, &sum, 8);
	*pDataSize = off + CACHE_CHECKSUM_SIZE;
out:
	pthread_mutex_unlock(&c->lock);
	return r;
}

/* src's binaries into dst, one at a time, never holding both locks
 * (see icd_MergePipelineCaches); false when out of memory. */
static bool
merge_bins(struct icd_pipeline_cache *dst, struct icd_pipeline_cache *src)
{
	for (uint32_t i = 0;; i++) {
		struct icd_pipeline_binary copy = { 0 }, *b;
		bool ok = true;

		pthread_mutex_lock(&src->lock);
		if (i >= src->bin_count) {
			pthread_mutex_unlock(&src->lock);
			return true;
		}
		memcpy(copy.key, src->bins[i].key, sizeof(copy.key));
		if (src->bins[i].blob) {
			copy.blob = icd_alloc(NULL, &dst->device->alloc,
			                      src->bins[i].size, 8,
			                      VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
			if (copy.blob) {
				memcpy(copy.blob, src->bins[i].blob,
				       src->bins[i].size);
				copy.size = src->bins[i].size;
			} else {
				ok = false;
			}
		}
		pthread_mutex_unlock(&src->lock);
		if (!ok)
			return false;
		pthread_mutex_lock(&dst->lock);
		b = bin_add_locked(dst, copy.key);
		if (!b)
			ok = false;
		else if (!b->blob && copy.blob)
			ok = bin_set_locked(dst, b, copy.blob, copy.size);
		pthread_mutex_unlock(&dst->lock);
		icd_free(NULL, &dst->device->alloc, copy.blob);
		if (!ok)
			return false;
	}
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
		if (!merge_bins(dst, src))
			return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY,
			                 "merging pipeline caches");
	}
	return VK_SUCCESS;
}

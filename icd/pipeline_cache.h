/* SPDX-License-Identifier: MIT */
/*
 * pipeline_cache.h — VkPipelineCache: the pipeline keys (hashes of
 * SPIR-V, entry point, specialization and layout) and, with
 * SWGPU_SHADER=jit, the native code of the pipelines' shaders as swgpu's
 * self-checking blobs (swgpu_shader_binary_get), serialized behind the
 * spec's VkPipelineCacheHeaderVersionOne header. A pipeline created with
 * a cache that has its shaders' code loads it instead of compiling.
 */
#ifndef ICD_PIPELINE_CACHE_H
#define ICD_PIPELINE_CACHE_H

#include <pthread.h>

#include "icd.h"

/* Native code of one shader: blob NULL while it is still to be fetched
 * from swgpu (the shader may be compiling in the background). */
struct icd_pipeline_binary {
	uint8_t key[SWGPU_SHADER_BINARY_KEY_SIZE];
	void *blob;
	size_t size;
};

struct icd_pipeline_cache {
	struct icd_object base;
	struct icd_device *device;
	/* Pipeline creation on several threads may share a cache (it is
	 * not externally synchronised), so the sets have a lock. */
	pthread_mutex_t lock;
	uint64_t *keys;         /* sorted, unique */
	uint32_t key_count;
	uint32_t key_capacity;
	struct icd_pipeline_binary *bins;   /* unique keys */
	uint32_t bin_count;
	uint32_t bin_capacity;
};

ICD_DEFINE_HANDLE_CASTS(icd_pipeline_cache, VkPipelineCache,
                        VK_OBJECT_TYPE_PIPELINE_CACHE)

/* Record a pipeline key (cache may be NULL). Out of memory only loses the
 * entry: a cache is a hint. */
void icd_pipeline_cache_insert(struct icd_pipeline_cache *cache,
                               uint64_t key);

/* Point info's binary_lookup at cache (NULL: none). */
void icd_pipeline_cache_attach(struct icd_pipeline_cache *cache,
                               swgpu_shader_info *info);

/* Record that cache should hold shader's native code (fetched from
 * swgpu when the data is read, so a compile still running is not
 * waited for here). No-op for a NULL cache or an interpreted shader. */
void icd_pipeline_cache_add_shader(struct icd_pipeline_cache *cache,
                                   const swgpu_shader *shader);

#endif /* ICD_PIPELINE_CACHE_H */

/* SPDX-License-Identifier: MIT */
/*
 * pipeline_cache.h — VkPipelineCache: a set of pipeline keys (hashes of
 * SPIR-V, entry point, specialization and layout), serialized behind the
 * spec's VkPipelineCacheHeaderVersionOne header. Translation is cheap and
 * swgpu offers no serialized shader form, so nothing else is kept.
 */
#ifndef ICD_PIPELINE_CACHE_H
#define ICD_PIPELINE_CACHE_H

#include <pthread.h>

#include "icd.h"

struct icd_pipeline_cache {
	struct icd_object base;
	struct icd_device *device;
	/* Pipeline creation on several threads may share a cache (it is
	 * not externally synchronised), so the key set has a lock. */
	pthread_mutex_t lock;
	uint64_t *keys;         /* sorted, unique */
	uint32_t key_count;
	uint32_t key_capacity;
};

ICD_DEFINE_HANDLE_CASTS(icd_pipeline_cache, VkPipelineCache,
                        VK_OBJECT_TYPE_PIPELINE_CACHE)

/* Record a pipeline key (cache may be NULL). Out of memory only loses the
 * entry: a cache is a hint. */
void icd_pipeline_cache_insert(struct icd_pipeline_cache *cache,
                               uint64_t key);

#endif /* ICD_PIPELINE_CACHE_H */

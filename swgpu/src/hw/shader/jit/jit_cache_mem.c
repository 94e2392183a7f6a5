/* SPDX-License-Identifier: MIT */
/*
 * Entries as blobs (the format of the disk cache's files, also handed to
 * application caches: VkPipelineCache) and the process's in-memory cache
 * of object files (jit_cache.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jit_cache.h"
#include "util/util.h"

void *
jit_entry_wrap(const struct jit_cache_key *key, const void *obj, size_t size,
               size_t *blob_size)
{
	struct jit_entry_header h = {
		.magic = JIT_ENTRY_MAGIC, .version = JIT_ENTRY_VERSION,
		.size = size, .checksum = jit_cache_checksum(obj, size),
	};
	uint8_t *b = malloc(sizeof(h) + size);

	if (!b)
		return NULL;
	memcpy(h.key, key->b, 16);
	memcpy(b, &h, sizeof(h));
	memcpy(b + sizeof(h), obj, size);
	*blob_size = sizeof(h) + size;
	return b;
}

const char *
jit_entry_check(const struct jit_cache_key *key, const void *blob,
                size_t blob_size, const void **obj, size_t *obj_size)
{
	struct jit_entry_header h;
	const uint8_t *p = blob;

	if (!blob || blob_size < sizeof(h))
		return "shorter than its header";
	memcpy(&h, p, sizeof(h));   /* the blob may be unaligned */
	if (h.magic != JIT_ENTRY_MAGIC || h.version != JIT_ENTRY_VERSION)
		return "not an entry of this format";
	if (memcmp(h.key, key->b, 16))
		return "an entry of another key";
	if (h.size == 0 || h.size != blob_size - sizeof(h))
		return "truncated (size mismatch)";
	if (jit_cache_checksum(p + sizeof(h), h.size) != h.checksum)
		return "corrupt (checksum mismatch)";
	*obj = p + sizeof(h);
	*obj_size = h.size;
	return NULL;
}

/* ---- the in-memory cache: a short array, least recently used out ---- */

struct mem_entry {
	struct jit_cache_key key;
	void *obj;
	size_t size;
	uint64_t used;               /* tick of the last put or get */
};

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_entry *mem;
static size_t mem_count, mem_cap;
static uint64_t mem_bytes, mem_tick;
static uint64_t mem_max = 64ull << 20;
static pthread_once_t mem_once = PTHREAD_ONCE_INIT;

static void
mem_knob_init(void)
{
	uint64_t mb;

	if (swgpu_env_u64("SWGPU_SHADER_MEM_CACHE_MB", &mb))
		mem_max = mb << 20;
}

/* Caller holds mem_lock. */
static struct mem_entry *
mem_find(const struct jit_cache_key *key)
{
	for (size_t i = 0; i < mem_count; i++)
		if (!memcmp(mem[i].key.b, key->b, 16))
			return &mem[i];
	return NULL;
}

/* Caller holds mem_lock: drop least recently used entries until the
 * total is at most max. */
static void
mem_evict(uint64_t max)
{
	while (mem_bytes > max && mem_count) {
		size_t lru = 0;

		for (size_t i = 1; i < mem_count; i++)
			if (mem[i].used < mem[lru].used)
				lru = i;
		mem_bytes -= mem[lru].size;
		free(mem[lru].obj);
		mem[lru] = mem[--mem_count];
	}
}

bool
jit_mem_has(const struct jit_cache_key *key)
{
	bool has;

	pthread_mutex_lock(&mem_lock);
	has = mem_find(key) != NULL;
	pthread_mutex_unlock(&mem_lock);
	return has;
}

void
jit_mem_put(const struct jit_cache_key *key, const void *obj, size_t size)
{
	struct mem_entry *e;
	void *copy;

	pthread_once(&mem_once, mem_knob_init);
	if (size > mem_max)
		return;
	pthread_mutex_lock(&mem_lock);
	e = mem_find(key);
	if (e) {
		e->used = ++mem_tick;
		goto out;
	}
	if (mem_count == mem_cap) {
		size_t nc = mem_cap ? mem_cap * 2 : 32;
		struct mem_entry *n = realloc(mem, nc * sizeof(*n));

		if (!n)
			goto out;       /* a cache: losing an entry is fine */
		mem = n;
		mem_cap = nc;
	}
	copy = malloc(size);
	if (!copy)
		goto out;
	memcpy(copy, obj, size);
	mem_evict(mem_max - size);
	mem[mem_count++] = (struct mem_entry){
		.key = *key, .obj = copy, .size = size, .used = ++mem_tick,
	};
	mem_bytes += size;
out:
	pthread_mutex_unlock(&mem_lock);
}

void *
jit_mem_get(const struct jit_cache_key *key, size_t *size)
{
	struct mem_entry *e;
	void *copy = NULL;

	pthread_mutex_lock(&mem_lock);
	e = mem_find(key);
	if (e && (copy = malloc(e->size))) {
		memcpy(copy, e->obj, e->size);
		*size = e->size;
		e->used = ++mem_tick;
	}
	pthread_mutex_unlock(&mem_lock);
	return copy;
}

void
jit_mem_fini(void)
{
	pthread_mutex_lock(&mem_lock);
	mem_evict(0);
	free(mem);
	mem = NULL;
	mem_cap = 0;
	pthread_mutex_unlock(&mem_lock);
}

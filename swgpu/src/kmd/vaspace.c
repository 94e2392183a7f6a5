/* SPDX-License-Identifier: MIT */
/*
 * GPU virtual address space: a sorted array of mappings.
 *
 * Translation (every packet address) is a binary search, O(log n), with no
 * allocation and no write to shared state, so any number of engines can
 * translate concurrently under the read lock. Map/unmap (rare, host side)
 * pay O(n) for first-fit placement and array insertion under the write
 * lock.
 */
#include "kmd/vaspace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmd/mem.h"
#include "kmd/residency.h"
#include "util/util.h"

/* The host address is bo->cpu + bo_offset, read at each translation: an
 * eviction replaces bo->cpu under this VA space's write lock (and only
 * while no job of the context runs, see residency.c). */
struct vmapping {
	uint64_t va;
	uint64_t size;          /* bytes, as requested (not rounded) */
	uint64_t bo_offset;
	struct swgpu_bo *bo;    /* the mapping's reference */
	uint32_t flags;         /* SWGPU_VA_READ | SWGPU_VA_WRITE */
};

struct swgpu_vaspace {
	/* The mapping array: held only while translating or changing it. */
	pthread_rwlock_t lock;
	/* Read sections (vaspace_read_lock): packets using translated
	 * pointers, counted by the parity of the epoch they began in; an
	 * unmap moves the epoch on and waits for the old parity to drain. */
	atomic_uint users[2];
	atomic_uint epoch;
	pthread_mutex_t sync_lock;   /* one synchronize at a time */
	uint64_t base;
	uint64_t end;           /* exclusive, aligned down to align */
	uint64_t align;
	bool debug;
	/* Sorted by va, non-overlapping, each followed by >= SWGPU_VA_GUARD
	 * unmapped bytes. Written only under the write lock. */
	struct vmapping *maps;
	uint32_t count;
	uint32_t cap;
	/* Residency (residency.c): jobs of the context running now, the
	 * LRU stamp of the last one to start, mappings of demoted BOs. */
	atomic_uint pins;
	_Atomic uint64_t last_use;
	atomic_uint demoted;
};

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

swgpu_result
vaspace_create(uint64_t base, uint64_t size, uint32_t page_size,
               struct swgpu_vaspace **out)
{
	bool debug = swgpu_debug_env();
	uint64_t align = SWGPU_VA_ALIGNMENT;
	pthread_rwlockattr_t attr;

	if (!out)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "NULL out");
	*out = NULL;
	if (page_size > align)
		align = page_size;
	if (page_size == 0 || (page_size & (page_size - 1)) ||
	    base == 0 || (base & (align - 1)) || size == 0 ||
	    base + size < base)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "bad VA space base 0x%llx size 0x%llx page %u",
		                 (unsigned long long)base,
		                 (unsigned long long)size, page_size);

	struct swgpu_vaspace *vs = calloc(1, sizeof(*vs));
	if (!vs)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "calloc");
	/* Prefer writers: engines hold the read side packet after packet,
	 * and an unmap must not starve behind them. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
		PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	if (pthread_rwlock_init(&vs->lock, &attr) != 0) {
		pthread_rwlockattr_destroy(&attr);
		free(vs);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "pthread_rwlock_init");
	}
	pthread_rwlockattr_destroy(&attr);
	pthread_mutex_init(&vs->sync_lock, NULL);
	atomic_init(&vs->users[0], 0);
	atomic_init(&vs->users[1], 0);
	atomic_init(&vs->epoch, 0);
	vs->base = base;
	vs->end = (base + size) & ~(align - 1);
	vs->align = align;
	vs->debug = debug;
	*out = vs;
	return SWGPU_OK;
}

void
vaspace_destroy(struct swgpu_vaspace *vs)
{
	if (!vs)
		return;
	for (uint32_t i = 0; i < vs->count; i++) {
		struct swgpu_bo *bo = vs->maps[i].bo;

		if (bo->heap == SWGPU_HEAP_VRAM) {
			pthread_mutex_lock(&bo->mem->res_lock);
			residency_track_unmap(bo, vs);
			pthread_mutex_unlock(&bo->mem->res_lock);
		}
		bo_unref(bo);
	}
	free(vs->maps);
	pthread_rwlock_destroy(&vs->lock);
	pthread_mutex_destroy(&vs->sync_lock);
	free(vs);
}

/* Index of the last mapping with va <= addr, or -1. */
static int64_t
find_le(const struct swgpu_vaspace *vs, uint64_t addr)
{
	uint32_t lo = 0, hi = vs->count;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (vs->maps[mid].va <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int64_t)lo - 1;
}

/* First fit: the lowest gap that holds the mapping plus its guard. On
 * success *pos is the insertion index. */
static bool
place(const struct swgpu_vaspace *vs, uint64_t size, uint64_t *va,
      uint32_t *pos)
{
	uint64_t span = vs->end - vs->base;
	uint64_t need;
	uint64_t cursor = vs->base;

	if (size > span || span - size < SWGPU_VA_GUARD)
		return false;
	need = align_up(size, vs->align) + SWGPU_VA_GUARD;
	if (need > span)
		return false;
	for (uint32_t i = 0; i <= vs->count; i++) {
		uint64_t gap_end = i < vs->count ? vs->maps[i].va : vs->end;

		if (gap_end >= cursor && gap_end - cursor >= need) {
			*va = cursor;
			*pos = i;
			return true;
		}
		if (i < vs->count)
			cursor = align_up(vs->maps[i].va + vs->maps[i].size +
			                  SWGPU_VA_GUARD, vs->align);
	}
	return false;
}

swgpu_result
vaspace_map(struct swgpu_vaspace *vs, struct swgpu_bo *bo, uint64_t bo_offset,
            uint64_t size, uint32_t va_flags, uint64_t *va_out)
{
	bool debug = vs ? vs->debug : swgpu_debug_env();
	uint64_t va;
	uint32_t pos;

	if (va_out)
		*va_out = 0;
	if (!vs || !bo || !va_out)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "NULL argument");
	if (size == 0 || (bo_offset & (SWGPU_PAGE_SIZE - 1)) ||
	    bo_offset > bo->size || size > bo->size - bo_offset)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "bad range offset 0x%llx size 0x%llx of a "
		                 "0x%llx-byte BO",
		                 (unsigned long long)bo_offset,
		                 (unsigned long long)size,
		                 (unsigned long long)bo->size);
	if (va_flags == 0 || (va_flags & ~(SWGPU_VA_READ | SWGPU_VA_WRITE)))
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "bad VA flags 0x%x", va_flags);

	/* VRAM BOs may move: their list of VA spaces changes under
	 * res_lock, which comes before our lock. */
	pthread_mutex_t *res = bo->heap == SWGPU_HEAP_VRAM ?
	                       &bo->mem->res_lock : NULL;
	if (res)
		pthread_mutex_lock(res);
	pthread_rwlock_wrlock(&vs->lock);
	if (!place(vs, size, &va, &pos)) {
		pthread_rwlock_unlock(&vs->lock);
		if (res)
			pthread_mutex_unlock(res);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_VA_SPACE,
		                 "no VA range for 0x%llx bytes",
		                 (unsigned long long)size);
	}
	if (vs->count == vs->cap) {
		uint32_t cap = vs->cap ? vs->cap * 2 : 64;
		struct vmapping *maps;

		if (cap < vs->cap)
			maps = NULL;
		else
			maps = realloc(vs->maps, (size_t)cap * sizeof(*maps));
		if (!maps) {
			pthread_rwlock_unlock(&vs->lock);
			if (res)
				pthread_mutex_unlock(res);
			return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY,
			                 "mapping array");
		}
		vs->maps = maps;
		vs->cap = cap;
	}
	if (res) {
		swgpu_result r = residency_track_map(bo, vs);

		if (r != SWGPU_OK) {
			pthread_rwlock_unlock(&vs->lock);
			pthread_mutex_unlock(res);
			return r;
		}
	}
	memmove(&vs->maps[pos + 1], &vs->maps[pos],
	        (size_t)(vs->count - pos) * sizeof(vs->maps[0]));
	bo_ref(bo);
	vs->maps[pos] = (struct vmapping){
		.va = va,
		.size = size,
		.bo_offset = bo_offset,
		.bo = bo,
		.flags = va_flags,
	};
	vs->count++;
	pthread_rwlock_unlock(&vs->lock);
	if (res)
		pthread_mutex_unlock(res);
	*va_out = va;
	return SWGPU_OK;
}

swgpu_result
vaspace_unmap(struct swgpu_vaspace *vs, uint64_t va)
{
	struct swgpu_bo *bo;
	int64_t i;

	if (!vs)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL VA space");
	/* The write lock waits for every packet translating under the read
	 * lock, so nothing uses the range once we return. A VRAM BO leaves
	 * its list of VA spaces under res_lock, which comes first: look
	 * the BO up, then take both locks and check again. */
	for (;;) {
		pthread_mutex_t *res = NULL;

		pthread_rwlock_rdlock(&vs->lock);
		i = find_le(vs, va);
		if (i >= 0 && vs->maps[i].va == va &&
		    vs->maps[i].bo->heap == SWGPU_HEAP_VRAM)
			res = &vs->maps[i].bo->mem->res_lock;
		pthread_rwlock_unlock(&vs->lock);
		if (res)
			pthread_mutex_lock(res);
		pthread_rwlock_wrlock(&vs->lock);
		i = find_le(vs, va);
		if (i < 0 || vs->maps[i].va != va) {
			pthread_rwlock_unlock(&vs->lock);
			if (res)
				pthread_mutex_unlock(res);
			return SWGPU_ERR(vs->debug, SWGPU_ERR_NOT_MAPPED,
			                 "no mapping starts at VA 0x%llx",
			                 (unsigned long long)va);
		}
		bo = vs->maps[i].bo;
		if ((bo->heap == SWGPU_HEAP_VRAM) != (res != NULL)) {
			/* Another BO took the VA meanwhile: again. */
			pthread_rwlock_unlock(&vs->lock);
			if (res)
				pthread_mutex_unlock(res);
			continue;
		}
		if (res)
			residency_track_unmap(bo, vs);
		memmove(&vs->maps[i], &vs->maps[i + 1],
		        (size_t)(vs->count - (uint32_t)i - 1) *
		        sizeof(vs->maps[0]));
		vs->count--;
		pthread_rwlock_unlock(&vs->lock);
		if (res)
			pthread_mutex_unlock(res);
		/* Packets that may hold pointers into the range end first. */
		vaspace_synchronize(vs);
		bo_unref(bo);
		return SWGPU_OK;
	}
}

/* The parity a thread's read section counts in (one section at a time
 * per thread). */
static _Thread_local uint32_t section_parity;

void
vaspace_read_lock(struct swgpu_vaspace *vs)
{
	for (;;) {
		uint32_t e = atomic_load(&vs->epoch);

		atomic_fetch_add(&vs->users[e & 1], 1);
		/* Counted in the epoch still current: a synchronize that
		 * moved on before our increment waits for us, one that
		 * moved on after it finds us in the new epoch's count or
		 * already past its removal. */
		if (atomic_load(&vs->epoch) == e) {
			section_parity = e & 1;
			return;
		}
		atomic_fetch_sub(&vs->users[e & 1], 1);
	}
}

void
vaspace_read_unlock(struct swgpu_vaspace *vs)
{
	atomic_fetch_sub(&vs->users[section_parity], 1);
}

void
vaspace_synchronize(struct swgpu_vaspace *vs)
{
	pthread_mutex_lock(&vs->sync_lock);
	uint32_t e = atomic_fetch_add(&vs->epoch, 1);
	/* Sections are one packet or one chunk of it: short. */
	while (atomic_load(&vs->users[e & 1]) != 0) {
		struct timespec ts = { 0, 10000 };
		nanosleep(&ts, NULL);
	}
	pthread_mutex_unlock(&vs->sync_lock);
}

static const struct vmapping *
lookup(const struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
       uint32_t access)
{
	int64_t i = find_le(vs, va);

	if (i < 0)
		return NULL;
	const struct vmapping *m = &vs->maps[i];
	uint64_t off = va - m->va;

	if (size == 0)
		size = 1;
	/* m->va + m->size never wraps, so comparing against the room left
	 * in the mapping is overflow safe for any va + size. */
	if (off >= m->size || size > m->size - off)
		return NULL;
	if ((m->flags & access) != access)
		return NULL;
	return m;
}

void *
vaspace_translate(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                  uint32_t access)
{
	pthread_rwlock_rdlock(&vs->lock);
	const struct vmapping *m = lookup(vs, va, size, access);
	void *p = m ? m->bo->cpu + m->bo_offset + (va - m->va) : NULL;
	pthread_rwlock_unlock(&vs->lock);
	return p;
}

void *
vaspace_translate_span(struct swgpu_vaspace *vs, uint64_t va, uint32_t access,
                       uint64_t *span_va, uint64_t *span_size)
{
	pthread_rwlock_rdlock(&vs->lock);
	const struct vmapping *m = lookup(vs, va, 1, access);
	void *p = NULL;

	if (m) {
		p = m->bo->cpu + m->bo_offset + (va - m->va);
		*span_va = m->va;
		*span_size = m->size;
	}
	pthread_rwlock_unlock(&vs->lock);
	return p;
}

void *
vaspace_translate_ref(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                      uint32_t access, struct swgpu_bo **bo_out)
{
	pthread_rwlock_rdlock(&vs->lock);
	const struct vmapping *m = lookup(vs, va, size, access);
	void *p = NULL;

	if (m) {
		bo_ref(m->bo);
		*bo_out = m->bo;
		p = m->bo->cpu + m->bo_offset + (va - m->va);
	}
	pthread_rwlock_unlock(&vs->lock);
	return p;
}

static const char *
fault_reason_locked(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                    uint32_t access, uint64_t *fault_va)
{
	int64_t i = find_le(vs, va);

	if (fault_va)
		*fault_va = va;
	if (i < 0 || va - vs->maps[i].va >= vs->maps[i].size)
		return "unmapped";
	const struct vmapping *m = &vs->maps[i];
	if (size == 0)
		size = 1;
	if (size > m->size - (va - m->va)) {
		if (fault_va)
			*fault_va = m->va + m->size;
		return "out-of-range";
	}
	if ((access & SWGPU_VA_WRITE) && !(m->flags & SWGPU_VA_WRITE))
		return "read-only";
	if ((access & SWGPU_VA_READ) && !(m->flags & SWGPU_VA_READ))
		return "write-only";
	return "mapped";
}

const char *
vaspace_fault_reason(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                     uint32_t access, uint64_t *fault_va)
{
	pthread_rwlock_rdlock(&vs->lock);
	const char *r = fault_reason_locked(vs, va, size, access, fault_va);
	pthread_rwlock_unlock(&vs->lock);
	return r;
}

uint32_t
vaspace_mapping_count(struct swgpu_vaspace *vs)
{
	uint32_t n;

	if (!vs)
		return 0;
	pthread_rwlock_rdlock(&vs->lock);
	n = vs->count;
	pthread_rwlock_unlock(&vs->lock);
	return n;
}

void
vaspace_write_lock(struct swgpu_vaspace *vs)
{
	pthread_rwlock_wrlock(&vs->lock);
}

void
vaspace_write_unlock(struct swgpu_vaspace *vs)
{
	pthread_rwlock_unlock(&vs->lock);
}

void
vaspace_pin(struct swgpu_vaspace *vs, uint64_t stamp)
{
	atomic_fetch_add_explicit(&vs->pins, 1, memory_order_acq_rel);
	atomic_store_explicit(&vs->last_use, stamp, memory_order_relaxed);
}

void
vaspace_unpin(struct swgpu_vaspace *vs)
{
	/* Release: the job's accesses happen before any move that sees
	 * the pin gone (acquire in vaspace_pins). */
	atomic_fetch_sub_explicit(&vs->pins, 1, memory_order_release);
}

uint32_t
vaspace_pins(const struct swgpu_vaspace *vs)
{
	return atomic_load_explicit(&vs->pins, memory_order_acquire);
}

uint64_t
vaspace_last_use(const struct swgpu_vaspace *vs)
{
	return atomic_load_explicit(&vs->last_use, memory_order_relaxed);
}

void
vaspace_demoted_add(struct swgpu_vaspace *vs, int32_t delta)
{
	atomic_fetch_add_explicit(&vs->demoted, (uint32_t)delta,
	                          memory_order_relaxed);
}

uint32_t
vaspace_demoted(const struct swgpu_vaspace *vs)
{
	return atomic_load_explicit(&vs->demoted, memory_order_relaxed);
}

swgpu_result
vaspace_collect_demoted(struct swgpu_vaspace *vs, struct swgpu_bo ***out,
                        uint32_t *count)
{
	struct swgpu_bo **bos;
	uint32_t n = 0;

	*out = NULL;
	*count = 0;
	pthread_rwlock_rdlock(&vs->lock);
	bos = malloc((vs->count ? vs->count : 1) * sizeof(*bos));
	if (!bos) {
		pthread_rwlock_unlock(&vs->lock);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	for (uint32_t i = 0; i < vs->count; i++) {
		struct swgpu_bo *bo = vs->maps[i].bo;

		/* bo->loc changes only under res_lock, which the caller
		 * holds. */
		if (bo->loc != bo->heap) {
			bo_ref(bo);
			bos[n++] = bo;
		}
	}
	pthread_rwlock_unlock(&vs->lock);
	*out = bos;
	*count = n;
	return SWGPU_OK;
}

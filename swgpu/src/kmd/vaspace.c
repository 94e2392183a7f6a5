/* SPDX-License-Identifier: MIT */
/*
 * GPU virtual address space: a sorted array of mappings.
 *
 * Translation (every packet address) is a binary search, O(log n), with no
 * allocation, so any number of engines can translate concurrently under
 * the read lock. Map/unmap (rare, host side) pay O(n) for first-fit
 * placement and array insertion under the write lock.
 *
 * Busy tracking: every mapping has a small refcounted record (struct
 * vmap_ref) holding the mapping's BO reference. The table holds one
 * reference; a read section holds one for each mapping it translated
 * into (taken under the read lock, so never on a mapping already
 * removed). An unmap removes the mapping and drops the table's
 * reference; whoever drops the last one drops the BO. So an unmap never
 * waits for a packet: memory no packet uses is released at once, and a
 * mapping a running packet still uses is released by that packet's
 * engine when its read section ends.
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

/* A mapping's BO reference and its users: 1 while the mapping is in the
 * table, plus 1 per read section that translated into it. The last one
 * out drops the BO (vmap_ref_put). */
struct vmap_ref {
	struct swgpu_bo *bo;
	atomic_uint refs;
	/* Set by an unmap that found read sections still using the
	 * mapping: the BO's busy count (bo->gpu_busy) was raised, so
	 * residency cannot move the BO under them, and the last put
	 * lowers it again. */
	atomic_bool orphan;
};

/* The host address is bo->cpu + bo_offset, read at each translation: an
 * eviction replaces bo->cpu under this VA space's write lock (and only
 * while no job of the context runs, see residency.c). */
struct vmapping {
	uint64_t va;
	uint64_t size;          /* bytes, as requested (not rounded) */
	uint64_t bo_offset;
	struct swgpu_bo *bo;    /* == ref->bo, kept here for translation */
	struct vmap_ref *ref;
	uint32_t flags;         /* SWGPU_VA_READ | SWGPU_VA_WRITE */
};

struct swgpu_vaspace {
	/* The mapping array: held only while translating or changing it. */
	pthread_rwlock_t lock;
	/* Read sections (vaspace_read_lock): packets using translated
	 * pointers, counted by the parity of the epoch they began in;
	 * vaspace_synchronize (residency moves) moves the epoch on and
	 * waits for the old parity to drain. Unmaps do not: they rely on
	 * the per-mapping references (struct vmap_ref). */
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

/* Drop one reference; the last drops the BO (and, for a mapping unmapped
 * while in use, the BO's busy count). May run on an engine thread at the
 * end of a read section: takes no lock but the heap's, in bo_unref. */
static void
vmap_ref_put(struct vmap_ref *ref)
{
	/* acq_rel: the section's accesses happen before the free. */
	if (atomic_fetch_sub_explicit(&ref->refs, 1,
	                              memory_order_acq_rel) != 1)
		return;
	struct swgpu_bo *bo = ref->bo;

	if (atomic_load_explicit(&ref->orphan, memory_order_relaxed))
		atomic_fetch_sub_explicit(&bo->gpu_busy, 1,
		                          memory_order_release);
	free(ref);
	bo_unref(bo);
}

/* The table's reference of a mapping just removed from the table. When
 * read sections still hold it, the BO is marked busy first, so residency
 * does not move it while they use its backing (they are of a running
 * job, yet the BO no longer counts as mapped in its VA space). */
static void
vmap_ref_orphan_put(struct vmap_ref *ref)
{
	if (atomic_load_explicit(&ref->refs, memory_order_acquire) > 1) {
		atomic_fetch_add_explicit(&ref->bo->gpu_busy, 1,
		                          memory_order_relaxed);
		atomic_store_explicit(&ref->orphan, true,
		                      memory_order_relaxed);
		/* If the sections ended meanwhile, our put below is the
		 * last one and lowers the count again. */
	}
	vmap_ref_put(ref);
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
		/* No job of the context runs any more (context.c), so no
		 * read section holds these: the BOs go now. */
		vmap_ref_orphan_put(vs->maps[i].ref);
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
	struct vmap_ref *ref = malloc(sizeof(*ref));
	if (!ref)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "mapping record");
	ref->bo = bo;
	atomic_init(&ref->refs, 1);
	atomic_init(&ref->orphan, false);

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
		free(ref);
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
			free(ref);
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
			free(ref);
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
		.ref = ref,
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
	struct vmap_ref *ref;
	int64_t i;

	if (!vs)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL VA space");
	/* The write lock waits only for translations in progress (a table
	 * lookup), never for packets: a packet that translated into the
	 * mapping holds a reference on it (vmap_ref), so the BO stays until
	 * that packet's read section ends. A VRAM BO leaves its list of VA
	 * spaces under res_lock, which comes first: look the BO up, then
	 * take both locks and check again. */
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
		struct swgpu_bo *bo = vs->maps[i].bo;
		if ((bo->heap == SWGPU_HEAP_VRAM) != (res != NULL)) {
			/* Another BO took the VA meanwhile: again. */
			pthread_rwlock_unlock(&vs->lock);
			if (res)
				pthread_mutex_unlock(res);
			continue;
		}
		ref = vs->maps[i].ref;
		if (res)
			residency_track_unmap(bo, vs);
		memmove(&vs->maps[i], &vs->maps[i + 1],
		        (size_t)(vs->count - (uint32_t)i - 1) *
		        sizeof(vs->maps[0]));
		vs->count--;
		/* Still under the write lock: no section can take a new
		 * reference, and residency (res_lock held for VRAM BOs)
		 * sees the busy mark before it could move the BO. */
		vmap_ref_orphan_put(ref);
		pthread_rwlock_unlock(&vs->lock);
		if (res)
			pthread_mutex_unlock(res);
		return SWGPU_OK;
	}
}

/*
 * Read sections are per thread: a thread is in at most one VA space's
 * sections at a time, possibly nested (a DISPATCH's section holds the
 * resources it bound for its whole run; each buffer-device-address
 * access inside it is a short nested section). The references a section
 * took are dropped when the (nested) section that took them ends.
 */
#define SECTION_INLINE_PINS 32
#define SECTION_MAX_DEPTH 4

struct section {
	struct swgpu_vaspace *vs;
	uint32_t depth;
	uint32_t parity;        /* epoch parity of the outermost section */
	uint32_t npins, cap;
	struct vmap_ref **pins; /* inline, or malloc'd past the inline room */
	uint32_t mark[SECTION_MAX_DEPTH];
	struct vmap_ref *inline_pins[SECTION_INLINE_PINS];
};

static _Thread_local struct section section;

/* Record a reference of the current section. False when out of host
 * memory (the caller treats the address as not translated). */
static bool
section_pin(struct vmap_ref *ref)
{
	struct section *s = &section;

	if (s->npins && s->pins[s->npins - 1] == ref)
		return true;   /* the same mapping again: held already */
	if (!s->pins) {
		s->pins = s->inline_pins;
		s->cap = SECTION_INLINE_PINS;
	}
	if (s->npins == s->cap) {
		uint32_t cap = s->cap * 2;
		struct vmap_ref **p;

		if (s->pins == s->inline_pins) {
			p = malloc(cap * sizeof(*p));
			if (p)
				memcpy(p, s->pins, s->npins * sizeof(*p));
		} else {
			p = realloc(s->pins, cap * sizeof(*p));
		}
		if (!p)
			return false;
		s->pins = p;
		s->cap = cap;
	}
	atomic_fetch_add_explicit(&ref->refs, 1, memory_order_relaxed);
	s->pins[s->npins++] = ref;
	return true;
}

void
vaspace_read_lock(struct swgpu_vaspace *vs)
{
	struct section *s = &section;

	if (s->depth) {
		/* Nested: the outer section counts in the epoch already. */
		if (s->depth == SECTION_MAX_DEPTH || s->vs != vs)
			abort();   /* a bug of the caller, never input */
		s->mark[s->depth++] = s->npins;
		return;
	}
	for (;;) {
		uint32_t e = atomic_load(&vs->epoch);

		atomic_fetch_add(&vs->users[e & 1], 1);
		/* Counted in the epoch still current: a synchronize that
		 * moved on before our increment waits for us, one that
		 * moved on after it finds us in the new epoch's count or
		 * already past its removal. */
		if (atomic_load(&vs->epoch) == e) {
			s->parity = e & 1;
			break;
		}
		atomic_fetch_sub(&vs->users[e & 1], 1);
	}
	s->vs = vs;
	s->mark[s->depth++] = s->npins;
}

void
vaspace_read_unlock(struct swgpu_vaspace *vs)
{
	struct section *s = &section;
	uint32_t from = s->mark[--s->depth];

	(void)vs;
	for (uint32_t i = from; i < s->npins; i++)
		vmap_ref_put(s->pins[i]);
	s->npins = from;
	if (s->depth)
		return;
	atomic_fetch_sub(&s->vs->users[s->parity], 1);
	s->vs = NULL;
	/* Engine helper threads come and go: give a grown list back. */
	if (s->pins != s->inline_pins) {
		free(s->pins);
		s->pins = NULL;
		s->cap = 0;
	}
}

void
vaspace_synchronize(struct swgpu_vaspace *vs)
{
	pthread_mutex_lock(&vs->sync_lock);
	uint32_t e = atomic_fetch_add(&vs->epoch, 1);
	/* Only residency moves wait here, for sections of contexts that
	 * run no job (so there are none, or they are ending). */
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

/* A mapping found under the read lock is used by the current section
 * from now on (outside any section: the caller guarantees the mapping
 * stays, e.g. single-threaded tests). */
static const struct vmapping *
hold(struct swgpu_vaspace *vs, const struct vmapping *m)
{
	if (m && section.depth && section.vs == vs && !section_pin(m->ref))
		return NULL;
	return m;
}

void *
vaspace_translate(struct swgpu_vaspace *vs, uint64_t va, uint64_t size,
                  uint32_t access)
{
	pthread_rwlock_rdlock(&vs->lock);
	const struct vmapping *m = hold(vs, lookup(vs, va, size, access));
	void *p = m ? m->bo->cpu + m->bo_offset + (va - m->va) : NULL;
	pthread_rwlock_unlock(&vs->lock);
	return p;
}

void *
vaspace_translate_span(struct swgpu_vaspace *vs, uint64_t va, uint32_t access,
                       uint64_t *span_va, uint64_t *span_size)
{
	pthread_rwlock_rdlock(&vs->lock);
	const struct vmapping *m = hold(vs, lookup(vs, va, 1, access));
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
	const struct vmapping *m = hold(vs, lookup(vs, va, size, access));
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

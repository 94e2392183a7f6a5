/* SPDX-License-Identifier: MIT */
/*
 * Residency: VRAM over-subscription by eviction (demotion to SYSTEM) and
 * promotion back, with per-job pins.
 *
 * The rule (defensible, coarse): a job can reach every BO mapped in its
 * context's VA space (buffer device addresses make anything reachable), so
 * a job pins its whole VA space from its start on the engine to its end.
 * A BO moves only while no VA space mapping it is pinned and it has no
 * host mapping. Moving is: allocate the new backing, copy, then swap
 * bo->cpu with the write lock of every VA space mapping the BO held (so
 * no translation sees a half-made switch), then free the old backing.
 *
 * Eviction happens when a VRAM allocation (or reclaim) does not fit the
 * budget: offered VRAM BOs are discarded first (lowest offer priority,
 * oldest offer first), then unpinned BOs are demoted lowest priority
 * first (VK_EXT_memory_priority), least recently used first (the last
 * job start of their VA spaces, then their own creation / promotion /
 * host-map stamp). Nothing is touched unless that frees enough; if it
 * does not, the new BO is placed in SYSTEM directly. Only when SYSTEM has
 * no room either is the allocation refused.
 *
 * Promotion happens when a job starts and no other job of its context
 * runs: its demoted BOs come back if VRAM has room after evicting BOs of
 * idle contexts (never of the job's own, which it may be about to use).
 * A BO that cannot come back is reached by the engines in SYSTEM, as a
 * GPU reaches system memory over the bus: slower, never wrong. A host
 * map of a demoted BAR BO tries the same.
 */
#include "kmd/residency.h"

#include <stdlib.h>
#include <string.h>

#include "kmd/device.h"
#include "util/util.h"
#include "kmd/vaspace.h"
#include "remote/remote.h"

static bool
res_debug(const struct swgpu_mem *mem)
{
	return mem->debug || swgpu_debug_env();
}

/* Whether a VA space mapping bo is pinned (self may hold one pin), or a
 * running packet still uses a mapping of it that was unmapped. */
static bool
bo_pinned(const struct swgpu_bo *bo, const struct swgpu_vaspace *self)
{
	if (atomic_load_explicit(&((struct swgpu_bo *)bo)->gpu_busy,
	                         memory_order_acquire))
		return true;
	for (uint32_t i = 0; i < bo->vs_ref_count; i++) {
		const struct swgpu_vaspace *vs = bo->vs_refs[i].vs;
		uint32_t pins = vaspace_pins(vs);

		if (pins > (vs == self ? 1u : 0u))
			return true;
	}
	return false;
}

static uint64_t
bo_last_vs_use(const struct swgpu_bo *bo)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < bo->vs_ref_count; i++) {
		uint64_t u = vaspace_last_use(bo->vs_refs[i].vs);

		if (u > t)
			t = u;
	}
	return t;
}

/* Swap the backing of a moving BO to cpu (its new location's bytes are
 * already counted) and release the old location's bytes. */
static void
bo_switch(struct swgpu_mem *mem, struct swgpu_bo *bo, uint8_t *cpu,
          bool mmapped, swgpu_heap loc)
{
	uint8_t *old;
	bool old_mmapped;

	for (uint32_t i = 0; i < bo->vs_ref_count; i++)
		vaspace_write_lock(bo->vs_refs[i].vs);
	pthread_mutex_lock(&mem->lock);
	old = bo->cpu;
	old_mmapped = bo->cpu_mmapped;
	bo->cpu = cpu;
	bo->cpu_mmapped = mmapped;
	/* A BO offered during the move still counts where it lives. */
	mem_account_sub_locked(mem, bo->owner, bo->loc, bo->flags, bo->size);
	if (loc == SWGPU_HEAP_SYSTEM) {
		mem->evictions++;
		mem->evicted_bytes += bo->size;
		mem->demoted_bytes += bo->size;
	} else {
		mem->promotions++;
		mem->promoted_bytes += bo->size;
		mem->demoted_bytes -= bo->size;
	}
	bo->loc = loc;
	bo->moving = false;
	bo->last_use = ++mem->use_clock;
	uint32_t prio = bo->priority;
	uint64_t evictions = mem->evictions, promotions = mem->promotions;
	pthread_mutex_unlock(&mem->lock);
	for (uint32_t i = 0; i < bo->vs_ref_count; i++) {
		vaspace_demoted_add(bo->vs_refs[i].vs,
		                    loc == SWGPU_HEAP_SYSTEM ?
		                    (int32_t)bo->vs_refs[i].count :
		                    -(int32_t)bo->vs_refs[i].count);
		vaspace_write_unlock(bo->vs_refs[i].vs);
		/* No job of these contexts runs (pins), so no packet holds
		 * a pointer into the old bytes; wait anyway, cheaply, before
		 * freeing them. */
		vaspace_synchronize(bo->vs_refs[i].vs);
	}
	if (old != cpu)
		mem_backing_free(old, bo->size, old_mmapped);
	if (res_debug(mem))
		swgpu_log("mem: %s a %llu-byte VRAM BO (priority %u; "
		          "evictions %llu, promotions %llu)",
		          loc == SWGPU_HEAP_SYSTEM ? "evicted to SYSTEM"
		                                   : "promoted to VRAM",
		          (unsigned long long)bo->size, prio,
		          (unsigned long long)evictions,
		          (unsigned long long)promotions);
}

static bool
page_is_zero(const uint8_t *p, uint32_t size)
{
	const uint64_t *w = (const uint64_t *)p;

	for (uint32_t i = 0; i < size / 8; i++)
		if (w[i])
			return false;
	return true;
}

/* Copy into a fresh zero-filled backing, skipping zero pages: a large BO
 * is mostly pages nobody wrote (mmap'd on demand), and copying them would
 * make the host back them for nothing. */
static void
copy_nonzero_pages(uint8_t *dst, const uint8_t *src, uint64_t size,
                   uint32_t page)
{
	for (uint64_t off = 0; off < size; off += page)
		if (!page_is_zero(src + off, page))
			memcpy(dst + off, src + off, page);
}

/* Copy a moving BO to a new backing in loc and switch to it. On host
 * memory failure the BO stays where it is (moving cleared) and the
 * caller's reservation in loc is released. */
static bool
bo_move(struct swgpu_mem *mem, struct swgpu_bo *bo, swgpu_heap loc)
{
	bool mmapped;
	uint8_t *cpu;

	/* A shareable BO's pages are a memfd that other mappers (the
	 * client process in shared mode, importers) reach too: both heaps
	 * are host memory, so its move is the accounting's alone and the
	 * bytes stay where every mapping sees them. */
	if (bo->shared) {
		bo_switch(mem, bo, bo->cpu, bo->cpu_mmapped, loc);
		return true;
	}
	cpu = mem_backing_alloc(bo->size, mem->page_size, &mmapped);
	if (!cpu) {
		pthread_mutex_lock(&mem->lock);
		mem_account_sub_locked(mem, bo->owner, loc, bo->flags,
		                       bo->size);
		bo->moving = false;
		pthread_mutex_unlock(&mem->lock);
		swgpu_log("mem: no host memory to move a %llu-byte BO",
		          (unsigned long long)bo->size);
		return false;
	}
	/* No engine and no host pointer can reach the BO (unpinned, not
	 * mapped, res_lock held), so the copy sees still contents. */
	copy_nonzero_pages(cpu, bo->cpu, bo->size, mem->page_size);
	bo_switch(mem, bo, cpu, mmapped, loc);
	return true;
}

struct victim {
	struct swgpu_bo *bo;
	bool demote;            /* else discard (an offered BO) */
	uint64_t key1, key2, key3;
};

static int
victim_cmp(const void *a, const void *b)
{
	const struct victim *x = a, *y = b;

	if (x->demote != y->demote)
		return x->demote ? 1 : -1;
	if (x->key1 != y->key1)
		return x->key1 < y->key1 ? -1 : 1;
	if (x->key2 != y->key2)
		return x->key2 < y->key2 ? -1 : 1;
	if (x->key3 != y->key3)
		return x->key3 < y->key3 ? -1 : 1;
	return 0;
}

/* Make size more bytes (flags) fit VRAM's budget and the BAR window:
 * discard offered VRAM BOs, then demote unpinned ones, in eviction order,
 * only if that is enough. Does not reserve. */
static bool
make_vram_room(struct swgpu_mem *mem, uint32_t flags, uint64_t size)
{
	bool bar = flags & SWGPU_BO_BAR;
	struct victim *v;
	uint32_t n = 0, picked = 0;
	uint64_t need, need_bar, sys_free;
	bool ok = true;

	pthread_mutex_lock(&mem->lock);
	need = mem_shortfall(mem->heap_budget[SWGPU_HEAP_VRAM],
	                     mem->heap_used[SWGPU_HEAP_VRAM], size);
	need_bar = bar ? mem_shortfall(mem->bar_size, mem->bar_used, size) : 0;
	if (!need && !need_bar) {
		pthread_mutex_unlock(&mem->lock);
		return true;
	}
	v = calloc(mem->bo_count ? mem->bo_count : 1, sizeof(*v));
	if (!v) {
		pthread_mutex_unlock(&mem->lock);
		return false;
	}
	for (struct swgpu_bo *b = mem->bo_list; b; b = b->next) {
		if (b->loc != SWGPU_HEAP_VRAM || b->moving || b->discarded ||
		    (!need && !(b->flags & SWGPU_BO_BAR)))
			continue;
		if (b->offered) {
			v[n++] = (struct victim){ b, false, b->offer_priority,
			                          b->offer_seq, 0 };
		} else if (!atomic_load(&b->map_count) && !bo_pinned(b, NULL)) {
			v[n++] = (struct victim){ b, true, b->priority,
			                          bo_last_vs_use(b), b->last_use };
		}
	}
	qsort(v, n, sizeof(*v), victim_cmp);
	sys_free = mem->heap_budget[SWGPU_HEAP_SYSTEM] -
	           mem->heap_used[SWGPU_HEAP_SYSTEM];
	if (mem->heap_used[SWGPU_HEAP_SYSTEM] >
	    mem->heap_budget[SWGPU_HEAP_SYSTEM])
		sys_free = 0;
	/* Offered SYSTEM BOs may go to make room for evicted ones. */
	for (struct swgpu_bo *b = mem->offer_head; b; b = b->offer_next)
		if (b->loc == SWGPU_HEAP_SYSTEM && !b->moving)
			sys_free += b->size;
	uint64_t demote_bytes = 0;
	/* Pick in order the BOs that help, moving picks to the front. */
	uint64_t rest = need, rest_bar = need_bar;
	for (uint32_t i = 0; i < n && (rest || rest_bar); i++) {
		struct swgpu_bo *b = v[i].bo;
		bool in_bar = b->flags & SWGPU_BO_BAR;

		if (!rest && !(rest_bar && in_bar))
			continue;
		if (v[i].demote && (b->size > sys_free || !bo_ref_live(b)))
			continue;
		if (v[i].demote) {
			sys_free -= b->size;
			demote_bytes += b->size;
		}
		rest -= b->size < rest ? b->size : rest;
		if (in_bar)
			rest_bar -= b->size < rest_bar ? b->size : rest_bar;
		v[picked++] = v[i];
	}
	if (rest || rest_bar) {
		/* Not enough: touch nothing. */
		pthread_mutex_unlock(&mem->lock);
		for (uint32_t i = 0; i < picked; i++)
			if (v[i].demote)
				bo_unref(v[i].bo);
		free(v);
		return false;
	}
	/* Cannot fail: the offers counted above are enough. */
	if (demote_bytes)
		mem_make_room_locked(mem, SWGPU_HEAP_SYSTEM, 0, demote_bytes);
	for (uint32_t i = 0; i < picked; i++) {
		if (!v[i].demote) {
			mem_discard_locked(mem, v[i].bo);
			continue;
		}
		/* Reserve the SYSTEM bytes now, so nothing takes them while
		 * we copy without the lock. */
		mem_account_add_locked(mem, v[i].bo->owner,
		                       SWGPU_HEAP_SYSTEM, 0, v[i].bo->size);
		v[i].bo->moving = true;
	}
	pthread_mutex_unlock(&mem->lock);
	for (uint32_t i = 0; i < picked; i++) {
		if (!v[i].demote)
			continue;
		if (!bo_move(mem, v[i].bo, SWGPU_HEAP_SYSTEM))
			ok = false;
		bo_unref(v[i].bo);
	}
	free(v);
	if (!ok)
		return false;
	pthread_mutex_lock(&mem->lock);
	ok = !mem_shortfall(mem->heap_budget[SWGPU_HEAP_VRAM],
	                    mem->heap_used[SWGPU_HEAP_VRAM], size) &&
	     !(bar && mem_shortfall(mem->bar_size, mem->bar_used, size));
	pthread_mutex_unlock(&mem->lock);
	return ok;
}

/* Reserve VRAM bytes for size (flags) if they fit now. */
static bool
reserve_vram_if_fits(struct swgpu_mem *mem, struct mem_owner *owner,
                     uint32_t flags, uint64_t size)
{
	bool fits;

	pthread_mutex_lock(&mem->lock);
	fits = !mem_shortfall(mem->heap_budget[SWGPU_HEAP_VRAM],
	                      mem->heap_used[SWGPU_HEAP_VRAM], size) &&
	       !((flags & SWGPU_BO_BAR) &&
	         mem_shortfall(mem->bar_size, mem->bar_used, size));
	if (fits)
		mem_account_add_locked(mem, owner, SWGPU_HEAP_VRAM, flags,
		                       size);
	pthread_mutex_unlock(&mem->lock);
	return fits;
}

swgpu_heap
residency_reserve(struct swgpu_mem *mem, struct mem_owner *owner,
                  uint32_t flags, uint64_t size)
{
	swgpu_heap loc = SWGPU_HEAP_COUNT;

	if (make_vram_room(mem, flags, size) &&
	    reserve_vram_if_fits(mem, owner, flags, size))
		return SWGPU_HEAP_VRAM;
	/* Over-subscribed with nothing to evict: the BO starts in SYSTEM
	 * (its SYSTEM offers may go, as for any SYSTEM allocation). */
	pthread_mutex_lock(&mem->lock);
	if (mem_make_room_locked(mem, SWGPU_HEAP_SYSTEM, 0, size)) {
		mem_account_add_locked(mem, owner, SWGPU_HEAP_SYSTEM, 0,
		                       size);
		mem->system_placements++;
		loc = SWGPU_HEAP_SYSTEM;
	}
	pthread_mutex_unlock(&mem->lock);
	if (loc == SWGPU_HEAP_SYSTEM && res_debug(mem))
		swgpu_log("mem: VRAM budget full and nothing evictable: a "
		          "%llu-byte VRAM BO starts in SYSTEM",
		          (unsigned long long)size);
	return loc;
}

void
residency_set_loc(struct swgpu_bo *bo, swgpu_heap loc)
{
	struct swgpu_mem *mem = bo->mem;

	if (bo->loc == loc)
		return;
	for (uint32_t i = 0; i < bo->vs_ref_count; i++)
		vaspace_demoted_add(bo->vs_refs[i].vs,
		                    loc == SWGPU_HEAP_SYSTEM ?
		                    (int32_t)bo->vs_refs[i].count :
		                    -(int32_t)bo->vs_refs[i].count);
	pthread_mutex_lock(&mem->lock);
	if (loc == SWGPU_HEAP_SYSTEM)
		mem->demoted_bytes += bo->size;
	else
		mem->demoted_bytes -= bo->size;
	bo->loc = loc;
	pthread_mutex_unlock(&mem->lock);
}

/* Bring a demoted BO back to VRAM if it may move and fits (self: the VA
 * space of a job about to start, pinned once by it). Returns false only
 * when VRAM has no room for it (a BO that may not move is skipped). */
static bool
promote(struct swgpu_mem *mem, struct swgpu_bo *bo,
        const struct swgpu_vaspace *self)
{
	bool fits;

	pthread_mutex_lock(&mem->lock);
	fits = bo->loc == SWGPU_HEAP_SYSTEM && bo->heap == SWGPU_HEAP_VRAM &&
	       !bo->offered && !bo->moving &&
	       !atomic_load(&bo->map_count);
	pthread_mutex_unlock(&mem->lock);
	if (!fits || bo_pinned(bo, self))
		return true;
	if (!make_vram_room(mem, bo->flags, bo->size))
		return false;
	pthread_mutex_lock(&mem->lock);
	fits = !mem_shortfall(mem->heap_budget[SWGPU_HEAP_VRAM],
	                      mem->heap_used[SWGPU_HEAP_VRAM], bo->size) &&
	       !((bo->flags & SWGPU_BO_BAR) &&
	         mem_shortfall(mem->bar_size, mem->bar_used, bo->size));
	if (fits) {
		mem_account_add_locked(mem, bo->owner, SWGPU_HEAP_VRAM,
		                       bo->flags, bo->size);
		bo->moving = true;
	}
	pthread_mutex_unlock(&mem->lock);
	return fits && bo_move(mem, bo, SWGPU_HEAP_VRAM);
}

void
residency_prepare_map(struct swgpu_bo *bo)
{
	if (bo->loc == SWGPU_HEAP_SYSTEM && bo->heap == SWGPU_HEAP_VRAM)
		promote(bo->mem, bo, NULL);
	pthread_mutex_lock(&bo->mem->lock);
	bo->last_use = ++bo->mem->use_clock;
	pthread_mutex_unlock(&bo->mem->lock);
}

swgpu_result
residency_track_map(struct swgpu_bo *bo, struct swgpu_vaspace *vs)
{
	uint32_t i;

	for (i = 0; i < bo->vs_ref_count; i++)
		if (bo->vs_refs[i].vs == vs)
			break;
	if (i == bo->vs_ref_count) {
		if (bo->vs_ref_count == bo->vs_ref_cap) {
			uint32_t cap = bo->vs_ref_cap ? bo->vs_ref_cap * 2 : 2;
			struct bo_vs_ref *r = realloc(bo->vs_refs,
			                              cap * sizeof(*r));
			if (!r)
				return SWGPU_ERR(bo->mem->debug,
				                 SWGPU_ERR_NO_HOST_MEMORY,
				                 "BO mapping list");
			bo->vs_refs = r;
			bo->vs_ref_cap = cap;
		}
		bo->vs_refs[i] = (struct bo_vs_ref){ vs, 0 };
		bo->vs_ref_count++;
	}
	bo->vs_refs[i].count++;
	if (bo->loc != bo->heap)
		vaspace_demoted_add(vs, 1);
	return SWGPU_OK;
}

void
residency_track_unmap(struct swgpu_bo *bo, struct swgpu_vaspace *vs)
{
	for (uint32_t i = 0; i < bo->vs_ref_count; i++) {
		if (bo->vs_refs[i].vs != vs)
			continue;
		if (bo->loc != bo->heap)
			vaspace_demoted_add(vs, -1);
		if (--bo->vs_refs[i].count == 0)
			bo->vs_refs[i] = bo->vs_refs[--bo->vs_ref_count];
		return;
	}
}

struct swgpu_vaspace *
residency_job_begin(struct swgpu_mem *mem, struct swgpu_vaspace *vs)
{
	struct swgpu_bo **bos = NULL;
	uint32_t n = 0;

	pthread_mutex_lock(&mem->res_lock);
	vaspace_pin(vs, ++mem->use_clock);
	/* Promote only when no other job of the context runs: one may be
	 * using the demoted BOs where they are. */
	if (vaspace_demoted(vs) && vaspace_pins(vs) == 1 &&
	    vaspace_collect_demoted(vs, &bos, &n) == SWGPU_OK) {
		/* After a failure VRAM is full of pinned BOs: stop trying
		 * (each attempt scans every BO). */
		bool room = true;
		for (uint32_t i = 0; i < n; i++) {
			if (room)
				room = promote(mem, bos[i], vs);
			bo_unref(bos[i]);
		}
		free(bos);
	}
	pthread_mutex_unlock(&mem->res_lock);
	return vs;
}

void
residency_job_end(struct swgpu_vaspace *vs)
{
	if (vs)
		vaspace_unpin(vs);
}

/* ------------------------------------------------------------------ */
/* Public API (swgpu.h)                                                */
/* ------------------------------------------------------------------ */

swgpu_result
swgpu_bo_set_priority(swgpu_bo *bo, uint32_t priority)
{
	if (remote_is(bo))
		return rc_bo_set_priority(bo, priority);
	if (!bo || priority > SWGPU_BO_PRIORITY_MAX)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL BO or priority %u over %u", priority,
		                 SWGPU_BO_PRIORITY_MAX);
	pthread_mutex_lock(&bo->mem->lock);
	bo->priority = priority;
	pthread_mutex_unlock(&bo->mem->lock);
	return SWGPU_OK;
}

swgpu_heap
swgpu_bo_location(const swgpu_bo *bo)
{
	if (remote_is(bo))
		return rc_bo_location(bo);
	swgpu_heap loc;

	if (!bo)
		return SWGPU_HEAP_COUNT;
	pthread_mutex_lock(&bo->mem->lock);
	loc = bo->loc;
	pthread_mutex_unlock(&bo->mem->lock);
	return loc;
}

swgpu_result
swgpu_mem_query_stats(const swgpu_device *dev, swgpu_mem_stats *out)
{
	if (remote_is(dev))
		return rc_mem_query_stats(dev, out);
	struct swgpu_mem *mem;

	if (!dev || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	mem = (struct swgpu_mem *)&dev->mem; /* mutable mutex */
	pthread_mutex_lock(&mem->lock);
	*out = (swgpu_mem_stats){
		.evictions = mem->evictions,
		.evicted_bytes = mem->evicted_bytes,
		.promotions = mem->promotions,
		.promoted_bytes = mem->promoted_bytes,
		.discards = mem->discard_count,
		.discarded_bytes = mem->discard_bytes,
		.system_placements = mem->system_placements,
		.demoted_bytes = mem->demoted_bytes,
	};
	pthread_mutex_unlock(&mem->lock);
	return SWGPU_OK;
}

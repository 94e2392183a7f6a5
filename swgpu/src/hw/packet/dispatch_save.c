/* SPDX-License-Identifier: MIT */
/*
 * Preemption inside a dispatch's workgroups (dispatch_save.h).
 *
 * The save area is allocated lazily, at the first stop the stream is
 * asked for, so a dispatch never preempted costs nothing; it is a
 * SYSTEM heap BO of the job's device (accounted like the context's own
 * memory), kept in the job's exec_save for its later stops and freed
 * when the job ends. When it cannot be allocated, the dispatch falls
 * back to finishing its running workgroups and stops between them (the
 * slice boundaries of packet_dispatch.c), with a log line.
 */
#include "hw/packet/dispatch_save.h"

#include <string.h>

#include "hw/shader/ir.h"
#include "hw/shader/wg_save.h"
#include "kmd/device.h"
#include "kmd/mem.h"

/* The area of ds's program: the job's one when large enough (its header
 * rewritten), else a new BO. Under ds->lock; NULL on failure. */
static void *
area_get(struct dispatch_save *ds)
{
	struct exec_save *sv = ds->env->save;
	const struct ir_program *prog = ds->d->prog;
	const size_t need = ir_save_area_size(prog);

	if (!need || !ds->env->dev)
		return NULL;
	if (sv->area && sv->area->size < need) {
		bo_unref(sv->area);
		sv->area = NULL;
	}
	if (!sv->area) {
		struct swgpu_device *dev = ds->env->dev;
		swgpu_result r = bo_create_in(&dev->mem, dev, need,
		                              SWGPU_HEAP_SYSTEM, 0, &sv->area);
		if (r != SWGPU_OK) {
			swgpu_log("engine %u: no save area (%zu bytes, error "
			          "%d): the dispatch finishes its running "
			          "workgroups before it stops",
			          ds->env->engine, need, (int)r);
			return NULL;
		}
	}
	ir_save_area_init(sv->area->cpu, prog);
	return sv->area->cpu;
}

/* ir_dispatch stop_poll: any workgroup thread, at a loop back-edge. */
static bool
stop_poll(void *cookie)
{
	struct dispatch_save *ds = cookie;
	struct ir_dispatch *d = ds->d;

	if (__atomic_load_n(&ds->no_area, __ATOMIC_RELAXED) ||
	    !exec_preempt_wanted(ds->env))
		return false;
	pthread_mutex_lock(&ds->lock);
	if (!__atomic_load_n(&d->stop, __ATOMIC_RELAXED) && !ds->no_area) {
		/* Other threads read it (__atomic) while theirs run. */
		if (!d->save_area)
			__atomic_store_n(&d->save_area, area_get(ds),
			                 __ATOMIC_RELEASE);
		if (d->save_area)
			__atomic_store_n(&d->stop, true, __ATOMIC_RELEASE);
		else
			__atomic_store_n(&ds->no_area, true,
			                 __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&ds->lock);
	return __atomic_load_n(&d->stop, __ATOMIC_ACQUIRE);
}

bool
dispatch_save_begin(struct dispatch_save *ds, struct exec_env *env,
                    const struct pkt *p, struct ir_dispatch *d,
                    bool resuming)
{
	struct exec_save *sv = env->save;

	memset(ds, 0, sizeof(*ds));
	ds->env = env;
	ds->d = d;
	pthread_mutex_init(&ds->lock, NULL);
	if (!sv || !env->preempt_hook)
		return true;
	ds->armed = true;
	d->stop_poll = stop_poll;
	d->stop_cookie = ds;
	if (!resuming)
		return true;
	/* The watchdog counts the dispatch's own run time only. */
	uint64_t now = swgpu_now_ns();
	d->progress_ns = now - (sv->stalled_ns < now ? sv->stalled_ns : 0);
	if (!sv->area || !ir_save_area_saved(sv->area->cpu))
		return true;
	if (!ir_save_area_matches(sv->area->cpu, d->prog))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "saved workgroups do not fit the shader "
		                   "resumed (it changed while preempted)");
	d->save_area = sv->area->cpu;
	return true;
}

uint64_t
dispatch_save_stop(struct dispatch_save *ds, uint64_t end)
{
	struct ir_dispatch *d = ds->d;
	struct exec_save *sv = ds->env->save;
	uint64_t claimed = __atomic_load_n(&d->next_group, __ATOMIC_RELAXED);
	uint64_t now = swgpu_now_ns();
	uint64_t last = __atomic_load_n(&d->progress_ns, __ATOMIC_RELAXED);

	claimed = claimed < end ? claimed : end;
	sv->stalled_ns = now > last ? now - last : 0;
	if (d->save_area) {
		struct ir_save_header *h = d->save_area;

		h->claimed = claimed;
		h->stall_ns = sv->stalled_ns;
		h->preemptions++;
	}
	return claimed;
}

void
dispatch_save_end(struct dispatch_save *ds)
{
	pthread_mutex_destroy(&ds->lock);
}

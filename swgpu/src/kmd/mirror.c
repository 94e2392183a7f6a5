/* SPDX-License-Identifier: MIT */
/* Mirrors of queues and sync objects for swgpud's clients (mirror.h). */
#include "kmd/mirror.h"

#include <stdio.h>
#include <string.h>

#include "kmd/context.h"
#include "kmd/job.h"
#include "kmd/syncobj.h"
#include "util/futex.h"

void
mirror_publish(const struct mirror *m, uint64_t value, uint64_t aux,
               uint32_t flags)
{
	struct mirror_slot *s = m->slot;

	if (!s)
		return;
	atomic_store_explicit(&s->aux, aux, memory_order_relaxed);
	atomic_store_explicit(&s->flags, flags, memory_order_relaxed);
	atomic_store_explicit(&s->value, value, memory_order_release);
	/* seq_cst pairs with the reader's waiters++ then seq re-check: one
	 * of the two sees the other. */
	atomic_fetch_add(&m->events->seq, 1);
	if (atomic_load(&m->events->waiters))
		futex_wake_all_shared(&m->events->seq);
}

/* dev->lock held. */
void
queue_mirror_publish(struct swgpu_queue *q)
{
	/* Every job completion comes here: in process, nothing to do. */
	if (!q->mirror.slot)
		return;
	atomic_store_explicit(&q->mirror.slot->engine, q->engine,
	                      memory_order_relaxed);
	mirror_publish(&q->mirror,
	               atomic_load_explicit(&q->completed,
	                                    memory_order_relaxed),
	               q->last_failed,
	               q->ctx->state != SWGPU_CONTEXT_OK ? MIRROR_LOST : 0);
}

/* dev->lock held. */
void
syncobj_mirror_publish(struct swgpu_syncobj *obj)
{
	uint64_t value, aux = 0;

	if (!obj->mirror.slot)
		return;
	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		value = obj->value;
		aux = obj->submitted_max;
	} else {
		value = obj->payload == PAYLOAD_SIGNALED ? MIRROR_BINARY_SIGNALED
		        : obj->payload == PAYLOAD_PENDING ? MIRROR_BINARY_PENDING
		        : MIRROR_BINARY_NONE;
	}
	mirror_publish(&obj->mirror, value, aux, obj->error ? MIRROR_ERROR : 0);
}

bool
kmd_syncobj_mirror_attach(swgpu_syncobj *obj, struct mirror_slot *slot,
                          struct mirror_events *events)
{
	struct swgpu_device *dev = obj->dev;
	bool ok;

	pthread_mutex_lock(&dev->lock);
	ok = !obj->mirror.slot;
	if (ok) {
		obj->mirror.slot = slot;
		obj->mirror.events = events;
		syncobj_mirror_publish(obj);
	}
	pthread_mutex_unlock(&dev->lock);
	return ok;
}

void
kmd_syncobj_mirror_detach(swgpu_syncobj *obj, struct mirror_slot *slot)
{
	struct swgpu_device *dev = obj->dev;

	pthread_mutex_lock(&dev->lock);
	if (obj->mirror.slot == slot)
		obj->mirror.slot = NULL;
	pthread_mutex_unlock(&dev->lock);
}

void
kmd_queue_mirror_attach(swgpu_queue *q, struct mirror_slot *slot,
                        struct mirror_events *events)
{
	struct swgpu_device *dev = q->dev;

	pthread_mutex_lock(&dev->lock);
	q->mirror.slot = slot;
	q->mirror.events = events;
	queue_mirror_publish(q);
	pthread_mutex_unlock(&dev->lock);
}

void
kmd_queue_mirror_detach(swgpu_queue *q)
{
	struct swgpu_device *dev = q->dev;

	pthread_mutex_lock(&dev->lock);
	q->mirror.slot = NULL;
	pthread_mutex_unlock(&dev->lock);
}

void
kmd_context_mirror_attach(swgpu_context *ctx, struct mirror_slot *slot,
                          struct mirror_events *events)
{
	struct swgpu_device *dev = ctx->dev;

	pthread_mutex_lock(&dev->lock);
	ctx->mirror.slot = slot;
	ctx->mirror.events = events;
	mirror_publish(&ctx->mirror, ctx->state, 0, 0);
	pthread_mutex_unlock(&dev->lock);
}

void
kmd_context_mirror_detach(swgpu_context *ctx)
{
	struct swgpu_device *dev = ctx->dev;

	pthread_mutex_lock(&dev->lock);
	ctx->mirror.slot = NULL;
	pthread_mutex_unlock(&dev->lock);
}

void
kmd_context_lose(swgpu_context *ctx, const char *why)
{
	struct swgpu_device *dev = ctx->dev;
	swgpu_fault_info f;

	memset(&f, 0, sizeof(f));
	f.kind = SWGPU_FAULT_BAD_PACKET;
	f.queue_id = UINT32_MAX;
	snprintf(f.message, sizeof(f.message), "%s", why);
	pthread_mutex_lock(&dev->lock);
	context_mark_guilty(ctx, &f);
	sched_run(dev); /* cancels its pending jobs */
	pthread_mutex_unlock(&dev->lock);
	dev_wake_gpu(dev);
}

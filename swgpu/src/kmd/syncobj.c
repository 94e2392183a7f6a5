/* SPDX-License-Identifier: MIT */
/* Sync objects: binary payloads, timelines, host signal and wait. */
#include "kmd/syncobj.h"

#include <stdlib.h>

#include "kmd/job.h"
#include "kmd/wait_eval.h"
#include "remote/remote.h"

void
syncobj_ref(struct swgpu_syncobj *obj)
{
	obj->refcount++;
}

void
syncobj_unref(struct swgpu_syncobj *obj)
{
	if (--obj->refcount)
		return;
	if (obj->payload == PAYLOAD_PENDING)
		job_unref(obj->payload_job);
	dlist_del(&obj->link);
	syncobj_share_fini(obj);
	free(obj);
}

bool
syncobj_signal_would_rewind(struct swgpu_syncobj *obj, uint64_t value)
{
	return obj->type == SWGPU_SYNCOBJ_TIMELINE && value <= obj->value;
}

void
syncobj_signal_in_ring(struct job_signal *s)
{
	struct swgpu_syncobj *obj = s->obj;

	dlist_del(&s->link);
	dlist_add_tail(&s->link, &obj->inring);
	if (s->value > obj->inring_max)
		obj->inring_max = s->value;
}

void
syncobj_wake_waiters(struct swgpu_syncobj *obj, bool submitted)
{
	struct dlist *it;

	if (dlist_empty(&obj->host_waits))
		return;
	/* Binary waiters, errors and WAIT_AVAILABLE (submitted): wake and
	 * let them re-evaluate. Timelines: only if a waited value is
	 * reached. */
	bool wake = submitted || obj->error ||
	            obj->type == SWGPU_SYNCOBJ_BINARY;
	for (it = obj->host_waits.next; !wake && it != &obj->host_waits;
	     it = it->next)
		wake = dlist_entry(it, struct host_wait, link)->value <=
		       obj->value;
	if (wake)
		dev_host_broadcast(obj->dev);
}

void
syncobj_gpu_signal(struct job_signal *s, bool error)
{
	struct swgpu_syncobj *obj = s->obj;

	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		dlist_del(&s->link);
		if (dlist_empty(&obj->inring))
			obj->inring_max = 0;
		if (error)
			obj->error = true;
		else if (s->value > obj->value)
			obj->value = s->value;
		syncobj_share_publish(obj);
		syncobj_mirror_publish(obj);
		syncobj_wake_waiters(obj, false);
		return;
	}
	/* Binary: only if this job still owns the payload (a host signal
	 * or a later submit may have replaced it). */
	if (obj->payload == PAYLOAD_PENDING && obj->payload_job == s->job) {
		obj->payload = PAYLOAD_SIGNALED;
		obj->payload_job = NULL;
		obj->error = error;
		job_unref(s->job);
		syncobj_mirror_publish(obj);
		syncobj_wake_waiters(obj, false);
	}
}

void
syncobj_free_all(struct swgpu_device *dev)
{
	struct dlist *it, *tmp;

	dlist_for_each_safe(it, tmp, &dev->syncobjs) {
		struct swgpu_syncobj *obj =
			dlist_entry(it, struct swgpu_syncobj, link);
		dlist_del(&obj->link);
		syncobj_share_fini(obj);
		free(obj);
	}
}

swgpu_result
swgpu_syncobj_create(swgpu_device *dev, swgpu_syncobj_type type,
                     uint64_t initial_value, swgpu_syncobj **out)
{
	if (remote_is(dev))
		return rc_syncobj_create(dev, type, initial_value, out);
	if (!dev || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device or out");
	if (type != SWGPU_SYNCOBJ_BINARY && type != SWGPU_SYNCOBJ_TIMELINE)
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG, "type %d",
		               (int)type);
	struct swgpu_syncobj *obj = calloc(1, sizeof(*obj));
	if (!obj)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "syncobj");
	obj->dev = dev;
	obj->type = type;
	obj->refcount = 1;
	obj->user_handles = 1;
	dlist_init(&obj->pending);
	dlist_init(&obj->inring);
	dlist_init(&obj->host_waits);
	if (type == SWGPU_SYNCOBJ_TIMELINE)
		obj->value = initial_value;
	else
		obj->payload = initial_value ? PAYLOAD_SIGNALED : PAYLOAD_NONE;
	pthread_mutex_lock(&dev->lock);
	obj->id = dev->next_syncobj_id++;
	dlist_add_tail(&obj->link, &dev->syncobjs);
	pthread_mutex_unlock(&dev->lock);
	*out = obj;
	return SWGPU_OK;
}

void
swgpu_syncobj_destroy(swgpu_syncobj *obj)
{
	if (remote_is(obj)) {
		rc_syncobj_destroy(obj);
		return;
	}
	if (!obj)
		return;
	struct swgpu_device *dev = obj->dev;
	pthread_mutex_lock(&dev->lock);
	obj->user_handles--;
	syncobj_unref(obj);
	pthread_mutex_unlock(&dev->lock);
}

swgpu_syncobj_type
swgpu_syncobj_get_type(const swgpu_syncobj *obj)
{
	if (remote_is(obj))
		return rc_syncobj_get_type(obj);
	return obj ? obj->type : SWGPU_SYNCOBJ_BINARY;
}

swgpu_result
swgpu_syncobj_signal(swgpu_syncobj *obj, uint64_t value)
{
	if (remote_is(obj))
		return rc_syncobj_signal(obj, value);
	if (!obj)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL syncobj");
	struct swgpu_device *dev = obj->dev;

	pthread_mutex_lock(&dev->lock);
	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		if (value <= obj->value) {
			uint64_t cur = obj->value;
			pthread_mutex_unlock(&dev->lock);
			return DEV_ERR(dev, SWGPU_ERR_TIMELINE_REWIND,
			               "signal %llu <= current %llu",
			               (unsigned long long)value,
			               (unsigned long long)cur);
		}
		obj->value = value;
		syncobj_share_publish(obj);
	} else {
		if (obj->payload == PAYLOAD_PENDING)
			job_unref(obj->payload_job);
		obj->payload = PAYLOAD_SIGNALED;
		obj->payload_job = NULL;
		obj->error = false;
	}
	syncobj_mirror_publish(obj);
	atomic_fetch_add_explicit(&dev->event_serial, 1,
	                          memory_order_release);
	sched_run(dev);
	syncobj_wake_waiters(obj, false);
	pthread_mutex_unlock(&dev->lock);
	dev_wake_gpu(dev);
	return SWGPU_OK;
}

swgpu_result
swgpu_syncobj_reset(swgpu_syncobj *obj)
{
	if (remote_is(obj))
		return rc_syncobj_reset(obj);
	if (!obj)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL syncobj");
	struct swgpu_device *dev = obj->dev;
	if (obj->type != SWGPU_SYNCOBJ_BINARY)
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		               "reset of a timeline");
	pthread_mutex_lock(&dev->lock);
	if (obj->payload == PAYLOAD_PENDING)
		job_unref(obj->payload_job);
	obj->payload = PAYLOAD_NONE;
	obj->payload_job = NULL;
	obj->error = false;
	syncobj_mirror_publish(obj);
	pthread_mutex_unlock(&dev->lock);
	return SWGPU_OK;
}

swgpu_result
swgpu_syncobj_query(const swgpu_syncobj *obj, uint64_t *value)
{
	if (remote_is(obj))
		return rc_syncobj_query(obj, value);
	if (!obj || !value)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL syncobj or value");
	struct swgpu_device *dev = obj->dev;
	swgpu_result r = SWGPU_OK;

	pthread_mutex_lock(&dev->lock);
	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		*value = obj->value;
		if (obj->error)
			r = SWGPU_ERR_CONTEXT_LOST;
	} else {
		*value = obj->payload == PAYLOAD_SIGNALED;
		if (obj->payload == PAYLOAD_SIGNALED && obj->error)
			r = SWGPU_ERR_CONTEXT_LOST;
	}
	pthread_mutex_unlock(&dev->lock);
	return r;
}

static enum wait_state
obj_wait_state(const struct swgpu_syncobj *obj, uint64_t value,
               uint32_t flags)
{
	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		if (obj->value >= value)
			return WS_OK;
		/* A signal of a value >= the point was submitted: it is
		 * still pending / in a ring (else value would be there, or
		 * the error set). */
		if ((flags & SWGPU_WAIT_AVAILABLE) &&
		    obj->submitted_max >= value)
			return WS_OK;
		/* A failed signaller: nobody waits forever on a lost
		 * context's timeline. */
		return obj->error ? WS_FAILED : WS_NOT_YET;
	}
	switch (obj->payload) {
	case PAYLOAD_SIGNALED:
		return obj->error ? WS_FAILED : WS_OK;
	case PAYLOAD_PENDING:
		return (flags & SWGPU_WAIT_AVAILABLE) ? WS_OK : WS_NOT_YET;
	case PAYLOAD_NONE:
	default:
		return (flags & SWGPU_WAIT_FOR_SUBMIT) ? WS_NOT_YET :
		                                         WS_NOT_SUBMITTED;
	}
}

/* What wait_eval_states asks: the state of object i. */
struct wait_args {
	swgpu_syncobj *const *objs;
	const uint64_t *values;
	uint32_t flags;
};

static enum wait_state
wait_args_state(const void *p, uint32_t i)
{
	const struct wait_args *a = p;

	return obj_wait_state(a->objs[i], a->values ? a->values[i] : 0,
	                      a->flags);
}

/* Evaluate the whole wait; *done false means keep waiting. */
static swgpu_result
wait_eval(swgpu_syncobj *const *objs, const uint64_t *values,
          uint32_t count, uint32_t flags, uint32_t *first, bool *done)
{
	struct wait_args a = { objs, values, flags };

	return wait_eval_states(wait_args_state, &a, count, flags, first,
	                        done);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

swgpu_result
swgpu_syncobj_wait(swgpu_syncobj *const *objs, const uint64_t *values,
                   uint32_t count, uint32_t wait_flags, uint64_t deadline_ns,
                   uint32_t *first_signaled)
{
	if (objs && count && remote_is(objs[0]))
		return rc_syncobj_wait(objs, values, count, wait_flags, deadline_ns, first_signaled);
	if (!objs || !count || !objs[0])
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "no sync objects");
	struct swgpu_device *dev = objs[0]->dev;
	for (uint32_t i = 0; i < count; i++) {
		if (!objs[i] || objs[i]->dev != dev)
			return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
			               "object %u NULL or of another device",
			               i);
		if (objs[i]->type == SWGPU_SYNCOBJ_TIMELINE && !values)
			return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
			               "timeline wait without values");
	}
	uint64_t spin_now = swgpu_now_ns();
	uint64_t spin_end = swgpu_add_sat(spin_now,
	                                  spin_budget_get(&dev->host_spin,
	                                                  spin_now));
	struct host_wait hw_local[8];
	struct host_wait *hw = hw_local;
	bool registered = false;
	swgpu_result r;
	bool done;

	if (count > SWGPU_ARRAY_SIZE(hw_local)) {
		hw = malloc(count * sizeof(*hw));
		if (!hw)
			return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY,
			               "wait of %u objects", count);
	}
	pthread_mutex_lock(&dev->lock);
	dev_api_wait_enter(dev);
	for (;;) {
		r = wait_eval(objs, values, count, wait_flags, first_signaled,
		              &done);
		if (done)
			break;
		if (atomic_load(&dev->closing)) {
			/* Nobody can signal any more. */
			r = SWGPU_ERR_CONTEXT_LOST;
			break;
		}
		uint64_t now = swgpu_now_ns();
		if (now >= deadline_ns) {
			r = SWGPU_TIMEOUT;
			break;
		}
		if (now < spin_end) {
			/* Spin without the lock until something completes. */
			uint64_t serial = atomic_load_explicit(
				&dev->event_serial, memory_order_acquire);
			pthread_mutex_unlock(&dev->lock);
			spin_enter();
			while (atomic_load_explicit(&dev->event_serial,
			                            memory_order_acquire) ==
			               serial &&
			       (now = swgpu_now_ns()) < spin_end &&
			       now < deadline_ns &&
			       !atomic_load_explicit(&dev->closing,
			                             memory_order_relaxed))
				cpu_relax();
			spin_leave();
			/* Something completed while we polled: a hit. */
			spin_budget_feedback(&dev->host_spin,
			                     atomic_load_explicit(
			                             &dev->event_serial,
			                             memory_order_relaxed) !=
			                             serial);
			pthread_mutex_lock(&dev->lock);
			continue;
		}
		if (!registered) {
			for (uint32_t i = 0; i < count; i++) {
				hw[i].value = values ? values[i] : 0;
				dlist_add_tail(&hw[i].link,
				               &objs[i]->host_waits);
			}
			registered = true;
		}
		cond_wait_until(&dev->host_cond, &dev->lock, deadline_ns);
	}
	if (registered)
		for (uint32_t i = 0; i < count; i++)
			dlist_del(&hw[i].link);
	if (hw != hw_local)
		free(hw);
	bool debug = dev->cfg.debug;
	device_fault_dump_locked(dev);
	dev_api_wait_leave(dev);
	/* From here on dev may be freed by a concurrent close. */
	pthread_mutex_unlock(&dev->lock);
	if (r < 0)
		return SWGPU_ERR(debug, r, "syncobj wait");
	return r;
}

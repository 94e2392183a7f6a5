/* SPDX-License-Identifier: MIT */
/*
 * swgpud: sync objects, queues and their waits. A wait is first tried on
 * the session's thread for a moment (most finish there); one that goes
 * on moves to a worker thread of its own and waits in slices of
 * PROTO_WAIT_SLICE_NS, so that a closing session or an object destroyed
 * under it ends the wait within a slice. The worker holds a ref on every
 * object it waits on.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/session.h"
#include "util/util.h"

/* How long a wait may hold the session's thread before moving to a
 * worker: long enough for a short job, short for the client's other
 * calls. */
#define INLINE_WAIT_NS 100000ull
#define MAX_WAIT_OBJS PROTO_MAX_SYNC_POINTS

struct wait_job {
	struct session *s;
	uint64_t tag;
	uint32_t op;
	uint64_t deadline;
	uint32_t count;
	struct sd_entry *ents[MAX_WAIT_OBJS];
	/* queue waits */
	uint64_t seqno;
	/* sync waits */
	swgpu_syncobj *objs[MAX_WAIT_OBJS];
	uint64_t values[MAX_WAIT_OBJS];
	uint32_t flags;
	uint32_t first;
	bool no_values;              /* the client passed values NULL */
};

static swgpu_result
wait_until(struct wait_job *j, uint64_t deadline)
{
	if (j->op == PROTO_QUEUE_WAIT)
		return swgpu_queue_wait(j->ents[0]->obj, j->seqno, deadline);
	return swgpu_syncobj_wait(j->objs, j->no_values ? NULL : j->values,
	                          j->count, j->flags,
	                          deadline, &j->first);
}

static void
job_free(struct wait_job *j)
{
	for (uint32_t i = 0; i < j->count; i++)
		sd_put(j->s, j->ents[i]);
	free(j);
}

/* Whether the wait must end now: the session closes or one of its
 * objects was destroyed. */
static bool
job_abandoned(struct wait_job *j)
{
	bool gone;

	pthread_mutex_lock(&j->s->lock);
	gone = j->s->closing;
	for (uint32_t i = 0; i < j->count && !gone; i++)
		gone = j->ents[i]->dead;
	pthread_mutex_unlock(&j->s->lock);
	return gone;
}

static void
job_reply(struct wait_job *j, swgpu_result r)
{
	struct wire_wr out;

	wire_wr_init(&out);
	if (r == SWGPU_OK && j->op == PROTO_SYNC_WAIT)
		wire_put_u32(&out, j->first);
	sd_reply(j->s, j->tag, j->op, r, &out, -1);
	wire_wr_fini(&out);
}

static void *
wait_worker(void *p)
{
	struct wait_job *j = p;
	struct session *s = j->s;
	swgpu_result r;

	for (;;) {
		uint64_t now = swgpu_now_ns();
		uint64_t slice = now + PROTO_WAIT_SLICE_NS;

		r = wait_until(j, slice < j->deadline ? slice : j->deadline);
		if (r != SWGPU_TIMEOUT || swgpu_now_ns() >= j->deadline)
			break;
		if (job_abandoned(j)) {
			r = SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG, "client %d: "
			              "object destroyed during a wait",
			              (int)s->pid);
			break;
		}
	}
	job_reply(j, r);
	job_free(j);
	pthread_mutex_lock(&s->lock);
	s->workers--;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Try the wait briefly here; else hand j to a worker (SD_DEFERRED). */
static swgpu_result
run_wait(struct sd_req *rq, struct wait_job *j)
{
	uint64_t inline_end = swgpu_now_ns() + INLINE_WAIT_NS;
	swgpu_result r = wait_until(j, inline_end < j->deadline ? inline_end
	                                                        : j->deadline);
	pthread_attr_t attr;
	pthread_t t;

	if (r != SWGPU_TIMEOUT || swgpu_now_ns() >= j->deadline) {
		if (r == SWGPU_OK && j->op == PROTO_SYNC_WAIT)
			wire_put_u32(&rq->out, j->first);
		job_free(j);
		return r;
	}
	j->s = rq->s;
	j->tag = rq->h.tag;
	pthread_mutex_lock(&rq->s->lock);
	rq->s->workers++;
	pthread_mutex_unlock(&rq->s->lock);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, wait_worker, j) != 0) {
		pthread_attr_destroy(&attr);
		pthread_mutex_lock(&rq->s->lock);
		rq->s->workers--;
		pthread_mutex_unlock(&rq->s->lock);
		job_free(j);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	pthread_attr_destroy(&attr);
	return SD_DEFERRED;
}

/* ---- sync objects ---- */

static swgpu_result
sync_wait(struct sd_req *rq)
{
	uint32_t count = wire_get_u32(&rq->rd);
	struct wait_job *j;

	if (count == 0 || count > MAX_WAIT_OBJS) {
		/* read nothing more: the request is refused as malformed */
		rq->rd.bad = true;
		return SWGPU_ERR_INVALID_ARG;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return SWGPU_ERR_NO_HOST_MEMORY;
	j->s = rq->s;
	j->op = PROTO_SYNC_WAIT;
	j->flags = wire_get_u32(&rq->rd);
	j->deadline = wire_get_u64(&rq->rd);
	j->no_values = !wire_get_u32(&rq->rd);
	{
		uint64_t ids[MAX_WAIT_OBJS];

		for (uint32_t i = 0; i < count; i++) {
			ids[i] = wire_get_u64(&rq->rd);
			j->values[i] = wire_get_u64(&rq->rd);
		}
		if (!wire_rd_done(&rq->rd)) {
			free(j);
			return SWGPU_ERR_INVALID_ARG;
		}
		for (uint32_t i = 0; i < count; i++) {
			j->ents[i] = sd_get(rq->s, ids[i], PROTO_KIND_SYNC);
			if (!j->ents[i]) {
				job_free(j);
				return BAD_ID(rq, "sync object");
			}
			j->count++;
			j->objs[i] = j->ents[i]->obj;
		}
	}
	return run_wait(rq, j);
}

swgpu_result
serve_sync(struct sd_req *rq)
{
	struct session *s = rq->s;
	struct sd_entry *e;
	swgpu_result r;
	uint64_t id;

	switch (rq->h.op) {
	case PROTO_SYNC_CREATE: {
		swgpu_syncobj_type type = (swgpu_syncobj_type)
		                          wire_get_u64(&rq->rd);
		uint64_t init = wire_get_u64(&rq->rd);
		swgpu_syncobj *obj;

		ARGS_DONE(rq);
		r = swgpu_syncobj_create(s->dev, type, init, &obj);
		if (r != SWGPU_OK)
			return r;
		r = sd_add_reply(rq, PROTO_KIND_SYNC, obj, NULL);
		if (r == SWGPU_OK)
			sd_fast_attach(rq);
		return r;
	}
	case PROTO_SYNC_IMPORT_FD: {
		swgpu_syncobj *obj;

		ARGS_DONE(rq);
		if (rq->h.nfds != 1)
			return SWGPU_ERR_BAD_HANDLE;
		r = swgpu_syncobj_import_fd(s->dev, rq->fds[0], &obj);
		if (r != SWGPU_OK)
			return r;
		r = sd_add_reply(rq, PROTO_KIND_SYNC, obj, NULL);
		if (r == SWGPU_OK) {
			sd_fast_attach(rq);
			wire_put_u32(&rq->out,
			             (uint32_t)swgpu_syncobj_get_type(obj));
		}
		return r;
	}
	case PROTO_SYNC_WAIT:
		return sync_wait(rq);
	}
	id = wire_get_u64(&rq->rd);
	if (rq->h.op == PROTO_SYNC_DESTROY) {
		ARGS_DONE(rq);
		r = sd_destroy(s, id, PROTO_KIND_SYNC);
		return r == SWGPU_OK ? r : BAD_ID(rq, "sync object");
	}
	{
		uint64_t value = rq->h.op == PROTO_SYNC_SIGNAL
		                 ? wire_get_u64(&rq->rd) : 0;

		ARGS_DONE(rq);
		e = sd_get(s, id, PROTO_KIND_SYNC);
		if (!e)
			return BAD_ID(rq, "sync object");
		switch (rq->h.op) {
		case PROTO_SYNC_SIGNAL:
			r = swgpu_syncobj_signal(e->obj, value);
			break;
		case PROTO_SYNC_RESET:
			r = swgpu_syncobj_reset(e->obj);
			break;
		case PROTO_SYNC_QUERY:
			r = swgpu_syncobj_query(e->obj, &value);
			wire_put_u64(&rq->out, value);
			break;
		default: { /* PROTO_SYNC_EXPORT_FD */
			int fd = -1;

			r = swgpu_syncobj_export_fd(e->obj, &fd);
			rq->out_fd = fd;
			break;
		}
		}
		sd_put(s, e);
		return r;
	}
}

/* ---- queues ---- */

/* Sync points of a submit, resolved in the session (refs in ents). */
static bool
get_points(struct sd_req *rq, swgpu_sync_point *pts, uint32_t n,
           struct sd_entry **ents, uint32_t *ent_count)
{
	uint64_t ids[MAX_WAIT_OBJS];

	for (uint32_t i = 0; i < n; i++) {
		ids[i] = wire_get_u64(&rq->rd);
		pts[i].value = wire_get_u64(&rq->rd);
		pts[i].flags = wire_get_u32(&rq->rd);
	}
	if (rq->rd.bad)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		struct sd_entry *e = sd_get(rq->s, ids[i], PROTO_KIND_SYNC);

		pts[i].obj = e ? e->obj : NULL;
		if (e)
			ents[(*ent_count)++] = e;
	}
	return true;
}

static swgpu_result
queue_submit(struct sd_req *rq, struct sd_entry *q)
{
	uint32_t nib = wire_get_u32(&rq->rd), nw, ns, ents_n = 0;
	const swgpu_ib *ibs_src;
	swgpu_ib *ibs = NULL;
	swgpu_sync_point waits[MAX_WAIT_OBJS], signals[MAX_WAIT_OBJS];
	struct sd_entry *ents[2 * MAX_WAIT_OBJS];
	swgpu_submit_info info = { 0 };
	uint64_t seqno = 0;
	swgpu_result r = SWGPU_ERR_INVALID_ARG;

	if (nib > (1u << 20)) {
		rq->rd.bad = true;
		return r;
	}
	ibs_src = wire_get_ptr(&rq->rd, sizeof(swgpu_ib) * nib);
	nw = wire_get_u32(&rq->rd);
	if (nw > MAX_WAIT_OBJS || !get_points(rq, waits, nw, ents, &ents_n))
		goto bad;
	ns = wire_get_u32(&rq->rd);
	if (ns > MAX_WAIT_OBJS || !get_points(rq, signals, ns, ents, &ents_n))
		goto bad;
	if (!wire_rd_done(&rq->rd))
		goto bad;
	if (ents_n != nw + ns) {
		r = BAD_ID(rq, "sync object");
		if (rq->from_ring)
			sd_fast_submit_failed(rq->s, q, NULL, r);
		goto out;
	}
	/* The payload is not aligned for swgpu_ib: copy. */
	if (nib) {
		ibs = malloc(sizeof(*ibs) * nib);
		if (!ibs) {
			r = SWGPU_ERR_NO_HOST_MEMORY;
			if (rq->from_ring)
				sd_fast_submit_failed(rq->s, q, NULL, r);
			goto out;
		}
		memcpy(ibs, ibs_src, sizeof(*ibs) * nib);
	}
	info.ibs = ibs;
	info.ib_count = nib;
	info.waits = waits;
	info.wait_count = nw;
	info.signals = signals;
	info.signal_count = ns;
	r = swgpu_submit(q->obj, &info, &seqno);
	if (r == SWGPU_OK)
		wire_put_u64(&rq->out, seqno);
	else if (rq->from_ring)
		sd_fast_submit_failed(rq->s, q, &info, r);
	goto out;
bad:
	rq->rd.bad = true;
out:
	free(ibs);
	for (uint32_t i = 0; i < ents_n; i++)
		sd_put(rq->s, ents[i]);
	return r;
}

swgpu_result
serve_queue(struct sd_req *rq)
{
	struct session *s = rq->s;
	uint64_t id = wire_get_u64(&rq->rd);
	struct sd_entry *e;
	swgpu_result r = SWGPU_OK;

	if (rq->h.op == PROTO_QUEUE_CREATE) {
		swgpu_engine_class cls = (swgpu_engine_class)
		                         wire_get_u64(&rq->rd);
		uint32_t index = (uint32_t)wire_get_u64(&rq->rd);
		swgpu_priority prio = (swgpu_priority)wire_get_u64(&rq->rd);
		swgpu_queue *q;

		ARGS_DONE(rq);
		e = sd_get(s, id, PROTO_KIND_CTX);
		if (!e)
			return BAD_ID(rq, "context");
		r = swgpu_queue_create(e->obj, cls, index, prio, &q);
		/* the queue's entry keeps our ref on its context */
		if (r == SWGPU_OK)
			r = sd_add_reply(rq, PROTO_KIND_QUEUE, q, e);
		if (r == SWGPU_OK) {
			wire_put_u32(&rq->out, swgpu_queue_id(q));
			sd_fast_attach(rq);
		}
		sd_put(s, e);
		return r;
	}
	if (rq->h.op == PROTO_QUEUE_DESTROY) {
		ARGS_DONE(rq);
		r = sd_destroy(s, id, PROTO_KIND_QUEUE);
		return r == SWGPU_OK ? r : BAD_ID(rq, "queue");
	}
	if (rq->h.op == PROTO_QUEUE_SUBMIT) {
		e = sd_get(s, id, PROTO_KIND_QUEUE);
		if (!e) {
			/* a bad id is not a malformed request */
			rq->rd.p = rq->rd.end;
			return BAD_ID(rq, "queue");
		}
		r = queue_submit(rq, e);
		sd_put(s, e);
		return r;
	}
	if (rq->h.op == PROTO_QUEUE_WAIT) {
		uint64_t seqno = wire_get_u64(&rq->rd);
		uint64_t deadline = wire_get_u64(&rq->rd);
		struct wait_job *j;

		ARGS_DONE(rq);
		e = sd_get(s, id, PROTO_KIND_QUEUE);
		if (!e)
			return BAD_ID(rq, "queue");
		j = calloc(1, sizeof(*j));
		if (!j) {
			sd_put(s, e);
			return SWGPU_ERR_NO_HOST_MEMORY;
		}
		j->s = s;
		j->op = PROTO_QUEUE_WAIT;
		j->ents[0] = e;
		j->count = 1;
		j->seqno = seqno;
		j->deadline = deadline;
		return run_wait(rq, j);
	}
	{
		uint64_t a = rq->h.op == PROTO_QUEUE_FAULT
		             ? wire_get_u64(&rq->rd) : 0;
		uint64_t b = rq->h.op == PROTO_QUEUE_FAULT
		             ? wire_get_u64(&rq->rd) : 0;

		ARGS_DONE(rq);
		e = sd_get(s, id, PROTO_KIND_QUEUE);
		if (!e)
			return BAD_ID(rq, "queue");
		if (rq->h.op == PROTO_QUEUE_COMPLETED)
			wire_put_u64(&rq->out, swgpu_queue_completed(e->obj));
		else if (rq->h.op == PROTO_QUEUE_ENGINE)
			wire_put_u64(&rq->out, swgpu_queue_engine(e->obj));
		else
			r = swgpu_debug_inject_fault(e->obj, a,
			                             (swgpu_fault_kind)b);
		sd_put(s, e);
		return r;
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Shared mode's fast path, client side (remote/fast_page.h): submits
 * become ring records and a doorbell write (only while the daemon
 * sleeps); queue and sync object state is read from the daemon's
 * mirrors, so a reached wait, a fence poll or a completed-seqno query
 * costs no request, and an unreached wait sleeps on the page's futex.
 *
 * A ring submit gets no reply: its seqno is the queue's next one. So it
 * may only carry what cannot fail in the daemon once checked here: a
 * binary wait (NOT_SUBMITTED depends on the scheduler's state when the
 * daemon takes the job) keeps the request. Should the daemon still fail
 * one (out of memory), it loses the queue's context, and the waits say
 * CONTEXT_LOST (fast_ring.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kmd/wait_eval.h"
#include "remote/client.h"
#include "util/futex.h"
#include "util/spin.h"
#include "util/util.h"

/* Sleeps in slices this long, to notice a daemon that died. */
#define SLEEP_SLICE_NS 50000000ull
/* Waits poll the mirrors this long before sleeping (adaptive). */
#define WAIT_SPIN_NS 50000u

struct rc_fast {
	struct fast_page *page;
	const struct fast_gpu_page *gpu; /* read only; NULL: none */
	int doorbell;
	/* The engine the last ring submit's queue ran on: whom a signal or
	 * a reset wakes (submit lock). */
	uint32_t last_engine;
	/* Who was told of the records (SWGPU_DEBUG's line; submit lock):
	 * an engine woken, an engine idle (nobody woken), the session
	 * thread woken, the session thread awake. */
	uint64_t told[4];
	pthread_mutex_t submit_lock;
	struct spin_budget spin;
	/* Device close: waiters on the page leave (CONTEXT_LOST, as in
	 * process) before it and the objects they read go away. */
	atomic_bool closing;
	atomic_int waiters;          /* threads inside a fast wait */
};

/* spin_peer_add's count: the daemon's engines polling for records now
 * (IDLE on the GPU page: between their look at the rings and their
 * sleep, which is their spin). */
static unsigned
engines_polling(void *arg)
{
	const struct fast_gpu_page *g = arg;
	unsigned n = 0;

	for (uint32_t e = 0; e < g->engine_count && e < SWGPU_MAX_ENGINES;
	     e++)
		n += atomic_load_explicit(&g->engine_state[e],
		                          memory_order_relaxed) ==
		     FAST_ENGINE_IDLE;
	return n;
}

void
rc_fast_open(struct rc_dev *d, int memfd, int doorbell, int gpu_fd)
{
	struct rc_fast *f = calloc(1, sizeof(*f));
	struct fast_page *p = MAP_FAILED;
	struct fast_gpu_page *g = MAP_FAILED;

	if (f)
		p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE, MAP_SHARED,
		         memfd, 0);
	close(memfd);
	if (gpu_fd >= 0) {
		g = mmap(NULL, sizeof(*g), PROT_READ, MAP_SHARED, gpu_fd, 0);
		close(gpu_fd);
		if (g != MAP_FAILED && (g->magic != FAST_GPU_MAGIC ||
		                        g->engine_count > SWGPU_MAX_ENGINES)) {
			munmap(g, sizeof(*g));
			g = MAP_FAILED;
		}
	}
	if (p == MAP_FAILED || p->magic != FAST_PAGE_MAGIC ||
	    p->ring_bytes != FAST_RING_BYTES) {
		swgpu_log("shared mode: the daemon's fast page is unusable: "
		          "every call is a request");
		if (p != MAP_FAILED)
			munmap(p, sizeof(*p));
		if (g != MAP_FAILED)
			munmap(g, sizeof(*g));
		close(doorbell);
		free(f);
		return;
	}
	f->page = p;
	f->gpu = g != MAP_FAILED ? g : NULL;
	if (f->gpu)
		spin_peer_add(engines_polling, (void *)f->gpu);
	f->doorbell = doorbell;
	pthread_mutex_init(&f->submit_lock, NULL);
	spin_budget_init(&f->spin, WAIT_SPIN_NS);
	d->fast = f;
}

/* Wake everyone asleep on the page's words. */
static void
wake_all(struct fast_page *p)
{
	atomic_fetch_add(&p->events.seq, 1);
	atomic_fetch_add(&p->head_seq, 1);
	futex_wake_all_shared(&p->events.seq);
	futex_wake_all_shared(&p->head_seq);
}

void
rc_fast_quiesce(struct rc_dev *d)
{
	struct rc_fast *f = d->fast;
	uint64_t until = swgpu_now_ns() + 5000000000ull;

	if (!f)
		return;
	atomic_store(&f->closing, true);
	/* Each leaves at its next look: at once once woken. */
	while (atomic_load(&f->waiters) && swgpu_now_ns() < until) {
		wake_all(f->page);
		usleep(200);
	}
	if (atomic_load(&f->waiters))
		swgpu_log("shared mode: %d threads still waiting at device "
		          "close", atomic_load(&f->waiters));
}

void
rc_fast_close(struct rc_dev *d)
{
	struct rc_fast *f = d->fast;

	if (!f)
		return;
	munmap(f->page, sizeof(*f->page));
	if (f->gpu) {
		spin_peer_remove(engines_polling, (void *)f->gpu);
		munmap((void *)f->gpu, sizeof(*f->gpu));
	}
	close(f->doorbell);
	pthread_mutex_destroy(&f->submit_lock);
	free(f);
	d->fast = NULL;
}

void
rc_fast_log_stats(struct rc_dev *d)
{
	char line[1024];
	size_t n = 0;
	uint64_t total = 0;

	for (uint32_t op = 1; op < PROTO_OP_COUNT; op++) {
		uint64_t c = atomic_load(&d->requests[op]);

		total += c;
		if (c && n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			                      " %s %llu", proto_op_name(op),
			                      (unsigned long long)c);
	}
	swgpu_log("shared mode: %llu requests (%s), fast path: %llu ring "
	          "submits, %llu ring timeline signals, %llu ring resets, "
	          "%llu waits and %llu queries without a request%s",
	          (unsigned long long)total, n ? line + 1 : "none",
	          (unsigned long long)atomic_load(&d->ring_submits),
	          (unsigned long long)atomic_load(&d->ring_signals),
	          (unsigned long long)atomic_load(&d->ring_resets),
	          (unsigned long long)atomic_load(&d->local_waits),
	          (unsigned long long)atomic_load(&d->local_queries),
	          d->fast ? "" : " (no fast page)");
	if (d->fast)
		swgpu_log("shared mode: records announced to an engine woken %llu, "
		          "an idle engine %llu, the session thread woken %llu, "
		          "awake %llu",
		          (unsigned long long)d->fast->told[0],
		          (unsigned long long)d->fast->told[1],
		          (unsigned long long)d->fast->told[2],
		          (unsigned long long)d->fast->told[3]);
}

struct mirror_slot *
rc_fast_slot(struct rc_dev *d, uint32_t kind, uint32_t slot)
{
	if (!d->fast)
		return NULL;
	if (kind == PROTO_KIND_CTX && slot < FAST_CTX_SLOTS)
		return &d->fast->page->contexts[slot];
	if (kind == PROTO_KIND_QUEUE && slot < FAST_QUEUE_SLOTS)
		return &d->fast->page->queues[slot];
	if (kind == PROTO_KIND_SYNC && slot < FAST_SYNC_SLOTS)
		return &d->fast->page->syncs[slot];
	return NULL;
}

void
rc_fast_submit_lock(struct rc_dev *d)
{
	if (d->fast)
		pthread_mutex_lock(&d->fast->submit_lock);
}

void
rc_fast_submit_unlock(struct rc_dev *d)
{
	if (d->fast)
		pthread_mutex_unlock(&d->fast->submit_lock);
}

/* Whether the daemon is still there (a wait on its mirrors alone would
 * never learn that it died). */
static bool
daemon_alive(struct rc_dev *d)
{
	struct pollfd pf = { .fd = d->sock, .events = POLLRDHUP };
	bool dead;

	pthread_mutex_lock(&d->lock);
	dead = d->dead;
	pthread_mutex_unlock(&d->lock);
	if (dead)
		return false;
	return poll(&pf, 1, 0) == 0 ||
	       !(pf.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL));
}

/* ---- the ring ---- */

static void
ring_put(struct fast_page *p, uint64_t pos, uint32_t kind, const void *data,
         uint32_t size)
{
	struct fast_record hd = { .size = size, .kind = kind };
	uint8_t *at = p->ring + pos % FAST_RING_BYTES;

	memcpy(at, &hd, sizeof(hd));
	if (size && data)
		memcpy(at + sizeof(hd), data, size);
}

/* After a record: wake whoever takes it (fast_page.h). engine: the one
 * the record's queue ran on last. The tail store is seq_cst, and so are
 * the bell's bump and the state's load: an engine that says idle or
 * asleep after that load sees the record before it sleeps. */
static void
ring_doorbell(struct rc_fast *f, uint32_t engine)
{
	struct fast_page *p = f->page;

	if (f->gpu && atomic_load_explicit(&p->bells_on,
	                                   memory_order_relaxed) &&
	    engine < f->gpu->engine_count) {
		uint32_t state;

		atomic_fetch_add(&p->bell[engine], 1);
		state = atomic_load(&f->gpu->engine_state[engine]);
		if (state == FAST_ENGINE_ASLEEP) {
			futex_wake_one(&p->bell[engine], false);
			f->told[0]++;
			return;
		}
		if (state == FAST_ENGINE_IDLE) {
			f->told[1]++;
			return; /* it looks at the rings before sleeping */
		}
		/* Busy in a job, maybe a long one: the session thread
		 * takes it (a waiting HIGH job must not wait for it). */
	}
	if (atomic_load(&p->daemon_idle)) {
		uint64_t one = 1;

		if (write(f->doorbell, &one, sizeof(one)) < 0 &&
		    errno != EAGAIN)
			swgpu_log("shared mode: doorbell: %s",
			          strerror(errno));
		f->told[2]++;
	} else {
		f->told[3]++;
	}
}

/* ring_push's engine for a record nobody needs to take at once (a
 * reset: this client's view of it is right already; the next record, a
 * request or a wait for the ring's head tells them). */
#define TELL_NOBODY UINT32_MAX

/* Append one record; false when it does not fit now (the caller makes
 * the call a request: the daemon serves the ring first). Submit lock
 * held: one writer. */
static bool
ring_push(struct rc_fast *f, uint32_t kind, const void *data, uint32_t size,
          uint32_t engine)
{
	struct fast_page *p = f->page;
	uint64_t need = FAST_ALIGN(sizeof(struct fast_record) + size);
	uint64_t tail = atomic_load_explicit(&p->ring_tail,
	                                     memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&p->ring_head,
	                                     memory_order_acquire);
	uint64_t off = tail % FAST_RING_BYTES, skip = 0;

	if (need > FAST_RING_BYTES / 4)
		return false;
	if (off + need > FAST_RING_BYTES)
		skip = FAST_RING_BYTES - off;
	if (tail + skip + need - head > FAST_RING_BYTES)
		return false;
	if (skip) {
		ring_put(p, tail, FAST_REC_SKIP, NULL,
		         (uint32_t)(skip - sizeof(struct fast_record)));
		tail += skip;
	}
	ring_put(p, tail, kind, data, size);
	/* seq_cst: pairs with the daemon's idle store (session thread)
	 * or state store (engine) then tail load. */
	atomic_store(&p->ring_tail, tail + need);
	if (engine != TELL_NOBODY)
		ring_doorbell(f, engine);
	return true;
}

swgpu_result
rc_fast_submit(struct rc_queue *q, const swgpu_submit_info *info,
               const struct wire_wr *payload, uint64_t *seqno_out)
{
	struct rc_dev *d = q->o.dev;
	struct rc_fast *f = d->fast;
	uint64_t seqno;

	if (!f || !q->mirror || payload->oom || payload->len > UINT32_MAX)
		return RC_FAST_NOT_TAKEN;
	for (uint32_t i = 0; i < info->wait_count; i++) {
		const struct rc_sync *s = (const void *)info->waits[i].obj;

		if (s->type == SWGPU_SYNCOBJ_BINARY)
			return RC_FAST_NOT_TAKEN;
	}
	/* The daemon's own checks (swgpu_submit), made here: it cannot
	 * answer this one. */
	for (uint32_t i = 0; i < info->ib_count; i++) {
		const swgpu_ib *ib = &info->ibs[i];

		if (!ib->va || (ib->va & 3) || !ib->size_dw ||
		    ib->size_dw > d->info.max_ib_size_dw)
			return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
			                 "ib %u: va 0x%llx size_dw %u", i,
			                 (unsigned long long)ib->va,
			                 ib->size_dw);
	}
	if (atomic_load_explicit(&q->mirror->flags, memory_order_acquire) &
	    MIRROR_LOST)
		return SWGPU_ERR(d->debug, SWGPU_ERR_CONTEXT_LOST,
		                 "queue %u: its context is lost", q->queue_id);
	f->last_engine = atomic_load_explicit(&q->mirror->engine,
	                                      memory_order_relaxed);
	if (!ring_push(f, FAST_REC_SUBMIT, payload->buf,
	               (uint32_t)payload->len, f->last_engine))
		return RC_FAST_NOT_TAKEN;
	atomic_fetch_add_explicit(&d->ring_submits, 1, memory_order_relaxed);
	seqno = atomic_load_explicit(&q->submitted, memory_order_relaxed) + 1;
	atomic_store_explicit(&q->submitted, seqno, memory_order_release);
	if (seqno_out)
		*seqno_out = seqno;
	return SWGPU_OK;
}

/* The value a timeline's waits and queries see: the daemon's, or the
 * largest this client signalled through the ring (the daemon serves it
 * just after; until then it is what the value is for this client). */
static uint64_t
timeline_value(const struct rc_sync *s, uint64_t mirror_value)
{
	uint64_t mine = atomic_load_explicit(&s->host_signaled,
	                                     memory_order_acquire);

	return mine > mirror_value ? mine : mirror_value;
}

swgpu_result
rc_fast_sync_signal(struct rc_sync *s, uint64_t value)
{
	struct rc_dev *d = s->o.dev;
	struct fast_signal rec = { .sync_id = s->o.id, .value = value };
	uint64_t cur;

	if (!d->fast || !s->mirror || s->type != SWGPU_SYNCOBJ_TIMELINE ||
	    atomic_load_explicit(&s->shared, memory_order_acquire))
		return RC_FAST_NOT_TAKEN;
	/* The mirror is at most the daemon's value: a rewind here is one
	 * there too. A value above it the daemon may still find reached,
	 * but only by a GPU signal racing this call (at or above value,
	 * so the object reads at least value either way): it ignores the
	 * record then (fast_ring.c). */
	cur = timeline_value(s, atomic_load_explicit(&s->mirror->value,
	                                             memory_order_acquire));
	if (value <= cur)
		return SWGPU_ERR(d->debug, SWGPU_ERR_TIMELINE_REWIND,
		                 "signal %llu <= current %llu",
		                 (unsigned long long)value,
		                 (unsigned long long)cur);
	if (!ring_push(d->fast, FAST_REC_SIGNAL, &rec, sizeof(rec),
	               d->fast->last_engine))
		return RC_FAST_NOT_TAKEN;
	atomic_store_explicit(&s->host_signaled, value, memory_order_release);
	atomic_fetch_add_explicit(&d->ring_signals, 1, memory_order_relaxed);
	/* Our own waiters asleep on the page re-evaluate (a wait for this
	 * value in another thread of ours). */
	if (atomic_load(&d->fast->page->events.waiters)) {
		atomic_fetch_add(&d->fast->page->events.seq, 1);
		futex_wake_all_shared(&d->fast->page->events.seq);
	}
	return SWGPU_OK;
}

swgpu_result
rc_fast_sync_reset(struct rc_sync *s)
{
	struct rc_dev *d = s->o.dev;
	struct fast_reset rec = { .sync_id = s->o.id };

	/* A timeline's INVALID_ARG comes from the daemon (a request). */
	if (!d->fast || !s->mirror || s->type != SWGPU_SYNCOBJ_BINARY ||
	    atomic_load_explicit(&s->shared, memory_order_acquire))
		return RC_FAST_NOT_TAKEN;
	if (!ring_push(d->fast, FAST_REC_RESET, &rec, sizeof(rec),
	               TELL_NOBODY))
		return RC_FAST_NOT_TAKEN;
	/* Submit lock held: the tail is ours to read. */
	atomic_store_explicit(&s->reset_pos,
	                      atomic_load_explicit(&d->fast->page->ring_tail,
	                                           memory_order_relaxed),
	                      memory_order_release);
	atomic_fetch_add_explicit(&d->ring_resets, 1, memory_order_relaxed);
	return SWGPU_OK;
}

/* A binary object's payload for this client: none while its last ring
 * reset is not served (the mirror still shows what came before). */
static uint64_t
binary_value(const struct rc_dev *d, const struct rc_sync *s,
             uint64_t mirror_value)
{
	uint64_t pos = atomic_load_explicit(&s->reset_pos,
	                                    memory_order_acquire);

	if (pos && atomic_load_explicit(&d->fast->page->ring_head,
	                                memory_order_acquire) < pos)
		return MIRROR_BINARY_NONE;
	return mirror_value;
}

/* ---- waits on the mirrors ---- */

/* One look at what a wait waits for: *done when it is decided. */
typedef swgpu_result (*eval_fn)(void *arg, bool *done);

/* Poll, then sleep on word (bumped at every change), until eval decides,
 * the deadline passes or the daemon is gone. */
static swgpu_result
wait_on(struct rc_dev *d, _Atomic uint32_t *word, _Atomic uint32_t *waiters,
        eval_fn eval, void *arg, uint64_t deadline_ns)
{
	struct rc_fast *f = d->fast;
	uint64_t now = swgpu_now_ns();
	uint64_t spin_end = swgpu_add_sat(now, spin_budget_get(&f->spin, now));
	/* The daemon's liveness is asked once per sleep slice, not before
	 * every sleep of a long wait (a syscall per round trip): a daemon
	 * that died leaves the event word still, so the slice runs out and
	 * the next look finds it gone. */
	uint64_t alive_check = now + SLEEP_SLICE_NS;

	for (;;) {
		uint32_t seq = atomic_load(word);
		bool done;
		swgpu_result r = eval(arg, &done);

		if (done)
			return r;
		if (atomic_load(&f->closing))
			return SWGPU_ERR_CONTEXT_LOST; /* as in process */
		now = swgpu_now_ns();
		if (now >= deadline_ns)
			return SWGPU_TIMEOUT;
		if (now < spin_end) {
			spin_enter();
			atomic_fetch_add_explicit(&f->page->spinning, 1,
			                          memory_order_relaxed);
			while (atomic_load_explicit(word, memory_order_acquire)
			               == seq &&
			       (now = swgpu_now_ns()) < spin_end &&
			       now < deadline_ns &&
			       !atomic_load_explicit(&f->closing,
			                             memory_order_relaxed))
				;
			atomic_fetch_sub_explicit(&f->page->spinning, 1,
			                          memory_order_relaxed);
			spin_leave();
			spin_budget_feedback(&f->spin, atomic_load(word) != seq);
			continue;
		}
		/* Also before a sleep that ends at the deadline: a dead
		 * daemon is CONTEXT_LOST, not a timeout. */
		if (now >= alive_check ||
		    deadline_ns - now < SLEEP_SLICE_NS) {
			if (!daemon_alive(d))
				return SWGPU_ERR(true, SWGPU_ERR_CONTEXT_LOST,
				                 "shared mode: swgpud is gone");
			alive_check = now + SLEEP_SLICE_NS;
		}
		/* seq_cst: a publish after our eval either sees us here
		 * and wakes us, or changed seq before the futex looks. */
		atomic_fetch_add(waiters, 1);
		futex_wait_shared(word, seq,
		                  deadline_ns - now < SLEEP_SLICE_NS
		                  ? deadline_ns : now + SLEEP_SLICE_NS);
		atomic_fetch_sub(waiters, 1);
	}
}

bool
rc_fast_context_ok(struct rc_dev *d, const struct mirror_slot *m)
{
	bool dead;

	if (!m || atomic_load_explicit(&m->value, memory_order_acquire) !=
	          SWGPU_CONTEXT_OK)
		return false;
	pthread_mutex_lock(&d->lock);
	dead = d->dead;
	pthread_mutex_unlock(&d->lock);
	if (!dead)
		atomic_fetch_add_explicit(&d->local_queries, 1,
		                          memory_order_relaxed);
	return !dead;
}

struct queue_wait {
	const struct mirror_slot *m;
	uint64_t seqno;
};

static swgpu_result
queue_eval(void *arg, bool *done)
{
	struct queue_wait *w = arg;
	uint64_t v = atomic_load_explicit(&w->m->value, memory_order_acquire);

	*done = true;
	/* As in process: a lost context fails every wait of its queues. */
	if (atomic_load_explicit(&w->m->flags, memory_order_relaxed) &
	    MIRROR_LOST)
		return SWGPU_ERR_CONTEXT_LOST;
	if (v >= w->seqno)
		return w->seqno && atomic_load_explicit(&w->m->aux,
		                                        memory_order_relaxed)
		                   == w->seqno
		       ? SWGPU_ERR_CONTEXT_LOST : SWGPU_OK;
	*done = false;
	return SWGPU_TIMEOUT;
}

swgpu_result
rc_fast_queue_wait(struct rc_queue *q, uint64_t seqno, uint64_t deadline_ns)
{
	struct rc_dev *d = q->o.dev;
	uint64_t last = atomic_load_explicit(&q->submitted,
	                                     memory_order_acquire);
	struct queue_wait w = { .m = q->mirror, .seqno = seqno ? seqno : last };
	/* After the waiters count drops, a device close may free d and q. */
	bool debug = d->debug;
	uint32_t qid = q->queue_id;
	swgpu_result r;

	if (!d->fast || !q->mirror)
		return RC_FAST_NOT_TAKEN;
	if (w.seqno > last)
		return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
		                 "seqno %llu > last submitted %llu",
		                 (unsigned long long)w.seqno,
		                 (unsigned long long)last);
	atomic_fetch_add_explicit(&d->local_waits, 1, memory_order_relaxed);
	atomic_fetch_add(&d->fast->waiters, 1);
	r = wait_on(d, &d->fast->page->events.seq,
	            &d->fast->page->events.waiters, queue_eval, &w,
	            deadline_ns);
	atomic_fetch_sub(&d->fast->waiters, 1);
	if (r < 0)
		return SWGPU_ERR(debug, r, "queue %u wait %llu", qid,
		                 (unsigned long long)w.seqno);
	return r;
}

swgpu_result
rc_fast_sync_query(const struct rc_sync *s, uint64_t *value)
{
	const struct mirror_slot *m = s->mirror;
	uint64_t v;
	bool error;

	if (!m)
		return RC_FAST_NOT_TAKEN;
	atomic_fetch_add_explicit(&s->o.dev->local_queries, 1,
	                          memory_order_relaxed);
	v = atomic_load_explicit(&m->value, memory_order_acquire);
	error = atomic_load_explicit(&m->flags, memory_order_relaxed) &
	        MIRROR_ERROR;
	if (s->type == SWGPU_SYNCOBJ_TIMELINE) {
		*value = timeline_value(s, v);
		return error ? SWGPU_ERR_CONTEXT_LOST : SWGPU_OK;
	}
	*value = binary_value(s->o.dev, s, v) == MIRROR_BINARY_SIGNALED;
	return *value && error ? SWGPU_ERR_CONTEXT_LOST : SWGPU_OK;
}

struct sync_wait {
	const struct rc_sync *const *objs;
	const uint64_t *values;
	uint32_t count, flags;
	uint32_t *first;
	/* The ring served up to the wait's start: a binary payload that is
	 * NONE here is NONE for the daemon too. */
	bool drained;
};

/* kmd/syncobj.c's rule, on a mirror. */
static enum wait_state
sync_state(const void *arg, uint32_t i)
{
	const struct sync_wait *w = arg;
	const struct rc_sync *s = w->objs[i];
	uint64_t v = atomic_load_explicit(&s->mirror->value,
	                                  memory_order_acquire);
	uint64_t aux = atomic_load_explicit(&s->mirror->aux,
	                                    memory_order_relaxed);
	bool error = atomic_load_explicit(&s->mirror->flags,
	                                  memory_order_relaxed) & MIRROR_ERROR;
	uint64_t want = w->values ? w->values[i] : 0;

	if (s->type == SWGPU_SYNCOBJ_TIMELINE) {
		if (timeline_value(s, v) >= want)
			return WS_OK;
		if ((w->flags & SWGPU_WAIT_AVAILABLE) && aux >= want)
			return WS_OK;
		return error ? WS_FAILED : WS_NOT_YET;
	}
	switch (binary_value(s->o.dev, s, v)) {
	case MIRROR_BINARY_SIGNALED:
		return error ? WS_FAILED : WS_OK;
	case MIRROR_BINARY_PENDING:
		return (w->flags & SWGPU_WAIT_AVAILABLE) ? WS_OK : WS_NOT_YET;
	default:
		if ((w->flags & SWGPU_WAIT_FOR_SUBMIT) || !w->drained)
			return WS_NOT_YET;
		return WS_NOT_SUBMITTED;
	}
}

static swgpu_result
sync_eval(void *arg, bool *done)
{
	struct sync_wait *w = arg;

	return wait_eval_states(sync_state, w, w->count, w->flags,
	                        w->first, done);
}

struct drain_wait {
	const struct fast_page *p;
	uint64_t tail;
};

static swgpu_result
drain_eval(void *arg, bool *done)
{
	struct drain_wait *w = arg;

	*done = atomic_load_explicit(&w->p->ring_head, memory_order_acquire)
	        >= w->tail;
	return *done ? SWGPU_OK : SWGPU_TIMEOUT;
}

swgpu_result
rc_fast_sync_wait(struct rc_dev *d, swgpu_syncobj *const *objs,
                  const uint64_t *values, uint32_t count, uint32_t flags,
                  uint64_t deadline_ns, uint32_t *first)
{
	struct rc_fast *f = d->fast;
	struct sync_wait w = {
		.objs = (const struct rc_sync *const *)objs,
		.values = values,
		.count = count,
		.flags = flags,
		.first = first,
	};
	struct drain_wait dw;
	swgpu_result r;
	bool done, drain = flags & SWGPU_WAIT_AVAILABLE;
	bool debug = d->debug;

	if (!f)
		return RC_FAST_NOT_TAKEN;
	for (uint32_t i = 0; i < count; i++) {
		if (!w.objs[i]->mirror)
			return RC_FAST_NOT_TAKEN;
		if (w.objs[i]->type == SWGPU_SYNCOBJ_TIMELINE && !values)
			return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
			                 "timeline wait without values");
		if (w.objs[i]->type == SWGPU_SYNCOBJ_BINARY &&
		    !(flags & SWGPU_WAIT_FOR_SUBMIT))
			drain = true;
	}
	atomic_fetch_add_explicit(&d->local_waits, 1, memory_order_relaxed);
	/* Reached (the common case): no request, no sleep. */
	r = sync_eval(&w, &done);
	if (done)
		goto out;
	atomic_fetch_add(&f->waiters, 1);
	/* When "no payload yet" (a binary wait without FOR_SUBMIT) or
	 * "submitted" (AVAILABLE) is an answer, our own ring records must
	 * be served first: they may submit the signal. Those submits have
	 * happened for the caller, so this does not count against its
	 * deadline (a poll with deadline 0 included): it lasts until the
	 * daemon (an engine or the session thread) gets to them, or the
	 * daemon is gone. */
	r = SWGPU_OK;
	if (drain) {
		dw.p = f->page;
		dw.tail = atomic_load(&f->page->ring_tail);
		/* The last records may be resets nobody was told of. */
		pthread_mutex_lock(&f->submit_lock);
		if (atomic_load(&f->page->ring_head) != dw.tail)
			ring_doorbell(f, f->last_engine);
		pthread_mutex_unlock(&f->submit_lock);
		r = wait_on(d, &f->page->head_seq, &f->page->head_waiters,
		            drain_eval, &dw, UINT64_MAX);
	}
	if (r == SWGPU_OK) {
		w.drained = true;
		r = wait_on(d, &f->page->events.seq, &f->page->events.waiters,
		            sync_eval, &w, deadline_ns);
	}
	/* From here on a device close may free d and the objects. */
	atomic_fetch_sub(&f->waiters, 1);
out:
	if (r < 0)
		return SWGPU_ERR(debug, r, "syncobj wait");
	return r;
}

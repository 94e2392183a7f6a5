/* SPDX-License-Identifier: MIT */
/*
 * swgpud: the fast path's page of a session (remote/fast_page.h). The
 * GPU's engines serve the submit ring when they are idle
 * (ring_server.c), and so does the session's thread: between socket
 * requests, and when a client found the engine busy and rang its
 * doorbell; it sleeps in poll() on the socket and the doorbell when both
 * are quiet, after polling the ring for a moment (an adaptive budget,
 * none on a contended CPU: util/spin.h). Whoever holds the session's
 * ring_lock serves the ring.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/fast_ring.h"
#include "daemon/session.h"
#include "util/futex.h"
#include "util/util.h"

/* How long the session thread polls the ring before sleeping. */
#define RING_SPIN_NS 20000u

bool
sd_fast_init(struct sd_fast *f)
{
	memset(f, 0, sizeof(*f));
	f->memfd = f->doorbell = -1;
	f->memfd = memfd_create("swgpud-fast", MFD_CLOEXEC);
	f->doorbell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	f->record = malloc(FAST_RING_BYTES);
	if (f->memfd < 0 || f->doorbell < 0 || !f->record ||
	    ftruncate(f->memfd, sizeof(struct fast_page)) != 0)
		goto fail;
	f->page = mmap(NULL, sizeof(struct fast_page), PROT_READ | PROT_WRITE,
	               MAP_SHARED, f->memfd, 0);
	if (f->page == MAP_FAILED) {
		f->page = NULL;
		goto fail;
	}
	f->page->magic = FAST_PAGE_MAGIC;
	f->page->ring_bytes = FAST_RING_BYTES;
	spin_budget_init(&f->spin, RING_SPIN_NS);
	return true;
fail:
	swgpu_log("swgpud: no fast path for a client (%s): every call is "
	          "a request", strerror(errno));
	sd_fast_fini(f);
	return false;
}

void
sd_fast_fini(struct sd_fast *f)
{
	if (f->page)
		munmap(f->page, sizeof(struct fast_page));
	if (f->memfd >= 0)
		close(f->memfd);
	if (f->doorbell >= 0)
		close(f->doorbell);
	free(f->record);
	memset(f, 0, sizeof(*f));
	f->memfd = f->doorbell = -1;
}

/* The slot table of a kind: its use marks, size and slots. */
static uint32_t
slot_table(struct sd_fast *f, uint32_t kind, uint8_t **used,
           struct mirror_slot **slots)
{
	switch (kind) {
	case PROTO_KIND_CTX:
		*used = f->ctx_used;
		*slots = f->page->contexts;
		return FAST_CTX_SLOTS;
	case PROTO_KIND_QUEUE:
		*used = f->queue_used;
		*slots = f->page->queues;
		return FAST_QUEUE_SLOTS;
	case PROTO_KIND_SYNC:
		*used = f->sync_used;
		*slots = f->page->syncs;
		return FAST_SYNC_SLOTS;
	}
	return 0;
}

uint32_t
sd_fast_slot_get(struct sd_fast *f, uint32_t kind)
{
	uint8_t *used;
	struct mirror_slot *slots;
	uint32_t n = f->page ? slot_table(f, kind, &used, &slots) : 0;

	for (uint32_t i = 0; i < n; i++)
		if (!used[i]) {
			used[i] = 1;
			return i;
		}
	return FAST_NO_SLOT;
}

void
sd_fast_slot_put(struct sd_fast *f, uint32_t kind, uint32_t slot)
{
	uint8_t *used;
	struct mirror_slot *slots;
	uint32_t n = f->page ? slot_table(f, kind, &used, &slots) : 0;

	if (slot < n)
		used[slot] = 0;
}

struct mirror_slot *
sd_fast_slot(struct sd_fast *f, uint32_t kind, uint32_t slot)
{
	uint8_t *used;
	struct mirror_slot *slots;
	uint32_t n = f->page ? slot_table(f, kind, &used, &slots) : 0;

	return slot < n ? &slots[slot] : NULL;
}

void
sd_fast_attach(struct sd_req *rq)
{
	struct session *s = rq->s;
	struct sd_entry *e = rq->added;
	struct mirror_slot *slot;
	uint32_t i;

	pthread_mutex_lock(&s->lock);
	i = sd_fast_slot_get(&s->fast, e->kind);
	pthread_mutex_unlock(&s->lock);
	slot = sd_fast_slot(&s->fast, e->kind, i);
	if (slot) {
		memset(slot, 0, sizeof(*slot));
		if (e->kind == PROTO_KIND_CTX) {
			kmd_context_mirror_attach(e->obj, slot,
			                          &s->fast.page->events);
		} else if (e->kind == PROTO_KIND_QUEUE) {
			kmd_queue_mirror_attach(e->obj, slot,
			                        &s->fast.page->events);
		} else if (!kmd_syncobj_mirror_attach(e->obj, slot,
		                                      &s->fast.page->events)) {
			/* another client's mirror has it (a shared one) */
			pthread_mutex_lock(&s->lock);
			sd_fast_slot_put(&s->fast, e->kind, i);
			pthread_mutex_unlock(&s->lock);
			i = FAST_NO_SLOT;
		}
	}
	e->slot = i;
	wire_put_u32(&rq->out, i);
}

void
sd_fast_detach(struct session *s, struct sd_entry *e)
{
	struct mirror_slot *slot = sd_fast_slot(&s->fast, e->kind, e->slot);

	if (!slot)
		return;
	if (e->kind == PROTO_KIND_CTX)
		kmd_context_mirror_detach(e->obj);
	else if (e->kind == PROTO_KIND_QUEUE)
		kmd_queue_mirror_detach(e->obj);
	else
		kmd_syncobj_mirror_detach(e->obj, slot);
	pthread_mutex_lock(&s->lock);
	sd_fast_slot_put(&s->fast, e->kind, e->slot);
	pthread_mutex_unlock(&s->lock);
	e->slot = FAST_NO_SLOT;
}

void
sd_fast_submit_failed(struct session *s, struct sd_entry *q,
                      const swgpu_submit_info *info, swgpu_result r)
{
	char why[128];

	swgpu_log("swgpud: client %d (%s): a submit from its ring failed "
	          "(%s)%s", (int)s->pid, s->program, swgpu_result_str(r),
	          r != SWGPU_ERR_CONTEXT_LOST ? ": its context is lost" : "");
	if (r != SWGPU_ERR_CONTEXT_LOST) {
		snprintf(why, sizeof(why), "submit from the fast ring "
		         "failed: %s", swgpu_result_str(r));
		kmd_context_lose(q->parent->obj, why);
	}
	/* The client counted a seqno for it: a failed job takes it, and
	 * fails its signals, so every wait on them ends. */
	if (kmd_queue_submit_failed(q->obj, info) ==
	    SWGPU_ERR_NO_HOST_MEMORY)
		swgpu_log("swgpud: client %d (%s): its queue's seqnos and "
		          "the daemon's differ from now on", (int)s->pid,
		          s->program);
}

/* Serve one record (copied out: the client may change the ring under
 * us). */
static bool
serve_record(struct session *s, const struct fast_record *hd)
{
	struct sd_fast *f = &s->fast;
	struct sd_req rq = { .s = s, .out_fd = -1, .from_ring = true };
	swgpu_result r;

	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		rq.fds[i] = -1;
	rq.h.op = PROTO_QUEUE_SUBMIT;
	rq.h.size = hd->size;
	wire_rd_init(&rq.rd, f->record, hd->size);
	wire_wr_init(&rq.out);
	r = serve_queue(&rq);
	wire_wr_fini(&rq.out);
	if (!wire_rd_done(&rq.rd)) {
		swgpu_log("swgpud: client %d (%s): malformed submit record "
		          "(%u bytes) in its ring: dropping it", (int)s->pid,
		          s->program, hd->size);
		return false;
	}
	if (r != SWGPU_OK)
		swgpu_log("swgpud: client %d (%s): a ring submit refused: %s",
		          (int)s->pid, s->program, swgpu_result_str(r));
	return true;
}

/* A host signal of a timeline (fast_signal). The client checked the
 * rewind against its mirror, so TIMELINE_REWIND here means a GPU signal
 * at or above the value got there first: the value already is what the
 * client asked for, and the record is done. */
static void
serve_signal(struct session *s, const struct fast_signal *sig)
{
	struct sd_entry *e = sd_get(s, sig->sync_id, PROTO_KIND_SYNC);

	if (!e || swgpu_syncobj_get_type(e->obj) != SWGPU_SYNCOBJ_TIMELINE)
		swgpu_log("swgpud: client %d (%s): a ring signal refused: %s",
		          (int)s->pid, s->program,
		          e ? "not a timeline" : "no such sync object");
	else
		(void)swgpu_syncobj_signal(e->obj, sig->value);
	if (e)
		sd_put(s, e);
}

/* A reset of a binary sync object (fast_reset): the client checked the
 * type, so a reset here cannot fail; an id that is not a binary object
 * of the client is refused. */
static void
serve_reset(struct session *s, const struct fast_reset *rst)
{
	struct sd_entry *e = sd_get(s, rst->sync_id, PROTO_KIND_SYNC);

	if (!e || swgpu_syncobj_get_type(e->obj) != SWGPU_SYNCOBJ_BINARY)
		swgpu_log("swgpud: client %d (%s): a ring reset refused: %s",
		          (int)s->pid, s->program,
		          e ? "not a binary sync object"
		            : "no such sync object");
	else
		(void)swgpu_syncobj_reset(e->obj);
	if (e)
		sd_put(s, e);
}

/* Serve every record in the ring (ring_lock held). false: a malformed
 * record (the client is dropped). */
static bool
serve_ring(struct session *s)
{
	struct sd_fast *f = &s->fast;
	struct fast_page *p = f->page;
	uint64_t head, tail;
	bool moved = false;

	head = atomic_load_explicit(&p->ring_head, memory_order_relaxed);
	for (;;) {
		struct fast_record hd;
		uint64_t off = head % FAST_RING_BYTES;

		tail = atomic_load_explicit(&p->ring_tail, memory_order_acquire);
		if (tail == head)
			break;
		if (tail - head > FAST_RING_BYTES ||
		    tail - head < sizeof(hd) || off + sizeof(hd) >
		    FAST_RING_BYTES)
			goto bad;
		memcpy(&hd, p->ring + off, sizeof(hd));
		if (hd.kind == FAST_REC_SKIP) {
			/* filler up to the ring's end */
			if (off + sizeof(hd) + hd.size != FAST_RING_BYTES)
				goto bad;
		} else if ((hd.kind != FAST_REC_SUBMIT &&
		            hd.kind != FAST_REC_SIGNAL &&
		            hd.kind != FAST_REC_RESET) ||
		           hd.size > FAST_RING_BYTES - off - sizeof(hd) ||
		           FAST_ALIGN(sizeof(hd) + hd.size) > tail - head) {
			goto bad;
		} else if (hd.kind == FAST_REC_SIGNAL) {
			struct fast_signal sig;

			if (hd.size != sizeof(sig))
				goto bad;
			memcpy(&sig, p->ring + off + sizeof(hd), sizeof(sig));
			serve_signal(s, &sig);
		} else if (hd.kind == FAST_REC_RESET) {
			struct fast_reset rst;

			if (hd.size != sizeof(rst))
				goto bad;
			memcpy(&rst, p->ring + off + sizeof(hd), sizeof(rst));
			serve_reset(s, &rst);
		} else {
			memcpy(f->record, p->ring + off + sizeof(hd), hd.size);
			if (!serve_record(s, &hd))
				goto dropped;
		}
		head += FAST_ALIGN(sizeof(hd) + hd.size);
		/* The client may reuse the bytes now. */
		atomic_store_explicit(&p->ring_head, head,
		                      memory_order_release);
		moved = true;
	}
	if (moved) {
		atomic_fetch_add(&p->head_seq, 1);
		if (atomic_load(&p->head_waiters))
			futex_wake_all_shared(&p->head_seq);
	}
	return true;
bad:
	swgpu_log("swgpud: client %d (%s): its submit ring is corrupt "
	          "(head %llu tail %llu): dropping it", (int)s->pid,
	          s->program, (unsigned long long)head,
	          (unsigned long long)tail);
dropped:
	/* Nobody serves it again; the session thread sees the socket
	 * shut and ends the session. */
	atomic_store(&s->ring_broken, true);
	shutdown(s->sock, SHUT_RDWR);
	return false;
}

bool
sd_fast_drain(struct session *s)
{
	bool ok;

	if (!s->fast.page)
		return true;
	if (atomic_load(&s->ring_broken))
		return false;
	pthread_mutex_lock(&s->ring_lock);
	ok = !atomic_load(&s->ring_broken) && serve_ring(s);
	pthread_mutex_unlock(&s->ring_lock);
	return ok;
}

bool
sd_fast_try_drain(struct session *s)
{
	struct fast_page *p = s->fast.page;
	bool served = false;

	if (!p || atomic_load_explicit(&s->ring_broken, memory_order_relaxed) ||
	    atomic_load(&p->ring_tail) == atomic_load(&p->ring_head))
		return false;
	/* Another engine, or the session thread, serves it already. */
	if (pthread_mutex_trylock(&s->ring_lock))
		return false;
	if (!atomic_load(&s->ring_broken)) {
		sd_on_engine = true;
		served = atomic_load(&p->ring_tail) !=
		         atomic_load(&p->ring_head);
		serve_ring(s);
		sd_on_engine = false;
	}
	pthread_mutex_unlock(&s->ring_lock);
	return served;
}

static bool
ring_empty(const struct fast_page *p)
{
	return atomic_load(&p->ring_tail) == atomic_load(&p->ring_head);
}

bool
sd_fast_wait_socket(struct session *s)
{
	struct sd_fast *f = &s->fast;
	struct fast_page *p = f->page;

	for (;;) {
		struct pollfd pf[2] = {
			{ .fd = s->sock, .events = POLLIN },
			{ .fd = f->doorbell, .events = POLLIN },
		};
		uint64_t now, end;
		bool hit = false;

		sd_bury(s);
		if (!sd_fast_drain(s))
			return false;
		if (!p)
			return true;
		/* A client submitting a stream: its next record comes in
		 * microseconds, sooner than a wake-up. */
		now = swgpu_now_ns();
		end = now + spin_budget_get(&f->spin, now);
		if (end > now) {
			spin_enter();
			while (ring_empty(p) && swgpu_now_ns() < end)
				;
			spin_leave();
			hit = !ring_empty(p);
			spin_budget_feedback(&f->spin, hit);
			if (hit)
				continue;
		}
		/* seq_cst pairs with the client's tail store then idle
		 * load: it rings, or we see its record. */
		atomic_store(&p->daemon_idle, 1);
		if (!ring_empty(p)) {
			atomic_store(&p->daemon_idle, 0);
			continue;
		}
		poll(pf, 2, -1);
		atomic_store(&p->daemon_idle, 0);
		if (pf[1].revents & POLLIN) {
			uint64_t v;

			if (read(f->doorbell, &v, sizeof(v)) < 0 &&
			    errno != EAGAIN)
				return false;
		}
		if (pf[0].revents) {
			/* The request comes after the records before it. */
			return sd_fast_drain(s);
		}
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * swgpud sessions (session.h): HELLO, then one request at a time on the
 * connection's thread; waits that cannot finish at once continue on a
 * worker thread of their own, so a long wait never holds up the client's
 * other calls. A malformed request, or a client that stops reading its
 * replies (send timeout), ends the session: only this client is dropped.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "daemon/gpu_table.h"
#include "daemon/session.h"
#include "daemon/priority_rule.h"
#include "daemon/ring_server.h"
#include "kmd/owner.h"
#include "util/spin.h"
#include "util/util.h"

#define SEND_TIMEOUT_S 5

/* ---- the object table ---- */

swgpu_result
sd_add(struct session *s, uint32_t kind, void *obj, struct sd_entry *parent,
       uint64_t *id_out)
{
	struct sd_entry *e = calloc(1, sizeof(*e));
	uint32_t i;

	if (!e)
		return SWGPU_ERR_NO_HOST_MEMORY;
	e->kind = kind;
	e->refs = 1;
	e->obj = obj;
	e->parent = parent;
	e->slot = FAST_NO_SLOT;
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->slot_count && s->slots[i]; i++)
		;
	if (i == s->slot_count) {
		if (s->slot_count == s->slot_cap) {
			uint32_t cap = s->slot_cap ? s->slot_cap * 2 : 64;
			struct sd_entry **ns = realloc(s->slots,
			                               cap * sizeof(*ns));
			uint32_t *ng = ns ? realloc(s->gens, cap * sizeof(*ng))
			                  : NULL;

			if (ns)
				s->slots = ns;
			if (!ng) {
				pthread_mutex_unlock(&s->lock);
				free(e);
				return SWGPU_ERR_NO_HOST_MEMORY;
			}
			s->gens = ng;
			s->slot_cap = cap;
		}
		s->gens[s->slot_count] = 0;
		s->slot_count++;
	}
	s->slots[i] = e;
	s->gens[i]++;
	if (parent)
		parent->refs++;
	*id_out = (uint64_t)s->gens[i] << 32 | (i + 1);
	pthread_mutex_unlock(&s->lock);
	return SWGPU_OK;
}

static struct sd_entry *
lookup_locked(struct session *s, uint64_t id, uint32_t *slot)
{
	uint32_t i = (uint32_t)id - 1, gen = (uint32_t)(id >> 32);

	if ((uint32_t)id == 0 || i >= s->slot_count || !s->slots[i] ||
	    s->gens[i] != gen)
		return NULL;
	*slot = i;
	return s->slots[i];
}

struct sd_entry *
sd_get(struct session *s, uint64_t id, uint32_t kind)
{
	struct sd_entry *e;
	uint32_t slot;

	pthread_mutex_lock(&s->lock);
	e = lookup_locked(s, id, &slot);
	if (e && (e->kind != kind || e->dead))
		e = NULL;
	if (e)
		e->refs++;
	pthread_mutex_unlock(&s->lock);
	return e;
}

void
sd_destroy_object(uint32_t kind, void *obj)
{
	switch (kind) {
	case PROTO_KIND_CTX:
		swgpu_context_destroy(obj);
		break;
	case PROTO_KIND_BO:
		swgpu_bo_destroy(obj);
		break;
	case PROTO_KIND_SYNC:
		swgpu_syncobj_destroy(obj);
		break;
	case PROTO_KIND_QUEUE:
		swgpu_queue_destroy(obj);
		break;
	case PROTO_KIND_SHADER:
		swgpu_shader_destroy(obj);
		break;
	}
}

_Thread_local bool sd_on_engine;

void
sd_put(struct session *s, struct sd_entry *e)
{
	while (e) {
		struct sd_entry *parent;

		pthread_mutex_lock(&s->lock);
		if (--e->refs) {
			pthread_mutex_unlock(&s->lock);
			return;
		}
		pthread_cond_broadcast(&s->cond);
		if (sd_on_engine) {
			/* An engine may not wait for GPU work: the session
			 * thread destroys it (woken by its doorbell). */
			uint64_t one = 1;

			e->grave_next = s->graves;
			s->graves = e;
			pthread_mutex_unlock(&s->lock);
			if (write(s->fast.doorbell, &one, sizeof(one)) < 0 &&
			    errno != EAGAIN)
				swgpu_log("swgpud: session doorbell: %s",
				          strerror(errno));
			return;
		}
		pthread_mutex_unlock(&s->lock);
		parent = e->parent;
		sd_fast_detach(s, e);
		sd_destroy_object(e->kind, e->obj);
		free(e);
		e = parent;
	}
}

void
sd_bury(struct session *s)
{
	struct sd_entry *e;

	pthread_mutex_lock(&s->lock);
	e = s->graves;
	s->graves = NULL;
	pthread_mutex_unlock(&s->lock);
	while (e) {
		struct sd_entry *next = e->grave_next, *parent = e->parent;

		sd_fast_detach(s, e);
		sd_destroy_object(e->kind, e->obj);
		free(e);
		sd_put(s, parent);
		e = next;
	}
}

/* s->lock held: take e out of the table; the caller drops the table's
 * ref. */
static void
unlink_locked(struct session *s, uint32_t slot, struct sd_entry *e)
{
	s->slots[slot] = NULL;
	e->dead = true;
	pthread_cond_broadcast(&s->cond);
}

swgpu_result
sd_destroy(struct session *s, uint64_t id, uint32_t kind)
{
	struct sd_entry *e, *children[64];
	uint32_t slot, n;

	pthread_mutex_lock(&s->lock);
	e = lookup_locked(s, id, &slot);
	if (!e || e->kind != kind) {
		pthread_mutex_unlock(&s->lock);
		return SWGPU_ERR_INVALID_ARG;
	}
	unlink_locked(s, slot, e);
	pthread_mutex_unlock(&s->lock);
	/* A context takes its queues and shaders with it, as in process. */
	do {
		n = 0;
		pthread_mutex_lock(&s->lock);
		for (uint32_t i = 0; i < s->slot_count && n < 64; i++)
			if (s->slots[i] && s->slots[i]->parent == e) {
				children[n++] = s->slots[i];
				unlink_locked(s, i, s->slots[i]);
			}
		pthread_mutex_unlock(&s->lock);
		for (uint32_t i = 0; i < n; i++)
			sd_put(s, children[i]);
	} while (n == 64);
	sd_put(s, e);
	return SWGPU_OK;
}

/* ---- replies ---- */

bool
sd_reply(struct session *s, uint64_t tag, uint32_t op, swgpu_result r,
         const struct wire_wr *payload, int fd)
{
	return sd_reply_fds(s, tag, op, r, payload, &fd, fd >= 0);
}

bool
sd_reply_fds(struct session *s, uint64_t tag, uint32_t op, swgpu_result r,
             const struct wire_wr *payload, const int *fds, unsigned nfds)
{
	struct wire_hdr h = {
		.size = payload ? (uint32_t)payload->len : 0,
		.op = (uint16_t)op,
		.nfds = (uint16_t)nfds,
		.tag = tag,
		.result = r,
	};
	bool ok;

	if (payload && payload->oom) {
		h.size = 0;
		h.result = SWGPU_ERR_NO_HOST_MEMORY;
	}
	pthread_mutex_lock(&s->send_lock);
	ok = wire_send(s->sock, &h, h.size ? payload->buf : NULL, fds,
	               h.nfds);
	pthread_mutex_unlock(&s->send_lock);
	if (!ok) {
		swgpu_log("swgpud: client %d (%s) does not take its replies "
		          "(%s): dropping it", (int)s->pid, s->program,
		          strerror(errno));
		/* The session's thread sees EOF and cleans up. */
		shutdown(s->sock, SHUT_RDWR);
	}
	return ok;
}

/* ---- questions within a request ---- */

bool
sd_ask(struct session *s, uint64_t tag, uint32_t op, const struct wire_wr *q,
       void **answer, uint32_t *size)
{
	*answer = NULL;
	*size = 0;
	if (s->broken || !sd_reply(s, tag, op, SWGPU_OK, q, -1)) {
		s->broken = true;
		return false;
	}
	for (;;) {
		struct sd_deferred *d = calloc(1, sizeof(*d));

		if (!d || !wire_recv(s->sock, &d->h, &d->payload, d->fds)) {
			free(d);
			s->broken = true;
			return false;
		}
		if (d->h.op == op && d->h.tag == tag) {
			for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
				if (d->fds[i] >= 0)
					close(d->fds[i]);
			*answer = d->payload;
			*size = d->h.size;
			free(d);
			return true;
		}
		*s->deferred_tail = d;
		s->deferred_tail = &d->next;
	}
}

/* The next request: a deferred one first. */
static bool
next_request(struct session *s, struct wire_hdr *h, void **payload,
             int fds[WIRE_MAX_FDS])
{
	struct sd_deferred *d = s->deferred;

	if (s->broken)
		return false;
	/* Records the client wrote before this request come first. */
	if (!d)
		return sd_fast_wait_socket(s) &&
		       wire_recv(s->sock, h, payload, fds);
	if (!sd_fast_drain(s))
		return false;
	s->deferred = d->next;
	if (!s->deferred)
		s->deferred_tail = &s->deferred;
	*h = d->h;
	*payload = d->payload;
	memcpy(fds, d->fds, sizeof(d->fds));
	free(d);
	return true;
}

/* ---- the connection ---- */

static bool
hello(struct session *s, struct wire_hdr *h, void *payload, int *fds)
{
	struct wire_rd rd;
	struct wire_wr out;
	const char *hash, *program;
	const uint8_t *cfg_start;
	swgpu_device_info info;
	swgpu_result r = SWGPU_OK;
	const char *why = NULL;

	wire_rd_init(&rd, payload, h->size);
	wire_wr_init(&out);
	hash = wire_get_str(&rd);
	wire_get_u32(&rd); /* the pid it says; SO_PEERCRED's counts */
	program = wire_get_str(&rd);
	cfg_start = rd.p;
	{
		swgpu_config cfg;

		proto_get_config(&rd, &cfg);
		wire_get_u32(&rd); /* which of the client's devices: in the key */
	}
	if (h->op != PROTO_HELLO || h->nfds || !wire_rd_done(&rd)) {
		why = "malformed HELLO";
	} else if (!hash || strcmp(hash, proto_hash())) {
		why = "another swgpu build (protocol hash differs)";
	} else {
		snprintf(s->program, sizeof(s->program), "%s",
		         program ? program : "?");
		/* This thread works for the client from now on: its BOs
		 * and contexts are accounted to it (kmd/mem_owner.h). */
		kmd_owner_set((int)s->pid, s->program,
		              priority_rule_max(s->pid));
		r = gpu_table_get(cfg_start, (size_t)(rd.end - cfg_start),
		                  &s->gpu, &s->dev);
		if (r != SWGPU_OK)
			why = "the GPU for this configuration cannot be opened";
	}
	(void)fds;
	if (why) {
		swgpu_log("swgpud: client %d refused: %s", (int)s->pid, why);
		wire_put_str(&out, why);
		sd_reply(s, h->tag, PROTO_HELLO,
		         r != SWGPU_OK ? r : SWGPU_ERR_UNSUPPORTED, &out, -1);
		wire_wr_fini(&out);
		return false;
	}
	swgpu_device_query_info(s->dev, &info);
	wire_put(&out, &info, sizeof(info));
	wire_put_u32(&out, (uint32_t)getpid());
	/* The fast path's page and doorbell, when there is one. */
	if (sd_fast_init(&s->fast)) {
		struct ring_server *rs = gpu_table_ring_server(s->gpu);
		int fast_fds[3] = { s->fast.memfd, s->fast.doorbell,
		                    rs ? rs->gpu_memfd : -1 };

		/* Engines serve its ring from now on (before the reply:
		 * nothing is written before it). */
		if (rs)
			ring_server_add(rs, s);
		sd_reply_fds(s, h->tag, PROTO_HELLO, SWGPU_OK, &out,
		             fast_fds, rs ? 3 : 2);
	} else {
		sd_reply(s, h->tag, PROTO_HELLO, SWGPU_OK, &out, -1);
	}
	wire_wr_fini(&out);
	return true;
}

/* One request; false when the client must be dropped. */
static bool
serve_one(struct session *s, struct wire_hdr *h, void *payload, int *fds)
{
	struct sd_req rq = { .s = s, .h = *h, .out_fd = -1 };
	swgpu_result r;
	bool ok = true;

	memcpy(rq.fds, fds, sizeof(rq.fds));
	wire_rd_init(&rq.rd, payload, h->size);
	wire_wr_init(&rq.out);
	r = serve_request(&rq);
	if (r != SD_DEFERRED && !wire_rd_done(&rq.rd)) {
		swgpu_log("swgpud: client %d (%s): malformed %s request "
		          "(%u bytes): dropping it", (int)s->pid, s->program,
		          proto_op_name(h->op), h->size);
		ok = false;
	} else if (r != SD_DEFERRED) {
		/* Errors carry no payload (but a message where one is
		 * written for them). */
		if (r < 0 && !(h->op == PROTO_SHADER_CREATE ||
		               h->op == PROTO_SYNC_QUERY))
			rq.out.len = 0;
		ok = sd_reply(s, h->tag, h->op, r, &rq.out, rq.out_fd);
	}
	if (rq.out_fd >= 0)
		close(rq.out_fd);
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		if (rq.fds[i] >= 0)
			close(rq.fds[i]);
	wire_wr_fini(&rq.out);
	return ok;
}

/* Destroy everything of the session and leave its GPU (once). */
static void
session_release(struct session *s)
{
	/* Shaders and queues before their contexts, then the rest. */
	static const uint32_t order[] = {
		PROTO_KIND_SHADER, PROTO_KIND_QUEUE, PROTO_KIND_CTX,
		PROTO_KIND_SYNC, PROTO_KIND_BO,
	};

	/* No engine serves the ring from here on (one that did is done:
	 * the list's write lock waits for it), and what they left for
	 * this thread to destroy goes first. */
	if (s->gpu && gpu_table_ring_server(s->gpu))
		ring_server_remove(gpu_table_ring_server(s->gpu), s);
	pthread_mutex_lock(&s->ring_lock);
	atomic_store(&s->ring_broken, true);
	pthread_mutex_unlock(&s->ring_lock);
	sd_bury(s);
	pthread_mutex_lock(&s->lock);
	s->closing = true;
	pthread_cond_broadcast(&s->cond);
	/* Workers notice within one wait slice. */
	while (s->workers)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	for (size_t k = 0; k < SWGPU_ARRAY_SIZE(order); k++)
		for (uint32_t i = 0; i < s->slot_count; i++) {
			struct sd_entry *e = s->slots[i];

			if (e && e->kind == order[k])
				sd_destroy(s, (uint64_t)s->gens[i] << 32 |
				                      (i + 1), e->kind);
		}
	if (s->gpu)
		gpu_table_put(s->gpu);
	s->gpu = NULL;
	s->dev = NULL;
}

static void
session_close(struct session *s)
{
	session_release(s);
	while (s->deferred) {
		struct sd_deferred *d = s->deferred;

		s->deferred = d->next;
		for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
			if (d->fds[i] >= 0)
				close(d->fds[i]);
		free(d->payload);
		free(d);
	}
	sd_fast_fini(&s->fast);
	free(s->slots);
	free(s->gens);
	pthread_mutex_destroy(&s->send_lock);
	pthread_mutex_destroy(&s->ring_lock);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	close(s->sock);
	free(s);
}

void
session_run(int sock, pid_t pid)
{
	struct session *s = calloc(1, sizeof(*s));
	struct timeval tv = { SEND_TIMEOUT_S, 0 };
	struct wire_hdr h;
	void *payload;
	int fds[WIRE_MAX_FDS];
	bool ok;

	if (!s) {
		close(sock);
		return;
	}
	s->sock = sock;
	s->pid = pid;
	s->fast.memfd = s->fast.doorbell = -1;
	snprintf(s->program, sizeof(s->program), "?");
	pthread_mutex_init(&s->send_lock, NULL);
	pthread_mutex_init(&s->ring_lock, NULL);
	atomic_init(&s->ring_broken, false);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	s->deferred_tail = &s->deferred;
	/* A request is a client's call waiting: wake-ups of this thread
	 * should not wait behind busy engine threads for a whole slice. */
	spin_request_short_slice(100000);

	ok = wire_recv(sock, &h, &payload, fds);
	if (ok) {
		ok = hello(s, &h, payload, fds);
		free(payload);
		for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	while (ok && next_request(s, &h, &payload, fds)) {
		if (h.op == PROTO_DEV_CLOSE) {
			/* The client's swgpu_device_close: answered once
			 * everything is gone. */
			session_release(s);
			sd_reply(s, h.tag, h.op, SWGPU_OK, NULL, -1);
			for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
				if (fds[i] >= 0)
					close(fds[i]);
			ok = false;
		} else {
			ok = serve_one(s, &h, payload, fds);
		}
		free(payload);
	}
	session_close(s);
}

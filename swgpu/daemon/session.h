/* SPDX-License-Identifier: MIT */
/*
 * swgpud: one session per client connection (one client swgpu_device).
 * A session owns what its client created — contexts, queues, shaders,
 * BOs, sync objects — in a table of its own, so ids name nothing outside
 * it; when the connection ends (close, crash, SIGKILL) everything in the
 * table is destroyed and no other session notices.
 */
#ifndef SWGPUD_SESSION_H
#define SWGPUD_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <swgpu/swgpu.h>

#include "remote/proto.h"
#include "remote/wire.h"
#include "daemon/fast_ring.h"

struct gpu;

/* One object of the session. refs: the table's own (until destroyed) and
 * one per request or waiting worker using it; the last put destroys the
 * swgpu object. A queue or shader holds a ref on its context, so a
 * context is destroyed after them. */
struct sd_entry {
	uint32_t kind;               /* enum proto_kind */
	uint32_t refs;
	bool dead;                   /* destroyed by the client or closing */
	void *obj;
	struct sd_entry *parent;     /* queue/shader: its context */
	uint32_t slot;               /* queue/sync: its mirror in the fast
	                                page, or FAST_NO_SLOT */
	struct sd_entry *grave_next; /* on the session's graves list */
};

/* A request that arrived while another one waited for its client's
 * answer (sd_read_answer): served next, in order. */
struct sd_deferred {
	struct wire_hdr h;
	void *payload;
	int fds[WIRE_MAX_FDS];
	struct sd_deferred *next;
};

struct session {
	int sock;
	pid_t pid;                   /* SO_PEERCRED */
	char program[64];
	struct gpu *gpu;
	swgpu_device *dev;

	pthread_mutex_t send_lock;
	pthread_mutex_t lock;        /* table, workers */
	pthread_cond_t cond;
	struct sd_entry **slots;     /* id = gen << 32 | index + 1 */
	uint32_t *gens;
	uint32_t slot_count, slot_cap;
	uint32_t workers;            /* threads finishing a wait */
	bool closing;
	/* The session thread's only: requests to serve before reading the
	 * socket again, and whether the connection broke inside a request. */
	struct sd_deferred *deferred, **deferred_tail;
	bool broken;
	struct sd_fast fast;         /* the fast path's page (fast_ring.c) */
	/* Its ring is served by whoever holds this: the session thread or
	 * an engine (ring_server.h). */
	pthread_mutex_t ring_lock;
	atomic_bool ring_broken;     /* a bad record: nobody serves it */
	/* Entries whose last ref an engine dropped: destroying an object
	 * may wait for GPU work (a queue's jobs), so the session thread
	 * does it (sd_bury). Under lock. */
	struct sd_entry *graves;
};

/* The calling thread is an engine serving a ring (sd_put then leaves a
 * last ref's destruction to the session thread). */
extern _Thread_local bool sd_on_engine;
/* The session thread: destroy what engines left (graves). */
void sd_bury(struct session *s);

/* A request being served. */
struct sd_req {
	struct session *s;
	struct wire_hdr h;
	struct wire_rd rd;
	int fds[WIRE_MAX_FDS];       /* take one by setting it to -1 */
	struct wire_wr out;          /* the reply's payload */
	int out_fd;                  /* a descriptor to send back, or -1
	                                (closed after sending) */
	struct sd_entry *added;      /* sd_add_reply's entry (no ref) */
	bool from_ring;              /* a fast-path record: no reply */
};

/* Returned by a handler that replies later (a waiting worker). */
#define SD_DEFERRED ((swgpu_result)1000)

/* Serve the connection until it ends, then free the session. */
void session_run(int sock, pid_t pid);

/* The table. */
swgpu_result sd_add(struct session *s, uint32_t kind, void *obj,
                    struct sd_entry *parent, uint64_t *id_out);
/* The live entry id names, of kind, with a ref taken; NULL if none. */
struct sd_entry *sd_get(struct session *s, uint64_t id, uint32_t kind);
void sd_put(struct session *s, struct sd_entry *e);
/* Remove id from the table (and a context's queues and shaders) and drop
 * the table's ref. */
swgpu_result sd_destroy(struct session *s, uint64_t id, uint32_t kind);

/* Send a reply (workers: from their thread). false if the client is gone
 * or does not read. */
bool sd_reply(struct session *s, uint64_t tag, uint32_t op, swgpu_result r,
              const struct wire_wr *payload, int fd);
bool sd_reply_fds(struct session *s, uint64_t tag, uint32_t op,
                  swgpu_result r, const struct wire_wr *payload,
                  const int *fds, unsigned nfds);

/* Inside a request: ask the client (a message of op with the request's
 * tag and payload q) and read its answer, deferring the other requests
 * that come meanwhile. The answer's payload is malloc'ed (NULL when
 * empty). false when the connection broke. */
bool sd_ask(struct session *s, uint64_t tag, uint32_t op,
            const struct wire_wr *q, void **answer, uint32_t *size);

/* The swgpu destroy of an object of kind. */
void sd_destroy_object(uint32_t kind, void *obj);

/* Give the entry just added (a queue or sync object) a mirror slot in
 * the fast page and write the slot to the reply (FAST_NO_SLOT: none;
 * the client then asks the daemon). */
void sd_fast_attach(struct sd_req *rq);

/* Add obj to the table and its id to the reply; on failure destroy it. */
swgpu_result sd_add_reply(struct sd_req *rq, uint32_t kind, void *obj,
                          struct sd_entry *parent);

/* An id the session does not have (of that kind): logged, refused. */
#define BAD_ID(rq, what) \
	SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG, "client %d: %s %s: no such " \
	          "object of this client", (int)(rq)->s->pid, \
	          proto_op_name((rq)->h.op), what)

/* The request read whole, before anything is done (else the session
 * ends: serve_one). */
#define ARGS_DONE(rq) \
	do { \
		if (!wire_rd_done(&(rq)->rd)) \
			return SWGPU_ERR_INVALID_ARG; \
	} while (0)

/* The op handlers (serve_*.c): fill rq->out, return the result. */
swgpu_result serve_request(struct sd_req *rq);
swgpu_result serve_sync(struct sd_req *rq);     /* sync objects, waits */
swgpu_result serve_queue(struct sd_req *rq);    /* queues, submits */
swgpu_result serve_shader(struct sd_req *rq);

#endif

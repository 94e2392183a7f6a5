/* SPDX-License-Identifier: MIT */
/* Shared mode, client side: the connection to swgpud (client_conn.c) and
 * the client structs behind remote handles (client_api.c). */
#ifndef SWGPU_REMOTE_CLIENT_H
#define SWGPU_REMOTE_CLIENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "remote/fast_page.h"
#include "remote/proto.h"
#include "remote/remote.h"
#include "remote/wire.h"

struct rc_pending;
struct rc_fast;

/* What swgpu_device * points to in shared mode. */
struct rc_dev {
	uint32_t tag;                /* REMOTE_TAG */
	int sock;
	bool debug;
	bool tracing;
	swgpu_device_info info;
	int daemon_pid;
	pthread_mutex_t send_lock;
	/* Replies: whoever waits and finds nobody reading reads the socket
	 * and hands each reply to its caller (no reader thread: one
	 * caller's round trip is one send and one receive). */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool reading;
	bool dead;                   /* the daemon went away: device lost */
	uint64_t next_tag;
	struct rc_pending *pending;
	struct rc_dev *next;         /* every open remote device */
	pthread_mutex_t objs_lock;
	struct rc_obj *objs;         /* live client objects (obj_new) */
	struct rc_fast *fast;        /* the fast path (client_fast.c), or
	                                NULL: every call a request */
	/* What the calls cost: requests by op, and what the fast path
	 * answered without one (logged at close with SWGPU_DEBUG). */
	_Atomic uint64_t requests[PROTO_OP_COUNT];
	_Atomic uint64_t ring_submits, ring_signals, ring_resets, local_waits;
	_Atomic uint64_t local_queries;
};

/* The part every remote object starts with. */
struct rc_obj {
	uint32_t tag;                /* REMOTE_TAG */
	uint32_t kind;               /* enum proto_kind */
	uint64_t id;                 /* the daemon's name for it */
	struct rc_dev *dev;
	struct rc_obj *prev, *next;  /* dev->objs */
};

struct rc_sync {
	struct rc_obj o;
	swgpu_syncobj_type type;
	struct mirror_slot *mirror;  /* in the fast page, or NULL */
	/* Timeline: the largest value signalled through the ring (the
	 * submit lock orders the writers). */
	_Atomic uint64_t host_signaled;
	/* Exported or imported: other clients may look at it, so host
	 * signals are requests (served before this call returns). */
	atomic_bool shared;
	/* Binary: the ring position after its last ring reset; until the
	 * daemon served that far, its mirror is older than the reset and
	 * the payload is none for this client. */
	_Atomic uint64_t reset_pos;
};

struct rc_queue {
	struct rc_obj o;
	uint32_t queue_id;
	struct mirror_slot *mirror;  /* in the fast page, or NULL */
	_Atomic uint64_t submitted;  /* its last seqno handed out */
};

struct rc_reply {
	struct wire_hdr h;
	void *payload;
	int fds[WIRE_MAX_FDS];
	struct wire_rd rd;
};

/* Send op with req's payload (and fds, which stay the caller's) and wait
 * for the reply. Returns the reply's result; a connection that failed or
 * a reply that is malformed gives SWGPU_ERR_CONTEXT_LOST (the daemon is
 * gone or not ours: the device is lost). rep is always initialized;
 * release it with rc_reply_fini. */
swgpu_result rc_call(struct rc_dev *d, uint32_t op, struct wire_wr *req,
                     const int *fds, unsigned nfds, struct rc_reply *rep);
/* rc_call for a request the daemon may ask a question about before it
 * replies (SHADER_CREATE asks for an application cache blob): fn reads
 * the question and writes the answer's payload; fn NULL answers empty. */
typedef void (*rc_answer_fn)(void *user, struct wire_rd *question,
                             struct wire_wr *answer);
swgpu_result rc_call_answering(struct rc_dev *d, uint32_t op,
                               struct wire_wr *req, const int *fds,
                               unsigned nfds, struct rc_reply *rep,
                               rc_answer_fn fn, void *user);
/* Frees the payload and closes every descriptor not taken (set to -1). */
void rc_reply_fini(struct rc_reply *rep);
/* A reply's payload must be read whole; a short or long one means a
 * daemon of another protocol: the device is lost. */
swgpu_result rc_reply_check(struct rc_dev *d, struct rc_reply *rep,
                            swgpu_result r);

/* Connect (starting the daemon if none answers) and say HELLO. */
swgpu_result rc_connect(struct rc_dev *d, const swgpu_config *cfg);
void rc_disconnect(struct rc_dev *d);

/* The first open remote device, for process-wide calls. */
struct rc_dev *rc_any_device(void);
void rc_register(struct rc_dev *d);
/* Remote devices open in this process. */
uint32_t rc_open_count(void);
void rc_unregister(struct rc_dev *d);

/* ---- the fast path (client_fast.c; remote/fast_page.h) ---- */

/* What a fast-path call returns when the call must be a request. */
#define RC_FAST_NOT_TAKEN ((swgpu_result)2000)

/* Map the pages HELLO's reply brought (the descriptors are taken;
 * gpu_fd -1: none, every record rings the session thread). */
void rc_fast_open(struct rc_dev *d, int memfd, int doorbell, int gpu_fd);
void rc_fast_close(struct rc_dev *d);
/* Device close: every thread waiting on the page returns CONTEXT_LOST
 * before the page and the objects go. */
void rc_fast_quiesce(struct rc_dev *d);
/* One log line: the requests by op and the fast path's share. */
void rc_fast_log_stats(struct rc_dev *d);
struct mirror_slot *rc_fast_slot(struct rc_dev *d, uint32_t kind,
                                 uint32_t slot);
/* Every submit goes through here, so that the seqnos the daemon hands
 * out and the ones predicted for ring submits stay one sequence. */
void rc_fast_submit_lock(struct rc_dev *d);
void rc_fast_submit_unlock(struct rc_dev *d);
/* Under the submit lock: queue the submit (payload: its QUEUE_SUBMIT
 * request) in the ring. */
swgpu_result rc_fast_submit(struct rc_queue *q, const swgpu_submit_info *info,
                            const struct wire_wr *payload,
                            uint64_t *seqno_out);
/* The context's mirror says OK and the daemon was not seen dying. */
bool rc_fast_context_ok(struct rc_dev *d, const struct mirror_slot *m);
swgpu_result rc_fast_queue_wait(struct rc_queue *q, uint64_t seqno,
                                uint64_t deadline_ns);
swgpu_result rc_fast_sync_query(const struct rc_sync *s, uint64_t *value);
/* Under the submit lock: a host signal of a timeline of this client
 * alone, as a ring record (TIMELINE_REWIND checked against the mirror
 * and the ring's earlier signals). */
swgpu_result rc_fast_sync_signal(struct rc_sync *s, uint64_t value);
/* Under the submit lock: a reset of a binary object of this client
 * alone, as a ring record. */
swgpu_result rc_fast_sync_reset(struct rc_sync *s);
swgpu_result rc_fast_sync_wait(struct rc_dev *d, swgpu_syncobj *const *objs,
                               const uint64_t *values, uint32_t count,
                               uint32_t flags, uint64_t deadline_ns,
                               uint32_t *first);

/* Helpers of the client objects' files (client_api.c, client_sync.c). */
/* A zeroed object of size bytes on d's list (device close frees what the
 * application left), or NULL. */
void *rc_obj_new(size_t size, struct rc_dev *d, uint32_t kind, uint64_t id);
void rc_obj_free(void *p);
/* One request of n u64 arguments; the reply for the caller to read
 * (rep_out NULL: it must be empty). */
swgpu_result rc_call_u64s(struct rc_dev *d, uint32_t op,
                          const uint64_t *args, unsigned n,
                          struct rc_reply *rep_out);
/* One request with the object's id as its argument. */
swgpu_result rc_call_id(const void *obj, uint32_t op);
/* Both client objects of one device. */
bool rc_same_dev(const void *a, const void *b);

#endif

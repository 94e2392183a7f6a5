/* SPDX-License-Identifier: MIT */
/*
 * swgpud: a GPU's engines serve its sessions' submit rings
 * (kmd/ring_server.h; docs/ARCHITECTURE.md, "Who serves the ring").
 *
 * Locking: the session list is a rwlock, read-held by an engine while it
 * serves rings or reads bells, write-held to add or remove a session;
 * a ring is served by whoever holds its session's ring_lock (an engine
 * tries it, the session thread waits for it), so records are taken one
 * at a time and in order. Order: list lock, then ring_lock, then the
 * session's lock or dev->lock (never the list lock while holding one of
 * them).
 */
#ifndef SWGPUD_RING_SERVER_H
#define SWGPUD_RING_SERVER_H

#include <pthread.h>
#include <stdbool.h>

#include <swgpu/swgpu.h>

#include "kmd/ring_server.h"
#include "remote/fast_page.h"

/* Sessions whose bells the engines sleep on (futex_waitv takes 128
 * words: the engine's own doorbell and these); more sessions ring the
 * session thread only. */
#define RING_SERVER_MAX_SESSIONS 120u

struct session;

struct ring_server {
	struct kmd_ring_server ops;
	swgpu_device *dev;
	int gpu_memfd;               /* the fast_gpu_page, sealed */
	struct fast_gpu_page *page;
	pthread_rwlock_t lock;
	struct session *sessions[RING_SERVER_MAX_SESSIONS];
	unsigned count;
	/* Its clients' spinning waiters are subtracted from the machine's
	 * load (util/spin.h, spin_peer_add). */
	bool peer_counted;
};

/* Make the GPU page and hand the engines the callbacks. false: the
 * engines serve nothing (every record goes to the session thread). */
bool ring_server_init(struct ring_server *rs, swgpu_device *dev);
/* After the device closed (its engines joined). */
void ring_server_fini(struct ring_server *rs);
/* The session's ring is served by the engines too (bells_on in its page
 * when it fits). */
void ring_server_add(struct ring_server *rs, struct session *s);
/* No engine serves it any more once this returns. */
void ring_server_remove(struct ring_server *rs, struct session *s);

#endif

/* SPDX-License-Identifier: MIT */
/* swgpud: a session's fast-path page (remote/fast_page.h). */
#ifndef SWGPUD_FAST_RING_H
#define SWGPUD_FAST_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "remote/fast_page.h"
#include "util/spin.h"

struct session;
struct sd_entry;

struct sd_fast {
	int memfd;                   /* the page, shared with the client */
	int doorbell;                /* eventfd the client writes */
	struct fast_page *page;
	uint8_t *record;             /* a private copy of the record served */
	uint8_t ctx_used[FAST_CTX_SLOTS];
	uint8_t queue_used[FAST_QUEUE_SLOTS];
	uint8_t sync_used[FAST_SYNC_SLOTS];
	struct spin_budget spin;     /* polling the ring before sleeping */
};

/* Make the page and the doorbell (fds to send in HELLO's reply). false:
 * the session runs without a fast path (every call a request). */
bool sd_fast_init(struct sd_fast *f);
void sd_fast_fini(struct sd_fast *f);

/* A free mirror slot of the queue or sync table, or FAST_NO_SLOT. */
uint32_t sd_fast_slot_get(struct sd_fast *f, uint32_t kind);
void sd_fast_slot_put(struct sd_fast *f, uint32_t kind, uint32_t slot);
struct mirror_slot *sd_fast_slot(struct sd_fast *f, uint32_t kind,
                                 uint32_t slot);

/* An entry's mirror off its object and its slot free (the entry is
 * being destroyed). */
void sd_fast_detach(struct session *s, struct sd_entry *e);

/* A ring submit of queue q failed in the daemon (info: as the client
 * sent it, or NULL if it did not resolve): lose the context and queue it
 * as a failed job, so that the seqnos stay the client's. */
void sd_fast_submit_failed(struct session *s, struct sd_entry *q,
                           const swgpu_submit_info *info, swgpu_result r);

/* Serve every record in the ring (the session thread: it waits for an
 * engine serving it). false: a malformed record, now or before (the
 * client is dropped). */
bool sd_fast_drain(struct session *s);
/* An engine (ring_server.c): serve the ring if it holds records and
 * nobody serves it now; a malformed record shuts the client's socket
 * (its session thread ends the session). true if it took records. */
bool sd_fast_try_drain(struct session *s);

/* Serve the ring until the socket has something to read (or broke).
 * false: drop the client. */
bool sd_fast_wait_socket(struct session *s);

#endif

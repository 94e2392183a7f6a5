/* SPDX-License-Identifier: MIT */
/* The malicious client's wire helpers: raw sessions and calls. */
#ifndef EVIL_WIRE_H
#define EVIL_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "remote/proto.h"
#include "remote/wire.h"

#define CHECK(c, what) \
	do { \
		if (!(c)) { \
			printf("FAIL %s (line %d: %s)\n", what, __LINE__, #c); \
			exit(1); \
		} \
		printf("ok %s\n", what); \
	} while (0)

struct reply {
	struct wire_hdr h;
	void *payload;
	int fds[WIRE_MAX_FDS];
	struct wire_rd rd;
};

extern const char *sock_path;
extern uint64_t next_tag;

int connect_raw(void);
/* One request, its reply; false when the daemon closed the connection. */
bool call(int s, uint32_t op, const struct wire_wr *w, const int *fds,
          unsigned nfds, struct reply *r);
void reply_fini(struct reply *r);
/* A session after HELLO; fast_fds (may be NULL) receives the fast
 * path's page, its doorbell and the GPU's page from the reply (or -1). */
int session_fast(int fast_fds[3]);
int session(void);
/* A call whose arguments are u64s; returns the result (or 99: the
 * connection was closed) and the first u64 of the reply in *out. */
int call64(int s, uint32_t op, const uint64_t *a, unsigned n, uint64_t *out);
int call_fd(int s, uint32_t op, const struct wire_wr *w, int fd);
/* Whether the daemon has closed s (EOF within ms). */
bool dropped(int s, int ms);
void send_raw(int s, const void *p, size_t n);
/* The honest session still answers. */
void honest_alive(int good, uint64_t ctx, const char *after);

/* evil_ring.c: the fast path's ring and mirrors. */
void fast_ring(int good, uint64_t good_ctx);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The daemon socket's framing (docs/ARCHITECTURE.md, "Shared mode"): a
 * message is a fixed header and a payload of little fields written in
 * order; file descriptors ride along as SCM_RIGHTS with the header.
 * Readers check every field against the payload's end: a truncated or
 * malformed message is an error, never a read past the buffer.
 */
#ifndef SWGPU_REMOTE_WIRE_H
#define SWGPU_REMOTE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WIRE_MAX_FDS 4u
/* SPIR-V modules are the largest payloads; anything bigger is malformed. */
#define WIRE_MAX_PAYLOAD (64u << 20)

struct wire_hdr {
	uint32_t size;      /* payload bytes after the header */
	uint16_t op;        /* proto.h */
	uint16_t nfds;      /* descriptors sent with the header */
	uint64_t tag;       /* the request's; its reply carries it back */
	int32_t result;     /* replies: a swgpu_result */
	uint32_t reserved;  /* 0 */
};

/* A payload being written; grows on demand, oom is sticky. */
struct wire_wr {
	uint8_t *buf;
	size_t len, cap;
	bool oom;
	uint8_t inline_buf[256];
};

void wire_wr_init(struct wire_wr *w);
void wire_wr_fini(struct wire_wr *w);
void wire_put(struct wire_wr *w, const void *p, size_t n);
void wire_put_u32(struct wire_wr *w, uint32_t v);
void wire_put_u64(struct wire_wr *w, uint64_t v);
/* A string (NULL allowed): length + 1 (0 for NULL), then its bytes. */
void wire_put_str(struct wire_wr *w, const char *s);

/* A payload being read; bad is sticky and every get then yields 0. */
struct wire_rd {
	const uint8_t *p, *end;
	bool bad;
};

void wire_rd_init(struct wire_rd *r, const void *buf, size_t len);
bool wire_get(struct wire_rd *r, void *p, size_t n);
uint32_t wire_get_u32(struct wire_rd *r);
uint64_t wire_get_u64(struct wire_rd *r);
/* n bytes in place (NULL and bad set when short). */
const void *wire_get_ptr(struct wire_rd *r, size_t n);
/* A string written by wire_put_str, NUL-terminated in place (NULL for a
 * NULL string; bad when malformed). */
const char *wire_get_str(struct wire_rd *r);
/* Whether the whole payload was read and nothing was malformed. */
bool wire_rd_done(const struct wire_rd *r);

/* Send one message (payload may be NULL when size is 0). Retries short
 * writes and EINTR; false (errno set) when the peer is gone or the
 * socket's send timeout passed. Never raises SIGPIPE. */
bool wire_send(int sock, const struct wire_hdr *h, const void *payload,
               const int *fds, unsigned nfds);

/* Receive one message: *payload is malloc'ed (NULL when size is 0), the
 * descriptors received are in fds[0..h->nfds). false on EOF, an error or a
 * malformed header (more than WIRE_MAX_FDS descriptors, a payload over
 * WIRE_MAX_PAYLOAD, descriptors announced but not received): every
 * descriptor received is closed then. */
bool wire_recv(int sock, struct wire_hdr *h, void **payload,
               int fds[WIRE_MAX_FDS]);

#endif

/* SPDX-License-Identifier: MIT */
/* The daemon socket's framing (wire.h). Both ends are the same machine
 * and the same protocol build (proto.h's hash), so fields are host
 * endian. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* MSG_CMSG_CLOEXEC */
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "remote/wire.h"

void
wire_wr_init(struct wire_wr *w)
{
	w->buf = w->inline_buf;
	w->len = 0;
	w->cap = sizeof(w->inline_buf);
	w->oom = false;
}

void
wire_wr_fini(struct wire_wr *w)
{
	if (w->buf != w->inline_buf)
		free(w->buf);
	wire_wr_init(w);
}

void
wire_put(struct wire_wr *w, const void *p, size_t n)
{
	if (w->oom)
		return;
	if (n > WIRE_MAX_PAYLOAD || w->len + n > WIRE_MAX_PAYLOAD) {
		w->oom = true;
		return;
	}
	if (w->len + n > w->cap) {
		size_t cap = w->cap * 2;
		uint8_t *nb;

		while (cap < w->len + n)
			cap *= 2;
		nb = w->buf == w->inline_buf ? malloc(cap)
		                             : realloc(w->buf, cap);
		if (!nb) {
			w->oom = true;
			return;
		}
		if (w->buf == w->inline_buf)
			memcpy(nb, w->inline_buf, w->len);
		w->buf = nb;
		w->cap = cap;
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void
wire_put_u32(struct wire_wr *w, uint32_t v)
{
	wire_put(w, &v, sizeof(v));
}

void
wire_put_u64(struct wire_wr *w, uint64_t v)
{
	wire_put(w, &v, sizeof(v));
}

void
wire_put_str(struct wire_wr *w, const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;

	wire_put_u32(w, (uint32_t)n);
	wire_put(w, s, n);
}

void
wire_rd_init(struct wire_rd *r, const void *buf, size_t len)
{
	r->p = buf;
	r->end = buf ? r->p + len : r->p; /* no arithmetic on NULL */
	r->bad = false;
}

const void *
wire_get_ptr(struct wire_rd *r, size_t n)
{
	const uint8_t *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	if (n)
		r->p += n;
	return p;
}

bool
wire_get(struct wire_rd *r, void *p, size_t n)
{
	const void *src = wire_get_ptr(r, n);

	if (!src) {
		memset(p, 0, n);
		return false;
	}
	memcpy(p, src, n);
	return true;
}

uint32_t
wire_get_u32(struct wire_rd *r)
{
	uint32_t v;

	wire_get(r, &v, sizeof(v));
	return v;
}

uint64_t
wire_get_u64(struct wire_rd *r)
{
	uint64_t v;

	wire_get(r, &v, sizeof(v));
	return v;
}

const char *
wire_get_str(struct wire_rd *r)
{
	uint32_t n = wire_get_u32(r);
	const char *s;

	if (!n)
		return NULL;
	s = wire_get_ptr(r, n);
	if (!s || s[n - 1] != '\0' || memchr(s, 0, n) != s + n - 1) {
		r->bad = true;
		return NULL;
	}
	return s;
}

bool
wire_rd_done(const struct wire_rd *r)
{
	return !r->bad && r->p == r->end;
}

bool
wire_send(int sock, const struct wire_hdr *h, const void *payload,
          const int *fds, unsigned nfds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * WIRE_MAX_FDS)];
	} cm;
	struct iovec iov[2] = {
		{ (void *)h, sizeof(*h) },
		{ (void *)payload, h->size },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = h->size ? 2 : 1 };
	size_t total = sizeof(*h) + h->size;

	if (nfds > WIRE_MAX_FDS || nfds != h->nfds) {
		errno = EINVAL;
		return false;
	}
	if (nfds) {
		struct cmsghdr *c;

		memset(&cm, 0, sizeof(cm));
		msg.msg_control = cm.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	while (total) {
		ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		/* The descriptors went with the first bytes. */
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		total -= (size_t)n;
		while (n > 0 && msg.msg_iovlen) {
			size_t take = (size_t)n < msg.msg_iov->iov_len
			                      ? (size_t)n : msg.msg_iov->iov_len;

			msg.msg_iov->iov_base = (char *)msg.msg_iov->iov_base +
			                        take;
			msg.msg_iov->iov_len -= take;
			n -= (ssize_t)take;
			if (!msg.msg_iov->iov_len) {
				msg.msg_iov++;
				msg.msg_iovlen--;
			}
		}
	}
	return true;
}

static void
close_fds(int *fds, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static bool
read_full(int sock, void *buf, size_t len)
{
	while (len) {
		ssize_t n = recv(sock, buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf = (char *)buf + n;
		len -= (size_t)n;
	}
	return true;
}

bool
wire_recv(int sock, struct wire_hdr *h, void **payload, int fds[WIRE_MAX_FDS])
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * WIRE_MAX_FDS)];
	} cm;
	unsigned got = 0;
	size_t have = 0;

	*payload = NULL;
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		fds[i] = -1;
	/* The header, with whatever descriptors came along. */
	while (have < sizeof(*h)) {
		struct iovec iov = { (char *)h + have, sizeof(*h) - have };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cm.buf, .msg_controllen = sizeof(cm.buf),
		};
		ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
		     c = CMSG_NXTHDR(&msg, c)) {
			unsigned k;

			if (c->cmsg_level != SOL_SOCKET ||
			    c->cmsg_type != SCM_RIGHTS)
				continue;
			k = (unsigned)((c->cmsg_len - CMSG_LEN(0)) /
			               sizeof(int));
			for (unsigned i = 0; i < k; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
				       sizeof(int));
				if (got < WIRE_MAX_FDS)
					fds[got++] = fd;
				else
					close(fd);
			}
		}
		if (msg.msg_flags & MSG_CTRUNC)
			goto fail;
		have += (size_t)n;
	}
	if (h->nfds != got || h->size > WIRE_MAX_PAYLOAD || h->reserved)
		goto fail;
	if (h->size) {
		*payload = malloc(h->size);
		if (!*payload || !read_full(sock, *payload, h->size))
			goto fail;
	}
	return true;
fail:
	free(*payload);
	*payload = NULL;
	close_fds(fds, got);
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		fds[i] = -1;
	return false;
}

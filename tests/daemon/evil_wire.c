/* SPDX-License-Identifier: MIT */
/* The malicious client's wire helpers (evil_wire.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "evil_wire.h"

const char *sock_path;
uint64_t next_tag;

int
connect_raw(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", sock_path);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
		printf("FAIL connect %s: %s\n", sock_path, strerror(errno));
		exit(1);
	}
	return s;
}


/* One request, its reply; false when the daemon closed the connection. */
bool
call(int s, uint32_t op, const struct wire_wr *w, const int *fds,
     unsigned nfds, struct reply *r)
{
	struct wire_hdr h = { .size = w ? (uint32_t)w->len : 0,
	                      .op = (uint16_t)op, .nfds = (uint16_t)nfds,
	                      .tag = ++next_tag };

	memset(r, 0, sizeof(*r));
	if (!wire_send(s, &h, w ? w->buf : NULL, fds, nfds))
		return false;
	if (!wire_recv(s, &r->h, &r->payload, r->fds))
		return false;
	wire_rd_init(&r->rd, r->payload, r->h.size);
	return true;
}

void
reply_fini(struct reply *r)
{
	free(r->payload);
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		if (r->fds[i] > 0)
			close(r->fds[i]);
}

int
session_fast(int fast_fds[3])
{
	int s = connect_raw();
	struct wire_wr w;
	struct reply r;
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	wire_wr_init(&w);
	wire_put_str(&w, proto_hash());
	wire_put_u32(&w, (uint32_t)getpid());
	wire_put_str(&w, "evil_client");
	proto_put_config(&w, &cfg);
	wire_put_u32(&w, 0);
	if (!call(s, PROTO_HELLO, &w, NULL, 0, &r) || r.h.result != SWGPU_OK) {
		printf("FAIL HELLO\n");
		exit(1);
	}
	if (fast_fds) {
		/* the session's page, its doorbell, the GPU's page */
		for (unsigned i = 0; i < 3; i++) {
			fast_fds[i] = i < r.h.nfds ? r.fds[i] : -1;
			if (i < r.h.nfds)
				r.fds[i] = -1;
		}
	}
	reply_fini(&r);
	wire_wr_fini(&w);
	return s;
}

int
session(void)
{
	return session_fast(NULL);
}

int
call64(int s, uint32_t op, const uint64_t *a, unsigned n, uint64_t *out)
{
	struct wire_wr w;
	struct reply r;
	int res;

	wire_wr_init(&w);
	for (unsigned i = 0; i < n; i++)
		wire_put_u64(&w, a[i]);
	if (!call(s, op, &w, NULL, 0, &r)) {
		wire_wr_fini(&w);
		return 99;
	}
	res = r.h.result;
	if (out)
		*out = r.h.size >= 8 ? wire_get_u64(&r.rd) : 0;
	reply_fini(&r);
	wire_wr_fini(&w);
	return res;
}

int
call_fd(int s, uint32_t op, const struct wire_wr *w, int fd)
{
	struct reply r;
	int res;

	if (!call(s, op, w, &fd, 1, &r))
		return 99;
	res = r.h.result;
	reply_fini(&r);
	return res;
}

/* Whether the daemon has closed s (EOF within ms). */
bool
dropped(int s, int ms)
{
	char buf[4096];

	for (;;) {
		struct pollfd p = { .fd = s, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, ms) <= 0)
			return false;
		n = recv(s, buf, sizeof(buf), 0);
		if (n <= 0)
			return true;
	}
}

void
send_raw(int s, const void *p, size_t n)
{
	if (send(s, p, n, MSG_NOSIGNAL) != (ssize_t)n)
		printf("(send: %s)\n", strerror(errno));
}

/* The honest session still answers. */
void
honest_alive(int good, uint64_t ctx, const char *after)
{
	char what[128];

	snprintf(what, sizeof(what), "honest session works after %s", after);
	CHECK(call64(good, PROTO_CTX_STATE, &ctx, 1, NULL) == SWGPU_OK, what);
}

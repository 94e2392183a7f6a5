/* SPDX-License-Identifier: MIT */
/*
 * A malicious client of swgpud for test_shared.py: it speaks the wire
 * protocol itself (swgpu/src/remote) and tries what a buggy or hostile
 * program could. Every attempt must get its error or lose only this
 * client's connection, while an honest session of the same process keeps
 * working. Prints one line per check, "ok" at the end; exit status 1 on
 * the first wrong answer.
 *
 *   evil_client SOCKET
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <swgpu/swgpu_packet.h>

#include "remote/proto.h"
#include "remote/wire.h"

#include "evil_wire.h"

static void
ids_and_handles(int good, int evil, uint64_t *ctx_out)
{
	uint64_t ctx = 0, bo = 0, ectx = 0, sync = 0, a[5];
	struct wire_wr w;
	int fds[2];

	CHECK(call64(good, PROTO_CTX_CREATE, NULL, 0, &ctx) == SWGPU_OK,
	      "honest context");
	a[0] = 1u << 20;
	a[1] = SWGPU_HEAP_VRAM;
	a[2] = 0;
	CHECK(call64(good, PROTO_BO_CREATE, a, 3, &bo) == SWGPU_OK,
	      "honest BO");
	CHECK(call64(evil, PROTO_CTX_CREATE, NULL, 0, &ectx) == SWGPU_OK,
	      "evil context");
	/* Another session's BO, by its real id: not ours to name. */
	a[0] = ectx;
	a[1] = bo;
	a[2] = 0;
	a[3] = 1u << 20;
	a[4] = SWGPU_VA_READ | SWGPU_VA_WRITE;
	CHECK(call64(evil, PROTO_VA_MAP, a, 5, NULL) == SWGPU_ERR_INVALID_ARG,
	      "another client's BO id refused");
	CHECK(call64(evil, PROTO_BO_DESTROY, &bo, 1, NULL) ==
	              SWGPU_ERR_INVALID_ARG,
	      "destroying another client's BO refused");
	/* Forged ids, ids of the wrong kind, a destroyed id. */
	a[0] = 0x1234567800000007ull;
	CHECK(call64(evil, PROTO_CTX_STATE, a, 1, NULL) ==
	              SWGPU_ERR_INVALID_ARG, "forged id refused");
	CHECK(call64(evil, PROTO_BO_MAP, &ectx, 1, NULL) ==
	              SWGPU_ERR_INVALID_ARG, "a context's id as a BO refused");
	a[0] = SWGPU_SYNCOBJ_TIMELINE;
	a[1] = 0;
	CHECK(call64(evil, PROTO_SYNC_CREATE, a, 2, &sync) == SWGPU_OK,
	      "evil sync object");
	CHECK(call64(evil, PROTO_SYNC_DESTROY, &sync, 1, NULL) == SWGPU_OK,
	      "evil sync object destroyed");
	CHECK(call64(evil, PROTO_SYNC_SIGNAL, (uint64_t[]){ sync, 5 }, 2,
	             NULL) == SWGPU_ERR_INVALID_ARG, "destroyed id refused");
	/* Descriptors of the wrong kind. */
	wire_wr_init(&w);
	wire_put_u64(&w, 4096);
	wire_put_u32(&w, SWGPU_HEAP_SYSTEM);
	wire_put_u32(&w, 0);
	fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	CHECK(call_fd(evil, PROTO_BO_IMPORT_FD, &w, fds[0]) ==
	              SWGPU_ERR_BAD_HANDLE, "/dev/null as memory refused");
	close(fds[0]);
	if (pipe(fds) == 0) {
		CHECK(call_fd(evil, PROTO_BO_IMPORT_FD, &w, fds[0]) ==
		              SWGPU_ERR_BAD_HANDLE, "a pipe as memory refused");
		CHECK(call_fd(evil, PROTO_SYNC_IMPORT_FD, NULL, fds[0]) ==
		              SWGPU_ERR_BAD_HANDLE,
		      "a pipe as a sync object refused");
		close(fds[0]);
		close(fds[1]);
	}
	wire_wr_fini(&w);
	honest_alive(good, ctx, "bad ids and descriptors");
	*ctx_out = ctx;
}

/* A job of garbage, and a job reading a VA the context never mapped:
 * faults of the evil context only. */
static void
bad_packets(int good, int evil, uint64_t good_ctx)
{
	uint64_t ctx, q, bo, va, seq, st, a[5];
	struct reply r;
	struct wire_wr w;
	int fd;

	for (int pass = 0; pass < 2; pass++) {
		const char *what = pass ? "an unmapped VA" : "a bad packet";
		char line[96];

		CHECK(call64(evil, PROTO_CTX_CREATE, NULL, 0, &ctx) == SWGPU_OK,
		      "evil context");
		a[0] = ctx;
		a[1] = SWGPU_ENGINE_COMPUTE;
		a[2] = SWGPU_ENGINE_ANY;
		a[3] = SWGPU_PRIORITY_NORMAL;
		CHECK(call64(evil, PROTO_QUEUE_CREATE, a, 4, &q) == SWGPU_OK,
		      "evil queue");
		/* A SYSTEM BO holding the commands, mapped through its fd. */
		wire_wr_init(&w);
		wire_put_u64(&w, 4096);
		wire_put_u64(&w, SWGPU_HEAP_SYSTEM);
		wire_put_u64(&w, 0);
		CHECK(call(evil, PROTO_BO_CREATE, &w, NULL, 0, &r) &&
		      r.h.result == SWGPU_OK && r.fds[0] >= 0, "command BO");
		wire_wr_fini(&w);
		bo = wire_get_u64(&r.rd);
		fd = r.fds[0];
		r.fds[0] = -1;
		reply_fini(&r);
		{
			uint32_t dw[16] = { 0xdeadbeef, 0x12345678, 0xffffffff };
			uint32_t n = 3;

			if (pass)
				n = swgpu_emit_copy(dw, 0x7f0000000ull,
				                    0x7e0000000ull, 4096);
			CHECK(pwrite(fd, dw, n * 4, 0) == (ssize_t)(n * 4),
			      "commands written through the memfd");
			close(fd);
			a[0] = ctx;
			a[1] = bo;
			a[2] = 0;
			a[3] = 4096;
			a[4] = SWGPU_VA_READ;
			CHECK(call64(evil, PROTO_VA_MAP, a, 5, &va) == SWGPU_OK,
			      "command BO mapped");
			wire_wr_init(&w);
			wire_put_u64(&w, q);
			wire_put_u32(&w, 1);
			{
				swgpu_ib ib = { va, n };

				wire_put(&w, &ib, sizeof(ib));
			}
			wire_put_u32(&w, 0);
			wire_put_u32(&w, 0);
			CHECK(call(evil, PROTO_QUEUE_SUBMIT, &w, NULL, 0, &r) &&
			      r.h.result == SWGPU_OK, "submitted");
			seq = wire_get_u64(&r.rd);
			reply_fini(&r);
			wire_wr_fini(&w);
		}
		a[0] = q;
		a[1] = seq;
		a[2] = UINT64_MAX;
		snprintf(line, sizeof(line), "%s loses the evil context", what);
		CHECK(call64(evil, PROTO_QUEUE_WAIT, a, 3, NULL) ==
		              SWGPU_ERR_CONTEXT_LOST, line);
		wire_wr_init(&w);
		wire_put_u64(&w, ctx);
		CHECK(call(evil, PROTO_CTX_STATE, &w, NULL, 0, &r) &&
		      r.h.result == SWGPU_OK, "state read");
		st = wire_get_u32(&r.rd);
		{
			swgpu_fault_info f;

			wire_get(&r.rd, &f, sizeof(f));
			printf("  fault: %s\n", f.message);
			CHECK(st == SWGPU_CONTEXT_GUILTY &&
			      f.kind == (pass ? SWGPU_FAULT_PAGE_READ
			                      : SWGPU_FAULT_BAD_PACKET),
			      pass ? "guilty of a page fault"
			           : "guilty of a bad packet");
		}
		reply_fini(&r);
		wire_wr_fini(&w);
		honest_alive(good, good_ctx, what);
	}
}

/* Malformed messages end only the connection that sent them. */
static void
malformed(int good, uint64_t good_ctx)
{
	struct wire_hdr h;
	uint8_t junk[64];

	{
		int s = session();

		memset(&h, 0, sizeof(h));
		h.op = PROTO_VA_MAP;
		h.size = 8; /* VA_MAP wants 40 bytes */
		h.tag = 1;
		send_raw(s, &h, sizeof(h));
		send_raw(s, junk, 8);
		CHECK(dropped(s, 5000), "a short request drops its client");
		close(s);
	}
	{
		int s = session();

		memset(&h, 0, sizeof(h));
		h.op = 999;
		h.tag = 1;
		send_raw(s, &h, sizeof(h));
		CHECK(dropped(s, 5000), "an unknown op drops its client");
		close(s);
	}
	{
		int s = session();

		memset(&h, 0, sizeof(h));
		h.op = PROTO_CTX_CREATE;
		h.size = 0xffffffffu;
		send_raw(s, &h, sizeof(h));
		CHECK(dropped(s, 5000), "a huge size drops its client");
		close(s);
	}
	{
		int s = session();

		memset(&h, 0, sizeof(h));
		h.op = PROTO_BO_IMPORT_FD;
		h.nfds = 2; /* announced, not sent */
		send_raw(s, &h, sizeof(h));
		CHECK(dropped(s, 5000), "missing descriptors drop their client");
		close(s);
	}
	{
		/* HELLO of another protocol, then garbage as HELLO. */
		int s = connect_raw();
		struct wire_wr w;
		struct reply r;

		wire_wr_init(&w);
		wire_put_str(&w, "not-our-protocol");
		CHECK(call(s, PROTO_HELLO, &w, NULL, 0, &r) &&
		      r.h.result != SWGPU_OK,
		      "another protocol's HELLO refused");
		reply_fini(&r);
		wire_wr_fini(&w);
		close(s);
		s = connect_raw();
		memset(junk, 0xa5, sizeof(junk));
		send_raw(s, junk, sizeof(junk));
		CHECK(dropped(s, 5000), "garbage instead of HELLO dropped");
		close(s);
	}
	honest_alive(good, good_ctx, "malformed messages");
}

/* A client that sends and never reads its replies is dropped once the
 * daemon's send times out; nobody else waits for it. */
static void
never_reads(int good, uint64_t good_ctx)
{
	int s = session();
	struct wire_wr w;
	struct wire_hdr h = { .op = PROTO_DEV_DUMP };
	unsigned sent = 0;

	wire_wr_init(&w);
	fcntl(s, F_SETFL, O_NONBLOCK);
	/* State dumps are big replies: the socket fills fast. */
	for (int i = 0; i < 100000; i++) {
		h.tag = (uint64_t)i + 1;
		if (send(s, &h, sizeof(h), MSG_NOSIGNAL) != sizeof(h))
			break;
		sent++;
	}
	printf("  %u requests sent unread\n", sent);
	honest_alive(good, good_ctx, "a client that does not read");
	/* Longer than the daemon's send timeout (5 s) without reading. */
	sleep(7);
	fcntl(s, F_SETFL, 0);
	CHECK(dropped(s, 20000), "a client that does not read is dropped");
	close(s);
	wire_wr_fini(&w);
}

/* Many submits from one client: all run, in order, and the honest
 * session is served meanwhile. */
static void
flood(int good, int evil, uint64_t good_ctx)
{
	uint64_t ctx, q, a[4], seq = 0;
	struct wire_wr w;
	struct reply r;

	CHECK(call64(evil, PROTO_CTX_CREATE, NULL, 0, &ctx) == SWGPU_OK,
	      "flood context");
	a[0] = ctx;
	a[1] = SWGPU_ENGINE_COPY;
	a[2] = SWGPU_ENGINE_ANY;
	a[3] = SWGPU_PRIORITY_NORMAL;
	CHECK(call64(evil, PROTO_QUEUE_CREATE, a, 4, &q) == SWGPU_OK,
	      "flood queue");
	for (int i = 0; i < 20000; i++) {
		wire_wr_init(&w);
		wire_put_u64(&w, q);
		wire_put_u32(&w, 0); /* sync-only jobs */
		wire_put_u32(&w, 0);
		wire_put_u32(&w, 0);
		if (!call(evil, PROTO_QUEUE_SUBMIT, &w, NULL, 0, &r) ||
		    r.h.result != SWGPU_OK) {
			printf("FAIL flood submit %d\n", i);
			exit(1);
		}
		seq = wire_get_u64(&r.rd);
		reply_fini(&r);
		wire_wr_fini(&w);
		if (i % 5000 == 0)
			honest_alive(good, good_ctx, "5000 more submits");
	}
	a[0] = q;
	a[1] = seq;
	a[2] = UINT64_MAX;
	CHECK(seq == 20000 && call64(evil, PROTO_QUEUE_WAIT, a, 3, NULL) ==
	                            SWGPU_OK, "20000 submits all done");
}

int
main(int argc, char **argv)
{
	int good, evil;
	uint64_t good_ctx;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: evil_client SOCKET\n");
		return 2;
	}
	sock_path = argv[1];
	good = session();
	evil = session();
	ids_and_handles(good, evil, &good_ctx);
	bad_packets(good, evil, good_ctx);
	flood(good, evil, good_ctx);
	fast_ring(good, good_ctx);
	malformed(good, good_ctx);
	never_reads(good, good_ctx);
	close(evil);
	close(good);
	printf("ok\n");
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The malicious client against shared mode's fast path
 * (swgpu/src/remote/fast_page.h): it writes its session's submit ring by
 * hand. Records must be served in order with the seqnos a client
 * predicts; a record naming a forged queue does nothing; a submit the
 * daemon cannot queue loses only its own context; a corrupt ring drops
 * only its client.
 */
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "evil_wire.h"
#include "remote/fast_page.h"
#include "util/util.h"

struct ring {
	int sock, doorbell;
	struct fast_page *p;
	uint64_t ctx, q;
	uint32_t slot;
};

static void
ring_open(struct ring *r)
{
	int fds[2];
	uint64_t a[4];
	struct wire_wr w;
	struct reply rep;

	r->sock = session_fast(fds);
	CHECK(fds[0] >= 0 && fds[1] >= 0,
	      "HELLO brings the fast page and its doorbell");
	r->doorbell = fds[1];
	r->p = mmap(NULL, sizeof(*r->p), PROT_READ | PROT_WRITE, MAP_SHARED,
	            fds[0], 0);
	close(fds[0]);
	CHECK(r->p != MAP_FAILED && r->p->magic == FAST_PAGE_MAGIC,
	      "the fast page maps");
	CHECK(call64(r->sock, PROTO_CTX_CREATE, NULL, 0, &r->ctx) == SWGPU_OK,
	      "ring context");
	a[0] = r->ctx;
	a[1] = SWGPU_ENGINE_COPY;
	a[2] = SWGPU_ENGINE_ANY;
	a[3] = SWGPU_PRIORITY_NORMAL;
	wire_wr_init(&w);
	for (int i = 0; i < 4; i++)
		wire_put_u64(&w, a[i]);
	CHECK(call(r->sock, PROTO_QUEUE_CREATE, &w, NULL, 0, &rep) &&
	      rep.h.result == SWGPU_OK, "ring queue");
	r->q = wire_get_u64(&rep.rd);
	wire_get_u32(&rep.rd); /* device-wide queue id */
	r->slot = wire_get_u32(&rep.rd);
	CHECK(!rep.rd.bad && r->slot < FAST_QUEUE_SLOTS,
	      "the queue has a mirror slot");
	reply_fini(&rep);
	wire_wr_fini(&w);
}

static void
ring_close(struct ring *r)
{
	munmap(r->p, sizeof(*r->p));
	close(r->doorbell);
	close(r->sock);
}

static void
doorbell(struct ring *r)
{
	uint64_t one = 1;

	if (write(r->doorbell, &one, sizeof(one)) != sizeof(one))
		printf("(doorbell write failed)\n");
}

/* A record of kind, waiting for room (bounded). */
static void
put_record(struct ring *r, uint32_t kind, const void *data, uint32_t size)
{
	struct fast_page *p = r->p;
	uint64_t need = FAST_ALIGN(sizeof(struct fast_record) + size);
	uint64_t tail = atomic_load(&p->ring_tail);
	uint64_t until = swgpu_now_ns() + 30000000000ull;
	struct fast_record hd = { .size = size, .kind = kind };

	if (tail % FAST_RING_BYTES + need > FAST_RING_BYTES) {
		uint64_t skip = FAST_RING_BYTES - tail % FAST_RING_BYTES;
		struct fast_record fill = {
			.size = (uint32_t)(skip - sizeof(fill)),
			.kind = FAST_REC_SKIP,
		};

		while (tail + skip - atomic_load(&p->ring_head) >
		       FAST_RING_BYTES && swgpu_now_ns() < until)
			doorbell(r);
		memcpy(p->ring + tail % FAST_RING_BYTES, &fill, sizeof(fill));
		tail += skip;
		atomic_store(&p->ring_tail, tail);
	}
	while (tail + need - atomic_load(&p->ring_head) > FAST_RING_BYTES) {
		if (swgpu_now_ns() > until) {
			printf("FAIL the daemon does not serve the ring\n");
			exit(1);
		}
		doorbell(r);
		usleep(100);
	}
	memcpy(p->ring + tail % FAST_RING_BYTES, &hd, sizeof(hd));
	memcpy(p->ring + tail % FAST_RING_BYTES + sizeof(hd), data, size);
	atomic_store(&p->ring_tail, tail + need);
	doorbell(r);
}

/* A submit record of queue id q: one IB (size_dw 0: none). */
static void
put_submit(struct ring *r, uint64_t q, uint64_t ib_va, uint32_t ib_dw)
{
	struct wire_wr w;
	swgpu_ib ib = { .va = ib_va, .size_dw = ib_dw };

	wire_wr_init(&w);
	wire_put_u64(&w, q);
	wire_put_u32(&w, ib_dw ? 1 : 0);
	if (ib_dw)
		wire_put(&w, &ib, sizeof(ib));
	wire_put_u32(&w, 0); /* waits */
	wire_put_u32(&w, 0); /* signals */
	put_record(r, FAST_REC_SUBMIT, w.buf, (uint32_t)w.len);
	wire_wr_fini(&w);
}

/* The queue's mirror reaches seqno within 60 s. */
static bool
mirror_reaches(struct ring *r, uint64_t seqno)
{
	uint64_t until = swgpu_now_ns() + 60000000000ull;

	while (atomic_load(&r->p->queues[r->slot].value) < seqno)
		if (swgpu_now_ns() > until)
			return false;
		else
			usleep(200);
	return true;
}

static bool
mirror_lost(struct ring *r)
{
	uint64_t until = swgpu_now_ns() + 10000000000ull;

	while (!(atomic_load(&r->p->queues[r->slot].flags) & MIRROR_LOST))
		if (swgpu_now_ns() > until)
			return false;
		else
			usleep(200);
	return true;
}

void
fast_ring(int good, uint64_t good_ctx)
{
	struct ring r;
	uint64_t a[3];
	const uint32_t n = 20000; /* more than the ring holds at once */

	ring_open(&r);
	for (uint32_t i = 0; i < n; i++)
		put_submit(&r, r.q, 0, 0);
	CHECK(mirror_reaches(&r, n), "20000 ring submits done, seen in the "
	      "queue's mirror");
	a[0] = r.q;
	a[1] = n;
	a[2] = UINT64_MAX;
	CHECK(call64(r.sock, PROTO_QUEUE_WAIT, a, 3, NULL) == SWGPU_OK,
	      "the daemon's seqnos are the ones the ring implied");
	honest_alive(good, good_ctx, "a ring flood");

	put_submit(&r, 0x7777000000000003ull, 0, 0);
	put_submit(&r, r.q, 0, 0);
	CHECK(mirror_reaches(&r, n + 1) &&
	      call64(r.sock, PROTO_CTX_STATE, &r.ctx, 1, NULL) == SWGPU_OK,
	      "a record naming a forged queue does nothing");

	{
		struct fast_signal sig = { 0x7777000000000005ull, 5 };

		put_record(&r, FAST_REC_SIGNAL, &sig, sizeof(sig));
	}
	put_submit(&r, r.q, 0, 0);
	CHECK(mirror_reaches(&r, n + 2) &&
	      call64(r.sock, PROTO_CTX_STATE, &r.ctx, 1, NULL) == SWGPU_OK,
	      "a ring signal naming a forged sync object does nothing");

	put_submit(&r, r.q, 0, 4); /* an IB at VA 0: refused by the daemon */
	CHECK(mirror_lost(&r), "a submit the daemon refuses loses its "
	      "context (the mirror says so)");
	a[1] = 0;
	CHECK(call64(r.sock, PROTO_QUEUE_WAIT, a, 3, NULL) ==
	      SWGPU_ERR_CONTEXT_LOST, "and its waits say CONTEXT_LOST");
	honest_alive(good, good_ctx, "a refused ring submit");
	ring_close(&r);

	ring_open(&r);
	atomic_store(&r.p->ring_tail, atomic_load(&r.p->ring_head) +
	                              3ull * FAST_RING_BYTES);
	doorbell(&r);
	CHECK(dropped(r.sock, 5000), "a corrupt ring tail drops its client");
	ring_close(&r);
	honest_alive(good, good_ctx, "a corrupt ring");

	ring_open(&r);
	{
		struct fast_record hd = { .size = FAST_RING_BYTES,
		                          .kind = FAST_REC_SUBMIT };

		memcpy(r.p->ring, &hd, sizeof(hd));
		atomic_store(&r.p->ring_tail, 64);
		doorbell(&r);
	}
	CHECK(dropped(r.sock, 5000), "a record overrunning the ring drops "
	      "its client");
	ring_close(&r);

	ring_open(&r);
	{
		struct fast_record hd = { .size = 8, .kind = 77 };

		memcpy(r.p->ring, &hd, sizeof(hd));
		atomic_store(&r.p->ring_tail, 16);
		doorbell(&r);
	}
	CHECK(dropped(r.sock, 5000), "a record of an unknown kind drops its "
	      "client");
	ring_close(&r);

	ring_open(&r);
	{
		uint64_t half = 5;

		put_record(&r, FAST_REC_SIGNAL, &half, sizeof(half));
	}
	CHECK(dropped(r.sock, 5000), "a timeline signal record of the wrong "
	      "size drops its client");
	ring_close(&r);
	honest_alive(good, good_ctx, "malformed records");
}

/* SPDX-License-Identifier: MIT */
/*
 * The malicious client against shared mode's fast path
 * (swgpu/src/remote/fast_page.h): it writes its session's submit ring by
 * hand. Records must be served in order with the seqnos a client
 * predicts; a record naming a forged queue does nothing; a submit the
 * daemon cannot queue loses only its own context; a corrupt ring drops
 * only its client. The engines serve rings too (woken by the client's
 * bell, not the session's doorbell); the GPU's page that tells clients
 * what the engines do cannot be written; resets through the ring reset
 * the client's own binary objects only.
 */
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "evil_wire.h"
#include "remote/fast_page.h"
#include "util/util.h"

struct ring {
	int sock, doorbell;
	struct fast_page *p;
	const struct fast_gpu_page *gpu;
	uint64_t ctx, q;
	uint32_t slot;
};

static void
ring_open(struct ring *r)
{
	int fds[3];
	uint64_t a[4];
	struct wire_wr w;
	struct reply rep;

	r->sock = session_fast(fds);
	CHECK(fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0,
	      "HELLO brings the fast page, its doorbell and the GPU's page");
	CHECK(mmap(NULL, sizeof(*r->gpu), PROT_READ | PROT_WRITE, MAP_SHARED,
	           fds[2], 0) == MAP_FAILED,
	      "the GPU's page cannot be mapped writable");
	r->gpu = mmap(NULL, sizeof(*r->gpu), PROT_READ, MAP_SHARED, fds[2], 0);
	close(fds[2]);
	CHECK(r->gpu != MAP_FAILED && r->gpu->magic == FAST_GPU_MAGIC &&
	      r->gpu->engine_count <= SWGPU_MAX_ENGINES,
	      "the GPU's page maps read only");
	CHECK(mprotect((void *)r->gpu, sizeof(*r->gpu),
	               PROT_READ | PROT_WRITE) != 0,
	      "and cannot be made writable");
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
	munmap((void *)r->gpu, sizeof(*r->gpu));
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

/* A record of kind, waiting for room (bounded); the session's
 * doorbell rung unless quiet. */
static void
put_record_how(struct ring *r, uint32_t kind, const void *data,
               uint32_t size, bool quiet)
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
	if (!quiet)
		doorbell(r);
}

static void
put_record(struct ring *r, uint32_t kind, const void *data, uint32_t size)
{
	put_record_how(r, kind, data, size, false);
}

/* A submit record of queue id q: one IB (size_dw 0: none). */
static void
put_submit_how(struct ring *r, uint64_t q, uint64_t ib_va, uint32_t ib_dw,
               bool quiet)
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
	put_record_how(r, FAST_REC_SUBMIT, w.buf, (uint32_t)w.len, quiet);
	wire_wr_fini(&w);
}

static void
put_submit(struct ring *r, uint64_t q, uint64_t ib_va, uint32_t ib_dw)
{
	put_submit_how(r, q, ib_va, ib_dw, false);
}

static bool mirror_reaches(struct ring *r, uint64_t seqno);

/* A sync object of the session s: its id and mirror slot. */
static uint64_t
sync_create(int s, swgpu_syncobj_type type, uint64_t init, uint32_t *slot)
{
	struct wire_wr w;
	struct reply rep;
	uint64_t id;

	wire_wr_init(&w);
	wire_put_u64(&w, type);
	wire_put_u64(&w, init);
	CHECK(call(s, PROTO_SYNC_CREATE, &w, NULL, 0, &rep) &&
	      rep.h.result == SWGPU_OK, "a sync object");
	id = wire_get_u64(&rep.rd);
	*slot = wire_get_u32(&rep.rd);
	CHECK(!rep.rd.bad, "its mirror slot");
	reply_fini(&rep);
	wire_wr_fini(&w);
	return id;
}

/* The record after this one is served (or 10 s passed). */
static bool
ring_served(struct ring *r)
{
	uint64_t tail = atomic_load(&r->p->ring_tail);
	uint64_t until = swgpu_now_ns() + 10000000000ull;

	doorbell(r);
	while (atomic_load(&r->p->ring_head) < tail)
		if (swgpu_now_ns() > until)
			return false;
		else
			usleep(200);
	return true;
}

/* The engines serve the ring: a record with no session doorbell, only
 * the bell of the engine the queue ran on, asleep (the session thread
 * sleeps in poll on the socket and its doorbell: it never sees it). */
static void
engine_serves(struct ring *r, uint64_t seqno)
{
	uint32_t e = atomic_load(&r->p->queues[r->slot].engine);
	uint64_t until = swgpu_now_ns() + 10000000000ull;

	CHECK(e < r->gpu->engine_count && atomic_load(&r->p->bells_on),
	      "the queue's mirror names its engine, the engines serve rings");
	while (atomic_load(&r->gpu->engine_state[e]) != FAST_ENGINE_ASLEEP)
		if (swgpu_now_ns() > until) {
			printf("FAIL engine %u never sleeps\n", e);
			exit(1);
		} else {
			usleep(200);
		}
	/* And the session thread asleep too, so that only the bell can
	 * serve the record. */
	while (!atomic_load(&r->p->daemon_idle) && swgpu_now_ns() < until)
		usleep(200);
	put_submit_how(r, r->q, 0, 0, true);
	atomic_fetch_add(&r->p->bell[e], 1);
	syscall(SYS_futex, &r->p->bell[e], FUTEX_WAKE, 1, NULL, NULL, 0);
	CHECK(mirror_reaches(r, seqno), "an engine woken by its bell served "
	      "a ring submit (no session doorbell)");
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

	engine_serves(&r, n + 3);
	/* A client bumping and waking its bells without end: the engines
	 * go on (the honest client is served). */
	{
		uint32_t e = atomic_load(&r.p->queues[r.slot].engine);
		uint64_t until = swgpu_now_ns() + 200000000ull;

		while (swgpu_now_ns() < until) {
			atomic_fetch_add(&r.p->bell[e], 1);
			syscall(SYS_futex, &r.p->bell[e], FUTEX_WAKE, 1, NULL,
			        NULL, 0);
		}
		honest_alive(good, good_ctx, "a storm of bells");
	}

	/* Resets through the ring: the client's own binary object. */
	{
		uint32_t bslot, tslot, gslot;
		uint64_t bin = sync_create(r.sock, SWGPU_SYNCOBJ_BINARY, 1,
		                           &bslot);
		uint64_t tl = sync_create(r.sock, SWGPU_SYNCOBJ_TIMELINE, 7,
		                          &tslot);
		uint64_t theirs = sync_create(good, SWGPU_SYNCOBJ_BINARY, 1,
		                              &gslot);
		struct fast_reset rst = { bin };
		uint64_t v = 0;

		CHECK(bslot < FAST_SYNC_SLOTS &&
		      atomic_load(&r.p->syncs[bslot].value) ==
		      MIRROR_BINARY_SIGNALED, "a signalled binary object");
		put_record(&r, FAST_REC_RESET, &rst, sizeof(rst));
		CHECK(ring_served(&r) &&
		      atomic_load(&r.p->syncs[bslot].value) ==
		      MIRROR_BINARY_NONE &&
		      call64(r.sock, PROTO_SYNC_QUERY, &bin, 1, &v) ==
		      SWGPU_OK && v == 0,
		      "a ring reset resets the client's binary object");
		rst.sync_id = 0x7777000000000009ull;
		put_record(&r, FAST_REC_RESET, &rst, sizeof(rst));
		rst.sync_id = tl;
		put_record(&r, FAST_REC_RESET, &rst, sizeof(rst));
		rst.sync_id = theirs;
		put_record(&r, FAST_REC_RESET, &rst, sizeof(rst));
		rst.sync_id = r.q;
		put_record(&r, FAST_REC_RESET, &rst, sizeof(rst));
		CHECK(ring_served(&r) &&
		      call64(r.sock, PROTO_SYNC_QUERY, &tl, 1, &v) ==
		      SWGPU_OK && v == 7 &&
		      call64(good, PROTO_SYNC_QUERY, &theirs, 1, &v) ==
		      SWGPU_OK && v == 1 &&
		      call64(r.sock, PROTO_CTX_STATE, &r.ctx, 1, NULL) ==
		      SWGPU_OK,
		      "ring resets of a forged id, a timeline, another "
		      "client's fence and a queue's id do nothing");
		honest_alive(good, good_ctx, "refused ring resets");
	}

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

	ring_open(&r);
	{
		uint64_t big[2] = { 1, 2 };

		put_record(&r, FAST_REC_RESET, big, sizeof(big));
	}
	CHECK(dropped(r.sock, 5000), "a reset record of the wrong size drops "
	      "its client");
	ring_close(&r);

	/* A bad record an engine finds (woken by the bell alone) drops
	 * the client just the same. */
	ring_open(&r);
	put_submit(&r, r.q, 0, 0);
	CHECK(mirror_reaches(&r, 1), "a first submit");
	{
		uint32_t e = atomic_load(&r.p->queues[r.slot].engine);
		uint64_t until = swgpu_now_ns() + 10000000000ull;
		uint32_t half = 5;

		while (atomic_load(&r.gpu->engine_state[e]) !=
		       FAST_ENGINE_ASLEEP && swgpu_now_ns() < until)
			usleep(200);
		while (!atomic_load(&r.p->daemon_idle) &&
		       swgpu_now_ns() < until)
			usleep(200);
		put_record_how(&r, FAST_REC_SIGNAL, &half, sizeof(half), true);
		atomic_fetch_add(&r.p->bell[e], 1);
		syscall(SYS_futex, &r.p->bell[e], FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	CHECK(dropped(r.sock, 5000), "a malformed record an engine serves "
	      "drops its client");
	ring_close(&r);
	honest_alive(good, good_ctx, "malformed records");
}

/* SPDX-License-Identifier: MIT */
/*
 * Packet execution: decode, validate, execute.
 *
 * Every packet is validated completely (length, flags, alignment, and
 * every address range translated with the access it needs) before it
 * touches memory, so a faulting packet has no partial effect. Execution
 * allocates nothing: the hot path is a header decode, one binary search
 * per address range and the memory operation itself.
 *
 * 64-bit semaphore words are shared with the host and other engines, so
 * SEM_WAIT/SEM_SIGNAL/TIMESTAMP access them with __atomic builtins
 * (acquire loads, release stores): a signal publishes every write of the
 * packets before it.
 */
#include "hw/packet/packet_exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <swgpu/swgpu_packet.h>

#include "kmd/mem.h"
#include "hw/packet/memops.h"
#include "hw/packet/packet_dispatch.h"
#include "hw/packet/packet_gfx.h"
#include "hw/packet/packet_image.h"
#include "hw/packet/packet_internal.h"
#include "util/util.h"
#include "kmd/vaspace.h"

struct op_desc {
	const char *name;
	uint32_t len;           /* exact length in dwords, 0: variable */
	uint32_t min_len;       /* for variable-length packets */
	uint32_t flags_mask;    /* header flags the opcode accepts */
	exec_fn exec;
};

static const struct op_desc *op_desc(uint32_t opcode);

static const char *
op_name(uint32_t opcode)
{
	const struct op_desc *d = op_desc(opcode);

	return d ? d->name : "UNKNOWN";
}

const char *
exec_op_name(uint32_t opcode)
{
	return op_name(opcode);
}

static uint64_t
packet_va(const struct pkt *p)
{
	return p->stream_va ? p->stream_va + p->offset : 0;
}

bool
raise_fault(struct exec_env *env, const struct pkt *p, swgpu_fault_kind kind,
            uint64_t address, const char *fmt, ...)
{
	char what[80];
	char where[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->stream_va)
		snprintf(where, sizeof(where), "IB 0x%llx+0x%x",
		         (unsigned long long)p->stream_va, p->offset);
	else
		snprintf(where, sizeof(where), "ring+0x%x", p->offset);

	if (env->fault) {
		swgpu_fault_info *f = env->fault;

		f->kind = kind;
		f->address = address;
		f->opcode = p->opcode;
		f->engine = env->engine;
		f->packet_va = packet_va(p);
		/* A long message is cut at 127 characters; the fields above
		 * carry the exact values. */
		int n = snprintf(f->message, sizeof(f->message),
		                 "%s by %s at %s", what, op_name(p->opcode),
		                 where);
		if (n < 0)
			f->message[0] = '\0';
	}
	if (swgpu_debug_env())
		swgpu_log("engine %u fault: %s by %s at %s", env->engine, what,
		          op_name(p->opcode), where);
	return false;
}

/* vaspace_fault_reason() looks at the mappings: caller holds the read
 * lock. */
bool
page_fault(struct exec_env *env, const struct pkt *p, uint64_t va,
           uint64_t size, uint32_t access)
{
	uint64_t at;
	const char *why = vaspace_fault_reason(env->vs, va, size, access, &at);
	/* A read-modify-write (WRITE_MAX) of a write-only mapping fails
	 * on its read; anything else that needs WRITE fails as a write. */
	bool write = (access & SWGPU_VA_WRITE) && strcmp(why, "write-only");

	swgpu_fault_kind kind = write ? SWGPU_FAULT_PAGE_WRITE
	                              : SWGPU_FAULT_PAGE_READ;

	return raise_fault(env, p, kind, at, "%s %s VA 0x%llx",
	                   write ? "write to" : "read of", why,
	                   (unsigned long long)at);
}

/* ------------------------------------------------------------------ */
/* Memory operations                                                   */
/* ------------------------------------------------------------------ */

/* Copy in SWGPU_EXEC_CHUNK pieces from done bytes on; each boundary after
 * the first piece is a preemption point (returns false: preempted, the
 * save area holds the bytes done). Disjoint ranges large enough stream
 * (memops.h); overlapping ones are memmoved in the direction that never
 * overwrites source bytes a later chunk still needs (back to front: done
 * counts from the end), so a copy stopped between two chunks and resumed
 * gives every byte an uninterrupted one gives. */
static bool
copy_chunked(struct exec_env *env, uint8_t *dst, const uint8_t *src,
             uint64_t size, uint64_t done)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	const bool disjoint = d + size <= s || s + size <= d;
	const bool stream = disjoint && size >= MEMOPS_STREAM_MIN;
	const bool forward = d < s || d - s >= size;
	const uint64_t start = done;

	if (d == s)
		return true;
	while (done < size) {
		if (done != start && exec_preempt_point(env, done))
			break;
		uint64_t n = size - done < SWGPU_EXEC_CHUNK
		             ? size - done : SWGPU_EXEC_CHUNK;
		if (forward) {
			memops_copy(dst + done, src + done, n, stream);
		} else {
			uint64_t off = size - done - n;
			memmove(dst + off, src + off, n);
		}
		done += n;
	}
	if (stream)
		memops_stream_done();
	return done == size;
}

/* Fill size bytes (multiple of 4) at dst (4-aligned) with pattern, from
 * done bytes on; preemptible between chunks like copy_chunked. */
static bool
fill_chunked(struct exec_env *env, uint8_t *dst, uint64_t size,
             uint32_t pattern, uint64_t done)
{
	const bool stream = size >= MEMOPS_STREAM_MIN;
	const uint64_t start = done;

	while (done < size) {
		if (done != start && exec_preempt_point(env, done))
			break;
		uint64_t n = size - done < SWGPU_EXEC_CHUNK
		             ? size - done : SWGPU_EXEC_CHUNK;
		memops_fill32(dst + done, n, pattern, stream);
		done += n;
	}
	if (stream)
		memops_stream_done();
	return done == size;
}

/* ------------------------------------------------------------------ */
/* Packet handlers                                                     */
/* ------------------------------------------------------------------ */

static bool
exec_nop(struct exec_env *env, const uint32_t *pk, uint32_t len,
         const struct pkt *p, uint32_t depth)
{
	return true;
}

static bool run_ib(struct exec_env *env, uint64_t va, uint32_t size_dw,
                   uint32_t depth, const struct pkt *p);

static bool
exec_indirect(struct exec_env *env, const uint32_t *pk, uint32_t len,
              const struct pkt *p, uint32_t depth)
{
	return run_ib(env, swgpu_pkt_get64(pk + 1), pk[3], depth + 1, p);
}

static bool
exec_copy(struct exec_env *env, const uint32_t *pk, uint32_t len,
          const struct pkt *p, uint32_t depth)
{
	uint64_t dst = swgpu_pkt_get64(pk + 1);
	uint64_t src = swgpu_pkt_get64(pk + 3);
	uint64_t size = swgpu_pkt_get64(pk + 5);
	uint64_t done = exec_resume_offset(env);
	const uint8_t *s;
	uint8_t *d;

	if (size == 0)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst,
		                   "copy of 0 bytes");
	vaspace_read_lock(env->vs);
	s = vaspace_translate(env->vs, src, size, SWGPU_VA_READ);
	if (!s) {
		page_fault(env, p, src, size, SWGPU_VA_READ);
		goto fail;
	}
	d = vaspace_translate(env->vs, dst, size, SWGPU_VA_WRITE);
	if (!d) {
		page_fault(env, p, dst, size, SWGPU_VA_WRITE);
		goto fail;
	}
	bool complete = copy_chunked(env, d, s, size, done);
	vaspace_read_unlock(env->vs);
	if (!complete)
		return false; /* preempted */
	if (env->stats)
		stat_add(&env->stats->bytes_written, size);
	return true;
fail:
	vaspace_read_unlock(env->vs);
	return false;
}

static bool
exec_fill(struct exec_env *env, const uint32_t *pk, uint32_t len,
          const struct pkt *p, uint32_t depth)
{
	uint64_t dst = swgpu_pkt_get64(pk + 1);
	uint64_t size = swgpu_pkt_get64(pk + 3);
	uint64_t done = exec_resume_offset(env);
	uint8_t *d;

	if ((dst | size) & 3 || size == 0)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst,
		                   "fill dst 0x%llx size %llu not 4-aligned "
		                   "or 0", (unsigned long long)dst,
		                   (unsigned long long)size);
	vaspace_read_lock(env->vs);
	d = vaspace_translate(env->vs, dst, size, SWGPU_VA_WRITE);
	if (!d) {
		page_fault(env, p, dst, size, SWGPU_VA_WRITE);
		vaspace_read_unlock(env->vs);
		return false;
	}
	bool complete = fill_chunked(env, d, size, pk[5], done);
	vaspace_read_unlock(env->vs);
	if (!complete)
		return false; /* preempted */
	if (env->stats)
		stat_add(&env->stats->bytes_written, size);
	return true;
}

static bool
exec_write_data(struct exec_env *env, const uint32_t *pk, uint32_t len,
                const struct pkt *p, uint32_t depth)
{
	uint64_t dst = swgpu_pkt_get64(pk + 1);
	uint32_t ndw = len - 3;
	uint64_t size = (uint64_t)ndw * 4;
	uint8_t *d;

	if (dst & 3)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dst,
		                   "write_data dst 0x%llx not 4-aligned",
		                   (unsigned long long)dst);
	vaspace_read_lock(env->vs);
	d = vaspace_translate(env->vs, dst, size, SWGPU_VA_WRITE);
	if (!d) {
		page_fault(env, p, dst, size, SWGPU_VA_WRITE);
		vaspace_read_unlock(env->vs);
		return false;
	}
	/* One or two dwords are often a flag or a 64-bit value somebody
	 * polls: store them atomically. */
	if (ndw == 2 && !(dst & 7))
		__atomic_store_n((uint64_t *)(void *)d,
		                 swgpu_pkt_get64(pk + 3), __ATOMIC_RELEASE);
	else if (ndw == 1)
		__atomic_store_n((uint32_t *)(void *)d, pk[3],
		                 __ATOMIC_RELEASE);
	else
		memcpy(d, pk + 3, size);
	vaspace_read_unlock(env->vs);
	if (env->stats)
		stat_add(&env->stats->bytes_written, size);
	return true;
}

/* Sleep a little when the engine gave us no way to block on memory. */
static void
poll_pause(uint64_t deadline)
{
	uint64_t now = swgpu_now_ns();
	uint64_t ns = 20000;

	if (deadline > now && deadline - now < ns)
		ns = deadline - now;
	struct timespec ts = { 0, (long)ns };
	nanosleep(&ts, NULL);
}

static bool
exec_sem_wait(struct exec_env *env, const uint32_t *pk, uint32_t len,
              const struct pkt *p, uint32_t depth)
{
	uint64_t va = swgpu_pkt_get64(pk + 1);
	uint64_t want = swgpu_pkt_get64(pk + 3);
	uint64_t deadline = 0;
	uint64_t cur, seen = 0;
	/* Resumed after a preemption: the watchdog goes on with the value
	 * seen and the stall time so far (time preempted does not count,
	 * and frequent preemptions cannot hide a hang). */
	const bool resumed = env->save && env->save->resuming;
	const uint64_t stalled = resumed ? env->save->stalled_ns : 0;
	const uint64_t seen_before = exec_resume_offset(env);

	if (va & 7)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "semaphore VA 0x%llx not 8-aligned",
		                   (unsigned long long)va);
	for (;;) {
		/* Translate on every check: the lock is dropped while we
		 * wait, so the mapping may have gone meanwhile. */
		vaspace_read_lock(env->vs);
		const uint64_t *w = vaspace_translate(env->vs, va, 8,
		                                      SWGPU_VA_READ);
		if (!w) {
			page_fault(env, p, va, 8, SWGPU_VA_READ);
			vaspace_read_unlock(env->vs);
			return false;
		}
		cur = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		vaspace_read_unlock(env->vs);
		if (cur >= want)
			return true;

		/* Watchdog: a hang is no progress for the timeout. The
		 * value moving (another engine or the host counting up
		 * towards it) is progress and restarts the clock. */
		uint64_t now = swgpu_now_ns();
		if (deadline == 0 && resumed && cur == seen_before)
			deadline = swgpu_add_sat(now, env->hang_timeout_ns -
			           (stalled < env->hang_timeout_ns
			            ? stalled : env->hang_timeout_ns));
		else if (deadline == 0 || cur != seen)
			deadline = swgpu_add_sat(now, env->hang_timeout_ns);
		seen = cur;
		if (now >= deadline)
			return raise_fault(env, p, SWGPU_FAULT_HANG, va,
			                   "sem_wait VA 0x%llx >= %llu timed "
			                   "out at %llu",
			                   (unsigned long long)va,
			                   (unsigned long long)want,
			                   (unsigned long long)cur);
		/* A waiting stream yields the engine to ready work. */
		if (exec_preempt_point(env, cur)) {
			env->save->stalled_ns = now + env->hang_timeout_ns -
			                        deadline;
			return false;
		}
		if (!env->wait_hook)
			poll_pause(deadline);
		else if (!env->wait_hook(env->wait_cookie, deadline))
			return raise_fault(env, p, SWGPU_FAULT_HANG, va,
			                   "sem_wait VA 0x%llx >= %llu aborted",
			                   (unsigned long long)va,
			                   (unsigned long long)want);
	}
}

static bool
exec_sem_signal(struct exec_env *env, const uint32_t *pk, uint32_t len,
                const struct pkt *p, uint32_t depth)
{
	uint64_t va = swgpu_pkt_get64(pk + 1);
	uint64_t value = swgpu_pkt_get64(pk + 3);
	bool write_max = swgpu_pkt_flags(pk[0]) & SWGPU_SIGNAL_WRITE_MAX;
	uint32_t access = SWGPU_VA_WRITE | (write_max ? SWGPU_VA_READ : 0);
	uint64_t *w;

	if (va & 7)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "semaphore VA 0x%llx not 8-aligned",
		                   (unsigned long long)va);
	vaspace_read_lock(env->vs);
	w = vaspace_translate(env->vs, va, 8, access);
	if (!w) {
		page_fault(env, p, va, 8, access);
		vaspace_read_unlock(env->vs);
		return false;
	}
	if (write_max) {
		uint64_t old = __atomic_load_n(w, __ATOMIC_RELAXED);

		while (old < value &&
		       !__atomic_compare_exchange_n(w, &old, value, true,
		                                    __ATOMIC_RELEASE,
		                                    __ATOMIC_RELAXED))
			;
	} else {
		__atomic_store_n(w, value, __ATOMIC_RELEASE);
	}
	vaspace_read_unlock(env->vs);
	if (env->signal_hook)
		env->signal_hook(env->wait_cookie);
	return true;
}

static bool
exec_timestamp(struct exec_env *env, const uint32_t *pk, uint32_t len,
               const struct pkt *p, uint32_t depth)
{
	uint64_t va = swgpu_pkt_get64(pk + 1);
	uint64_t *w;

	if (va & 7)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "timestamp VA 0x%llx not 8-aligned",
		                   (unsigned long long)va);
	vaspace_read_lock(env->vs);
	w = vaspace_translate(env->vs, va, 8, SWGPU_VA_WRITE);
	if (!w) {
		page_fault(env, p, va, 8, SWGPU_VA_WRITE);
		vaspace_read_unlock(env->vs);
		return false;
	}
	__atomic_store_n(w, swgpu_now_ns(), __ATOMIC_RELEASE);
	vaspace_read_unlock(env->vs);
	return true;
}

/* The one list of opcodes: lengths and flags here are what the decoder
 * checks, the handler can rely on them. */
static const struct op_desc op_table[SWGPU_OP_COUNT] = {
	[SWGPU_OP_NOP] = {
		.name = "NOP", .len = 0, .min_len = 1, .exec = exec_nop },
	[SWGPU_OP_INDIRECT_BUFFER] = {
		.name = "INDIRECT_BUFFER", .len = SWGPU_LEN_INDIRECT_BUFFER,
		.exec = exec_indirect },
	[SWGPU_OP_COPY] = {
		.name = "COPY", .len = SWGPU_LEN_COPY, .exec = exec_copy },
	[SWGPU_OP_FILL] = {
		.name = "FILL", .len = SWGPU_LEN_FILL, .exec = exec_fill },
	[SWGPU_OP_WRITE_DATA] = {
		.name = "WRITE_DATA", .len = 0,
		.min_len = SWGPU_LEN_WRITE_DATA(1), .exec = exec_write_data },
	[SWGPU_OP_SEM_WAIT] = {
		.name = "SEM_WAIT", .len = SWGPU_LEN_SEM_WAIT,
		.exec = exec_sem_wait },
	[SWGPU_OP_SEM_SIGNAL] = {
		.name = "SEM_SIGNAL", .len = SWGPU_LEN_SEM_SIGNAL,
		.flags_mask = SWGPU_SIGNAL_WRITE_MAX, .exec = exec_sem_signal },
	[SWGPU_OP_TIMESTAMP] = {
		.name = "TIMESTAMP", .len = SWGPU_LEN_TIMESTAMP,
		.exec = exec_timestamp },
	[SWGPU_OP_DISPATCH] = {
		.name = "DISPATCH", .len = SWGPU_LEN_DISPATCH,
		.exec = exec_dispatch },
	[SWGPU_OP_DISPATCH_INDIRECT] = {
		.name = "DISPATCH_INDIRECT", .len = SWGPU_LEN_DISPATCH_INDIRECT,
		.exec = exec_dispatch_indirect },
	[SWGPU_OP_COPY_PITCHED] = {
		.name = "COPY_PITCHED", .len = SWGPU_LEN_COPY_PITCHED,
		.exec = exec_copy_pitched },
	[SWGPU_OP_CLEAR_BOX] = {
		.name = "CLEAR_BOX", .len = SWGPU_LEN_CLEAR_BOX,
		.exec = exec_clear_box },
	[SWGPU_OP_BLIT] = {
		.name = "BLIT", .len = SWGPU_LEN_BLIT,
		.flags_mask = SWGPU_BLIT_LINEAR, .exec = exec_blit },
	/* Graphics packets (packet_gfx.c): graphics engines only. */
	[SWGPU_OP_BEGIN_PASS] = {
		.name = "BEGIN_PASS", .len = SWGPU_LEN_BEGIN_PASS,
		.exec = exec_begin_pass },
	[SWGPU_OP_END_PASS] = {
		.name = "END_PASS", .len = SWGPU_LEN_END_PASS,
		.exec = exec_end_pass },
	[SWGPU_OP_CLEAR_ATTACHMENTS] = {
		.name = "CLEAR_ATTACHMENTS", .len = 0,
		.min_len = SWGPU_LEN_CLEAR_ATTACHMENTS(1),
		.exec = exec_clear_attachments },
	[SWGPU_OP_SET_PIPELINE] = {
		.name = "SET_PIPELINE", .len = SWGPU_LEN_SET_PIPELINE,
		.exec = exec_set_pipeline },
	[SWGPU_OP_SET_DYNAMIC] = {
		.name = "SET_DYNAMIC", .len = SWGPU_LEN_SET_DYNAMIC,
		.exec = exec_set_dynamic },
	[SWGPU_OP_SET_VERTEX_BUFFERS] = {
		.name = "SET_VERTEX_BUFFERS", .len = 0,
		.min_len = SWGPU_LEN_SET_VERTEX_BUFFERS(0),
		.exec = exec_set_vertex_buffers },
	[SWGPU_OP_SET_INDEX_BUFFER] = {
		.name = "SET_INDEX_BUFFER", .len = SWGPU_LEN_SET_INDEX_BUFFER,
		.exec = exec_set_index_buffer },
	[SWGPU_OP_DRAW] = {
		.name = "DRAW", .len = SWGPU_LEN_DRAW, .exec = exec_draw },
	[SWGPU_OP_DRAW_INDEXED] = {
		.name = "DRAW_INDEXED", .len = SWGPU_LEN_DRAW_INDEXED,
		.exec = exec_draw_indexed },
	[SWGPU_OP_DRAW_INDIRECT] = {
		.name = "DRAW_INDIRECT", .len = SWGPU_LEN_DRAW_INDIRECT,
		.flags_mask = SWGPU_DRAW_INDEXED | SWGPU_DRAW_COUNT,
		.exec = exec_draw_indirect },
	[SWGPU_OP_QUERY_BEGIN] = {
		.name = "QUERY_BEGIN", .len = SWGPU_LEN_QUERY,
		.flags_mask = SWGPU_QUERY_PRECISE, .exec = exec_query_begin },
	[SWGPU_OP_QUERY_END] = {
		.name = "QUERY_END", .len = SWGPU_LEN_QUERY,
		.exec = exec_query_end },
	[SWGPU_OP_RESOLVE] = {
		.name = "RESOLVE", .len = SWGPU_LEN_RESOLVE,
		.exec = exec_resolve },
};

static const struct op_desc *
op_desc(uint32_t opcode)
{
	if (opcode >= SWGPU_OP_COUNT || !op_table[opcode].exec)
		return NULL;
	return &op_table[opcode];
}

/* ------------------------------------------------------------------ */
/* Streams and indirect buffers                                        */
/* ------------------------------------------------------------------ */

/* Keep the faulting packet and the ones before it in the fault record
 * (the dump shows them decoded). Only the innermost stream records:
 * outer streams see the fault after it was captured. */
static void
fault_capture_packets(struct exec_env *env, const uint32_t *dw, uint32_t ndw,
                      uint32_t fault_pos)
{
	swgpu_fault_info *f = env->fault;
	uint32_t starts[SWGPU_FAULT_PACKETS_MAX], n = 0;

	if (!f || f->kind == SWGPU_FAULT_NONE || f->packet_dw_count)
		return;
	/* Walk from the stream start: packets have no back links. */
	for (uint32_t pos = 0; pos <= fault_pos && pos < ndw;) {
		starts[n++ % SWGPU_FAULT_PACKETS_MAX] = pos;
		uint32_t len = swgpu_pkt_len(dw[pos]);
		if (!len)
			break;
		pos += len;
	}
	uint32_t first = n > SWGPU_FAULT_PACKETS_MAX
	                 ? starts[n % SWGPU_FAULT_PACKETS_MAX]
	                 : starts[0];
	uint32_t len = swgpu_pkt_len(dw[fault_pos]);
	uint32_t stop = fault_pos + (len ? len : 1);
	if (stop > ndw)
		stop = ndw;
	if (stop - first > SWGPU_FAULT_PACKET_DW_MAX)
		first = stop - SWGPU_FAULT_PACKET_DW_MAX;
	if (first > fault_pos)
		first = fault_pos;
	uint32_t count = stop - first;
	if (count > SWGPU_FAULT_PACKET_DW_MAX)
		count = SWGPU_FAULT_PACKET_DW_MAX;
	memcpy(f->packet_dw, dw + first, count * 4u);
	f->packet_dw_count = count;
	f->packet_dw_fault = fault_pos - first;
	f->packet_dw_va = f->packet_va ? f->packet_va - (fault_pos - first) * 4u
	                               : 0;
}

bool
exec_stream(struct exec_env *env, const uint32_t *dw, uint32_t ndw,
            uint64_t stream_va, uint32_t depth)
{
	struct exec_save *sv = env->save;
	uint32_t pos = 0;

	if (sv && sv->resuming) {
		if (depth > sv->depth || depth > EXEC_SAVE_MAX_DEPTH ||
		    sv->pos[depth] >= ndw) {
			const struct pkt p = { .opcode = SWGPU_OP_NOP,
			                       .stream_va = stream_va };
			sv->resuming = false;
			return raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			                   "resume point of a preempted job "
			                   "is outside its IB");
		}
		pos = sv->pos[depth];
	}
	const uint32_t first = pos;

	while (pos < ndw) {
		uint32_t h = dw[pos];
		uint32_t len = swgpu_pkt_len(h);
		struct pkt p = {
			.opcode = swgpu_pkt_opcode(h),
			.stream_va = stream_va,
			.offset = pos * 4u,
		};
		const struct op_desc *d = op_desc(p.opcode);

		/* A packet boundary is a preemption point (not before the
		 * first packet: every (re)start makes progress). */
		if (pos != first && exec_preempt_point(env, 0))
			goto preempted;
		if (!d) {
			raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			            "unknown opcode 0x%x (header "
			            "0x%08x)",
			            p.opcode, h);
			goto faulted;
		}
		if (len == 0) {
			raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			            "zero packet length");
			goto faulted;
		}
		if (len > ndw - pos) {
			raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			            "%u-dword packet runs past the "
			            "stream end (%u dwords left)", len,
			            ndw - pos);
			goto faulted;
		}
		if (d->len ? len != d->len : len < d->min_len) {
			raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			            "bad length %u dwords", len);
			goto faulted;
		}
		if (swgpu_pkt_flags(h) & ~d->flags_mask) {
			raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			            "bad flags 0x%x",
			            swgpu_pkt_flags(h));
			goto faulted;
		}
		if (sv && sv->resuming &&
		    p.opcode == SWGPU_OP_INDIRECT_BUFFER) {
			/* Stopped inside this IB, or right before it. */
			if (depth == sv->depth)
				sv->resuming = sv->valid = false;
		} else if (sv && sv->resuming && depth < sv->depth) {
			sv->resuming = false;
			return raise_fault(env, &p, SWGPU_FAULT_BAD_PACKET, 0,
			                   "resume point of a preempted job: "
			                   "IB changed while it was saved");
		}
		bool ok = d->exec(env, dw + pos, len, &p, depth);
		if (sv && sv->resuming && depth >= sv->depth) {
			/* The resume point is reached (the handler took its
			 * offset or had none to take). */
			sv->resuming = sv->valid = false;
		}
		if (!ok) {
			if (env->preempted)
				goto preempted;
			goto faulted;
		}
		if (env->stats)
			stat_add(&env->stats->packets_executed, 1);
		pos += len;
	}
	return true;

faulted:
	fault_capture_packets(env, dw, ndw, pos);
	return false;

preempted:
	/* Unwinding: the innermost stream names the depth, every stream
	 * its position. */
	if (!sv->valid) {
		sv->valid = true;
		sv->depth = depth;
	}
	if (depth <= EXEC_SAVE_MAX_DEPTH)
		sv->pos[depth] = pos;
	return false;
}

/* Run the IB at nesting depth; p is the packet that started it (for
 * faults about the IB itself). */
static bool
run_ib(struct exec_env *env, uint64_t va, uint32_t size_dw, uint32_t depth,
       const struct pkt *p)
{
	struct swgpu_bo *bo = NULL;
	const uint32_t *dw;
	bool ok;

	if (depth > env->max_ib_depth)
		return raise_fault(env, p, SWGPU_FAULT_IB_DEPTH, va,
		                   "IB 0x%llx at depth %u > max %u",
		                   (unsigned long long)va, depth,
		                   env->max_ib_depth);
	if ((va & 3) || size_dw == 0 || size_dw > env->max_ib_size_dw)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "bad IB va 0x%llx size %u dwords (max %u)",
		                   (unsigned long long)va, size_dw,
		                   env->max_ib_size_dw);
	vaspace_read_lock(env->vs);
	dw = vaspace_translate_ref(env->vs, va, (uint64_t)size_dw * 4,
	                           SWGPU_VA_READ, &bo);
	if (!dw) {
		page_fault(env, p, va, (uint64_t)size_dw * 4, SWGPU_VA_READ);
		vaspace_read_unlock(env->vs);
		return false;
	}
	vaspace_read_unlock(env->vs);
	/* The BO reference keeps the packets alive if the IB is unmapped
	 * while it runs; each of its packets takes the lock on its own. */
	ok = exec_stream(env, dw, size_dw, va, depth);
	bo_unref(bo);
	return ok;
}

bool
exec_ib(struct exec_env *env, uint64_t va, uint32_t size_dw, uint32_t depth)
{
	const struct pkt p = { .opcode = SWGPU_OP_INDIRECT_BUFFER };

	return run_ib(env, va, size_dw, depth, &p);
}

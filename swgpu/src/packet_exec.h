/* SPDX-License-Identifier: MIT */
/*
 * Packet execution (internal): decode and validate packets and carry them
 * out against one context's VA space. Runs on an engine thread. Every
 * address goes through vaspace_translate(); any violation becomes a fault
 * recorded in env->fault, never a host memory access outside a mapping.
 *
 * Locking: exec_stream()/exec_ib() take the VA space read lock themselves,
 * once per packet (dropped while SEM_WAIT sleeps and while a nested IB
 * runs; the IB's BO is kept alive by a reference meanwhile). The caller
 * must NOT hold the read lock.
 *
 * Nesting: the stream an engine starts from (its ring, or a job IB
 * started with exec_ib(..., 1)) is depth 0 or 1; each INDIRECT_BUFFER
 * packet at depth d runs its IB at depth d + 1, and an IB at a depth
 * greater than max_ib_depth is an SWGPU_FAULT_IB_DEPTH fault. Recursion
 * depth (C stack) is bounded by max_ib_depth.
 */
#ifndef SWGPU_PACKET_EXEC_H
#define SWGPU_PACKET_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

/* Suggested device limits (device info max_ib_depth / max_ib_size_dw). */
#define SWGPU_DEFAULT_MAX_IB_DEPTH 4u
#define SWGPU_DEFAULT_MAX_IB_SIZE_DW (1u << 20) /* 4 MiB of packets */

/* COPY/FILL work in chunks of this many bytes: the points where a later
 * preemption or abort check goes. */
#define SWGPU_EXEC_CHUNK (1u << 20)

struct swgpu_vaspace;

struct exec_env {
	struct swgpu_vaspace *vs;   /* the job's context */
	uint32_t engine;            /* for fault records */
	uint32_t max_ib_depth;
	uint32_t max_ib_size_dw;
	uint64_t hang_timeout_ns;   /* no progress this long: hang (SEM_WAIT
	                               value unchanged, no workgroup done) */
	swgpu_fault_info *fault;    /* filled on failure */
	/* packets_executed, bytes_written: updated with relaxed __atomic
	 * adds (readers on other threads use __atomic loads). May be NULL. */
	swgpu_engine_stats *stats;
	/*
	 * Called by SEM_WAIT while its condition does not hold: block for a
	 * short while (until deadline_ns at most) waiting for memory to
	 * change, then return true to re-check, or false to abort the job
	 * (device closing / engine reset), which is reported as a HANG.
	 * NULL: SEM_WAIT polls with short sleeps.
	 */
	bool (*wait_hook)(void *cookie, uint64_t deadline_ns);
	void *wait_cookie;
	/* Optional (NULL: none): called with wait_cookie after every
	 * SEM_SIGNAL, so engines stalled in SEM_WAIT can re-check at once. */
	void (*signal_hook)(void *cookie);
};

/* Execute ndw dwords of packets held at host pointer dw; stream_va is
 * their GPU VA (0 for ring/kernel streams), used in fault reports.
 * depth is the current INDIRECT_BUFFER nesting (0 at top). Returns true
 * on success, false on a fault (env->fault filled: kind, address, opcode,
 * engine, packet_va, message; queue_id/job_seqno are left to the
 * caller). */
bool exec_stream(struct exec_env *env, const uint32_t *dw, uint32_t ndw,
                 uint64_t stream_va, uint32_t depth);

/* Translate an indirect buffer (read access) and execute it at nesting
 * depth (faults IB_DEPTH if depth > max_ib_depth; BAD_PACKET if va is not
 * 4-aligned or size_dw is 0 or > max_ib_size_dw; PAGE_READ if the range
 * is not readable). */
bool exec_ib(struct exec_env *env, uint64_t va, uint32_t size_dw,
             uint32_t depth);

#endif

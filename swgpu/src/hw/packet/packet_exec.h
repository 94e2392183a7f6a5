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

/* COPY/FILL work in chunks of this many bytes; every chunk boundary is a
 * preemption point. */
#define SWGPU_EXEC_CHUNK (1u << 20)

/* Deepest IB nesting a save area records (device max_ib_depth is 8). */
#define EXEC_SAVE_MAX_DEPTH 16u

/*
 * The save area of a preemptible job: where its packet stream stopped,
 * so that it goes on exactly there later (a GPU's context save area).
 * pos[d] is the dword offset, in the IB running at nesting depth d, of
 * the packet that was executing (an INDIRECT_BUFFER for d < depth, the
 * stopped packet itself at d == depth); offset is the progress inside
 * that packet (bytes of a COPY/FILL done, rows of an image packet done,
 * the value a SEM_WAIT saw). Resuming replays the same IB chain (each IB
 * translated again) and starts the stopped packet at offset; the packet
 * is validated again in full, so a mapping that went away meanwhile
 * faults like on a real GPU.
 */
struct exec_save {
	bool valid;        /* holds a resume point */
	bool resuming;     /* exec_stream is on its way back to it */
	uint32_t depth;
	uint32_t pos[EXEC_SAVE_MAX_DEPTH + 1];
	uint64_t offset;
	uint64_t stalled_ns; /* SEM_WAIT: no-progress time so far (offset:
	                        the value it saw), for the watchdog */
	uint32_t ib_index; /* which IB of the job (kept by the engine) */
	/* The workgroup save area (hw/shader/wg_save.h) of a dispatch
	 * stopped inside its workgroups: a BO of the job's device,
	 * allocated at the job's first such stop, reused by its later
	 * ones, freed by exec_save_release when the job ends. */
	struct swgpu_bo *area;
	uint64_t chaos_ctr; /* SWGPU_PREEMPT_CHAOS draws (__atomic) */
	/* What the state dump shows of a preempted job (kmd/dump_save.c):
	 * written by the engine thread under dev->lock when the job stops
	 * and when it resumes, read by the dump under dev->lock. */
	struct exec_save_view {
		bool valid;                /* stopped, not yet resumed */
		uint32_t ib_index, depth, pos;
		uint64_t offset;           /* progress in that packet */
		uint64_t area_bytes;       /* 0: no save area */
		uint32_t saved;            /* workgroups saved in it */
		uint64_t group[2];         /* their indices (wg_save.h) */
		uint32_t blk[2];           /* the block each resumes at */
	} view;
};

/* Free the save area's BO (engine thread, when the job ends). */
void exec_save_release(struct exec_save *sv);

struct swgpu_vaspace;
struct gfx_state;
struct gfx_draw_stats;

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
	/*
	 * Preemption (NULL save: the stream runs to its end). At every
	 * preemption point — between two packets of an IB, between two
	 * chunks of a long packet, while a SEM_WAIT waits — after at least
	 * one packet or chunk of progress since the stream (re)started,
	 * preempt_hook(wait_cookie) is asked; true stops the stream: the
	 * resume point goes to *save, env->preempted is set and exec_*
	 * return false with no fault. Calling exec_ib again with the same
	 * save (save->resuming set) goes on from there.
	 */
	struct exec_save *save;
	bool (*preempt_hook)(void *cookie);
	bool preempted;
	/* Testing knob (config preempt_chaos, SWGPU_PREEMPT_CHAOS): also
	 * stop at about one preemption point in chaos, at random (0:
	 * never); the engine resumes at once when nothing else waits. */
	uint32_t chaos;
	/* The device (save area allocations; NULL: none possible). */
	struct swgpu_device *dev;
	/*
	 * Graphics engines: the graphics state of the hardware queue the
	 * stream runs on (hw/gfx/gfx.h). NULL on compute and copy engines,
	 * where graphics packets are BAD_PACKET.
	 */
	struct gfx_state *gfx;
	/* Optional (NULL: none): called with wait_cookie after each draw
	 * packet (or its preempted part) for the trace. */
	void (*draw_hook)(void *cookie, uint32_t opcode, uint64_t start_ns,
	                  uint64_t end_ns, const struct gfx_draw_stats *st);
};

/* At a preemption point with done units of the current packet behind
 * it: true if the stream must stop now (the save area records done).
 * Handlers return false right after a true, without a fault. */
/* Name of a packet opcode ("UNKNOWN" for none), for dumps. */
const char *exec_op_name(uint32_t opcode);

bool exec_preempt_point(struct exec_env *env, uint64_t done);
/* The question exec_preempt_point asks (hook or chaos), without
 * recording anything: thread-safe, so the threads running one dispatch's
 * workgroups may ask it at their loop back-edges. */
bool exec_preempt_wanted(struct exec_env *env);
/* Record a stop already decided (exec_preempt_wanted said yes) with done
 * units behind it. */
void exec_preempt_record(struct exec_env *env, uint64_t done);

/* A handler starting its packet: the progress to resume from (0 when not
 * resuming). Consumes the resume point. */
uint64_t exec_resume_offset(struct exec_env *env);

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

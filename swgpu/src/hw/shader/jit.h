/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler (JIT): IR -> LLVM IR -> native SIMD code, run by
 * the interpreter's lane scheduler in place of its instruction loop
 * (docs/ARCHITECTURE.md, "Shader compiler").
 *
 * A block's instructions are cut into *segments*: maximal runs of
 * instructions the compiler supports (jit/jit_alu.c, jit_mem.c,
 * jit_cf.c); a fully supported block is one segment that also runs its
 * terminator. Each segment becomes one native function working on the
 * interpreter's register file in place, so between any two segments,
 * and at every block boundary, the whole state is the interpreter's:
 * what the compiler does not support runs in the interpreter between
 * compiled segments (atomics, images, sampling, subgroups, derivatives
 * and discards are compiled as calls of the interpreter on the whole
 * frame, jit/jit_frame_op.h), and preemption and
 * the watchdog see the same state with either back end. Loops of per-
 * lane blocks run as one function (jit/jit_loop.c) that returns to the
 * scheduler at block boundaries once JIT_LOOP_BUDGET blocks have run,
 * or when the dispatch must stop (preemption: d->stop and d->stop_poll
 * asked every JIT_LOOP_POLL blocks), both checked after a pass over
 * the loop's blocks.
 *
 * SWGPU_SHADER=jit (default) | interp selects the back end when an
 * execution state is created; without LLVM at build time, shaders are
 * interpreted (with a log line when jit was asked for by name).
 */
#ifndef SWGPU_SHADER_JIT_H
#define SWGPU_SHADER_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

/*
 * What compiled code sees of the engine (the calling convention): one
 * frame per call, filled by jit_exec_block from the execution state and
 * the dispatch; compiled code reads its fields at their offsetof()
 * offsets (jit/jit_llvm.c), so this struct is the whole interface.
 */
struct ir_dispatch;
struct jit_frame {
	lane_t *regs;              /* regs[reg * width + lane] */
	const uint8_t *mask;       /* lanes running the block */
	const uint8_t *store_mask; /* mask without helper lanes: what
	                              buffer stores write (interp.c's
	                              writes_memory) */
	const struct ir_dispatch *d;  /* buffer bindings, push constants */
	uint8_t *shared;           /* Workgroup memory */
	uint32_t *pc, *prev;       /* per lane block index, previous block */
	uint32_t width;            /* lanes, a multiple of the vector length */
	uint32_t steps;            /* out: blocks a loop function ran */
	uint32_t stopped;          /* out: a loop function left for a stop
	                              request (d->stop), not its budget */
	/* For swgpu_jit_frame_op only (jit/jit_frame_op.h): compiled code
	 * passes the frame back to the interpreter, which runs an
	 * instruction on this execution state with the dispatch d. */
	struct ir_exec *e;
	uint32_t full;             /* the block runs on every lane */
};

/* One compiled segment: runs instructions [first, end) of its block on
 * lanes [0, width) of f->regs, writing only the lanes whose mask byte is
 * non-zero. A segment that ends with the block's terminator (end ==
 * count) also sets pc[] and prev[] of those lanes and returns what
 * interp_exec_block returns (the uniform successor, IR_PC_DONE or
 * INTERP_HINT_NONE); other segments return INTERP_HINT_NONE. */
typedef uint32_t (*jit_seg_fn)(struct jit_frame *f);

struct jit_seg {
	uint32_t first, end;       /* instruction indices in the block */
	jit_seg_fn fn;
};

struct jit_block {
	uint32_t nseg;
	struct jit_seg *seg;       /* in instruction order */
	/* A compiled loop (jit/jit_loop.c) this block belongs to: blocks
	 * [loop_head, loop_end] run as one function, each chunk of lanes
	 * staying in native code until it leaves them; NULL: none. It
	 * returns INTERP_HINT_NONE and stops once JIT_LOOP_BUDGET blocks
	 * have run or a stop is requested (at the end of a pass over the
	 * loop's blocks, at most loop_end - loop_head more) with every
	 * lane at a block boundary (f->steps: blocks run; f->stopped: it
	 * was the stop request). */
	jit_seg_fn loop;
	uint32_t loop_head, loop_end;
};

/* Blocks a loop function runs before it returns to the scheduler (the
 * watchdog's and a stop request's chance). */
#define JIT_LOOP_BUDGET 65536u

/* Blocks between two stop polls of a loop function (d->stop, then
 * d->stop_poll: the engine's question, as the interpreter asks it at
 * every 8th back-edge of its whole workgroup), at the end of the pass
 * that crosses a multiple of it. A power of two. */
#define JIT_LOOP_POLL 1024u

struct jit_program {
	uint32_t nblocks;          /* == the program's */
	struct jit_block *blocks;
	uint32_t lanes;            /* vector length: 4, 8 or 16 */
	uint32_t compiled, total;  /* instructions compiled / in the program */
	void *engine;              /* the LLVM side's (jit/jit_llvm.c) */
};

/* The back end SWGPU_SHADER asks for (read once): true for jit. */
bool jit_requested(void);

/* True when the driver was built with LLVM. */
bool jit_available(void);

/* The compiled code of p, compiled on the first call (thread-safe;
 * kept in p, freed by ir_program_free), or NULL when SWGPU_SHADER is not
 * jit, there is no LLVM, or nothing of p could be compiled (logged) --
 * or while p's compile runs in the background (jit_program_request):
 * interpret meanwhile. */
const struct jit_program *jit_program_get(struct ir_program *p);

/* Compile once (jit_queue.c), at shader creation: p's code from a cache
 * (the process's, lookup's application blob, the disk) at once, else
 * compiled in the background (SWGPU_JIT_ASYNC=0: here). Nothing when
 * SWGPU_SHADER is not jit. */
void jit_program_request(struct ir_program *p,
                         const void *(*lookup)(void *user,
                                               const uint8_t *key,
                                               size_t *size),
                         void *user);

/* p's code if it is ready, else NULL; never compiles, lock-free: what an
 * execution state checks at each workgroup to switch from interpreting
 * to the code a background compile just finished. */
const struct jit_program *jit_program_ready(const struct ir_program *p);

/* Before p is freed: its queued compile dropped, its code freed. A
 * compile in flight is not waited for: true then, and the compile
 * thread frees p's memory when it ends (ir_program_free_memory), the
 * code dropped; unless an application cache wants the code (it is
 * waited for then). */
bool jit_program_release(struct ir_program *p);

/* Wait until no queued or running compile has this key. */
void jit_wait_key(const uint8_t key[16]);

/* Drop queued compiles, wait for the one in flight, join the compile
 * thread, free the LLVM side's process-wide allocations: what unloading
 * the driver does; for tests that leave with _exit. No compile is
 * queued after it. */
void jit_queue_shutdown(void);
/* The same without the end: the last in-process device closes
 * (swgpu_device_close), so that a compile still running (an orphan) ends
 * there, not in the driver's destructor. That runs under the dynamic
 * loader's lock (dlclose) while LLVM's compile may call dlopen: joining
 * it there deadlocked (TSan run of the suite in jit mode). Compiles may
 * be queued again afterwards. */
void jit_queue_quiesce(void);

/* Process exit and LLVM (jit_queue.c): C++ static objects of libLLVM
 * (the pass registry, SelectionDAG's value type lists, ...) are made on
 * first use and destroyed by exit handlers, newest first, before our
 * library's destructor runs: a compile still running at exit() crashed
 * on them (an application leaving with live devices, lavapipe's LLVM in
 * the process). jit_exit_guard registers a handler that stops every
 * compile and bars new ones (jit_llvm_closed: interpret instead). It is
 * registered after LLVM's set-up, whose warm-up compile makes the
 * statics code generation uses, again after the first real compile,
 * and with each new compile thread, so it runs before the statics made
 * until then. Left: an exit during the process's first LLVM set-up
 * (about 10 ms, once). */
void jit_exit_guard(void);
bool jit_llvm_closed(void);

/* SWGPU_JIT_ASYNC (default 1): compile in the background. */
bool jit_async(void);
/* Compiles queued / dropped before they ran, in this process. */
void jit_queue_stats(uint64_t *queued, uint64_t *cancelled);
/* Programs freed while their compile ran (jit_program_release). */
uint64_t jit_queue_orphaned(void);
/* Whether the compile thread is compiling (or loading) now. */
bool jit_queue_busy(void);

/* LLVM side (jit/jit_engine.c; jit_none.c without LLVM): an entry blob
 * of the object for key from the process's memory cache (malloc'ed), or
 * NULL; the pipeline cache UUID (false without LLVM). */
void *jit_binary_get(const uint8_t key[16], size_t *size);
bool jit_cache_uuid(uint8_t uuid[16]);
/* The driver is unloaded, no compile runs: free the LLVM side's
 * process-wide allocations (JITDylib pool, memory cache, knobs). */
void jit_unload(void);

/* Compile p with vector length lanes (4, 8, 16; 0: the CPU's). NULL
 * (with a log line) when no LLVM, on an LLVM error, or when no
 * instruction of p is supported. For tests and jit_program_get. */
struct jit_program *jit_compile(const struct ir_program *p, uint32_t lanes);

/* Where compiled code can come from besides a compile, and what a
 * compile tells its caller (jit_compile_io; jit/jit_engine.c). */
enum jit_source {
	JIT_SRC_NONE,              /* no code */
	JIT_SRC_COMPILED,          /* LLVM ran */
	JIT_SRC_MEMORY,            /* this process compiled it before */
	JIT_SRC_APP,               /* an application blob (VkPipelineCache) */
	JIT_SRC_DISK,              /* the disk cache */
};
struct jit_compile_io {
	/* in: only load from a cache, never compile (a miss sets missed) */
	bool cache_only;
	/* in (with cache_only): load nothing, only find which cache has
	 * the code: found, source and, for an application blob that
	 * passed its checks, blob/blob_size (the application's memory,
	 * valid only during the call) */
	bool probe;
	/* in, optional: an application's cache (swgpu_shader_info's
	 * binary_lookup); its blobs are checked before use */
	const void *(*lookup)(void *user, const uint8_t key[16],
	                      size_t *size);
	void *user;
	/* out */
	bool missed;               /* cache_only and no cache had it */
	bool have_key;             /* key is set (planning succeeded) */
	uint8_t key[16];
	enum jit_source source;
	bool found;                /* probe: a cache has the code */
	const void *blob;
	size_t blob_size;
	/* in: a compiled object is not written to the disk cache during
	 * the call but handed out (store_obj, store_size, owned by io) for
	 * jit_compile_io_store: the compile thread publishes the code
	 * first, the write and a possible eviction scan come after */
	bool defer_store;
	void *store_obj;
	size_t store_size;
};
/* Write io's deferred object (if any) to the disk cache and free it. */
void jit_compile_io_store(struct jit_compile_io *io);
/* jit_compile with io (NULL: as jit_compile). */
struct jit_program *jit_compile_io(const struct ir_program *p,
                                   uint32_t lanes,
                                   struct jit_compile_io *io);
void jit_program_free(struct jit_program *jp);

/* Force or clear compiled code on an execution state (tests run the
 * same state under both back ends). */
struct ir_exec;
void ir_exec_set_jit(struct ir_exec *e, const struct jit_program *jp);

/* The vector length the CPU runs best: 16 with AVX-512, 8 with AVX2,
 * else 4 (SWGPU_JIT_LANES overrides). */
uint32_t jit_host_lanes(void);

#endif

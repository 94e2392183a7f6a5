/* SPDX-License-Identifier: MIT */
/*
 * swgpu.h — the user-space API ("uAPI") of the swgpu software GPU.
 *
 * This is the only interface between a front end (the Vulkan ICD in icd/)
 * and the software GPU (kernel driver + hardware model in swgpu/src). It
 * knows nothing of Vulkan. Everything the GPU executes reaches it as packets
 * (see swgpu_packet.h) in GPU-visible memory, addressed by GPU virtual
 * address (VA) in the submitting context's address space.
 *
 * Conventions
 *  - Every call that can fail returns an swgpu_result; SWGPU_OK is 0,
 *    positive values are non-error statuses, negative values are errors.
 *  - Deadlines are absolute nanoseconds on CLOCK_MONOTONIC (swgpu_now_ns()),
 *    because relative timeouts drift when a wait is restarted.
 *    SWGPU_DEADLINE_INFINITE waits until the condition holds or the work
 *    it waits for fails (context lost): no wait can hang forever on a lost
 *    context.
 *  - Destroy/close functions accept NULL.
 *  - All functions are thread-safe unless stated otherwise.
 *
 * Versioning: SWGPU_API_VERSION is bumped on every incompatible change;
 * swgpu_device_info.api_version reports the library's version.
 */
#ifndef SWGPU_SWGPU_H
#define SWGPU_SWGPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWGPU_API_VERSION 2u

/* ------------------------------------------------------------------ */
/* Results                                                             */
/* ------------------------------------------------------------------ */

typedef enum swgpu_result {
	SWGPU_OK = 0,
	SWGPU_TIMEOUT = 1,              /* deadline passed, condition not met */
	SWGPU_NOT_READY = 2,            /* non-blocking query: not yet */
	SWGPU_DISCARDED = 3,            /* reclaim: contents were discarded */

	SWGPU_ERR_INVALID_ARG = -1,     /* bad parameter (NULL, size 0, flags) */
	SWGPU_ERR_NO_HOST_MEMORY = -2,  /* host allocation failed */
	SWGPU_ERR_NO_DEVICE_MEMORY = -3,/* heap (or BAR window) exhausted */
	SWGPU_ERR_NO_VA_SPACE = -4,     /* context address space exhausted */
	SWGPU_ERR_NOT_MAPPABLE = -5,    /* BO heap is not host-visible */
	SWGPU_ERR_NOT_MAPPED = -6,      /* VA is not the start of a mapping */
	SWGPU_ERR_CONTEXT_LOST = -7,    /* context guilty/lost, or the work a
	                                   wait depends on failed */
	SWGPU_ERR_TIMELINE_REWIND = -8, /* signal <= current timeline value */
	SWGPU_ERR_NOT_SUBMITTED = -9,   /* binary wait with no signal pending */
	SWGPU_ERR_UNSUPPORTED = -10,    /* valid request the device cannot do */
	SWGPU_ERR_DEVICE_BUSY = -11,    /* object still in use */
	SWGPU_ERR_BAD_HANDLE = -12,     /* an fd that is not an exported swgpu
	                                   object this device can import */
	SWGPU_ERR_NOT_PERMITTED = -13,  /* the caller may not do this (a
	                                   queue priority over its limit) */
} swgpu_result;

/* Name of a result ("SWGPU_ERR_CONTEXT_LOST"); never NULL. */
const char *swgpu_result_str(swgpu_result r);

/* CLOCK_MONOTONIC in nanoseconds: the clock of deadlines and TIMESTAMP. */
uint64_t swgpu_now_ns(void);

#define SWGPU_DEADLINE_INFINITE UINT64_MAX

/* Turn a relative timeout into a deadline, saturating at INFINITE. */
uint64_t swgpu_deadline_from_timeout(uint64_t timeout_ns);

/* ------------------------------------------------------------------ */
/* Device                                                              */
/* ------------------------------------------------------------------ */

typedef struct swgpu_device swgpu_device;
typedef struct swgpu_context swgpu_context;
typedef struct swgpu_bo swgpu_bo;
typedef struct swgpu_queue swgpu_queue;
typedef struct swgpu_syncobj swgpu_syncobj;

typedef enum swgpu_engine_class {
	SWGPU_ENGINE_COMPUTE = 0, /* async compute: every packet but the
	                             graphics ones (DISPATCH, copies, ...) */
	SWGPU_ENGINE_COPY = 1,    /* DMA engine: transfer/sync packets */
	SWGPU_ENGINE_GRAPHICS = 2,/* a GFX ring: every packet, graphics
	                             (draws, passes) included, in ring order */
	SWGPU_ENGINE_CLASS_COUNT
} swgpu_engine_class;

typedef enum swgpu_heap {
	SWGPU_HEAP_VRAM = 0,   /* device-local; host access only via BAR */
	SWGPU_HEAP_SYSTEM = 1, /* host memory, always host-visible */
	SWGPU_HEAP_COUNT
} swgpu_heap;

/*
 * Device configuration. swgpu_config_init() fills the defaults and then
 * applies the environment, so a front end that calls it gets every
 * documented override for free:
 *
 *   SWGPU_GRAPHICS_ENGINES number of graphics-class engines  (default 1)
 *   SWGPU_COMPUTE_ENGINES  number of compute-class engines   (default 2)
 *   SWGPU_COPY_ENGINES     number of copy-class engines      (default 2)
 *   SWGPU_VRAM_MB          VRAM heap size in MiB             (default 4096)
 *   SWGPU_BAR_MB           host-visible VRAM window in MiB   (default 256)
 *   SWGPU_SYSTEM_MB        SYSTEM heap size in MiB           (default 8192)
 *   SWGPU_VRAM_BUDGET_MB   VRAM this process may use, in MiB: VRAM
 *                          allocations beyond it fail (after discarding
 *                          offered BOs), see swgpu_heap_budget()
 *                                                  (default: SWGPU_VRAM_MB)
 *   SWGPU_RING_KB          ring size per engine in KiB, power of two
 *                                                            (default 64)
 *   SWGPU_TIMEOUT_MS       hang timeout: a job making no progress for
 *                          this long is a hang               (default 5000)
 *   SWGPU_SPIN_US          host waiters spin this long before
 *                          sleeping                          (default 20)
 *   SWGPU_GFX_THREADS      threads rasterizing and shading per graphics
 *                          engine, its own thread included   (default 2)
 *   SWGPU_PREEMPT          0: jobs run to their end in ring order; 1:
 *                          ready higher-priority work preempts a running
 *                          job at its next packet or 1 MiB chunk
 *                          boundary, which resumes exactly there after
 *                                                            (default 1)
 *   SWGPU_FAULT            fault injection, see "Fault injection" below
 *   SWGPU_TRACE            job trace: "stderr" or a file path (default off)
 *   SWGPU_PUBLISH          0: no status page for swgpu-smi     (default 1)
 *   SWGPU_PUBLISH_MS       status page refresh, 10..60000 ms  (default 500)
 *   SWGPU_DEBUG            1: log every error with its origin to stderr
 *
 * A malformed variable is reported on stderr and ignored.
 */
typedef struct swgpu_config {
	uint32_t engine_count[SWGPU_ENGINE_CLASS_COUNT];
	uint64_t vram_size;      /* bytes */
	uint64_t bar_size;       /* bytes, <= vram_size */
	uint64_t system_size;    /* bytes */
	uint32_t ring_size;      /* bytes, power of two, >= 4096 */
	uint32_t hang_timeout_ms;
	uint32_t spin_us;
	const char *fault;       /* SWGPU_FAULT syntax, or NULL */
	const char *trace;       /* "stderr", a path, or NULL */
	const char *dump_dir;    /* state dumps on device lost: a directory,
	                            or NULL for stderr */
	bool debug;
	/* bytes of VRAM (BAR window included) allocations may use; 0 or
	 * more than vram_size means vram_size. Last so that older
	 * initializers leave it 0. */
	uint64_t vram_budget;
	/* true: no preemption (SWGPU_PREEMPT=0). Negative so that older
	 * initializers keep the default, preemption on. */
	bool no_preempt;
	/* Threads that rasterize and shade on each graphics engine, the
	 * engine thread included (SWGPU_GFX_THREADS, 1..16); 0 means the
	 * default, 2 (the engine thread and one worker). */
	uint32_t gfx_threads;
	/* Testing: besides real preemption requests, stop preemptible work
	 * at about one preemption point in preempt_chaos, picked at random
	 * (loop back-edges inside workgroups, workgroup slices, draw
	 * batches, copy chunks), and resume it at once: results must not
	 * change (SWGPU_PREEMPT_CHAOS; 0, the default: never). */
	uint32_t preempt_chaos;
	/* Time slice (SWGPU_SLICE_MS, default 4; 0: no slices): when jobs
	 * of several queues are runnable on an engine, a running job of one
	 * queue is preempted for another's after it had the engine this
	 * long beyond its weighted fair share (docs/ARCHITECTURE.md). */
	uint32_t slice_ms;
	/* true: a preempted job resumes only on the engine it was stopped
	 * on (SWGPU_MIGRATE=0). By default an idle engine of the class
	 * takes over a job preempted on another one and resumes it from its
	 * save area (docs/ARCHITECTURE.md, "Resume on another engine"). */
	bool no_migrate;
	/* true: no status page for swgpu-smi (SWGPU_PUBLISH=0). Its
	 * refresh interval in ms (SWGPU_PUBLISH_MS, 10..60000; 0 means the
	 * default, 500). */
	bool no_publish;
	uint32_t publish_ms;
} swgpu_config;

void swgpu_config_init(swgpu_config *cfg);

/* Open a device. cfg NULL means swgpu_config_init() defaults. Engines start
 * at once (one thread each) and sleep until their doorbell rings.
 * Errors: INVALID_ARG (bad config), NO_HOST_MEMORY. */
swgpu_result swgpu_device_open(const swgpu_config *cfg, swgpu_device **out);

/* Close a device. Jobs still pending are cancelled (their sync objects
 * complete with an error), jobs in rings are finished or aborted, engines
 * are joined, and every context, queue, BO and sync object still alive is
 * freed. Never blocks longer than the hang timeout. */
void swgpu_device_close(swgpu_device *dev);

#define SWGPU_MAX_ENGINES 16

typedef struct swgpu_engine_info {
	swgpu_engine_class engine_class;
	uint32_t index_in_class;
	char name[16];               /* "compute0", "copy1", ... */
} swgpu_engine_info;

typedef struct swgpu_device_info {
	uint32_t api_version;        /* SWGPU_API_VERSION of the library */
	char name[64];
	uint8_t uuid[16];            /* stable per process and device index */
	uint32_t device_index;       /* order of opening in this process */
	uint32_t engine_count;
	swgpu_engine_info engines[SWGPU_MAX_ENGINES];
	uint32_t engine_class_count[SWGPU_ENGINE_CLASS_COUNT];
	uint64_t heap_size[SWGPU_HEAP_COUNT];
	uint64_t bar_size;           /* host-visible part of VRAM */
	uint64_t va_size;            /* usable bytes of a context VA space */
	uint32_t page_size;          /* VA/BO granularity (4096) */
	uint32_t va_alignment;       /* alignment of every mapping's VA */
	uint64_t max_bo_size;
	uint32_t ring_size;          /* bytes */
	uint32_t max_ib_depth;       /* INDIRECT_BUFFER nesting limit */
	uint32_t max_ib_size_dw;     /* dwords in one indirect buffer */
	uint64_t timestamp_frequency;/* Hz of TIMESTAMP values (1e9: ns) */
	uint32_t timestamp_valid_bits;
	uint32_t hang_timeout_ms;
} swgpu_device_info;

void swgpu_device_query_info(const swgpu_device *dev,
                             swgpu_device_info *info);

/* Per-engine counters, for demos, benchmarks and dumps. */
typedef struct swgpu_engine_stats {
	uint64_t jobs_completed;
	uint64_t jobs_failed;
	uint64_t packets_executed;
	uint64_t bytes_written;      /* by COPY/FILL/WRITE_DATA */
	uint64_t busy_ns;            /* time spent executing packets */
	uint64_t doorbells;          /* doorbell rings that woke the engine */
	uint64_t fence_seqno;        /* last seqno the engine wrote */
	uint64_t preemptions;        /* jobs stopped for higher-priority
	                                work or another queue's time slice,
	                                and resumed later */
	uint64_t preempt_jobs;       /* jobs that ran by preempting */
	uint64_t resumed_here;       /* jobs preempted on another engine of
	                                the class that this one resumed
	                                (took over from their save area) */
} swgpu_engine_stats;

swgpu_result swgpu_engine_query_stats(const swgpu_device *dev,
                                      uint32_t engine,
                                      swgpu_engine_stats *stats);

/* Write a human-readable state dump: every engine's ring (size, read and
 * write pointers, packets near the read pointer), last emitted vs last
 * signalled fence seqno, every context and its state, every queue's
 * pending jobs (context:queue:seqno, state) and what each waits for. */
void swgpu_device_dump(swgpu_device *dev, FILE *out);

/* ------------------------------------------------------------------ */
/* Contexts: one GPU address space + fault domain each                 */
/* ------------------------------------------------------------------ */

typedef enum swgpu_context_state {
	SWGPU_CONTEXT_OK = 0,
	SWGPU_CONTEXT_GUILTY = 1, /* its own job faulted or hung */
	SWGPU_CONTEXT_LOST = 2,   /* innocent, but its work was lost */
} swgpu_context_state;

typedef enum swgpu_fault_kind {
	SWGPU_FAULT_NONE = 0,
	SWGPU_FAULT_PAGE_READ,    /* read of unmapped/out-of-range VA */
	SWGPU_FAULT_PAGE_WRITE,   /* write to unmapped or read-only VA */
	SWGPU_FAULT_BAD_PACKET,   /* unknown opcode, bad length, bad args */
	SWGPU_FAULT_IB_DEPTH,     /* INDIRECT_BUFFER chain too deep */
	SWGPU_FAULT_HANG,         /* no progress for hang_timeout_ms */
	SWGPU_FAULT_TIMELINE,     /* GPU signal would rewind a timeline */
	SWGPU_FAULT_INJECTED,     /* SWGPU_FAULT / swgpu_debug_inject_fault */
} swgpu_fault_kind;

#define SWGPU_FAULT_PACKETS_MAX 4u     /* packets kept in a fault record */
#define SWGPU_FAULT_PACKET_DW_MAX 48u  /* dwords kept in a fault record */

typedef struct swgpu_fault_info {
	swgpu_fault_kind kind;
	uint64_t address;            /* faulting VA (page faults) */
	uint32_t opcode;             /* packet opcode being executed */
	uint32_t engine;             /* engine index */
	uint32_t queue_id;           /* device-wide queue id */
	uint64_t job_seqno;          /* queue seqno of the faulting job */
	uint64_t packet_va;          /* VA of the faulting packet (0: ring) */
	char message[128];
	/* The last packets up to and including the faulting one, as the
	 * engine read them (dwords; the state dump decodes them):
	 * packet_dw[packet_dw_fault] is the faulting packet's header, and
	 * packet_dw[0] lies at packet_dw_va (0: ring). */
	uint32_t packet_dw_count;
	uint32_t packet_dw_fault;
	uint64_t packet_dw_va;
	uint32_t packet_dw[SWGPU_FAULT_PACKET_DW_MAX];
} swgpu_fault_info;

swgpu_result swgpu_context_create(swgpu_device *dev, swgpu_context **out);

/* Destroy a context: cancels its pending jobs, waits (bounded by the hang
 * timeout) for its jobs in rings, unmaps everything. Queues of the context
 * must be destroyed first or are destroyed here. */
void swgpu_context_destroy(swgpu_context *ctx);

/* State of the context; fault (may be NULL) receives the first fault. */
swgpu_context_state swgpu_context_query_state(const swgpu_context *ctx,
                                              swgpu_fault_info *fault);

/* Device-wide id of the context (creation order), used in traces/dumps. */
uint32_t swgpu_context_id(const swgpu_context *ctx);

/* ------------------------------------------------------------------ */
/* Buffer objects                                                      */
/* ------------------------------------------------------------------ */

/* VRAM: the BO lives in the host-visible BAR window (mappable). Fails with
 * NO_DEVICE_MEMORY when the BAR window is full. */
#define SWGPU_BO_BAR        (1u << 0)
/* SYSTEM: CPU-cached (readback). Without it SYSTEM BOs are uncached /
 * write-combined (upload). Both are coherent with the GPU. */
#define SWGPU_BO_CACHED     (1u << 1)
/* Exportable (swgpu_bo_export_fd): the backing is a sealed memfd mapped
 * shared, so other devices and processes can map the same pages. Its
 * pages never move: its eviction and promotion are accounting only (both
 * heaps are host memory), and discarding it when offered drops its pages
 * for every mapping at once (they read as zero). In shared mode every BO
 * is one: the client maps the daemon's pages. */
#define SWGPU_BO_SHAREABLE  (1u << 2)

/* Create a BO of size bytes (rounded up to page_size), zero-filled. BOs are
 * device-wide: any context may map them. */
swgpu_result swgpu_bo_create(swgpu_device *dev, uint64_t size,
                             swgpu_heap heap, uint32_t flags,
                             swgpu_bo **out);

/* Drop the creator's reference. The memory is released when the last VA
 * mapping of the BO is unmapped too, so an engine never touches freed
 * memory. */
void swgpu_bo_destroy(swgpu_bo *bo);

/* A SYSTEM BO whose backing is size bytes of host memory at ptr, both
 * page aligned (VK_EXT_external_memory_host). swgpu does not own the
 * memory: it is never accounted in the heap, offered, moved or freed;
 * the caller keeps it alive until the BO's last reference is gone (its
 * mappings unmapped and, since unmapping never waits, every job that
 * used it complete). flags: 0 or SWGPU_BO_CACHED. swgpu_bo_map returns
 * ptr. Errors: INVALID_ARG (NULL, unaligned), NO_HOST_MEMORY. */
swgpu_result swgpu_bo_import_host(swgpu_device *dev, void *ptr,
                                  uint64_t size, uint32_t flags,
                                  swgpu_bo **out);

/* External memory (VK_KHR_external_memory_fd, opaque fd). Export: a new
 * fd (close-on-exec, the caller's to close) for the memfd backing a BO
 * created with SWGPU_BO_SHAREABLE or imported by swgpu_bo_import_fd; it
 * stays valid after the BO is gone. Errors: INVALID_ARG (NULL, BO not
 * shareable), NO_HOST_MEMORY (no fd left).
 *
 * Import: a BO of heap (flags as swgpu_bo_create's) whose backing is the
 * exported memory, mapped shared: writes through either BO are seen by
 * the other, in this process or another one that received the fd. size
 * (rounded up to the page) must equal the exported BO's size. The fd
 * stays the caller's (swgpu keeps its own dup). The pages count in the
 * exporter's heap usage only. Errors: INVALID_ARG (NULL, size 0, flags),
 * BAD_HANDLE (not an fd swgpu exported: not a sealed memfd, or size
 * mismatch), NO_HOST_MEMORY. */
swgpu_result swgpu_bo_export_fd(swgpu_bo *bo, int *fd_out);
swgpu_result swgpu_bo_import_fd(swgpu_device *dev, int fd, uint64_t size,
                                swgpu_heap heap, uint32_t flags,
                                swgpu_bo **out);

uint64_t swgpu_bo_size(const swgpu_bo *bo);
swgpu_heap swgpu_bo_heap(const swgpu_bo *bo);

/* Host mapping. SYSTEM BOs and VRAM BOs created with SWGPU_BO_BAR are
 * mappable; others fail with NOT_MAPPABLE. Map is reference counted and
 * always returns the same pointer for a BO. */
swgpu_result swgpu_bo_map(swgpu_bo *bo, void **ptr);
void swgpu_bo_unmap(swgpu_bo *bo);

/* Heap usage in bytes (for budgets). */
uint64_t swgpu_heap_usage(const swgpu_device *dev, swgpu_heap heap);

/* Usage and budget of a heap, in bytes (both may be NULL). usage is what
 * swgpu_heap_usage() reports: every live BO, page rounded, minus offered
 * BOs whose pages were discarded. budget is what allocations of the heap
 * may use in total: VRAM min(vram_size, SWGPU_VRAM_BUDGET_MB), SYSTEM its
 * size. A SYSTEM allocation that would go over the budget first discards
 * offered BOs (see swgpu_bo_offer), then fails with NO_DEVICE_MEMORY; a
 * VRAM one discards, evicts or lands in SYSTEM (see "residency" below).
 * In shared mode (SWGPU_MODE=shared) the GPU is the whole machine's and
 * these figures are this process's: usage counts its own BOs only (each
 * where it lives now, until the GPU is done with it), budget is its
 * usage plus what is free of the heap's budget (VRAM min(vram_size,
 * SWGPU_VRAM_BUDGET_MB)) after every process's usage; swgpu_heap_usage()
 * and swgpu_bar_usage() are this process's too.
 * Errors: INVALID_ARG. */
swgpu_result swgpu_heap_budget(const swgpu_device *dev, swgpu_heap heap,
                               uint64_t *usage, uint64_t *budget);

/* Bytes of the BAR window in use (SWGPU_BO_BAR BOs; they count in the
 * VRAM usage too). */
uint64_t swgpu_bar_usage(const swgpu_device *dev);

/* Usage and budget of the BAR window, in bytes (both may be NULL), as
 * swgpu_heap_budget() gives them for a heap: usage is swgpu_bar_usage(),
 * budget is the usage plus what is free of the window (bar_size) after
 * every process's BAR BOs, so in process it is bar_size and in shared
 * mode it shrinks by what the machine's other processes hold. A BAR BO
 * also needs VRAM budget (swgpu_heap_budget). Errors: INVALID_ARG. */
swgpu_result swgpu_bar_budget(const swgpu_device *dev, uint64_t *usage,
                              uint64_t *budget);

/*
 * Offer and reclaim (the WDDM sense). An offered BO's contents may be
 * discarded by swgpu: under memory pressure (an allocation that would go
 * over its heap's budget, or the BAR window) offered BOs of that heap are
 * discarded lowest priority first, oldest offer first within a priority,
 * and only when discarding them makes the allocation fit. Discarding
 * releases the BO's pages (madvise(MADV_DONTNEED)) and its heap usage;
 * the BO object, its host address and its VA mappings stay valid, and its
 * contents read as zero afterwards.
 *
 * Rules: the BO must not be host-mapped when offered (else DEVICE_BUSY)
 * and swgpu_bo_map fails with DEVICE_BUSY while it is offered. VA
 * mappings may stay, but no job may use the BO between offer and reclaim
 * (the caller waits for the jobs that used it first, as WDDM requires an
 * idle allocation): a job that does reads zeros or stale data, never
 * freed memory. Offering an offered BO is INVALID_ARG. Destroying an
 * offered BO is allowed.
 */
typedef enum swgpu_offer_priority {
	SWGPU_OFFER_LOW = 0,     /* discarded first */
	SWGPU_OFFER_NORMAL = 1,
	SWGPU_OFFER_HIGH = 2,    /* discarded last */
	SWGPU_OFFER_PRIORITY_COUNT
} swgpu_offer_priority;

/* Errors: INVALID_ARG (NULL, bad priority, already offered), DEVICE_BUSY
 * (host-mapped). */
swgpu_result swgpu_bo_offer(swgpu_bo *bo, swgpu_offer_priority priority);

/* Take an offered BO back. OK: contents intact. DISCARDED: the pages were
 * released, the BO is usable again and reads as zero. Errors: INVALID_ARG
 * (NULL, not offered), NO_DEVICE_MEMORY (a discarded BO no longer fits
 * its heap's budget even after discarding other offered BOs; the BO
 * stays offered and discarded, so reclaim may be retried). */
swgpu_result swgpu_bo_reclaim(swgpu_bo *bo);

/* Discard every offered BO of the device now (tests, or an application
 * going idle). Returns the bytes of heap usage released. */
uint64_t swgpu_debug_trim(swgpu_device *dev);

/*
 * VRAM over-subscription (residency). A VRAM allocation past the VRAM
 * budget still succeeds while SYSTEM has room: swgpu first discards
 * offered VRAM BOs, then evicts (demotes) VRAM BOs to SYSTEM — lowest
 * priority first, then least recently used — copying their contents
 * exactly; if nothing can be evicted the new BO starts in SYSTEM. A
 * demoted BO counts in the SYSTEM heap's usage. Memory never moves under
 * a running job: a job pins every BO mapped in its context from its start
 * to its end, and a host-mapped BO never moves. When a job starts and no
 * other job of its context runs, its context's demoted BOs are brought
 * back (promoted) if VRAM has room after evicting BOs of idle contexts;
 * otherwise the engines reach them in SYSTEM (slower, never wrong). Only
 * when VRAM and SYSTEM are both exhausted does an allocation fail with
 * NO_DEVICE_MEMORY, and then nothing was discarded or evicted for it.
 */
#define SWGPU_BO_PRIORITY_MAX 1000u
#define SWGPU_BO_PRIORITY_DEFAULT 500u

/* Eviction priority of a BO, 0..SWGPU_BO_PRIORITY_MAX (lowest evicted
 * first; VK_EXT_memory_priority's 0.0..1.0 times 1000). Errors:
 * INVALID_ARG. */
swgpu_result swgpu_bo_set_priority(swgpu_bo *bo, uint32_t priority);

/* Where the BO's memory is now: its heap, or SYSTEM for a demoted VRAM BO
 * (SWGPU_HEAP_COUNT for NULL). */
swgpu_heap swgpu_bo_location(const swgpu_bo *bo);

/* Memory counters since the device was opened. */
typedef struct swgpu_mem_stats {
	uint64_t evictions, evicted_bytes;   /* VRAM BOs demoted to SYSTEM */
	uint64_t promotions, promoted_bytes; /* demoted BOs brought back */
	uint64_t discards, discarded_bytes;  /* offered BOs discarded */
	uint64_t system_placements; /* VRAM BOs that started in SYSTEM */
	uint64_t demoted_bytes;     /* VRAM BOs living in SYSTEM now */
} swgpu_mem_stats;

/* Errors: INVALID_ARG. */
swgpu_result swgpu_mem_query_stats(const swgpu_device *dev,
                                   swgpu_mem_stats *out);

/* ------------------------------------------------------------------ */
/* GPU virtual address space                                           */
/* ------------------------------------------------------------------ */

#define SWGPU_VA_READ  (1u << 0)
#define SWGPU_VA_WRITE (1u << 1)

/* Map [bo_offset, bo_offset + size) of bo into ctx. The VA is chosen by
 * swgpu, aligned to va_alignment, and every mapping is followed by an
 * unmapped guard gap, so running off the end of a mapping faults instead
 * of touching a neighbour. bo_offset must be page aligned; size > 0 and
 * bo_offset + size <= bo size. A mapping holds a reference on the BO.
 * Errors: INVALID_ARG, NO_VA_SPACE, NO_HOST_MEMORY, CONTEXT_LOST. */
swgpu_result swgpu_va_map(swgpu_context *ctx, swgpu_bo *bo,
                          uint64_t bo_offset, uint64_t size,
                          uint32_t va_flags, uint64_t *va_out);

/* Unmap the mapping starting at va. Waits for any packet of ctx that is
 * executing on an engine to leave it (packets are bounded), so the host
 * may free the BO right after. Errors: NOT_MAPPED. */
swgpu_result swgpu_va_unmap(swgpu_context *ctx, uint64_t va);

/* ------------------------------------------------------------------ */
/* Sync objects                                                        */
/* ------------------------------------------------------------------ */

typedef enum swgpu_syncobj_type {
	/* Binary: a payload that is unsignalled or signalled. A submit
	 * signal attaches a pending payload; a submit wait consumes it
	 * (resets the object) unless SWGPU_WAIT_KEEP is set. */
	SWGPU_SYNCOBJ_BINARY = 0,
	/* Timeline: a 64-bit counter that only grows. Waits may be submitted
	 * before the matching signal (wait-before-signal). */
	SWGPU_SYNCOBJ_TIMELINE = 1,
} swgpu_syncobj_type;

/* initial_value: timeline start value; binary: non-zero = signalled. */
swgpu_result swgpu_syncobj_create(swgpu_device *dev, swgpu_syncobj_type type,
                                  uint64_t initial_value,
                                  swgpu_syncobj **out);

/* Destroy. Pending jobs that signal or wait on it keep it alive until they
 * are done (internal reference). */
void swgpu_syncobj_destroy(swgpu_syncobj *obj);

swgpu_syncobj_type swgpu_syncobj_get_type(const swgpu_syncobj *obj);

/* Host signal. Timeline: value must be greater than the current value,
 * else TIMELINE_REWIND and nothing changes. Binary: value ignored; the
 * object becomes signalled (replacing any pending payload). Releases any
 * job or host waiter whose wait is now satisfied. */
swgpu_result swgpu_syncobj_signal(swgpu_syncobj *obj, uint64_t value);

/* Binary only: reset to unsignalled. INVALID_ARG on a timeline. */
swgpu_result swgpu_syncobj_reset(swgpu_syncobj *obj);

/* Current value: timeline counter; binary 1 if signalled, else 0.
 * Returns CONTEXT_LOST if a job that was to signal it failed (the value
 * is still reported). */
swgpu_result swgpu_syncobj_query(const swgpu_syncobj *obj, uint64_t *value);

/* External sync objects (VK_KHR_external_semaphore_fd / _fence_fd, opaque
 * fd: the fd names the payload itself, by reference).
 *
 * Export: a new fd (close-on-exec, the caller's) naming obj: a one-page
 * memfd that, for a timeline, holds the payload (value and a futex word)
 * in shared memory. The first export makes obj exported for good: it then
 * lives until the device closes, as an fd somewhere may still name it
 * (swgpu cannot see when the last one closes).
 *
 * Import: a handle (destroy it with swgpu_syncobj_destroy) to the payload
 * the fd names. An object of this device: a new handle to that object.
 * A timeline of another device or another process (each has its own GPU
 * in in-process mode): a new timeline linked to the shared page — every
 * signal, GPU or host, on either side is seen by the other's waits,
 * within a futex wake-up. The fd stays the caller's.
 * Errors: INVALID_ARG (NULL), BAD_HANDLE (not an fd swgpu exported, or a
 * binary object of another device or process: a binary payload is its
 * scheduler's state, shared across GPUs only by swgpud), NO_HOST_MEMORY. */
swgpu_result swgpu_syncobj_export_fd(swgpu_syncobj *obj, int *fd_out);
swgpu_result swgpu_syncobj_import_fd(swgpu_device *dev, int fd,
                                     swgpu_syncobj **out);

/* Wait flags */
#define SWGPU_WAIT_ALL             (1u << 0) /* all (default: any) */
#define SWGPU_WAIT_FOR_SUBMIT      (1u << 1) /* also wait for the signal
                                                to be submitted first
                                                (else: NOT_SUBMITTED if a
                                                binary object has none) */
#define SWGPU_WAIT_AVAILABLE       (1u << 2) /* only wait until a signal
                                                for the point has been
                                                submitted (or signalled) */

/* Host wait on objs[i] reaching values[i] (values ignored for binary, may
 * be NULL if all are binary). Returns OK, TIMEOUT, NOT_SUBMITTED, or
 * CONTEXT_LOST when a job that was to signal one of them failed.
 * first_signaled (may be NULL) receives the index of a satisfied object
 * for ANY waits. Waiters spin for spin_us, then sleep. */
swgpu_result swgpu_syncobj_wait(swgpu_syncobj *const *objs,
                                const uint64_t *values, uint32_t count,
                                uint32_t wait_flags, uint64_t deadline_ns,
                                uint32_t *first_signaled);

/* ------------------------------------------------------------------ */
/* Queues and submission                                               */
/* ------------------------------------------------------------------ */

typedef enum swgpu_priority {
	SWGPU_PRIORITY_LOW = 0,
	SWGPU_PRIORITY_NORMAL = 1,
	SWGPU_PRIORITY_HIGH = 2,
	SWGPU_PRIORITY_REALTIME = 3,
	SWGPU_PRIORITY_COUNT
} swgpu_priority;

#define SWGPU_ENGINE_ANY UINT32_MAX

/* A queue is a software queue of jobs in ctx on engines of a class. Its
 * jobs start on engine_index within the class (or, SWGPU_ENGINE_ANY, the
 * least loaded one); after that the engine is chosen per job: when the
 * queue has nothing in flight and its engine is busy, its next job goes
 * to an idle engine of the class. Jobs of one queue execute, one at a
 * time on one engine each, and complete in submission order.
 * Errors: INVALID_ARG, UNSUPPORTED (no engine of the class),
 * NO_HOST_MEMORY, and NOT_PERMITTED in shared mode when swgpud's rule
 * does not give this process the priority (README, "Global priority":
 * REALTIME needs CAP_SYS_NICE or the daemon's SWGPUD_REALTIME list). */
swgpu_result swgpu_queue_create(swgpu_context *ctx,
                                swgpu_engine_class engine_class,
                                uint32_t engine_index,
                                swgpu_priority priority,
                                swgpu_queue **out);

/* Destroy: waits (bounded) for its jobs; pending ones are cancelled. */
void swgpu_queue_destroy(swgpu_queue *q);

/* Device-wide id (creation order from 0): the id SWGPU_FAULT names. */
uint32_t swgpu_queue_id(const swgpu_queue *q);
/* Device engine index of the queue's last job sent to a ring (or, before
 * any, of its starting engine). */
uint32_t swgpu_queue_engine(const swgpu_queue *q);

typedef struct swgpu_ib {
	uint64_t va;      /* GPU VA of the first packet, 4-byte aligned */
	uint32_t size_dw; /* size in dwords */
} swgpu_ib;

typedef struct swgpu_sync_point {
	swgpu_syncobj *obj;
	uint64_t value;   /* timeline point; ignored for binary */
	uint32_t flags;   /* SWGPU_WAIT_KEEP for waits */
} swgpu_sync_point;

/* Wait flag: do not consume (reset) a binary payload on wait. */
#define SWGPU_WAIT_KEEP (1u << 8)

typedef struct swgpu_submit_info {
	const swgpu_ib *ibs;
	uint32_t ib_count;               /* 0 is allowed: sync-only job */
	const swgpu_sync_point *waits;
	uint32_t wait_count;
	const swgpu_sync_point *signals;
	uint32_t signal_count;
} swgpu_submit_info;

/* Queue one job. It runs once every wait is satisfied (a timeline wait may
 * name a point nobody has submitted yet; it then waits in the scheduler
 * and blocks no other queue). Its signals happen after all its packets
 * completed, in the order given. seqno_out (may be NULL) receives the
 * job's seqno within the queue (1, 2, 3, ...).
 * Errors: INVALID_ARG, CONTEXT_LOST (context guilty/lost: nothing queued),
 * NOT_SUBMITTED (binary wait with no payload), NO_HOST_MEMORY.
 * Shared mode (swgpud): a submit without binary waits is queued through
 * the session's ring without waiting for the daemon, so it reaches the
 * scheduler a moment after the call returns (every later call of this
 * client that asks the daemon, e.g. swgpu_queue_engine, is served after
 * it); should the daemon still fail to queue it (out of memory), the
 * context is lost and the queue's waits return CONTEXT_LOST. */
swgpu_result swgpu_submit(swgpu_queue *q, const swgpu_submit_info *info,
                          uint64_t *seqno_out);

/* Last completed seqno of the queue (in-order, so all below are done). */
uint64_t swgpu_queue_completed(const swgpu_queue *q);

/* Wait until the queue's job seqno is done (0: everything submitted so
 * far). Returns OK, TIMEOUT, or CONTEXT_LOST if the job or its context
 * failed. */
swgpu_result swgpu_queue_wait(swgpu_queue *q, uint64_t seqno,
                              uint64_t deadline_ns);

/* ------------------------------------------------------------------ */
/* Shaders                                                             */
/* ------------------------------------------------------------------ */

/*
 * A shader is a SPIR-V entry point of one stage (compute, vertex or
 * fragment: swgpu_shader_info.stage), specialized and translated
 * once (at creation) into the engine's internal form, and bound to the
 * resource layout of the pipeline that uses it. It lives in one context:
 * creation maps a small read-only "code" range into the context's VA
 * space, and DISPATCH packets name the shader by that VA
 * (swgpu_shader_code_va). A DISPATCH naming a VA that is not the code VA
 * of a live shader of the context is a fault of the context
 * (SWGPU_FAULT_BAD_PACKET), never a host crash.
 *
 * Destroy a shader only once no submitted DISPATCH uses it any more, and
 * before its context.
 */
typedef struct swgpu_shader swgpu_shader;

/* Engine limits: the compute engine really executes up to these. */
#define SWGPU_SHADER_MAX_WORKGROUP_INVOCATIONS 1024u
#define SWGPU_SHADER_MAX_WORKGROUP_SIZE_X 1024u
#define SWGPU_SHADER_MAX_WORKGROUP_SIZE_Y 1024u
#define SWGPU_SHADER_MAX_WORKGROUP_SIZE_Z 1024u
/* Group counts of one DISPATCH: any 32-bit count below 2^31 in X (the
 * engine numbers groups with a 64-bit index, so X * Y * Z up to 2^63
 * fits), 65535 in Y and Z, as desktop GPUs report. */
#define SWGPU_SHADER_MAX_WORKGROUP_COUNT_X 0x7fffffffu
#define SWGPU_SHADER_MAX_WORKGROUP_COUNT_Y 65535u
#define SWGPU_SHADER_MAX_WORKGROUP_COUNT_Z 65535u
#define SWGPU_SHADER_MAX_SHARED_MEMORY 65536u     /* bytes, Workgroup */
#define SWGPU_SHADER_MAX_PUSH_CONSTANTS 256u      /* bytes */
#define SWGPU_SHADER_MAX_SETS 8u                  /* descriptor sets */
#define SWGPU_SHADER_MAX_IMAGE_DIM 65536u         /* storage image extent
                                                     or layers */
#define SWGPU_SHADER_MAX_IMAGE_LEVELS 17u        /* sampled image levels */
#define SWGPU_SHADER_MAX_DYNAMIC_BUFFERS 16u      /* dynamic offsets */
#define SWGPU_SHADER_MAX_BINDINGS 256u            /* per shader_info */
/* Subgroup size of a shader whose swgpu_shader_info asks for none:
 * invocation i of a workgroup (LocalInvocationIndex) is lane i % 32 of
 * subgroup i / 32. A shader may ask for any power of two from
 * SWGPU_SHADER_MIN_SUBGROUP_SIZE up to this (subgroup_size): invocation
 * i is then lane i % n of subgroup i / n, and every subgroup instruction
 * and built-in works on those n lanes. */
#define SWGPU_SHADER_SUBGROUP_SIZE 32u
#define SWGPU_SHADER_MIN_SUBGROUP_SIZE 4u   /* a quad fits in a subgroup */
/* Subgroup operations executed, as VkSubgroupFeatureFlagBits values:
 * BASIC | VOTE | ARITHMETIC | BALLOT | SHUFFLE | SHUFFLE_RELATIVE |
 * CLUSTERED | QUAD. */
#define SWGPU_SHADER_SUBGROUP_FEATURES 0xffu
/* Minimum alignment of a storage/uniform buffer descriptor's VA (and of
 * a dynamic offset). */
#define SWGPU_SHADER_MIN_BUFFER_ALIGNMENT 16u
/* Storage/uniform buffer bytes one descriptor can address. */
#define SWGPU_SHADER_MAX_BUFFER_RANGE 0xffffffffu

/* Graphics limits: the graphics engine really executes up to these
 * (swgpu_packet.h, "Graphics packets"). */
#define SWGPU_GFX_MAX_COLOR_ATTACHMENTS 8u
#define SWGPU_GFX_MAX_VERTEX_BINDINGS 32u
#define SWGPU_GFX_MAX_VERTEX_ATTRIBS 32u
#define SWGPU_GFX_MAX_LOCATIONS 32u         /* varyings: 4 x 32-bit each */
#define SWGPU_GFX_MAX_VIEWPORTS 16u
#define SWGPU_GFX_MAX_CLIP_DISTANCES 8u     /* clip + cull <= 8 */
#define SWGPU_GFX_MAX_FRAMEBUFFER_DIM 16384u /* attachment width/height */
#define SWGPU_GFX_MAX_FRAMEBUFFER_LAYERS 2048u
#define SWGPU_GFX_MAX_VIEWS 6u             /* multiview: view mask bits
                                               0..5 (maxMultiviewViewCount) */
#define SWGPU_GFX_SUBPIXEL_BITS 8u          /* subPixelPrecisionBits */
#define SWGPU_GFX_VIEWPORT_BOUNDS 32768     /* viewportBoundsRange +-; the
                                               guard band is this too */
#define SWGPU_GFX_MAX_POINT_SIZE 1024.0f    /* pointSizeRange [1, max] */
#define SWGPU_GFX_MAX_LINE_WIDTH 1.0f       /* wideLines: no */

/* True if the engine executes modules declaring this SPIR-V capability
 * (spv::Capability value, e.g. 1 = Shader). shader_create rejects modules
 * declaring any other capability. */
bool swgpu_shader_capability_supported(uint32_t spirv_capability);

/* Descriptor types of a shader binding (and of a descriptor in memory,
 * see "Descriptors" in swgpu_packet.h). */
typedef enum swgpu_descriptor_type {
	SWGPU_DESCRIPTOR_NONE = 0,            /* null descriptor */
	SWGPU_DESCRIPTOR_UNIFORM_BUFFER = 1,
	SWGPU_DESCRIPTOR_STORAGE_BUFFER = 2,
	SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC = 3,
	SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC = 4,
	SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER = 5,
	SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER = 6,
	SWGPU_DESCRIPTOR_SAMPLED_IMAGE = 7,
	SWGPU_DESCRIPTOR_STORAGE_IMAGE = 8,
	SWGPU_DESCRIPTOR_SAMPLER = 9,
	SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER = 10,
	SWGPU_DESCRIPTOR_TYPE_COUNT
} swgpu_descriptor_type;

/* True if shaders can use descriptors of this type (the engine executes
 * them): every type above. */
bool swgpu_shader_descriptor_type_supported(swgpu_descriptor_type type);

/*
 * One (set, binding) of the pipeline layout. Its descriptors are `count`
 * consecutive SWGPU_DESCRIPTOR_SIZE-byte descriptors starting `offset`
 * bytes into the set's descriptor memory (the set VA of the bind table).
 * Dynamic buffer bindings take their dynamic offsets from the bind
 * table's dynamic_offsets[dynamic_index .. dynamic_index + count - 1],
 * added to the descriptor's VA (the range is unchanged).
 */
typedef struct swgpu_shader_binding {
	uint32_t set;                /* < SWGPU_SHADER_MAX_SETS */
	uint32_t binding;
	swgpu_descriptor_type type;
	uint32_t offset;             /* bytes, multiple of DESCRIPTOR_SIZE */
	uint32_t count;              /* array size, >= 1 */
	uint32_t dynamic_index;      /* dynamic types only */
} swgpu_shader_binding;

/* A specialization constant value: size 1, 2, 4 or 8 bytes (booleans are
 * 4-byte values, non-zero = true); the value is in the low bits. */
typedef struct swgpu_spec_constant {
	uint32_t id;                 /* SpecId decoration */
	uint32_t size;
	uint64_t value;
} swgpu_spec_constant;

/* The pipeline stage a shader is created for (its SPIR-V execution
 * model: GLCompute, Vertex, Fragment). */
typedef enum swgpu_shader_stage {
	SWGPU_SHADER_STAGE_COMPUTE = 0,
	SWGPU_SHADER_STAGE_VERTEX = 1,
	SWGPU_SHADER_STAGE_FRAGMENT = 2,
	SWGPU_SHADER_STAGE_COUNT
} swgpu_shader_stage;

typedef struct swgpu_shader_info {
	const uint32_t *code;        /* SPIR-V words (host endian) */
	size_t code_size;            /* bytes, multiple of 4 */
	const char *entry_point;     /* entry point of the stage, e.g. "main" */
	const swgpu_spec_constant *spec_constants;
	uint32_t spec_constant_count;
	const swgpu_shader_binding *bindings;
	uint32_t binding_count;
	uint32_t push_constant_size; /* bytes <= MAX_PUSH_CONSTANTS */
	/* Optional: on failure a NUL-terminated message saying what was
	 * wrong (e.g. "unsupported opcode OpImageSampleImplicitLod (87) at
	 * word 512") is written here. */
	char *error;
	size_t error_size;
	/* Last, so that older initializers mean COMPUTE. A VERTEX or
	 * FRAGMENT shader is named by the pipeline state of graphics
	 * packets (swgpu_packet.h), never by DISPATCH. */
	swgpu_shader_stage stage;
	/* Lanes per subgroup: 0 for SWGPU_SHADER_SUBGROUP_SIZE, else a
	 * power of two in [SWGPU_SHADER_MIN_SUBGROUP_SIZE,
	 * SWGPU_SHADER_SUBGROUP_SIZE] (Vulkan's requiredSubgroupSize). */
	uint32_t subgroup_size;
	/* Optional (SWGPU_SHADER=jit): an application-level cache of
	 * native code (VkPipelineCache). Called at most once, during
	 * swgpu_shader_create, with the key of the code this shader needs
	 * (swgpu_shader_binary_key); returns a blob swgpu_shader_binary_get
	 * gave for that key (valid until the call returns) and its size, or
	 * NULL. The blob is checked (format, key, size, checksum) and loaded
	 * instead of compiling; a blob that fails any check is logged and
	 * the shader compiled as without it. */
	const void *(*binary_lookup)(void *user, const uint8_t key[16],
	                             size_t *size);
	void *binary_user;
} swgpu_shader_info;

/* Validate, specialize and translate; map the code VA into ctx.
 * Errors: INVALID_ARG (malformed or invalid SPIR-V, entry point missing,
 * binding used by the shader missing from info->bindings, local size
 * over the limits, subgroup_size not a power of two in range),
 * UNSUPPORTED (valid SPIR-V using a capability, instruction or
 * descriptor type the engine does not execute),
 * NO_HOST_MEMORY, NO_VA_SPACE, CONTEXT_LOST. */
swgpu_result swgpu_shader_create(swgpu_context *ctx,
                                 const swgpu_shader_info *info,
                                 swgpu_shader **out);
void swgpu_shader_destroy(swgpu_shader *shader);

/* GPU VA naming the shader in DISPATCH packets (read-only mapping). */
uint64_t swgpu_shader_code_va(const swgpu_shader *shader);

typedef enum swgpu_shader_code_source {
	SWGPU_SHADER_CODE_NONE = 0,      /* interpreted */
	SWGPU_SHADER_CODE_COMPILED,      /* compiled at creation */
	SWGPU_SHADER_CODE_COMPILING,     /* compiling in the background,
	                                    interpreted until ready */
	SWGPU_SHADER_CODE_PROCESS_CACHE, /* this process compiled it before */
	SWGPU_SHADER_CODE_APP_CACHE,     /* info.binary_lookup's blob */
	SWGPU_SHADER_CODE_DISK_CACHE,    /* the disk cache */
} swgpu_shader_code_source;

typedef struct swgpu_shader_properties {
	uint32_t local_size[3];      /* after specialization */
	uint32_t shared_memory_size; /* bytes of Workgroup variables */
	uint32_t push_constant_size; /* bytes the shader reads (max end) */
	uint32_t subgroup_size;      /* lanes per subgroup (info's, or
	                                SWGPU_SHADER_SUBGROUP_SIZE) */
	uint32_t instruction_count;  /* internal IR instructions */
	uint32_t register_count;     /* internal 32-bit registers per lane */
	bool uses_barrier;           /* OpControlBarrier present */
	bool uses_subgroup_ops;
	bool uses_atomics;
	/* Graphics stages. */
	swgpu_shader_stage stage;
	uint32_t input_locations;    /* bit L: user input Location L read */
	uint32_t output_locations;   /* bit L: user output Location L
	                                written (fragment: colour outputs) */
	bool writes_position;        /* vertex: Position */
	bool writes_point_size;      /* vertex: PointSize */
	bool writes_depth;           /* fragment: FragDepth */
	bool discards;               /* fragment: OpKill, OpTerminate-
	                                Invocation or OpDemoteToHelper-
	                                Invocation reachable */
	bool early_fragment_tests;   /* fragment: EarlyFragmentTests mode */
	/* Where the shader's native code came from at creation
	 * (SWGPU_SHADER=jit; swgpu_shader_binary_key). */
	swgpu_shader_code_source code_source;
} swgpu_shader_properties;

void swgpu_shader_query_properties(const swgpu_shader *shader,
                                   swgpu_shader_properties *props);

/*
 * Native code of shaders (SWGPU_SHADER=jit), for application-level
 * caches such as VkPipelineCache. A key (16 bytes) names the code of one
 * translated program for this host: it hashes the program, the CPU's
 * name and features, the vector length, LLVM's version, the compiler
 * version and the driver build. A blob is self-checking (format, key,
 * size, checksum) and is only ever loaded for the key it carries.
 */
#define SWGPU_SHADER_BINARY_KEY_SIZE 16u

/* The key of shader's native code: false when the shader has none and
 * will get none (interpreted: SWGPU_SHADER=interp, no LLVM, nothing
 * compilable). The code may still be compiling in the background. */
bool swgpu_shader_binary_key(const swgpu_shader *shader, uint8_t key[16]);

/* A blob of the native code for key, malloc'ed (free() it), *size set;
 * waits for a compile of that key in flight. NULL when this process has
 * no code for key (never compiled, compile failed or cancelled, evicted
 * from the process's in-memory cache). */
void *swgpu_shader_binary_get(const uint8_t key[16], size_t *size);

/* A UUID naming what native code depends on beyond its key's program
 * and CPU: the compiler version, LLVM's version and the driver build
 * (Vulkan's pipelineCacheUUID). false without a compiler (no LLVM):
 * uuid untouched. */
bool swgpu_shader_cache_uuid(uint8_t uuid[16]);

/* ------------------------------------------------------------------ */
/* Trace events of the driver above (SWGPU_TRACE)                      */
/* ------------------------------------------------------------------ */

/*
 * Work that is not a job — the Vulkan driver's presents — can have its
 * own tracks in the device's SWGPU_TRACE file, on the same clock as the
 * jobs it waited for (docs/TRACING.md). Every call is a no-op when
 * tracing is off.
 *
 * swgpu_trace_track: a new track named name (a thread of the device's
 *   process in the trace); returns its id (> 0), or 0 when tracing is off.
 * swgpu_trace_slice: a complete slice [start_ns, end_ns] (swgpu_now_ns
 *   clock) named name, category cat, on track; slices of one track must
 *   nest or be disjoint (the caller's job: one thread per track does it).
 * swgpu_trace_instant: a point event at ts_ns.
 * args_json is NULL or the inside of a JSON object, written as given
 * (e.g. "\"image\":2,\"mode\":\"fifo\""); name and cat are escaped.
 * An event longer than the trace's line limit (1 KiB) is dropped.
 */
uint32_t swgpu_trace_track(swgpu_device *dev, const char *name);
void swgpu_trace_slice(swgpu_device *dev, uint32_t track, const char *cat,
                       const char *name, uint64_t start_ns, uint64_t end_ns,
                       const char *args_json);
void swgpu_trace_instant(swgpu_device *dev, uint32_t track, const char *cat,
                         const char *name, uint64_t ts_ns,
                         const char *args_json);

/* ------------------------------------------------------------------ */
/* Fault injection (debug)                                             */
/* ------------------------------------------------------------------ */

/*
 * SWGPU_FAULT=<kind>:queue=<id>:job=<n>[,<kind>:...]
 *   kind   "pagefault" (the job reads an unmapped VA before its first IB)
 *   queue  device-wide queue id (swgpu_queue_id), applies to every device
 *          opened in the process unless ":device=<index>" is added
 *   job    1-based seqno of the job within that queue
 * Example: SWGPU_FAULT=pagefault:queue=0:job=3
 *
 * swgpu_debug_inject_fault() arms the same fault for the job with the
 * given seqno on q (seqno > last submitted).
 *
 * The armed job really reads an unmapped VA through the normal packet
 * path before its first IB, so it fails like any page fault (job ERROR,
 * context GUILTY); its fault record carries the armed kind:
 * SWGPU_FAULT_INJECTED for "pagefault", else the kind passed to
 * swgpu_debug_inject_fault (INJECTED or PAGE_READ; HANG instead stalls
 * the job for the hang timeout). Other kinds: UNSUPPORTED.
 */
swgpu_result swgpu_debug_inject_fault(swgpu_queue *q, uint64_t job_seqno,
                                      swgpu_fault_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* SWGPU_SWGPU_H */

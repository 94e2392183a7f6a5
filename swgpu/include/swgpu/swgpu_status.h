/* SPDX-License-Identifier: MIT */
/*
 * The status page: what the owner of a software GPU's engines (today the
 * process that opened the device; with swgpud, the daemon) publishes for
 * monitoring tools such as swgpu-smi. One file per device in
 * swgpu_status_dir() (mode 0600, directory 0700), named
 * status-<pid>-<device index>, holding one struct swgpu_status_page,
 * rewritten in place every interval_ms by a thread of the device.
 *
 * Readers never lock: the writer makes seq odd, writes, then makes it
 * even again (release); a reader copies the page between two equal even
 * reads of seq (acquire), or retries. A page whose pid is gone, or whose
 * pid now belongs to a process started at another time (pid_start), is
 * stale: its device's process died without closing it.
 *
 * Layout: native byte order, fixed size; version changes with any layout
 * change (readers skip pages of another version, saying so).
 */
#ifndef SWGPU_STATUS_H
#define SWGPU_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SWGPU_STATUS_MAGIC 0x3154535550475753ull  /* "SWGPUST1" */
#define SWGPU_STATUS_VERSION 2u
#define SWGPU_STATUS_ENGINES 16u
#define SWGPU_STATUS_CONTEXTS 64u
#define SWGPU_STATUS_HEAPS 2u
#define SWGPU_STATUS_PROCESSES 32u

struct swgpu_status_engine {
	char name[16];             /* "compute0", ... */
	uint32_t engine_class;     /* swgpu_engine_class */
	uint32_t busy_permille;    /* over the last interval */
	uint64_t busy_ns;          /* since open, running job included */
	uint64_t jobs_completed, jobs_failed;
	uint64_t preemptions;
	uint32_t queues;           /* software queues bound to it */
	uint32_t running;          /* 1: run_* name the job running now */
	uint32_t run_ctx, run_queue;
	uint64_t run_seqno;
};

struct swgpu_status_context {
	int32_t pid;               /* the process that created it */
	uint32_t id;
	char program[16];          /* that process's name (its comm) */
	uint32_t state;            /* swgpu_context_state */
	int32_t priority;          /* highest of its queues' (swgpu_priority) */
	uint32_t queues;
	uint32_t fault_kind;       /* swgpu_fault_kind of its first fault */
	uint64_t jobs_submitted, jobs_completed;
	uint64_t gpu_ns;           /* engine time of its finished jobs */
};

/* Memory a process owns on the device: its BOs, counted where they live
 * now (a demoted VRAM BO counts in SYSTEM), as the heap totals are. */
struct swgpu_status_process {
	int32_t pid;
	uint32_t bos;              /* BOs it owns (discarded ones too) */
	char program[16];
	uint64_t heap_used[SWGPU_STATUS_HEAPS];
};

struct swgpu_status_page {
	uint64_t magic;            /* SWGPU_STATUS_MAGIC */
	uint32_t version;          /* SWGPU_STATUS_VERSION */
	uint32_t size;             /* sizeof(struct swgpu_status_page) */
	uint64_t seq;              /* odd while being written */
	int32_t pid;               /* owner of the engines */
	uint32_t device_index;
	uint64_t pid_start;        /* owner's start time, /proc/<pid>/stat
	                              field 22 (clock ticks since boot) */
	char program[64];          /* owner's program name */
	char device[64];           /* swgpu_device_info.name */
	char mode[16];             /* "inproc" (or "shared": swgpud) */
	uint64_t opened_unix_ns;   /* CLOCK_REALTIME at device open */
	uint64_t updated_unix_ns;  /* CLOCK_REALTIME of this snapshot */
	uint32_t interval_ms;
	uint32_t engine_count;
	uint32_t context_count;    /* entries filled in contexts[] */
	uint32_t context_total;    /* live contexts (may exceed the array) */
	uint64_t heap_size[SWGPU_STATUS_HEAPS];   /* VRAM, SYSTEM */
	uint64_t heap_used[SWGPU_STATUS_HEAPS];
	uint64_t heap_budget[SWGPU_STATUS_HEAPS];
	uint64_t evictions, evicted_bytes;
	uint64_t promotions, discards;
	uint64_t faults;           /* contexts made guilty by a fault */
	uint64_t hangs;            /* of them by a hang (watchdog) */
	struct swgpu_status_engine engines[SWGPU_STATUS_ENGINES];
	struct swgpu_status_context contexts[SWGPU_STATUS_CONTEXTS];
	uint32_t process_count;    /* entries filled in processes[] */
	uint32_t process_total;    /* owners of memory (may exceed it;
	                              the largest VRAM users are kept) */
	struct swgpu_status_process processes[SWGPU_STATUS_PROCESSES];
};

/*
 * The directory of status pages: $XDG_RUNTIME_DIR/swgpu, else
 * /tmp/swgpu-<uid>. Writes it into buf (size bytes); returns buf, or NULL
 * when it does not fit.
 */
const char *swgpu_status_dir(char *buf, size_t size);
/* Create dir (0700) if missing; false unless it is then a directory of
 * this user that nobody else can enter. swgpud's socket lives there too. */
bool swgpu_status_dir_make(const char *dir);

/* Process pid's start time (field 22 of /proc/<pid>/stat, clock ticks
 * since boot), 0 when there is no such process: with the pid it names
 * one process for good (pids are reused). */
uint64_t swgpu_status_pid_start(int pid);

#endif

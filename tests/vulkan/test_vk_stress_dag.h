/* SPDX-License-Identifier: MIT */
/*
 * test_vk_stress_dag: what its three files share (test_vk_stress_dag.c:
 * the test, checks and main; _model.c: the random DAG and its host model;
 * _run.c: devices, recording and submission). The test's description is
 * at the top of test_vk_stress_dag.c.
 */
#ifndef TEST_VK_STRESS_DAG_H
#define TEST_VK_STRESS_DAG_H

#include "vk_harness.h"

#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* About 0.1-0.7 s per mode, with the validation layer or under TSan;
 * STRESS_JOBS scales it up (3000: about 0.5 s without the layer). */
#define DEFAULT_JOBS 200

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define NDEV 3
#define INJECT_DEV 1
#define SLOT_WORDS 256u
#define SLOT_BYTES (SLOT_WORDS * 4u)
#define HDR_WORDS 4u
#define MAX_DEPS 3
#define MAX_SEGS 6
#define MAX_BIN_OUT 8
#define NBUF 3
#define SUBMIT_WINDOW 8
#define MAX_BATCH 4
#define POISON 0xa5a5a5a5u
#define BALLAST_BYTES (2u << 20) /* per queue */
#define BALLAST_ONE_IN 8
#define MS (1000ull * 1000)
#define WAIT_NS (20000 * MS)
#define LOST_BOUND_NS (30000 * MS)
#define MAX_JOBS 20000u /* 3 x 20 MiB of slots per device */

/* swgpu_fault_kind values reported as vendorFaultCode by
 * VK_EXT_device_fault (swgpu/include/swgpu/swgpu.h). */
#define SWGPU_KIND_HANG 5
#define SWGPU_KIND_INJECTED 7

enum mode { MODE_NONE, MODE_PAGEFAULT, MODE_HANG };
extern const char *const mode_names[];

enum dep_kind {
	DEP_ORDER,    /* same queue: submission order + barrier */
	DEP_TIMELINE, /* GPU wait on the source queue's timeline */
	DEP_BINARY,   /* binary semaphore of this edge */
	DEP_FENCE,    /* host waits for the source's fence */
	DEP_HOST_TL,  /* host vkWaitSemaphores on the timeline */
	DEP_KINDS
};
extern const char *const dep_names[];

enum seg_kind { SEG_COPY, SEG_FILL, SEG_UPDATE };

struct dep {
	uint32_t src;   /* the job whose data is read */
	uint32_t eff;   /* the job whose completion is awaited (>= src,
	                   same queue): src except for later timeline values */
	uint64_t value; /* timeline value waited (position of eff) */
	uint8_t kind;
	VkSemaphore bin;
};

struct seg {
	uint8_t kind;
	uint16_t word0, nwords;  /* destination words in the slot */
	uint32_t src;            /* SEG_COPY: source job */
	uint32_t src_byte;       /* SEG_COPY: byte offset in its slot */
	uint32_t value;          /* SEG_FILL */
};

struct job {
	uint32_t q, pos;  /* queue index, 1-based position on it */
	uint8_t buf;
	uint8_t ndeps, nseg;
	bool fence_src;   /* some job waits for its fence */
	bool host_dep;    /* has a fence or host-timeline dependency */
	bool submitted;
	bool ballast;     /* also fills its queue's ballast buffer */
	uint32_t ballast_value;
	struct dep deps[MAX_DEPS];
	struct seg segs[MAX_SEGS];
	uint32_t nbin_out;
	VkSemaphore bin_out[MAX_BIN_OUT];
	VkFence fence;
	VkCommandBuffer cb;
};

/* What main() learned from the throw-away instance. */
struct probe_info {
	bool swgpu;
	uint32_t nfam;
	uint32_t fam_queues[16]; /* queues created per family (0: none) */
	uint32_t nq;             /* queues per VkDevice */
	char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};
extern struct probe_info probe;

extern enum mode g_mode;
extern uint64_t g_seed;
extern uint32_t g_jobs;
extern uint32_t g_window;
extern bool g_wbs; /* timeline waits may precede their signal */

/* The injection target (fault modes, device INJECT_DEV). */
struct inject_target {
	uint32_t q;      /* queue index in the device */
	uint32_t pos;    /* DAG position on that queue */
	uint32_t job;    /* DAG job index */
	uint32_t qid;    /* swgpu queue id */
	uint64_t swjob;  /* swgpu job number on that queue */
	char spec[96];
};
extern struct inject_target inj;

struct sdev {
	uint32_t index;
	struct vkh *h;
	struct vkh_device d;
	bool fault_ext;
	bool inject;
	uint64_t seed;
	uint32_t njobs, nq;
	struct job *jobs;
	uint32_t qcount[VKH_MAX_QUEUES];
	uint32_t *qjobs[VKH_MAX_QUEUES]; /* job index by position - 1 */
	float prio[VKH_MAX_QUEUES];
	uint8_t *model[NBUF];

	struct vkh_buffer buf[NBUF];
	struct vkh_buffer rb;
	struct vkh_buffer ballast[VKH_MAX_QUEUES];
	uint32_t ballast_want[VKH_MAX_QUEUES];
	VkSemaphore tl[VKH_MAX_QUEUES];

	/* progress */
	uint32_t qnext[VKH_MAX_QUEUES]; /* next position to submit */
	uint32_t qdone[VKH_MAX_QUEUES]; /* positions seen complete */
	uint32_t nsubmitted;

	/* loss */
	bool lost;
	uint64_t t_inject, t_lost;
	char lost_where[128];

	/* stats */
	uint32_t ndep[DEP_KINDS];
	uint32_t calls, calls2, batched, wbs, host_waits, nballast;
	uint64_t t_start, t_end;

	/* failures */
	int failures;
	bool timed_out;
	char first_error[512];
};

extern struct sdev devs[NDEV];
extern pthread_barrier_t start_barrier;

uint64_t env_u64(const char *name, uint64_t dflt);

struct sub;  /* test_vk_stress_dag_run.c: one vkQueueSubmit's arrays */

/* Functions shared by the three files (defined where named in the
 * file comment above). */
uint64_t splitmix64(uint64_t *s);
uint32_t rnd(uint64_t *s, uint32_t n);
uint32_t mix32(uint64_t a, uint64_t b, uint64_t c);
uint32_t update_word(const struct sdev *c, uint32_t j, uint32_t w);
void dev_fail(struct sdev *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint64_t handle(const void *p);
uint32_t pick_weighted(uint64_t *s, const uint32_t *w, uint32_t n);
void gen_segments(struct sdev *c, uint64_t *s, uint32_t j);
void gen_dag(struct sdev *c);
void gen_model(struct sdev *c);
void free_dag(struct sdev *c);
void describe_job(const struct sdev *c, uint32_t j, char *out, size_t n);
bool fault_ext_supported(struct vkh *h);
VkResult create_device(struct vkh *h, bool fault_ext, const float *prio,
              struct vkh_device *d);
VkSemaphore make_semaphore(struct sdev *c, bool timeline);
bool create_objects(struct sdev *c);
bool poison_buffers(struct sdev *c);
VkResult record_job(struct sdev *c, uint64_t *s, uint32_t j, const char **what);
uint32_t lowest_unsubmitted(const struct sdev *c);
bool ready(const struct sdev *c, uint32_t j, uint32_t lo, bool in_batch);
bool note_lost(struct sdev *c, VkResult r, const char *what, uint32_t j);
void dump_progress(struct sdev *c, const char *why);
bool host_wait_ok(struct sdev *c, VkResult r, const char *what, uint32_t j);
bool wait_fences(struct sdev *c, uint64_t *s, uint32_t j, VkFence *f, uint32_t n);
bool wait_timelines(struct sdev *c, uint64_t *s, uint32_t j, VkSemaphore *sem,
               uint64_t *val, uint32_t n);
bool host_waits(struct sdev *c, uint64_t *s, uint32_t j);
void build_sub(struct sdev *c, uint32_t j, struct sub *b);
VkResult submit_batch(struct sdev *c, uint64_t *s, const uint32_t *batch, uint32_t n);
void run_dag(struct sdev *c);
uint32_t verify(struct sdev *c, uint8_t *const got[NBUF], bool only_done);
void verify_all(struct sdev *c);
void check_fault_info(struct sdev *c, bool want_fault);
void final_wait(struct sdev *c);
void finish_healthy(struct sdev *c);
void record_after_loss(struct sdev *c);
void finish_lost(struct sdev *c);
void tolerate_lost(struct sdev *c);
void destroy_objects(struct sdev *c);
void * stress_thread(void *arg);
void print_dev(const struct sdev *c);
void test_stress(struct vkh *h, enum mode mode);
void t_none(struct vkh *h, struct vkh_device *d);
void t_pagefault(struct vkh *h, struct vkh_device *d);
void t_hang(struct vkh *h, struct vkh_device *d);
bool do_probe(void);
void prepare(void);
uint64_t env_u64(const char *name, uint64_t dflt);

#endif

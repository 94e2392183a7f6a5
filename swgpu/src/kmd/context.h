/* SPDX-License-Identifier: MIT */
/* Contexts (internal): one GPU VA space + fault domain each. */
#ifndef SWGPU_CONTEXT_H
#define SWGPU_CONTEXT_H

#include <stdatomic.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/device.h"
#include "kmd/mirror.h"

struct swgpu_context {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	struct swgpu_device *dev;
	uint32_t id;
	struct swgpu_vaspace *vs;
	/* Under dev->lock; lost mirrors state != OK for engines, which read
	 * it at packet boundaries without the lock. */
	swgpu_context_state state;
	atomic_bool lost;
	swgpu_fault_info fault;      /* first fault */
	char fault_gfx_regs[1024];   /* its graphics state, or "" */
	struct dlist queues;
	struct dlist link;           /* dev->contexts */
	uint32_t inflight;           /* jobs in rings */
	uint64_t gpu_ns;             /* engine time of its finished jobs
	                                (under dev->lock; status page) */
	/* The client process that owns it in swgpud (status page), as
	 * kmd_owner_set named it at creation; 0: the device's own
	 * process. */
	atomic_int owner_pid;
	char owner_program[16];      /* its program name, or "" */
	struct mirror mirror;        /* swgpud's client reads it (mirror.h) */
};

/* Record a fault: the context becomes GUILTY (first fault kept). Pending
 * jobs of its queues are cancelled by the scheduler. dev->lock held. */
void context_mark_guilty(struct swgpu_context *ctx,
                         const swgpu_fault_info *fault);

/* Device close: free a context whose queues are gone (lock not held). */
void context_free(struct swgpu_context *ctx);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Sync objects (internal).
 *
 * Timeline: value only grows. Every submitted signal not yet done is a
 * job_signal record, on obj->pending while its job is PENDING, then on
 * obj->inring (in ring order) once the job is in a ring, so the
 * scheduler finds a signaller in a ring without looking at the backlog.
 * A failed signalling job sets error: waits for a point above value then
 * fail with CONTEXT_LOST.
 * Host waiters register a host_wait on each object they wait for, so a
 * signal wakes them only when it may satisfy one of them.
 * Binary: a payload that is NONE, PENDING (a job will signal it; the
 * object holds a job reference) or SIGNALED (maybe with error).
 * All state under dev->lock; refcount counts the user handles plus every
 * job wait/signal naming the object (and the export, if exported).
 */
#ifndef SWGPU_SYNCOBJ_H
#define SWGPU_SYNCOBJ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/device.h"
#include "kmd/mirror.h"

enum binary_payload {
	PAYLOAD_NONE,
	PAYLOAD_PENDING,
	PAYLOAD_SIGNALED,
};

struct swgpu_syncobj {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	struct swgpu_device *dev;
	swgpu_syncobj_type type;
	uint32_t id;                 /* device-wide, for dumps */
	uint32_t refcount;
	uint32_t user_handles;       /* creator + swgpu_syncobj_import_fd */
	/* Exported (syncobj_share.c): a sealed memfd naming the object,
	 * identified on import by its inode. An exported object holds one
	 * reference of its own until the device closes. */
	bool exported;
	int export_fd;
	uint64_t export_dev, export_ino;
	/* The shared payload page and, for a timeline, the thread applying
	 * other processes' changes to it (share_watching while it runs). */
	struct share_page *share_page;
	pthread_t share_watcher;
	bool share_watching;
	atomic_bool share_stop;
	uint64_t value;              /* timeline counter */
	bool error;
	enum binary_payload payload;
	struct swgpu_job *payload_job;
	struct dlist pending;        /* timeline: struct job_signal.link */
	struct dlist inring;         /* timeline: struct job_signal.link */
	uint64_t inring_max;         /* >= every value on inring */
	uint64_t submitted_max;      /* largest value ever submitted */
	struct dlist host_waits;     /* struct host_wait.link */
	struct mirror mirror;        /* swgpud's client reads it (mirror.h) */
	struct dlist link;           /* dev->syncobjs */
};

struct job_signal;

/* One host thread waiting for obj to reach value (dev->lock). */
struct host_wait {
	struct dlist link;
	uint64_t value;
};

void syncobj_ref(struct swgpu_syncobj *obj);
/* The job of s entered a ring: move s to obj->inring. */
void syncobj_signal_in_ring(struct job_signal *s);
/* A signal for obj was submitted or obj changed: wake host waiters that
 * may now be satisfied. dev->lock held. */
void syncobj_wake_waiters(struct swgpu_syncobj *obj, bool submitted);
void syncobj_unref(struct swgpu_syncobj *obj);

/* A job finished: would its timeline signal rewind the timeline (a fault
 * of the job's context)? Then apply the signal (error: the job failed,
 * the object gets the error state). dev->lock held. */
bool syncobj_signal_would_rewind(struct swgpu_syncobj *obj, uint64_t value);
void syncobj_gpu_signal(struct job_signal *s, bool error);

/* Release what an exported object holds (its page and memfd). */
void syncobj_share_fini(struct swgpu_syncobj *obj);
/* obj's timeline value or error changed: publish it to its shared page,
 * if it has one (other processes' links wake up). dev->lock held. */
void syncobj_share_publish(struct swgpu_syncobj *obj);
/* Device close, first thing: stop and join every watcher thread (lock not
 * held). */
void syncobj_share_stop(struct swgpu_device *dev);

/* Device close: free every sync object (lock not held). */
void syncobj_free_all(struct swgpu_device *dev);

#endif

/* SPDX-License-Identifier: MIT */
/* Device open/close, info and per-engine statistics. */
#include "kmd/device.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kmd/context.h"
#include "hw/engine.h"
#include "hw/shader/jit.h"
#include "kmd/job.h"
#include "kmd/ring_server.h"
#include "kmd/status_page.h"
#include "kmd/syncobj.h"
#include "kmd/vaspace.h"
#include "remote/remote.h"

bool kmd_in_daemon;

/* Process-wide order of opening: device_index and the UUID. */
static atomic_uint device_counter;
/* In-process devices open now (the last close quiesces the compiler). */
static atomic_uint devices_open;

int
cond_init_monotonic(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	int ret;

	/* CLOCK_MONOTONIC because every deadline is absolute on it. */
	if (pthread_condattr_init(&attr))
		return -1;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
	return ret ? -1 : 0;
}

bool
cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *lock,
                uint64_t deadline_ns)
{
	if (deadline_ns == SWGPU_DEADLINE_INFINITE) {
		pthread_cond_wait(cond, lock);
		return true;
	}
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};
	return pthread_cond_timedwait(cond, lock, &ts) != ETIMEDOUT;
}

void
dev_host_broadcast(struct swgpu_device *dev)
{
	if (dev->host_wake_defer)
		dev->host_wake_pending = true;
	else
		pthread_cond_broadcast(&dev->host_cond);
}

void
dev_unlock_wake_host(struct swgpu_device *dev)
{
	bool wake = dev->host_wake_pending;

	dev->host_wake_pending = false;
	pthread_mutex_unlock(&dev->lock);
	/* Safe after the unlock: every waiter re-checks its condition
	 * under the lock before sleeping, and the device (host_cond) lives
	 * until the engine threads calling this are joined. */
	if (wake)
		pthread_cond_broadcast(&dev->host_cond);
}

void
dev_wake_host(struct swgpu_device *dev)
{
	if (dev->host_waiters)
		dev_host_broadcast(dev);
}

void
dev_api_wait_enter(struct swgpu_device *dev)
{
	dev->api_waiters++;
}

void
dev_api_wait_leave(struct swgpu_device *dev)
{
	dev->api_waiters--;
	if (atomic_load(&dev->closing))
		pthread_cond_broadcast(&dev->host_cond);
}

void
dev_wake_gpu(struct swgpu_device *dev)
{
	/* Pairs with the waiter's increment of gpu_waiters before it
	 * re-checks memory: one of the two sees the other. A read-modify-
	 * write rather than a fence: it orders the same way (the RMW is a
	 * release, so the memory write before it cannot pass it) and TSan
	 * understands it, which it does not for a standalone fence. */
	if (atomic_fetch_add(&dev->gpu_waiters, 0)) {
		pthread_mutex_lock(&dev->gpu_lock);
		pthread_cond_broadcast(&dev->gpu_cond);
		pthread_mutex_unlock(&dev->gpu_lock);
	}
}

static void
device_fill_info(struct swgpu_device *dev)
{
	swgpu_device_info *info = &dev->info;
	const swgpu_config *cfg = &dev->cfg;
	static const char *const class_name[SWGPU_ENGINE_CLASS_COUNT] = {
		[SWGPU_ENGINE_COMPUTE] = "compute",
		[SWGPU_ENGINE_COPY] = "copy",
		[SWGPU_ENGINE_GRAPHICS] = "gfx",
	};

	memset(info, 0, sizeof(*info));
	info->api_version = SWGPU_API_VERSION;
	snprintf(info->name, sizeof(info->name), "swgpu software GPU %u",
	         dev->index);
	/* Stable per process and device index; version 4 / variant bits
	 * set so tools print it as a well-formed UUID. */
	memcpy(info->uuid, "swgpu-device", 12);
	info->uuid[12] = (uint8_t)(dev->index >> 24);
	info->uuid[13] = (uint8_t)(dev->index >> 16);
	info->uuid[14] = (uint8_t)(dev->index >> 8);
	info->uuid[15] = (uint8_t)dev->index;
	info->uuid[6] = (uint8_t)((info->uuid[6] & 0x0f) | 0x40);
	info->uuid[8] = (uint8_t)((info->uuid[8] & 0x3f) | 0x80);
	info->device_index = dev->index;
	for (uint32_t c = 0; c < SWGPU_ENGINE_CLASS_COUNT; c++) {
		for (uint32_t i = 0; i < cfg->engine_count[c]; i++) {
			swgpu_engine_info *e =
				&info->engines[info->engine_count++];
			e->engine_class = (swgpu_engine_class)c;
			e->index_in_class = i;
			snprintf(e->name, sizeof(e->name), "%s%u",
			         class_name[c], i);
		}
		info->engine_class_count[c] = cfg->engine_count[c];
	}
	info->heap_size[SWGPU_HEAP_VRAM] = cfg->vram_size;
	info->heap_size[SWGPU_HEAP_SYSTEM] = cfg->system_size;
	info->bar_size = cfg->bar_size;
	info->va_size = SWGPU_VA_SIZE;
	info->page_size = SWGPU_PAGE_SIZE;
	info->va_alignment = SWGPU_VA_ALIGNMENT;
	info->max_bo_size = cfg->vram_size > cfg->system_size ?
		cfg->vram_size : cfg->system_size;
	info->ring_size = cfg->ring_size;
	info->max_ib_depth = 8;
	info->max_ib_size_dw = 1u << 24;
	info->timestamp_frequency = 1000000000ull;
	info->timestamp_valid_bits = 64;
	info->hang_timeout_ms = cfg->hang_timeout_ms;
}

/* Free everything; engines must be stopped. Handles a half-open device. */
static void
device_free(struct swgpu_device *dev)
{
	struct dlist *it, *tmp;

	pthread_mutex_lock(&dev->lock);
	dlist_for_each_safe(it, tmp, &dev->queues)
		queue_free_locked(dlist_entry(it, struct swgpu_queue,
		                              dev_link));
	pthread_mutex_unlock(&dev->lock);
	dlist_for_each_safe(it, tmp, &dev->contexts) {
		struct swgpu_context *ctx =
			dlist_entry(it, struct swgpu_context, link);
		dlist_del(&ctx->link);
		context_free(ctx);
	}
	syncobj_free_all(dev);
	for (uint32_t e = 0; e < dev->engine_count; e++)
		engine_destroy(dev->engines[e]);
	job_pool_fini(&dev->pool);
	mem_fini(&dev->mem);
	trace_close(dev);
	pthread_cond_destroy(&dev->gpu_cond);
	pthread_mutex_destroy(&dev->gpu_lock);
	pthread_cond_destroy(&dev->host_cond);
	pthread_cond_destroy(&dev->slice_cond);
	pthread_mutex_destroy(&dev->lock);
	free(dev->fault_str);
	free(dev->trace_str);
	free(dev->dump_dir_str);
	free(dev);
}

static char *
dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

swgpu_result
swgpu_device_open(const swgpu_config *cfg, swgpu_device **out)
{
	swgpu_config defaults;
	swgpu_result r;

	if (!out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL out");
	*out = NULL;
	if (!cfg) {
		swgpu_config_init(&defaults);
		cfg = &defaults;
	}
	if (config_validate(cfg) != SWGPU_OK)
		return SWGPU_ERR(cfg->debug, SWGPU_ERR_INVALID_ARG,
		                 "invalid configuration");
	if (remote_mode_shared()) {
		r = rc_device_open(cfg, out);
		if (r == SWGPU_OK) {
			rc_set_device_index(*out, atomic_fetch_add(
			                            &device_counter, 1));
			return r;
		}
		swgpu_log("SWGPU_MODE=shared: swgpud unavailable, this process "
		          "gets a GPU of its own (in-process mode)");
	}

	struct swgpu_device *dev = calloc(1, sizeof(*dev));
	if (!dev)
		return SWGPU_ERR(cfg->debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "device");
	dev->cfg = *cfg;
	/* Own the strings: the caller's config may go away. */
	dev->fault_str = dup_or_null(cfg->fault);
	dev->trace_str = dup_or_null(cfg->trace);
	dev->cfg.fault = dev->fault_str;
	dev->cfg.trace = dev->trace_str;
	dev->dump_dir_str = dup_or_null(cfg->dump_dir);
	dev->cfg.dump_dir = dev->dump_dir_str;
	dev->index = atomic_fetch_add(&device_counter, 1);
	pthread_mutex_init(&dev->lock, NULL);
	pthread_mutex_init(&dev->gpu_lock, NULL);
	if (cond_init_monotonic(&dev->host_cond) ||
	    cond_init_monotonic(&dev->gpu_cond) ||
	    cond_init_monotonic(&dev->slice_cond)) {
		/* Without a monotonic condvar nothing else can work. */
		swgpu_log("pthread_condattr_setclock(CLOCK_MONOTONIC) failed");
		abort();
	}
	atomic_init(&dev->event_serial, 0);
	spin_budget_init(&dev->host_spin, (uint64_t)dev->cfg.spin_us * 1000u);
	atomic_init(&dev->gpu_waiters, 0);
	atomic_init(&dev->closing, false);
	atomic_init(&dev->abort, false);
	dlist_init(&dev->contexts);
	dlist_init(&dev->queues);
	dlist_init(&dev->syncobjs);
	job_pool_init(&dev->pool);
	mem_init(&dev->mem, &dev->cfg);
	device_fill_info(dev);
	trace_open(dev);

	r = fault_init(dev);
	if (r != SWGPU_OK)
		goto fail;
	for (uint32_t e = 0; e < dev->info.engine_count; e++) {
		const swgpu_engine_info *ei = &dev->info.engines[e];
		r = engine_create(dev, e, ei->engine_class, ei->index_in_class,
		                  &dev->engines[e]);
		if (r != SWGPU_OK)
			goto fail;
		dev->engine_count++;
	}
	for (uint32_t e = 0; e < dev->engine_count; e++) {
		r = engine_start(dev->engines[e]);
		if (r != SWGPU_OK)
			goto fail;
	}
	r = sched_slice_start(dev);
	if (r != SWGPU_OK)
		goto fail;
	status_publish_start(dev);
	atomic_fetch_add(&devices_open, 1);
	*out = dev;
	return SWGPU_OK;

fail:
	sched_slice_stop(dev);
	for (uint32_t e = 0; e < dev->engine_count; e++)
		engine_stop(dev->engines[e]);
	device_free(dev);
	return r;
}

static bool
rings_idle(struct swgpu_device *dev)
{
	for (uint32_t e = 0; e < dev->engine_count; e++)
		for (uint32_t q = 0; q < ENGINE_HWQ_COUNT; q++) {
			const struct engine_hwq *h = &dev->engines[e]->hwq[q];
			if (h->processed != h->emitted)
				return false;
		}
	return true;
}

void
swgpu_device_close(swgpu_device *dev)
{
	if (remote_is(dev)) {
		rc_device_close(dev);
		return;
	}
	if (!dev)
		return;
	uint64_t deadline = swgpu_deadline_from_timeout(
		(uint64_t)dev->cfg.hang_timeout_ms * 1000000u);

	/* Nothing from other processes' shared timelines from here on. */
	syncobj_share_stop(dev);
	status_publish_stop(dev);
	pthread_mutex_lock(&dev->lock);
	/* Pending jobs are doomed now: the scheduler finishes them with an
	 * error once nothing of their queue is in a ring. Ring jobs are
	 * aborted at their next packet boundary: nobody can look at their
	 * results once the device (and all its memory) is gone. */
	atomic_store(&dev->closing, true);
	atomic_store(&dev->abort, true);
	sched_run(dev);
	pthread_cond_broadcast(&dev->host_cond);
	pthread_mutex_unlock(&dev->lock);
	dev_wake_gpu(dev);

	pthread_mutex_lock(&dev->lock);
	while (!rings_idle(dev)) {
		dev->host_waiters++;
		bool woken = cond_wait_until(&dev->host_cond, &dev->lock,
		                             deadline);
		dev->host_waiters--;
		if (!woken && !rings_idle(dev)) {
			/* A packet that does not end: a driver bug. */
			swgpu_log("device close: engines still busy after "
			          "%u ms", dev->cfg.hang_timeout_ms);
			break;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	sched_slice_stop(dev);
	for (uint32_t e = 0; e < dev->engine_count; e++)
		engine_stop(dev->engines[e]);
	device_fault_dump(dev);

	/* Engines are gone and their rings drained: whatever is still in a
	 * software queue is finished here, with an error. Host waiters
	 * leave with an error before anything is freed. */
	pthread_mutex_lock(&dev->lock);
	sched_run(dev);
	while (dev->api_waiters) {
		pthread_cond_broadcast(&dev->host_cond);
		cond_wait_until(&dev->host_cond, &dev->lock,
		                swgpu_deadline_from_timeout(1000000u));
	}
	pthread_mutex_unlock(&dev->lock);
	device_free(dev);
	if (atomic_fetch_sub(&devices_open, 1) == 1)
		jit_queue_quiesce();
}

void
swgpu_device_query_info(const swgpu_device *dev, swgpu_device_info *info)
{
	if (remote_is(dev)) {
		rc_device_query_info(dev, info);
		return;
	}
	if (!dev || !info)
		return;
	*info = dev->info;
}

swgpu_result
swgpu_engine_query_stats(const swgpu_device *cdev, uint32_t engine,
                         swgpu_engine_stats *stats)
{
	if (remote_is(cdev))
		return rc_engine_query_stats(cdev, engine, stats);
	if (!cdev || !stats)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device or stats");
	struct swgpu_device *dev = (struct swgpu_device *)cdev;
	if (engine >= dev->engine_count)
		return DEV_ERR(dev, SWGPU_ERR_INVALID_ARG, "engine %u of %u",
		               engine, dev->engine_count);
	struct swgpu_engine *eng = dev->engines[engine];

	pthread_mutex_lock(&dev->lock);
	*stats = eng->stats;
	stats->jobs_completed = eng->jobs_completed;
	stats->jobs_failed = eng->jobs_failed;
	stats->busy_ns = eng->busy_ns;
	stats->doorbells = eng->doorbells;
	stats->resumed_here = eng->resumed_here;
	stats->fence_seqno = engine_fence_read(eng);
	pthread_mutex_unlock(&dev->lock);
	return SWGPU_OK;
}

void
kmd_device_set_ring_server(swgpu_device *dev,
                           const struct kmd_ring_server *srv)
{
	atomic_store_explicit(&dev->ring_server, srv, memory_order_release);
	kmd_device_kick_engines(dev);
}

void
kmd_device_kick_engines(swgpu_device *dev)
{
	for (uint32_t e = 0; e < dev->engine_count; e++)
		doorbell_ring(&dev->engines[e]->doorbell);
}

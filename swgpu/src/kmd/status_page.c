/* SPDX-License-Identifier: MIT */
/*
 * The device's status page (swgpu/swgpu_status.h), for swgpu-smi: a
 * thread of the device takes a snapshot every interval under dev->lock
 * (counters the engines and the scheduler keep anyway, so the submit
 * path pays nothing) and writes it into a mapped file under the
 * seqlock. SWGPU_PUBLISH=0 (swgpu_config.no_publish) turns it off;
 * SWGPU_PUBLISH_MS sets the interval. A page that cannot be created is
 * logged once and the device runs on without it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <swgpu/swgpu_status.h>

#include "hw/engine.h"
#include "kmd/context.h"
#include "kmd/device.h"
#include "kmd/job.h"
#include "kmd/mem_owner.h"
#include "kmd/status_page.h"

struct status_pub {
	struct swgpu_device *dev;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	int fd;
	struct swgpu_status_page *page;    /* the mapping */
	struct swgpu_status_page snap;     /* built here, then copied */
	char path[PATH_MAX];
	uint64_t last_busy[SWGPU_STATUS_ENGINES];
	uint64_t last_ns;
};

static uint64_t
unix_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Engines: counters, and the job running on each now (ring jobs in the
 * RUNNING state, on the engine whose thread runs them). dev->lock. */
static void
snap_engines(struct status_pub *sp, uint64_t now_ns)
{
	struct swgpu_device *dev = sp->dev;
	struct swgpu_status_page *s = &sp->snap;

	s->engine_count = dev->engine_count < SWGPU_STATUS_ENGINES
	                  ? dev->engine_count : SWGPU_STATUS_ENGINES;
	for (uint32_t e = 0; e < s->engine_count; e++) {
		const struct swgpu_engine *eng = dev->engines[e];
		struct swgpu_status_engine *se = &s->engines[e];

		memset(se, 0, sizeof(*se));
		memcpy(se->name, dev->info.engines[e].name, sizeof(se->name));
		se->engine_class = dev->info.engines[e].engine_class;
		se->busy_ns = eng->busy_ns;
		se->jobs_completed = eng->jobs_completed;
		se->jobs_failed = eng->jobs_failed;
		se->preemptions = eng->stats.preemptions;
		se->queues = eng->queue_count;
	}
	for (uint32_t e = 0; e < dev->engine_count; e++)
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
			const struct engine_hwq *hw = &dev->engines[e]->hwq[h];
			for (uint64_t q = hw->processed + 1;
			     seqno_passed(hw->emitted, q); q++) {
				const struct swgpu_job *j =
					hw->inflight[q & hw->inflight_mask];
				if (!j || j->state != JOB_RUNNING ||
				    j->preempted ||
				    j->run_engine >= s->engine_count)
					continue;
				struct swgpu_status_engine *se =
					&s->engines[j->run_engine];
				se->running = 1;
				se->run_ctx = j->ctx_id;
				se->run_queue = j->queue_id;
				se->run_seqno = j->seqno;
				/* a job's time counts at its end: add the
				 * running one's so far */
				if (j->start_ns && now_ns > j->start_ns)
					se->busy_ns += now_ns - j->start_ns;
			}
		}
}

/* Contexts and their queues. dev->lock. */
static void
snap_contexts(struct status_pub *sp)
{
	struct swgpu_device *dev = sp->dev;
	struct swgpu_status_page *s = &sp->snap;
	struct dlist *it, *tmp, *qt, *qtmp;
	uint32_t n = 0, total = 0;

	dlist_for_each_safe(it, tmp, &dev->contexts) {
		const struct swgpu_context *c =
			dlist_entry(it, struct swgpu_context, link);

		total++;
		if (n == SWGPU_STATUS_CONTEXTS)
			continue;
		struct swgpu_status_context *sc = &s->contexts[n++];
		memset(sc, 0, sizeof(*sc));
		sc->pid = atomic_load(&((struct swgpu_context *)c)->owner_pid);
		if (!sc->pid)
			sc->pid = s->pid;
		memcpy(sc->program, c->owner_program[0] ? c->owner_program
		                                        : s->program,
		       sizeof(sc->program) - 1);
		sc->id = c->id;
		sc->state = c->state;
		sc->fault_kind = c->fault.kind;
		sc->gpu_ns = c->gpu_ns;
		sc->priority = -1;
		dlist_for_each_safe(qt, qtmp, &c->queues) {
			const struct swgpu_queue *q =
				dlist_entry(qt, struct swgpu_queue, ctx_link);
			sc->queues++;
			sc->jobs_submitted += q->submitted;
			sc->jobs_completed += atomic_load(&q->completed);
			if ((int32_t)q->priority > sc->priority)
				sc->priority = (int32_t)q->priority;
		}
	}
	s->context_count = n;
	s->context_total = total;
}

/* Memory per owner (mem_owner.h), largest VRAM users first. */
static void
snap_processes(struct status_pub *sp)
{
	struct swgpu_status_page *s = &sp->snap;
	struct mem_owner o[SWGPU_STATUS_PROCESSES];
	uint32_t total = mem_owner_snapshot(&sp->dev->mem, o,
	                                    SWGPU_STATUS_PROCESSES);
	uint32_t n = total < SWGPU_STATUS_PROCESSES ? total
	                                            : SWGPU_STATUS_PROCESSES;

	memset(s->processes, 0, sizeof(s->processes));
	for (uint32_t i = 0; i < n; i++) {
		struct swgpu_status_process *p = &s->processes[i];

		p->pid = o[i].pid;
		p->bos = o[i].bos;
		memcpy(p->program, o[i].program, sizeof(p->program) - 1);
		for (uint32_t h = 0; h < SWGPU_STATUS_HEAPS; h++)
			p->heap_used[h] = o[i].used[h];
	}
	s->process_count = n;
	s->process_total = total;
}

/* The whole snapshot, then the page under the seqlock. */
static void
publish(struct status_pub *sp)
{
	struct swgpu_device *dev = sp->dev;
	struct swgpu_status_page *s = &sp->snap;
	const uint64_t now = swgpu_now_ns();
	swgpu_mem_stats ms;

	/* The device's totals: this thread works for nobody in
	 * particular (kmd_owner_pid() is 0). */
	for (uint32_t h = 0; h < SWGPU_STATUS_HEAPS; h++)
		swgpu_heap_budget(dev, (swgpu_heap)h, &s->heap_used[h],
		                  &s->heap_budget[h]);
	snap_processes(sp);
	if (swgpu_mem_query_stats(dev, &ms) == SWGPU_OK) {
		s->evictions = ms.evictions;
		s->evicted_bytes = ms.evicted_bytes;
		s->promotions = ms.promotions;
		s->discards = ms.discards;
	}
	pthread_mutex_lock(&dev->lock);
	snap_engines(sp, now);
	snap_contexts(sp);
	s->faults = dev->guilty_faults;
	s->hangs = dev->guilty_hangs;
	pthread_mutex_unlock(&dev->lock);

	const uint64_t dt = now - sp->last_ns;
	for (uint32_t e = 0; e < s->engine_count; e++) {
		struct swgpu_status_engine *se = &s->engines[e];
		uint64_t d = se->busy_ns > sp->last_busy[e]
		             ? se->busy_ns - sp->last_busy[e] : 0;
		uint64_t pm = dt ? d * 1000u / dt : 0;

		se->busy_permille = (uint32_t)(pm > 1000 ? 1000 : pm);
		sp->last_busy[e] = se->busy_ns;
	}
	sp->last_ns = now;
	s->updated_unix_ns = unix_ns();

	/* seqlock: odd while the body changes */
	uint64_t seq = __atomic_load_n(&sp->page->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&sp->page->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->seq = seq + 1;
	memcpy(sp->page, s, sizeof(*s));
	__atomic_store_n(&sp->page->seq, seq + 2, __ATOMIC_RELEASE);
}

static void *
publish_thread(void *arg)
{
	struct status_pub *sp = arg;

	pthread_mutex_lock(&sp->lock);
	while (!sp->stop) {
		pthread_mutex_unlock(&sp->lock);
		publish(sp);
		pthread_mutex_lock(&sp->lock);
		cond_wait_until(&sp->cond, &sp->lock,
		                swgpu_deadline_from_timeout(
		                	(uint64_t)sp->snap.interval_ms *
		                	1000000u));
	}
	pthread_mutex_unlock(&sp->lock);
	return NULL;
}

/* The directory, ours and private (the /tmp fallback is shared). */
static bool
open_page(struct status_pub *sp)
{
	char dir[PATH_MAX - 64];

	if (!swgpu_status_dir(dir, sizeof(dir)) || !swgpu_status_dir_make(dir))
		return false;
	snprintf(sp->path, sizeof(sp->path), "%s/status-%d-%u", dir,
	         (int)getpid(), sp->dev->index);
	sp->fd = open(sp->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC |
	              O_NOFOLLOW, 0600);
	if (sp->fd < 0)
		return false;
	if (ftruncate(sp->fd, sizeof(struct swgpu_status_page)) != 0)
		goto fail;
	sp->page = mmap(NULL, sizeof(struct swgpu_status_page),
	                PROT_READ | PROT_WRITE, MAP_SHARED, sp->fd, 0);
	if (sp->page == MAP_FAILED) {
		sp->page = NULL;
		goto fail;
	}
	return true;
fail:
	close(sp->fd);
	unlink(sp->path);
	return false;
}

void
status_publish_start(struct swgpu_device *dev)
{
	static bool warned;
	struct status_pub *sp;

	if (dev->cfg.no_publish)
		return;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return;
	sp->dev = dev;
	sp->fd = -1;
	if (!open_page(sp)) {
		if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
			swgpu_log("status page: cannot create %s (%s); "
			          "swgpu-smi will not see this device",
			          sp->path[0] ? sp->path : "its directory",
			          strerror(errno));
		free(sp);
		return;
	}
	struct swgpu_status_page *s = &sp->snap;
	s->magic = SWGPU_STATUS_MAGIC;
	s->version = SWGPU_STATUS_VERSION;
	s->size = sizeof(*s);
	s->pid = (int32_t)getpid();
	s->device_index = dev->index;
	s->pid_start = swgpu_status_pid_start(s->pid);
	snprintf(s->program, sizeof(s->program), "%s",
	         program_invocation_short_name);
	snprintf(s->device, sizeof(s->device), "%s", dev->info.name);
	snprintf(s->mode, sizeof(s->mode), kmd_in_daemon ? "shared" : "inproc");
	s->opened_unix_ns = unix_ns();
	s->interval_ms = dev->cfg.publish_ms ? dev->cfg.publish_ms
	                                     : SWGPU_DEFAULT_PUBLISH_MS;
	for (uint32_t h = 0; h < SWGPU_STATUS_HEAPS; h++)
		s->heap_size[h] = dev->info.heap_size[h];
	sp->last_ns = swgpu_now_ns();
	pthread_mutex_init(&sp->lock, NULL);
	cond_init_monotonic(&sp->cond);
	publish(sp);
	if (pthread_create(&sp->thread, NULL, publish_thread, sp) != 0) {
		status_publish_stop_pub(sp);
		return;
	}
	dev->status = sp;
}

/* Unmap and remove the page (thread already joined or never run). */
void
status_publish_stop_pub(struct status_pub *sp)
{
	munmap(sp->page, sizeof(struct swgpu_status_page));
	close(sp->fd);
	unlink(sp->path);
	pthread_cond_destroy(&sp->cond);
	pthread_mutex_destroy(&sp->lock);
	free(sp);
}

void
status_publish_stop(struct swgpu_device *dev)
{
	struct status_pub *sp = dev->status;

	if (!sp)
		return;
	pthread_mutex_lock(&sp->lock);
	sp->stop = true;
	pthread_cond_signal(&sp->cond);
	pthread_mutex_unlock(&sp->lock);
	pthread_join(sp->thread, NULL);
	dev->status = NULL;
	status_publish_stop_pub(sp);
}

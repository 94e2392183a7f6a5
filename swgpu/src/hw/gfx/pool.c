/* SPDX-License-Identifier: MIT */
/*
 * The raster worker pool of a graphics engine: the engine thread plus
 * persistent workers that take items of a parallel loop (vertex
 * batches, geometry chunks, tiles) from an atomic counter.
 *
 * A loop is a job descriptor on the caller's stack, published by
 * pointer with a generation number. Lifetime rule: a worker counts
 * itself active *before* it loads the pointer, and the caller, once all
 * items are done, clears the pointer *before* it waits for the active
 * count to reach zero; with sequentially consistent operations on both
 * sides a worker either is counted (and the caller waits for it) or
 * sees the cleared pointer, so nobody touches a finished descriptor.
 *
 * Workers spin a little after each loop (the next batch of a draw
 * usually follows within microseconds), then sleep on a condvar; the
 * caller sleeps the same way when the last item is another thread's.
 * The spin is cut short when the engine goes idle (gfx_pool_idle: no
 * loop can come before the next submit) and adapts like the engine's
 * own (util/spin.h): a spin that ran out halves the next one, so a
 * frame of one raster loop (vkcube) does not pay 100 us of polling per
 * frame (4 % of its CPU), while the batches of a long draw keep it.
 */
#include "hw/gfx/gfx_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "util/spin.h"
#include "util/util.h"

/* How long an idle worker polls for the next loop before sleeping, and
 * how long the caller polls for the last item. */
#define POOL_IDLE_SPIN_NS 100000u
#define POOL_DONE_SPIN_NS 20000u

struct pool_job {
	gfx_task_fn fn;
	void *ctx;
	uint32_t n;
	uint32_t next;             /* __atomic: next item to claim */
	uint32_t done;             /* __atomic: items finished */
	uint64_t gen;
};

struct gfx_pool {
	uint32_t nthreads;
	pthread_t *threads;
	uint32_t started;
	pthread_mutex_t lock;
	pthread_cond_t wake;       /* workers: a new loop or stop */
	pthread_cond_t done_cv;    /* caller: the last item finished */
	uint32_t sleeping;         /* workers on wake, under lock */
	bool caller_sleeping;      /* under lock */
	bool stop;                 /* under lock (and __atomic reads) */
	uint64_t gen;              /* __atomic: loops published */
	struct pool_job *job;      /* __atomic: the current loop or NULL */
	uint32_t active;           /* __atomic: workers inside a loop */
	bool idle;                 /* __atomic: the engine has no work */
	struct spin_budget idle_spin;  /* of the workers' poll */
};

static inline void
pool_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Claim and run items until none is left; wakes the caller when this
 * thread finished the last one. */
static void
pool_work(struct gfx_pool *pool, struct pool_job *job, uint32_t thread)
{
	for (;;) {
		uint32_t i = __atomic_fetch_add(&job->next, 1,
		                                __ATOMIC_RELAXED);
		if (i >= job->n)
			return;
		job->fn(job->ctx, i, thread);
		if (__atomic_add_fetch(&job->done, 1, __ATOMIC_ACQ_REL) ==
		    job->n && thread != 0) {
			pthread_mutex_lock(&pool->lock);
			if (pool->caller_sleeping)
				pthread_cond_signal(&pool->done_cv);
			pthread_mutex_unlock(&pool->lock);
		}
	}
}

struct worker_arg {
	struct gfx_pool *pool;
	uint32_t index;
};

static void *
worker_main(void *arg)
{
	struct worker_arg *wa = arg;
	struct gfx_pool *pool = wa->pool;
	const uint32_t index = wa->index;
	uint64_t seen = 0;

	free(wa);
	for (;;) {
		const uint64_t now = swgpu_now_ns();
		const uint64_t spin_end = now + spin_budget_get(&pool->idle_spin,
		                                                now);
		uint64_t gen;
		bool idle = false;

		spin_enter();
		while ((gen = __atomic_load_n(&pool->gen, __ATOMIC_ACQUIRE)) ==
		       seen && !__atomic_load_n(&pool->stop, __ATOMIC_RELAXED)
		       && !(idle = __atomic_load_n(&pool->idle,
		                                   __ATOMIC_RELAXED))
		       && swgpu_now_ns() < spin_end)
			pool_relax();
		spin_leave();
		/* an idle engine says nothing of the gap between loops */
		if (!idle)
			spin_budget_feedback(&pool->idle_spin, gen != seen);
		if (gen == seen) {
			pthread_mutex_lock(&pool->lock);
			while (__atomic_load_n(&pool->gen, __ATOMIC_ACQUIRE) ==
			       seen && !pool->stop) {
				pool->sleeping++;
				pthread_cond_wait(&pool->wake, &pool->lock);
				pool->sleeping--;
			}
			bool stop = pool->stop;
			pthread_mutex_unlock(&pool->lock);
			if (stop)
				return NULL;
			gen = __atomic_load_n(&pool->gen, __ATOMIC_ACQUIRE);
		}
		seen = gen;
		__atomic_add_fetch(&pool->active, 1, __ATOMIC_SEQ_CST);
		struct pool_job *job = __atomic_load_n(&pool->job,
		                                       __ATOMIC_SEQ_CST);
		if (job && job->gen == gen)
			pool_work(pool, job, index);
		__atomic_sub_fetch(&pool->active, 1, __ATOMIC_SEQ_CST);
	}
}

struct gfx_pool *
gfx_pool_create(uint32_t threads)
{
	struct gfx_pool *pool = calloc(1, sizeof(*pool));

	if (!pool)
		return NULL;
	pool->nthreads = threads ? threads : 1;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->wake, NULL);
	pthread_cond_init(&pool->done_cv, NULL);
	spin_budget_init(&pool->idle_spin, POOL_IDLE_SPIN_NS);
	if (pool->nthreads > 1) {
		pool->threads = calloc(pool->nthreads - 1,
		                       sizeof(*pool->threads));
		if (!pool->threads)
			goto fail;
	}
	for (uint32_t i = 1; i < pool->nthreads; i++) {
		struct worker_arg *wa = malloc(sizeof(*wa));
		if (!wa)
			goto fail;
		wa->pool = pool;
		wa->index = i;
		if (pthread_create(&pool->threads[i - 1], NULL, worker_main,
		                   wa)) {
			free(wa);
			goto fail;
		}
		pthread_setname_np(pool->threads[i - 1], "swgpu-raster");
		pool->started++;
	}
	return pool;
fail:
	gfx_pool_destroy(pool);
	return NULL;
}

void
gfx_pool_destroy(struct gfx_pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	__atomic_store_n(&pool->stop, true, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);
	for (uint32_t i = 0; i < pool->started; i++)
		pthread_join(pool->threads[i], NULL);
	free(pool->threads);
	pthread_cond_destroy(&pool->done_cv);
	pthread_cond_destroy(&pool->wake);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

uint32_t
gfx_pool_threads(const struct gfx_pool *pool)
{
	return pool->started + 1;
}

void
gfx_pool_idle(struct gfx_pool *pool)
{
	/* Only ends a spin: the sleep path re-checks gen under the lock,
	 * so a loop published meanwhile is never missed. */
	if (pool->started && !__atomic_load_n(&pool->idle, __ATOMIC_RELAXED))
		__atomic_store_n(&pool->idle, true, __ATOMIC_RELAXED);
}

void
gfx_pool_run(struct gfx_pool *pool, uint32_t n, gfx_task_fn fn, void *ctx)
{
	if (!n)
		return;
	/* No pool (the caller alone), one item, or no workers: no
	 * hand-off is cheaper. */
	if (!pool || n == 1 || !pool->started) {
		for (uint32_t i = 0; i < n; i++)
			fn(ctx, i, 0);
		return;
	}
	struct pool_job job = { .fn = fn, .ctx = ctx, .n = n };

	if (__atomic_load_n(&pool->idle, __ATOMIC_RELAXED))
		__atomic_store_n(&pool->idle, false, __ATOMIC_RELAXED);
	pthread_mutex_lock(&pool->lock);
	job.gen = pool->gen + 1;
	__atomic_store_n(&pool->job, &job, __ATOMIC_SEQ_CST);
	__atomic_store_n(&pool->gen, job.gen, __ATOMIC_RELEASE);
	if (pool->sleeping)
		pthread_cond_broadcast(&pool->wake);
	pthread_mutex_unlock(&pool->lock);

	pool_work(pool, &job, 0);

	uint64_t spin_end = swgpu_now_ns() + POOL_DONE_SPIN_NS;
	while (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) != n &&
	       swgpu_now_ns() < spin_end)
		pool_relax();
	if (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) != n) {
		pthread_mutex_lock(&pool->lock);
		while (__atomic_load_n(&job.done, __ATOMIC_ACQUIRE) != n) {
			pool->caller_sleeping = true;
			pthread_cond_wait(&pool->done_cv, &pool->lock);
		}
		pool->caller_sleeping = false;
		pthread_mutex_unlock(&pool->lock);
	}
	/* See the top comment: clear, then wait for stragglers. */
	__atomic_store_n(&pool->job, NULL, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&pool->active, __ATOMIC_SEQ_CST))
		sched_yield();
}

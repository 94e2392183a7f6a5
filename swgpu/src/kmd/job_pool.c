/* SPDX-License-Identifier: MIT */
/*
 * The job pool: jobs are allocated in chunks and recycled through a free
 * list (dev->lock held), so a submit costs no malloc unless the job has
 * more IBs, waits or signals than fit inline (JOB_INLINE).
 */
#include "kmd/job.h"

#include <stdlib.h>
#include <string.h>

#define JOB_CHUNK 64u

void
job_pool_init(struct job_pool *pool)
{
	memset(pool, 0, sizeof(*pool));
	dlist_init(&pool->free);
}

void
job_pool_fini(struct job_pool *pool)
{
	for (uint32_t i = 0; i < pool->chunk_count; i++)
		free(pool->chunks[i]);
	free(pool->chunks);
	memset(pool, 0, sizeof(*pool));
}

static bool
job_pool_grow(struct job_pool *pool)
{
	if (pool->chunk_count == pool->chunk_cap) {
		uint32_t cap = pool->chunk_cap ? pool->chunk_cap * 2 : 8;
		void **c = realloc(pool->chunks, cap * sizeof(*c));
		if (!c)
			return false;
		pool->chunks = c;
		pool->chunk_cap = cap;
	}
	struct swgpu_job *jobs = calloc(JOB_CHUNK, sizeof(*jobs));
	if (!jobs)
		return false;
	pool->chunks[pool->chunk_count++] = jobs;
	for (uint32_t i = 0; i < JOB_CHUNK; i++)
		dlist_add_tail(&jobs[i].link, &pool->free);
	return true;
}

struct swgpu_job *
job_alloc(struct swgpu_device *dev, const swgpu_submit_info *info)
{
	struct job_pool *pool = &dev->pool;

	if (dlist_empty(&pool->free) && !job_pool_grow(pool))
		return NULL;
	struct swgpu_job *job =
		dlist_entry(pool->free.next, struct swgpu_job, link);

	job->ibs = job->ib_inline;
	job->waits = job->wait_inline;
	job->signals = job->signal_inline;
	/* Big jobs get their arrays from malloc: rare, and outside the
	 * common (<= JOB_INLINE) path. */
	if (info->ib_count > JOB_INLINE)
		job->ibs = malloc(info->ib_count * sizeof(*job->ibs));
	if (info->wait_count > JOB_INLINE)
		job->waits = malloc(info->wait_count * sizeof(*job->waits));
	if (info->signal_count > JOB_INLINE)
		job->signals = malloc(info->signal_count *
		                      sizeof(*job->signals));
	if (!job->ibs || !job->waits || !job->signals) {
		if (job->ibs != job->ib_inline)
			free(job->ibs);
		if (job->waits != job->wait_inline)
			free(job->waits);
		if (job->signals != job->signal_inline)
			free(job->signals);
		return NULL;
	}
	dlist_del(&job->link);
	return job;
}

void
job_ref(struct swgpu_job *job)
{
	job->refcount++;
}

void
job_unref(struct swgpu_job *job)
{
	if (--job->refcount)
		return;
	if (job->ibs != job->ib_inline)
		free(job->ibs);
	if (job->waits != job->wait_inline)
		free(job->waits);
	if (job->signals != job->signal_inline)
		free(job->signals);
	job->ibs = NULL;
	job->waits = NULL;
	job->signals = NULL;
	dlist_add_tail(&job->link, &job->dev->pool.free);
}

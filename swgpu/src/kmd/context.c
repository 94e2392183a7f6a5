/* SPDX-License-Identifier: MIT */
/* Contexts: a GPU VA space and a fault domain each. */
#include "kmd/context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmd/job.h"
#include "kmd/owner.h"
#include "kmd/vaspace.h"
#include "remote/remote.h"

swgpu_result
swgpu_context_create(swgpu_device *dev, swgpu_context **out)
{
	if (remote_is(dev))
		return rc_context_create(dev, out);
	if (!dev || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL device or out");
	struct swgpu_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "context");
	swgpu_result r = vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE,
	                                dev->info.page_size, &ctx->vs);
	if (r != SWGPU_OK) {
		free(ctx);
		return DEV_ERR(dev, r, "vaspace_create");
	}
	ctx->dev = dev;
	ctx->state = SWGPU_CONTEXT_OK;
	/* In swgpud: the client the session thread works for. */
	atomic_init(&ctx->owner_pid, kmd_owner_pid());
	snprintf(ctx->owner_program, sizeof(ctx->owner_program), "%s",
	         kmd_owner_program());
	atomic_init(&ctx->lost, false);
	dlist_init(&ctx->queues);
	pthread_mutex_lock(&dev->lock);
	ctx->id = dev->next_context_id++;
	dlist_add_tail(&ctx->link, &dev->contexts);
	pthread_mutex_unlock(&dev->lock);
	*out = ctx;
	return SWGPU_OK;
}

void
context_free(struct swgpu_context *ctx)
{
	vaspace_destroy(ctx->vs);
	free(ctx);
}

void
swgpu_context_destroy(swgpu_context *ctx)
{
	if (remote_is(ctx)) {
		rc_context_destroy(ctx);
		return;
	}
	if (!ctx)
		return;
	struct swgpu_device *dev = ctx->dev;

	pthread_mutex_lock(&dev->lock);
	device_fault_dump_locked(dev);
	while (!dlist_empty(&ctx->queues))
		queue_destroy_locked(dlist_entry(ctx->queues.next,
		                                 struct swgpu_queue, ctx_link));
	dlist_del(&ctx->link);
	pthread_mutex_unlock(&dev->lock);
	/* No job of ctx is in a ring or queue any more: engines cannot
	 * reach its VA space. */
	context_free(ctx);
}

void
context_mark_guilty(struct swgpu_context *ctx, const swgpu_fault_info *fault)
{
	if (ctx->state != SWGPU_CONTEXT_OK)
		return;
	ctx->state = SWGPU_CONTEXT_GUILTY;
	ctx->fault = *fault;
	ctx->dev->guilty_faults++;
	if (fault->kind == SWGPU_FAULT_HANG)
		ctx->dev->guilty_hangs++;
	atomic_store(&ctx->lost, true);
	if (ctx->dev->cfg.debug)
		swgpu_log("context %u guilty: fault %d on engine %u, "
		          "queue %u job %llu: %s", ctx->id, (int)fault->kind,
		          fault->engine, fault->queue_id,
		          (unsigned long long)fault->job_seqno,
		          fault->message);
	atomic_store(&ctx->dev->dump_pending, true);
	mirror_publish(&ctx->mirror, ctx->state, 0, 0);
	for (struct dlist *it = ctx->queues.next; it != &ctx->queues;
	     it = it->next)
		queue_mirror_publish(dlist_entry(it, struct swgpu_queue,
		                                 ctx_link));
	/* Queue waits of this context return CONTEXT_LOST now. */
	pthread_cond_broadcast(&ctx->dev->host_cond);
}

swgpu_context_state
swgpu_context_query_state(const swgpu_context *ctx, swgpu_fault_info *fault)
{
	if (remote_is(ctx))
		return rc_context_query_state(ctx, fault);
	if (!ctx)
		return SWGPU_CONTEXT_LOST;
	struct swgpu_device *dev = ctx->dev;

	pthread_mutex_lock(&dev->lock);
	device_fault_dump_locked(dev);
	swgpu_context_state s = ctx->state;
	if (fault)
		*fault = ctx->fault;
	pthread_mutex_unlock(&dev->lock);
	return s;
}

uint32_t
swgpu_context_id(const swgpu_context *ctx)
{
	if (remote_is(ctx))
		return rc_context_id(ctx);
	return ctx ? ctx->id : UINT32_MAX;
}

swgpu_result
swgpu_va_map(swgpu_context *ctx, swgpu_bo *bo, uint64_t bo_offset,
             uint64_t size, uint32_t va_flags, uint64_t *va_out)
{
	if (remote_is(ctx))
		return rc_va_map(ctx, bo, bo_offset, size, va_flags, va_out);
	if (!ctx || !bo || !va_out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL context, bo or va_out");
	if (bo->dev != ctx->dev)
		return DEV_ERR(ctx->dev, SWGPU_ERR_INVALID_ARG,
		               "BO of another device");
	if (atomic_load(&ctx->lost))
		return DEV_ERR(ctx->dev, SWGPU_ERR_CONTEXT_LOST,
		               "context %u is lost", ctx->id);
	/* vaspace_map logs its own errors with their origin. */
	return vaspace_map(ctx->vs, bo, bo_offset, size, va_flags, va_out);
}

swgpu_result
swgpu_va_unmap(swgpu_context *ctx, uint64_t va)
{
	if (remote_is(ctx))
		return rc_va_unmap(ctx, va);
	if (!ctx)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL context");
	return vaspace_unmap(ctx->vs, va);
}

/* SPDX-License-Identifier: MIT */
/*
 * Queue submission: each VkSubmitInfo(2) becomes one swgpu job whose IB
 * list is the chunks of its command buffers in order, whose waits are its
 * wait semaphores and whose signals are its signal semaphores — plus the
 * fence on the last job of the call. A call with no submits and a fence
 * queues a sync-only job (no IBs) that signals the fence once everything
 * submitted before it on the queue is done (jobs of a queue complete in
 * order).
 *
 * Wait stage masks are not needed: a job starts only when all its waits
 * are satisfied, which is the strictest reading of any stage mask.
 *
 * The submit path does not allocate in the common case: the IB list of a
 * single command buffer is passed as is, and small lists of IBs, waits and
 * signals are assembled on the stack. Only unusually large submits take
 * one host allocation.
 */
#include "cmd_buffer.h"
#include "sync.h"

#define STACK_IBS 64
#define STACK_SYNCS 32

/* Arrays for one job: on the stack when they fit, else in one block. */
struct job_arrays {
	swgpu_ib stack_ibs[STACK_IBS];
	swgpu_sync_point stack_waits[STACK_SYNCS];
	swgpu_sync_point stack_signals[STACK_SYNCS];
	swgpu_ib *ibs;
	swgpu_sync_point *waits;
	swgpu_sync_point *signals;
	void *heap;
};

static VkResult
job_arrays_get(struct icd_device *dev, struct job_arrays *a,
               uint32_t ib_count, uint32_t wait_count, uint32_t signal_count)
{
	size_t size;
	uint8_t *p;

	a->heap = NULL;
	if (ib_count <= STACK_IBS && wait_count <= STACK_SYNCS &&
	    signal_count <= STACK_SYNCS) {
		a->ibs = a->stack_ibs;
		a->waits = a->stack_waits;
		a->signals = a->stack_signals;
		return VK_SUCCESS;
	}
	size = ib_count * sizeof(swgpu_ib) +
	       (wait_count + signal_count) * sizeof(swgpu_sync_point);
	p = icd_alloc(NULL, &dev->alloc, size, 8,
	              VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
	if (!p)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "submit");
	a->heap = p;
	a->waits = (swgpu_sync_point *)p;
	a->signals = a->waits + wait_count;
	a->ibs = (swgpu_ib *)(a->signals + signal_count);
	return VK_SUCCESS;
}

static void
job_arrays_put(struct icd_device *dev, struct job_arrays *a)
{
	icd_free(NULL, &dev->alloc, a->heap);
}

static VkResult
submit_job(struct icd_queue *q, const swgpu_submit_info *info)
{
	swgpu_result r = swgpu_submit(q->swq, info, NULL);

	switch (r) {
	case SWGPU_OK:
		return VK_SUCCESS;
	case SWGPU_ERR_CONTEXT_LOST:
		return VK_ERROR_DEVICE_LOST;
	default:
		return icd_error(icd_result_from_swgpu(r),
		                 "swgpu_submit on queue %u: %s",
		                 swgpu_queue_id(q->swq), swgpu_result_str(r));
	}
}

static void
mark_submitted(struct icd_cmd_buffer *cb)
{
	/* ONE_TIME_SUBMIT buffers may not be submitted again: they go to
	 * the invalid state (strictly, once the job completes; nothing but
	 * a new recording may touch them in between). */
	if (cb->usage & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)
		cb->state = ICD_CMD_INVALID;
}

/* The fence as the last signal of a job. */
static void
add_fence(swgpu_sync_point *signals, uint32_t *count, struct icd_fence *f)
{
	if (!f)
		return;
	signals[*count].obj = icd_fence_obj(f);
	signals[*count].value = 0;
	signals[*count].flags = 0;
	(*count)++;
}

static VkResult
submit_fence_only(struct icd_queue *q, struct icd_fence *f)
{
	swgpu_sync_point sig = { .obj = icd_fence_obj(f) };
	swgpu_submit_info info = { .signals = &sig, .signal_count = 1 };

	return submit_job(q, &info);
}

static void
append_ibs(struct job_arrays *a, uint32_t *n, const struct icd_cmd_buffer *cb)
{
	memcpy(a->ibs + *n, cb->ibs, cb->ib_count * sizeof(swgpu_ib));
	*n += cb->ib_count;
}

static void
set_point(swgpu_sync_point *p, VkSemaphore sem, uint64_t value)
{
	struct icd_semaphore *s = icd_semaphore_from_handle(sem);

	p->obj = icd_semaphore_obj(s);
	/* Binary payloads have no value; a binary wait consumes it. */
	p->value = s->type == VK_SEMAPHORE_TYPE_TIMELINE ? value : 0;
	p->flags = 0;
}

/*
 * One batch of vkQueueSubmit (VkSubmitInfo + timeline values) or of
 * vkQueueSubmit2 (VkSubmitInfo2), seen through one shape so both become a
 * job by the same code. Exactly one of each pair of arrays is set.
 */
struct batch {
	uint32_t cb_count, wait_count, signal_count;
	const VkCommandBuffer *cbs;
	const VkCommandBufferSubmitInfo *cb_infos;
	const VkSemaphore *wait_sems, *signal_sems;
	const uint64_t *wait_values, *signal_values; /* may be NULL */
	uint32_t wait_value_count, signal_value_count;
	const VkSemaphoreSubmitInfo *wait_infos, *signal_infos;
};

static struct icd_cmd_buffer *
batch_cb(const struct batch *b, uint32_t i)
{
	return icd_cmd_buffer_from_handle(b->cbs ? b->cbs[i]
	                                         : b->cb_infos[i].commandBuffer);
}

static void
batch_point(swgpu_sync_point *p, const VkSemaphore *sems,
            const uint64_t *values, uint32_t value_count,
            const VkSemaphoreSubmitInfo *infos, uint32_t i)
{
	if (infos)
		set_point(p, infos[i].semaphore, infos[i].value);
	else
		set_point(p, sems[i],
		          values && i < value_count ? values[i] : 0);
}

static VkResult
submit_batch(struct icd_queue *q, const struct batch *b,
             struct icd_fence *fence)
{
	struct icd_device *dev = q->device;
	swgpu_submit_info info = { 0 };
	struct job_arrays a;
	uint32_t ib_count = 0, nsig = 0;
	VkResult res;

	for (uint32_t i = 0; i < b->cb_count; i++) {
		if (batch_cb(b, i)->device_lost)
			return VK_ERROR_DEVICE_LOST;  /* recorded after the loss */
		ib_count += batch_cb(b, i)->ib_count;
	}
	res = job_arrays_get(dev, &a, ib_count, b->wait_count,
	                     b->signal_count + 1);
	if (res != VK_SUCCESS)
		return res;

	if (b->cb_count == 1) {
		/* The common case: the recorded list, as is. */
		info.ibs = batch_cb(b, 0)->ibs;
	} else {
		uint32_t n = 0;

		for (uint32_t i = 0; i < b->cb_count; i++)
			append_ibs(&a, &n, batch_cb(b, i));
		info.ibs = a.ibs;
	}
	info.ib_count = ib_count;
	for (uint32_t i = 0; i < b->wait_count; i++)
		batch_point(&a.waits[i], b->wait_sems, b->wait_values,
		            b->wait_value_count, b->wait_infos, i);
	for (uint32_t i = 0; i < b->signal_count; i++)
		batch_point(&a.signals[nsig++], b->signal_sems,
		            b->signal_values, b->signal_value_count,
		            b->signal_infos, i);
	add_fence(a.signals, &nsig, fence);
	info.waits = a.waits;
	info.wait_count = b->wait_count;
	info.signals = a.signals;
	info.signal_count = nsig;

	res = submit_job(q, &info);
	job_arrays_put(dev, &a);
	if (res != VK_SUCCESS)
		return res;
	for (uint32_t i = 0; i < b->cb_count; i++)
		mark_submitted(batch_cb(b, i));
	for (uint32_t i = 0; i < b->wait_count; i++)
		icd_semaphore_wait_done(icd_semaphore_from_handle(
			b->wait_infos ? b->wait_infos[i].semaphore
			              : b->wait_sems[i]));
	return VK_SUCCESS;
}

VkResult
icd_QueueSubmit(VkQueue queue, uint32_t submitCount,
                const VkSubmitInfo *pSubmits, VkFence fence)
{
	struct icd_queue *q = icd_queue_from_handle(queue);
	struct icd_fence *f = icd_fence_from_handle(fence);
	VkResult res = icd_device_check_lost(q->device);

	if (res != VK_SUCCESS)
		return res;
	if (submitCount == 0)
		return f ? submit_fence_only(q, f) : VK_SUCCESS;

	for (uint32_t s = 0; s < submitCount && res == VK_SUCCESS; s++) {
		const VkSubmitInfo *si = &pSubmits[s];
		const VkTimelineSemaphoreSubmitInfo *tl = icd_find_struct(
			si->pNext,
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
		const struct batch b = {
			.cb_count = si->commandBufferCount,
			.cbs = si->pCommandBuffers,
			.wait_count = si->waitSemaphoreCount,
			.wait_sems = si->pWaitSemaphores,
			.wait_values = tl ? tl->pWaitSemaphoreValues : NULL,
			.wait_value_count = tl ? tl->waitSemaphoreValueCount
			                       : 0,
			.signal_count = si->signalSemaphoreCount,
			.signal_sems = si->pSignalSemaphores,
			.signal_values = tl ? tl->pSignalSemaphoreValues : NULL,
			.signal_value_count = tl ? tl->signalSemaphoreValueCount
			                         : 0,
		};

		/* The fence rides on the last job of the call. */
		res = submit_batch(q, &b, s + 1 == submitCount ? f : NULL);
	}
	return res;
}

VkResult
icd_QueueSubmit2(VkQueue queue, uint32_t submitCount,
                 const VkSubmitInfo2 *pSubmits, VkFence fence)
{
	struct icd_queue *q = icd_queue_from_handle(queue);
	struct icd_fence *f = icd_fence_from_handle(fence);
	VkResult res = icd_device_check_lost(q->device);

	if (res != VK_SUCCESS)
		return res;
	if (submitCount == 0)
		return f ? submit_fence_only(q, f) : VK_SUCCESS;

	for (uint32_t s = 0; s < submitCount && res == VK_SUCCESS; s++) {
		const VkSubmitInfo2 *si = &pSubmits[s];
		const struct batch b = {
			.cb_count = si->commandBufferInfoCount,
			.cb_infos = si->pCommandBufferInfos,
			.wait_count = si->waitSemaphoreInfoCount,
			.wait_infos = si->pWaitSemaphoreInfos,
			.signal_count = si->signalSemaphoreInfoCount,
			.signal_infos = si->pSignalSemaphoreInfos,
		};

		res = submit_batch(q, &b, s + 1 == submitCount ? f : NULL);
	}
	return res;
}

VkResult
icd_QueueWaitIdle(VkQueue queue)
{
	struct icd_queue *q = icd_queue_from_handle(queue);

	/* An infinite deadline is safe: swgpu ends every wait when the
	 * work it waits for fails (context lost). */
	return icd_sync_wait_result(swgpu_queue_wait(q->swq, 0,
	                                             SWGPU_DEADLINE_INFINITE));
}

VkResult
icd_DeviceWaitIdle(VkDevice device)
{
	struct icd_device *dev = icd_device_from_handle(device);
	VkResult res = VK_SUCCESS;

	for (uint32_t f = 0; f < ICD_MAX_QUEUE_FAMILIES; f++) {
		for (uint32_t i = 0; i < dev->queue_count[f]; i++) {
			VkResult r = icd_sync_wait_result(
				swgpu_queue_wait(dev->queues[f][i].swq, 0,
				                 SWGPU_DEADLINE_INFINITE));

			if (r != VK_SUCCESS && res == VK_SUCCESS)
				res = r;
		}
	}
	return res;
}

VkResult
icd_QueueBindSparse(VkQueue queue, uint32_t bindInfoCount,
                    const VkBindSparseInfo *pBindInfo, VkFence fence)
{
	/* No queue family advertises SPARSE_BINDING. */
	return icd_unsupported("vkQueueBindSparse");
}

/* SPDX-License-Identifier: MIT */
/*
 * Fault injection: SWGPU_FAULT specs parsed at device open and
 * swgpu_debug_inject_fault(). An armed job performs a real read of an
 * unmapped VA through the normal exec path before its first IB (engine.c);
 * the context's fault record then carries the armed kind
 * (SWGPU_FAULT_INJECTED for "pagefault", or the kind given to
 * swgpu_debug_inject_fault) and the faulting address.
 */
#include <string.h>

#include "kmd/job.h"
#include "remote/remote.h"

swgpu_result
fault_init(struct swgpu_device *dev)
{
	struct fault_spec specs[SWGPU_MAX_FAULT_SPECS];
	uint32_t count = 0;

	dev->fault_count = 0;
	if (!dev->cfg.fault || !*dev->cfg.fault)
		return SWGPU_OK;
	swgpu_result r = fault_spec_parse(dev->cfg.fault, specs,
	                                  SWGPU_MAX_FAULT_SPECS, &count);
	if (r != SWGPU_OK)
		return DEV_ERR(dev, r, "SWGPU_FAULT '%s'", dev->cfg.fault);
	for (uint32_t i = 0; i < count; i++) {
		if (specs[i].device_index >= 0 &&
		    (uint32_t)specs[i].device_index != dev->index)
			continue;
		dev->faults[dev->fault_count++] = specs[i];
	}
	return SWGPU_OK;
}

/* Called at submit with dev->lock held; each armed fault fires once. */
void
fault_arm_job(struct swgpu_device *dev, struct swgpu_job *job)
{
	for (uint32_t i = 0; i < dev->fault_count; i++) {
		struct fault_spec *f = &dev->faults[i];
		if (f->queue_id != job->queue_id || f->job_seqno != job->seqno)
			continue;
		job->inject = f->kind;
		dev->faults[i] = dev->faults[--dev->fault_count];
		return;
	}
}

swgpu_result
swgpu_debug_inject_fault(swgpu_queue *q, uint64_t job_seqno,
                         swgpu_fault_kind kind)
{
	if (remote_is(q))
		return rc_debug_inject_fault(q, job_seqno, kind);
	if (!q)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL queue");
	struct swgpu_device *dev = q->dev;
	if (kind != SWGPU_FAULT_INJECTED && kind != SWGPU_FAULT_PAGE_READ &&
	    kind != SWGPU_FAULT_HANG)
		return DEV_ERR(dev, SWGPU_ERR_UNSUPPORTED,
		               "fault kind %d cannot be injected", (int)kind);
	swgpu_result r = SWGPU_OK;
	pthread_mutex_lock(&dev->lock);
	if (job_seqno <= q->submitted)
		r = DEV_ERR(dev, SWGPU_ERR_INVALID_ARG,
		            "job %llu already submitted (last %llu)",
		            (unsigned long long)job_seqno,
		            (unsigned long long)q->submitted);
	else if (dev->fault_count == SWGPU_MAX_FAULT_SPECS)
		r = DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY,
		            "too many armed faults (%u)",
		            SWGPU_MAX_FAULT_SPECS);
	else
		dev->faults[dev->fault_count++] = (struct fault_spec){
			.kind = kind,
			.queue_id = q->id,
			.job_seqno = job_seqno,
			.device_index = (int32_t)dev->index,
		};
	pthread_mutex_unlock(&dev->lock);
	return r;
}

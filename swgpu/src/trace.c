/* SPDX-License-Identifier: MIT */
/*
 * Job trace (SWGPU_TRACE=stderr|path): one line per job transition,
 *   t_ns ctx:queue:seqno STATE engine
 * Written under dev->lock, so lines of one device never interleave.
 * Costs one branch per transition when off.
 */
#include <stdio.h>
#include <string.h>

#include "job.h"

const char *
job_state_name(enum job_state s)
{
	switch (s) {
	case JOB_PENDING: return "PENDING";
	case JOB_QUEUED: return "QUEUED";
	case JOB_RUNNING: return "RUNNING";
	case JOB_DONE: return "DONE";
	case JOB_ERROR: return "ERROR";
	}
	return "?";
}

void
trace_open(struct swgpu_device *dev)
{
	const char *t = dev->cfg.trace;

	if (!t || !*t)
		return;
	if (!strcmp(t, "stderr")) {
		dev->trace = stderr;
		return;
	}
	dev->trace = fopen(t, "w");
	if (!dev->trace) {
		swgpu_log("SWGPU_TRACE: cannot open '%s': tracing off", t);
		return;
	}
	setvbuf(dev->trace, NULL, _IOLBF, 0);
	dev->trace_owned = true;
}

void
trace_close(struct swgpu_device *dev)
{
	if (dev->trace && dev->trace_owned)
		fclose(dev->trace);
	dev->trace = NULL;
	dev->trace_owned = false;
}

void
trace_job(const struct swgpu_job *job, enum job_state state)
{
	struct swgpu_device *dev = job->dev;

	if (!dev->trace)
		return;
	fprintf(dev->trace, "%llu %u:%u:%llu %s %s\n",
	        (unsigned long long)swgpu_now_ns(), job->ctx_id,
	        job->queue_id, (unsigned long long)job->seqno,
	        job_state_name(state), dev->info.engines[job->engine].name);
}

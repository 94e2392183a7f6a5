/* SPDX-License-Identifier: MIT */
/*
 * Synchronization figures: the latency a host thread sees for the smallest
 * unit of GPU work.
 *
 *   rt_fence:    vkQueueSubmit(empty command buffer, fence) ->
 *                vkWaitForFences returns          (median and p99)
 *   rt_timeline: a submit waiting on S = n and signalling n + 1 is queued
 *                first; timed: vkSignalSemaphore(n) -> vkWaitSemaphores
 *                (n + 1) returns                  (median and p99)
 *
 * "Verified" here means the fence really is signalled and the timeline
 * value afterwards is exactly n + 1.
 *
 * rt_fence_loaded, rt_timeline_loaded (and their _p99): the same while
 * --load-threads busy threads (default: CPUs + 1, a load average of about
 * 3 on 2 cores) compete for the CPUs, as an application's own worker
 * threads or other processes would: a driver that spins for its latency
 * must not lose it (or its tail) when no core is idle (issue 20, item 8).
 */
#include "bench.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct sync_names {
	const char *med, *p99;
};

static void
fence_figure(struct bench_vk *vk, const struct bench_opts *o,
             struct sync_names names)
{
	struct bench_result med = {
		.figure = names.med, .unit = "us", .verified = true,
	}, p99 = {
		.figure = names.p99, .unit = "us", .verified = true,
	};
	unsigned iters = o->rt_iters, warm = iters / 10 + 1, n = 0;
	double *s = calloc(iters, sizeof(*s)), cpu0 = 0, wall = 0;
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->xfer);

	if (!s || !cb || bench_cmd_end(cb) != VK_SUCCESS) {
		med.verified = p99.verified = false;
		goto out;
	}
	for (unsigned i = 0; i < warm + iters; i++) {
		uint64_t ns;

		if (i == warm)
			cpu0 = bench_cpu_s();
		if (bench_submit_wait(vk, &vk->xfer, cb, &ns) != VK_SUCCESS) {
			med.verified = p99.verified = false;
			break;
		}
		if (i >= warm) {
			s[n++] = (double)ns / 1e3;
			wall += (double)ns / 1e9;
		}
	}
	/* The reset inside bench_submit_wait is outside the time but inside
	 * the CPU figure; it costs next to nothing. */
	med.cpu = p99.cpu = wall > 0 ? (bench_cpu_s() - cpu0) / wall : 0;
	bench_stats(&med, s, n);
	p99.value = bench_percentile(s, n, 0.99);
	p99.min = med.min;
	p99.max = med.max;
	p99.runs = n;
out:
	bench_report(vk->driver, &med);
	bench_report(vk->driver, &p99);
	bench_cmd_free(vk, &vk->xfer, cb);
	free(s);
}

static void
timeline_figure(struct bench_vk *vk, const struct bench_opts *o,
                struct sync_names names)
{
	struct bench_result med = {
		.figure = names.med, .unit = "us", .verified = true,
	}, p99 = {
		.figure = names.p99, .unit = "us", .verified = true,
	};
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	unsigned iters = o->rt_iters, warm = iters / 10 + 1, n = 0;
	double *s = calloc(iters, sizeof(*s)), cpu = 0, wall = 0;
	VkCommandBuffer cb = bench_cmd_begin(vk, &vk->xfer);
	VkSemaphore sem = VK_NULL_HANDLE;
	uint64_t value = 0;

	if (!vk->timeline) {
		bench_report_na(vk->driver, names.med, "us",
		                "no-timeline-semaphore");
		bench_report_na(vk->driver, names.p99, "us",
		                "no-timeline-semaphore");
		bench_cmd_free(vk, &vk->xfer, cb);
		free(s);
		return;
	}
	if (!s || !cb || bench_cmd_end(cb) != VK_SUCCESS ||
	    vkCreateSemaphore(vk->device, &sci, NULL, &sem) != VK_SUCCESS) {
		med.verified = p99.verified = false;
		goto out;
	}
	for (unsigned i = 0; i < warm + iters; i++) {
		uint64_t wait = value + 1, signal = value + 2, got = 0, t0, ns;
		VkTimelineSemaphoreSubmitInfo ts = {
			.sType =
			VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
			.waitSemaphoreValueCount = 1,
			.pWaitSemaphoreValues = &wait,
			.signalSemaphoreValueCount = 1,
			.pSignalSemaphoreValues = &signal,
		};
		VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &ts,
			.waitSemaphoreCount = 1,
			.pWaitSemaphores = &sem,
			.pWaitDstStageMask = &stage,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb,
			.signalSemaphoreCount = 1,
			.pSignalSemaphores = &sem,
		};
		VkSemaphoreSignalInfo sig = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
			.semaphore = sem,
			.value = wait,
		};
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &sem,
			.pValues = &signal,
		};
		VkResult r;
		double c0;

		/* Wait-before-signal: the job is queued before its wait
		 * value exists; only the host's signal releases it. */
		r = vkQueueSubmit(vk->xfer.queue, 1, &si, VK_NULL_HANDLE);
		c0 = bench_cpu_s();
		t0 = bench_now_ns();
		if (r == VK_SUCCESS)
			r = vkSignalSemaphore(vk->device, &sig);
		if (r == VK_SUCCESS)
			r = vkWaitSemaphores(vk->device, &wi, BENCH_TIMEOUT_NS);
		ns = bench_now_ns() - t0;
		if (r == VK_SUCCESS)
			r = vkGetSemaphoreCounterValue(vk->device, sem, &got);
		if (r != VK_SUCCESS || got != signal) {
			fprintf(stderr, "swgpu_bench: timeline: %s, value "
			        "%llu want %llu\n", bench_vk_result(r),
			        (unsigned long long)got,
			        (unsigned long long)signal);
			med.verified = p99.verified = false;
			bench_failed = true;
			break;
		}
		value = signal;
		if (i >= warm) {
			cpu += bench_cpu_s() - c0;
			s[n++] = (double)ns / 1e3;
			wall += (double)ns / 1e9;
		}
	}
	med.cpu = p99.cpu = wall > 0 ? cpu / wall : 0;
	bench_stats(&med, s, n);
	p99.value = bench_percentile(s, n, 0.99);
	p99.min = med.min;
	p99.max = med.max;
	p99.runs = n;
out:
	vkQueueWaitIdle(vk->xfer.queue);
	bench_report(vk->driver, &med);
	bench_report(vk->driver, &p99);
	if (sem)
		vkDestroySemaphore(vk->device, sem, NULL);
	bench_cmd_free(vk, &vk->xfer, cb);
	free(s);
}

/* The competing load: threads that only burn CPU until told to stop. */
struct busy_load {
	pthread_t threads[64];
	unsigned n;
	atomic_bool stop;
};

static void *
busy_thread(void *arg)
{
	struct busy_load *l = arg;
	volatile uint64_t x = 0;

	while (!atomic_load_explicit(&l->stop, memory_order_relaxed))
		for (unsigned i = 0; i < 4096; i++)
			x = x * 6364136223846793005ull + 1;
	return NULL;
}

static void
busy_start(struct busy_load *l, unsigned n)
{
	atomic_init(&l->stop, false);
	l->n = 0;
	while (l->n < n && l->n < 64 &&
	       !pthread_create(&l->threads[l->n], NULL, busy_thread, l))
		l->n++;
	/* Let them get on the CPUs before the first round trip. */
	usleep(20000);
}

static void
busy_stop(struct busy_load *l)
{
	atomic_store(&l->stop, true);
	for (unsigned i = 0; i < l->n; i++)
		pthread_join(l->threads[i], NULL);
}

bool
bench_sync(struct bench_vk *vk, const struct bench_opts *o)
{
	if (bench_figure_wanted(o, "sync_fence"))
		fence_figure(vk, o, (struct sync_names){
			"rt_fence", "rt_fence_p99" });
	if (bench_figure_wanted(o, "sync_timeline"))
		timeline_figure(vk, o, (struct sync_names){
			"rt_timeline", "rt_timeline_p99" });
	if (bench_figure_wanted(o, "sync_loaded")) {
		struct busy_load load;
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned n = o->load_threads ? o->load_threads :
		             (unsigned)(cpus > 0 ? cpus + 1 : 3);

		fprintf(stderr, "swgpu_bench: loaded round trips beside %u "
		        "busy threads\n", n);
		busy_start(&load, n);
		fence_figure(vk, o, (struct sync_names){
			"rt_fence_loaded", "rt_fence_loaded_p99" });
		timeline_figure(vk, o, (struct sync_names){
			"rt_timeline_loaded", "rt_timeline_loaded_p99" });
		busy_stop(&load);
	}
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * Figures "share" (issue 20 item 7): the latency of a small dispatch
 * (4096 invocations, submit -> fence, data checked) on one VkDevice
 *   share_alone    with nothing else running,
 *   share_endless  while another VkDevice of the process runs a
 *                  workgroup that never ends (it is released only after
 *                  the figure),
 *   share_long     while another VkDevice runs a legitimate dispatch of
 *                  about a second (many workgroups; its data checked too),
 * each as p50 and p99 in microseconds. On swgpu the other device's work
 * runs on another compute engine or is preempted by time slices; lavapipe
 * runs the two devices' dispatches one after the other, so its first
 * small dispatch waits for the other one to end: its figures are what
 * they are (llvmpipe also ends an "endless" loop after 65535 rounds).
 * The note of each figure says how many samples were taken while the
 * other device's dispatch was still running.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bench_kernel.h"

#include "share_hold.spv.h"
#include "share_small.spv.h"

#define SHARE_N 4096u
#define SHARE_LONG_GROUPS 256u
#define SHARE_LONG_MAX_GROUPS 4096u
/* llvmpipe ends any loop after 65535 rounds: stay below, grow groups. */
#define SHARE_LONG_MAX_STEPS 60000u
/* swgpu's hang timeout is 5 s of a job's own time: the endless one is
 * released well before. */
#define SHARE_ENDLESS_MAX_NS (2ull * 1000 * 1000 * 1000)

struct share_small {
	struct bench_buffer out;
	struct bench_kernel k;
	uint32_t seed;
};

/* The other device and its dispatch. */
struct share_other {
	struct bench_vk vk;
	struct bench_buffer flags, out;
	struct bench_kernel k;
	VkCommandBuffer cb;
	VkFence fence;
	bool started;
};

struct share_push {
	uint32_t steps, endless;
};

static double *
samples_alloc(unsigned n)
{
	return calloc(n ? n : 1, sizeof(double));
}

/* One timed small dispatch; false when it failed or wrote wrong data. */
static bool
small_once(struct bench_vk *vk, struct share_small *s, double *us)
{
	bool ok;
	uint32_t seed = ++s->seed;
	uint64_t ns = bench_timed_dispatch(vk, &s->k, &seed, 4,
	                                   SHARE_N / 64u, &ok);

	*us = (double)ns / 1e3;
	if (!ok)
		return false;
	bench_buffer_invalidate(vk, &s->out);
	const uint32_t *v = s->out.map;
	for (uint32_t i = 0; i < SHARE_N; i++)
		if (v[i] != ((i * 2654435761u) ^ seed))
			return false;
	return true;
}

static void
report(const char *driver, const char *figure, double *v, unsigned n,
       double p, bool ok, const char *note)
{
	struct bench_result r = {
		.figure = figure, .unit = "us", .verified = ok, .note = note,
	};

	if (!n) {
		bench_report_na(driver, figure, "us", "no-sample");
		return;
	}
	bench_stats(&r, v, n);
	if (p > 0.5)
		r.value = bench_percentile(v, n, p);
	bench_report(driver, &r);
}

static VkResult
other_open(struct share_other *x)
{
	struct bench_buffer *bufs[2] = { &x->flags, &x->out };
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkResult r;

	memset(x, 0, sizeof(*x));
	r = bench_vk_init(&x->vk);
	if (r != VK_SUCCESS)
		return r;
	if (!x->vk.has_compute)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	r = bench_buffer_create(&x->vk, 4096, BENCH_SSBO_USAGE,
	                        BENCH_MEM_UPLOAD, &x->flags);
	if (r == VK_SUCCESS)
		r = bench_buffer_create(&x->vk,
		                        SHARE_LONG_MAX_GROUPS * 64u * 4u,
		                        BENCH_SSBO_USAGE, BENCH_MEM_READBACK,
		                        &x->out);
	if (r == VK_SUCCESS)
		r = bench_kernel_create(&x->vk, share_hold_spv,
		                        sizeof(share_hold_spv), bufs, 2,
		                        sizeof(struct share_push), &x->k);
	if (r == VK_SUCCESS)
		r = vkCreateFence(x->vk.device, &fci, NULL, &x->fence);
	return r;
}

/* Start the other device's dispatch (not waited for). */
static VkResult
other_start(struct share_other *x, uint32_t steps, uint32_t groups,
            bool endless)
{
	struct share_push push = { steps, endless };

	volatile uint32_t *f = x->flags.map;

	f[0] = f[1] = f[2] = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	x->cb = bench_cmd_begin(&x->vk, &x->vk.compute);
	if (!x->cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	bench_kernel_record(x->cb, &x->k, &push, sizeof(push), groups, 1);
	bench_barrier(x->cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	              VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
	              VK_ACCESS_HOST_READ_BIT);
	bench_cmd_end(x->cb);
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
		.pCommandBuffers = &x->cb,
	};
	VkResult r = vkQueueSubmit(x->vk.compute.queue, 1, &si, x->fence);
	if (r != VK_SUCCESS)
		return r;
	/* Measure only once it runs (lavapipe may start it late). */
	uint64_t deadline = bench_now_ns() + 10ull * 1000 * 1000 * 1000;
	while (!__atomic_load_n(&f[1], __ATOMIC_ACQUIRE) &&
	       bench_now_ns() < deadline) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
	x->started = __atomic_load_n(&f[1], __ATOMIC_ACQUIRE) != 0;
	return VK_SUCCESS;
}

static bool
other_running(struct share_other *x)
{
	return vkGetFenceStatus(x->vk.device, x->fence) == VK_NOT_READY;
}

/* Release (endless) and wait for the other dispatch; check long's data. */
static bool
other_finish(struct share_other *x, uint32_t steps, uint32_t groups,
             bool endless)
{
	volatile uint32_t *f = x->flags.map;

	__atomic_store_n(&f[0], 1u, __ATOMIC_RELEASE);
	VkResult r = vkWaitForFences(x->vk.device, 1, &x->fence, VK_TRUE,
	                             BENCH_TIMEOUT_NS);
	vkResetFences(x->vk.device, 1, &x->fence);
	bench_cmd_free(&x->vk, &x->vk.compute, x->cb);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: share: other device: %s\n",
		        bench_vk_result(r));
		return false;
	}
	if (endless)
		return true;
	bench_buffer_invalidate(&x->vk, &x->out);
	const uint32_t *o = x->out.map;
	/* Every 61st word: the host runs the same steps. */
	for (uint32_t i = 0; i < groups * 64u; i += 61u) {
		uint32_t v = i;
		for (uint32_t s = 0; s < steps; s++)
			v = v * 1664525u + 1013904223u;
		if (o[i] != v)
			return false;
	}
	return f[2] == groups;
}

static void
other_close(struct share_other *x)
{
	if (x->fence)
		vkDestroyFence(x->vk.device, x->fence, NULL);
	bench_kernel_destroy(&x->vk, &x->k);
	bench_buffer_destroy(&x->vk, &x->out);
	bench_buffer_destroy(&x->vk, &x->flags);
	bench_vk_finish(&x->vk);
}

/* Small dispatches while the other's runs (at least one, at most n):
 * returns how many were taken while it still ran. */
static unsigned
measure_beside(struct bench_vk *vk, struct share_small *s,
               struct share_other *x, double *v, unsigned n,
               unsigned *taken, bool *ok, uint64_t max_ns)
{
	unsigned during = 0;
	uint64_t t0 = bench_now_ns();

	*taken = 0;
	while (*taken < n) {
		bool running = other_running(x);
		if (!small_once(vk, s, &v[*taken]))
			*ok = false;
		during += running && other_running(x);
		(*taken)++;
		if (!other_running(x) || bench_now_ns() - t0 > max_ns)
			break;
	}
	return during;
}

/* A driver that runs the devices' dispatches one after the other would
 * wait forever behind the endless one: it is released after
 * SHARE_ENDLESS_MAX_NS whatever happens (the figure then shows it). */
struct releaser {
	volatile uint32_t *go;
	bool stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *
release_main(void *arg)
{
	struct releaser *rl = arg;
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)(SHARE_ENDLESS_MAX_NS / 1000000000ull);
	pthread_mutex_lock(&rl->lock);
	while (!rl->stop)
		if (pthread_cond_timedwait(&rl->cond, &rl->lock, &until))
			break;
	pthread_mutex_unlock(&rl->lock);
	__atomic_store_n(rl->go, 1u, __ATOMIC_RELEASE);
	return NULL;
}

static void
share_figures(struct bench_vk *vk, const struct bench_opts *o,
              struct share_small *s)
{
	const char *drv = vk->driver;
	unsigned n = o->quick ? 8 : 400;
	double *v = samples_alloc(n);
	static char notes[2][64];
	struct share_other x;
	unsigned taken, during;
	bool ok = true;

	if (!v)
		return;
	/* Alone. */
	for (unsigned i = 0; i < n; i++)
		ok &= small_once(vk, s, &v[i]);
	report(drv, "share_alone", v, n, 0.5, ok, NULL);
	report(drv, "share_alone_p99", v, n, 0.99, ok, NULL);

	if (other_open(&x) != VK_SUCCESS) {
		bench_report_na(drv, "share_endless", "us", "no-second-device");
		bench_report_na(drv, "share_long", "us", "no-second-device");
		other_close(&x);
		free(v);
		return;
	}
	/* Beside an endless workgroup of the other device. */
	ok = other_start(&x, 0, 1, true) == VK_SUCCESS && x.started;
	struct releaser rl = { .go = x.flags.map };
	pthread_t rt;
	pthread_mutex_init(&rl.lock, NULL);
	pthread_cond_init(&rl.cond, NULL);
	bool rt_ok = !pthread_create(&rt, NULL, release_main, &rl);
	during = measure_beside(vk, s, &x, v, n, &taken, &ok,
	                        SHARE_ENDLESS_MAX_NS);
	if (rt_ok) {
		pthread_mutex_lock(&rl.lock);
		rl.stop = true;
		pthread_cond_signal(&rl.cond);
		pthread_mutex_unlock(&rl.lock);
		pthread_join(rt, NULL);
	}
	pthread_cond_destroy(&rl.cond);
	pthread_mutex_destroy(&rl.lock);
	ok &= other_finish(&x, 0, 1, true);
	snprintf(notes[0], sizeof(notes[0]), "%u-of-%u-beside-it", during,
	         taken);
	report(drv, "share_endless", v, taken, 0.5, ok, notes[0]);
	report(drv, "share_endless_p99", v, taken, 0.99, ok, notes[0]);

	/* Beside a legitimate dispatch of about a second (50 ms quick):
	 * its steps scaled from a short run alone. */
	uint32_t steps = o->quick ? 200 : 2000, groups = SHARE_LONG_GROUPS;
	uint64_t t0 = bench_now_ns();
	ok = other_start(&x, steps, groups, false) == VK_SUCCESS &&
	     other_finish(&x, steps, groups, false);
	double alone_ns = (double)(bench_now_ns() - t0);
	double target = o->quick ? 5e7 : 1e9;
	double scale = alone_ns > 0 ? target / alone_ns : 1.0;
	scale = scale < 1.0 ? 1.0 : scale > 4000.0 ? 4000.0 : scale;
	double want = steps * scale;
	steps = want > SHARE_LONG_MAX_STEPS ? SHARE_LONG_MAX_STEPS
	                                    : (uint32_t)want;
	double more = want / steps * SHARE_LONG_GROUPS;
	groups = more > SHARE_LONG_MAX_GROUPS ? SHARE_LONG_MAX_GROUPS
	                                      : (uint32_t)more;
	t0 = bench_now_ns();
	ok &= other_start(&x, steps, groups, false) == VK_SUCCESS;
	during = measure_beside(vk, s, &x, v, n, &taken, &ok, UINT64_MAX);
	ok &= other_finish(&x, steps, groups, false);
	fprintf(stderr, "swgpu_bench: share_long: the other dispatch ran "
	        "%.0f ms (%u steps x %u workgroups)\n",
	        (double)(bench_now_ns() - t0) / 1e6, steps, groups);
	snprintf(notes[1], sizeof(notes[1]), "%u-of-%u-beside-it", during,
	         taken);
	report(drv, "share_long", v, taken, 0.5, ok, notes[1]);
	report(drv, "share_long_p99", v, taken, 0.99, ok, notes[1]);
	if (!ok)
		bench_failed = true;
	other_close(&x);
	free(v);
}

void
bench_share(struct bench_vk *vk, const struct bench_opts *o)
{
	struct share_small s;
	struct bench_buffer *bufs[1] = { &s.out };

	memset(&s, 0, sizeof(s));
	if (!vk->has_compute) {
		bench_report_na(vk->driver, "share_alone", "us",
		                "no-compute-queue");
		return;
	}
	if (bench_buffer_create(vk, SHARE_N * 4u, BENCH_SSBO_USAGE,
	                        BENCH_MEM_READBACK, &s.out) != VK_SUCCESS ||
	    bench_kernel_create(vk, share_small_spv, sizeof(share_small_spv),
	                        bufs, 1, 4, &s.k) != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: share: setup failed\n");
		bench_failed = true;
	} else {
		share_figures(vk, o, &s);
	}
	bench_kernel_destroy(vk, &s.k);
	bench_buffer_destroy(vk, &s.out);
}

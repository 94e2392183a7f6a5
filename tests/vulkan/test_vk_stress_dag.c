/* SPDX-License-Identifier: MIT */
/*
 * Randomized DAG stress across every queue, three VkDevices at once, with
 * optional fault or hang injection into the middle one.
 *
 * Three VkDevices are created on the physical device, each with every
 * queue of every queue family that can run transfer commands (random
 * priorities: on swgpu LOW or NORMAL, so NORMAL work of one device
 * preempts long LOW jobs of another on the same engine), and one host
 * thread per device runs its own stress concurrently with the others:
 *
 * - A seeded PRNG builds a random DAG of jobs (STRESS_JOBS, default 200).
 *   Each job is one command buffer on a random queue that writes its own
 *   1 KiB slot in one of three buffers (device-local, host-visible
 *   readback memory, device-local host-visible memory where the driver
 *   has it): a header by vkCmdUpdateBuffer, then segments that are
 *   vkCmdFillBuffer / vkCmdUpdateBuffer values of its own or
 *   vkCmdCopyBuffer copies (byte offsets, several regions per call) of
 *   parts of the slots of the jobs it depends on. Every slot is written by
 *   its job only and everything starts as a poison value, so a job that
 *   runs before one of its inputs is complete (or not at all) leaves
 *   poison or a wrong value in its slot, which the host model (the same
 *   operations replayed in job order) catches. One job in 8 also fills
 *   its queue's 2 MiB ballast buffer (the last fill must stay), so queues
 *   back up behind long jobs.
 * - Each dependency is, at random: submission order on the same queue
 *   (plus the pipeline barrier every job starts with), a timeline
 *   semaphore wait (each queue has a timeline that every job signals with
 *   its position on the queue; the wait is sometimes for a later job of
 *   that queue), a binary semaphore (one per edge: signalled once, waited
 *   once), a fence the host waits for before it submits the dependent job,
 *   or a host vkWaitSemaphores on the timeline (host waits: all at once or
 *   "any" until done). Jobs are submitted in random order from a sliding
 *   window (STRESS_WINDOW, 1..8) as far as the rules allow (queue order,
 *   binary signal before its wait, a host wait only for submitted work),
 *   so timeline waits are often submitted before their signal
 *   (wait-before-signal); consecutive jobs of a queue are sometimes
 *   batched into one call; vkQueueSubmit2 is used for about half the
 *   calls when synchronization2 is available.
 * - At the end the host waits for every queue's timeline (bounded),
 *   vkDeviceWaitIdle, reads every buffer back and checks every slot and
 *   ballast word.
 *
 * The 1.3.239 validation layer's timeline tracking stalls and reports
 * UNASSIGNED-VkSemaphore-state-timeout ("most likely a validation bug";
 * the tracking was reworked upstream later, e.g. KhronosGroup/
 * Vulkan-ValidationLayers PR #8519) when a timeline wait is submitted
 * before its signal and the host then waits; so with the layer on, signals are
 * submitted first, and without it (VKH_NO_VALIDATION=1, sanitizer builds)
 * wait-before-signal is on. STRESS_WBS=0/1 overrides.
 *
 * Every wait of the test is bounded (vkDeviceWaitIdle has no timeout: it
 * comes only after bounded waits for all the work, and alarm() bounds the
 * process).
 *
 * Modes (argv[1]): "none" (default), "pagefault", "hang". The fault modes
 * need swgpu (skipped, exit 77, elsewhere): main() first looks at the
 * physical device through a throw-away instance, builds the DAGs, picks a
 * queue of device 1 and the job in the middle of that queue's stream, and
 * sets SWGPU_FAULT=<kind>:queue=<Q>:job=<N> before the real instance opens
 * the swgpu device. swgpu queue ids are device-wide, in creation order:
 * VkDevice k gets ids k*n .. k*n+n-1 for its n queues, created family by
 * family, queue index by queue index (icd/device.c); N counts the swgpu
 * jobs of that queue (one per VkSubmitInfo; queue 0 of each device also
 * ran the poison fill first). Then:
 * - device 1 must see VK_ERROR_DEVICE_LOST (from a submit or a wait) after
 *   the injected job was submitted and within 30 s; for a hang not before
 *   the hang timeout SWGPU_TIMEOUT_MS (ctest sets 500). The time from the
 *   injected submission to the loss is printed. Its timeline wait for the
 *   injected job and vkDeviceWaitIdle then return DEVICE_LOST;
 *   VK_EXT_device_fault names the injected queue, job and kind; recording
 *   a command buffer still gives only return codes the spec allows for
 *   those commands, and vkQueueSubmit refuses it with DEVICE_LOST; the
 *   slots of jobs the host saw complete before the loss are intact; it
 *   stops submitting and destroys everything, in bounded time;
 * - devices 0 and 2 never see DEVICE_LOST, report no fault, and all their
 *   data is correct.
 *
 * Validation: after the loss the layer never sees device 1's work
 * complete, so destroying its fences, semaphores and command buffers is
 * reported as "in use". Messages naming device 1's device, queues, pools,
 * timelines, buffers and memory are tolerated (vkh_tolerate_object), and
 * the in-use VUIDs of fences, semaphores, command buffers and pools are
 * expected from device 1's teardown on (too many objects to tolerate one
 * by one; the healthy devices tear down only after a successful
 * vkDeviceWaitIdle, so they cannot produce them, and mode "none"
 * tolerates nothing).
 *
 * Environment: STRESS_SEED (decimal or 0x-hex; default from time and pid,
 * always printed with the per-device seeds), STRESS_JOBS (jobs per
 * device), STRESS_WINDOW, STRESS_WBS.
 */
#include "test_vk_stress_dag.h"

const char *const mode_names[] = { "none", "pagefault", "hang" };
const char *const dep_names[] = { "order", "timeline", "binary",
	                                 "fence", "host-timeline" };
struct probe_info probe;
struct inject_target inj;
enum mode g_mode;
uint64_t g_seed;
uint32_t g_jobs;
uint32_t g_window = SUBMIT_WINDOW;
bool g_wbs = true;
struct sdev devs[NDEV];
pthread_barrier_t start_barrier;

/* ------------------------------------------------------------------ */
/* Failures (per device thread)                                        */
/* ------------------------------------------------------------------ */


void
dev_fail(struct sdev *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "  [dev %u] FAIL (seed %" PRIu64 ", mode %s): %s\n",
	        c->index, g_seed, mode_names[g_mode], msg);
	if (!c->failures++)
		snprintf(c->first_error, sizeof(c->first_error), "%s", msg);
}

uint64_t
handle(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

/* Compare slots with the model; only_done: just the host-visible slots
 * of jobs the host saw complete. Returns the slots checked. */
uint32_t
verify(struct sdev *c, uint8_t *const got[NBUF], bool only_done)
{
	uint32_t bad = 0, checked = 0;

	for (uint32_t j = 0; j < c->njobs; j++) {
		const struct job *J = &c->jobs[j];
		size_t off = (size_t)j * SLOT_BYTES;
		const uint32_t *e = (const uint32_t *)(c->model[J->buf] + off);
		const uint32_t *g;
		char desc[256];
		uint32_t w;

		if (!got[J->buf])
			continue;
		if (only_done && J->pos > c->qdone[J->q])
			continue;
		checked++;
		g = (const uint32_t *)(got[J->buf] + off);
		if (!memcmp(e, g, SLOT_BYTES))
			continue;
		for (w = 0; w < SLOT_WORDS && e[w] == g[w]; w++)
			;
		if (bad++ < 8) {
			const char *what = "header";

			for (uint32_t k = 0; k < J->nseg && w >= HDR_WORDS;
			     k++) {
				const struct seg *x = &J->segs[k];
				static const char *const kn[] = {
					"copy", "fill", "update" };
				if (w >= x->word0 && w < x->word0 + x->nwords)
					what = kn[x->kind];
			}
			describe_job(c, j, desc, sizeof(desc));
			dev_fail(c, "%s: word %u (%s) = 0x%08x, want 0x%08x%s",
			         desc, w, what, g[w], e[w],
			         g[w] == POISON ? " (poison: not written)" :
			                          "");
		}
	}
	if (bad)
		dev_fail(c, "%u of %u slots wrong", bad, c->njobs);
	return checked;
}

/* Read every buffer back and check it (healthy device). */
void
verify_all(struct sdev *c)
{
	uint8_t *got[NBUF] = { NULL };
	uint8_t *copy = NULL;
	VkDeviceSize size = (VkDeviceSize)c->njobs * SLOT_BYTES;

	for (int b = 0; b < NBUF; b++) {
		if (c->buf[b].map) {
			vkh_buffer_invalidate(c->h, &c->d, &c->buf[b]);
			got[b] = c->buf[b].map;
			continue;
		}
		/* One device-local buffer at most: through rb. */
		VkResult r = vkh_copy_sync(&c->d, 0, c->buf[b].buffer, 0,
		                           c->rb.buffer, 0, size);
		if (r != VK_SUCCESS) {
			dev_fail(c, "readback copy: %s", vkh_result_str(r));
			return;
		}
		vkh_buffer_invalidate(c->h, &c->d, &c->rb);
		copy = malloc(size);
		memcpy(copy, c->rb.map, size);
		got[b] = copy;
	}
	verify(c, got, false);
	free(copy);
	for (uint32_t q = 0; q < c->nq; q++) {
		const uint32_t *w = c->ballast[q].map;

		vkh_buffer_invalidate(c->h, &c->d, &c->ballast[q]);
		for (uint32_t i = 0; i < BALLAST_BYTES / 4; i++) {
			if (w[i] != c->ballast_want[q]) {
				dev_fail(c, "queue %u ballast word %u = 0x%08x, "
				         "want 0x%08x (its last ballast job's)",
				         q, i, w[i], c->ballast_want[q]);
				break;
			}
		}
	}
}

/* VK_EXT_device_fault: the injected queue and job, or no fault. */
void
check_fault_info(struct sdev *c, bool want_fault)
{
	PFN_vkGetDeviceFaultInfoEXT get = (PFN_vkGetDeviceFaultInfoEXT)
		vkGetDeviceProcAddr(c->d.device, "vkGetDeviceFaultInfoEXT");
	VkDeviceFaultCountsEXT counts = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT,
	};
	VkDeviceFaultAddressInfoEXT addr[4];
	VkDeviceFaultVendorInfoEXT vendor[2];
	VkDeviceFaultInfoEXT info = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT,
		.pAddressInfos = addr,
		.pVendorInfos = vendor,
	};
	char want[64];
	VkResult r;

	if (!c->fault_ext)
		return;
	if (!get) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT missing");
		return;
	}
	r = get(c->d.device, &counts, NULL);
	if (r != VK_SUCCESS) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT counts: %s",
		         vkh_result_str(r));
		return;
	}
	if (!want_fault) {
		if (counts.vendorInfoCount || counts.addressInfoCount)
			dev_fail(c, "healthy device reports a fault (%u "
			         "address, %u vendor infos)",
			         counts.addressInfoCount,
			         counts.vendorInfoCount);
		return;
	}
	if (counts.vendorInfoCount != 1 || counts.addressInfoCount > 4) {
		dev_fail(c, "fault counts: %u address, %u vendor infos",
		         counts.addressInfoCount, counts.vendorInfoCount);
		return;
	}
	memset(addr, 0, sizeof(addr));
	memset(vendor, 0, sizeof(vendor));
	r = get(c->d.device, &counts, &info);
	if (r != VK_SUCCESS) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT: %s", vkh_result_str(r));
		return;
	}
	printf("  [dev %u] fault info: \"%s\" (code %llu, data 0x%llx)\n",
	       c->index, info.description,
	       (unsigned long long)vendor[0].vendorFaultCode,
	       (unsigned long long)vendor[0].vendorFaultData);
	snprintf(want, sizeof(want), "queue %u job %llu:", inj.qid,
	         (unsigned long long)inj.swjob);
	if (!strstr(info.description, want))
		dev_fail(c, "fault description \"%s\" does not name \"%s\"",
		         info.description, want);
	if ((uint32_t)vendor[0].vendorFaultData != inj.qid)
		dev_fail(c, "fault on swgpu queue %u, injected into %u",
		         (uint32_t)vendor[0].vendorFaultData, inj.qid);
	if (vendor[0].vendorFaultCode != (g_mode == MODE_HANG ?
	                                  SWGPU_KIND_HANG :
	                                  SWGPU_KIND_INJECTED))
		dev_fail(c, "fault kind %llu for mode %s",
		         (unsigned long long)vendor[0].vendorFaultCode,
		         mode_names[g_mode]);
}

/* After the last submission: wait (bounded) for every queue's last
 * job, then vkDeviceWaitIdle. A loss is noted, not failed here. */
void
final_wait(struct sdev *c)
{
	VkSemaphore sems[VKH_MAX_QUEUES];
	uint64_t vals[VKH_MAX_QUEUES];
	uint32_t n = 0;
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.pSemaphores = sems,
		.pValues = vals,
	};
	VkResult r;

	for (uint32_t q = 0; q < c->nq; q++) {
		if (!c->qcount[q])
			continue;
		sems[n] = c->tl[q];
		vals[n++] = c->qcount[q];
	}
	wi.semaphoreCount = n;
	r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
	if (note_lost(c, r, "final vkWaitSemaphores", c->njobs))
		return;
	if (r != VK_SUCCESS) {
		dev_fail(c, "final timeline wait: %s", vkh_result_str(r));
		if (r == VK_TIMEOUT) {
			c->timed_out = true;
			dump_progress(c, "final wait timed out");
		}
		return;
	}
	c->t_end = vkh_now_ns();
	for (uint32_t q = 0; q < c->nq; q++) {
		uint64_t v = 0;

		r = vkGetSemaphoreCounterValue(c->d.device, c->tl[q], &v);
		if (r != VK_SUCCESS || v != c->qcount[q])
			dev_fail(c, "queue %u timeline %llu, want %u (%s)", q,
			         (unsigned long long)v, c->qcount[q],
			         vkh_result_str(r));
	}
	r = vkDeviceWaitIdle(c->d.device);
	if (!note_lost(c, r, "vkDeviceWaitIdle", c->njobs) && r != VK_SUCCESS)
		dev_fail(c, "vkDeviceWaitIdle: %s", vkh_result_str(r));
}

/* After a healthy run: all work done and right, no fault. */
void
finish_healthy(struct sdev *c)
{
	VkResult r;

	for (uint32_t j = 0; j < c->njobs; j++) {
		if (!c->jobs[j].fence)
			continue;
		r = vkGetFenceStatus(c->d.device, c->jobs[j].fence);
		if (r != VK_SUCCESS) {
			dev_fail(c, "job %u fence: %s", j, vkh_result_str(r));
			return;
		}
	}
	verify_all(c);
	check_fault_info(c, false);
}

/*
 * Recording on a lost device: vkAllocateCommandBuffers,
 * vkBeginCommandBuffer and vkEndCommandBuffer may fail only with
 * VK_ERROR_OUT_OF_HOST_MEMORY / VK_ERROR_OUT_OF_DEVICE_MEMORY (their
 * return codes in the spec; "certain commands" return DEVICE_LOST, these
 * are not among them). A recorded one is then refused by vkQueueSubmit
 * with DEVICE_LOST.
 */
void
record_after_loss(struct sdev *c)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->d.queues[inj.q].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;
	const char *what = "vkAllocateCommandBuffers";
	VkResult r;

	r = vkAllocateCommandBuffers(c->d.device, &ai, &cb);
	if (r == VK_SUCCESS) {
		what = "vkBeginCommandBuffer";
		r = vkBeginCommandBuffer(cb, &bi);
	}
	if (r == VK_SUCCESS) {
		vkCmdFillBuffer(cb, c->ballast[inj.q].buffer, 0, 4096, 0);
		what = "vkEndCommandBuffer";
		r = vkEndCommandBuffer(cb);
	}
	printf("  [dev %u] recording after the loss: %s -> %s\n", c->index,
	       what, vkh_result_str(r));
	if (r != VK_SUCCESS && r != VK_ERROR_OUT_OF_HOST_MEMORY &&
	    r != VK_ERROR_OUT_OF_DEVICE_MEMORY)
		dev_fail(c, "%s on the lost device returned %s, a code the "
		         "spec does not allow for it", what,
		         vkh_result_str(r));
	if (r == VK_SUCCESS) {
		si.pCommandBuffers = &cb;
		r = vkQueueSubmit(c->d.queues[inj.q].queue, 1, &si,
		                  VK_NULL_HANDLE);
		if (r != VK_ERROR_DEVICE_LOST)
			dev_fail(c, "vkQueueSubmit on the lost device: %s",
			         vkh_result_str(r));
	}
	/* The layer counts a submit that returned DEVICE_LOST as pending
	 * work: freeing the buffer is an error to it, not to the driver. */
	if (cb) {
		vkh_tolerate_object(handle(cb));
		vkFreeCommandBuffers(c->d.device, ai.commandPool, 1, &cb);
	}
}

/* After the loss of the injected device. */
void
finish_lost(struct sdev *c)
{
	uint64_t t0, dt, bound = LOST_BOUND_NS;
	const char *tmo = getenv("SWGPU_TIMEOUT_MS");
	uint64_t hang_ns = (tmo ? strtoull(tmo, NULL, 10) : 5000) * MS;
	uint8_t *got[NBUF] = { NULL };
	VkResult r;

	if (!c->t_inject) {
		dev_fail(c, "DEVICE_LOST from %s before the injected job was "
		         "submitted", c->lost_where);
		return;
	}
	dt = c->t_lost - c->t_inject;
	printf("  [dev %u] DEVICE_LOST %.1f ms after the injected job was "
	       "submitted, seen by %s\n", c->index, (double)dt / 1e6,
	       c->lost_where);
	if (dt > bound)
		dev_fail(c, "DEVICE_LOST after %.1f ms (bound %.0f ms)",
		         (double)dt / 1e6, (double)bound / 1e6);
	if (g_mode == MODE_HANG && dt < hang_ns * 8 / 10)
		dev_fail(c, "hang declared after %.1f ms, before the hang "
		         "timeout of %.0f ms", (double)dt / 1e6,
		         (double)hang_ns / 1e6);

	/* The injected job's own signal never comes. */
	{
		uint64_t v = inj.pos;
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &c->tl[inj.q],
			.pValues = &v,
		};

		t0 = vkh_now_ns();
		r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
		dt = vkh_now_ns() - t0;
		if (r != VK_ERROR_DEVICE_LOST)
			dev_fail(c, "wait for the injected job's timeline "
			         "value: %s after %.1f ms", vkh_result_str(r),
			         (double)dt / 1e6);
	}
	t0 = vkh_now_ns();
	r = vkDeviceWaitIdle(c->d.device);
	dt = vkh_now_ns() - t0;
	printf("  [dev %u] vkDeviceWaitIdle -> %s in %.1f ms\n", c->index,
	       vkh_result_str(r), (double)dt / 1e6);
	if (r != VK_ERROR_DEVICE_LOST)
		dev_fail(c, "vkDeviceWaitIdle on the lost device: %s",
		         vkh_result_str(r));
	if (dt > bound)
		dev_fail(c, "vkDeviceWaitIdle on the lost device took %.1f ms",
		         (double)dt / 1e6);
	check_fault_info(c, true);
	record_after_loss(c);

	/* Work the host saw complete before the loss is still there (the
	 * host-visible buffers; device-local ones cannot be copied out of
	 * a lost device). */
	for (int b = 0; b < NBUF; b++)
		got[b] = c->buf[b].map;
	printf("  [dev %u] %u slots of jobs seen complete before the loss "
	       "checked\n", c->index, verify(c, got, true));
}

/* Tolerate the validation layer's view of device 1's unfinished work. */
void
tolerate_lost(struct sdev *c)
{
	vkh_tolerate_object(handle(c->d.device));
	for (uint32_t q = 0; q < c->nq; q++) {
		vkh_tolerate_object(handle(c->d.queues[q].queue));
		vkh_tolerate_object((uint64_t)c->d.queues[q].pool);
		vkh_tolerate_object((uint64_t)c->tl[q]);
	}
	for (int b = 0; b < NBUF; b++) {
		vkh_tolerate_object((uint64_t)c->buf[b].buffer);
		vkh_tolerate_object((uint64_t)c->buf[b].memory);
	}
	for (uint32_t q = 0; q < c->nq; q++) {
		vkh_tolerate_object((uint64_t)c->ballast[q].buffer);
		vkh_tolerate_object((uint64_t)c->ballast[q].memory);
	}
	vkh_expect_message("VUID-vkDestroyFence-fence-01120");
	vkh_expect_message("VUID-vkDestroySemaphore-semaphore-01137");
	vkh_expect_message("VUID-vkFreeCommandBuffers-pCommandBuffers-00047");
	vkh_expect_message("VUID-vkDestroyCommandPool-commandPool-00041");
}

void
destroy_objects(struct sdev *c)
{
	VkDevice dev = c->d.device;

	if (!dev)
		return;
	for (uint32_t j = 0; c->jobs && j < c->njobs; j++) {
		struct job *J = &c->jobs[j];

		if (J->cb)
			vkFreeCommandBuffers(dev, c->d.queues[J->q].pool, 1,
			                     &J->cb);
		J->cb = VK_NULL_HANDLE;
		for (uint32_t k = 0; k < J->ndeps; k++)
			if (J->deps[k].bin)
				vkDestroySemaphore(dev, J->deps[k].bin, NULL);
		if (J->fence)
			vkDestroyFence(dev, J->fence, NULL);
	}
	for (uint32_t q = 0; q < c->nq; q++)
		if (c->tl[q])
			vkDestroySemaphore(dev, c->tl[q], NULL);
	for (int b = 0; b < NBUF; b++)
		vkh_buffer_destroy(&c->d, &c->buf[b]);
	vkh_buffer_destroy(&c->d, &c->rb);
	for (uint32_t q = 0; q < c->nq; q++)
		vkh_buffer_destroy(&c->d, &c->ballast[q]);
	vkh_device_destroy(c->h, &c->d);
}

void *
stress_thread(void *arg)
{
	struct sdev *c = arg;
	bool ok;

	ok = create_objects(c) && poison_buffers(c);
	pthread_barrier_wait(&start_barrier);
	if (!ok)
		goto out;
	c->t_start = vkh_now_ns();
	run_dag(c);
	if (!c->lost && !c->failures)
		final_wait(c);
	if (c->lost && c->inject)
		finish_lost(c);
	else if (c->lost)
		dev_fail(c, "VK_ERROR_DEVICE_LOST on a device without "
		         "injection, from %s", c->lost_where);
	else if (c->inject && !c->failures)
		dev_fail(c, "no VK_ERROR_DEVICE_LOST although swgpu queue %u "
		         "job %llu was injected with %s", inj.qid,
		         (unsigned long long)inj.swjob, mode_names[g_mode]);
	else if (!c->failures)
		finish_healthy(c);
	if (!c->t_end)
		c->t_end = vkh_now_ns();
out:
	if (c->timed_out) {
		/* Work may still be pending: leave the device alone (the
		 * test fails anyway). */
		fprintf(stderr, "  [dev %u] timed out: objects leaked\n",
		        c->index);
		return NULL;
	}
	{
		uint64_t t0 = vkh_now_ns(), dt;

		if (c->lost && c->inject)
			tolerate_lost(c);
		destroy_objects(c);
		dt = vkh_now_ns() - t0;
		if (c->lost && c->inject) {
			printf("  [dev %u] lost device destroyed in %.1f ms\n",
			       c->index, (double)dt / 1e6);
			if (dt > LOST_BOUND_NS)
				dev_fail(c, "destroying the lost device took "
				         "%.1f ms", (double)dt / 1e6);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The test                                                            */
/* ------------------------------------------------------------------ */

void
print_dev(const struct sdev *c)
{
	printf("  [dev %u] seed %" PRIu64 ": %u jobs on %u queues (", c->index,
	       c->seed, c->njobs, c->nq);
	for (uint32_t q = 0; q < c->nq; q++)
		printf("%s%u%s", q ? " " : "", c->qcount[q],
		       c->prio[q] < 0.5f ? " low-prio" : "");
	printf("), deps:");
	for (int k = 0; k < DEP_KINDS; k++)
		printf(" %s %u", dep_names[k], c->ndep[k]);
	printf(", %u long jobs\n", c->nballast);
}

void
test_stress(struct vkh *h, enum mode mode)
{
	pthread_t th[NDEV];
	bool fault_ext;
	uint32_t nq = 0;
	uint64_t t0;

	if (mode != MODE_NONE && !h->is_swgpu) {
		vkh_skip(h, "driver \"%s\" is not swgpu: fault injection is "
		         "swgpu's", h->driver.driverName);
		return;
	}
	VKH_CHECK_MSG(h, h->timeline_semaphore, "no timelineSemaphore");
	/* The real instance sees what the probe saw. */
	VKH_CHECK(h, h->family_count == probe.nfam);
	for (uint32_t f = 0; f < probe.nfam; f++)
		nq += probe.fam_queues[f];
	VKH_CHECK(h, nq == probe.nq && nq > 0);
	fault_ext = fault_ext_supported(h);
	/* The 1.3.239 layer's timeline tracking stalls (its own
	 * UNASSIGNED-VkSemaphore-state-timeout / VkFence-state-timeout,
	 * "most likely a validation bug", 10 s each) once a timeline wait
	 * is submitted before its signal and the host then waits: with the
	 * layer, signals go first; without it, waits often do. */
	g_wbs = env_u64("STRESS_WBS", !h->validation) != 0;
	printf("  %u devices x %u queues, %u jobs each, seed %" PRIu64
	       " (STRESS_SEED), mode %s, synchronization2 %s, "
	       "VK_EXT_device_fault %s, wait-before-signal %s\n", NDEV, nq,
	       g_jobs, g_seed, mode_names[mode],
	       h->synchronization2 ? "yes" : "no", fault_ext ? "yes" : "no",
	       g_wbs ? "on" : "off (validation layer)");
	if (mode != MODE_NONE)
		printf("  SWGPU_FAULT=%s: device %u queue %u, DAG job %u (its "
		       "position %u of %u on that queue)\n", inj.spec,
		       INJECT_DEV, inj.q, inj.job, inj.pos,
		       devs[INJECT_DEV].qcount[inj.q]);

	/* In order: swgpu queue ids follow device creation. */
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		c->h = h;
		c->fault_ext = fault_ext;
		VKH_CHECK_VK(h, create_device(h, fault_ext, c->prio, &c->d));
		for (uint32_t q = 0; q < nq; q++)
			c->qnext[q] = 1;
		print_dev(c);
	}
	VKH_CHECK(h, !pthread_barrier_init(&start_barrier, NULL, NDEV));
	t0 = vkh_now_ns();
	for (uint32_t i = 0; i < NDEV; i++)
		VKH_CHECK(h, !pthread_create(&th[i], NULL, stress_thread,
		                             &devs[i]));
	for (uint32_t i = 0; i < NDEV; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start_barrier);
	printf("  all devices done in %.1f ms\n",
	       (double)(vkh_now_ns() - t0) / 1e6);
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		printf("  [dev %u] %s: %u/%u jobs submitted in %u calls (%u "
		       "vkQueueSubmit2, %u batched), %u wait-before-signal, "
		       "%u host waits, %.1f ms\n", i,
		       c->failures ? "FAILED" :
		       c->lost ? "lost as injected" : "all data correct",
		       c->nsubmitted, c->njobs, c->calls, c->calls2,
		       c->batched, c->wbs, c->host_waits,
		       (double)(c->t_end - c->t_start) / 1e6);
	}
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];
		int failures = c->failures;
		char err[512];

		snprintf(err, sizeof(err), "%s", c->first_error);
		free_dag(c);
		VKH_CHECK_MSG(h, failures == 0,
		              "device %u: %d failure(s), first: %s (reproduce: "
		              "STRESS_SEED=%" PRIu64 " STRESS_JOBS=%u, mode %s)",
		              i, failures, err, g_seed, g_jobs,
		              mode_names[mode]);
	}
}

void
t_none(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_NONE);
}

void
t_pagefault(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_PAGEFAULT);
}

void
t_hang(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_HANG);
}

static const struct vkh_test tests[] = {
	{ "none", t_none, 0, 0 },
	{ "pagefault", t_pagefault, 0, 0 },
	{ "hang", t_hang, 0, 0 },
};

/* ------------------------------------------------------------------ */
/* main: probe, DAGs, fault spec, then the real instance               */
/* ------------------------------------------------------------------ */

/* The physical device through a bare instance (no layer), destroyed
 * before the fault knob is set: swgpu reads it when the next instance
 * opens the device. */
bool
do_probe(void)
{
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "test_vk_stress_dag probe",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &drv,
	};
	VkQueueFamilyProperties fam[16];
	VkPhysicalDevice phys[8];
	uint32_t n = 8, idx;
	const char *idx_env = getenv("VKH_DEVICE_INDEX");
	VkInstance inst;

	if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
		return false;
	idx = idx_env ? (uint32_t)atoi(idx_env) : 0;
	if (vkEnumeratePhysicalDevices(inst, &n, phys) < 0 || idx >= n) {
		vkDestroyInstance(inst, NULL);
		return false;
	}
	vkGetPhysicalDeviceProperties2(phys[idx], &p2);
	snprintf(probe.name, sizeof(probe.name), "%s",
	         p2.properties.deviceName);
	probe.swgpu = strstr(drv.driverName, "swgpu") ||
	              !strncmp(p2.properties.deviceName, "swgpu", 5);
	probe.nfam = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(phys[idx], &probe.nfam, fam);
	for (uint32_t f = 0; f < probe.nfam; f++) {
		uint32_t k = fam[f].queueCount;

		/* Transfer commands: TRANSFER, or implied by GRAPHICS or
		 * COMPUTE. */
		if (!(fam[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT |
		                           VK_QUEUE_COMPUTE_BIT |
		                           VK_QUEUE_TRANSFER_BIT)))
			k = 0;
		if (k > VKH_MAX_QUEUES - probe.nq)
			k = VKH_MAX_QUEUES - probe.nq;
		probe.fam_queues[f] = k;
		probe.nq += k;
	}
	vkDestroyInstance(inst, NULL);
	return probe.nq > 0;
}

/* Per-device seeds, DAGs and models, and the injection target: all
 * depend on the seed and the queue count only, so the same seed gives
 * the same DAGs in every mode. */
void
prepare(void)
{
	uint64_t s = g_seed;

	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		c->index = i;
		c->seed = splitmix64(&s);
		c->njobs = g_jobs;
		c->nq = probe.nq;
		/* swgpu: < 0.5 is LOW, else NORMAL; LOW jobs get preempted
		 * by NORMAL ones of other devices on the same engine. */
		for (uint32_t q = 0; q < c->nq; q++)
			c->prio[q] = rnd(&s, 3) ? 1.0f : 0.25f;
		gen_dag(c);
		gen_model(c);
	}
	if (g_mode != MODE_NONE) {
		struct sdev *c = &devs[INJECT_DEV];
		uint64_t r = g_seed ^ 0x1a2b3c4d5e6f7788ull;
		uint32_t q;

		c->inject = true;
		/* A queue with work, preferably more than one job. */
		do {
			q = rnd(&r, c->nq);
		} while (c->qcount[q] == 0);
		for (uint32_t k = 0; k < 4 * c->nq && c->qcount[q] < 2; k++) {
			uint32_t x = rnd(&r, c->nq);
			if (c->qcount[x] > c->qcount[q])
				q = x;
		}
		inj.q = q;
		inj.pos = (c->qcount[q] + 1) / 2;
		inj.job = c->qjobs[q][inj.pos - 1];
		inj.qid = INJECT_DEV * c->nq + q;
		/* queue 0 also ran the poison fill (poison_buffers). */
		inj.swjob = inj.pos + (q == 0 ? 1 : 0);
		snprintf(inj.spec, sizeof(inj.spec), "%s:queue=%u:job=%llu",
		         g_mode == MODE_HANG ? "hang" : "pagefault", inj.qid,
		         (unsigned long long)inj.swjob);
	}
}

uint64_t
env_u64(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : dflt;
}

int
main(int argc, char **argv)
{
	char *args[3] = { argv[0], "none", NULL };
	uint64_t jobs, window;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		args[1] = argv[1];
	for (g_mode = MODE_NONE; g_mode <= MODE_HANG; g_mode++)
		if (!strcmp(args[1], mode_names[g_mode]))
			break;
	if (g_mode > MODE_HANG || argc > 2) {
		fprintf(stderr, "usage: %s [none|pagefault|hang]\n", argv[0]);
		return 2;
	}
	/* A hard bound on the whole run, in case a call hangs. */
	alarm(170);
	g_seed = env_u64("STRESS_SEED",
	                 (uint64_t)time(NULL) * 1000003u ^
	                 (uint64_t)getpid());
	jobs = env_u64("STRESS_JOBS", DEFAULT_JOBS);
	window = env_u64("STRESS_WINDOW", SUBMIT_WINDOW);
	if (jobs < 1 || jobs > MAX_JOBS || window < 1 ||
	    window > SUBMIT_WINDOW) {
		fprintf(stderr, "STRESS_JOBS must be 1..%u, STRESS_WINDOW "
		        "1..%u\n", MAX_JOBS, SUBMIT_WINDOW);
		return 2;
	}
	g_jobs = (uint32_t)jobs;
	g_window = (uint32_t)window;
	printf("test_vk_stress_dag: STRESS_SEED=%" PRIu64 " STRESS_JOBS=%u "
	       "mode %s\n", g_seed, g_jobs, mode_names[g_mode]);
	if (!do_probe()) {
		fprintf(stderr, "test_vk_stress_dag: no usable physical "
		        "device\n");
		return 1;
	}
	printf("  device \"%s\": %u queues per VkDevice\n", probe.name,
	       probe.nq);

	prepare();
	if (g_mode == MODE_NONE) {
		unsetenv("SWGPU_FAULT");
	} else if (probe.swgpu) {
		setenv("SWGPU_FAULT", inj.spec, 1);
	}
	status = vkh_run_tests(2, args, "test_vk_stress_dag", tests,
	                       sizeof(tests) / sizeof(tests[0]));
	for (uint32_t i = 0; i < NDEV; i++)
		free_dag(&devs[i]); /* also after a skip or an early return */
	return status;
}


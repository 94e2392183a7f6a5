/* SPDX-License-Identifier: MIT */
/*
 * test_vk_stress_dag: the three devices and their objects, recording each
 * job's command buffer, and submitting the DAG (batches, semaphores,
 * fences, host waits) as Vulkan allows.
 */
#include "test_vk_stress_dag.h"

/* ------------------------------------------------------------------ */
/* Devices and objects                                                 */
/* ------------------------------------------------------------------ */

bool
fault_ext_supported(struct vkh *h)
{
	VkPhysicalDeviceFaultFeaturesEXT ff = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &ff,
	};
	VkExtensionProperties ext[256];
	uint32_t n = 256;
	bool found = false;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, ext) < 0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		found |= !strcmp(ext[i].extensionName,
		                 VK_EXT_DEVICE_FAULT_EXTENSION_NAME);
	if (!found)
		return false;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	return ff.deviceFault;
}

/* Every queue of every family in probe order (family by family, index by
 * index: the order in which swgpu assigns queue ids). */
VkResult
create_device(struct vkh *h, bool fault_ext, const float *prio,
              struct vkh_device *d)
{
	VkDeviceQueueCreateInfo qci[16];
	uint32_t nqci = 0, n = 0;
	VkPhysicalDeviceFaultFeaturesEXT ff = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
		.deviceFault = VK_TRUE,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = fault_ext ? &ff : NULL,
		.timelineSemaphore = VK_TRUE,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
		.synchronization2 = h->synchronization2,
	};
	const char *ext = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f13,
		.pQueueCreateInfos = qci,
		.enabledExtensionCount = fault_ext ? 1 : 0,
		.ppEnabledExtensionNames = &ext,
	};
	VkResult r;

	memset(d, 0, sizeof(*d));
	for (uint32_t f = 0; f < probe.nfam; f++) {
		if (!probe.fam_queues[f])
			continue;
		qci[nqci++] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = f,
			.queueCount = probe.fam_queues[f],
			.pQueuePriorities = prio + n,
		};
		for (uint32_t i = 0; i < probe.fam_queues[f]; i++) {
			d->queues[n].family = f;
			d->queues[n].index = i;
			n++;
		}
	}
	dci.queueCreateInfoCount = nqci;
	d->distinct_families = nqci;
	r = vkCreateDevice(h->phys, &dci, NULL, &d->device);
	if (r != VK_SUCCESS) {
		d->device = VK_NULL_HANDLE;
		return r;
	}
	d->queue_count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct vkh_queue *q = &d->queues[i];
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
			.queueFamilyIndex = q->family,
		};

		vkGetDeviceQueue(d->device, q->family, q->index, &q->queue);
		q->flags = h->families[q->family].queueFlags;
		r = vkCreateCommandPool(d->device, &pci, NULL, &q->pool);
		if (r != VK_SUCCESS) {
			vkh_device_destroy(h, d);
			return r;
		}
		d->distinct_queues++;
	}
	return VK_SUCCESS;
}

VkSemaphore
make_semaphore(struct sdev *c, bool timeline)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE :
		                            VK_SEMAPHORE_TYPE_BINARY,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	if (vkCreateSemaphore(c->d.device, &sci, NULL, &s) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return s;
}

bool
create_objects(struct sdev *c)
{
	struct vkh *h = c->h;
	VkDeviceSize size = (VkDeviceSize)c->njobs * SLOT_BYTES;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	int bar = vkh_find_memory_type(h, ~0u,
	                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
	                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                               0);
	VkResult r;

	r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_DEVICE_LOCAL, -1,
	                      &c->buf[0]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_READBACK,
		                      -1, &c->buf[1]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER,
		                      VKH_MEM_UPLOAD, bar, &c->buf[2]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_READBACK,
		                      -1, &c->rb);
	for (uint32_t q = 0; q < c->nq && r == VK_SUCCESS; q++)
		r = vkh_buffer_create(h, &c->d, BALLAST_BYTES, XFER,
		                      VKH_MEM_READBACK, -1, &c->ballast[q]);
	if (r != VK_SUCCESS) {
		dev_fail(c, "buffers: %s", vkh_result_str(r));
		return false;
	}
	for (uint32_t q = 0; q < c->nq; q++) {
		c->tl[q] = make_semaphore(c, true);
		if (!c->tl[q]) {
			dev_fail(c, "timeline semaphore");
			return false;
		}
	}
	for (uint32_t j = 0; j < c->njobs; j++) {
		struct job *J = &c->jobs[j];

		for (uint32_t k = 0; k < J->ndeps; k++) {
			struct dep *d = &J->deps[k];
			struct job *S = &c->jobs[d->src];

			if (d->kind != DEP_BINARY)
				continue;
			d->bin = make_semaphore(c, false);
			if (!d->bin) {
				dev_fail(c, "binary semaphore");
				return false;
			}
			S->bin_out[S->nbin_out++] = d->bin;
		}
		if (J->fence_src &&
		    vkCreateFence(c->d.device, &fci, NULL, &J->fence) !=
		    VK_SUCCESS) {
			dev_fail(c, "fence");
			return false;
		}
	}
	return true;
}

/* Poison every buffer: swgpu job 1 of queue 0 (prepare() counts it). */
bool
poison_buffers(struct sdev *c)
{
	VkCommandBuffer cb = vkh_cmd_begin(&c->d, 0);
	VkResult r;

	if (!cb) {
		dev_fail(c, "command buffer for the poison fill");
		return false;
	}
	for (int b = 0; b < NBUF; b++)
		vkCmdFillBuffer(cb, c->buf[b].buffer, 0, VK_WHOLE_SIZE,
		                POISON);
	for (uint32_t q = 0; q < c->nq; q++)
		vkCmdFillBuffer(cb, c->ballast[q].buffer, 0, VK_WHOLE_SIZE,
		                POISON);
	vkh_cmd_host_barrier(cb);
	r = vkh_cmd_submit_wait(&c->d, 0, cb);
	if (r != VK_SUCCESS) {
		dev_fail(c, "poison fill: %s", vkh_result_str(r));
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Recording and submission                                            */
/* ------------------------------------------------------------------ */

/* Record job j into J->cb; the failing call's name in *what. */
VkResult
record_job(struct sdev *c, uint64_t *s, uint32_t j, const char **what)
{
	struct job *J = &c->jobs[j];
	VkBuffer dst = c->buf[J->buf].buffer;
	VkDeviceSize base = (VkDeviceSize)j * SLOT_BYTES;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->d.queues[J->q].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkResult r;
	/* ops: 0 = header, 1 + k = segment k (copies grouped by source
	 * buffer at their first segment) */
	uint32_t ops[MAX_SEGS + 2], nops = 0;
	bool done_src[NBUF] = { false };
	uint32_t words[SLOT_WORDS];

	*what = "vkAllocateCommandBuffers";
	r = vkAllocateCommandBuffers(c->d.device, &ai, &cb);
	if (r != VK_SUCCESS)
		return r;
	J->cb = cb;
	*what = "vkBeginCommandBuffer";
	r = vkBeginCommandBuffer(cb, &bi);
	if (r != VK_SUCCESS)
		return r;
	/* Makes earlier jobs of this queue (submission order) visible. */
	vkh_cmd_transfer_barrier(cb);
	ops[nops++] = 0;
	for (uint32_t k = 0; k < J->nseg; k++)
		ops[nops++] = 1 + k;
	if (J->ballast)
		ops[nops++] = MAX_SEGS + 1;
	for (uint32_t i = nops; i > 1; i--) {
		uint32_t k = rnd(s, i), t = ops[i - 1];
		ops[i - 1] = ops[k];
		ops[k] = t;
	}
	for (uint32_t o = 0; o < nops; o++) {
		const struct seg *g;

		if (ops[o] == 0) {
			for (uint32_t i = 0; i < HDR_WORDS; i++)
				words[i] = update_word(c, j, i);
			vkCmdUpdateBuffer(cb, dst, base, HDR_WORDS * 4u,
			                  words);
			continue;
		}
		if (ops[o] == MAX_SEGS + 1) {
			vkCmdFillBuffer(cb, c->ballast[J->q].buffer, 0,
			                VK_WHOLE_SIZE, J->ballast_value);
			continue;
		}
		g = &J->segs[ops[o] - 1];
		switch (g->kind) {
		case SEG_FILL:
			vkCmdFillBuffer(cb, dst, base + g->word0 * 4u,
			                g->nwords * 4u, g->value);
			break;
		case SEG_UPDATE:
			for (uint32_t i = 0; i < g->nwords; i++)
				words[i] = update_word(c, j, g->word0 + i);
			vkCmdUpdateBuffer(cb, dst, base + g->word0 * 4u,
			                  g->nwords * 4u, words);
			break;
		case SEG_COPY: {
			uint32_t sb = c->jobs[g->src].buf;
			VkBufferCopy reg[MAX_SEGS];
			uint32_t nreg = 0;

			if (done_src[sb])
				break;
			done_src[sb] = true;
			for (uint32_t k = 0; k < J->nseg; k++) {
				const struct seg *x = &J->segs[k];

				if (x->kind != SEG_COPY ||
				    c->jobs[x->src].buf != sb)
					continue;
				reg[nreg++] = (VkBufferCopy){
					.srcOffset = (VkDeviceSize)x->src *
					             SLOT_BYTES + x->src_byte,
					.dstOffset = base + x->word0 * 4u,
					.size = x->nwords * 4u,
				};
			}
			vkCmdCopyBuffer(cb, c->buf[sb].buffer, dst, nreg, reg);
			break;
		}
		}
	}
	vkh_cmd_host_barrier(cb);
	*what = "vkEndCommandBuffer";
	return vkEndCommandBuffer(cb);
}

/* Lowest index not yet submitted. */
uint32_t
lowest_unsubmitted(const struct sdev *c)
{
	uint32_t lo = 0;

	while (lo < c->njobs && c->jobs[lo].submitted)
		lo++;
	return lo;
}

/*
 * May job j be submitted now? Its queue's order is job order; a binary
 * wait needs its signal submitted first (Vulkan rule); a host wait for a
 * job needs every job up to it submitted, so the awaited job can
 * complete. Timeline waits need nothing: wait-before-signal. The lowest
 * unsubmitted job is always ready, and no queue ever waits for work
 * behind itself (every wait names an earlier job), so nothing deadlocks.
 */
bool
ready(const struct sdev *c, uint32_t j, uint32_t lo, bool in_batch)
{
	const struct job *J = &c->jobs[j];

	if (J->submitted || c->qnext[J->q] != J->pos)
		return false;
	if (in_batch && J->host_dep)
		return false;
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];

		if (d->kind == DEP_BINARY && !c->jobs[d->src].submitted)
			return false;
		if (d->kind == DEP_TIMELINE && !g_wbs &&
		    !c->jobs[d->eff].submitted)
			return false;
		if ((d->kind == DEP_FENCE || d->kind == DEP_HOST_TL) &&
		    lo <= d->eff)
			return false;
	}
	return true;
}

/* Record a loss (first one wins); true if r is DEVICE_LOST. */
bool
note_lost(struct sdev *c, VkResult r, const char *what, uint32_t j)
{
	if (r != VK_ERROR_DEVICE_LOST)
		return false;
	if (!c->lost) {
		c->lost = true;
		c->t_lost = vkh_now_ns();
		snprintf(c->lost_where, sizeof(c->lost_where),
		         "%s (job %u)", what, j);
	}
	return true;
}

void
dump_progress(struct sdev *c, const char *why)
{
	fprintf(stderr, "  [dev %u] %s; seed %" PRIu64 "; timelines:", c->index,
	        why, g_seed);
	for (uint32_t q = 0; q < c->nq; q++) {
		uint64_t v = ~0ull;

		vkGetSemaphoreCounterValue(c->d.device, c->tl[q], &v);
		fprintf(stderr, " q%u %llu/%u (submitted %u)", q,
		        (unsigned long long)v, c->qcount[q], c->qnext[q] - 1);
	}
	fputc('\n', stderr);
}

/* The result of a host wait: true to go on. */
bool
host_wait_ok(struct sdev *c, VkResult r, const char *what, uint32_t j)
{
	if (r == VK_SUCCESS)
		return true;
	if (note_lost(c, r, what, j))
		return false;
	dev_fail(c, "job %u: %s: %s", j, what, vkh_result_str(r));
	if (r == VK_TIMEOUT) {
		c->timed_out = true;
		dump_progress(c, "host wait timed out");
	}
	return false;
}

/* Wait for fences: all at once, or "any" until none is left. */
bool
wait_fences(struct sdev *c, uint64_t *s, uint32_t j, VkFence *f, uint32_t n)
{
	VkResult r;

	if (n == 1 || rnd(s, 2)) {
		r = vkWaitForFences(c->d.device, n, f, VK_TRUE, WAIT_NS);
		if (!host_wait_ok(c, r, "vkWaitForFences(all)", j))
			return false;
		n = 0;
	}
	while (n) {
		uint32_t left = 0;

		r = vkWaitForFences(c->d.device, n, f, VK_FALSE, WAIT_NS);
		if (!host_wait_ok(c, r, "vkWaitForFences(any)", j))
			return false;
		for (uint32_t m = 0; m < n; m++) {
			r = vkGetFenceStatus(c->d.device, f[m]);
			if (r == VK_NOT_READY)
				f[left++] = f[m];
			else if (!host_wait_ok(c, r, "vkGetFenceStatus", j))
				return false;
		}
		if (left == n) {
			dev_fail(c, "job %u: vkWaitForFences(any) returned "
			         "with none of %u fences signalled", j, n);
			return false;
		}
		n = left;
	}
	return true;
}

/* Wait for timeline values: all at once, or "any" until none is left;
 * then every counter must have reached its value. */
bool
wait_timelines(struct sdev *c, uint64_t *s, uint32_t j, VkSemaphore *sem,
               uint64_t *val, uint32_t n)
{
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = n,
		.pSemaphores = sem,
		.pValues = val,
	};
	bool any = n > 1 && rnd(s, 2);
	VkResult r;

	wi.flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0;
	while (wi.semaphoreCount) {
		uint32_t left = 0;

		r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
		if (!host_wait_ok(c, r, any ? "vkWaitSemaphores(any)" :
		                             "vkWaitSemaphores(all)", j))
			return false;
		for (uint32_t m = 0; m < wi.semaphoreCount; m++) {
			uint64_t v = 0;

			r = vkGetSemaphoreCounterValue(c->d.device, sem[m], &v);
			if (!host_wait_ok(c, r, "vkGetSemaphoreCounterValue",
			                  j))
				return false;
			if (v < val[m]) {
				sem[left] = sem[m];
				val[left++] = val[m];
			}
		}
		if (left == wi.semaphoreCount || (left && !any)) {
			dev_fail(c, "job %u: vkWaitSemaphores(%s) returned "
			         "with %u of %u values not reached", j,
			         any ? "any" : "all", left, wi.semaphoreCount);
			return false;
		}
		wi.semaphoreCount = left;
	}
	return true;
}

/* Host-side dependencies of job j; false to stop. */
bool
host_waits(struct sdev *c, uint64_t *s, uint32_t j)
{
	struct job *J = &c->jobs[j];
	VkFence fences[MAX_DEPS];
	VkSemaphore sems[MAX_DEPS];
	uint64_t vals[MAX_DEPS];
	uint32_t nf = 0, ns = 0;

	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		bool merged = false;

		if (d->kind == DEP_FENCE) {
			for (uint32_t m = 0; m < nf; m++)
				merged |= fences[m] == c->jobs[d->src].fence;
			if (!merged)
				fences[nf++] = c->jobs[d->src].fence;
		} else if (d->kind == DEP_HOST_TL) {
			VkSemaphore sem = c->tl[c->jobs[d->eff].q];

			/* Same semaphore twice: the larger value. */
			for (uint32_t m = 0; m < ns; m++) {
				if (sems[m] == sem) {
					if (d->value > vals[m])
						vals[m] = d->value;
					merged = true;
				}
			}
			if (!merged) {
				sems[ns] = sem;
				vals[ns++] = d->value;
			}
		}
	}
	if (nf) {
		c->host_waits++;
		if (!wait_fences(c, s, j, fences, nf))
			return false;
	}
	if (ns) {
		c->host_waits++;
		if (!wait_timelines(c, s, j, sems, vals, ns))
			return false;
	}
	/* Completed for sure: what the waits covered. */
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		const struct job *E = &c->jobs[d->eff];

		if ((d->kind == DEP_FENCE || d->kind == DEP_HOST_TL) &&
		    c->qdone[E->q] < E->pos)
			c->qdone[E->q] = E->pos;
	}
	return true;
}

struct sub {
	VkSemaphore ws[MAX_DEPS];
	uint64_t wv[MAX_DEPS];
	VkPipelineStageFlags wst[MAX_DEPS];
	uint32_t nw;
	VkSemaphore ss[1 + MAX_BIN_OUT];
	uint64_t sv[1 + MAX_BIN_OUT];
	uint32_t ns;
	VkTimelineSemaphoreSubmitInfo tsi;
	VkSemaphoreSubmitInfo w2[MAX_DEPS], s2[1 + MAX_BIN_OUT];
	VkCommandBufferSubmitInfo cbi;
};

void
build_sub(struct sdev *c, uint32_t j, struct sub *b)
{
	const struct job *J = &c->jobs[j];

	b->nw = 0;
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		VkSemaphore sem;
		uint64_t v = 0;
		bool merged = false;

		if (d->kind == DEP_TIMELINE) {
			sem = c->tl[c->jobs[d->eff].q];
			v = d->value;
			/* Wait-before-signal: the signal comes later. */
			c->wbs += !c->jobs[d->eff].submitted;
		} else if (d->kind == DEP_BINARY) {
			sem = d->bin;
		} else {
			continue;
		}
		for (uint32_t m = 0; m < b->nw; m++) {
			if (b->ws[m] == sem) {
				if (v > b->wv[m])
					b->wv[m] = v;
				merged = true;
			}
		}
		if (merged)
			continue;
		b->ws[b->nw] = sem;
		b->wv[b->nw] = v;
		b->wst[b->nw] = VK_PIPELINE_STAGE_TRANSFER_BIT;
		b->nw++;
	}
	b->ns = 0;
	b->ss[b->ns] = c->tl[J->q];
	b->sv[b->ns++] = J->pos;
	for (uint32_t k = 0; k < J->nbin_out; k++) {
		b->ss[b->ns] = J->bin_out[k];
		b->sv[b->ns++] = 0;
	}
	b->tsi = (VkTimelineSemaphoreSubmitInfo){
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = b->nw,
		.pWaitSemaphoreValues = b->wv,
		.signalSemaphoreValueCount = b->ns,
		.pSignalSemaphoreValues = b->sv,
	};
	for (uint32_t m = 0; m < b->nw; m++)
		b->w2[m] = (VkSemaphoreSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			.semaphore = b->ws[m],
			.value = b->wv[m],
			.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		};
	for (uint32_t m = 0; m < b->ns; m++)
		b->s2[m] = (VkSemaphoreSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			.semaphore = b->ss[m],
			.value = b->sv[m],
			.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		};
	b->cbi = (VkCommandBufferSubmitInfo){
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		.commandBuffer = J->cb,
	};
}

/* Submit jobs batch[0..n) (consecutive jobs of one queue) in one call. */
VkResult
submit_batch(struct sdev *c, uint64_t *s, const uint32_t *batch, uint32_t n)
{
	struct sub sb[MAX_BATCH];
	VkSubmitInfo si[MAX_BATCH];
	VkSubmitInfo2 si2[MAX_BATCH];
	const struct job *last = &c->jobs[batch[n - 1]];
	VkQueue queue = c->d.queues[last->q].queue;
	bool use2 = c->h->synchronization2 && rnd(s, 2);

	for (uint32_t i = 0; i < n; i++) {
		const struct job *J = &c->jobs[batch[i]];

		build_sub(c, batch[i], &sb[i]);
		si[i] = (VkSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &sb[i].tsi,
			.waitSemaphoreCount = sb[i].nw,
			.pWaitSemaphores = sb[i].ws,
			.pWaitDstStageMask = sb[i].wst,
			.commandBufferCount = 1,
			.pCommandBuffers = &J->cb,
			.signalSemaphoreCount = sb[i].ns,
			.pSignalSemaphores = sb[i].ss,
		};
		si2[i] = (VkSubmitInfo2){
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			.waitSemaphoreInfoCount = sb[i].nw,
			.pWaitSemaphoreInfos = sb[i].w2,
			.commandBufferInfoCount = 1,
			.pCommandBufferInfos = &sb[i].cbi,
			.signalSemaphoreInfoCount = sb[i].ns,
			.pSignalSemaphoreInfos = sb[i].s2,
		};
	}
	c->calls++;
	c->calls2 += use2;
	c->batched += n > 1;
	return use2 ? vkQueueSubmit2(queue, n, si2, last->fence) :
	              vkQueueSubmit(queue, n, si, last->fence);
}

void
run_dag(struct sdev *c)
{
	uint64_t s = c->seed ^ 0x5b5b5b5bull;

	while (c->nsubmitted < c->njobs && !c->lost && !c->failures) {
		uint32_t lo = lowest_unsubmitted(c);
		uint32_t cand[SUBMIT_WINDOW], ncand = 0;
		uint32_t batch[MAX_BATCH], n = 0;
		uint32_t j;
		VkResult r;

		for (uint32_t k = lo; k < c->njobs && k < lo + g_window; k++)
			if (ready(c, k, lo, false))
				cand[ncand++] = k;
		if (!ncand) {
			dev_fail(c, "no job ready (test bug)");
			return;
		}
		j = cand[rnd(&s, ncand)];
		if (!host_waits(c, &s, j))
			return;
		batch[n++] = j;
		c->jobs[j].submitted = true;
		c->qnext[c->jobs[j].q]++;
		/* Batch the next jobs of the queue now and then; a fence
		 * rides on the last job of a call, so it ends a batch. */
		if (!c->jobs[j].fence_src && rnd(&s, 100) < 30) {
			uint32_t q = c->jobs[j].q;

			while (n < MAX_BATCH && c->qnext[q] <= c->qcount[q]) {
				uint32_t k = c->qjobs[q][c->qnext[q] - 1];

				if (k >= lo + 2 * g_window ||
				    !ready(c, k, lowest_unsubmitted(c), true))
					break;
				batch[n++] = k;
				c->jobs[k].submitted = true;
				c->qnext[q]++;
				if (c->jobs[k].fence_src)
					break;
			}
		}
		for (uint32_t i = 0; i < n; i++) {
			const char *what = "";

			r = record_job(c, &s, batch[i], &what);
			if (note_lost(c, r, what, batch[i])) {
				dev_fail(c, "%s (job %u) returned "
				         "VK_ERROR_DEVICE_LOST, a code the spec "
				         "does not allow for it", what,
				         batch[i]);
				return;
			}
			if (r != VK_SUCCESS) {
				dev_fail(c, "recording job %u: %s: %s",
				         batch[i], what, vkh_result_str(r));
				return;
			}
		}
		for (uint32_t i = 0; i < n; i++) {
			if (c->inject && batch[i] == inj.job) {
				c->t_inject = vkh_now_ns();
				printf("  [dev %u] submitting the injected job "
				       "(DAG job %u = swgpu queue %u job %llu)"
				       " after %u jobs\n", c->index, inj.job,
				       inj.qid, (unsigned long long)inj.swjob,
				       c->nsubmitted + i);
			}
		}
		r = submit_batch(c, &s, batch, n);
		c->nsubmitted += n;
		if (note_lost(c, r, "vkQueueSubmit", j))
			return;
		if (r != VK_SUCCESS) {
			dev_fail(c, "vkQueueSubmit(%u jobs from %u): %s", n, j,
			         vkh_result_str(r));
			return;
		}
	}
}


/* SPDX-License-Identifier: MIT */
/*
 * wsi_present.c — vkQueuePresentKHR and the presenter thread.
 *
 * A present is work of the presenting queue: one swgpu job with no
 * packets whose waits are the present's semaphores and whose signals are
 * each presented image's `ready` syncobj (and the VK_EXT_swapchain_
 * maintenance1 present fences). It runs after everything submitted
 * before it on that queue, like a submit, and the application's thread
 * never waits for it. When the job completes the image's contents are
 * final; a lost device fails the job, which fails the waits on `ready`
 * and the fences instead of hanging them.
 *
 * Each swapchain has one presenter thread, the "display engine": it takes
 * the queued presents in order, waits for their job (the image is
 * ready), waits for the vertical blank the present mode asks for, hands
 * the image to the window system (wsi_platform_ops.show, which copies
 * it), and frees the image for acquire. Pacing, with period = 1/60 s on
 * the CLOCK_MONOTONIC grid (the display's refresh is not asked for yet:
 * RandR or wl_output could tell it; Xvfb's and weston's headless outputs
 * have none that means anything):
 *
 *   IMMEDIATE      shown as soon as it is ready
 *   FIFO           one image per vblank, in order: the first vblank after
 *                  it is ready and after the previous image's vblank
 *   FIFO_RELAXED   as FIFO, but an image that missed its vblank (a whole
 *                  period passed since the last one was shown) is shown
 *                  at once
 *   MAILBOX        shown at the next vblank; a later present that is ready
 *                  before then replaces it (the replaced image is free
 *                  again at once, and counts as done for present waits)
 *
 * Every present is a slice on the swapchain's track in SWGPU_TRACE with
 * its image index, present job and mode, made of "wait gpu" (the job),
 * "wait vblank" (the display) and "show" (the window system's copy).
 */
#include <inttypes.h>
#include <stdio.h>

#include "sync.h"
#include "wsi.h"

#define WSI_REFRESH_PERIOD_NS 16666667u   /* 60 Hz */
/* Waits of the presenter wake this often to notice a stop request. */
#define WSI_STOP_POLL_NS (20u * 1000 * 1000)

static const char *
wsi_mode_name(VkPresentModeKHR mode)
{
	switch (mode) {
	case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
	case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
	case VK_PRESENT_MODE_FIFO_KHR: return "fifo";
	case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo_relaxed";
	default: return "?";
	}
}

static uint64_t
vblank_at_or_after(uint64_t t)
{
	return (t + WSI_REFRESH_PERIOD_NS - 1) / WSI_REFRESH_PERIOD_NS *
	       WSI_REFRESH_PERIOD_NS;
}

static uint64_t
vblank_at_or_before(uint64_t t)
{
	return t / WSI_REFRESH_PERIOD_NS * WSI_REFRESH_PERIOD_NS;
}

/* ------------------------------------------------------------------ */
/* The presenter thread                                                */
/* ------------------------------------------------------------------ */

/* Does the presenter give up on img's present: its swapchain is being
 * destroyed? Surface lock held. */
static bool
dropping(const struct wsi_image *img)
{
	return img->sc->destroying;
}

/* Wait for the present job of img: VK_SUCCESS (the image is final and
 * its `ready` reset for the next present), VK_ERROR_DEVICE_LOST, or
 * VK_NOT_READY when its swapchain is being destroyed first. */
static VkResult
wait_ready(struct icd_surface *s, struct wsi_image *img)
{
	const struct wsi_present *p = &img->present;

	for (;;) {
		swgpu_result r = swgpu_syncobj_wait(
			&img->ready, NULL, 1, 0,
			swgpu_now_ns() + WSI_STOP_POLL_NS, NULL);
		bool drop;

		if (r == SWGPU_OK) {
			swgpu_syncobj_reset(img->ready);
			return VK_SUCCESS;
		}
		if (r != SWGPU_TIMEOUT) {
			if (r != SWGPU_ERR_CONTEXT_LOST)
				icd_log("present: waiting for the present job "
				        "%u:%u:%" PRIu64 ": %s", p->ctx_id,
				        p->queue_id, p->job_seqno,
				        swgpu_result_str(r));
			return VK_ERROR_DEVICE_LOST;
		}
		pthread_mutex_lock(&s->lock);
		drop = dropping(img);
		pthread_mutex_unlock(&s->lock);
		if (drop)
			return VK_NOT_READY;
	}
}

/* Is the image of the oldest queued present final? */
static bool
head_ready(const struct icd_surface *s)
{
	uint64_t v = 0;

	return s->queue_head &&
	       swgpu_syncobj_query(s->queue_head->ready, &v) == SWGPU_OK && v;
}

static struct wsi_image *
pop_head(struct icd_surface *s)
{
	struct wsi_image *img = s->queue_head;

	s->queue_head = img->next;
	if (!s->queue_head)
		s->queue_tail = NULL;
	img->next = NULL;
	return img;
}

/* A present is over (shown, replaced or dropped): its image is free and
 * it counts for present waits. Surface lock held. */
static void
present_done(struct icd_surface *s, struct wsi_image *img)
{
	struct wsi_swapchain *sc = img->sc;

	img->state = WSI_IMAGE_FREE;
	if (img->present.present_id > sc->present_id_done)
		sc->present_id_done = img->present.present_id;
	pthread_cond_broadcast(&s->cond);
}

static void
trace_present(const struct wsi_image *img, uint64_t t0, uint64_t t_ready,
              uint64_t t_show, uint64_t t_end, VkResult r, uint32_t replaced)
{
	const struct wsi_swapchain *sc = img->sc;
	const struct wsi_present *p = &img->present;
	swgpu_device *swdev = sc->device->pdev->swdev;
	char args[320];

	if (!sc->trace_track)
		return;
	snprintf(args, sizeof(args),
	         "\"image\":%u,\"serial\":%" PRIu64 ",\"present_id\":%" PRIu64
	         ",\"mode\":\"%s\",\"job\":\"%u:%u:%" PRIu64 "\","
	         "\"queued_us\":%" PRIu64 ",\"replaced\":%u,\"result\":%d",
	         img->index, p->serial, p->present_id, wsi_mode_name(p->mode),
	         p->ctx_id, p->queue_id, p->job_seqno, p->queued_ns / 1000u,
	         replaced, (int)r);
	swgpu_trace_slice(swdev, sc->trace_track, "present", "wait gpu", t0,
	                  t_ready, NULL);
	swgpu_trace_slice(swdev, sc->trace_track, "present", "wait vblank",
	                  t_ready, t_show, NULL);
	swgpu_trace_slice(swdev, sc->trace_track, "present", "show", t_show,
	                  t_end, NULL);
	swgpu_trace_slice(swdev, sc->trace_track, "present", "present", t0,
	                  t_end, args);
}

/* A MAILBOX present that a later one replaced before its vblank. */
static void
trace_replaced(const struct wsi_image *img)
{
	const struct wsi_swapchain *sc = img->sc;
	const struct wsi_present *p = &img->present;
	char args[160];

	if (!sc->trace_track)
		return;
	snprintf(args, sizeof(args),
	         "\"image\":%u,\"serial\":%" PRIu64 ",\"job\":\"%u:%u:%"
	         PRIu64 "\"", img->index, p->serial, p->ctx_id, p->queue_id,
	         p->job_seqno);
	swgpu_trace_instant(sc->device->pdev->swdev, sc->trace_track,
	                    "present", "replaced", swgpu_now_ns(), args);
}

/*
 * Sleep until the vblank `target` unless img's swapchain is going away.
 * For MAILBOX, a later present of the same swapchain that became ready
 * meanwhile replaces *img (the old one is done, unshown). Surface lock
 * held. Returns the presents replaced.
 */
static uint32_t
wait_vblank(struct icd_surface *s, struct wsi_image **img, uint64_t target)
{
	uint32_t replaced = 0;

	while (!dropping(*img) && swgpu_now_ns() < target) {
		struct wsi_image *next = s->queue_head;

		if ((*img)->present.mode == VK_PRESENT_MODE_MAILBOX_KHR &&
		    next && next->sc == (*img)->sc &&
		    next->present.mode == VK_PRESENT_MODE_MAILBOX_KHR &&
		    head_ready(s)) {
			trace_replaced(*img);
			present_done(s, *img);
			*img = pop_head(s);
			s->showing = *img;
			swgpu_syncobj_reset((*img)->ready);
			replaced++;
			continue;
		}
		(void)wsi_cond_wait_until(s, target);
	}
	return replaced;
}

/* The vblank the present waits for; now when it is shown at once. */
static uint64_t
present_target(const struct icd_surface *s, const struct wsi_present *p,
               uint64_t t_ready)
{
	uint64_t next = vblank_at_or_after(t_ready);
	uint64_t after_last = s->last_vblank_ns + WSI_REFRESH_PERIOD_NS;

	switch (p->mode) {
	case VK_PRESENT_MODE_IMMEDIATE_KHR:
		return t_ready;
	case VK_PRESENT_MODE_FIFO_RELAXED_KHR:
		if (t_ready >= after_last)
			return t_ready;  /* late: tear rather than wait */
		return next > after_last ? next : after_last;
	case VK_PRESENT_MODE_MAILBOX_KHR:
		return next;
	default:  /* FIFO */
		return next > after_last ? next : after_last;
	}
}

static void
present_one(struct icd_surface *s, struct wsi_image *img)
{
	uint64_t t0 = swgpu_now_ns(), t_ready, t_show, t_end, target;
	uint32_t replaced = 0;
	VkResult r = wait_ready(s, img);

	t_ready = swgpu_now_ns();
	pthread_mutex_lock(&s->lock);
	if (r == VK_SUCCESS) {
		target = present_target(s, &img->present, t_ready);
		replaced = wait_vblank(s, &img, target);
		s->last_vblank_ns = target > t_ready
		                    ? target
		                    : vblank_at_or_before(swgpu_now_ns());
	} else if (r == VK_ERROR_DEVICE_LOST) {
		wsi_swapchain_set_status(img->sc, r);
	}
	pthread_mutex_unlock(&s->lock);

	t_show = swgpu_now_ns();
	if (r == VK_SUCCESS) {
		struct wsi_swapchain *sc = img->sc;
		const struct wsi_frame f = {
			.pixels = img->pixels,
			.row_pitch = img->row_pitch,
			.extent = sc->extent,
			.image_index = img->index,
			.shared = img->shared,
			.rect_count = img->present.rect_count,
			.rects = img->present.rects,
		};

		r = s->ops->show(sc, &f);
	}
	t_end = swgpu_now_ns();

	pthread_mutex_lock(&s->lock);
	/* VK_NOT_READY: dropped unshown, the swapchain is going away. */
	if (r < 0)
		wsi_swapchain_set_status(img->sc, r);
	trace_present(img, t0, t_ready, t_show, t_end, r, replaced);
	present_done(s, img);
	pthread_mutex_unlock(&s->lock);
}

static void *
presenter_main(void *arg)
{
	struct icd_surface *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->queue_head && !s->stop)
			(void)wsi_cond_wait_until(s, UINT64_MAX);
		if (!s->queue_head)
			break;  /* stopping, nothing left */
		s->showing = pop_head(s);
		pthread_mutex_unlock(&s->lock);
		present_one(s, s->showing);
		pthread_mutex_lock(&s->lock);
		s->showing = NULL;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

VkResult
wsi_presenter_join(struct wsi_swapchain *sc)
{
	struct icd_surface *s = sc->surface;
	char name[128];
	VkResult r = VK_SUCCESS;

	snprintf(name, sizeof(name), "present: swapchain %p (%s, %ux%u)",
	         (void *)sc, s->ops->name, sc->extent.width,
	         sc->extent.height);
	sc->trace_track = swgpu_trace_track(sc->device->pdev->swdev, name);
	pthread_mutex_lock(&s->lock);
	/* The last swapchain of another thread may be stopping it. */
	while (s->stop && s->thread_started)
		(void)wsi_cond_wait_until(s, UINT64_MAX);
	if (!s->thread_started) {
		int e = pthread_create(&s->thread, NULL, presenter_main, s);

		if (e) {
			icd_log("vkCreateSwapchainKHR: presenter thread: %s",
			        strerror(e));
			r = VK_ERROR_OUT_OF_HOST_MEMORY;
		}
		s->thread_started = !e;
		s->stop = false;
	}
	if (r == VK_SUCCESS)
		s->swapchain_count++;
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* Presents of sc already queued are shown if their image is final (the
 * application waited for its work before destroying the swapchain, as it
 * must), without pacing; the others are dropped. */
void
wsi_presenter_leave(struct wsi_swapchain *sc)
{
	struct icd_surface *s = sc->surface;
	bool last, pending;

	pthread_mutex_lock(&s->lock);
	sc->destroying = true;
	pthread_cond_broadcast(&s->cond);
	do {
		pending = s->showing && s->showing->sc == sc;
		for (struct wsi_image *i = s->queue_head; i; i = i->next)
			pending |= i->sc == sc;
		if (pending)
			(void)wsi_cond_wait_until(s, UINT64_MAX);
	} while (pending);
	last = --s->swapchain_count == 0;
	if (last)
		s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (last) {
		pthread_join(s->thread, NULL);
		pthread_mutex_lock(&s->lock);
		s->thread_started = false;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
}

/* ------------------------------------------------------------------ */
/* vkQueuePresentKHR                                                   */
/* ------------------------------------------------------------------ */

#define WSI_MAX_PRESENT_SWAPCHAINS 16

/* The damage of swapchain i, clipped to its images (a rectangle count
 * above WSI_MAX_RECTS, or none given: the whole image). */
static void
present_rects(struct wsi_present *p, const struct wsi_swapchain *sc,
              const VkPresentRegionsKHR *regions, uint32_t i)
{
	const VkPresentRegionKHR *rg;

	p->rect_count = 0;
	if (!regions || !regions->pRegions || i >= regions->swapchainCount)
		return;
	rg = &regions->pRegions[i];
	if (!rg->pRectangles || !rg->rectangleCount ||
	    rg->rectangleCount > WSI_MAX_RECTS)
		return;
	for (uint32_t k = 0; k < rg->rectangleCount; k++) {
		const VkRectLayerKHR *rl = &rg->pRectangles[k];
		int64_t x0 = rl->offset.x, y0 = rl->offset.y;
		int64_t x1 = x0 + rl->extent.width, y1 = y0 + rl->extent.height;

		x0 = x0 < 0 ? 0 : x0;
		y0 = y0 < 0 ? 0 : y0;
		x1 = x1 > sc->extent.width ? sc->extent.width : x1;
		y1 = y1 > sc->extent.height ? sc->extent.height : y1;
		if (x1 <= x0 || y1 <= y0)
			continue;
		p->rects[p->rect_count++] = (VkRect2D){
			{ (int32_t)x0, (int32_t)y0 },
			{ (uint32_t)(x1 - x0), (uint32_t)(y1 - y0) } };
	}
	if (!p->rect_count) {
		/* Nothing changed: still a present, of an empty damage. */
		p->rects[0] = (VkRect2D){ { 0, 0 }, { 0, 0 } };
		p->rect_count = 1;
	}
}

static int
present_rank(VkResult r)
{
	switch (r) {
	case VK_SUCCESS: return 0;
	case VK_SUBOPTIMAL_KHR: return 1;
	case VK_ERROR_OUT_OF_DATE_KHR: return 2;
	case VK_ERROR_SURFACE_LOST_KHR: return 3;
	default: return 4;
	}
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo)
{
	const VkPresentInfoKHR *pi = pPresentInfo;
	struct icd_queue *q = icd_queue_from_handle(queue);
	const VkSwapchainPresentFenceInfoEXT *fences = icd_find_struct(
		pi->pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT);
	const VkSwapchainPresentModeInfoEXT *modes = icd_find_struct(
		pi->pNext, VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT);
	const VkPresentIdKHR *ids = icd_find_struct(
		pi->pNext, VK_STRUCTURE_TYPE_PRESENT_ID_KHR);
	const VkPresentRegionsKHR *regions = icd_find_struct(
		pi->pNext, VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR);
	swgpu_sync_point waits[WSI_MAX_PRESENT_SWAPCHAINS];
	swgpu_sync_point signals[2 * WSI_MAX_PRESENT_SWAPCHAINS];
	swgpu_submit_info info = { 0 };
	uint32_t nsig = 0;
	uint64_t seqno = 0;
	VkResult res = icd_device_check_lost(q->device), worst = VK_SUCCESS;
	swgpu_result sr;

	if (res != VK_SUCCESS)
		return res;
	if (pi->swapchainCount > WSI_MAX_PRESENT_SWAPCHAINS ||
	    pi->waitSemaphoreCount > WSI_MAX_PRESENT_SWAPCHAINS) {
		icd_log("vkQueuePresentKHR: at most %u swapchains and wait "
		        "semaphores per present", WSI_MAX_PRESENT_SWAPCHAINS);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	/* Everything is checked before anything is queued: a refused
	 * present consumes no semaphore. */
	for (uint32_t i = 0; i < pi->swapchainCount; i++) {
		struct wsi_swapchain *sc =
			wsi_swapchain_from_handle(pi->pSwapchains[i]);
		uint32_t k = pi->pImageIndices[i];
		bool acquired;

		pthread_mutex_lock(&sc->surface->lock);
		acquired = k < sc->image_count &&
		           sc->images[k].state == WSI_IMAGE_ACQUIRED;
		pthread_mutex_unlock(&sc->surface->lock);
		if (!acquired) {
			icd_log("vkQueuePresentKHR: image %u of swapchain %u "
			        "is not acquired", k, i);
			return VK_ERROR_UNKNOWN;
		}
		signals[nsig++] = (swgpu_sync_point){
			.obj = sc->images[k].ready };
		if (fences && i < fences->swapchainCount &&
		    fences->pFences[i] != VK_NULL_HANDLE)
			signals[nsig++] = (swgpu_sync_point){
				.obj = icd_fence_obj(icd_fence_from_handle(
					fences->pFences[i])) };
	}
	for (uint32_t i = 0; i < pi->waitSemaphoreCount; i++)
		waits[i] = (swgpu_sync_point){
			.obj = icd_semaphore_obj(icd_semaphore_from_handle(
				pi->pWaitSemaphores[i])) };
	info.waits = waits;
	info.wait_count = pi->waitSemaphoreCount;
	info.signals = signals;
	info.signal_count = nsig;
	sr = swgpu_submit(q->swq, &info, &seqno);
	if (sr == SWGPU_ERR_CONTEXT_LOST)
		return VK_ERROR_DEVICE_LOST;
	if (sr != SWGPU_OK)
		return icd_error(icd_result_from_swgpu(sr),
		                 "vkQueuePresentKHR: swgpu_submit: %s",
		                 swgpu_result_str(sr));
	for (uint32_t i = 0; i < pi->waitSemaphoreCount; i++)
		icd_semaphore_wait_done(icd_semaphore_from_handle(
			pi->pWaitSemaphores[i]));

	for (uint32_t i = 0; i < pi->swapchainCount; i++) {
		struct wsi_swapchain *sc =
			wsi_swapchain_from_handle(pi->pSwapchains[i]);
		struct icd_surface *s = sc->surface;
		struct wsi_image *img = &sc->images[pi->pImageIndices[i]];
		struct wsi_present *p = &img->present;
		VkResult r;

		pthread_mutex_lock(&s->lock);
		memset(p, 0, sizeof(*p));
		p->serial = ++sc->serial;
		p->present_id = ids && ids->pPresentIds &&
		                i < ids->swapchainCount ? ids->pPresentIds[i]
		                                        : 0;
		if (modes && i < modes->swapchainCount)
			sc->mode = modes->pPresentModes[i];
		p->mode = sc->mode;
		p->queued_ns = swgpu_now_ns();
		p->ctx_id = swgpu_context_id(q->device->ctx);
		p->queue_id = swgpu_queue_id(q->swq);
		p->job_seqno = seqno;
		present_rects(p, sc, regions, i);
		img->state = WSI_IMAGE_QUEUED;
		img->next = NULL;
		if (s->queue_tail)
			s->queue_tail->next = img;
		else
			s->queue_head = img;
		s->queue_tail = img;
		pthread_cond_broadcast(&s->cond);
		r = sc->status;
		pthread_mutex_unlock(&s->lock);
		if (pi->pResults)
			pi->pResults[i] = r;
		if (present_rank(r) > present_rank(worst))
			worst = r;
	}
	return worst;
}

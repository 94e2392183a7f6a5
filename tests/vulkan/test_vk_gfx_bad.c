/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_bad: bad graphics input through the loader with the
 * validation layer on. The layer reports the application's error (the
 * expected VUID); the driver must then refuse cleanly or behave as the
 * spec's robustness rules say — never crash or hang:
 *
 *   draw_no_pipeline    vkCmdDraw without a graphics pipeline: the layer's
 *                       error, then vkEndCommandBuffer fails on swgpu
 *                       (other drivers may crash on it: swgpu only)
 *   draw_outside_pass   vkCmdDraw outside a render pass instance: the
 *                       same
 *   robust_vertex       robustBufferAccess: a draw whose vertices and
 *                       indices run past their buffers completes, the
 *                       in-range triangle is drawn, the device is not
 *                       lost (both drivers)
 */
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

static void
record_bad(struct vkh *h, struct vkh_device *d, bool in_pass)
{
	struct gfx_ctx c = {
		.h = h, .d = d, .dev = d->device, .queue = d->queues[0].queue,
		.pool = d->queues[0].pool, .driver = h->driver.driverName,
	};
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	VkCommandBuffer cb;

	if (!h->is_swgpu) {
		vkh_skip(h, "an invalid draw may crash %s", h->driver.driverName);
		return;
	}
	if (!px_target(&c, &t) || !px_pipe_init(&c, &p))
		return;
	if (!in_pass)
		pipe = gfx_pipeline(&c, &p);
	cb = gfx_begin(&c);
	if (in_pass) {
		vkh_expect_message("vkCmdDraw");
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRendering(cb);
	} else {
		vkh_expect_message("vkCmdDraw");
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdDraw(cb, 3, 1, 0, 0);
	}
	/* The driver refuses the command buffer. */
	VKH_CHECK(h, vkEndCommandBuffer(cb) != VK_SUCCESS);
	/* The layer's own error (when it runs: sanitizer builds turn it
	 * off). */
	VKH_CHECK(h, !h->validation || vkh_expected_errors > 0);
	vkFreeCommandBuffers(c.dev, c.pool, 1, &cb);
	vkh_expect_clear();
	/* The device still works. */
	cb = gfx_begin(&c);
	VKH_CHECK(h, gfx_submit(&c, cb));
	vkDestroyPipeline(c.dev, pipe, NULL);
	px_pipe_finish(&c, &p);
	gfx_image_destroy(&c, &t);
	gfx_forget_layout(c.dev);
}

static void
test_draw_no_pipeline(struct vkh *h, struct vkh_device *d)
{
	record_bad(h, d, true);
}

static void
test_draw_outside_pass(struct vkh *h, struct vkh_device *d)
{
	record_bad(h, d, false);
}

/* Three vertices in the buffer, six drawn (and an index buffer whose
 * last indices are past the vertices, drawn past its own end). */
static bool
robust_vertex_render(struct gfx_ctx *c, struct gfx_out *o)
{
	const float red[4] = { 1, 0, 0, 1 };
	struct vtx v[6];
	const uint32_t idx[6] = { 0, 1, 2, 1000, 2000, 3000 };
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe;
	struct vkh_buffer vb = { 0 }, ib = { 0 };
	bool ok = false;

	quad(v, 4, 4, 60, 60, 0, red);
	if (!c->h->features.robustBufferAccess) {
		vkh_skip(c->h, "no robustBufferAccess");
		return false;
	}
	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	pipe = gfx_pipeline(c, &p);
	/* The buffer holds the first triangle only. */
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       3 * sizeof(struct vtx), &vb) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	               &ib)) {
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, 6, 1, 0, 0);
		vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
		vkCmdDrawIndexed(cb, 6, 1, 0, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	}
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	if (ib.buffer)
		vkh_buffer_destroy(c->d, &ib);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
robust_vertex_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	/* The first triangle (4,4) (60,4) (4,60): its inside is red; what
	 * the out-of-range vertices do is up to the implementation
	 * (values from the buffer or zeros), so nothing else is checked. */
	for (uint32_t y = 6; y < 50; y++)
		for (uint32_t x = 6; x < 56 - y; x++)
			if (!gfx_rgba_is(o, x, y, 255, 0, 0, 255)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u,%u) not drawn", c->driver, x,
				         y);
				return;
			}
}

static void
test_robust_vertex(struct vkh *h, struct vkh_device *unused)
{
	struct vkh_device d;
	const struct gfx_scene s = {
		.name = "robust_vertex", .render = robust_vertex_render,
		.check = robust_vertex_check,
	};

	/* Not compared with another driver: out-of-range reads may
	 * differ. */
	vkh_robust_buffer_access = true;
	VKH_CHECK_VK(h, vkh_device_create(h, VK_QUEUE_GRAPHICS_BIT, 1, NULL,
	                                  &d));
	struct gfx_ctx c = {
		.h = h, .d = &d, .dev = d.device, .queue = d.queues[0].queue,
		.pool = d.queues[0].pool, .driver = h->driver.driverName,
	};
	struct gfx_out o = { 0 };

	if (s.render(&c, &o) && !h->skipped)
		s.check(&c, &o);
	free(o.color);
	gfx_forget_layout(d.device);
	vkh_device_destroy(h, &d);
	vkh_robust_buffer_access = false;
}

static const struct vkh_test tests[] = {
	{ "draw_no_pipeline", test_draw_no_pipeline, 1, VK_QUEUE_GRAPHICS_BIT },
	{ "draw_outside_pass", test_draw_outside_pass, 1,
	  VK_QUEUE_GRAPHICS_BIT },
	{ "robust_vertex", test_robust_vertex, 0, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_bad", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

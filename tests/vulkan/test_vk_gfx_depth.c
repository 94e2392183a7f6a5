/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_depth: depth and stencil through the loader with validation
 * on; checked by hand and against a second driver (vkh_gfx.h):
 *
 *   depth_ops      every compare op against a stored 0.5, a fragment
 *                  depth ramp 0..1 across x, on D16, X8_D24, D32F and
 *                  D24S8 (colour and the depth values)
 *   depth_write    depthWriteEnable off keeps the stored depth
 *   stencil_ops    every stencil op on pass / fail / depth fail, front
 *                  and back faces with their own references and masks
 *   stencil_masks  compare and write masks
 *   depth_clamp    a triangle beyond the far plane: clipped, or clamped
 *                  with depthClamp
 *   depth_bounds   the bounds test against the stored depth
 *   depth_bias     constant and slope bias on D24 (within one unit)
 *   depth_view_stencil  a render pass whose D24S8 attachment's view
 *                  selects the depth aspect only: the stencil is still
 *                  cleared and stored (the aspect mask of a
 *                  depth/stencil attachment's view is ignored)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

/* Pipeline px with a depth/stencil format and state ds. */
static VkPipeline
ds_pipeline(struct gfx_ctx *c, struct gfx_pipe *p, VkFormat ds_format)
{
	const bool stencil = ds_format == VK_FORMAT_D24_UNORM_S8_UINT ||
	                     ds_format == VK_FORMAT_D32_SFLOAT_S8_UINT ||
	                     ds_format == VK_FORMAT_D16_UNORM_S8_UINT ||
	                     ds_format == VK_FORMAT_S8_UINT;
	const bool depth = ds_format != VK_FORMAT_S8_UINT;

	p->depth_format = depth ? ds_format : VK_FORMAT_UNDEFINED;
	p->stencil_format = stencil ? ds_format : VK_FORMAT_UNDEFINED;
	return gfx_pipeline(c, p);
}

/* Record: bind pipe and its vertices (n), draw. */
static void
draw(struct gfx_ctx *c, VkCommandBuffer cb, VkPipeline pipe,
     const struct vkh_buffer *vb, uint32_t first, uint32_t n)
{
	VkDeviceSize off = 0;

	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	px_push(c, cb, 0, 0);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb->buffer, &off);
	vkCmdDraw(cb, n, 1, first, 0);
}

/* A quad [x0, x1) x [y0, y1) whose depth goes z0 -> z1 across x. */
static void
ramp(struct vtx *v, float x0, float y0, float x1, float y1, float z0,
     float z1, const float rgba[4])
{
	quad(v, x0, y0, x1, y1, 0, rgba);
	for (int i = 0; i < 6; i++)
		v[i].z = v[i].x == x0 ? z0 : z1;
}

/* ------------------------------------------------------------------ */
/* depth_ops                                                           */
/* ------------------------------------------------------------------ */

/* Band k (8 rows) tests compare op k: a 0.5 quad (ALWAYS, written),
 * then the ramp with op k in colour k. */
static bool
depth_ops_format(struct gfx_ctx *c, VkFormat format, struct gfx_out *o)
{
	static struct vtx v[8 * 12];
	const float white[4] = { 1, 1, 1, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline ref = VK_NULL_HANDLE, op[8] = { 0 };
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = false;

	for (uint32_t k = 0; k < 8; k++) {
		const float col[4] = { (k & 1) ? 1.0f : 0.0f,
		                       (k & 2) ? 1.0f : 0.0f,
		                       (k & 4) ? 1.0f : 0.0f, 1 };

		quad(v + 12 * k, 0, 8.0f * k, SW, 8.0f * k + 8, 0.5f, white);
		/* Pixel centres at depth (x + 0.5) / 64: none is 0.5. */
		ramp(v + 12 * k + 6, 0, 8.0f * k, SW, 8.0f * k + 8, 0, 1, col);
	}
	if (!px_target(c, &t) ||
	    !gfx_image(c, format, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
	ref = ds_pipeline(c, &p, format);
	p.ds.depthWriteEnable = VK_FALSE;
	for (uint32_t k = 0; k < 8 && ref; k++) {
		p.ds.depthCompareOp = (VkCompareOp)k;
		op[k] = ds_pipeline(c, &p, format);
		if (!op[k])
			goto out;
	}
	if (ref && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                      sizeof(v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, &ds, true, 1.0f, 0);
		for (uint32_t k = 0; k < 8; k++) {
			draw(c, cb, ref, &vb, 12 * k, 6);
			draw(c, cb, op[k], &vb, 12 * k + 6, 6);
		}
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
out:
	for (uint32_t k = 0; k < 8; k++)
		vkDestroyPipeline(c->dev, op[k], NULL);
	vkDestroyPipeline(c->dev, ref, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static bool
compare_op(uint32_t op, float a, float b)
{
	switch (op) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

static void
depth_ops_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t k = y / 8;
			bool pass = compare_op(k, (x + 0.5f) / SW, 0.5f);
			uint8_t want[4] = { 255, 255, 255, 255 };

			if (pass) {
				want[0] = k & 1 ? 255 : 0;
				want[1] = k & 2 ? 255 : 0;
				want[2] = k & 4 ? 255 : 0;
			}
			if (memcmp(gfx_texel(o, x, y), want, 4)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: op %u at (%u,%u): %s", c->driver,
				         k, x, y, pass ? "should pass" :
				                         "should fail");
				return;
			}
			/* No write: the stored 0.5 stays (the format's
			 * nearest value). */
			if (fabsf(o->depth[y * SW + x] - 0.5f) > 1e-4f) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: depth at (%u,%u) = %f", c->driver,
				         x, y, o->depth[y * SW + x]);
				return;
			}
		}
}

#define DEPTH_OPS(name, fmt) \
	static bool name##_render(struct gfx_ctx *c, struct gfx_out *o) \
	{ return depth_ops_format(c, fmt, o); }
DEPTH_OPS(depth_ops_d16, VK_FORMAT_D16_UNORM)
DEPTH_OPS(depth_ops_x8d24, VK_FORMAT_X8_D24_UNORM_PACK32)
DEPTH_OPS(depth_ops_d32, VK_FORMAT_D32_SFLOAT)
DEPTH_OPS(depth_ops_d24s8, VK_FORMAT_D24_UNORM_S8_UINT)

/* ------------------------------------------------------------------ */
/* depth_write                                                         */
/* ------------------------------------------------------------------ */

static bool
depth_write_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[12];
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline wr, nowr;
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = false;

	/* Left: written at 0.25; right: tested but not written. */
	quad(v, 0, 0, 32, SH, 0.25f, red);
	quad(v + 6, 32, 0, SW, SH, 0.25f, green);
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	wr = ds_pipeline(c, &p, VK_FORMAT_D32_SFLOAT);
	p.ds.depthWriteEnable = VK_FALSE;
	nowr = ds_pipeline(c, &p, VK_FORMAT_D32_SFLOAT);
	if (wr && nowr && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
	                             v, sizeof(v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, &ds, true, 0.75f, 0);
		draw(c, cb, wr, &vb, 0, 6);
		draw(c, cb, nowr, &vb, 6, 6);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, wr, NULL);
	vkDestroyPipeline(c->dev, nowr, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static void
depth_write_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	expect_rect(c, o, 0, 0, 32, SH, (const uint8_t[]){ 255, 0, 0, 255 },
	            (const uint8_t[]){ 0, 255, 0, 255 });
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++)
			if (o->depth[y * SW + x] != (x < 32 ? 0.25f : 0.75f)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: depth (%u,%u) = %f", c->driver, x,
				         y, o->depth[y * SW + x]);
				return;
			}
}

/* ------------------------------------------------------------------ */
/* stencil_ops                                                         */
/* ------------------------------------------------------------------ */

/* Column k (8 wide) applies stencil op k; rows: [0,16) pass, [16,32)
 * stencil fail, [32,48) depth fail, front faces; [48,64) pass with the
 * back face (clockwise quad), whose ops are shifted by 3. The stored
 * stencil starts at 0x81 with a second pass of INCREMENT_AND_WRAP over
 * the left half... kept simple: one draw per column and row band. */
static const uint8_t stencil_clear = 0xfe;

static uint32_t
stencil_apply(uint32_t op, uint32_t s, uint32_t ref, uint32_t wmask)
{
	uint32_t v;

	switch (op) {
	case 0: v = s; break;                         /* KEEP */
	case 1: v = 0; break;                         /* ZERO */
	case 2: v = ref; break;                       /* REPLACE */
	case 3: v = s < 255 ? s + 1 : 255; break;     /* INCREMENT_AND_CLAMP */
	case 4: v = s > 0 ? s - 1 : 0; break;         /* DECREMENT_AND_CLAMP */
	case 5: v = ~s & 0xff; break;                 /* INVERT */
	case 6: v = (s + 1) & 0xff; break;            /* INCREMENT_AND_WRAP */
	default: v = (s - 1) & 0xff; break;           /* DECREMENT_AND_WRAP */
	}
	return (s & ~wmask) | (v & wmask);
}

static bool
stencil_ops_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static struct vtx v[8 * 4 * 6];
	const float white[4] = { 1, 1, 1, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe[8][4] = { { 0 } };
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = true;

	for (uint32_t k = 0; k < 8; k++)
		for (uint32_t r = 0; r < 4; r++) {
			struct vtx *q = v + 6 * (4 * k + r);

			/* Depth 0.5 against a stored 0.25 with LESS fails
			 * the depth test in the depth-fail band; others at
			 * 0.1 pass. */
			quad(q, 8.0f * k, 16.0f * r, 8.0f * k + 8,
			     16.0f * r + 16, r == 2 ? 0.5f : 0.1f, white);
			if (r == 3) {
				/* The other winding: a back face. */
				struct vtx tmp = q[1];
				q[1] = q[2];
				q[2] = tmp;
				tmp = q[4];
				q[4] = q[5];
				q[5] = tmp;
			}
		}
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D24_UNORM_S8_UINT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	p.ds.stencilTestEnable = VK_TRUE;
	/* quad() winds (x0,y0), (x1,y0), (x0,y1): clockwise in
	 * framebuffer coordinates (y down), so front with CLOCKWISE. */
	p.rs.frontFace = VK_FRONT_FACE_CLOCKWISE;
	for (uint32_t k = 0; k < 8 && ok; k++)
		for (uint32_t r = 0; r < 4 && ok; r++) {
			VkStencilOpState front = {
				.failOp = VK_STENCIL_OP_KEEP,
				.passOp = VK_STENCIL_OP_KEEP,
				.depthFailOp = VK_STENCIL_OP_KEEP,
				/* Band 1 fails: NEVER. */
				.compareOp = r == 1 ? VK_COMPARE_OP_NEVER :
				                      VK_COMPARE_OP_ALWAYS,
				.compareMask = 0xff, .writeMask = 0xff,
				.reference = 0x5a,
			};
			VkStencilOpState back = front;

			if (r == 0)
				front.passOp = (VkStencilOp)k;
			if (r == 1)
				front.failOp = (VkStencilOp)k;
			if (r == 2)
				front.depthFailOp = (VkStencilOp)k;
			back.passOp = (VkStencilOp)((k + 3) & 7);
			back.reference = 0x33;
			back.writeMask = 0xf0;
			p.ds.front = front;
			p.ds.back = back;
			pipe[k][r] = ds_pipeline(c, &p,
			                         VK_FORMAT_D24_UNORM_S8_UINT);
			ok = pipe[k][r] != VK_NULL_HANDLE;
		}
	if (ok && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                     sizeof(v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, &ds, true, 0.25f,
		                    stencil_clear);
		for (uint32_t k = 0; k < 8; k++)
			for (uint32_t r = 0; r < 4; r++)
				draw(c, cb, pipe[k][r], &vb, 6 * (4 * k + r),
				     6);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	for (uint32_t k = 0; k < 8; k++)
		for (uint32_t r = 0; r < 4; r++)
			vkDestroyPipeline(c->dev, pipe[k][r], NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static void
stencil_ops_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t k = x / 8, r = y / 16;
			uint32_t want = r == 3 ?
				stencil_apply((k + 3) & 7, stencil_clear, 0x33,
				              0xf0) :
				stencil_apply(k, stencil_clear, 0x5a, 0xff);
			uint32_t got = o->stencil[y * SW + x];

			if (got != want) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: stencil op %u band %u at (%u,%u) "
				         "= 0x%02x, want 0x%02x", c->driver, k,
				         r, x, y, got, want);
				return;
			}
		}
}

/* ------------------------------------------------------------------ */
/* stencil_masks                                                       */
/* ------------------------------------------------------------------ */

/* Column k: compare EQUAL against reference k * 0x11 with compare mask
 * 0x0f (stored value 0xa5 & 0x0f = 5: passes for k = 5 only... and for
 * every reference whose low nibble is 5), then REPLACE through write
 * mask 0x3c. */
static bool
stencil_masks_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static struct vtx v[16 * 6];
	const float white[4] = { 1, 1, 1, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe[16] = { 0 };
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = true;

	for (uint32_t k = 0; k < 16; k++)
		quad(v + 6 * k, 4.0f * k, 0, 4.0f * k + 4, SH, 0, white);
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_S8_UINT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ds.stencilTestEnable = VK_TRUE;
	for (uint32_t k = 0; k < 16 && ok; k++) {
		p.ds.front = (VkStencilOpState){
			VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
			VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0x0f, 0x3c,
			(k * 0x13) & 0xff };
		p.ds.back = p.ds.front;
		pipe[k] = ds_pipeline(c, &p, VK_FORMAT_S8_UINT);
		ok = pipe[k] != VK_NULL_HANDLE;
	}
	if (ok && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                     sizeof(v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, &ds, true, 0, 0xa5);
		for (uint32_t k = 0; k < 16; k++)
			draw(c, cb, pipe[k], &vb, 6 * k, 6);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	for (uint32_t k = 0; k < 16; k++)
		vkDestroyPipeline(c->dev, pipe[k], NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static void
stencil_masks_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t x = 0; x < SW; x++) {
		uint32_t ref = ((x / 4) * 0x13) & 0xff;
		bool pass = (ref & 0x0f) == (0xa5 & 0x0f);
		uint32_t want = pass ? (0xa5 & ~0x3cu) | (ref & 0x3c) : 0xa5;

		if (o->stencil[x] != want ||
		    gfx_texel(o, x, 0)[0] != (pass ? 255 : 0))
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: column %u: stencil 0x%02x, want 0x%02x",
			         c->driver, x / 4, o->stencil[x], want);
	}
}

/* ------------------------------------------------------------------ */
/* depth_clamp, depth_bounds, depth_bias                               */
/* ------------------------------------------------------------------ */

static bool
depth_misc(struct gfx_ctx *c, struct gfx_out *o, int which)
{
	struct vtx v[18];
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline a = VK_NULL_HANDLE, b = VK_NULL_HANDLE;
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	const VkFormat fmt = which == 2 ? VK_FORMAT_X8_D24_UNORM_PACK32 :
	                                  VK_FORMAT_D32_SFLOAT;
	bool ok = false;

	if (!px_target(c, &t) ||
	    !gfx_image(c, fmt, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
	if (which == 0) {
		/* Beyond the far plane: left clipped, right clamped. */
		quad(v, 0, 0, 32, SH, 1.5f, red);
		quad(v + 6, 32, 0, SW, SH, 1.5f, green);
		a = ds_pipeline(c, &p, fmt);
		p.rs.depthClampEnable = VK_TRUE;
		b = ds_pipeline(c, &p, fmt);
	} else if (which == 1) {
		/* A ramp stored first, then a quad that passes only where
		 * the stored depth is within [0.25, 0.75]. */
		ramp(v, 0, 0, SW, SH, 0, 1, red);
		quad(v + 6, 0, 0, SW, SH, 0.5f, green);
		a = ds_pipeline(c, &p, fmt);
		p.ds.depthWriteEnable = VK_FALSE;
		p.ds.depthBoundsTestEnable = VK_TRUE;
		p.ds.minDepthBounds = 0.25f;
		p.ds.maxDepthBounds = 0.75f;
		b = ds_pipeline(c, &p, fmt);
	} else {
		/* Left: a flat quad with a constant bias of 100 units;
		 * right: a sloped one with slope factor 2 (and no
		 * constant). */
		quad(v, 0, 0, 32, SH, 0.25f, red);
		ramp(v + 6, 32, 0, SW, SH, 0.25f, 0.5f, green);
		p.rs.depthBiasEnable = VK_TRUE;
		p.rs.depthBiasConstantFactor = 100;
		a = ds_pipeline(c, &p, fmt);
		p.rs.depthBiasConstantFactor = 0;
		p.rs.depthBiasSlopeFactor = 2;
		b = ds_pipeline(c, &p, fmt);
	}
	if (a && b && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                         sizeof(v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, &ds, true, 1.0f, 0);
		draw(c, cb, a, &vb, 0, 6);
		draw(c, cb, b, &vb, 6, 6);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, a, NULL);
	vkDestroyPipeline(c->dev, b, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static bool
depth_clamp_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return depth_misc(c, o, 0);
}

static void
depth_clamp_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	expect_rect(c, o, 32, 0, SW, SH, (const uint8_t[]){ 0, 255, 0, 255 },
	            zero4);
	for (uint32_t i = 0; i < SW * SH; i++)
		if (o->depth[i] != 1.0f) {
			vkh_fail(c->h, __FILE__, __LINE__, "%s: depth %u = %f",
			         c->driver, i, o->depth[i]);
			return;
		}
}

static bool
depth_bounds_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return depth_misc(c, o, 1);
}

static void
depth_bounds_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t x = 0; x < SW; x++) {
		float z = (x + 0.5f) / SW;
		bool pass = z >= 0.25f && z <= 0.75f;

		if (gfx_texel(o, x, 5)[1] != (pass ? 255 : 0))
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: bounds at x %u (z %f)", c->driver, x, z);
	}
}

static bool
depth_bias_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return depth_misc(c, o, 2);
}

static void
depth_bias_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	/* D24: r is the implementation's, between 2^-24 and 2 x 2^-24
	 * (the spec's bound); constant 100 -> +100 r. Slope: m = dz/dx =
	 * 0.25 / 32 per pixel, bias = 2 m exactly. Within a unit. */
	const float r = 1.0f / 16777216.0f;

	for (uint32_t x = 0; x < SW; x++) {
		float lo = x < 32 ? 0.25f + 100 * r :
		           0.25f + 0.25f * (x - 32 + 0.5f) / 32 +
		           2 * 0.25f / 32;
		float hi = x < 32 ? 0.25f + 200 * r : lo;
		float got = o->depth[5 * SW + x];

		if (got < lo - 2 * r || got > hi + 2 * r)
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: biased depth at x %u = %.9f, want "
			         "%.9f..%.9f", c->driver, x, got, lo, hi);
	}
}


/* ------------------------------------------------------------------ */
/* depth_view_stencil                                                  */
/* ------------------------------------------------------------------ */

/* One subpass, D24S8 cleared to depth 0.75 / stencil 0x5a through a
 * depth-only view (what a depth attachment that is also read as an
 * input attachment has); a quad [8, 40)^2 at z 0.25 passes LESS and
 * writes its depth. */
static bool
depth_view_stencil_render(struct gfx_ctx *c, struct gfx_out *o)
{
	const float white[4] = { 1, 1, 1, 1 };
	VkAttachmentDescription att[2] = {
		{ 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_GENERAL,
		  VK_IMAGE_LAYOUT_GENERAL },
		{ 0, VK_FORMAT_D24_UNORM_S8_UINT, VK_SAMPLE_COUNT_1_BIT,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
		  VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference a = { 0, VK_IMAGE_LAYOUT_GENERAL };
	VkAttachmentReference d = { 1, VK_IMAGE_LAYOUT_GENERAL };
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 1, .pColorAttachments = &a,
		.pDepthStencilAttachment = &d,
	};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 1, .pSubpasses = &sub,
	};
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkRenderPass rp = VK_NULL_HANDLE;
	VkFramebuffer fb = VK_NULL_HANDLE;
	VkImageView dview = VK_NULL_HANDLE;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 };
	struct vtx v[6];
	bool ok = false;

	quad(v, 8, 8, 40, 40, 0.25f, white);
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D24_UNORM_S8_UINT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
	               VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	dview = gfx_view(c, &ds, 0, VK_IMAGE_ASPECT_DEPTH_BIT);
	VkImageView views[2] = { t.view, dview };
	if (!dview || vkCreateRenderPass(c->dev, &rpci, NULL, &rp) !=
	              VK_SUCCESS)
		goto out;
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = rp, .attachmentCount = 2, .pAttachments = views,
		.width = SW, .height = SH, .layers = 1,
	};
	if (vkCreateFramebuffer(c->dev, &fci, NULL, &fb) != VK_SUCCESS)
		goto out;
	p.render_pass = rp;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthWriteEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkClearValue clear[2] = {
			{ .color = black },
			{ .depthStencil = { 0.75f, 0x5a } },
		};
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.renderPass = rp, .framebuffer = fb,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.clearValueCount = 2, .pClearValues = clear,
		};
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
		draw(c, cb, pipe, &vb, 0, 6);
		vkCmdEndRenderPass(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, &ds, o);
	}
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyFramebuffer(c->dev, fb, NULL);
	vkDestroyRenderPass(c->dev, rp, NULL);
	vkDestroyImageView(c->dev, dview, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
depth_view_stencil_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const float r = 1.0f / 16777215.0f;

	expect_rect(c, o, 8, 8, 40, 40, (const uint8_t[]){ 255, 255, 255, 255 },
	            zero4);
	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			bool in = x >= 8 && x < 40 && y >= 8 && y < 40;
			float want = in ? 0.25f : 0.75f;
			uint32_t i = y * SW + x;

			if (o->stencil[i] != 0x5a ||
			    fabsf(o->depth[i] - want) > r) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: (%u, %u): stencil 0x%02x, depth "
				         "%f; want 0x5a, %f", c->driver, x, y,
				         o->stencil[i], o->depth[i], want);
				return;
			}
		}
}

/* ------------------------------------------------------------------ */

static bool
has_depth_bounds(const struct vkh *h)
{
	return h->features.depthBounds;
}

static bool
has_depth_clamp(const struct vkh *h)
{
	return h->features.depthClamp;
}

#define depth_ops_d16_check depth_ops_check
#define depth_ops_x8d24_check depth_ops_check
#define depth_ops_d32_check depth_ops_check
#define depth_ops_d24s8_check depth_ops_check

GFX_SCENE_TEST(depth_ops_d16, 0, 0, NULL)
GFX_SCENE_TEST(depth_ops_x8d24, 0, 0, NULL)
GFX_SCENE_TEST(depth_ops_d32, 0, 0, NULL)
GFX_SCENE_TEST(depth_ops_d24s8, 0, 0, NULL)
GFX_SCENE_TEST(depth_write, 0, 0, NULL)
GFX_SCENE_TEST(stencil_ops, 0, 0, NULL)
GFX_SCENE_TEST(stencil_masks, 0, 0, NULL)
GFX_SCENE_TEST(depth_clamp, 0, 0, has_depth_clamp)
GFX_SCENE_TEST(depth_bounds, 0, 1e-6f, has_depth_bounds)
/* The constant bias's unit r is the implementation's (one or two
 * 2^-24): 100 of them may differ between drivers. */
GFX_SCENE_TEST(depth_bias, 0, 102.0f / 16777216.0f, NULL)
GFX_SCENE_TEST(depth_view_stencil, 0, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(depth_ops_d16), GFX_TEST(depth_ops_x8d24),
	GFX_TEST(depth_ops_d32), GFX_TEST(depth_ops_d24s8),
	GFX_TEST(depth_write), GFX_TEST(stencil_ops),
	GFX_TEST(stencil_masks), GFX_TEST(depth_clamp),
	GFX_TEST(depth_bounds), GFX_TEST(depth_bias),
	GFX_TEST(depth_view_stencil),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_depth", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

/* SPDX-License-Identifier: MIT */
/*
 * msaa_shape: the shapes and expectations the multisampling tests share
 * (test_vk_msaa, test_vk_msaa_read): the standard sample locations, an
 * octagon fan and a square with vertices off the pixel grid, and the
 * per-sample coverage they must produce.
 */
#include "msaa_shape.h"

#include <math.h>

/* The standard sample locations (spec table), 1/16 pixel. */
const uint8_t pos16[4][8][2] = {
	{ { 8, 8 } },
	{ { 12, 12 }, { 4, 4 } },
	{ { 6, 2 }, { 14, 6 }, { 2, 10 }, { 10, 14 } },
	{ { 9, 5 }, { 7, 11 }, { 13, 9 }, { 5, 3 },
	  { 3, 13 }, { 1, 7 }, { 11, 15 }, { 15, 1 } },
};

uint32_t
lg(uint32_t s)
{
	return s == 8 ? 3 : s == 4 ? 2 : s == 2 ? 1 : 0;
}

/* The shapes of the coverage scenes: an octagon fanned from an inner
 * point, and a square cut along its diagonal. */
const double oct[8][2] = {
	{ 20.0 + 3.0 / 256, 6.5 }, { 45.25, 4.0 + 200.0 / 256 },
	{ 58.5 + 1.0 / 256, 20.0 }, { 59.75, 42.5 + 7.0 / 256 },
	{ 44.0, 56.0 + 9.0 / 256 }, { 18.5 + 33.0 / 256, 59.75 },
	{ 5.25, 40.0 }, { 4.0 + 77.0 / 256, 22.5 },
};
const double oct_c[2] = { 32.0 + 45.0 / 256, 30.0 + 191.0 / 256 };

uint32_t
shape_vertices(struct vtx *v)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < 8; i++) {
		const double *a = oct[i], *b = oct[(i + 1) % 8];
		const double *p[3] = { oct_c, a, b };
		for (int k = 0; k < 3; k++)
			v[n++] = (struct vtx){ (float)p[k][0], (float)p[k][1],
			                       0.5f, 1, 1, 1, 1 };
	}
	return n;
}

static double
orient(const double a[2], const double b[2], double px, double py)
{
	return (b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]);
}

/* +1 strictly inside the octagon, -1 strictly outside, 0 on it. */
int
oct_side(double px, double py)
{
	bool pos = false, neg = false, zero = false;

	for (uint32_t i = 0; i < 8; i++) {
		double o = orient(oct[i], oct[(i + 1) % 8], px, py);
		pos |= o > 0;
		neg |= o < 0;
		zero |= o == 0;
	}
	return pos && neg ? -1 : zero ? 0 : 1;
}

/* The octagon and the square [8, 24) x [40, 56) cut along its
 * diagonal (8, 40)-(24, 56), white, at z 0.5. */
uint32_t
coverage_shape(struct vtx *v)
{
	uint32_t n = shape_vertices(v);
	const float sq[6][2] = { { 8, 40 }, { 24, 40 }, { 24, 56 },
	                         { 8, 40 }, { 24, 56 }, { 8, 56 } };

	for (int i = 0; i < 6; i++)
		v[n++] = (struct vtx){ sq[i][0], sq[i][1], 0.5f, 1, 1, 1, 1 };
	return n;
}

/* Each pixel's red byte is its mask of covered samples of the coverage
 * shape: samples strictly inside are covered, strictly outside not. */
void
coverage_check(struct gfx_ctx *c, const struct gfx_out *o, uint32_t S)
{
	uint32_t inside = 0;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			const uint8_t *t = gfx_texel(o, x, y);
			for (uint32_t s = 0; s < S; s++) {
				double px = x + pos16[lg(S)][s][0] / 16.0;
				double py = y + pos16[lg(S)][s][1] / 16.0;
				int side = oct_side(px, py);
				bool in_sq = px > 8 && px < 24 && py > 40 && py < 56;
				bool out_sq = px < 8 || px > 24 || py < 40 || py > 56;
				bool want_in = side > 0 || in_sq;
				bool want_out = side < 0 && out_sq;
				bool got = (t[0] >> s) & 1u;
				inside += want_in;
				if ((want_in && !got) || (want_out && got)) {
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: %u samples, pixel (%u, %u) "
					         "sample %u: covered %d, want %s",
					         c->driver, S, x, y, s, got,
					         want_in ? "covered" : "not");
					return;
				}
			}
		}
	VKH_CHECK(c->h, inside > 1000 * S);
}

/* The rectangle's corners in clockwise order on the y-down screen (the
 * interior on the right of each edge, orient > 0), then the sample's
 * signed distance to each edge. */
int
line_rect_side(const double a[2], const double b[2], double px, double py,
               bool *tie)
{
	const double dx = b[0] - a[0], dy = b[1] - a[1];
	const double len = sqrt(dx * dx + dy * dy);
	const double nx = -0.5 * dy / len, ny = 0.5 * dx / len;
	double c[4][2] = {
		{ a[0] + nx, a[1] + ny }, { b[0] + nx, b[1] + ny },
		{ b[0] - nx, b[1] - ny }, { a[0] - nx, a[1] - ny },
	};
	bool inside = true, near = false, on = false;

	/* clockwise when the centre is on the right of the first edge
	 * (orient > 0 with y down); else reverse the order */
	if (orient(c[0], c[1], (a[0] + b[0]) / 2, (a[1] + b[1]) / 2) < 0)
		for (int i = 0; i < 2; i++) {
			double t[2] = { c[i][0], c[i][1] };
			c[i][0] = c[3 - i][0];
			c[i][1] = c[3 - i][1];
			c[3 - i][0] = t[0];
			c[3 - i][1] = t[1];
		}
	for (int i = 0; i < 4; i++) {
		const double *p = c[i], *q = c[(i + 1) % 4];
		const double ex = q[0] - p[0], ey = q[1] - p[1];
		const double e = orient(p, q, px, py) / sqrt(ex * ex + ey * ey);
		if (e < -MSAA_LINE_MARGIN)
			return 0;
		if (e == 0.0) {
			on = true;
			if (!((ey == 0.0 && ex > 0.0) || ey < 0.0))
				inside = false;
		} else if (e < MSAA_LINE_MARGIN && e > -MSAA_LINE_MARGIN) {
			near = true;
		}
		if (e < 0.0)
			inside = false;
	}
	/* exact ties only where the corners are exact */
	if (near || (on && dx != 0.0 && dy != 0.0))
		return -1;
	*tie |= on;
	return inside ? 1 : 0;
}

/* Whether RGBA8 images of this usage take S samples. */
bool
has_samples_usage(const struct vkh *h, VkSampleCountFlagBits S,
                  VkImageUsageFlags usage)
{
	VkImageFormatProperties p;

	return vkGetPhysicalDeviceImageFormatProperties(
		       h->phys, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
		       VK_IMAGE_TILING_OPTIMAL, usage, 0, &p) == VK_SUCCESS &&
	       (p.sampleCounts & S);
}

/* Whether RGBA8 colour attachments take S samples. */
bool
has_samples(const struct vkh *h, VkSampleCountFlagBits S)
{
	return has_samples_usage(h, S, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                               VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                               VK_IMAGE_USAGE_TRANSFER_DST_BIT);
}

/* Dynamic rendering on S-sample colour (and depth) images cleared, with
 * resolves into res / dres (NULL: none). */
void
begin_ms(VkCommandBuffer cb, const struct gfx_image *color,
         const struct gfx_image *res, const struct gfx_image *ds,
         const struct gfx_image *dres, VkResolveModeFlagBits dmode,
         bool load)
{
	VkRenderingAttachmentInfo ca = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = color->view,
		.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.resolveMode = res ? VK_RESOLVE_MODE_AVERAGE_BIT
		                   : VK_RESOLVE_MODE_NONE,
		.resolveImageView = res ? res->view : VK_NULL_HANDLE,
		.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD
		               : VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingAttachmentInfo da = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = ds ? ds->view : VK_NULL_HANDLE,
		.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.resolveMode = dres ? dmode : VK_RESOLVE_MODE_NONE,
		.resolveImageView = dres ? dres->view : VK_NULL_HANDLE,
		.resolveImageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue = { .depthStencil = { 1.0f, 0 } },
	};
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { color->w, color->h } },
		.layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &ca,
		.pDepthAttachment = ds ? &da : NULL,
	};

	vkCmdBeginRendering(cb, &ri);
}

/* Draw n vertices with pipe in a command buffer already rendering. */
bool
draw_in(struct gfx_ctx *c, VkCommandBuffer cb, VkPipeline pipe,
        const struct vtx *v, uint32_t n, struct vkh_buffer *vb)
{
	VkDeviceSize off = 0;

	if (!gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                n * sizeof(*v), vb))
		return false;
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	px_push(c, cb, 0, 0);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb->buffer, &off);
	vkCmdDraw(cb, n, 1, 0, 0);
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_blend: colour blending and output through the loader with
 * validation on; checked against a float model of the spec's equations
 * (within 1/255) and against a second driver (vkh_gfx.h):
 *
 *   blend_factors  every non-dual-source factor as source colour factor,
 *                  as destination colour factor, and for alpha, with
 *                  blend constants
 *   blend_ops      ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX for colour
 *                  and alpha
 *   write_mask     all 16 colour write masks
 *   dual_source    SRC1_COLOR / SRC1_ALPHA factors (dualSrcBlend)
 *   independent    two attachments with their own blend state and mask
 *   logic_ops      all 16 logic ops on R8G8B8A8_UINT (logicOp), exact
 *
 * Each cell of a 16x16 grid (4x4 pixels) gets a background quad (no
 * blending) and then a foreground quad drawn with the cell's state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_dual_fs.spv.h"
#include "gfx_mrt_fs.spv.h"
#include "gfx_uint_fs.spv.h"

#define CELLS 256
#define CELL 4

static const float fg[4] = { 0.8f, 0.32f, 0.55f, 0.6f };
static const float constants[4] = { 0.25f, 0.5f, 0.75f, 0.4f };

/* Background of cell k: exact UNORM8 values. */
static void
bg_color(uint32_t k, float c[4])
{
	c[0] = (float)((k * 37 + 11) % 256) / 255.0f;
	c[1] = (float)((k * 91 + 7) % 256) / 255.0f;
	c[2] = (float)((k * 53 + 200) % 256) / 255.0f;
	c[3] = (float)((k * 29 + 64) % 256) / 255.0f;
}

struct cell_state {
	VkPipelineColorBlendAttachmentState blend;
};

/* Render: per cell k < n, background then foreground with state k.
 * fs may be NULL (flat colour). */
static bool
render_cells(struct gfx_ctx *c, struct gfx_out *o, uint32_t n,
             const VkPipelineColorBlendAttachmentState *st,
             VkShaderModule fs, bool logic, VkLogicOp const *logic_ops,
             VkFormat format)
{
	static struct vtx v[CELLS * 12];
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline bgp = VK_NULL_HANDLE, *fgp;
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = true;

	for (uint32_t k = 0; k < n; k++) {
		float x = (float)(k % 16) * CELL, y = (float)(k / 16) * CELL;
		float bg[4];

		bg_color(k, bg);
		quad(v + 12 * k, x, y, x + CELL, y + CELL, 0, bg);
		quad(v + 12 * k + 6, x, y, x + CELL, y + CELL, 0, fg);
	}
	fgp = calloc(n, sizeof(*fgp));
	if (!gfx_image(c, format, SW, SH, 1,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t) ||
	    !px_pipe_init(c, &p)) {
		free(fgp);
		return false;
	}
	p.color_formats[0] = format;
	memcpy(p.blend_constants, constants, sizeof(constants));
	if (fs) {
		vkDestroyShaderModule(c->dev, p.fs, NULL);
		p.fs = fs;
	}
	bgp = gfx_pipeline(c, &p);
	for (uint32_t k = 0; k < n && ok; k++) {
		if (logic) {
			p.logic_op_enable = VK_TRUE;
			p.logic_op = logic_ops[k];
		} else {
			p.blend[0] = st[k];
		}
		fgp[k] = gfx_pipeline(c, &p);
		ok = fgp[k] != VK_NULL_HANDLE;
	}
	if (ok && bgp && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                            sizeof(v), &vb)) {
		VkDeviceSize off = 0;

		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		for (uint32_t k = 0; k < n; k++) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  bgp);
			vkCmdDraw(cb, 6, 1, 12 * k, 0);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  fgp[k]);
			vkCmdDraw(cb, 6, 1, 12 * k + 6, 0);
		}
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
	} else {
		ok = false;
	}
	for (uint32_t k = 0; k < n; k++)
		vkDestroyPipeline(c->dev, fgp[k], NULL);
	free(fgp);
	vkDestroyPipeline(c->dev, bgp, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

/* ------------------------------------------------------------------ */
/* The float model                                                     */
/* ------------------------------------------------------------------ */

/* Factor f for component i (3 = alpha) with source s, second source s1,
 * destination d. */
static float
factor(VkBlendFactor f, int i, const float *s, const float *s1,
       const float *d)
{
	switch (f) {
	case VK_BLEND_FACTOR_ZERO: return 0;
	case VK_BLEND_FACTOR_ONE: return 1;
	case VK_BLEND_FACTOR_SRC_COLOR: return s[i];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[i];
	case VK_BLEND_FACTOR_DST_COLOR: return d[i];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[i];
	case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
	case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
	case VK_BLEND_FACTOR_CONSTANT_COLOR: return constants[i];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - constants[i];
	case VK_BLEND_FACTOR_CONSTANT_ALPHA: return constants[3];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - constants[3];
	case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
		return i == 3 ? 1 : fminf(s[3], 1 - d[3]);
	case VK_BLEND_FACTOR_SRC1_COLOR: return s1[i];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[i];
	case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
	default: return 1 - s1[3];
	}
}

static float
blend_one(const VkPipelineColorBlendAttachmentState *b, int i,
          const float *s, const float *s1, const float *d)
{
	VkBlendOp op = i == 3 ? b->alphaBlendOp : b->colorBlendOp;
	VkBlendFactor sf = i == 3 ? b->srcAlphaBlendFactor :
	                            b->srcColorBlendFactor;
	VkBlendFactor df = i == 3 ? b->dstAlphaBlendFactor :
	                            b->dstColorBlendFactor;
	float S = s[i] * factor(sf, i, s, s1, d);
	float D = d[i] * factor(df, i, s, s1, d);
	float r;

	if (!b->blendEnable)
		return s[i];
	switch (op) {
	case VK_BLEND_OP_ADD: r = S + D; break;
	case VK_BLEND_OP_SUBTRACT: r = S - D; break;
	case VK_BLEND_OP_REVERSE_SUBTRACT: r = D - S; break;
	case VK_BLEND_OP_MIN: r = fminf(s[i], d[i]); break;
	default: r = fmaxf(s[i], d[i]); break;
	}
	return fminf(fmaxf(r, 0), 1);
}

/* Cell k of o against the model with state b (and the second source s1
 * for dual-source), 1/255 apart at most; colour masked per b. */
static void
expect_cell(struct gfx_ctx *c, const struct gfx_out *o, uint32_t k,
            const VkPipelineColorBlendAttachmentState *b, const float *s1)
{
	float d[4], want[4];
	uint32_t x = (k % 16) * CELL + 1, y = (k / 16) * CELL + 1;
	const uint8_t *t = gfx_texel(o, x, y);

	bg_color(k, d);
	for (int i = 0; i < 4; i++) {
		want[i] = blend_one(b, i, fg, s1, d);
		if (!(b->colorWriteMask & (1u << i)))
			want[i] = d[i];
		if (fabsf(t[i] - want[i] * 255) > 1.01f) {
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: cell %u component %d = %u, want %.2f "
			         "(factors %d/%d %d/%d, ops %d/%d, mask 0x%x)",
			         c->driver, k, i, t[i], want[i] * 255,
			         b->srcColorBlendFactor, b->dstColorBlendFactor,
			         b->srcAlphaBlendFactor, b->dstAlphaBlendFactor,
			         b->colorBlendOp, b->alphaBlendOp,
			         b->colorWriteMask);
			return;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Scenes                                                              */
/* ------------------------------------------------------------------ */

/* 15 factors x 3 roles: source colour (dst ONE_MINUS_SRC_ALPHA),
 * destination colour (src ONE), source alpha (colour ONE/ZERO). */
#define NFACTORS 15
static VkPipelineColorBlendAttachmentState factor_states[3 * NFACTORS];

static void
factor_setup(void)
{
	for (uint32_t f = 0; f < NFACTORS; f++) {
		VkPipelineColorBlendAttachmentState b = {
			VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
			VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
			VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf };

		b.srcColorBlendFactor = (VkBlendFactor)f;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		factor_states[f] = b;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstColorBlendFactor = (VkBlendFactor)f;
		b.dstAlphaBlendFactor = (VkBlendFactor)f;
		factor_states[NFACTORS + f] = b;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ZERO;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.srcAlphaBlendFactor = (VkBlendFactor)f;
		factor_states[2 * NFACTORS + f] = b;
	}
}

static bool
blend_factors_render(struct gfx_ctx *c, struct gfx_out *o)
{
	factor_setup();
	return render_cells(c, o, 3 * NFACTORS, factor_states, NULL, false,
	                    NULL, VK_FORMAT_R8G8B8A8_UNORM);
}

static void
blend_factors_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t k = 0; k < 3 * NFACTORS && !c->h->failures; k++)
		expect_cell(c, o, k, &factor_states[k], NULL);
}

#define NOPS 5
static VkPipelineColorBlendAttachmentState op_states[NOPS * NOPS];

static bool
blend_ops_render(struct gfx_ctx *c, struct gfx_out *o)
{
	for (uint32_t k = 0; k < NOPS * NOPS; k++)
		op_states[k] = (VkPipelineColorBlendAttachmentState){
			VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
			VK_BLEND_FACTOR_DST_ALPHA, (VkBlendOp)(k % NOPS),
			VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
			(VkBlendOp)(k / NOPS), 0xf };
	return render_cells(c, o, NOPS * NOPS, op_states, NULL, false, NULL,
	                    VK_FORMAT_R8G8B8A8_UNORM);
}

static void
blend_ops_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t k = 0; k < NOPS * NOPS && !c->h->failures; k++)
		expect_cell(c, o, k, &op_states[k], NULL);
}

static VkPipelineColorBlendAttachmentState mask_states[32];

static bool
write_mask_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* 16 masks without blending, then 16 with. */
	for (uint32_t k = 0; k < 32; k++)
		mask_states[k] = (VkPipelineColorBlendAttachmentState){
			k >= 16, VK_BLEND_FACTOR_SRC_ALPHA,
			VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
			VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
			VK_BLEND_OP_ADD, k % 16 };
	return render_cells(c, o, 32, mask_states, NULL, false, NULL,
	                    VK_FORMAT_R8G8B8A8_UNORM);
}

static void
write_mask_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t k = 0; k < 32 && !c->h->failures; k++)
		expect_cell(c, o, k, &mask_states[k], NULL);
}

static VkPipelineColorBlendAttachmentState dual_states[8];

static bool
dual_source_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static const VkBlendFactor f[4] = {
		VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR,
		VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA,
	};

	for (uint32_t k = 0; k < 8; k++)
		dual_states[k] = (VkPipelineColorBlendAttachmentState){
			VK_TRUE, k < 4 ? f[k] : VK_BLEND_FACTOR_ONE,
			k < 4 ? VK_BLEND_FACTOR_ONE : f[k - 4],
			VK_BLEND_OP_ADD, f[k % 4], VK_BLEND_FACTOR_ZERO,
			VK_BLEND_OP_ADD, 0xf };
	return render_cells(c, o, 8, dual_states,
	                    gfx_shader(c, gfx_dual_fs_spv,
	                               sizeof(gfx_dual_fs_spv)),
	                    false, NULL, VK_FORMAT_R8G8B8A8_UNORM);
}

static void
dual_source_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const float s1[4] = { fg[2], fg[1], fg[0], 1 - fg[3] };

	for (uint32_t k = 0; k < 8 && !c->h->failures; k++)
		expect_cell(c, o, k, &dual_states[k], s1);
}

static bool
has_dual_source(const struct vkh *h)
{
	return h->features.dualSrcBlend;
}

static VkLogicOp logic_ops[16];

static bool
logic_ops_render(struct gfx_ctx *c, struct gfx_out *o)
{
	for (uint32_t k = 0; k < 16; k++)
		logic_ops[k] = (VkLogicOp)k;
	return render_cells(c, o, 16, NULL,
	                    gfx_shader(c, gfx_uint_fs_spv,
	                               sizeof(gfx_uint_fs_spv)),
	                    true, logic_ops, VK_FORMAT_R8G8B8A8_UINT);
}

static void
logic_ops_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t k = 0; k < 16; k++) {
		float bgf[4];
		const uint8_t *t = gfx_texel(o, (k % 16) * CELL + 1,
		                             (k / 16) * CELL + 1);

		bg_color(k, bgf);
		for (int i = 0; i < 4; i++) {
			/* The background went through the same logic op
			 * pipeline? No: through the COPY-less background
			 * pipeline (logic disabled), so d is its value. */
			uint32_t s = (uint32_t)lroundf(fg[i] * 255);
			uint32_t d = (uint32_t)lroundf(bgf[i] * 255);
			uint32_t r;

			switch (k) {
			case 0: r = 0; break;
			case 1: r = s & d; break;
			case 2: r = s & ~d; break;
			case 3: r = s; break;
			case 4: r = ~s & d; break;
			case 5: r = d; break;
			case 6: r = s ^ d; break;
			case 7: r = s | d; break;
			case 8: r = ~(s | d); break;
			case 9: r = ~(s ^ d); break;
			case 10: r = ~d; break;
			case 11: r = s | ~d; break;
			case 12: r = ~s; break;
			case 13: r = ~s | d; break;
			case 14: r = ~(s & d); break;
			default: r = 0xff; break;
			}
			if (t[i] != (r & 0xff)) {
				vkh_fail(c->h, __FILE__, __LINE__,
				         "%s: logic op %u component %d = %u, "
				         "want %u", c->driver, k, i, t[i],
				         r & 0xff);
				return;
			}
		}
	}
}

static bool
has_logic_op(const struct vkh *h)
{
	return h->features.logicOp;
}

/* Two attachments: 0 blends SRC_ALPHA/ONE_MINUS_SRC_ALPHA, 1 (the
 * complement colour) adds with mask RG. */
static bool
independent_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct vtx v[12];
	float bg[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
	struct gfx_image t[2];
	struct gfx_pipe p;
	VkPipeline bgp, fgp;
	struct vkh_buffer vb;
	VkCommandBuffer cb;
	bool ok = false;

	quad(v, 0, 0, SW, SH, 0, bg);
	quad(v + 6, 8, 8, 56, 56, 0, fg);
	if (!gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t[0]) ||
	    !gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 1,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t[1]) ||
	    !px_pipe_init(c, &p))
		return false;
	vkDestroyShaderModule(c->dev, p.fs, NULL);
	p.fs = gfx_shader(c, gfx_mrt_fs_spv, sizeof(gfx_mrt_fs_spv));
	p.ncolor = 2;
	p.color_formats[1] = VK_FORMAT_R8G8B8A8_UNORM;
	bgp = gfx_pipeline(c, &p);
	p.blend[0] = (VkPipelineColorBlendAttachmentState){
		VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA,
		VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
		VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD,
		0xf };
	p.blend[1] = (VkPipelineColorBlendAttachmentState){
		VK_TRUE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
		VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
		VK_BLEND_OP_ADD, VK_COLOR_COMPONENT_R_BIT |
		VK_COLOR_COMPONENT_G_BIT };
	fgp = gfx_pipeline(c, &p);
	if (bgp && fgp && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
	                             v, sizeof(v), &vb)) {
		VkRenderingAttachmentInfo ca[2];
		VkDeviceSize off = 0;

		for (int i = 0; i < 2; i++)
			ca[i] = (VkRenderingAttachmentInfo){
				.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
				.imageView = t[i].view,
				.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
				.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
				.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
			};
		VkRenderingInfo ri = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.layerCount = 1, .colorAttachmentCount = 2,
			.pColorAttachments = ca,
		};
		cb = gfx_begin(c);
		vkCmdBeginRendering(cb, &ri);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, bgp);
		vkCmdDraw(cb, 6, 1, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fgp);
		vkCmdDraw(cb, 6, 1, 6, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb);
		vkh_buffer_destroy(c->d, &vb);
	}
	/* Both attachments side by side in one output: read each. */
	if (ok) {
		struct gfx_out o1 = { 0 };

		ok = gfx_read(c, &t[0], NULL, o) &&
		     gfx_read(c, &t[1], NULL, &o1);
		if (ok) {
			uint8_t *both = malloc((size_t)SW * SH * 8);

			for (uint32_t y = 0; y < SH; y++) {
				memcpy(both + y * SW * 8, o->color + y * SW * 4,
				       SW * 4);
				memcpy(both + y * SW * 8 + SW * 4,
				       o1.color + y * SW * 4, SW * 4);
			}
			free(o->color);
			o->color = both;
			o->w = 2 * SW;
		}
		free(o1.color);
	}
	vkDestroyPipeline(c->dev, bgp, NULL);
	vkDestroyPipeline(c->dev, fgp, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t[0]);
	gfx_image_destroy(c, &t[1]);
	return ok;
}

static void
independent_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t *a = gfx_texel(o, 20, 20), *b = gfx_texel(o, SW + 20, 20);
	const uint8_t *a0 = gfx_texel(o, 2, 2), *b0 = gfx_texel(o, SW + 2, 2);
	const float bg[4] = { 0.2f, 0.4f, 0.6f, 0.8f };

	for (int i = 0; i < 4; i++) {
		float wa = i == 3 ? fg[3] : fg[i] * fg[3] + bg[i] * (1 - fg[3]);
		float wb = i < 2 ? fminf(1 - fg[i] + 1 - bg[i], 1) : 1 - bg[i];

		if (fabsf(a[i] - wa * 255) > 1.01f ||
		    fabsf(b[i] - wb * 255) > 1.01f ||
		    fabsf(a0[i] - bg[i] * 255) > 1.01f ||
		    fabsf(b0[i] - (1 - bg[i]) * 255) > 1.01f)
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: component %d: %u %u (outside %u %u), "
			         "want %.1f %.1f", c->driver, i, a[i], b[i],
			         a0[i], b0[i], wa * 255, wb * 255);
	}
}

static bool
has_independent_blend(const struct vkh *h)
{
	return h->features.independentBlend;
}

/* ------------------------------------------------------------------ */

GFX_SCENE_TEST(blend_factors, 1, 0, NULL)
GFX_SCENE_TEST(blend_ops, 1, 0, NULL)
GFX_SCENE_TEST(write_mask, 1, 0, NULL)
GFX_SCENE_TEST(dual_source, 1, 0, has_dual_source)
GFX_SCENE_TEST(independent, 1, 0, has_independent_blend)
GFX_SCENE_TEST(logic_ops, 0, 0, has_logic_op)

static const struct vkh_test tests[] = {
	GFX_TEST(blend_factors), GFX_TEST(blend_ops), GFX_TEST(write_mask),
	GFX_TEST(dual_source), GFX_TEST(independent), GFX_TEST(logic_ops),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_blend", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

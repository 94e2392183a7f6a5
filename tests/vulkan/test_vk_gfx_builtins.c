/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_builtins: fragment built-in inputs beyond the basic ones,
 * through the loader with validation on; checked by hand and against a
 * second driver as test_vk_gfx_draw (vkh_gfx.h):
 *
 *   clip_inputs      a fragment shader reads gl_ClipDistance[] (at a
 *                    constant and a dynamic index) and gl_CullDistance[]:
 *                    the vertex stage's values interpolated
 *                    perspective-correct, on a triangle with very
 *                    different w that ClipDistance[1] clips; a triangle
 *                    whose cull distances are all negative draws nothing
 *   sample_builtins  sample shading on (minSampleShading 1) with one
 *                    sample: SampleId 0, SamplePosition (0.5, 0.5),
 *                    SampleMaskIn 1, a Sample-decorated input
 *                    interpolated at the pixel centre, SampleMask output
 *                    0 dropping a fragment
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_clip_fs.spv.h"
#include "gfx_clip_vs.spv.h"
#include "gfx_sample_fs.spv.h"
#include "gfx_smooth_vs.spv.h"

#define CLEAR (-9.0f)

/* x, y (pixels), z, w; four more floats (distances or a colour) */
struct svtx {
	float x, y, z, w;
	float d[4];
};

static const VkClearColorValue clear_value = {
	.float32 = { CLEAR, CLEAR, CLEAR, CLEAR },
};

/* The triangle of both scenes: screen positions and clip w. */
static const float tri_x[3] = { 2, 62, 10 }, tri_y[3] = { 2, 8, 62 };
static const float tri_w[3] = { 1.0f, 4.0f, 0.5f };

/* Perspective-correct weights of pixel (x, y)'s centre; false on or
 * outside the triangle's edges (coverage is tested elsewhere). */
static bool
persp_weights(uint32_t x, uint32_t y, double pl[3])
{
	const double px = x + 0.5, py = y + 0.5;
	double d = (tri_y[1] - tri_y[2]) * (tri_x[0] - tri_x[2]) +
	           (tri_x[2] - tri_x[1]) * (tri_y[0] - tri_y[2]);
	double l[3], s = 0;

	l[0] = ((tri_y[1] - tri_y[2]) * (px - tri_x[2]) +
	        (tri_x[2] - tri_x[1]) * (py - tri_y[2])) / d;
	l[1] = ((tri_y[2] - tri_y[0]) * (px - tri_x[2]) +
	        (tri_x[0] - tri_x[2]) * (py - tri_y[2])) / d;
	l[2] = 1 - l[0] - l[1];
	for (int k = 0; k < 3; k++) {
		if (l[k] < 1e-3)
			return false;
		s += l[k] / tri_w[k];
	}
	for (int k = 0; k < 3; k++)
		pl[k] = l[k] / tri_w[k] / s;
	return true;
}

static float
texf(const struct gfx_out *o, uint32_t x, uint32_t y, uint32_t c)
{
	float f;

	memcpy(&f, gfx_texel(o, x, y) + 4 * c, 4);
	return f;
}

/* Draw the vertices of v (nv of them, triangles) with a pipeline of vs,
 * fs into an RGBA32F SW x SH target cleared to CLEAR. */
static bool
draw_rgba32f(struct gfx_ctx *c, const uint32_t *vs_spv, size_t vs_size,
             const uint32_t *fs_spv, size_t fs_size, float min_sample,
             const struct svtx *v, uint32_t nv, struct gfx_out *o)
{
	const VkFormat fmt = VK_FORMAT_R32G32B32A32_SFLOAT;
	struct { float size[2]; int32_t k; } pc = { { SW, SH }, 1 };
	VkShaderModule vs = gfx_shader(c, vs_spv, vs_size);
	VkShaderModule fs = gfx_shader(c, fs_spv, fs_size);
	struct vkh_buffer vb;
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok = false;

	if (!gfx_image(c, fmt, SW, SH, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
	               &t))
		return false;
	gfx_pipe_init(&p, vs, fs, fmt, SW, SH);
	p.nbindings = 1;
	p.bindings[0] = (VkVertexInputBindingDescription){
		0, sizeof(struct svtx), VK_VERTEX_INPUT_RATE_VERTEX };
	p.nattribs = 2;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0 };
	p.attribs[1] = (VkVertexInputAttributeDescription){
		1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16 };
	p.min_sample_shading = min_sample;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       nv * sizeof(*v), &vb)) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &clear_value, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdPushConstants(cb, gfx_default_layout(c),
		                   VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(pc),
		                   &pc);
		vkCmdDraw(cb, nv, 1, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	return ok;
}

/* ------------------------------------------------------------------ */
/* clip_inputs                                                         */
/* ------------------------------------------------------------------ */

/* distances per vertex: ClipDistance[0] > 0 everywhere, ClipDistance[1]
 * changes sign inside the triangle, CullDistance[0] too (a cull
 * distance only drops a primitive negative at every vertex) */
static const float clip_d[3][3] = {
	{ 1.0f, -0.5f, 3.0f }, { 2.0f, 1.0f, -1.0f }, { 0.5f, 2.0f, 0.0f },
};

static bool
clip_inputs_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct svtx v[6];

	memset(v, 0, sizeof(v));
	for (int k = 0; k < 3; k++) {
		v[k] = (struct svtx){ tri_x[k], tri_y[k], 0.25f, tri_w[k],
		                      { clip_d[k][0], clip_d[k][1],
		                        clip_d[k][2], 0 } };
	}
	/* culled: every cull distance negative */
	v[3] = (struct svtx){ 40, 40, 0.25f, 1, { 1, 1, -1, 0 } };
	v[4] = (struct svtx){ 62, 40, 0.25f, 1, { 1, 1, -2, 0 } };
	v[5] = (struct svtx){ 62, 62, 0.25f, 1, { 1, 1, -0.5f, 0 } };
	return draw_rgba32f(c, gfx_clip_vs_spv, sizeof(gfx_clip_vs_spv),
	                    gfx_clip_fs_spv, sizeof(gfx_clip_fs_spv), 0.0f, v,
	                    6, o);
}

static void
clip_inputs_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t drawn = 0, clipped = 0;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			double pl[3], want[3] = { 0, 0, 0 };

			if (x > y && y > 40 && x < 62)
				for (uint32_t ch = 0; ch < 4; ch++)
					if (texf(o, x, y, ch) != CLEAR)
						vkh_fail(c->h, __FILE__, __LINE__,
						         "%s: culled triangle drawn "
						         "at (%u,%u)", c->driver, x,
						         y);
			if (!persp_weights(x, y, pl))
				continue;
			for (int i = 0; i < 3; i++)
				for (int k = 0; k < 3; k++)
					want[i] += pl[k] * clip_d[k][i];
			if (want[1] < -1e-3) {
				/* clipped by ClipDistance[1] */
				if (texf(o, x, y, 0) != CLEAR)
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: (%u,%u) drawn with "
					         "ClipDistance[1] %g", c->driver,
					         x, y, want[1]);
				clipped++;
				continue;
			}
			if (want[1] < 1e-3)
				continue;
			const double got[4] = {
				texf(o, x, y, 0), texf(o, x, y, 1),
				texf(o, x, y, 2), texf(o, x, y, 3),
			};
			const double exp4[4] = { want[0], want[1], want[2],
			                         want[1] };
			for (int ch = 0; ch < 4; ch++)
				if (fabs(got[ch] - exp4[ch]) > 1e-3)
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: (%u,%u) channel %d = %g, "
					         "want %g", c->driver, x, y, ch,
					         got[ch], exp4[ch]);
			drawn++;
		}
	if (drawn < 200 || clipped < 100)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: %u pixels drawn, %u "
		         "clipped: the scene does not test much", c->driver,
		         drawn, clipped);
}

static bool
clip_supported(const struct vkh *h)
{
	return h->features.shaderClipDistance &&
	       h->features.shaderCullDistance;
}

/* ------------------------------------------------------------------ */
/* sample_builtins                                                     */
/* ------------------------------------------------------------------ */

static bool
sample_builtins_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct svtx v[3];

	/* colour: red 1 at vertex 0 (gfx_smooth_vs: location 0) */
	for (int k = 0; k < 3; k++)
		v[k] = (struct svtx){ tri_x[k], tri_y[k], 0.25f, tri_w[k],
		                      { k == 0, 0, 0, 1 } };
	return draw_rgba32f(c, gfx_smooth_vs_spv, sizeof(gfx_smooth_vs_spv),
	                    gfx_sample_fs_spv, sizeof(gfx_sample_fs_spv), 1.0f,
	                    v, 3, o);
}

static void
sample_builtins_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	uint32_t drawn = 0;

	for (uint32_t y = 0; y < SH; y++)
		for (uint32_t x = 0; x < SW; x++) {
			double pl[3];

			if (!persp_weights(x, y, pl))
				continue;
			const double want[4] = { 0.5, 0.5, 1.0, pl[0] };
			for (int ch = 0; ch < 4; ch++) {
				double got = texf(o, x, y, ch);
				double w = x & 1 ? CLEAR : want[ch];
				if (fabs(got - w) > 1e-3)
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: (%u,%u) channel %d = %g, "
					         "want %g", c->driver, x, y, ch,
					         got, w);
			}
			drawn++;
		}
	if (drawn < 400)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: %u pixels checked",
		         c->driver, drawn);
}

static bool
sample_supported(const struct vkh *h)
{
	return h->features.sampleRateShading;
}

/* ------------------------------------------------------------------ */

/* clip_inputs: the two drivers split the clipped polygon and snap its
 * new vertices differently; near the clip edge their interpolated values
 * differ by ~1e-4 (both within 1e-3 of the exact values, checked). */
GFX_SCENE_TEST(clip_inputs, 1e-3f, 0, clip_supported)
GFX_SCENE_TEST(sample_builtins, 1e-4f, 0, sample_supported)

static const struct vkh_test tests[] = {
	GFX_TEST(clip_inputs),
	GFX_TEST(sample_builtins),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_builtins", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

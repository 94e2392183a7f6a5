/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_vertex: primitive topologies, varying interpolation and
 * vertex formats, through the loader with validation on; checked by hand
 * and against a second driver as test_vk_gfx_draw (vkh_gfx.h):
 *
 *   topologies     points, lines, line strips, triangle strips, fans
 *   interpolation  perspective-correct and noperspective colours of a
 *                  triangle with very different w (within 2/255 of the
 *                  exact value, 1/255 of the other driver)
 *   vertex_formats every mandatory float-class VERTEX_BUFFER format, 16
 *                  values each (a few converted by hand, all against the
 *                  other driver within 1/255)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_attr_vs.spv.h"
#include "gfx_smooth_fs.spv.h"
#include "gfx_smooth_vs.spv.h"

/* ------------------------------------------------------------------ */
/* topologies                                                          */
/* ------------------------------------------------------------------ */

static bool
topologies_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static const VkPrimitiveTopology topo[] = {
		VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
		VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
		VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,
		VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
		VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
	};
	const float r[4] = { 1, 0, 0, 1 }, g[4] = { 0, 1, 0, 1 },
	            b[4] = { 0, 0, 1, 1 }, y[4] = { 1, 1, 0, 1 },
	            m[4] = { 1, 0, 1, 1 };
#define V(X, Y, C) { X, Y, 0, C[0], C[1], C[2], C[3] }
	const struct vtx pts[] = { V(2.5f, 2.5f, r), V(5.5f, 2.5f, r),
	                           V(60.5f, 60.5f, r) };
	/* Axis-aligned lines through pixel centres. */
	const struct vtx lines[] = { V(2.5f, 8.5f, g), V(30.5f, 8.5f, g),
	                             V(40.5f, 2.5f, g), V(40.5f, 20.5f, g) };
	const struct vtx lstrip[] = { V(2.5f, 12.5f, b), V(20.5f, 12.5f, b),
	                              V(20.5f, 30.5f, b) };
	const struct vtx tstrip[] = { V(24, 34, y), V(40, 34, y), V(24, 44, y),
	                              V(40, 44, y), V(24, 54, y) };
	const struct vtx tfan[] = { V(50, 40, m), V(44, 34, m), V(56, 34, m),
	                            V(56, 46, m), V(44, 46, m), V(44, 34, m) };
#undef V
	const struct { const struct vtx *v; uint32_t n; } prims[] = {
		{ pts, 3 }, { lines, 4 }, { lstrip, 3 }, { tstrip, 5 },
		{ tfan, 6 },
	};
	struct vkh_buffer vb[5];
	VkPipeline pipe[5] = { 0 };
	struct gfx_image t;
	struct gfx_pipe p;
	VkCommandBuffer cb;
	VkDeviceSize off = 0;
	bool ok = true;

	if (!px_target(c, &t) || !px_pipe_init(c, &p))
		return false;
	memset(vb, 0, sizeof(vb));
	for (int i = 0; i < 5 && ok; i++) {
		p.topology = topo[i];
		pipe[i] = gfx_pipeline(c, &p);
		ok = pipe[i] &&
		     gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
		                prims[i].v, prims[i].n * sizeof(struct vtx),
		                &vb[i]);
	}
	if (ok) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		px_push(c, cb, 0, 0);
		for (int i = 0; i < 5; i++) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  pipe[i]);
			vkCmdBindVertexBuffers(cb, 0, 1, &vb[i].buffer, &off);
			vkCmdDraw(cb, prims[i].n, 1, 0, 0);
		}
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	}
	for (int i = 0; i < 5; i++) {
		if (vb[i].buffer)
			vkh_buffer_destroy(c->d, &vb[i]);
		vkDestroyPipeline(c->dev, pipe[i], NULL);
	}
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
topologies_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	/* Points: exactly their pixels. */
	if (!gfx_rgba_is(o, 2, 2, 255, 0, 0, 255) ||
	    !gfx_rgba_is(o, 5, 2, 255, 0, 0, 255) ||
	    !gfx_rgba_is(o, 60, 60, 255, 0, 0, 255) ||
	    !gfx_rgba_is(o, 3, 2, 0, 0, 0, 0))
		vkh_fail(c->h, __FILE__, __LINE__, "%s: points", c->driver);
	/* Line interiors (the ends are the rasterization rule's). */
	for (uint32_t x = 4; x < 29; x++)
		if (!gfx_rgba_is(o, x, 8, 0, 255, 0, 255))
			vkh_fail(c->h, __FILE__, __LINE__, "%s: line at %u,8",
			         c->driver, x);
	for (uint32_t y = 4; y < 19; y++)
		if (!gfx_rgba_is(o, 40, y, 0, 255, 0, 255) ||
		    !gfx_rgba_is(o, 41, y, 0, 0, 0, 0))
			vkh_fail(c->h, __FILE__, __LINE__, "%s: line at 40,%u",
			         c->driver, y);
	for (uint32_t y = 14; y < 29; y++)
		if (!gfx_rgba_is(o, 20, y, 0, 0, 255, 255))
			vkh_fail(c->h, __FILE__, __LINE__, "%s: strip at 20,%u",
			         c->driver, y);
	/* Triangle strip: [24,40) x [34,44) and the lower triangle. */
	expect_rect(c, o, 24, 34, 40, 44, (const uint8_t[]){ 255, 255, 0, 255 },
	            NULL);
	/* Fan: the square [44,56) x [34,46). */
	expect_rect(c, o, 44, 34, 56, 46, (const uint8_t[]){ 255, 0, 255, 255 },
	            NULL);
}

/* ------------------------------------------------------------------ */
/* interpolation                                                       */
/* ------------------------------------------------------------------ */

struct svtx {
	float x, y, z, w;
	float r, g, b, a;
};

static bool
interpolation_render(struct gfx_ctx *c, struct gfx_out *o)
{
	/* One triangle with very different w: perspective matters. */
	const struct svtx v[3] = {
		{ 2, 2, 0.5f, 1.0f, 1, 0, 0, 1 },
		{ 62, 8, 0.5f, 4.0f, 0, 1, 0, 1 },
		{ 10, 62, 0.5f, 0.5f, 0, 0, 1, 1 },
	};
	struct vkh_buffer vb;
	struct gfx_image t;
	struct gfx_pipe p;
	VkShaderModule vs, fs;
	VkPipeline pipe;
	VkDeviceSize off = 0;
	VkCommandBuffer cb;
	bool ok = false;
	struct { float size[2]; int32_t linear; } pc = { { SW, SH }, 0 };

	vs = gfx_shader(c, gfx_smooth_vs_spv, sizeof(gfx_smooth_vs_spv));
	fs = gfx_shader(c, gfx_smooth_fs_spv, sizeof(gfx_smooth_fs_spv));
	if (!gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, SW, 2 * SH, 1,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, &t))
		return false;
	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.nbindings = 1;
	p.bindings[0] = (VkVertexInputBindingDescription){
		0, sizeof(struct svtx), VK_VERTEX_INPUT_RATE_VERTEX };
	p.nattribs = 2;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0 };
	p.attribs[1] = (VkVertexInputAttributeDescription){
		1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16 };
	p.ndynamic = 1;
	p.dynamic[0] = VK_DYNAMIC_STATE_VIEWPORT;
	p.scissors[0].extent.height = 2 * SH;
	pipe = gfx_pipeline(c, &p);
	if (pipe && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v,
	                       sizeof(v), &vb)) {
		VkViewport top = { 0, 0, SW, SH, 0, 1 };
		VkViewport bottom = { 0, SH, SW, SH, 0, 1 };

		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdPushConstants(cb, gfx_default_layout(c),
		                   VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(pc),
		                   &pc);
		vkCmdSetViewport(cb, 0, 1, &top);
		vkCmdDraw(cb, 3, 1, 0, 0);
		pc.linear = 1;
		vkCmdPushConstants(cb, gfx_default_layout(c),
		                   VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(pc),
		                   &pc);
		vkCmdSetViewport(cb, 0, 1, &bottom);
		vkCmdDraw(cb, 3, 1, 0, 0);
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

/* Barycentrics of pixel centre (px, py) in the screen triangle. */
static void
bary(float px, float py, float l[3])
{
	const float x[3] = { 2, 62, 10 }, y[3] = { 2, 8, 62 };
	float d = (y[1] - y[2]) * (x[0] - x[2]) + (x[2] - x[1]) * (y[0] - y[2]);

	l[0] = ((y[1] - y[2]) * (px - x[2]) + (x[2] - x[1]) * (py - y[2])) / d;
	l[1] = ((y[2] - y[0]) * (px - x[2]) + (x[0] - x[2]) * (py - y[2])) / d;
	l[2] = 1 - l[0] - l[1];
}

static void
interpolation_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const float w[3] = { 1.0f, 4.0f, 0.5f };
	const uint32_t probes[][2] = { { 10, 10 }, { 30, 12 }, { 12, 40 },
	                               { 20, 20 }, { 40, 15 } };

	for (uint32_t i = 0; i < 5; i++) {
		float l[3], pl[3], s = 0;

		bary(probes[i][0] + 0.5f, probes[i][1] + 0.5f, l);
		for (int k = 0; k < 3; k++)
			s += l[k] / w[k];
		for (int k = 0; k < 3; k++)
			pl[k] = l[k] / w[k] / s;
		/* Top half: perspective-correct; bottom: linear. */
		for (int half = 0; half < 2; half++) {
			const float *b = half ? l : pl;
			const uint8_t *t = gfx_texel(o, probes[i][0],
			                             probes[i][1] + half * SH);

			for (int k = 0; k < 3; k++)
				if (fabsf(t[k] - b[k] * 255) > 2.0f)
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: %s (%u,%u) channel %d = %u, "
					         "want %.1f", c->driver,
					         half ? "noperspective" :
					                "perspective",
					         probes[i][0], probes[i][1], k,
					         t[k], b[k] * 255);
		}
	}
}

/* ------------------------------------------------------------------ */
/* vertex_formats                                                      */
/* ------------------------------------------------------------------ */

static const struct {
	VkFormat format;
	uint32_t size;          /* bytes of one attribute */
	float scale, bias;      /* to 0..1 */
} vformats[] = {
	{ VK_FORMAT_R8_UNORM, 1, 1, 0 },
	{ VK_FORMAT_R8_SNORM, 1, 0.5f, 0.5f },
	{ VK_FORMAT_R8G8_UNORM, 2, 1, 0 },
	{ VK_FORMAT_R8G8_SNORM, 2, 0.5f, 0.5f },
	{ VK_FORMAT_R8G8B8A8_UNORM, 4, 1, 0 },
	{ VK_FORMAT_R8G8B8A8_SNORM, 4, 0.5f, 0.5f },
	{ VK_FORMAT_B8G8R8A8_UNORM, 4, 1, 0 },
	{ VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, 1, 0 },
	{ VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4, 0.5f, 0.5f },
	{ VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 1, 0 },
	{ VK_FORMAT_R16_UNORM, 2, 1, 0 },
	{ VK_FORMAT_R16_SNORM, 2, 0.5f, 0.5f },
	{ VK_FORMAT_R16_SFLOAT, 2, 1, 0 },
	{ VK_FORMAT_R16G16_UNORM, 4, 1, 0 },
	{ VK_FORMAT_R16G16_SNORM, 4, 0.5f, 0.5f },
	{ VK_FORMAT_R16G16_SFLOAT, 4, 1, 0 },
	{ VK_FORMAT_R16G16B16A16_UNORM, 8, 1, 0 },
	{ VK_FORMAT_R16G16B16A16_SNORM, 8, 0.5f, 0.5f },
	{ VK_FORMAT_R16G16B16A16_SFLOAT, 8, 1, 0 },
	{ VK_FORMAT_R32_SFLOAT, 4, 1, 0 },
	{ VK_FORMAT_R32G32_SFLOAT, 8, 1, 0 },
	{ VK_FORMAT_R32G32B32_SFLOAT, 12, 1, 0 },
	{ VK_FORMAT_R32G32B32A32_SFLOAT, 16, 1, 0 },
};
#define NVFORMATS (sizeof(vformats) / sizeof(vformats[0]))
#define NVALUES 16

/* Deterministic attribute bytes: value i of format f. Floats get exact
 * values in [0, 1]. */
static void
attr_bytes(uint32_t f, uint32_t i, uint8_t *out)
{
	VkFormat fmt = vformats[f].format;
	uint32_t n = vformats[f].size;

	for (uint32_t k = 0; k < n; k++)
		out[k] = (uint8_t)vkh_pattern(f + 1, i * 16 + k);
	if (fmt == VK_FORMAT_R32_SFLOAT || fmt == VK_FORMAT_R32G32_SFLOAT ||
	    fmt == VK_FORMAT_R32G32B32_SFLOAT ||
	    fmt == VK_FORMAT_R32G32B32A32_SFLOAT)
		for (uint32_t k = 0; k < n / 4; k++) {
			float v = (float)((i * 7 + k * 3) % 17) / 16.0f;

			memcpy(out + 4 * k, &v, 4);
		}
	if (fmt == VK_FORMAT_R16_SFLOAT || fmt == VK_FORMAT_R16G16_SFLOAT ||
	    fmt == VK_FORMAT_R16G16B16A16_SFLOAT)
		for (uint32_t k = 0; k < n / 2; k++) {
			/* 0.25, 0.5, 0.75 and 1.0 as half floats. */
			static const uint16_t table[4] = { 0x3400, 0x3800,
			                                   0x3a00, 0x3c00 };
			uint16_t h = table[(i + k) & 3];

			memcpy(out + 2 * k, &h, 2);
		}
}

static uint8_t vf_bytes[NVFORMATS][NVALUES][16];

static bool
vertex_formats_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_image t;
	struct gfx_pipe p;
	VkShaderModule vs, fs;
	VkPipeline pipe[NVFORMATS] = { 0 };
	struct vkh_buffer pos, attr;
	static float xy[NVFORMATS][NVALUES][2];
	VkCommandBuffer cb;
	bool ok = true;

	vs = gfx_shader(c, gfx_attr_vs_spv, sizeof(gfx_attr_vs_spv));
	fs = flat_fs(c);
	if (!px_target(c, &t))
		return false;
	/* Format f's values on row f, one point per value. */
	for (uint32_t f = 0; f < NVFORMATS; f++)
		for (uint32_t i = 0; i < NVALUES; i++) {
			xy[f][i][0] = i + 0.5f;
			xy[f][i][1] = f + 0.5f;
			attr_bytes(f, i, vf_bytes[f][i]);
		}
	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	p.nbindings = 2;
	p.bindings[0] = (VkVertexInputBindingDescription){ 0, 8, 0 };
	p.bindings[1] = (VkVertexInputBindingDescription){ 1, 16, 0 };
	p.nattribs = 2;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32G32_SFLOAT, 0 };
	for (uint32_t f = 0; f < NVFORMATS && ok; f++) {
		p.attribs[1] = (VkVertexInputAttributeDescription){
			1, 1, vformats[f].format, 0 };
		pipe[f] = gfx_pipeline(c, &p);
		ok = pipe[f] != VK_NULL_HANDLE;
	}
	ok = ok && gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, xy,
	                      sizeof(xy), &pos) &&
	     gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, vf_bytes,
	                sizeof(vf_bytes), &attr);
	if (ok) {
		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		for (uint32_t f = 0; f < NVFORMATS; f++) {
			const float sc = vformats[f].scale, bi = vformats[f].bias;
			struct { float size[2], pad[2], scale[4], bias[4]; } pc = {
				{ SW, SH }, { 0, 0 }, { sc, sc, sc, sc },
				{ bi, bi, bi, bi },
			};
			VkBuffer bufs[2] = { pos.buffer, attr.buffer };
			VkDeviceSize offs[2] = {
				(VkDeviceSize)f * sizeof(xy[0]),
				(VkDeviceSize)f * sizeof(vf_bytes[0]) };

			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS,
			                  pipe[f]);
			vkCmdPushConstants(cb, gfx_default_layout(c),
			                   VK_SHADER_STAGE_VERTEX_BIT |
			                   VK_SHADER_STAGE_FRAGMENT_BIT, 0,
			                   sizeof(pc), &pc);
			vkCmdBindVertexBuffers(cb, 0, 2, bufs, offs);
			vkCmdDraw(cb, NVALUES, 1, 0, 0);
		}
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &pos);
		vkh_buffer_destroy(c->d, &attr);
	}
	for (uint32_t f = 0; f < NVFORMATS; f++)
		vkDestroyPipeline(c->dev, pipe[f], NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	return ok;
}

/* The spec's conversions of a few formats, by hand: component k of
 * value i of format f mapped to 0..1, or -1 if not checked here. */
static float
vf_expect(uint32_t f, uint32_t i, uint32_t k)
{
	const uint8_t *b = vf_bytes[f][i];
	uint16_t u16;
	int16_t s16;
	float x;

	switch (vformats[f].format) {
	case VK_FORMAT_R8G8B8A8_UNORM:
		return b[k] / 255.0f;
	case VK_FORMAT_R8G8B8A8_SNORM:
		x = (int8_t)b[k] / 127.0f;
		return (x < -1 ? -1 : x) * 0.5f + 0.5f;
	case VK_FORMAT_R16G16_UNORM:
		if (k > 1)
			return k == 2 ? 0 : 1;
		memcpy(&u16, b + 2 * k, 2);
		return u16 / 65535.0f;
	case VK_FORMAT_R16_SNORM:
		if (k > 0)
			return k == 3 ? 1 : 0.5f;
		memcpy(&s16, b, 2);
		x = s16 / 32767.0f;
		return (x < -1 ? -1 : x) * 0.5f + 0.5f;
	case VK_FORMAT_R32G32B32_SFLOAT:
		if (k == 3)
			return 1;
		memcpy(&x, b + 4 * k, 4);
		return x;
	case VK_FORMAT_B8G8R8A8_UNORM:
		return b[k == 3 ? 3 : 2 - k] / 255.0f;
	default:
		return -1;
	}
}

static void
vertex_formats_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t f = 0; f < NVFORMATS; f++)
		for (uint32_t i = 0; i < NVALUES; i++)
			for (uint32_t k = 0; k < 4; k++) {
				float want = vf_expect(f, i, k);
				uint8_t got = gfx_texel(o, i, f)[k];

				if (want >= 0 && fabsf(got - want * 255) > 1.0f)
					vkh_fail(c->h, __FILE__, __LINE__,
					         "%s: format %d value %u "
					         "component %u = %u, want %.2f",
					         c->driver, vformats[f].format, i,
					         k, got, want * 255);
			}
}

/* ------------------------------------------------------------------ */

GFX_SCENE_TEST(topologies, 0, 0, NULL)
GFX_SCENE_TEST(interpolation, 1, 0, NULL)
GFX_SCENE_TEST(vertex_formats, 1, 0, NULL)

static const struct vkh_test tests[] = {
	GFX_TEST(topologies),
	GFX_TEST(interpolation),
	GFX_TEST(vertex_formats),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_vertex", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

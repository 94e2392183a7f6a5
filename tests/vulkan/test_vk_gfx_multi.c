/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_multi: VK_EXT_multi_draw and VK_EXT_vertex_attribute_divisor
 * through the loader with validation on, compared with lavapipe.
 *
 * multi_draw: vkCmdDrawMultiEXT and vkCmdDrawMultiIndexedEXT of 300
 * one-point draws (the ICD splits them over several DRAW_INDIRECT
 * packets, 192 commands each: DrawIndex must go on counting across
 * them), two instances each, an element stride larger than the struct,
 * and the indexed form's pVertexOffset override. Each point lands at its
 * DrawIndex and carries DrawIndex and VertexIndex in its colour.
 * divisor, divisor_zero: an instance-rate attribute with divisor 3 over
 * 6 instances, and divisor 0 (held at the first instance's element).
 */
#include <stdio.h>
#include <string.h>

#include "gfx_scene_util.h"
#include "gfx_multi_vs.spv.h"

#define NDRAWS 300u

static VkPhysicalDeviceMultiDrawFeaturesEXT multi_features = {
	.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT,
};
static VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor_features = {
	.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
};

static bool
has_ext(const struct vkh *h, const char *name)
{
	VkExtensionProperties e[256];
	uint32_t n = 256;

	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, e);
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(e[i].extensionName, name))
			return true;
	return false;
}

static bool
supported(const struct vkh *h)
{
	return has_ext(h, VK_EXT_MULTI_DRAW_EXTENSION_NAME) &&
	       has_ext(h, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
}

/* Enable both extensions and their features when the driver has them. */
static void
device_hook(struct vkh *h, VkDeviceCreateInfo *dci)
{
	static const char *names[34];
	uint32_t n = dci->enabledExtensionCount;

	if (!supported(h) || n + 2 > 34)
		return;
	for (uint32_t i = 0; i < n; i++)
		names[i] = dci->ppEnabledExtensionNames[i];
	names[n++] = VK_EXT_MULTI_DRAW_EXTENSION_NAME;
	names[n++] = VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME;
	dci->ppEnabledExtensionNames = names;
	dci->enabledExtensionCount = n;
	multi_features.multiDraw = VK_TRUE;
	divisor_features.vertexAttributeInstanceRateDivisor = VK_TRUE;
	divisor_features.vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
	multi_features.pNext = &divisor_features;
	divisor_features.pNext = (void *)dci->pNext;
	dci->pNext = &multi_features;
}

/* The multi-draw pipeline: per-instance float at location 0 from
 * binding 0 (divisor div; 1 without a divisor struct). */
static VkPipeline
multi_pipeline(struct gfx_ctx *c, VkShaderModule vs, VkShaderModule fs,
               const uint32_t *div)
{
	VkVertexInputBindingDivisorDescriptionEXT d = { 0, div ? *div : 1 };
	VkPipelineVertexInputDivisorStateCreateInfoEXT ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT,
		.vertexBindingDivisorCount = 1,
		.pVertexBindingDivisors = &d,
	};
	struct gfx_pipe p;

	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
	p.nbindings = 1;
	p.bindings[0] = (VkVertexInputBindingDescription){
		0, 4, VK_VERTEX_INPUT_RATE_INSTANCE };
	p.nattribs = 1;
	p.attribs[0] = (VkVertexInputAttributeDescription){
		0, 0, VK_FORMAT_R32_SFLOAT, 0 };
	p.vertex_input_next = div ? &ds : NULL;
	return gfx_pipeline(c, &p);
}

/* ------------------------------------------------------------------ */
/* multi_draw                                                          */
/* ------------------------------------------------------------------ */

/* Elements with padding, as applications with their own structs do. */
struct draw_elem {
	VkMultiDrawInfoEXT d;
	uint32_t pad;
};
struct indexed_elem {
	VkMultiDrawIndexedInfoEXT d;
	uint32_t pad[2];
};

static bool
multi_draw_render(struct gfx_ctx *c, struct gfx_out *o)
{
	static struct draw_elem de[NDRAWS];
	static struct indexed_elem ie[NDRAWS];
	static uint32_t idx[NDRAWS];
	const float inst[2] = { 100, 200 };
	PFN_vkCmdDrawMultiEXT draw_multi = (PFN_vkCmdDrawMultiEXT)
		vkGetDeviceProcAddr(c->dev, "vkCmdDrawMultiEXT");
	PFN_vkCmdDrawMultiIndexedEXT draw_multi_indexed =
		(PFN_vkCmdDrawMultiIndexedEXT)
		vkGetDeviceProcAddr(c->dev, "vkCmdDrawMultiIndexedEXT");
	const int32_t voff = 7;
	struct vkh_buffer vb, ib;
	struct gfx_image t;
	VkShaderModule vs, fs;
	VkPipeline pipe;
	VkCommandBuffer cb;
	bool ok = false;

	if (!draw_multi || !draw_multi_indexed) {
		vkh_fail(c->h, __FILE__, __LINE__, "%s: no vkCmdDrawMulti*EXT",
		         c->driver);
		return false;
	}
	/* Draw i: vertex 3 * i (non-indexed); index i holds i, drawn at
	 * first index i with the overriding vertex offset 7. */
	for (uint32_t i = 0; i < NDRAWS; i++) {
		de[i].d = (VkMultiDrawInfoEXT){ 3 * i, 1 };
		ie[i].d = (VkMultiDrawIndexedInfoEXT){ i, 1, 1000 };
		idx[i] = i;
	}
	vs = gfx_shader(c, gfx_multi_vs_spv, sizeof(gfx_multi_vs_spv));
	fs = flat_fs(c);
	if (!px_target(c, &t))
		return false;
	pipe = multi_pipeline(c, vs, fs, NULL);
	if (pipe &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, inst, sizeof(inst),
	               &vb) &&
	    gfx_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof(idx),
	               &ib)) {
		VkDeviceSize zero = 0;

		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &zero);
		/* Instances 0 and 1 (rows 0..4 and 8..12). */
		draw_multi(cb, NDRAWS, &de[0].d, 2, 0, sizeof(de[0]));
		/* One instance from firstInstance 1: rows 8..12 are
		 * drawn again, now with VertexIndex i + 7. */
		vkCmdBindIndexBuffer(cb, ib.buffer, 0, VK_INDEX_TYPE_UINT32);
		draw_multi_indexed(cb, NDRAWS, &ie[0].d, 1, 1, sizeof(ie[0]),
		                   &voff);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
		vkh_buffer_destroy(c->d, &vb);
		vkh_buffer_destroy(c->d, &ib);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
expect_texel(struct gfx_ctx *c, const struct gfx_out *o, uint32_t x,
             uint32_t y, const uint8_t w[4])
{
	const uint8_t *t = gfx_texel(o, x, y);

	if (memcmp(t, w, 4))
		vkh_fail(c->h, __FILE__, __LINE__, "%s: (%u,%u) = %u %u %u %u, "
		         "want %u %u %u %u", c->driver, x, y, t[0], t[1], t[2],
		         t[3], w[0], w[1], w[2], w[3]);
}

static void
multi_draw_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t i = 0; i < NDRAWS; i++) {
		const uint32_t x = i % 64, y = i / 64;
		/* Instance 0 of the non-indexed draw: vertex 3i. */
		const uint8_t a[4] = { i & 255, i >> 8, (3 * i) & 255, 100 };
		/* Instance 1 overwritten by the indexed draw (first
		 * instance 1): vertex index i + 7. */
		const uint8_t b[4] = { i & 255, i >> 8, (i + 7) & 255, 200 };

		expect_texel(c, o, x, y, a);
		expect_texel(c, o, x, y + 8, b);
	}
}

/* ------------------------------------------------------------------ */
/* divisor                                                             */
/* ------------------------------------------------------------------ */

/* Draw a multi-draw of ndraws one-point draws, instances from first,
 * with the instanced attribute at divisor div. */
static bool
divisor_draw(struct gfx_ctx *c, struct gfx_out *o, uint32_t div,
             uint32_t ndraws, uint32_t instances, uint32_t first)
{
	const float inst[4] = { 10, 20, 30, 40 };
	const VkMultiDrawInfoEXT draws[2] = { { 0, 1 }, { 0, 1 } };
	PFN_vkCmdDrawMultiEXT draw_multi = (PFN_vkCmdDrawMultiEXT)
		vkGetDeviceProcAddr(c->dev, "vkCmdDrawMultiEXT");
	struct vkh_buffer vb;
	struct gfx_image t;
	VkShaderModule vs, fs;
	VkPipeline pipe;
	VkCommandBuffer cb;
	bool ok = false;

	vs = gfx_shader(c, gfx_multi_vs_spv, sizeof(gfx_multi_vs_spv));
	fs = flat_fs(c);
	if (!px_target(c, &t))
		return false;
	pipe = multi_pipeline(c, vs, fs, &div);
	if (pipe && draw_multi &&
	    gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, inst, sizeof(inst),
	               &vb)) {
		VkDeviceSize zero = 0;

		cb = gfx_begin(c);
		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		px_push(c, cb, 0, 0);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &zero);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		draw_multi(cb, ndraws, draws, instances, first,
		           sizeof(draws[0]));
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

/* Divisor 3, instances 1..6 (first instance 1): the attribute's element
 * is 1 + (i - 1) / 3, so 1, 1, 1, 2, 2, 2. */
static bool
divisor_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return divisor_draw(c, o, 3, 1, 6, 1);
}

static void
divisor_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	static const uint8_t element[4] = { 10, 20, 30, 40 };

	for (uint32_t i = 1; i <= 6; i++) {
		const uint8_t w[4] = { 0, 0, 0, element[1 + (i - 1) / 3] };
		expect_texel(c, o, 0, 8 * i, w);
	}
}

/* Divisor 0, instances 2..5 of two draws: every instance reads the
 * first instance's element (30). */
static bool
divisor_zero_render(struct gfx_ctx *c, struct gfx_out *o)
{
	return divisor_draw(c, o, 0, 2, 4, 2);
}

static void
divisor_zero_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	for (uint32_t d = 0; d < 2; d++)
		for (uint32_t i = 2; i <= 5; i++) {
			const uint8_t w[4] = { (uint8_t)d, 0, 0, 30 };
			expect_texel(c, o, d, 8 * i, w);
		}
}

/* ------------------------------------------------------------------ */

GFX_SCENE_TEST(multi_draw, 0, 0, supported)
GFX_SCENE_TEST(divisor, 0, 0, supported)
GFX_SCENE_TEST(divisor_zero, 0, 0, supported)

static const struct vkh_test tests[] = {
	GFX_TEST(multi_draw),
	GFX_TEST(divisor),
	GFX_TEST(divisor_zero),
};

int
main(int argc, char **argv)
{
	vkh_device_hook = device_hook;
	return vkh_run_tests(argc, argv, "test_vk_gfx_multi", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

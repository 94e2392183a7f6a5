/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_layer: Layer and ViewportIndex written by a vertex shader
 * (shaderOutputLayer, shaderOutputViewportIndex; the
 * VK_EXT_shader_viewport_index_layer capabilities), through the loader
 * with validation on, compared with lavapipe. Two instances of a
 * full-viewport quad render into a 2-layer target: instance 0 to layer
 * 0 through viewport 0 (the whole target), instance 1 to layer 1 through
 * viewport 1 (the right half only). Layer 0 must be red everywhere and
 * layer 1 green on the right half, untouched on the left: a driver that
 * ignored either output would draw both quads into layer 0 or fill all
 * of layer 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"
#include "gfx_layer_vs.spv.h"

static bool
supported(const struct vkh *h)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};

	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	return f12.shaderOutputLayer && f12.shaderOutputViewportIndex &&
	       f2.features.multiViewport;
}

/* Turn the two features on in the harness's Vulkan 1.2 struct. */
static void
device_hook(struct vkh *h, VkDeviceCreateInfo *dci)
{
	if (!supported(h))
		return;
	for (const VkBaseInStructure *s = dci->pNext; s; s = s->pNext)
		if (s->sType ==
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
			VkPhysicalDeviceVulkan12Features *f = (void *)s;

			f->shaderOutputLayer = VK_TRUE;
			f->shaderOutputViewportIndex = VK_TRUE;
		}
}

static bool
layers_render(struct gfx_ctx *c, struct gfx_out *o)
{
	struct gfx_out o0 = { 0 };
	struct gfx_image t;
	struct gfx_pipe p;
	VkShaderModule vs, fs;
	VkPipeline pipe;
	bool ok = false;

	vs = gfx_shader(c, gfx_layer_vs_spv, sizeof(gfx_layer_vs_spv));
	fs = flat_fs(c);
	if (!gfx_image(c, VK_FORMAT_R8G8B8A8_UNORM, SW, SH, 2,
	               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	               VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &t))
		return false;
	gfx_pipe_init(&p, vs, fs, VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	p.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	p.nviewports = 2;
	p.viewports[1] = (VkViewport){ SW / 2, 0, SW / 2, SH, 0, 1 };
	p.scissors[1] = p.scissors[0];
	pipe = gfx_pipeline(c, &p);
	if (pipe) {
		const VkRenderingAttachmentInfo ca = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
			.imageView = t.view,
			.imageLayout = VK_IMAGE_LAYOUT_GENERAL,
			.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
			.clearValue = { .color = black },
		};
		const VkRenderingInfo ri = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
			.renderArea = { { 0, 0 }, { SW, SH } },
			.layerCount = 2,
			.colorAttachmentCount = 1,
			.pColorAttachments = &ca,
		};
		VkCommandBuffer cb = gfx_begin(c);

		vkCmdBeginRendering(cb, &ri);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdDraw(cb, 4, 2, 0, 0);
		vkCmdEndRendering(cb);
		ok = gfx_submit(c, cb) &&
		     gfx_read_layer(c, &t, NULL, 0, &o0) &&
		     gfx_read_layer(c, &t, NULL, 1, o);
		if (ok) {
			const uint8_t red[4] = { 255, 0, 0, 255 };

			expect_rect(c, &o0, 0, 0, SW, SH, red, NULL);
		}
		free(o0.color);
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, vs, NULL);
	vkDestroyShaderModule(c->dev, fs, NULL);
	gfx_image_destroy(c, &t);
	return ok;
}

static void
layers_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint8_t green[4] = { 0, 255, 0, 255 };

	expect_rect(c, o, SW / 2, 0, SW, SH, green, zero4);
}

GFX_SCENE_TEST(layers, 0, 0, supported)

static const struct vkh_test tests[] = {
	GFX_TEST(layers),
};

int
main(int argc, char **argv)
{
	vkh_device_hook = device_hook;
	return vkh_run_tests(argc, argv, "test_vk_gfx_layer", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

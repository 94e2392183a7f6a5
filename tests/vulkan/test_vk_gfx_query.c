/* SPDX-License-Identifier: MIT */
/*
 * test_vk_gfx_query: occlusion queries through the loader with
 * validation on; checked by hand and against a second driver:
 *
 *   occlusion   a precise query counts exactly the samples of a quad
 *               (512), one behind the stored depth counts 0, a
 *               non-precise one is non-zero, a query over two draws
 *               sums them, one begun in the primary counts a secondary's
 *               draws (inheritedQueries); results read with
 *               vkGetQueryPoolResults (64-bit, WAIT) and copied with
 *               vkCmdCopyQueryPoolResults (32-bit with availability)
 *   shader_stores vertex and fragment shaders writing and counting into a
 *               storage buffer (vertexPipelineStoresAndAtomics,
 *               fragmentStoresAndAtomics): every vertex once, every
 *               covered pixel once (helper invocations store nothing)
 */
#include <stdlib.h>
#include <string.h>

#include "gfx_scene_util.h"

#include "gfx_store_fs.spv.h"
#include "gfx_store_vs.spv.h"

#define NQ 5

static bool
occlusion_render(struct gfx_ctx *c, struct gfx_out *o)
{
	const float red[4] = { 1, 0, 0, 1 };
	struct vtx v[30];
	struct gfx_image t, ds;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 }, res = { 0 };
	VkQueryPool pool = VK_NULL_HANDLE;
	VkCommandBuffer sec = VK_NULL_HANDLE;
	const bool inherited = c->h->features.inheritedQueries;
	bool ok = false;

	quad(v, 8, 8, 40, 24, 0.5f, red);         /* 512 samples */
	quad(v + 6, 0, 0, 64, 64, 0.9f, red);      /* behind the 0.6 */
	quad(v + 12, 30, 30, 50, 40, 0.1f, red);   /* 200 */
	quad(v + 18, 0, 50, 10, 60, 0.1f, red);    /* 100 */
	quad(v + 24, 50, 0, 58, 8, 0.1f, red);     /* 64 */
	VkQueryPoolCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_OCCLUSION, .queryCount = NQ,
	};
	if (!px_target(c, &t) ||
	    !gfx_image(c, VK_FORMAT_D32_SFLOAT, SW, SH, 1,
	               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &ds) ||
	    !px_pipe_init(c, &p))
		return false;
	p.depth_format = VK_FORMAT_D32_SFLOAT;
	p.ds.depthTestEnable = VK_TRUE;
	p.ds.depthCompareOp = VK_COMPARE_OP_LESS;
	pipe = gfx_pipeline(c, &p);
	if (!pipe || vkCreateQueryPool(c->dev, &qci, NULL, &pool) !=
	    VK_SUCCESS ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	                &vb) ||
	    vkh_buffer_create(c->h, c->d, NQ * 8,
	                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                      VKH_MEM_READBACK, -1, &res) != VK_SUCCESS)
		goto out;
	VkDeviceSize off = 0;
	if (inherited) {
		VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
		VkCommandBufferInheritanceRenderingInfo iri = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
			.colorAttachmentCount = 1,
			.pColorAttachmentFormats = &fmt,
			.depthAttachmentFormat = VK_FORMAT_D32_SFLOAT,
			.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
		};
		VkCommandBufferInheritanceInfo inh = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
			.pNext = &iri, .occlusionQueryEnable = VK_TRUE,
			.queryFlags = VK_QUERY_CONTROL_PRECISE_BIT,
		};
		VkCommandBufferBeginInfo sbi = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
			.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
			.pInheritanceInfo = &inh,
		};
		VkCommandBufferAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
			.commandPool = c->pool,
			.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
			.commandBufferCount = 1,
		};

		if (vkAllocateCommandBuffers(c->dev, &ai, &sec) != VK_SUCCESS)
			goto out;
		vkBeginCommandBuffer(sec, &sbi);
		vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		px_push(c, sec, 0, 0);
		vkCmdBindVertexBuffers(sec, 0, 1, &vb.buffer, &off);
		vkCmdDraw(sec, 6, 1, 24, 0);
		vkEndCommandBuffer(sec);
	}
	VkRenderingAttachmentInfo ca = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = t.view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingAttachmentInfo da = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = ds.view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue = { .depthStencil = { 0.6f, 0 } },
	};
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { SW, SH } }, .layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &ca,
		.pDepthAttachment = &da,
	};
	VkCommandBuffer cb = gfx_begin(c);

	vkCmdResetQueryPool(cb, pool, 0, NQ);
	vkCmdBeginRendering(cb, &ri);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
	px_push(c, cb, 0, 0);
	vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
	/* 0: the 512-sample quad, precise. */
	vkCmdBeginQuery(cb, pool, 0, VK_QUERY_CONTROL_PRECISE_BIT);
	vkCmdDraw(cb, 6, 1, 0, 0);
	vkCmdEndQuery(cb, pool, 0);
	/* 1: everything behind the stored 0.6: nothing passes. */
	vkCmdBeginQuery(cb, pool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
	vkCmdDraw(cb, 6, 1, 6, 0);
	vkCmdEndQuery(cb, pool, 1);
	/* 2: not precise: non-zero. */
	vkCmdBeginQuery(cb, pool, 2, 0);
	vkCmdDraw(cb, 6, 1, 12, 0);
	vkCmdEndQuery(cb, pool, 2);
	/* 3: two draws: 200 again (no depth writes: the stored 0.6
	 * stays) + 100. */
	vkCmdBeginQuery(cb, pool, 3, VK_QUERY_CONTROL_PRECISE_BIT);
	vkCmdDraw(cb, 6, 1, 12, 0);
	vkCmdDraw(cb, 6, 1, 18, 0);
	vkCmdEndQuery(cb, pool, 3);
	vkCmdEndRendering(cb);
	if (inherited) {
		ri.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT;
		ca.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
		da.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
		vkCmdBeginQuery(cb, pool, 4, VK_QUERY_CONTROL_PRECISE_BIT);
		vkCmdBeginRendering(cb, &ri);
		vkCmdExecuteCommands(cb, 1, &sec);
		vkCmdEndRendering(cb);
		vkCmdEndQuery(cb, pool, 4);
	} else {
		/* The same drawing without the query (the feature is
		 * missing), so the images compare. */
		ca.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
		da.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
		vkCmdBeginRendering(cb, &ri);
		vkCmdDraw(cb, 6, 1, 24, 0);
		vkCmdEndRendering(cb);
	}
	vkCmdCopyQueryPoolResults(cb, pool, 0, inherited ? NQ : NQ - 1,
	                          res.buffer, 0, 8,
	                          VK_QUERY_RESULT_WAIT_BIT |
	                          VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkh_cmd_host_barrier(cb);
	ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	if (ok) {
		uint64_t r64[NQ] = { 0 };
		const uint32_t *r32 = res.map;
		uint32_t n = inherited ? NQ : NQ - 1;

		ok = vkGetQueryPoolResults(c->dev, pool, 0, n, sizeof(r64),
		                           r64, 8, VK_QUERY_RESULT_64_BIT |
		                           VK_QUERY_RESULT_WAIT_BIT) ==
		     VK_SUCCESS;
		vkh_buffer_invalidate(c->h, c->d, &res);
		/* values: the 64-bit results (query 2 as "non-zero"), then
		 * the copied 32-bit results and availability words. */
		for (uint32_t i = 0; i < NQ; i++) {
			o->values[i] = i == 2 ? r64[i] != 0 : r64[i];
			o->values[NQ + 2 * i] = i < n ?
				(i == 2 ? r32[2 * i] != 0 : r32[2 * i]) : 0;
			o->values[NQ + 2 * i + 1] = i < n ? r32[2 * i + 1] : 1;
		}
		o->nvalues = 3 * NQ;
		/* Without inheritedQueries: what it would have counted. */
		if (!inherited)
			o->values[4] = o->values[NQ + 8] = 64;
	}
out:
	if (sec)
		vkFreeCommandBuffers(c->dev, c->pool, 1, &sec);
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	if (res.buffer)
		vkh_buffer_destroy(c->d, &res);
	vkDestroyQueryPool(c->dev, pool, NULL);
	vkDestroyPipeline(c->dev, pipe, NULL);
	px_pipe_finish(c, &p);
	gfx_image_destroy(c, &t);
	gfx_image_destroy(c, &ds);
	return ok;
}

static void
occlusion_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	const uint64_t want[NQ] = { 512, 0, 1, 300, 64 };

	for (uint32_t i = 0; i < NQ; i++)
		if (o->values[i] != want[i] || o->values[NQ + 2 * i] != want[i] ||
		    o->values[NQ + 2 * i + 1] != 1)
			vkh_fail(c->h, __FILE__, __LINE__,
			         "%s: query %u = %llu (copied %llu, available "
			         "%llu), want %llu", c->driver, i,
			         (unsigned long long)o->values[i],
			         (unsigned long long)o->values[NQ + 2 * i],
			         (unsigned long long)o->values[NQ + 2 * i + 1],
			         (unsigned long long)want[i]);
}

/* ------------------------------------------------------------------ */

#define NV 12

static bool
shader_stores_render(struct gfx_ctx *c, struct gfx_out *o)
{
	const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
	struct vtx v[NV];
	struct gfx_image t;
	struct gfx_pipe p;
	VkPipeline pipe = VK_NULL_HANDLE;
	struct vkh_buffer vb = { 0 }, sb = { 0 };
	VkDescriptorSetLayout sl = VK_NULL_HANDLE;
	VkPipelineLayout pl = VK_NULL_HANDLE;
	VkDescriptorPool dp = VK_NULL_HANDLE;
	VkDescriptorSet set;
	bool ok = false;

	/* 20x10 + 7x13 pixels, overlapping: 200 + 91 fragments. */
	quad(v, 4, 4, 24, 14, 0, red);
	quad(v + 6, 20, 10, 27, 23, 0, green);
	VkDescriptorSetLayoutBinding b = {
		0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &b,
	};
	VkPushConstantRange pcr = {
		VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
		128 };
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	if (!px_target(c, &t) ||
	    vkCreateDescriptorSetLayout(c->dev, &lci, NULL, &sl) !=
	    VK_SUCCESS ||
	    vkCreateDescriptorPool(c->dev, &dpci, NULL, &dp) != VK_SUCCESS ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, NULL,
	                (2 + NV) * 4, &sb) ||
	    !gfx_buffer(c, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, v, sizeof(v),
	                &vb))
		goto out;
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &sl,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = dp, .descriptorSetCount = 1,
		.pSetLayouts = &sl,
	};
	if (vkCreatePipelineLayout(c->dev, &plci, NULL, &pl) != VK_SUCCESS ||
	    vkAllocateDescriptorSets(c->dev, &ai, &set) != VK_SUCCESS)
		goto out;
	VkDescriptorBufferInfo bi = { sb.buffer, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set, .descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = &bi,
	};
	vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
	gfx_pipe_init(&p, gfx_shader(c, gfx_store_vs_spv,
	                             sizeof(gfx_store_vs_spv)),
	              gfx_shader(c, gfx_store_fs_spv, sizeof(gfx_store_fs_spv)),
	              VK_FORMAT_R8G8B8A8_UNORM, SW, SH);
	px_vertex_input(&p);
	p.layout = pl;
	pipe = gfx_pipeline(c, &p);
	if (pipe) {
		const float size[2] = { SW, SH };
		VkDeviceSize off = 0;
		VkCommandBuffer cb = gfx_begin(c);

		gfx_begin_rendering(cb, &t, &black, NULL, false, 0, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pl,
		                        0, 1, &set, 0, NULL);
		vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_VERTEX_BIT |
		                   VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(size),
		                   size);
		vkCmdBindVertexBuffers(cb, 0, 1, &vb.buffer, &off);
		vkCmdDraw(cb, NV, 1, 0, 0);
		vkCmdEndRendering(cb);
		vkh_cmd_host_barrier(cb);
		ok = gfx_submit(c, cb) && gfx_read(c, &t, NULL, o);
	}
	if (ok) {
		const uint32_t *w32 = sb.map;

		vkh_buffer_invalidate(c->h, c->d, &sb);
		o->values[0] = w32[0];
		/* A vertex shader may run more than once per vertex (the
		 * spec allows it): only "at least once" is portable. */
		o->values[1] = w32[1] >= NV;
		for (uint32_t i = 0; i < NV; i++)
			o->values[2 + i] = w32[2 + i];
		o->nvalues = 2 + NV;
	}
	vkDestroyPipeline(c->dev, pipe, NULL);
	vkDestroyShaderModule(c->dev, p.vs, NULL);
	vkDestroyShaderModule(c->dev, p.fs, NULL);
out:
	if (vb.buffer)
		vkh_buffer_destroy(c->d, &vb);
	if (sb.buffer)
		vkh_buffer_destroy(c->d, &sb);
	vkDestroyPipelineLayout(c->dev, pl, NULL);
	vkDestroyDescriptorPool(c->dev, dp, NULL);
	vkDestroyDescriptorSetLayout(c->dev, sl, NULL);
	gfx_image_destroy(c, &t);
	if (!ok && !c->h->failures)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: setup", c->driver);
	return ok;
}

static void
shader_stores_check(struct gfx_ctx *c, const struct gfx_out *o)
{
	if (o->values[0] != 200 + 91 || o->values[1] != 1)
		vkh_fail(c->h, __FILE__, __LINE__, "%s: %llu fragments, "
		         "vertices counted %s", c->driver,
		         (unsigned long long)o->values[0],
		         o->values[1] ? "at least once" : "too few times");
	for (uint32_t i = 0; i < NV; i++)
		if (o->values[2 + i] != i + 1)
			vkh_fail(c->h, __FILE__, __LINE__, "%s: vertex %u "
			         "wrote %llu", c->driver, i,
			         (unsigned long long)o->values[2 + i]);
}

static bool
has_stores(const struct vkh *h)
{
	return h->features.vertexPipelineStoresAndAtomics &&
	       h->features.fragmentStoresAndAtomics;
}

GFX_SCENE_TEST(occlusion, 0, 0, NULL)
GFX_SCENE_TEST(shader_stores, 0, 0, has_stores)

static const struct vkh_test tests[] = {
	GFX_TEST(occlusion), GFX_TEST(shader_stores),
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_gfx_query", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

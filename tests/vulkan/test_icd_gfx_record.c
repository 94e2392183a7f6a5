/* SPDX-License-Identifier: MIT */
/*
 * test_icd_gfx_record: the fixture, the packet decoder, and the render
 * pass / dynamic rendering / clear tests. See test_icd_gfx_record.h.
 */
#include <stdlib.h>

#include "format.h"
#include "test_icd_gfx_record.h"

struct fx fx;

#define W 32
#define H 16

/* Every command buffer recorded, so VAs in any of them resolve. */
static VkCommandBuffer recorded[64];
static unsigned nrecorded;

VkCommandBuffer
rec_begin(VkCommandBufferLevel level, const VkCommandBufferBeginInfo *bi)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = fx.pool, .level = level,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo dflt = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	};
	VkCommandBuffer cb;

	assert_int_equal(icd_AllocateCommandBuffers(fx.device, &ai, &cb),
	                 VK_SUCCESS);
	assert_int_equal(icd_BeginCommandBuffer(cb, bi ? bi : &dflt),
	                 VK_SUCCESS);
	assert_true(nrecorded < sizeof(recorded) / sizeof(recorded[0]));
	recorded[nrecorded++] = cb;
	return cb;
}

void
rec_free(VkCommandBuffer cb)
{
	for (unsigned i = 0; i < nrecorded; i++)
		if (recorded[i] == cb)
			recorded[i] = recorded[--nrecorded];
	icd_FreeCommandBuffers(fx.device, fx.pool, 1, &cb);
}

const void *
rec_host(uint64_t va)
{
	for (unsigned i = 0; i < nrecorded; i++) {
		const struct icd_cmd_buffer *cb =
			icd_cmd_buffer_from_handle(recorded[i]);

		for (const struct icd_cmd_chunk *c = cb->chunks; c;
		     c = c->next)
			if (va >= c->va && va < c->va + c->capacity_dw * 4ull)
				return (const uint8_t *)c->map + (va - c->va);
	}
	return NULL;
}

static void
decode(struct rec *r, uint64_t va, uint32_t size_dw)
{
	const uint32_t *p = rec_host(va);

	assert_non_null(p);
	for (uint32_t at = 0; at < size_dw;) {
		uint32_t h = p[at];
		struct rec_pkt k = {
			.op = swgpu_pkt_opcode(h), .flags = swgpu_pkt_flags(h),
			.len = swgpu_pkt_len(h), .p = p + at,
		};

		assert_true(k.len >= 1 && at + k.len <= size_dw);
		at += k.len;
		if (k.op == SWGPU_OP_NOP)
			continue;
		if (k.op == SWGPU_OP_INDIRECT_BUFFER) {
			decode(r, swgpu_pkt_get64(k.p + 1), k.p[3]);
			continue;
		}
		assert_true(r->n < REC_MAX_PACKETS);
		r->pkt[r->n++] = k;
	}
}

VkResult
rec_end(VkCommandBuffer cmd, struct rec *r)
{
	VkResult res = icd_EndCommandBuffer(cmd);
	const struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(cmd);

	memset(r, 0, sizeof(*r));
	for (uint32_t i = 0; i < cb->ib_count; i++)
		decode(r, cb->ibs[i].va, cb->ibs[i].size_dw);
	return res;
}

int
rec_find(const struct rec *r, uint32_t op, int start)
{
	for (uint32_t i = start < 0 ? 0 : (uint32_t)start; i < r->n; i++)
		if (r->pkt[i].op == op)
			return (int)i;
	return -1;
}

uint32_t
rec_count(const struct rec *r, uint32_t op)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < r->n; i++)
		n += r->pkt[i].op == op;
	return n;
}

/* ------------------------------------------------------------------ */
/* Fixture                                                             */
/* ------------------------------------------------------------------ */

static VkImage
make_image(VkFormat format, VkImageUsageFlags usage, VkDeviceSize *offset)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D, .format = format,
		.extent = { W, H, 1 }, .mipLevels = 1, .arrayLayers = 2,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
	};
	VkMemoryRequirements req;
	VkImage img;

	assert_int_equal(icd_CreateImage(fx.device, &ci, NULL, &img),
	                 VK_SUCCESS);
	icd_GetImageMemoryRequirements(fx.device, img, &req);
	*offset = (*offset + req.alignment - 1) & ~(req.alignment - 1);
	assert_int_equal(icd_BindImageMemory(fx.device, img, fx.mem, *offset),
	                 VK_SUCCESS);
	*offset += req.size;
	return img;
}

static VkImageView
make_view(VkImage img, VkFormat format, VkImageAspectFlags aspects,
          uint32_t layer)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img, .viewType = VK_IMAGE_VIEW_TYPE_2D,
		.format = format,
		.subresourceRange = { aspects, 0, 1, layer, 1 },
	};
	VkImageView v;

	assert_int_equal(icd_CreateImageView(fx.device, &ci, NULL, &v),
	                 VK_SUCCESS);
	return v;
}

static VkBuffer
make_buffer(VkBufferUsageFlags usage, VkDeviceSize size, VkDeviceSize *offset)
{
	VkBufferCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size, .usage = usage,
	};
	VkBuffer b;

	assert_int_equal(icd_CreateBuffer(fx.device, &ci, NULL, &b),
	                 VK_SUCCESS);
	*offset = (*offset + 255) & ~255ull;
	assert_int_equal(icd_BindBufferMemory(fx.device, b, fx.mem, *offset),
	                 VK_SUCCESS);
	*offset += size;
	return b;
}

static int
setup(void **state)
{
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = 0, .queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
	};
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = 1 << 20, .memoryTypeIndex = 0,
	};
	const VkImageUsageFlags cu = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
	                             VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
	                             VK_IMAGE_USAGE_SAMPLED_BIT;
	uint32_t n = 1;
	VkDeviceSize off = 0;

	(void)state;
	assert_int_equal(icd_CreateInstance(&ici, NULL, &fx.instance),
	                 VK_SUCCESS);
	assert_int_equal(icd_EnumeratePhysicalDevices(fx.instance, &n,
	                                              &fx.pdev), VK_SUCCESS);
	assert_int_equal(icd_CreateDevice(fx.pdev, &dci, NULL, &fx.device),
	                 VK_SUCCESS);
	assert_int_equal(icd_CreateCommandPool(fx.device, &pci, NULL,
	                                       &fx.pool), VK_SUCCESS);
	assert_int_equal(icd_AllocateMemory(fx.device, &mai, NULL, &fx.mem),
	                 VK_SUCCESS);
	for (int i = 0; i < 2; i++) {
		fx.color[i] = make_image(VK_FORMAT_R8G8B8A8_UNORM, cu, &off);
		fx.color_view[i] = make_view(fx.color[i],
		                             VK_FORMAT_R8G8B8A8_UNORM,
		                             VK_IMAGE_ASPECT_COLOR_BIT, 1);
	}
	fx.ds = make_image(VK_FORMAT_D24_UNORM_S8_UINT,
	                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, &off);
	fx.ds_view = make_view(fx.ds, VK_FORMAT_D24_UNORM_S8_UINT,
	                       VK_IMAGE_ASPECT_DEPTH_BIT |
	                       VK_IMAGE_ASPECT_STENCIL_BIT, 0);
	fx.vbuf = make_buffer(VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, 4096, &off);
	fx.ibuf = make_buffer(VK_BUFFER_USAGE_INDEX_BUFFER_BIT, 1024, &off);
	fx.argbuf = make_buffer(VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, 1024,
	                        &off);

	VkDescriptorSetLayoutBinding b = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
		.descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_VERTEX_BIT,
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &b,
	};
	VkPushConstantRange pcr = { VK_SHADER_STAGE_VERTEX_BIT, 0, 16 };
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &fx.set_layout,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
	};
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps,
	};
	VkDescriptorSetAllocateInfo dsai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1, .pSetLayouts = &fx.set_layout,
	};

	assert_int_equal(icd_CreateDescriptorSetLayout(fx.device, &lci, NULL,
	                                               &fx.set_layout),
	                 VK_SUCCESS);
	assert_int_equal(icd_CreatePipelineLayout(fx.device, &plci, NULL,
	                                          &fx.layout), VK_SUCCESS);
	assert_int_equal(icd_CreateDescriptorPool(fx.device, &dpci, NULL,
	                                          &fx.dpool), VK_SUCCESS);
	dsai.descriptorPool = fx.dpool;
	assert_int_equal(icd_AllocateDescriptorSets(fx.device, &dsai,
	                                            &fx.set), VK_SUCCESS);
	for (int i = 0; i < 2; i++) {
		icd_object_init(&fx.fake[i].base, VK_OBJECT_TYPE_PIPELINE);
		fx.fake[i].bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
		fx.fake[i].state_va = 0x7000000000ull + 0x10000ull * i;
	}
	fx.fake[0].dynamic_mask = SWGPU_DYN_VIEWPORT | SWGPU_DYN_SCISSOR;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	while (nrecorded)
		rec_free(recorded[nrecorded - 1]);
	icd_DestroyDescriptorPool(fx.device, fx.dpool, NULL);
	icd_DestroyPipelineLayout(fx.device, fx.layout, NULL);
	icd_DestroyDescriptorSetLayout(fx.device, fx.set_layout, NULL);
	icd_DestroyBuffer(fx.device, fx.vbuf, NULL);
	icd_DestroyBuffer(fx.device, fx.ibuf, NULL);
	icd_DestroyBuffer(fx.device, fx.argbuf, NULL);
	for (int i = 0; i < 2; i++) {
		icd_DestroyImageView(fx.device, fx.color_view[i], NULL);
		icd_DestroyImage(fx.device, fx.color[i], NULL);
	}
	icd_DestroyImageView(fx.device, fx.ds_view, NULL);
	icd_DestroyImage(fx.device, fx.ds, NULL);
	icd_FreeMemory(fx.device, fx.mem, NULL);
	icd_DestroyCommandPool(fx.device, fx.pool, NULL);
	icd_DestroyDevice(fx.device, NULL);
	icd_DestroyInstance(fx.instance, NULL);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Queue families                                                      */
/* ------------------------------------------------------------------ */

/* Run with SWGPU_GRAPHICS_ENGINES=1 (ctest sets it): family 0 is the
 * graphics engine's, then compute, then copy. */
static void
test_queue_families(void **state)
{
	VkQueueFamilyProperties qf[4];
	uint32_t n = 4;

	(void)state;
	icd_GetPhysicalDeviceQueueFamilyProperties(fx.pdev, &n, qf);
	assert_int_equal(n, 3);
	assert_int_equal(qf[0].queueFlags, VK_QUEUE_GRAPHICS_BIT |
	                 VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT);
	assert_int_equal(qf[0].queueCount, 1);
	assert_int_equal(qf[1].queueFlags,
	                 VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT);
	assert_int_equal(qf[2].queueFlags, VK_QUEUE_TRANSFER_BIT);
	assert_int_equal(qf[0].timestampValidBits, 64);
}

/* ------------------------------------------------------------------ */
/* Render passes                                                       */
/* ------------------------------------------------------------------ */

/* 0: colour A (CLEAR/STORE), 1: depth/stencil (CLEAR/DONT_CARE, stencil
 * LOAD/STORE), 2: colour B (DONT_CARE/STORE). Subpass 0 renders A with
 * depth; subpass 1 reads A as an input attachment and renders B (and an
 * unused slot) with depth. */
VkRenderPass
make_render_pass_2subpasses(void)
{
	VkAttachmentDescription2 att[3] = {
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_D24_UNORM_S8_UINT,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
		  .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference2 a0 = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 0,
		.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
	};
	VkAttachmentReference2 ds = a0, in = a0, c1[2] = { a0, a0 };
	ds.attachment = 1;
	ds.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
	in.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	in.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
	c1[0].attachment = 2;
	c1[1].attachment = VK_ATTACHMENT_UNUSED;
	VkSubpassDescription2 sub[2] = {
		{ .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
		  .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .colorAttachmentCount = 1, .pColorAttachments = &a0,
		  .pDepthStencilAttachment = &ds },
		{ .sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
		  .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		  .inputAttachmentCount = 1, .pInputAttachments = &in,
		  .colorAttachmentCount = 2, .pColorAttachments = c1,
		  .pDepthStencilAttachment = &ds },
	};
	VkSubpassDependency2 dep = {
		.sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2,
		.srcSubpass = 0, .dstSubpass = 1,
		.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
		.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
		.dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT,
	};
	VkRenderPassCreateInfo2 ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.attachmentCount = 3, .pAttachments = att,
		.subpassCount = 2, .pSubpasses = sub,
		.dependencyCount = 1, .pDependencies = &dep,
	};
	VkRenderPass rp;

	assert_int_equal(icd_CreateRenderPass2(fx.device, &ci, NULL, &rp),
	                 VK_SUCCESS);
	return rp;
}

VkFramebuffer
make_framebuffer(VkRenderPass rp, bool imageless)
{
	VkImageView views[3] = { fx.color_view[0], fx.ds_view,
	                         fx.color_view[1] };
	VkFramebufferCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.flags = imageless ? VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT : 0,
		.renderPass = rp, .attachmentCount = 3,
		.pAttachments = imageless ? NULL : views,
		.width = W, .height = H, .layers = 1,
	};
	VkFramebuffer fb;

	assert_int_equal(icd_CreateFramebuffer(fx.device, &ci, NULL, &fb),
	                 VK_SUCCESS);
	return fb;
}

static uint32_t
engine_format(VkFormat f)
{
	return icd_format_describe(f)->swgpu_format;
}

/* Surface of layer `layer` of plane `plane` of an image, level 0. */
static void
expect_surface(const struct swgpu_attachment *a, VkImage image,
               uint32_t plane, uint32_t layer, VkFormat plane_format)
{
	const struct icd_image *img = icd_image_from_handle(image);
	const struct icd_image_plane *pl = &img->planes[plane];

	assert_int_equal(a->va, img->va + pl->offset +
	                 layer * pl->array_pitch);
	assert_int_equal(a->row_pitch, pl->mips[0].row_pitch);
	assert_int_equal(a->layer_pitch, pl->array_pitch);
	assert_int_equal(a->format, engine_format(plane_format));
	assert_int_equal(a->width, W);
	assert_int_equal(a->height, H);
	assert_int_equal(a->layers, 1);
	assert_int_equal(a->samples, 1);
}

static const struct swgpu_pass *
pass_at(const struct rec *r, int i)
{
	assert_true(i >= 0);
	assert_int_equal(r->pkt[i].op, SWGPU_OP_BEGIN_PASS);
	assert_int_equal(r->pkt[i].len, SWGPU_LEN_BEGIN_PASS);
	return rec_host(swgpu_pkt_get64(r->pkt[i].p + 1));
}

static void
record_render_pass(bool imageless, struct rec *r)
{
	VkRenderPass rp = make_render_pass_2subpasses();
	VkFramebuffer fb = make_framebuffer(rp, imageless);
	VkImageView views[3] = { fx.color_view[0], fx.ds_view,
	                         fx.color_view[1] };
	VkRenderPassAttachmentBeginInfo abi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO,
		.attachmentCount = 3, .pAttachments = views,
	};
	VkClearValue clear[3] = {
		{ .color = { .float32 = { 0.25f, 0.5f, 0.75f, 1.0f } } },
		{ .depthStencil = { 0.5f, 0x1ff } },
	};
	VkRenderPassBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
		.pNext = imageless ? &abi : NULL,
		.renderPass = rp, .framebuffer = fb,
		.renderArea = { { 4, 2 }, { 20, 10 } },
		.clearValueCount = 2, .pClearValues = clear,
	};
	VkCommandBuffer cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);

	icd_CmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
	icd_CmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
	icd_CmdEndRenderPass(cb);
	assert_int_equal(rec_end(cb, r), VK_SUCCESS);
	icd_DestroyFramebuffer(fx.device, fb, NULL);
	icd_DestroyRenderPass(fx.device, rp, NULL);
}

static void
check_render_pass(const struct rec *r)
{
	const struct swgpu_pass *p;
	float f;

	/* BEGIN, END, BEGIN, END: one pass per subpass. */
	assert_int_equal(r->n, 4);
	assert_int_equal(r->pkt[1].op, SWGPU_OP_END_PASS);
	assert_int_equal(r->pkt[3].op, SWGPU_OP_END_PASS);

	p = pass_at(r, 0);
	assert_int_equal(p->color_count, 1);
	assert_int_equal(p->layer_count, 1);
	assert_int_equal(p->area_x, 4);
	assert_int_equal(p->area_y, 2);
	assert_int_equal(p->area_width, 20);
	assert_int_equal(p->area_height, 10);
	assert_int_equal(p->view_mask, 0);
	expect_surface(&p->color[0], fx.color[0], 0, 1,
	               VK_FORMAT_R8G8B8A8_UNORM);
	/* First use: its load op; used again later: STORE. */
	assert_int_equal(p->color[0].load_op, SWGPU_LOAD_CLEAR);
	assert_int_equal(p->color[0].store_op, SWGPU_STORE_STORE);
	memcpy(&f, &p->color[0].clear[2], 4);
	assert_true(f == 0.75f);
	expect_surface(&p->depth, fx.ds, 0, 0, VK_FORMAT_X8_D24_UNORM_PACK32);
	expect_surface(&p->stencil, fx.ds, 1, 0, VK_FORMAT_S8_UINT);
	assert_int_equal(p->depth.load_op, SWGPU_LOAD_CLEAR);
	assert_int_equal(p->depth.store_op, SWGPU_STORE_STORE);
	memcpy(&f, &p->depth.clear[0], 4);
	assert_true(f == 0.5f);
	assert_int_equal(p->stencil.load_op, SWGPU_LOAD_LOAD);
	assert_int_equal(p->stencil.store_op, SWGPU_STORE_STORE);
	assert_int_equal(p->stencil.clear[0], 0xff);
	for (int j = 1; j < 8; j++)
		assert_int_equal(p->color[j].va, 0);

	p = pass_at(r, 2);
	assert_int_equal(p->color_count, 2);
	expect_surface(&p->color[0], fx.color[1], 0, 1,
	               VK_FORMAT_R8G8B8A8_UNORM);
	assert_int_equal(p->color[0].load_op, SWGPU_LOAD_DONT_CARE);
	assert_int_equal(p->color[0].store_op, SWGPU_STORE_STORE);
	/* The unused slot, and the input attachment is no target. */
	assert_int_equal(p->color[1].va, 0);
	/* Not the first use: LOAD; the last: its store op. */
	assert_int_equal(p->depth.load_op, SWGPU_LOAD_LOAD);
	assert_int_equal(p->depth.store_op, SWGPU_STORE_DONT_CARE);
	assert_int_equal(p->stencil.load_op, SWGPU_LOAD_LOAD);
	assert_int_equal(p->stencil.store_op, SWGPU_STORE_STORE);
}

static void
test_render_pass_subpasses(void **state)
{
	struct rec r;

	(void)state;
	record_render_pass(false, &r);
	check_render_pass(&r);
}

static void
test_render_pass_imageless(void **state)
{
	struct rec r;

	(void)state;
	record_render_pass(true, &r);
	check_render_pass(&r);
}

/* vkCreateRenderPass (1): an attachment whose first use is as an input
 * attachment, with a CLEAR load op, is cleared by CLEAR_BOX over the
 * render area before the subpass's BEGIN_PASS. */
static void
test_render_pass1_input_clear(void **state)
{
	VkAttachmentDescription att[2] = {
		{ .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		  .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .format = VK_FORMAT_R8G8B8A8_UNORM,
		  .samples = VK_SAMPLE_COUNT_1_BIT,
		  .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
		  .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		  .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
		  .finalLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkAttachmentReference in = { 0, VK_IMAGE_LAYOUT_GENERAL };
	VkAttachmentReference out = { 1, VK_IMAGE_LAYOUT_GENERAL };
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.inputAttachmentCount = 1, .pInputAttachments = &in,
		.colorAttachmentCount = 1, .pColorAttachments = &out,
	};
	VkRenderPassCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 2, .pAttachments = att,
		.subpassCount = 1, .pSubpasses = &sub,
	};
	VkImageView views[2] = { fx.color_view[0], fx.color_view[1] };
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.attachmentCount = 2, .pAttachments = views,
		.width = W, .height = H, .layers = 1,
	};
	VkClearValue clear = { .color = { .uint32 = { 1, 2, 3, 4 } } };
	VkRenderPassBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
		.renderArea = { { 1, 3 }, { 5, 7 } },
		.clearValueCount = 1, .pClearValues = &clear,
	};
	const struct icd_image *img = icd_image_from_handle(fx.color[0]);
	const struct icd_image_plane *pl = &img->planes[0];
	struct rec r;
	VkCommandBuffer cb;

	(void)state;
	fci.renderPass = VK_NULL_HANDLE;
	assert_int_equal(icd_CreateRenderPass(fx.device, &ci, NULL,
	                                      &bi.renderPass), VK_SUCCESS);
	fci.renderPass = bi.renderPass;
	assert_int_equal(icd_CreateFramebuffer(fx.device, &fci, NULL,
	                                       &bi.framebuffer), VK_SUCCESS);
	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
	icd_CmdEndRenderPass(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.pkt[0].op, SWGPU_OP_CLEAR_BOX);
	const uint32_t *c = r.pkt[0].p;
	/* Texel (1, 3) of layer 1 of the view, 5x7x1, the clear value. */
	assert_int_equal(swgpu_pkt_get64(c + 1),
	                 img->va + pl->array_pitch + 3 * pl->mips[0].row_pitch +
	                 1 * 4);
	assert_int_equal(swgpu_pkt_get64(c + 3), pl->mips[0].row_pitch);
	assert_int_equal(c[7], engine_format(VK_FORMAT_R8G8B8A8_UNORM));
	assert_int_equal(c[8], 5);
	assert_int_equal(c[9], 7);
	assert_int_equal(c[10], 1);
	assert_int_equal(c[11], 1);
	assert_int_equal(c[14], 4);
	const struct swgpu_pass *p = pass_at(&r, 1);
	assert_int_equal(p->color_count, 1);
	expect_surface(&p->color[0], fx.color[1], 0, 1,
	               VK_FORMAT_R8G8B8A8_UNORM);
	assert_int_equal(p->color[0].load_op, SWGPU_LOAD_LOAD);
	assert_int_equal(r.pkt[2].op, SWGPU_OP_END_PASS);
	icd_DestroyFramebuffer(fx.device, bi.framebuffer, NULL);
	icd_DestroyRenderPass(fx.device, bi.renderPass, NULL);
}

/* Dynamic rendering: one BEGIN_PASS .. END_PASS; RESUMING loads. */
static void
test_dynamic_rendering(void **state)
{
	VkRenderingAttachmentInfo color = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = fx.color_view[1],
		.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_NONE,
		.clearValue = { .color = { .int32 = { -1, 2, -3, 4 } } },
	};
	VkRenderingAttachmentInfo none = color;
	VkRenderingAttachmentInfo depth = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = fx.ds_view,
		.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.clearValue = { .depthStencil = { 1.0f, 7 } },
	};
	VkRenderingAttachmentInfo atts[2] = { none, color };
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.flags = VK_RENDERING_SUSPENDING_BIT,
		.renderArea = { { 0, 0 }, { W, H } }, .layerCount = 1,
		.colorAttachmentCount = 2, .pColorAttachments = atts,
		.pDepthAttachment = &depth,
	};
	const struct swgpu_pass *p;
	VkCommandBuffer cb;
	struct rec r;
	float f;

	(void)state;
	atts[0].imageView = VK_NULL_HANDLE;
	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdBeginRendering(cb, &ri);
	icd_CmdEndRendering(cb);
	ri.flags = VK_RENDERING_RESUMING_BIT;
	icd_CmdBeginRendering(cb, &ri);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(r.n, 4);
	p = pass_at(&r, 0);
	assert_int_equal(p->color_count, 2);
	assert_int_equal(p->color[0].va, 0);
	expect_surface(&p->color[1], fx.color[1], 0, 1,
	               VK_FORMAT_R8G8B8A8_UNORM);
	assert_int_equal(p->color[1].load_op, SWGPU_LOAD_CLEAR);
	assert_int_equal(p->color[1].store_op, SWGPU_STORE_NONE);
	assert_int_equal((int32_t)p->color[1].clear[2], -3);
	expect_surface(&p->depth, fx.ds, 0, 0, VK_FORMAT_X8_D24_UNORM_PACK32);
	memcpy(&f, &p->depth.clear[0], 4);
	assert_true(f == 1.0f);
	/* No pStencilAttachment: no stencil target. */
	assert_int_equal(p->stencil.va, 0);
	assert_int_equal(r.pkt[1].op, SWGPU_OP_END_PASS);
	p = pass_at(&r, 2);
	assert_int_equal(p->color[1].load_op, SWGPU_LOAD_LOAD);
	assert_int_equal(p->depth.load_op, SWGPU_LOAD_LOAD);
}

/* vkCmdClearAttachments: one CLEAR_ATTACHMENTS per attachment and
 * aspect, colour index / 8 depth / 9 stencil, rects as given. */
static void
test_clear_attachments(void **state)
{
	VkRenderingAttachmentInfo color = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
		.imageView = fx.color_view[0],
		.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	};
	VkRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
		.renderArea = { { 0, 0 }, { W, H } }, .layerCount = 1,
		.colorAttachmentCount = 1, .pColorAttachments = &color,
	};
	VkClearAttachment ca[2] = {
		{ VK_IMAGE_ASPECT_COLOR_BIT, 0,
		  { .color = { .float32 = { 1, 0, 0, 1 } } } },
		{ VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0,
		  { .depthStencil = { 0.25f, 3 } } },
	};
	VkClearRect rects[2] = { { { { 1, 2 }, { 3, 4 } }, 0, 1 },
	                         { { { 5, 6 }, { 7, 8 } }, 0, 1 } };
	VkCommandBuffer cb;
	struct rec r;
	int i;

	(void)state;
	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdBeginRendering(cb, &ri);
	icd_CmdClearAttachments(cb, 2, ca, 2, rects);
	icd_CmdEndRendering(cb);
	assert_int_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(rec_count(&r, SWGPU_OP_CLEAR_ATTACHMENTS), 3);
	i = rec_find(&r, SWGPU_OP_CLEAR_ATTACHMENTS, 0);
	assert_int_equal(r.pkt[i].len, SWGPU_LEN_CLEAR_ATTACHMENTS(2));
	assert_int_equal(r.pkt[i].p[1], 0);
	assert_int_equal(r.pkt[i].p[5], 0x3f800000u);
	assert_int_equal(r.pkt[i].p[6], 2);
	assert_int_equal(r.pkt[i].p[13], 5);
	assert_int_equal(r.pkt[i].p[16], 8);
	assert_int_equal(r.pkt[i].p[18], 1);
	i = rec_find(&r, SWGPU_OP_CLEAR_ATTACHMENTS, i + 1);
	assert_int_equal(r.pkt[i].p[1], SWGPU_ATTACHMENT_DEPTH);
	assert_int_equal(r.pkt[i].p[2], 0x3e800000u);
	i = rec_find(&r, SWGPU_OP_CLEAR_ATTACHMENTS, i + 1);
	assert_int_equal(r.pkt[i].p[1], SWGPU_ATTACHMENT_STENCIL);
	assert_int_equal(r.pkt[i].p[2], 3);
	/* Outside a render pass instance: an error, no packet. */
	cb = rec_begin(VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
	icd_CmdClearAttachments(cb, 1, ca, 1, rects);
	assert_int_not_equal(rec_end(cb, &r), VK_SUCCESS);
	assert_int_equal(rec_count(&r, SWGPU_OP_CLEAR_ATTACHMENTS), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_families),
		cmocka_unit_test(test_render_pass_subpasses),
		cmocka_unit_test(test_render_pass_imageless),
		cmocka_unit_test(test_render_pass1_input_clear),
		cmocka_unit_test(test_dynamic_rendering),
		cmocka_unit_test(test_clear_attachments),
		cmocka_unit_test(test_draw_state),
		cmocka_unit_test(test_draw_errors),
		cmocka_unit_test(test_draw_indirect),
		cmocka_unit_test(test_secondary),
		cmocka_unit_test(test_dynamic_state),
		cmocka_unit_test(test_pipeline_state),
		cmocka_unit_test(test_occlusion_query),
	};

	/* The graphics engine class (family 0), whatever the default. */
	setenv("SWGPU_GRAPHICS_ENGINES", "1", 1);
	return cmocka_run_group_tests(tests, setup, teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * Descriptors of image and buffer views, end to end: views_rw.comp reads
 * and writes storage images and texel buffers whose descriptors reach
 * its set through vkUpdateDescriptorSets writes (one write rolling over
 * three bindings), a descriptor copy (rolling over the same three) and
 * an update template, and every result is checked on the host:
 *
 *   binding 0  2D-array view, mip 1, layers 1..2 of an 8x8x3-layer RGBA8
 *              image: texels read back exactly
 *   binding 1  R32_UINT view of a mutable RGBA8 image: atomics add to
 *              the uploaded values
 *   binding 2  3D view of mip 1 of a 4x4x4 R32F image: written, mip 0
 *              untouched
 *   binding 3  R16_UINT uniform texel buffer at an offset, VK_WHOLE_SIZE
 *              over a buffer one byte longer than 32 texels
 *   binding 4  R32_SINT storage texel buffer at an offset, 16 texels:
 *              written, the bytes around untouched
 *
 * and imageSize/textureSize report each view's extent.
 */
#include <string.h>

#include "test_icd_views.h"

#include "views_rw.spv.h"

/* Staging (upload) buffer layout. */
#define UP_A0 0u          /* A mip 0: 8x8, 3 layers */
#define UP_A1 768u        /* A mip 1: 4x4, 3 layers */
#define UP_C 1024u        /* C: 4x4 */
#define UP_D0 1088u       /* D mip 0: 4x4x4 */
#define UP_D1 1344u       /* D mip 1: 2x2x2 */
#define UP_SIZE 1376u
/* Readback buffer layout. */
#define RB_C 0u
#define RB_D0 64u
#define RB_D1 320u
#define RB_SIZE 352u

struct out {
	uint32_t sizes[2][4];
	uint32_t texels[32];
	uint32_t fetched[32];
};

struct rig {
	struct views_image a, c, dd;
	VkImageView va, vc, vd;
	struct vkh_buffer up, rb, utb, stb, o;
	VkBufferView bu, bs;
	VkDeviceSize off;
	struct vkh_pipe p;
	VkDescriptorPool pool;
	VkDescriptorSet set_a;
	VkDescriptorUpdateTemplate tmpl;
};

static uint32_t
texel_a(uint32_t mip, uint32_t layer, uint32_t x, uint32_t y)
{
	return 0x01000000u * (mip + 1) + 0x30000u * (layer + 1) +
	       0x700u * y + 13u * x + 0x80u;
}

static VkImageCreateInfo
ci_2d(VkImageType type, VkFormat f, uint32_t w, uint32_t h, uint32_t depth,
      uint32_t mips, uint32_t layers, VkImageCreateFlags flags)
{
	return (VkImageCreateInfo){
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.flags = flags,
		.imageType = type,
		.format = f,
		.extent = { w, h, depth },
		.mipLevels = mips,
		.arrayLayers = layers,
		.samples = VK_SAMPLE_COUNT_1_BIT,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = VK_IMAGE_USAGE_STORAGE_BIT |
		         VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
		         VK_IMAGE_USAGE_TRANSFER_DST_BIT,
	};
}

/* Images, views, buffers with their initial contents, the pipeline. */
static VkResult
rig_create(struct vkh *h, struct vkh_device *d, struct rig *g)
{
	VkImageCreateInfo ci;
	VkResult r;
	uint8_t *up;

	memset(g, 0, sizeof(*g));
	g->off = views_texel_offset(h);
	ci = ci_2d(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 2, 3,
	           0);
	if ((r = views_image_create(h, d, &ci, &g->a)))
		return r;
	ci = ci_2d(VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, 1,
	           VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT);
	if ((r = views_image_create(h, d, &ci, &g->c)))
		return r;
	ci = ci_2d(VK_IMAGE_TYPE_3D, VK_FORMAT_R32_SFLOAT, 4, 4, 4, 2, 1, 0);
	if ((r = views_image_create(h, d, &ci, &g->dd)))
		return r;
	if ((r = views_image_view(d, g->a.image, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
	                          VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 1,
	                          VK_REMAINING_ARRAY_LAYERS, NULL, &g->va)) ||
	    (r = views_image_view(d, g->c.image, VK_IMAGE_VIEW_TYPE_2D,
	                          VK_FORMAT_R32_UINT, 0, 1, 0, 1, NULL,
	                          &g->vc)) ||
	    (r = views_image_view(d, g->dd.image, VK_IMAGE_VIEW_TYPE_3D,
	                          VK_FORMAT_R32_SFLOAT, 1, 1, 0, 1, NULL,
	                          &g->vd)))
		return r;

	if ((r = vkh_buffer_create(h, d, UP_SIZE,
	                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                           VKH_MEM_UPLOAD, -1, &g->up)) ||
	    (r = vkh_host_buffer(h, d, RB_SIZE,
	                         VK_BUFFER_USAGE_TRANSFER_DST_BIT, &g->rb)) ||
	    (r = vkh_host_buffer(h, d, g->off + 64 + 1,
	                         VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
	                         &g->utb)) ||
	    (r = vkh_host_buffer(h, d, g->off + 64 + 16,
	                         VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT,
	                         &g->stb)) ||
	    (r = vkh_host_buffer(h, d, sizeof(struct out), 0, &g->o)))
		return r;
	if ((r = views_buffer_view(d, g->utb.buffer, VK_FORMAT_R16_UINT,
	                           g->off, VK_WHOLE_SIZE, &g->bu)) ||
	    (r = views_buffer_view(d, g->stb.buffer, VK_FORMAT_R32_SINT,
	                           g->off, 64, &g->bs)))
		return r;

	up = g->up.map;
	for (uint32_t m = 0; m < 2; m++)
		for (uint32_t l = 0; l < 3; l++)
			for (uint32_t y = 0; y < 8u >> m; y++)
				for (uint32_t x = 0; x < 8u >> m; x++) {
					uint32_t v = texel_a(m, l, x, y);
					uint32_t s = 8u >> m;

					memcpy(up + (m ? UP_A1 : UP_A0) +
					       4 * ((l * s + y) * s + x), &v, 4);
				}
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t v = 1000 + i;

		memcpy(up + UP_C + 4 * i, &v, 4);
	}
	for (uint32_t i = 0; i < 64 + 8; i++) {
		float v = -1.0f - (float)i;

		memcpy(up + UP_D0 + 4 * i, &v, 4);
	}
	vkh_buffer_flush(h, d, &g->up);
	memset(g->utb.map, 0xee, g->off + 65);
	for (uint32_t k = 0; k < 32; k++) {
		uint16_t v = (uint16_t)(0x1234 + 3 * k);

		memcpy((uint8_t *)g->utb.map + g->off + 2 * k, &v, 2);
	}
	vkh_buffer_flush(h, d, &g->utb);
	memset(g->stb.map, 0x7f, g->off + 80);
	vkh_buffer_flush(h, d, &g->stb);
	memset(g->o.map, 0xff, sizeof(struct out));
	vkh_buffer_flush(h, d, &g->o);

	struct vkh_pipe_desc desc = {
		.spv = views_rw_spv,
		.spv_size = sizeof(views_rw_spv),
		.set_count = 1,
		.binding_count = { 6 },
		.types = { {
			VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
			VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
			VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
			VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
			VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
			VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		} },
	};
	return vkh_pipe_create(d, &desc, &g->p);
}

static void
rig_destroy(struct vkh_device *d, struct rig *g)
{
	vkDestroyDescriptorUpdateTemplate(d->device, g->tmpl, NULL);
	vkDestroyDescriptorPool(d->device, g->pool, NULL);
	vkh_pipe_destroy(d, &g->p);
	vkDestroyBufferView(d->device, g->bu, NULL);
	vkDestroyBufferView(d->device, g->bs, NULL);
	vkDestroyImageView(d->device, g->va, NULL);
	vkDestroyImageView(d->device, g->vc, NULL);
	vkDestroyImageView(d->device, g->vd, NULL);
	vkh_buffer_destroy(d, &g->up);
	vkh_buffer_destroy(d, &g->rb);
	vkh_buffer_destroy(d, &g->utb);
	vkh_buffer_destroy(d, &g->stb);
	vkh_buffer_destroy(d, &g->o);
	views_image_destroy(d, &g->a);
	views_image_destroy(d, &g->c);
	views_image_destroy(d, &g->dd);
}

/* Set A by writes; the pipeline's set by a copy from A (bindings 0-2,
 * over wrongly ordered earlier writes), a template (3, 4) and a write
 * (5). With null_views every view is VK_NULL_HANDLE. */
static VkResult
rig_descriptors(struct vkh_device *d, struct rig *g, bool null_views)
{
	VkDescriptorPoolSize sizes[] = {
		{ VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 3 },
		{ VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1 },
		{ VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1 },
		{ VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 },
	};
	VkDescriptorImageInfo ii[3] = {
		{ .imageView = g->va, .imageLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .imageView = g->vc, .imageLayout = VK_IMAGE_LAYOUT_GENERAL },
		{ .imageView = g->vd, .imageLayout = VK_IMAGE_LAYOUT_GENERAL },
	};
	VkDescriptorImageInfo wrong[3] = { ii[2], ii[0], ii[1] };
	struct { VkBufferView u, s; } tdata = { g->bu, g->bs };
	VkDescriptorUpdateTemplateEntry te[2] = {
		{ 3, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 0, 0 },
		{ 4, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
		  sizeof(VkBufferView), 0 },
	};
	VkResult r;

	if (null_views) {
		for (int i = 0; i < 3; i++)
			ii[i].imageView = VK_NULL_HANDLE;
		tdata.u = tdata.s = VK_NULL_HANDLE;
	}
	r = vkCreateDescriptorPool(d->device, &(VkDescriptorPoolCreateInfo){
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 4, .pPoolSizes = sizes },
		NULL, &g->pool);
	if (r)
		return r;
	r = vkAllocateDescriptorSets(d->device, &(VkDescriptorSetAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = g->pool, .descriptorSetCount = 1,
		.pSetLayouts = &g->p.set_layouts[0] }, &g->set_a);
	if (r)
		return r;
	VkWriteDescriptorSet w[3] = {
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = g->set_a, .dstBinding = 0, .descriptorCount = 3,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		  .pImageInfo = ii },
		{ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		  .dstSet = g->p.sets[0], .dstBinding = 0,
		  .descriptorCount = 3,
		  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
		  .pImageInfo = wrong },
	};
	VkCopyDescriptorSet cp = {
		.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
		.srcSet = g->set_a, .srcBinding = 0,
		.dstSet = g->p.sets[0], .dstBinding = 0, .descriptorCount = 3,
	};
	/* Writes happen before copies within one call. */
	vkUpdateDescriptorSets(d->device, 2, w, 1, &cp);
	r = vkCreateDescriptorUpdateTemplate(d->device,
		&(VkDescriptorUpdateTemplateCreateInfo){
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
		.descriptorUpdateEntryCount = 2,
		.pDescriptorUpdateEntries = te,
		.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
		.descriptorSetLayout = g->p.set_layouts[0] }, NULL, &g->tmpl);
	if (r)
		return r;
	vkUpdateDescriptorSetWithTemplate(d->device, g->p.sets[0], g->tmpl,
	                                  &tdata);
	vkh_pipe_set_buffer(d, &g->p, 0, 5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    g->o.buffer, 0, VK_WHOLE_SIZE);
	return VK_SUCCESS;
}

static void
barrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags sa,
        VkPipelineStageFlags dst, VkAccessFlags da)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = sa,
		.dstAccessMask = da,
	};

	vkCmdPipelineBarrier(cb, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Layout transitions of n images, all levels and layers. */
static void
transition(VkCommandBuffer cb, const VkImage *img, uint32_t n,
           VkImageLayout from, VkImageLayout to,
           VkPipelineStageFlags src, VkAccessFlags sa,
           VkPipelineStageFlags dst, VkAccessFlags da)
{
	VkImageMemoryBarrier b[3];

	for (uint32_t i = 0; i < n; i++)
		b[i] = (VkImageMemoryBarrier){
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
			.srcAccessMask = sa,
			.dstAccessMask = da,
			.oldLayout = from,
			.newLayout = to,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = img[i],
			.subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0,
			                      VK_REMAINING_MIP_LEVELS, 0,
			                      VK_REMAINING_ARRAY_LAYERS },
		};
	vkCmdPipelineBarrier(cb, src, dst, 0, 0, NULL, 0, NULL, n, b);
}

static VkBufferImageCopy
region(VkDeviceSize off, uint32_t mip, uint32_t layers, uint32_t w,
       uint32_t h, uint32_t depth)
{
	return (VkBufferImageCopy){
		.bufferOffset = off,
		.imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, mip, 0,
		                      layers },
		.imageExtent = { w, h, depth },
	};
}

/* Upload, dispatch, read back. */
static VkResult
rig_run(struct vkh_device *d, struct rig *g)
{
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	const VkImage imgs[3] = { g->a.image, g->c.image, g->dd.image };
	VkBufferImageCopy ra[2] = {
		region(UP_A0, 0, 3, 8, 8, 1), region(UP_A1, 1, 3, 4, 4, 1),
	};
	VkBufferImageCopy rc = region(UP_C, 0, 1, 4, 4, 1);
	VkBufferImageCopy rd[2] = {
		region(UP_D0, 0, 1, 4, 4, 4), region(UP_D1, 1, 1, 2, 2, 2),
	};
	VkBufferImageCopy bc = region(RB_C, 0, 1, 4, 4, 1);
	VkBufferImageCopy bd[2] = {
		region(RB_D0, 0, 1, 4, 4, 4), region(RB_D1, 1, 1, 2, 2, 2),
	};

	if (!cb)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	transition(cb, imgs, 3, VK_IMAGE_LAYOUT_UNDEFINED,
	           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	           VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
	           VK_PIPELINE_STAGE_TRANSFER_BIT,
	           VK_ACCESS_TRANSFER_WRITE_BIT);
	vkCmdCopyBufferToImage(cb, g->up.buffer, g->a.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, ra);
	vkCmdCopyBufferToImage(cb, g->up.buffer, g->c.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &rc);
	vkCmdCopyBufferToImage(cb, g->up.buffer, g->dd.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, rd);
	/* Storage images are accessed in GENERAL. */
	transition(cb, imgs, 3, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	           VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
	           VK_ACCESS_TRANSFER_WRITE_BIT,
	           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	           VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
	vkh_pipe_bind(cb, &g->p, 0, NULL, NULL);
	vkCmdDispatch(cb, 1, 1, 1);
	transition(cb, imgs + 1, 2, VK_IMAGE_LAYOUT_GENERAL,
	           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	           VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
	           VK_ACCESS_TRANSFER_READ_BIT);
	vkCmdCopyImageToBuffer(cb, g->c.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                       g->rb.buffer, 1, &bc);
	vkCmdCopyImageToBuffer(cb, g->dd.image,
	                       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                       g->rb.buffer, 2, bd);
	barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT |
	        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	        VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
	        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
	return vkh_cmd_submit_wait(d, 0, cb);
}

static void
rig_invalidate(struct vkh *h, struct vkh_device *d, struct rig *g)
{
	vkh_buffer_invalidate(h, d, &g->rb);
	vkh_buffer_invalidate(h, d, &g->stb);
	vkh_buffer_invalidate(h, d, &g->o);
}

static void
check_results(struct vkh *h, struct rig *g)
{
	const struct out *o = g->o.map;
	const uint8_t *rb = g->rb.map, *stb = g->stb.map;

	VKH_CHECK_MSG(h, o->sizes[0][0] == 4 && o->sizes[0][1] == 4 &&
	                 o->sizes[0][2] == 2 && o->sizes[0][3] == 32,
	              "2D array %ux%u, %u layers; %u uniform texels",
	              o->sizes[0][0], o->sizes[0][1], o->sizes[0][2],
	              o->sizes[0][3]);
	VKH_CHECK_MSG(h, o->sizes[1][0] == 2 && o->sizes[1][1] == 2 &&
	                 o->sizes[1][2] == 2 && o->sizes[1][3] == 16,
	              "3D %ux%ux%u; %u storage texels", o->sizes[1][0],
	              o->sizes[1][1], o->sizes[1][2], o->sizes[1][3]);
	for (uint32_t i = 0; i < 32; i++) {
		uint32_t x = i % 4, y = i / 4 % 4, z = i / 16;

		VKH_CHECK_MSG(h, o->texels[i] == texel_a(1, 1 + z, x, y),
		              "texel (%u,%u) layer %u: 0x%08x, want 0x%08x",
		              x, y, z, o->texels[i], texel_a(1, 1 + z, x, y));
		VKH_CHECK_MSG(h, o->fetched[i] == 0x1234u + 3 * i,
		              "uniform texel %u: 0x%x", i, o->fetched[i]);
	}
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t x = i % 4, y = i / 4, v;

		memcpy(&v, rb + RB_C + 4 * i, 4);
		VKH_CHECK_MSG(h, v == 1000 + i + (x < 2 && y < 2 ? 12 : 0),
		              "counter (%u,%u): %u", x, y, v);
	}
	for (uint32_t i = 0; i < 64; i++) {
		float v;

		memcpy(&v, rb + RB_D0 + 4 * i, 4);
		VKH_CHECK_MSG(h, v == -1.0f - (float)i, "3D mip 0 [%u]: %g",
		              i, v);
	}
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t x = i % 2, y = i / 2 % 2, z = i / 4;
		float v;

		memcpy(&v, rb + RB_D1 + 4 * i, 4);
		VKH_CHECK_MSG(h, v == (float)(x + 10 * y + 100 * z),
		              "3D mip 1 (%u,%u,%u): %g", x, y, z, v);
	}
	for (VkDeviceSize b = 0; b < g->off + 80; b++) {
		int32_t v;

		if (b < g->off || b >= g->off + 64) {
			VKH_CHECK_MSG(h, stb[b] == 0x7f, "storage texel "
			              "buffer byte %llu written",
			              (unsigned long long)b);
			continue;
		}
		memcpy(&v, stb + b - (b - g->off) % 4, 4);
		VKH_CHECK(h, v == -(int32_t)((b - g->off) / 4) - 1);
	}
}

void
test_views_dispatch(struct vkh *h, struct vkh_device *d)
{
	struct rig g;
	VkResult r;

	if (!views_storage_offered(h)) {
		vkh_skip(h, "no storage images offered");
		return;
	}
	r = rig_create(h, d, &g);
	if (r == VK_SUCCESS)
		r = rig_descriptors(d, &g, false);
	if (r == VK_SUCCESS) {
		r = rig_run(d, &g);
		rig_invalidate(h, d, &g);
	}
	if (r == VK_SUCCESS)
		check_results(h, &g);
	else
		vkh_fail(h, __FILE__, __LINE__, "views and dispatch: %s "
		         "(%d)", vkh_result_str(r), r);
	rig_destroy(d, &g);
}

static void
check_null_results(struct vkh *h, struct rig *g)
{
	const struct out *o = g->o.map;
	const uint8_t *stb = g->stb.map;

	for (uint32_t i = 0; i < 32; i++)
		VKH_CHECK_MSG(h, !o->texels[i] && !o->fetched[i] &&
		                 (i >= 8 || !o->sizes[i / 4][i % 4]),
		              "null descriptors read %u: %u %u %u", i,
		              o->texels[i], o->fetched[i],
		              i < 8 ? o->sizes[i / 4][i % 4] : 0);
	for (VkDeviceSize b = 0; b < g->off + 80; b++)
		VKH_CHECK_MSG(h, stb[b] == 0x7f, "null texel buffer wrote "
		              "byte %llu", (unsigned long long)b);
}

/* Every view VK_NULL_HANDLE (what nullDescriptor allows; swgpu writes a
 * null descriptor whatever the feature): loads and sizes read 0, stores
 * and atomics go nowhere, the job does not fault. */
void
test_views_null_descriptors(struct vkh *h, struct vkh_device *d)
{
	struct rig g;
	VkResult r;

	r = rig_create(h, d, &g);
	if (r == VK_SUCCESS)
		r = rig_descriptors(d, &g, true);
	if (r == VK_SUCCESS) {
		r = rig_run(d, &g);
		rig_invalidate(h, d, &g);
	}
	if (r == VK_SUCCESS)
		check_null_results(h, &g);
	else
		vkh_fail(h, __FILE__, __LINE__, "views and dispatch: %s "
		         "(%d)", vkh_result_str(r), r);
	rig_destroy(d, &g);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_vk_image_copy: vkCmdCopyBufferToImage, vkCmdCopyImageToBuffer and
 * vkCmdCopyImage checked byte by byte, modeled on the CTS group
 * dEQP-VK.api.copy_and_blit.* (own code).
 *
 * Every case fills source and destination with random content, records
 * a list of region shapes (whole subresources, partial sub-boxes at odd
 * offsets, the last mip level, boxes reaching the edge of a mip, layer
 * ranges, bufferRowLength/bufferImageHeight padding and tightly packed
 * rows), applies the same regions to a host model and compares the whole
 * destination with the model: the bytes in the regions must hold the
 * source, every other byte must be untouched.
 *
 * Matrix: formats (1..16-byte blocks, packed, 3-component, compressed,
 * depth/stencil aspects) x tilings (LINEAR, OPTIMAL) x image types (1D,
 * 1D array, 2D, 2D array, cube-compatible, 3D). A combination the device
 * does not report is skipped with a printed reason; on swgpu the formats
 * the issue requires must be reported (test_vk_image_formats).
 */
#include "image_vk.h"

#include <stdlib.h>
#include <string.h>

/* A copy region in texel blocks of the image's plane format. */
struct box {
	uint32_t mip, base_layer, layers;
	uint32_t off[3];
	uint32_t ext[3];
	uint32_t row_blocks, height_blocks; /* buffer padding, 0 = packed */
};

#define MAX_BOXES 4

static const VkFormat color_formats[] = {
	VK_FORMAT_R8_UNORM,
	VK_FORMAT_R5G6B5_UNORM_PACK16,
	VK_FORMAT_R8G8B8_UNORM,
	VK_FORMAT_R8G8B8A8_UNORM,
	VK_FORMAT_B10G11R11_UFLOAT_PACK32,
	VK_FORMAT_R16G16B16_SFLOAT,
	VK_FORMAT_R16G16B16A16_SFLOAT,
	VK_FORMAT_R64_SFLOAT,
	VK_FORMAT_R32G32B32_SFLOAT,
	VK_FORMAT_R32G32B32A32_UINT,
};

static const VkFormat compressed_formats[] = {
	VK_FORMAT_BC1_RGB_UNORM_BLOCK,
	VK_FORMAT_BC3_UNORM_BLOCK,
	VK_FORMAT_BC5_SNORM_BLOCK,
	VK_FORMAT_BC7_SRGB_BLOCK,
	VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
	VK_FORMAT_EAC_R11G11_SNORM_BLOCK,
	VK_FORMAT_ASTC_4x4_UNORM_BLOCK,
	VK_FORMAT_ASTC_5x4_SRGB_BLOCK,
	VK_FORMAT_ASTC_12x12_SRGB_BLOCK,
};

static const VkFormat ds_formats[] = {
	VK_FORMAT_D16_UNORM,
	VK_FORMAT_X8_D24_UNORM_PACK32,
	VK_FORMAT_D32_SFLOAT,
	VK_FORMAT_S8_UINT,
	VK_FORMAT_D16_UNORM_S8_UINT,
	VK_FORMAT_D24_UNORM_S8_UINT,
	VK_FORMAT_D32_SFLOAT_S8_UINT,
};

/* Image shapes: odd extents so pitches are never powers of two. */
static const struct timg_desc color_shapes[] = {
	{ VK_IMAGE_TYPE_1D, 0, 0, { 61, 1, 1 }, 3, 1, 0 },
	{ VK_IMAGE_TYPE_1D, 0, 0, { 45, 1, 1 }, 2, 3, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 53, 31, 1 }, 1, 1, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 37, 23, 1 }, 3, 1, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 29, 17, 1 }, 2, 5, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 16, 16, 1 }, 2, 6,
	  VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT },
	{ VK_IMAGE_TYPE_3D, 0, 0, { 19, 13, 7 }, 2, 1, 0 },
};

/* Compressed: a multiple of every tested block extent at mip 0; the
 * smaller mips end in partial blocks (copies must reach the edge). */
static const struct timg_desc compressed_shapes[] = {
	{ VK_IMAGE_TYPE_2D, 0, 0, { 60, 48, 1 }, 3, 1, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 60, 48, 1 }, 2, 4, 0 },
};

static const struct timg_desc ds_shapes[] = {
	{ VK_IMAGE_TYPE_2D, 0, 0, { 27, 11, 1 }, 1, 1, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 33, 17, 1 }, 2, 1, 0 },
	{ VK_IMAGE_TYPE_2D, 0, 0, { 21, 14, 1 }, 2, 3, 0 },
};

static const VkImageTiling tilings[] = {
	VK_IMAGE_TILING_LINEAR,
	VK_IMAGE_TILING_OPTIMAL,
};

static uint32_t
umax(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint32_t
umin(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The region shapes for plane blocks of t (see the file comment). */
static unsigned
make_boxes(const struct timg *t, struct box *bx)
{
	uint32_t L = t->desc.layers, last = t->desc.mips - 1;
	uint32_t b[3];
	unsigned n = 0;

	timg_mip_blocks(t, 0, b);
	/* Whole mip 0, all layers, tightly packed. */
	bx[n++] = (struct box){ 0, 0, L, { 0, 0, 0 }, { b[0], b[1], b[2] },
	                        0, 0 };
	/* A sub-box at odd offsets in the middle layers, padded rows and
	 * padded image height in the buffer. */
	{
		struct box s = { 0, L >= 3 ? 1 : 0, L >= 3 ? L - 2 : L,
		                 { 0, 0, 0 }, { 0, 0, 0 }, 0, 0 };
		for (int k = 0; k < 3; k++) {
			s.off[k] = b[k] > 1 ? 1 : 0;
			s.ext[k] = umax(1, b[k] / 2);
		}
		s.row_blocks = s.ext[0] + 3;
		s.height_blocks = s.ext[1] + 2;
		bx[n++] = s;
	}
	/* The last mip level of the last layer. */
	timg_mip_blocks(t, last, b);
	bx[n++] = (struct box){ last, L - 1, 1, { 0, 0, 0 },
	                        { b[0], b[1], b[2] }, 0, 0 };
	/* A box reaching the far edge of mip 1 (partial blocks there for
	 * compressed formats), padded image height only. */
	{
		uint32_t m = umin(1, last);
		struct box e = { m, 0, L, { 0, 0, 0 }, { 0, 0, 0 }, 0, 0 };
		timg_mip_blocks(t, m, b);
		for (int k = 0; k < 3; k++) {
			e.ext[k] = umax(1, (b[k] + 2) / 3);
			e.off[k] = b[k] - e.ext[k];
		}
		e.height_blocks = e.ext[1] + 1;
		bx[n++] = e;
	}
	return n;
}

/* Texel offset/extent of a block box on image t (edge-clamped). */
static void
box_texels(const struct timg *t, const struct box *b, VkOffset3D *off,
           VkExtent3D *ext)
{
	VkExtent3D me = timg_mip_extent(t, b->mip);
	uint32_t bw = t->fmt->bw, bh = t->fmt->bh;

	off->x = (int32_t)(b->off[0] * bw);
	off->y = (int32_t)(b->off[1] * bh);
	off->z = (int32_t)b->off[2];
	ext->width = umin(b->ext[0] * bw, me.width - (uint32_t)off->x);
	ext->height = umin(b->ext[1] * bh, me.height - (uint32_t)off->y);
	ext->depth = b->ext[2];
}

/* Buffer bytes a box occupies with its padding. */
static size_t
box_buffer_size(const struct box *b, uint32_t bytes)
{
	uint32_t row = b->row_blocks ? b->row_blocks : b->ext[0];
	uint32_t hgt = b->height_blocks ? b->height_blocks : b->ext[1];
	size_t slice = (size_t)row * hgt * bytes;

	return slice * b->ext[2] * b->layers;
}

/* Offset in the buffer of block (x, y, z) of layer l within box b: the
 * spec's addressing with rowLength/imageHeight in blocks; layers follow
 * each other like depth slices. */
static size_t
box_buffer_addr(const struct box *b, uint32_t bytes, uint32_t x, uint32_t y,
                uint32_t z, uint32_t l)
{
	uint32_t row = b->row_blocks ? b->row_blocks : b->ext[0];
	uint32_t hgt = b->height_blocks ? b->height_blocks : b->ext[1];
	size_t slice = (size_t)z + (size_t)l * b->ext[2];

	return ((slice * hgt + y) * row + x) * bytes;
}

static VkBufferImageCopy
box_region(const struct timg *t, unsigned p, const struct box *b,
           VkDeviceSize off)
{
	VkBufferImageCopy r = {
		.bufferOffset = off,
		.bufferRowLength = b->row_blocks * t->fmt->bw,
		.bufferImageHeight = b->height_blocks * t->fmt->bh,
		.imageSubresource = {
			.aspectMask = t->aspect[p],
			.mipLevel = b->mip,
			.baseArrayLayer = b->base_layer,
			.layerCount = b->layers,
		},
	};

	box_texels(t, b, &r.imageOffset, &r.imageExtent);
	return r;
}

/* bufferOffset alignment: block size, and 4 (depth/stencil, queues
 * without graphics/compute). */
static size_t
buf_align(uint32_t bytes)
{
	return 4u * bytes;
}

static size_t
align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

static void
describe(char *s, size_t n, const struct timg *t, unsigned p)
{
	snprintf(s, n, "%s %s %s %ux%ux%u mips %u layers %u aspect 0x%x",
	         t->fmt->name, timg_tiling_name(t->desc.tiling),
	         timg_type_name(&t->desc), t->desc.extent.width,
	         t->desc.extent.height, t->desc.extent.depth, t->desc.mips,
	         t->desc.layers, t->aspect[p]);
}

/* ---- buffer -> image ---- */

static bool
case_buffer_to_image(struct vkh *h, struct vkh_device *d, struct timg *t,
                     unsigned p, uint32_t seed)
{
	struct box bx[MAX_BOXES];
	unsigned n = make_boxes(t, bx);
	uint32_t bytes = t->pf[p]->bytes;
	size_t off[MAX_BOXES], size = 0, align = buf_align(bytes);
	struct ir_rng rng = { seed };
	struct vkh_buffer buf;
	VkCommandBuffer cb;
	char what[160];
	long bad;
	/* Every other case goes through the *2 entry points. */
	bool use2 = seed & 1;

	for (unsigned i = 0; i < n; i++) {
		/* Box 1 starts one alignment unit into its chunk. */
		off[i] = align_up(size, align) + (i == 1 ? align : 0);
		size = off[i] + box_buffer_size(&bx[i], bytes);
	}
	timg_randomize(t, seed + 1);
	if (timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	if (vkh_buffer_create(h, d, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	                      VKH_MEM_UPLOAD, -1, &buf) != VK_SUCCESS)
		return false;
	ir_fill_random(&rng, t->pf[p], buf.map, size);
	cb = vkh_cmd_begin(d, 0);
	for (unsigned i = 0; i < n; i++) {
		VkBufferImageCopy r = box_region(t, p, &bx[i], off[i]);
		/* Also the write-after-write dependency between regions. */
		timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		if (use2)
			timg_copy_b2i2(cb, buf.buffer, t, &r);
		else
			vkCmdCopyBufferToImage(cb, buf.buffer, t->image,
			                       t->layout, 1, &r);
		for (uint32_t l = 0; l < bx[i].layers; l++)
		for (uint32_t z = 0; z < bx[i].ext[2]; z++)
		for (uint32_t y = 0; y < bx[i].ext[1]; y++)
		for (uint32_t x = 0; x < bx[i].ext[0]; x++) {
			memcpy(timg_block(t, p, bx[i].mip,
			                  bx[i].base_layer + l, bx[i].off[0] + x,
			                  bx[i].off[1] + y, bx[i].off[2] + z),
			       (uint8_t *)buf.map + off[i] +
			       box_buffer_addr(&bx[i], bytes, x, y, z, l),
			       bytes);
		}
	}
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS) {
		vkh_buffer_destroy(d, &buf);
		return false;
	}
	vkh_buffer_destroy(d, &buf);
	describe(what, sizeof(what), t, p);
	bad = timg_check(h, d, t, what);
	if (bad)
		fprintf(stderr, "  buffer->image %s: %ld bad blocks\n", what,
		        bad);
	return bad == 0;
}

/* ---- image -> buffer ---- */

static bool
case_image_to_buffer(struct vkh *h, struct vkh_device *d, struct timg *t,
                     unsigned p, uint32_t seed)
{
	struct box bx[MAX_BOXES];
	unsigned n = make_boxes(t, bx);
	uint32_t bytes = t->pf[p]->bytes;
	size_t off[MAX_BOXES], size = 0, align = buf_align(bytes);
	struct ir_rng rng = { seed };
	struct vkh_buffer buf;
	VkCommandBuffer cb;
	uint8_t *model, *care, mask[16];
	char what[160];
	long bad = 0;
	bool use2 = seed & 1;
	/* Every third case: all regions in one command (regionCount > 1;
	 * they are disjoint in the buffer). */
	bool multi = seed % 3 == 0 && !ir_format_is_compressed(t->fmt);
	VkBufferImageCopy all[MAX_BOXES];

	ir_aspect_mask(t->fmt, t->aspect[p], mask);
	for (unsigned i = 0; i < n; i++) {
		off[i] = align_up(size, align) + (i == 1 ? align : 0);
		size = off[i] + box_buffer_size(&bx[i], bytes);
	}
	/* Trailing bytes: a copy must not write past its last block. */
	size += 64;
	timg_randomize(t, seed + 1);
	if (timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	if (vkh_buffer_create(h, d, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	                      VKH_MEM_UPLOAD, -1, &buf) != VK_SUCCESS)
		return false;
	model = malloc(size);
	care = malloc(size);
	if (!model || !care) {
		free(model);
		free(care);
		vkh_buffer_destroy(d, &buf);
		return false;
	}
	ir_fill_random(&rng, NULL, model, size);
	memcpy(buf.map, model, size);
	memset(care, 0xff, size);
	cb = vkh_cmd_begin(d, 0);
	timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	for (unsigned i = 0; i < n; i++) {
		VkBufferImageCopy r = box_region(t, p, &bx[i], off[i]);
		all[i] = r;
		if (multi)
			goto model;
		/* Regions are disjoint in the buffer: no barrier needed.
		 * But the 1.3.239 layer's synchronization validation
		 * places image and buffer accesses of block-compressed
		 * copies in overlapping ranges (false WRITE_AFTER_READ on
		 * the buffer / READ_AFTER_WRITE on the image between two
		 * of these copies), so those are ordered anyway. */
		if (i && ir_format_is_compressed(t->fmt))
			timg_barrier(cb, t,
			             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		if (use2)
			timg_copy_i2b2(cb, t, buf.buffer, &r);
		else
			vkCmdCopyImageToBuffer(cb, t->image, t->layout,
			                       buf.buffer, 1, &r);
model:
		for (uint32_t l = 0; l < bx[i].layers; l++)
		for (uint32_t z = 0; z < bx[i].ext[2]; z++)
		for (uint32_t y = 0; y < bx[i].ext[1]; y++)
		for (uint32_t x = 0; x < bx[i].ext[0]; x++) {
			size_t a = off[i] +
			           box_buffer_addr(&bx[i], bytes, x, y, z, l);
			memcpy(model + a,
			       timg_block(t, p, bx[i].mip,
			                  bx[i].base_layer + l, bx[i].off[0] + x,
			                  bx[i].off[1] + y, bx[i].off[2] + z),
			       bytes);
			memcpy(care + a, mask, bytes);
		}
	}
	if (multi)
		vkCmdCopyImageToBuffer(cb, t->image, t->layout, buf.buffer, n,
		                       all);
	vkh_cmd_host_barrier(cb);
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS) {
		bad = -1;
	} else {
		const uint8_t *got = buf.map;
		describe(what, sizeof(what), t, p);
		for (size_t i = 0; i < size; i++) {
			if (!((got[i] ^ model[i]) & care[i]))
				continue;
			if (bad < 4)
				fprintf(stderr, "    image->buffer %s: byte %zu"
				        " got 0x%02x want 0x%02x\n", what, i,
				        got[i], model[i]);
			bad++;
		}
		if (bad)
			fprintf(stderr, "  image->buffer %s: %ld bad bytes\n",
			        what, bad);
	}
	free(model);
	free(care);
	vkh_buffer_destroy(d, &buf);
	return bad == 0;
}

/* ---- image -> image ---- */

struct box_pair {
	struct box src, dst;
};

/* Region pairs between two images of the same shape, in blocks of each
 * image's own format (equal block bytes; extents in source blocks). */
static unsigned
make_pairs(const struct timg *s, const struct timg *t, struct box_pair *bp)
{
	uint32_t L = s->desc.layers, last = s->desc.mips - 1;
	uint32_t b[3], b1[3];
	unsigned n = 0;

	timg_mip_blocks(s, 0, b);
	/* Whole mip 0. */
	bp[n].src = (struct box){ 0, 0, L, { 0 }, { b[0], b[1], b[2] }, 0, 0 };
	bp[n].dst = bp[n].src;
	n++;
	/* Half box from odd offsets to the far corner, layers shifted by
	 * one when there are several. */
	{
		struct box_pair q = { { 0, 0, L > 1 ? L - 1 : 1, { 0 }, { 0 },
		                        0, 0 },
		                      { 0, L > 1 ? 1 : 0, L > 1 ? L - 1 : 1,
		                        { 0 }, { 0 }, 0, 0 } };
		for (int k = 0; k < 3; k++) {
			uint32_t e = umax(1, b[k] / 2);
			q.src.off[k] = b[k] > 1 ? 1 : 0;
			q.src.ext[k] = q.dst.ext[k] = e;
			q.dst.off[k] = b[k] - e;
		}
		bp[n++] = q;
	}
	/* Last mip of the last layer into mip 0 of layer 0 at an offset. */
	timg_mip_blocks(s, last, b1);
	{
		struct box_pair q = { { last, L - 1, 1, { 0 }, { 0 }, 0, 0 },
		                      { 0, 0, 1, { 0 }, { 0 }, 0, 0 } };
		VkExtent3D me = timg_mip_extent(s, last);
		/* Whole blocks only: a partial edge block of the source
		 * could only land on the destination's edge. */
		uint32_t full[3] = { me.width / s->fmt->bw,
		                     me.height / s->fmt->bh, me.depth };
		for (int k = 0; k < 3; k++) {
			q.dst.off[k] = b[k] > b1[k] ? 1 : 0;
			q.src.ext[k] = q.dst.ext[k] =
				umin(umax(1, full[k]), b[k] - q.dst.off[k]);
		}
		bp[n++] = q;
	}
	/* The far corner of mip 1, layer 0 -> last layer: both boxes reach
	 * the edge (partial blocks there for compressed formats). */
	if (last >= 1) {
		struct box_pair q = { { 1, 0, 1, { 0 }, { 0 }, 0, 0 },
		                      { 1, L - 1, 1, { 0 }, { 0 }, 0, 0 } };
		timg_mip_blocks(t, 1, b1);
		for (int k = 0; k < 3; k++) {
			uint32_t e = umax(1, (b1[k] + 1) / 2);
			q.src.ext[k] = q.dst.ext[k] = e;
			q.src.off[k] = q.dst.off[k] = b1[k] - e;
		}
		bp[n++] = q;
	}
	return n;
}

static bool
case_image_to_image(struct vkh *h, struct vkh_device *d, struct timg *s,
                    struct timg *t, unsigned p, uint32_t seed)
{
	struct box_pair bp[MAX_BOXES];
	unsigned n = make_pairs(s, t, bp);
	uint32_t bytes = s->pf[p]->bytes;
	VkCommandBuffer cb;
	char what[200], dw[160];
	long bad;
	bool use2 = seed & 1;
	/* Mesa 22.3 lavapipe copies both aspects of a combined depth/
	 * stencil texel when one aspect is asked for (a lavapipe bug): on
	 * lavapipe only, the model follows, so the rest is still checked. */
	bool lvp_quirk = t->nplanes > 1 &&
	                 h->driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE;

	if (lvp_quirk)
		printf("  note: lavapipe single-aspect copy of %s also copies "
		       "the other aspect (known Mesa bug, modeled)\n",
		       t->fmt->name);

	timg_randomize(s, seed);
	timg_randomize(t, seed + 7);
	if (timg_upload(h, d, s) != VK_SUCCESS ||
	    timg_upload(h, d, t) != VK_SUCCESS)
		return false;
	cb = vkh_cmd_begin(d, 0);
	timg_barrier(cb, s, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	for (unsigned i = 0; i < n; i++) {
		const struct box *a = &bp[i].src, *b = &bp[i].dst;
		VkExtent3D dext;
		VkImageCopy r = {
			.srcSubresource = { s->aspect[p], a->mip,
			                    a->base_layer, a->layers },
			.dstSubresource = { t->aspect[p], b->mip,
			                    b->base_layer, b->layers },
		};
		/* The extent is in source texels (the spec's rule for
		 * compressed <-> uncompressed pairs). */
		box_texels(s, a, &r.srcOffset, &r.extent);
		box_texels(t, b, &r.dstOffset, &dext);
		timg_barrier(cb, t, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		if (use2)
			timg_copy_i2i2(cb, s, t, &r);
		else
			vkCmdCopyImage(cb, s->image, s->layout, t->image,
			               t->layout, 1, &r);
		for (unsigned q = 0; q < t->nplanes; q++) {
			if (q != p && !lvp_quirk)
				continue;
			bytes = s->pf[q]->bytes;
			for (uint32_t l = 0; l < a->layers; l++)
			for (uint32_t z = 0; z < a->ext[2]; z++)
			for (uint32_t y = 0; y < a->ext[1]; y++)
			for (uint32_t x = 0; x < a->ext[0]; x++) {
				memcpy(timg_block(t, q, b->mip,
				                  b->base_layer + l,
				                  b->off[0] + x, b->off[1] + y,
				                  b->off[2] + z),
				       timg_block(s, q, a->mip,
				                  a->base_layer + l,
				                  a->off[0] + x, a->off[1] + y,
				                  a->off[2] + z), bytes);
			}
		}
	}
	if (vkh_cmd_submit_wait(d, 0, cb) != VK_SUCCESS)
		return false;
	describe(dw, sizeof(dw), t, p);
	snprintf(what, sizeof(what), "%s <- %s", dw, s->fmt->name);
	bad = timg_check(h, d, t, what);
	if (bad)
		fprintf(stderr, "  image->image %s: %ld bad blocks\n", what,
		        bad);
	/* The source must be unchanged too. */
	if (!bad)
		bad = timg_check(h, d, s, "copy source");
	return bad == 0;
}

/* ---- matrix driver ---- */

enum op { OP_B2I, OP_I2B, OP_I2I };

struct tally {
	unsigned run, skipped, failed;
};

static void
run_matrix(struct vkh *h, struct vkh_device *d, enum op op,
           const VkFormat *fmts, unsigned nfmt,
           const struct timg_desc *shapes, unsigned nshape,
           struct tally *ty)
{
	static const char *opname[] = { "buffer->image", "image->buffer",
	                                "image->image" };
	uint32_t seed = 1;

	for (unsigned f = 0; f < nfmt; f++)
	for (unsigned ti = 0; ti < 2; ti++)
	for (unsigned s = 0; s < nshape; s++, seed += 17) {
		struct timg_desc desc = shapes[s];
		struct timg a, b;
		const char *why = "";
		bool ok = true;

		desc.format = fmts[f];
		desc.tiling = tilings[ti];
		if (timg_supported(h, &desc, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s %s %s %s: not reported (%s)\n",
			       opname[op], ir_format_get(fmts[f])->name,
			       timg_tiling_name(desc.tiling),
			       timg_type_name(&desc), why);
			ty->skipped++;
			continue;
		}
		if (timg_create(h, d, &desc, 0, &a) != VK_SUCCESS) {
			vkh_fail(h, __FILE__, __LINE__, "create %s image",
			         a.fmt ? a.fmt->name : "?");
			timg_destroy(d, &a);
			ty->failed++;
			continue;
		}
		memset(&b, 0, sizeof(b));
		if (op == OP_I2I &&
		    timg_create(h, d, &desc, 0, &b) != VK_SUCCESS) {
			vkh_fail(h, __FILE__, __LINE__, "create dst image");
			ok = false;
		}
		for (unsigned p = 0; ok && p < a.nplanes; p++) {
			ty->run++;
			if (getenv("IMGTEST_VERBOSE")) {
				char what[160];
				describe(what, sizeof(what), &a, p);
				fprintf(stderr, "  case %s %s (seed %u)\n",
				        opname[op], what, seed);
			}
			if (op == OP_B2I)
				ok = case_buffer_to_image(h, d, &a, p, seed);
			else if (op == OP_I2B)
				ok = case_image_to_buffer(h, d, &a, p, seed);
			else
				ok = case_image_to_image(h, d, &a, &b, p,
				                         seed);
			if (!ok) {
				char what[160];
				describe(what, sizeof(what), &a, p);
				vkh_fail(h, __FILE__, __LINE__, "%s %s",
				         opname[op], what);
				ty->failed++;
			}
		}
		timg_destroy(d, &a);
		timg_destroy(d, &b);
	}
}

static void
report(struct vkh *h, const struct tally *ty)
{
	printf("  %u cases run, %u failed, %u combinations not reported\n",
	       ty->run, ty->failed, ty->skipped);
	if (!ty->run && !ty->failed)
		vkh_skip(h, "no combination reported by the device");
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
test_buffer_to_image(struct vkh *h, struct vkh_device *d)
{
	struct tally ty = { 0 };

	run_matrix(h, d, OP_B2I, color_formats, N(color_formats),
	           color_shapes, N(color_shapes), &ty);
	report(h, &ty);
}

static void
test_image_to_buffer(struct vkh *h, struct vkh_device *d)
{
	struct tally ty = { 0 };

	run_matrix(h, d, OP_I2B, color_formats, N(color_formats),
	           color_shapes, N(color_shapes), &ty);
	report(h, &ty);
}

static void
test_image_to_image(struct vkh *h, struct vkh_device *d)
{
	struct tally ty = { 0 };

	run_matrix(h, d, OP_I2I, color_formats, N(color_formats),
	           color_shapes, N(color_shapes), &ty);
	report(h, &ty);
}

static void
test_compressed(struct vkh *h, struct vkh_device *d)
{
	struct tally ty = { 0 };

	run_matrix(h, d, OP_B2I, compressed_formats, N(compressed_formats),
	           compressed_shapes, N(compressed_shapes), &ty);
	run_matrix(h, d, OP_I2B, compressed_formats, N(compressed_formats),
	           compressed_shapes, N(compressed_shapes), &ty);
	run_matrix(h, d, OP_I2I, compressed_formats, N(compressed_formats),
	           compressed_shapes, N(compressed_shapes), &ty);
	report(h, &ty);
}

/* Depth/stencil aspects: buffer -> image of a depth or stencil aspect is
 * only valid on queues with graphics (VUID-...-commandBuffer-07739). */
static void
test_depth_stencil(struct vkh *h, struct vkh_device *d)
{
	struct tally ty = { 0 };

	if (!(d->queues[0].flags & VK_QUEUE_GRAPHICS_BIT))
		vkh_expect_message("07739");
	run_matrix(h, d, OP_B2I, ds_formats, N(ds_formats), ds_shapes,
	           N(ds_shapes), &ty);
	run_matrix(h, d, OP_I2B, ds_formats, N(ds_formats), ds_shapes,
	           N(ds_shapes), &ty);
	run_matrix(h, d, OP_I2I, ds_formats, N(ds_formats), ds_shapes,
	           N(ds_shapes), &ty);
	report(h, &ty);
}

/* Size-compatible pairs: equal block bytes, different formats, incl.
 * compressed <-> uncompressed (extents in source texels; the images have
 * equal extents in blocks, one mip so every level matches). */
static void
test_size_compatible(struct vkh *h, struct vkh_device *d)
{
	static const VkFormat pairs[][2] = {
		{ VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32_SFLOAT },
		{ VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32_UINT },
		{ VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_R32G32_UINT },
		{ VK_FORMAT_R32G32_UINT, VK_FORMAT_BC1_RGB_UNORM_BLOCK },
		{ VK_FORMAT_BC7_SRGB_BLOCK, VK_FORMAT_R32G32B32A32_UINT },
		{ VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_BC3_UNORM_BLOCK },
		{ VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,
		  VK_FORMAT_R16G16B16A16_SFLOAT },
		{ VK_FORMAT_ASTC_4x4_UNORM_BLOCK, VK_FORMAT_R32G32B32A32_UINT },
	};
	struct tally ty = { 0 };

	for (unsigned i = 0; i < N(pairs); i++)
	for (unsigned ti = 0; ti < 2; ti++) {
		const struct ir_format *fs = ir_format_get(pairs[i][0]);
		const struct ir_format *fd = ir_format_get(pairs[i][1]);
		struct timg_desc ds = {
			VK_IMAGE_TYPE_2D, pairs[i][0], tilings[ti],
			{ 15 * fs->bw, 12 * fs->bh, 1 }, 1, 2, 0
		};
		struct timg_desc dd = ds;
		struct timg s, t;
		const char *why = "";

		dd.format = pairs[i][1];
		dd.extent = (VkExtent3D){ 15 * fd->bw, 12 * fd->bh, 1 };
		if (timg_supported(h, &ds, 0, 0, &why) != VK_SUCCESS ||
		    timg_supported(h, &dd, 0, 0, &why) != VK_SUCCESS) {
			printf("  skip %s -> %s %s: not reported (%s)\n",
			       fs->name, fd->name, timg_tiling_name(ds.tiling),
			       why);
			ty.skipped++;
			continue;
		}
		memset(&t, 0, sizeof(t));
		ty.run++;
		if (timg_create(h, d, &ds, 0, &s) != VK_SUCCESS ||
		    timg_create(h, d, &dd, 0, &t) != VK_SUCCESS ||
		    !case_image_to_image(h, d, &s, &t, 0, 100 + i)) {
			vkh_fail(h, __FILE__, __LINE__, "%s -> %s %s",
			         fs->name, fd->name,
			         timg_tiling_name(ds.tiling));
			ty.failed++;
		}
		timg_destroy(d, &s);
		timg_destroy(d, &t);
	}
	report(h, &ty);
}

static const struct vkh_test tests[] = {
	{ "buffer_to_image", test_buffer_to_image, 1, 0 },
	{ "image_to_buffer", test_image_to_buffer, 1, 0 },
	{ "image_to_image", test_image_to_image, 1, 0 },
	{ "size_compatible", test_size_compatible, 1, 0 },
	{ "compressed", test_compressed, 1, 0 },
	{ "depth_stencil", test_depth_stencil, 1, VK_QUEUE_GRAPHICS_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_image_copy", tests,
	                     N(tests));
}

/* SPDX-License-Identifier: MIT */
/*
 * swgpu_packet.h — the command packet format of the swgpu engines.
 *
 * Packets are streams of 32-bit little-endian dwords in GPU memory. Every
 * packet starts with a header dword:
 *
 *   bits  0..7   opcode (SWGPU_OP_*)
 *   bits  8..15  flags, opcode specific
 *   bits 16..31  packet length in dwords, header included (>= 1)
 *
 * 64-bit values are two dwords, low dword first. Addresses are GPU VAs in
 * the submitting context's address space. A packet whose length does not
 * match its opcode, an unknown opcode, or a packet running past the end of
 * its indirect buffer is malformed (SWGPU_FAULT_BAD_PACKET); an access to a
 * VA that is unmapped or lacks the needed permission is a page fault. Both
 * end the job in ERROR and mark its context guilty.
 *
 * Packet layouts (dword index: meaning):
 *
 *   NOP            0: header, 1..len-1: ignored. Any length >= 1.
 *   INDIRECT_BUFFER
 *                  1-2: va, 3: size_dw. Executes the IB, then continues
 *                  after this packet (a call). Nesting is limited to
 *                  swgpu_device_info.max_ib_depth, counting a submitted
 *                  IB as level 1: a job may nest max_ib_depth - 1
 *                  INDIRECT_BUFFER packets deep.
 *   COPY           1-2: dst va, 3-4: src va, 5-6: size in bytes. Any size
 *                  and byte alignment. Overlapping ranges: memmove.
 *   FILL           1-2: dst va, 3-4: size in bytes, 5: 32-bit pattern.
 *                  dst and size must be multiples of 4.
 *   WRITE_DATA     1-2: dst va, 3..len-1: dwords to write (dst 4-aligned).
 *   SEM_WAIT       1-2: va (8-aligned), 3-4: value. Stalls the engine until
 *                  the 64-bit word at va is >= value (unsigned). A wait
 *                  that is not satisfied within the hang timeout is a hang.
 *   SEM_SIGNAL     1-2: va (8-aligned), 3-4: value. Writes the 64-bit value
 *                  once every earlier packet of the job completed.
 *                  Flag SWGPU_SIGNAL_WRITE_MAX: write max(old, value).
 *   TIMESTAMP      1-2: va (8-aligned). Writes swgpu_now_ns() as 64 bits
 *                  once every earlier packet completed.
 */
#ifndef SWGPU_PACKET_H
#define SWGPU_PACKET_H

#include <stdint.h>

enum swgpu_opcode {
	SWGPU_OP_NOP = 0x00,
	SWGPU_OP_INDIRECT_BUFFER = 0x01,
	SWGPU_OP_COPY = 0x02,
	SWGPU_OP_FILL = 0x03,
	SWGPU_OP_WRITE_DATA = 0x04,
	SWGPU_OP_SEM_WAIT = 0x05,
	SWGPU_OP_SEM_SIGNAL = 0x06,
	SWGPU_OP_TIMESTAMP = 0x07,
	/* 0x10..0x1f: image packets (see "Image packets" below).
	 * 0x20..0x2f: compute packets (see "Compute packets" below).
	 * 0x30..0x3f: graphics packets (see "Graphics packets" below). */
	SWGPU_OP_COUNT = 0x40   /* size of the decoder's opcode table */
};

#define SWGPU_SIGNAL_WRITE_MAX (1u << 0)

/* Packet lengths in dwords, header included. */
#define SWGPU_LEN_INDIRECT_BUFFER 4u
#define SWGPU_LEN_COPY 7u
#define SWGPU_LEN_FILL 6u
#define SWGPU_LEN_WRITE_DATA(ndw) (3u + (ndw))
#define SWGPU_LEN_SEM_WAIT 5u
#define SWGPU_LEN_SEM_SIGNAL 5u
#define SWGPU_LEN_TIMESTAMP 3u
#define SWGPU_MAX_PACKET_DW 0xffffu

static inline uint32_t
swgpu_pkt_header(uint32_t opcode, uint32_t flags, uint32_t len_dw)
{
	return (opcode & 0xffu) | ((flags & 0xffu) << 8) | (len_dw << 16);
}

static inline uint32_t swgpu_pkt_opcode(uint32_t h) { return h & 0xffu; }
static inline uint32_t swgpu_pkt_flags(uint32_t h) { return (h >> 8) & 0xffu; }
static inline uint32_t swgpu_pkt_len(uint32_t h) { return h >> 16; }

static inline void
swgpu_pkt_put64(uint32_t *p, uint64_t v)
{
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

static inline uint64_t
swgpu_pkt_get64(const uint32_t *p)
{
	return (uint64_t)p[0] | ((uint64_t)p[1] << 32);
}

/* Emit helpers: write one packet at p, return its length in dwords. */

static inline uint32_t
swgpu_emit_nop(uint32_t *p, uint32_t len_dw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_NOP, 0, len_dw);
	for (uint32_t i = 1; i < len_dw; i++)
		p[i] = 0;
	return len_dw;
}

static inline uint32_t
swgpu_emit_indirect(uint32_t *p, uint64_t va, uint32_t size_dw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_INDIRECT_BUFFER, 0,
	                        SWGPU_LEN_INDIRECT_BUFFER);
	swgpu_pkt_put64(p + 1, va);
	p[3] = size_dw;
	return SWGPU_LEN_INDIRECT_BUFFER;
}

static inline uint32_t
swgpu_emit_copy(uint32_t *p, uint64_t dst, uint64_t src, uint64_t size)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_COPY, 0, SWGPU_LEN_COPY);
	swgpu_pkt_put64(p + 1, dst);
	swgpu_pkt_put64(p + 3, src);
	swgpu_pkt_put64(p + 5, size);
	return SWGPU_LEN_COPY;
}

static inline uint32_t
swgpu_emit_fill(uint32_t *p, uint64_t dst, uint64_t size, uint32_t pattern)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_FILL, 0, SWGPU_LEN_FILL);
	swgpu_pkt_put64(p + 1, dst);
	swgpu_pkt_put64(p + 3, size);
	p[5] = pattern;
	return SWGPU_LEN_FILL;
}

/* Writes the header and address; the caller stores ndw data dwords at
 * p + 3. */
static inline uint32_t
swgpu_emit_write_data_header(uint32_t *p, uint64_t dst, uint32_t ndw)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_WRITE_DATA, 0,
	                        SWGPU_LEN_WRITE_DATA(ndw));
	swgpu_pkt_put64(p + 1, dst);
	return SWGPU_LEN_WRITE_DATA(ndw);
}

static inline uint32_t
swgpu_emit_sem_wait(uint32_t *p, uint64_t va, uint64_t value)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SEM_WAIT, 0, SWGPU_LEN_SEM_WAIT);
	swgpu_pkt_put64(p + 1, va);
	swgpu_pkt_put64(p + 3, value);
	return SWGPU_LEN_SEM_WAIT;
}

static inline uint32_t
swgpu_emit_sem_signal(uint32_t *p, uint64_t va, uint64_t value,
                      uint32_t flags)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SEM_SIGNAL, flags,
	                        SWGPU_LEN_SEM_SIGNAL);
	swgpu_pkt_put64(p + 1, va);
	swgpu_pkt_put64(p + 3, value);
	return SWGPU_LEN_SEM_SIGNAL;
}

static inline uint32_t
swgpu_emit_timestamp(uint32_t *p, uint64_t va)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_TIMESTAMP, 0, SWGPU_LEN_TIMESTAMP);
	swgpu_pkt_put64(p + 1, va);
	return SWGPU_LEN_TIMESTAMP;
}

/* ------------------------------------------------------------------ */
/* Image packets (opcodes 0x10..0x1f)                                  */
/* ------------------------------------------------------------------ */

/*
 * Surfaces are pitched: texel (x, y, z) of a surface lives at
 * va + z * slice_pitch + y * row_pitch + x * block_bytes. Pitches are
 * 64-bit byte counts; the ICD folds sub-box offsets, mip levels and array
 * layers into va. Formats are enum swgpu_format (<swgpu/swgpu_format.h>).
 * Every byte a packet touches (first to last, per surface) must lie in
 * one mapping with the access it needs (src READ, dst WRITE), else a page
 * fault; zero sizes, rows/slices/extents above SWGPU_IMAGE_MAX_EXTENT,
 * pitch arithmetic that overflows, unknown formats and formats without
 * the needed encoder/decoder are BAD_PACKET. Nothing is written when a
 * packet faults. Texel packets need no alignment of va or pitches.
 *
 *   COPY_PITCHED (0x10), 16 dwords: a 3D box of raw bytes.
 *                  1-2: dst va, 3-4: dst row pitch, 5-6: dst slice pitch,
 *                  7-8: src va, 9-10: src row pitch, 11-12: src slice
 *                  pitch, 13: row bytes, 14: rows, 15: slices (all >= 1).
 *                  A pitch may be 0 only when its extent is 1 (rows == 1
 *                  for the row pitch, slices == 1 for the slice pitch).
 *                  Rows must not overlap within a surface (row pitch >=
 *                  row bytes when rows > 1, likewise slices). Buffer <->
 *                  image, image <-> image and compressed blocks (in block
 *                  rows) are all this packet. Overlapping src/dst boxes
 *                  give unspecified contents (no fault).
 *   CLEAR_BOX (0x11), 15 dwords: fill a box of texels with one value.
 *                  1-2: va, 3-4: row pitch, 5-6: slice pitch, 7: format,
 *                  8: width, 9: height, 10: depth (texels, >= 1),
 *                  11..14: clear value. R,G,B,A as float bits for
 *                  UNORM/SNORM/SCALED/FLOAT/SRGB formats (sRGB encoded by
 *                  the engine), as uint32/int32 bits for UINT/SINT
 *                  formats (64-bit integer formats: the value is
 *                  sign/zero-extended; 64-bit float: converted from the
 *                  float). Depth formats: dword 11 = depth as float bits;
 *                  S8_UINT: dword 11 = stencil (low 8 bits).
 *                  Needs SWGPU_FORMAT_CAP_ENCODE.
 *   BLIT (0x12), 33 dwords: vkCmdBlitImage semantics for one region.
 *                  Header flag SWGPU_BLIT_LINEAR: linear filter, else
 *                  nearest.
 *                  1-2: src va, 3-4: src row pitch, 5-6: src slice pitch,
 *                  7: src format, 8-10: src width, height, depth,
 *                  11-12: dst va, 13-14: dst row pitch, 15-16: dst slice
 *                  pitch, 17: dst format, 18-20: dst width, height, depth,
 *                  21-26: src region corners x0, y0, z0, x1, y1, z1
 *                  (int32), 27-32: dst region corners likewise.
 *                  va is texel (0,0,0) of the subresource; the extents
 *                  bound the sampled texels (clamp to edge) and the
 *                  validated ranges. The dst region must lie inside the
 *                  dst extent; src corners may lie outside (clamped).
 *                  Corners reversed on an axis mirror it. Both formats
 *                  need SWGPU_FORMAT_CAP_BLIT (the src may instead be
 *                  compressed: its pitches are then between rows of
 *                  4x4 blocks, its extent in texels) and the same blit class
 *                  (float/uint/sint, swgpu_format_blit_class()); depth
 *                  and stencil formats only to the same format; LINEAR
 *                  only for the float class (else BAD_PACKET).
 *                  A dst region empty on some axis is a no-op.
 *                  Nearest between identical formats copies texel bytes.
 *                  Texel-centre sampling: dst texel centre maps to
 *                  src = s0 + (d + 0.5 - d0) * (s1 - s0) / (d1 - d0);
 *                  nearest takes floor(src), linear weighs the 2x2 (2D)
 *                  or 2x2x2 (src depth > 1) neighbours of src - 0.5,
 *                  clamped to the extent. Validated: the whole src extent
 *                  (readable) and the dst region's bytes (writable).
 *                  Conversion through a
 *                  float (double) or 64-bit integer intermediate; sRGB is
 *                  decoded before filtering and encoded after.
 */
#define SWGPU_OP_COPY_PITCHED 0x10u
#define SWGPU_OP_CLEAR_BOX 0x11u
#define SWGPU_OP_BLIT 0x12u

#define SWGPU_LEN_COPY_PITCHED 16u
#define SWGPU_LEN_CLEAR_BOX 15u
#define SWGPU_LEN_BLIT 33u

/* Largest rows, slices, width, height or depth an image packet takes. */
#define SWGPU_IMAGE_MAX_EXTENT (1u << 16)

/* BLIT header flags. */
#define SWGPU_BLIT_LINEAR (1u << 0)

/* Where one side of an image packet lives. */
struct swgpu_pitched {
	uint64_t va;
	uint64_t row_pitch;
	uint64_t slice_pitch;
};

/* A blit surface: pitched memory plus its format and extent in texels. */
struct swgpu_blit_surface {
	uint64_t va;
	uint64_t row_pitch;
	uint64_t slice_pitch;
	uint32_t format;        /* enum swgpu_format */
	uint32_t width, height, depth;
};

static inline uint32_t
swgpu_emit_copy_pitched(uint32_t *p, const struct swgpu_pitched *dst,
                        const struct swgpu_pitched *src, uint32_t row_bytes,
                        uint32_t rows, uint32_t slices)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_COPY_PITCHED, 0,
	                        SWGPU_LEN_COPY_PITCHED);
	swgpu_pkt_put64(p + 1, dst->va);
	swgpu_pkt_put64(p + 3, dst->row_pitch);
	swgpu_pkt_put64(p + 5, dst->slice_pitch);
	swgpu_pkt_put64(p + 7, src->va);
	swgpu_pkt_put64(p + 9, src->row_pitch);
	swgpu_pkt_put64(p + 11, src->slice_pitch);
	p[13] = row_bytes;
	p[14] = rows;
	p[15] = slices;
	return SWGPU_LEN_COPY_PITCHED;
}

/* value: 4 dwords as described for CLEAR_BOX. */
static inline uint32_t
swgpu_emit_clear_box(uint32_t *p, const struct swgpu_pitched *dst,
                     uint32_t format, uint32_t width, uint32_t height,
                     uint32_t depth, const uint32_t value[4])
{
	p[0] = swgpu_pkt_header(SWGPU_OP_CLEAR_BOX, 0, SWGPU_LEN_CLEAR_BOX);
	swgpu_pkt_put64(p + 1, dst->va);
	swgpu_pkt_put64(p + 3, dst->row_pitch);
	swgpu_pkt_put64(p + 5, dst->slice_pitch);
	p[7] = format;
	p[8] = width;
	p[9] = height;
	p[10] = depth;
	for (int i = 0; i < 4; i++)
		p[11 + i] = value[i];
	return SWGPU_LEN_CLEAR_BOX;
}

static inline void
swgpu_put_blit_surface(uint32_t *p, const struct swgpu_blit_surface *s)
{
	swgpu_pkt_put64(p + 0, s->va);
	swgpu_pkt_put64(p + 2, s->row_pitch);
	swgpu_pkt_put64(p + 4, s->slice_pitch);
	p[6] = s->format;
	p[7] = s->width;
	p[8] = s->height;
	p[9] = s->depth;
}

/* src_box/dst_box: corners x0, y0, z0, x1, y1, z1 (vkCmdBlitImage's
 * offsets[0] and offsets[1]). flags: 0 (nearest) or SWGPU_BLIT_LINEAR. */
static inline uint32_t
swgpu_emit_blit(uint32_t *p, const struct swgpu_blit_surface *src,
                const struct swgpu_blit_surface *dst,
                const int32_t src_box[6], const int32_t dst_box[6],
                uint32_t flags)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_BLIT, flags, SWGPU_LEN_BLIT);
	swgpu_put_blit_surface(p + 1, src);
	swgpu_put_blit_surface(p + 11, dst);
	for (int i = 0; i < 6; i++) {
		p[21 + i] = (uint32_t)src_box[i];
		p[27 + i] = (uint32_t)dst_box[i];
	}
	return SWGPU_LEN_BLIT;
}

/* ------------------------------------------------------------------ */
/* Compute packets (opcodes 0x20..0x2f)                                */
/* ------------------------------------------------------------------ */

/*
 *   DISPATCH       1-2: shader code VA (swgpu_shader_code_va),
 *                  3-4: bind table VA (8-aligned, readable for
 *                       sizeof(struct swgpu_bind_table); 0 = none: no
 *                       sets, no dynamic offsets, zero push constants),
 *                  5-7: group count x, y, z (0 in any: no-op),
 *                  8-10: base group x, y, z (WorkgroupId starts here).
 *   DISPATCH_INDIRECT
 *                  1-2: shader code VA, 3-4: bind table VA,
 *                  5-6: VA (4-aligned) of three dwords x, y, z
 *                       (VkDispatchIndirectCommand), read when the
 *                       packet executes,
 *                  7-9: base group x, y, z.
 *
 * A group count over SWGPU_SHADER_MAX_WORKGROUP_COUNT_X/_Y/_Z (or whose
 * last group id, base + count - 1, does not fit 32 bits), an unknown shader
 * VA, or a bind table that is not readable is a fault of the context. The
 * set VAs of the bind table are translated (readable) for the byte range
 * the shader's bindings need; an unreadable set is a page fault. A buffer
 * descriptor's range is translated for read (uniform) or read/write
 * (storage) access; a descriptor whose range is not accessible faults.
 * Shader accesses outside a descriptor's range follow robustBufferAccess:
 * loads return 0, stores are dropped, atomics do nothing and return 0.
 * A null descriptor (type NONE, or va 0) behaves as a zero-size range.
 * Once the DISPATCH completes its stores are visible to later packets.
 * A dispatch still running after the hang timeout (hang_timeout_ms of
 * swgpu_device_info) is stopped and faults with SWGPU_FAULT_HANG.
 */
enum swgpu_compute_opcode {
	SWGPU_OP_DISPATCH = 0x20,
	SWGPU_OP_DISPATCH_INDIRECT = 0x21,
};

#define SWGPU_LEN_DISPATCH 11u
#define SWGPU_LEN_DISPATCH_INDIRECT 10u

/* Bind table: what vkCmdBindDescriptorSets / vkCmdPushConstants leave
 * for one dispatch, written by the front end into GPU memory. */
#define SWGPU_BIND_TABLE_MAX_SETS 8u
#define SWGPU_BIND_TABLE_MAX_DYNAMIC 16u
#define SWGPU_BIND_TABLE_PUSH_BYTES 256u

struct swgpu_bind_table {
	uint64_t set_va[SWGPU_BIND_TABLE_MAX_SETS]; /* 0: set not bound */
	/* Flat, in the order of swgpu_shader_binding.dynamic_index. */
	uint32_t dynamic_offsets[SWGPU_BIND_TABLE_MAX_DYNAMIC];
	uint8_t push_constants[SWGPU_BIND_TABLE_PUSH_BYTES];
};
#define SWGPU_BIND_TABLE_SIZE 384u /* sizeof(struct swgpu_bind_table) */

/*
 * Descriptors: a descriptor set is GPU memory holding an array of
 * SWGPU_DESCRIPTOR_SIZE-byte descriptors (see swgpu_shader_binding).
 * Every descriptor starts with its type (swgpu_descriptor_type in
 * swgpu.h); all-zero memory is a null descriptor. Unused bytes must be 0.
 */
#define SWGPU_DESCRIPTOR_SIZE 64u

/* UNIFORM_BUFFER, STORAGE_BUFFER and their _DYNAMIC variants. */
struct swgpu_descriptor_buffer {
	uint32_t type;
	uint32_t reserved;
	uint64_t va;          /* 0: null descriptor */
	uint64_t range;       /* bytes (VK_WHOLE_SIZE resolved) */
	uint32_t pad[10];
};

/* UNIFORM_TEXEL_BUFFER / STORAGE_TEXEL_BUFFER. */
struct swgpu_descriptor_texel_buffer {
	uint32_t type;
	uint32_t format;      /* image format code (Image packets) */
	uint64_t va;
	uint64_t range;       /* bytes */
	uint32_t element_size;/* bytes per texel (compressed: per block) */
	uint32_t pad[9];
};

/* Sampler state: in SAMPLER descriptors and in the last three words of
 * COMBINED_IMAGE_SAMPLER ones. All-zero is NEAREST, REPEAT, LOD 0..0. */
struct swgpu_sampler_state {
	uint32_t filter;      /* SWGPU_SAMPLER_* bits | compare op
	                         (SWGPU_SAMPLER_COMPARE_OP) | mip LOD bias
	                         << 16 (int16, 8.8 fixed point) */
	uint32_t address;     /* VkSamplerAddressMode u | v << 8 | w << 16 |
	                         VkBorderColor << 24 */
	uint32_t lod;         /* min LOD | max LOD << 16 (8.8 fixed point) */
};
#define SWGPU_SAMPLER_MAG_LINEAR 0x1u
#define SWGPU_SAMPLER_MIN_LINEAR 0x2u
#define SWGPU_SAMPLER_MIP_LINEAR 0x4u
#define SWGPU_SAMPLER_UNNORMALIZED 0x8u
/* Depth comparison (compareEnable): depth-comparison instructions
 * (OpImage*Dref*) compare their reference with each texel by the
 * VkCompareOp in bits 5-7. Without it their results are undefined (the
 * engine compares with NEVER's 0). */
#define SWGPU_SAMPLER_COMPARE_ENABLE 0x10u
#define SWGPU_SAMPLER_COMPARE_OP_SHIFT 5u
#define SWGPU_SAMPLER_COMPARE_OP(vk_compare_op) \
	(SWGPU_SAMPLER_COMPARE_ENABLE | \
	 ((uint32_t)(vk_compare_op) & 7u) << SWGPU_SAMPLER_COMPARE_OP_SHIFT)
/* maxSamplerLodBias: the sampler's bias plus a shader's Bias operand is
 * clamped to +-this before it is added to the LOD. */
#define SWGPU_SAMPLER_MAX_LOD_BIAS 16.0f

/*
 * SAMPLED_IMAGE / STORAGE_IMAGE / COMBINED_IMAGE_SAMPLER: one subresource
 * range of a linear image, va at texel (0, 0, 0) of its base level and
 * base layer.
 *
 * Sampled images (SAMPLED_IMAGE, COMBINED_IMAGE_SAMPLER) may span mip
 * levels: view_type bits 8-15 hold the level count (0 means 1) and the
 * levels follow each other within a layer (3D: within the image), each
 * max(1, size >> 1) of the one before on every axis, with a row pitch of
 * width * element_size rounded up to SWGPU_IMAGE_ROW_PITCH_ALIGN and a
 * size of row pitch * height * depth. Compressed formats count in
 * blocks: a row is a row of 4x4 blocks, width and height (in texels)
 * rounded up to whole blocks give the row length and the row count,
 * element_size is the block's bytes. format bits 16-27 are the view's
 * component swizzle (VkComponentSwizzle r | g << 3 | b << 6 | a << 9;
 * 0 is identity). Storage images have one level and no swizzle.
 *
 * Multisampled images (view types 2D and 2D array, one level): view_type
 * bits 16-19 hold log2 of the sample count S (0: single-sampled).
 * Sample s of layer L is slice L * S + s, slice_pitch is the pitch
 * between slices (one sample of one layer) and layers counts layers:
 * the storage of a multisampled image (ARCHITECTURE.md "Multisampling").
 * OpImageFetch / OpImageRead with a Sample operand read one slice; a
 * sample >= S reads zeros.
 */
#define SWGPU_DESCRIPTOR_SAMPLES_SHIFT 16u
#define SWGPU_DESCRIPTOR_SAMPLES_MASK (0xfu << SWGPU_DESCRIPTOR_SAMPLES_SHIFT)
#define SWGPU_IMAGE_ROW_PITCH_ALIGN 16u
struct swgpu_descriptor_image {
	uint32_t type;
	uint32_t format;      /* image format code (Image packets), swizzle */
	uint64_t va;          /* texel (0, 0, 0) of base level/layer */
	uint32_t width, height, depth;
	uint32_t layers;
	uint32_t row_pitch;   /* bytes */
	uint32_t element_size;/* bytes per texel (compressed: per block) */
	uint64_t slice_pitch; /* bytes between depth slices / layers */
	uint32_t view_type;   /* 1D=0, 2D=1, 3D=2, CUBE=3, arrays +4; levels */
	struct swgpu_sampler_state sampler; /* COMBINED_IMAGE_SAMPLER */
};

/* SAMPLER. */
struct swgpu_descriptor_sampler {
	uint32_t type;
	struct swgpu_sampler_state state;
	uint32_t pad[12];
};

static inline uint32_t
swgpu_emit_dispatch(uint32_t *p, uint64_t shader_va, uint64_t bind_table_va,
                    uint32_t x, uint32_t y, uint32_t z,
                    uint32_t base_x, uint32_t base_y, uint32_t base_z)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_DISPATCH, 0, SWGPU_LEN_DISPATCH);
	swgpu_pkt_put64(p + 1, shader_va);
	swgpu_pkt_put64(p + 3, bind_table_va);
	p[5] = x;
	p[6] = y;
	p[7] = z;
	p[8] = base_x;
	p[9] = base_y;
	p[10] = base_z;
	return SWGPU_LEN_DISPATCH;
}

static inline uint32_t
swgpu_emit_dispatch_indirect(uint32_t *p, uint64_t shader_va,
                             uint64_t bind_table_va, uint64_t args_va,
                             uint32_t base_x, uint32_t base_y,
                             uint32_t base_z)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_DISPATCH_INDIRECT, 0,
	                        SWGPU_LEN_DISPATCH_INDIRECT);
	swgpu_pkt_put64(p + 1, shader_va);
	swgpu_pkt_put64(p + 3, bind_table_va);
	swgpu_pkt_put64(p + 5, args_va);
	p[7] = base_x;
	p[8] = base_y;
	p[9] = base_z;
	return SWGPU_LEN_DISPATCH_INDIRECT;
}

_Static_assert(sizeof(struct swgpu_bind_table) == SWGPU_BIND_TABLE_SIZE,
               "bind table layout");
_Static_assert(sizeof(struct swgpu_descriptor_buffer) == SWGPU_DESCRIPTOR_SIZE &&
               sizeof(struct swgpu_descriptor_texel_buffer) ==
               SWGPU_DESCRIPTOR_SIZE &&
               sizeof(struct swgpu_descriptor_image) == SWGPU_DESCRIPTOR_SIZE &&
               sizeof(struct swgpu_descriptor_sampler) ==
               SWGPU_DESCRIPTOR_SIZE, "descriptor layout");

/* Fill a buffer descriptor (dst: SWGPU_DESCRIPTOR_SIZE bytes). */
static inline void
swgpu_write_buffer_descriptor(void *dst, uint32_t type, uint64_t va,
                              uint64_t range)
{
	struct swgpu_descriptor_buffer d = { 0 };

	d.type = type;
	d.va = va;
	d.range = range;
	__builtin_memcpy(dst, &d, sizeof(d));
}


/* ------------------------------------------------------------------ */
/* Graphics packets (opcodes 0x30..0x3f)                               */
/* ------------------------------------------------------------------ */

/*
 * Executed by graphics engines only (SWGPU_ENGINE_GRAPHICS); on any other
 * engine they are BAD_PACKET. Like the registers of a real 3D pipe, the
 * engine keeps *graphics state* per hardware queue: the current pass,
 * pipeline, dynamic state, vertex and index buffers and the open query.
 * Every job starts with all of it unset (nothing carries over between
 * jobs), and a preempted job resumes with its own state.
 *
 * Enumerated values inside graphics state use the numbering of the
 * corresponding Vulkan enums (compare ops, stencil ops, blend factors and
 * ops, logic ops, primitive topologies, polygon modes, cull mode bits,
 * front face), spelled out as SWGPU_* below where the engine needs names;
 * a value outside the range is BAD_PACKET when the state is used.
 * Formats are enum swgpu_format.
 *
 *   BEGIN_PASS (0x30), 3 dwords: 1-2: VA of a struct swgpu_pass (8-aligned,
 *                  readable). Starts a pass on its attachments: each
 *                  attachment's load op runs over the render area and
 *                  layers (CLEAR writes the clear value; LOAD and
 *                  DONT_CARE leave memory as it is). A BEGIN_PASS while a
 *                  pass is open is BAD_PACKET. Every attachment's texels
 *                  (layers x rows of the render area's bounding box) must
 *                  be mapped readable and writable, else a page fault.
 *                  Multiview (view_mask != 0, bits below
 *                  SWGPU_GFX_MAX_VIEWS, layer_count > the highest bit):
 *                  load ops run on the layers of the view mask only, and
 *                  each draw runs once per view, in increasing view
 *                  order, with the ViewIndex built-in = v and every
 *                  primitive rendered into layer v (a Layer output is
 *                  ignored); occlusion counts add up over the views.
 *   END_PASS (0x31), 1 dword: ends the open pass (store ops: STORE and
 *                  DONT_CARE and NONE all leave the rendered texels in
 *                  memory). BAD_PACKET without an open pass. A job that
 *                  ends with a pass open is BAD_PACKET too.
 *   CLEAR_ATTACHMENTS (0x32), 7 + 6n dwords: vkCmdClearAttachments on
 *                  the open pass. 1: attachment (0..7 colour, 8 depth,
 *                  9 stencil), 2-5: clear value (CLEAR_BOX encoding),
 *                  6: n rects >= 1, then per rect: x, y (int32), width,
 *                  height, base layer, layer count. Rects are clipped to
 *                  the attachment. An unused attachment is a no-op.
 *                  In a multiview pass each rect clears the layers of
 *                  the view mask (its base layer and count are ignored:
 *                  Vulkan requires 0 and 1 there).
 *   SET_PIPELINE (0x33), 3 dwords: 1-2: VA of a struct
 *                  swgpu_pipeline_state (8-aligned, readable), read when
 *                  the packet executes (the engine keeps a copy).
 *   SET_DYNAMIC (0x34), 3 dwords: 1-2: VA of a struct swgpu_raster_state
 *                  (8-aligned, readable), copied when the packet executes:
 *                  the values of the fields the pipeline declares dynamic
 *                  (swgpu_pipeline_state.dynamic_mask). May come before or
 *                  after SET_PIPELINE; a draw uses the last of each.
 *   SET_VERTEX_BUFFERS (0x35), 3 + 5n dwords: 1: first binding, 2: n,
 *                  then per binding: va (2 dwords; 0: unbound, reads as
 *                  zero), size in bytes (2 dwords), stride in bytes (used
 *                  when the pipeline has SWGPU_DYN_VERTEX_STRIDE, else the
 *                  pipeline's). first + n <= SWGPU_GFX_MAX_VERTEX_BINDINGS.
 *   SET_INDEX_BUFFER (0x36), 6 dwords: 1-2: va, 3-4: size in bytes,
 *                  5: index size in bytes (1, 2 or 4).
 *   DRAW (0x37), 7 dwords: 1-2: bind table VA (as DISPATCH), 3: vertex
 *                  count, 4: instance count, 5: first vertex, 6: first
 *                  instance.
 *   DRAW_INDEXED (0x38), 8 dwords: 1-2: bind table VA, 3: index count,
 *                  4: instance count, 5: first index, 6: vertex offset
 *                  (int32), 7: first instance.
 *   DRAW_INDIRECT (0x39), 10 dwords: header flags SWGPU_DRAW_INDEXED,
 *                  SWGPU_DRAW_COUNT. 1-2: bind table VA, 3-4: VA (4-aligned)
 *                  of the first command (4 dwords as DRAW's 3-6, or 5 as
 *                  DRAW_INDEXED's 3-7), 5: draw count (with COUNT: the
 *                  maximum), 6: stride in bytes between commands,
 *                  7-8: COUNT only: VA (4-aligned) of a dword with the
 *                  draw count, read when the packet executes, 9: the
 *                  DrawIndex of the first command (0 for Vulkan's
 *                  indirect draws; a multi-draw split over packets
 *                  continues its numbering)
 *                  (0). DrawIndex counts the draws of one packet from 0.
 *   QUERY_BEGIN (0x3a), 3 dwords: 1-2: VA (8-aligned, writable) of a 64-bit
 *                  occlusion counter. Header flag SWGPU_QUERY_PRECISE.
 *                  From here the engine counts the samples that pass the
 *                  depth and stencil tests. One query open at a time.
 *   QUERY_END (0x3b), 3 dwords: 1-2: the same VA: writes the count as a
 *                  64-bit value once every earlier draw completed.
 *   RESOLVE (0x3c), 3 dwords: 1-2: VA of a struct swgpu_pass (8-aligned,
 *                  readable) with no pass open (else BAD_PACKET): only
 *                  the resolves of its attachments run, over its render
 *                  area and layers, as END_PASS would (vkCmdResolveImage:
 *                  the attachment and resolve VAs point at the offsets'
 *                  texels). Load ops must be LOAD.
 *
 * A draw needs an open pass and a pipeline (else BAD_PACKET "draw with no
 * pipeline"); its vertex and index reads are bounded by the buffers'
 * sizes (robustBufferAccess: an attribute read past the end gives zero
 * components, w = 0 or 1 as the format's default; an index read past the
 * end gives index 0). Vertex buffer, index buffer and attachment ranges
 * are translated when the draw runs: an unmapped one is a page fault.
 * Shader resources are resolved from the bind table exactly as for
 * DISPATCH. Once a draw completes its writes (attachments, storage) are
 * visible to later packets. A draw that runs past the hang timeout
 * without progress faults with SWGPU_FAULT_HANG.
 *
 * Rasterization follows the Vulkan rules exactly: 8 subpixel bits,
 * pixel centres at (x + 0.5, y + 0.5), the top-left fill rule, so
 * triangles sharing an edge cover each pixel once; depth is interpolated
 * linearly in screen space, varyings perspective-correctly unless flat or
 * noperspective.
 *
 * Multisampling: an attachment with S = 2, 4 or 8 samples stores sample
 * s of layer L as slice L * S + s, each slice laid out like a layer of
 * a single-sampled attachment (row_pitch; layer_pitch is the slice
 * pitch). Every attachment of a pass has the same sample count (else
 * BAD_PACKET at BEGIN_PASS). Samples sit at the Vulkan standard sample
 * locations; a triangle covers the samples whose locations pass its
 * edge functions (top-left rule per sample), points the samples inside
 * their square; lines cover every sample of the pixels the
 * single-sample line rule lights (lines are not exact with S > 1). The
 * fragment shader runs once per covered pixel at its centre; depth is
 * interpolated, tested and written per sample, colour written and
 * blended per covered sample; the pipeline's sample_mask and
 * alpha-to-coverage (k = floor(alpha * S + 0.5) samples, the lowest k
 * indices) and the shader's SampleMask output remove samples;
 * occlusion queries count samples. Load ops and CLEAR_ATTACHMENTS clear
 * every sample.
 */
enum swgpu_graphics_opcode {
	SWGPU_OP_BEGIN_PASS = 0x30,
	SWGPU_OP_END_PASS = 0x31,
	SWGPU_OP_CLEAR_ATTACHMENTS = 0x32,
	SWGPU_OP_SET_PIPELINE = 0x33,
	SWGPU_OP_SET_DYNAMIC = 0x34,
	SWGPU_OP_SET_VERTEX_BUFFERS = 0x35,
	SWGPU_OP_SET_INDEX_BUFFER = 0x36,
	SWGPU_OP_DRAW = 0x37,
	SWGPU_OP_DRAW_INDEXED = 0x38,
	SWGPU_OP_DRAW_INDIRECT = 0x39,
	SWGPU_OP_QUERY_BEGIN = 0x3a,
	SWGPU_OP_QUERY_END = 0x3b,
	SWGPU_OP_RESOLVE = 0x3c,
};

#define SWGPU_LEN_BEGIN_PASS 3u
#define SWGPU_LEN_END_PASS 1u
#define SWGPU_LEN_CLEAR_ATTACHMENTS(nrects) (7u + 6u * (nrects))
#define SWGPU_LEN_SET_PIPELINE 3u
#define SWGPU_LEN_SET_DYNAMIC 3u
#define SWGPU_LEN_SET_VERTEX_BUFFERS(n) (3u + 5u * (n))
#define SWGPU_LEN_SET_INDEX_BUFFER 6u
#define SWGPU_LEN_DRAW 7u
#define SWGPU_LEN_DRAW_INDEXED 8u
#define SWGPU_LEN_DRAW_INDIRECT 10u
#define SWGPU_LEN_QUERY 3u
#define SWGPU_LEN_RESOLVE 3u

/* DRAW_INDIRECT header flags. */
#define SWGPU_DRAW_INDEXED (1u << 0)
#define SWGPU_DRAW_COUNT (1u << 1)
/* QUERY_BEGIN header flag. */
#define SWGPU_QUERY_PRECISE (1u << 0)

/* CLEAR_ATTACHMENTS attachment numbers beyond the colour ones. */
#define SWGPU_ATTACHMENT_DEPTH 8u
#define SWGPU_ATTACHMENT_STENCIL 9u

/* Load and store ops of a pass attachment. */
enum swgpu_load_op { SWGPU_LOAD_LOAD = 0, SWGPU_LOAD_CLEAR = 1,
                     SWGPU_LOAD_DONT_CARE = 2 };
enum swgpu_store_op { SWGPU_STORE_STORE = 0, SWGPU_STORE_DONT_CARE = 1,
                      SWGPU_STORE_NONE = 2 };

/*
 * One attachment of a pass: a pitched 2D surface per layer. va is texel
 * (0, 0) of the first layer of the view (mip level folded in), 0 when
 * the attachment is unused. Depth and stencil are separate planes: the
 * depth attachment has a D16_UNORM, X8_D24_UNORM or D32_SFLOAT format,
 * the stencil one S8_UINT. width/height: the level's extent (draws are
 * clipped to it and to the render area); layers: of the view.
 */
struct swgpu_attachment {
	uint64_t va;
	uint64_t row_pitch;
	uint64_t layer_pitch;
	uint32_t format;
	uint32_t width, height;
	uint32_t layers;
	uint32_t load_op;          /* enum swgpu_load_op */
	uint32_t store_op;         /* enum swgpu_store_op */
	uint32_t clear[4];         /* CLEAR_BOX encoding */
	uint32_t samples;          /* 1, 2, 4 or 8 (0 means 1) */
	/* Resolve target (resolve_va 0: none): END_PASS (and RESOLVE)
	 * resolve the render area of every layer of this multisampled
	 * attachment into a single-sampled surface of resolve_format (the
	 * attachment's format, or for depth/stencil the same plane). */
	uint32_t resolve_mode;     /* enum swgpu_resolve_mode */
	uint64_t resolve_va;
	uint64_t resolve_row_pitch;
	uint64_t resolve_layer_pitch;
	uint32_t reserved[8];      /* 0 */
};

/* How samples become one value. AVERAGE: float/UNORM/SNORM colour and
 * depth (integer formats: BAD_PACKET); MIN/MAX: depth and stencil, and
 * integer colour; SAMPLE_ZERO: any format. */
enum swgpu_resolve_mode {
	SWGPU_RESOLVE_NONE = 0,
	SWGPU_RESOLVE_SAMPLE_ZERO = 1,
	SWGPU_RESOLVE_AVERAGE = 2,
	SWGPU_RESOLVE_MIN = 3,
	SWGPU_RESOLVE_MAX = 4,
};

struct swgpu_pass {
	uint32_t color_count;      /* <= SWGPU_GFX_MAX_COLOR_ATTACHMENTS */
	uint32_t layer_count;      /* layers rendered, >= 1 */
	int32_t area_x, area_y;    /* render area */
	uint32_t area_width, area_height;
	uint32_t view_mask;        /* multiview: bit v renders view v into
	                              layer v (0: no multiview) */
	uint32_t flags;            /* 0 */
	struct swgpu_attachment color[8];
	struct swgpu_attachment depth;
	struct swgpu_attachment stencil;
};

/* Numbering as VkCompareOp. */
enum swgpu_compare_op {
	SWGPU_COMPARE_NEVER = 0, SWGPU_COMPARE_LESS, SWGPU_COMPARE_EQUAL,
	SWGPU_COMPARE_LESS_OR_EQUAL, SWGPU_COMPARE_GREATER,
	SWGPU_COMPARE_NOT_EQUAL, SWGPU_COMPARE_GREATER_OR_EQUAL,
	SWGPU_COMPARE_ALWAYS,
};
/* Numbering as VkPrimitiveTopology (patch lists are not supported). */
enum swgpu_topology {
	SWGPU_TOPOLOGY_POINT_LIST = 0, SWGPU_TOPOLOGY_LINE_LIST,
	SWGPU_TOPOLOGY_LINE_STRIP, SWGPU_TOPOLOGY_TRIANGLE_LIST,
	SWGPU_TOPOLOGY_TRIANGLE_STRIP, SWGPU_TOPOLOGY_TRIANGLE_FAN,
	SWGPU_TOPOLOGY_LINE_LIST_ADJ, SWGPU_TOPOLOGY_LINE_STRIP_ADJ,
	SWGPU_TOPOLOGY_TRIANGLE_LIST_ADJ, SWGPU_TOPOLOGY_TRIANGLE_STRIP_ADJ,
};
/* Stencil ops (VkStencilOp), blend factors (VkBlendFactor, 0..18),
 * blend ops (VkBlendOp 0..4), logic ops (VkLogicOp 0..15), polygon modes
 * (VkPolygonMode 0..2) keep the Vulkan numbering. Cull mode: bit 0
 * front, bit 1 back. Front face: 0 counter-clockwise, 1 clockwise. */

struct swgpu_vertex_binding {
	uint32_t stride;           /* bytes */
	uint32_t input_rate;       /* 0 per vertex, 1 per instance */
	uint32_t divisor;          /* per instance: advance every divisor
	                              instances (1; 0: never) */
	uint32_t reserved;
};

struct swgpu_vertex_attrib {
	uint32_t location;         /* < SWGPU_GFX_MAX_LOCATIONS */
	uint32_t binding;
	uint32_t format;           /* swgpu_format, decoded as a sampler
	                              would; missing components (0, 0, 0, 1) */
	uint32_t offset;           /* bytes into the binding's element */
};

struct swgpu_viewport {
	float x, y, width, height, min_depth, max_depth;
};

struct swgpu_scissor {
	int32_t x, y;
	uint32_t width, height;
};

struct swgpu_stencil_face {
	uint32_t fail_op, pass_op, depth_fail_op, compare_op;
	uint32_t compare_mask, write_mask, reference;
	uint32_t reserved;
};

struct swgpu_blend_attachment {
	uint32_t enable;
	uint32_t src_color, dst_color, color_op;
	uint32_t src_alpha, dst_alpha, alpha_op;
	uint32_t write_mask;       /* bit 0 R, 1 G, 2 B, 3 A */
};

/*
 * Rasterizer, depth/stencil and blend state: in a pipeline (its static
 * values) and in SET_DYNAMIC (the dynamic ones). Booleans are 0 or 1.
 */
struct swgpu_raster_state {
	uint32_t topology;
	uint32_t primitive_restart;
	uint32_t rasterizer_discard;
	uint32_t polygon_mode;
	uint32_t cull_mode;
	uint32_t front_face;
	float line_width;
	uint32_t depth_clamp;      /* clamp depth instead of clipping */
	uint32_t depth_bias_enable;
	float depth_bias_constant, depth_bias_clamp, depth_bias_slope;
	uint32_t depth_test, depth_write, depth_compare;
	uint32_t depth_bounds_test;
	float min_depth_bounds, max_depth_bounds;
	uint32_t stencil_test;
	struct swgpu_stencil_face front, back;
	uint32_t logic_op_enable, logic_op;
	float blend_constants[4];
	uint32_t color_write_enable; /* bit per colour attachment */
	uint32_t viewport_count, scissor_count;
	struct swgpu_viewport viewports[16];
	struct swgpu_scissor scissors[16];
	struct swgpu_blend_attachment blend[8];
	/* Multisample coverage, after the fragment shader and before the
	 * depth/stencil tests (with one sample per pixel): alpha_to_coverage
	 * keeps a fragment when the alpha of its colour output Location 0
	 * Index 0 is >= 0.5 (NaN and below drop it); alpha_to_one then
	 * replaces the alpha of every colour output to a fixed- or
	 * floating-point attachment by 1 (integer attachments keep it).
	 * 0 or 1 each. */
	uint32_t alpha_to_coverage;
	uint32_t alpha_to_one;
	/* Multisampling (see "Multisampling" above): rasterization_samples
	 * 1, 2, 4 or 8, equal to the samples of every attachment of the
	 * pass (else BAD_PACKET at the draw); 0 means 1 sample with
	 * sample_mask ignored; sample_mask ANDed with each fragment's
	 * coverage (bit s: sample s);
	 * sample_shading 0/1 and min_sample_shading in [0, 1]: run the
	 * fragment shader per sample (the fragment-shading side). */
	uint32_t rasterization_samples;
	uint32_t sample_mask;
	uint32_t sample_shading;
	float min_sample_shading;
	uint32_t reserved[10];     /* 0 */
};

/* swgpu_pipeline_state.dynamic_mask: which swgpu_raster_state fields
 * come from SET_DYNAMIC rather than from the pipeline. */
#define SWGPU_DYN_VIEWPORT             (1ull << 0)  /* viewports[] */
#define SWGPU_DYN_SCISSOR              (1ull << 1)  /* scissors[] */
#define SWGPU_DYN_LINE_WIDTH           (1ull << 2)
#define SWGPU_DYN_DEPTH_BIAS           (1ull << 3)  /* constant, clamp, slope */
#define SWGPU_DYN_BLEND_CONSTANTS      (1ull << 4)
#define SWGPU_DYN_DEPTH_BOUNDS         (1ull << 5)  /* min, max */
#define SWGPU_DYN_STENCIL_COMPARE_MASK (1ull << 6)
#define SWGPU_DYN_STENCIL_WRITE_MASK   (1ull << 7)
#define SWGPU_DYN_STENCIL_REFERENCE    (1ull << 8)
#define SWGPU_DYN_CULL_MODE            (1ull << 9)
#define SWGPU_DYN_FRONT_FACE           (1ull << 10)
#define SWGPU_DYN_TOPOLOGY             (1ull << 11)
#define SWGPU_DYN_VIEWPORT_COUNT       (1ull << 12)
#define SWGPU_DYN_SCISSOR_COUNT        (1ull << 13)
#define SWGPU_DYN_VERTEX_STRIDE        (1ull << 14) /* SET_VERTEX_BUFFERS */
#define SWGPU_DYN_DEPTH_TEST           (1ull << 15)
#define SWGPU_DYN_DEPTH_WRITE          (1ull << 16)
#define SWGPU_DYN_DEPTH_COMPARE        (1ull << 17)
#define SWGPU_DYN_DEPTH_BOUNDS_TEST    (1ull << 18)
#define SWGPU_DYN_STENCIL_TEST         (1ull << 19)
#define SWGPU_DYN_STENCIL_OP           (1ull << 20) /* the 4 ops per face */
#define SWGPU_DYN_RASTERIZER_DISCARD   (1ull << 21)
#define SWGPU_DYN_DEPTH_BIAS_ENABLE    (1ull << 22)
#define SWGPU_DYN_PRIMITIVE_RESTART    (1ull << 23)
#define SWGPU_DYN_LOGIC_OP             (1ull << 24)
#define SWGPU_DYN_COLOR_WRITE_ENABLE   (1ull << 25)

/*
 * A graphics pipeline as the engine sees it: written once by the front
 * end into GPU memory, named by SET_PIPELINE. The shaders are code VAs of
 * live shaders of the context (swgpu_shader_code_va) of the VERTEX and
 * FRAGMENT stage; fs_code_va 0 means no fragment shader (depth/stencil
 * only). Vertex shader outputs reach fragment inputs by Location and
 * Component; a fragment input the vertex shader does not write reads 0.
 * A wrong stage or an unknown VA is BAD_PACKET at the first draw.
 */
struct swgpu_pipeline_state {
	uint32_t size;             /* sizeof(struct swgpu_pipeline_state) */
	uint32_t flags;            /* 0 */
	uint64_t vs_code_va;
	uint64_t fs_code_va;
	uint64_t dynamic_mask;     /* SWGPU_DYN_* */
	uint32_t binding_count;    /* used entries of bindings[] */
	uint32_t attrib_count;     /* used entries of attribs[] */
	struct swgpu_vertex_binding bindings[32];
	struct swgpu_vertex_attrib attribs[32];
	struct swgpu_raster_state state;
};

_Static_assert(sizeof(struct swgpu_attachment) == 128, "attachment layout");
_Static_assert(sizeof(struct swgpu_pass) == 32 + 10 * 128, "pass layout");

static inline uint32_t
swgpu_emit_va_packet(uint32_t *p, uint32_t opcode, uint32_t flags,
                     uint64_t va)
{
	p[0] = swgpu_pkt_header(opcode, flags, 3);
	swgpu_pkt_put64(p + 1, va);
	return 3;
}

static inline uint32_t
swgpu_emit_begin_pass(uint32_t *p, uint64_t pass_va)
{
	return swgpu_emit_va_packet(p, SWGPU_OP_BEGIN_PASS, 0, pass_va);
}

static inline uint32_t
swgpu_emit_end_pass(uint32_t *p)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_END_PASS, 0, SWGPU_LEN_END_PASS);
	return SWGPU_LEN_END_PASS;
}

static inline uint32_t
swgpu_emit_set_pipeline(uint32_t *p, uint64_t pipeline_va)
{
	return swgpu_emit_va_packet(p, SWGPU_OP_SET_PIPELINE, 0, pipeline_va);
}

static inline uint32_t
swgpu_emit_set_dynamic(uint32_t *p, uint64_t state_va)
{
	return swgpu_emit_va_packet(p, SWGPU_OP_SET_DYNAMIC, 0, state_va);
}

/* rects: n x {x, y, width, height, base_layer, layer_count}. */
static inline uint32_t
swgpu_emit_clear_attachments(uint32_t *p, uint32_t attachment,
                             const uint32_t value[4], uint32_t n,
                             const uint32_t *rects)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_CLEAR_ATTACHMENTS, 0,
	                        SWGPU_LEN_CLEAR_ATTACHMENTS(n));
	p[1] = attachment;
	for (int i = 0; i < 4; i++)
		p[2 + i] = value[i];
	p[6] = n;
	for (uint32_t i = 0; i < 6 * n; i++)
		p[7 + i] = rects[i];
	return SWGPU_LEN_CLEAR_ATTACHMENTS(n);
}

/* Writes the header, first and n; the caller fills the n bindings with
 * swgpu_put_vertex_buffer(p + 3 + 5 * i, ...). */
static inline uint32_t
swgpu_emit_set_vertex_buffers_header(uint32_t *p, uint32_t first,
                                     uint32_t n)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SET_VERTEX_BUFFERS, 0,
	                        SWGPU_LEN_SET_VERTEX_BUFFERS(n));
	p[1] = first;
	p[2] = n;
	return SWGPU_LEN_SET_VERTEX_BUFFERS(n);
}

static inline void
swgpu_put_vertex_buffer(uint32_t *p, uint64_t va, uint64_t size,
                        uint32_t stride)
{
	swgpu_pkt_put64(p, va);
	swgpu_pkt_put64(p + 2, size);
	p[4] = stride;
}

static inline uint32_t
swgpu_emit_set_index_buffer(uint32_t *p, uint64_t va, uint64_t size,
                            uint32_t index_size)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_SET_INDEX_BUFFER, 0,
	                        SWGPU_LEN_SET_INDEX_BUFFER);
	swgpu_pkt_put64(p + 1, va);
	swgpu_pkt_put64(p + 3, size);
	p[5] = index_size;
	return SWGPU_LEN_SET_INDEX_BUFFER;
}

static inline uint32_t
swgpu_emit_draw(uint32_t *p, uint64_t bind_table_va, uint32_t vertex_count,
                uint32_t instance_count, uint32_t first_vertex,
                uint32_t first_instance)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_DRAW, 0, SWGPU_LEN_DRAW);
	swgpu_pkt_put64(p + 1, bind_table_va);
	p[3] = vertex_count;
	p[4] = instance_count;
	p[5] = first_vertex;
	p[6] = first_instance;
	return SWGPU_LEN_DRAW;
}

static inline uint32_t
swgpu_emit_draw_indexed(uint32_t *p, uint64_t bind_table_va,
                        uint32_t index_count, uint32_t instance_count,
                        uint32_t first_index, int32_t vertex_offset,
                        uint32_t first_instance)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_DRAW_INDEXED, 0,
	                        SWGPU_LEN_DRAW_INDEXED);
	swgpu_pkt_put64(p + 1, bind_table_va);
	p[3] = index_count;
	p[4] = instance_count;
	p[5] = first_index;
	p[6] = (uint32_t)vertex_offset;
	p[7] = first_instance;
	return SWGPU_LEN_DRAW_INDEXED;
}

/* flags: SWGPU_DRAW_INDEXED | SWGPU_DRAW_COUNT; count_va only with
 * SWGPU_DRAW_COUNT. */
static inline uint32_t
swgpu_emit_draw_indirect(uint32_t *p, uint32_t flags, uint64_t bind_table_va,
                         uint64_t args_va, uint32_t draw_count,
                         uint32_t stride, uint64_t count_va)
{
	p[0] = swgpu_pkt_header(SWGPU_OP_DRAW_INDIRECT, flags,
	                        SWGPU_LEN_DRAW_INDIRECT);
	swgpu_pkt_put64(p + 1, bind_table_va);
	swgpu_pkt_put64(p + 3, args_va);
	p[5] = draw_count;
	p[6] = stride;
	swgpu_pkt_put64(p + 7, count_va);
	p[9] = 0;
	return SWGPU_LEN_DRAW_INDIRECT;
}

/* The same, numbering DrawIndex from first_draw_index. */
static inline uint32_t
swgpu_emit_draw_indirect_from(uint32_t *p, uint32_t flags,
                              uint64_t bind_table_va, uint64_t args_va,
                              uint32_t draw_count, uint32_t stride,
                              uint32_t first_draw_index)
{
	swgpu_emit_draw_indirect(p, flags, bind_table_va, args_va,
	                         draw_count, stride, 0);
	p[9] = first_draw_index;
	return SWGPU_LEN_DRAW_INDIRECT;
}

static inline uint32_t
swgpu_emit_query_begin(uint32_t *p, uint64_t counter_va, uint32_t flags)
{
	return swgpu_emit_va_packet(p, SWGPU_OP_QUERY_BEGIN, flags,
	                            counter_va);
}

static inline uint32_t
swgpu_emit_query_end(uint32_t *p, uint64_t counter_va)
{
	return swgpu_emit_va_packet(p, SWGPU_OP_QUERY_END, 0, counter_va);
}

#endif /* SWGPU_PACKET_H */

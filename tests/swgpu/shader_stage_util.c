/* SPDX-License-Identifier: MIT */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_packet.h>

#include "hw/format/format.h"
#include "hw/shader/xlate.h"

struct ir_program *
ss_translate(const uint32_t *code, size_t size, swgpu_shader_stage stage,
             const swgpu_descriptor_type *types, uint32_t n,
             uint32_t push_size)
{
	swgpu_shader_binding b[16];

	assert_true(n <= 16);
	for (uint32_t i = 0; i < n; i++)
		b[i] = (swgpu_shader_binding){
			.set = 0, .binding = i, .count = 1, .type = types[i],
			.offset = i * SWGPU_DESCRIPTOR_SIZE,
		};
	return ss_translate_layout(code, size, stage, b, n, push_size, NULL,
	                           0);
}

struct ir_program *
ss_translate_layout(const uint32_t *code, size_t size,
                    swgpu_shader_stage stage, const swgpu_shader_binding *b,
                    uint32_t n, uint32_t push_size,
                    const swgpu_spec_constant *spec, uint32_t nspec)
{
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.bindings = b, .binding_count = n,
		.push_constant_size = push_size, .stage = stage,
		.spec_constants = spec, .spec_constant_count = nspec,
	};
	struct ir_program *p = NULL;
	char msg[256] = "";
	swgpu_result r;

	r = xlate_module(&info, &p, msg, sizeof(msg));
	if (r != SWGPU_OK)
		print_error("xlate_module: %s\n", msg);
	assert_int_equal(r, SWGPU_OK);
	assert_int_equal(p->stage, stage);
	return p;
}

swgpu_result
ss_try(const uint32_t *code, size_t size, swgpu_shader_stage stage,
       char *msg, size_t msg_size)
{
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.stage = stage,
	};
	struct ir_program *p = NULL;
	swgpu_result r = xlate_module(&info, &p, msg, msg_size);

	ir_program_free(p);
	return r;
}

struct ir_dispatch *
ss_dispatch(const struct ir_program *p)
{
	struct ir_dispatch *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	d->prog = p;
	d->hang_timeout_ns = 60ull * 1000000000u;
	d->progress_ns = swgpu_now_ns();
	return d;
}

void
ss_bind(struct ir_dispatch *d, const struct ir_program *p, uint32_t binding,
        void *ptr, uint64_t range)
{
	bool found = false;

	for (uint32_t i = 0; i < p->nbuffers; i++)
		if (p->buffers[i].set == 0 &&
		    p->buffers[i].desc_offset == binding * SWGPU_DESCRIPTOR_SIZE) {
			d->buffers[i].ptr = ptr;
			d->buffers[i].range = range;
			found = true;
		}
	assert_true(found);
}

uint32_t
ss_quad_x(uint32_t l)
{
	return 2 * (l / 4) + (l & 1);
}

uint32_t
ss_quad_y(uint32_t l)
{
	return (l >> 1) & 1;
}

void
ss_frag_coords(struct ir_exec *e, uint32_t n, float z, float inv_w)
{
	for (uint32_t l = 0; l < n; l++) {
		ss_lane(e, IR_REG_FRAG_COORD + 0, l)->f = (float)ss_quad_x(l) +
		                                          0.5f;
		ss_lane(e, IR_REG_FRAG_COORD + 1, l)->f = (float)ss_quad_y(l) +
		                                          0.5f;
		ss_lane(e, IR_REG_FRAG_COORD + 2, l)->f = z;
		ss_lane(e, IR_REG_FRAG_COORD + 3, l)->f = inv_w;
	}
}

void
ss_random_fragment_inputs(struct ir_exec *e, const struct ir_program *p,
                          uint32_t n, uint64_t seed, uint8_t *live)
{
	const struct ir_io *io = &p->io;
	uint64_t r = seed;

#define SS_RND() (r ^= r << 13, r ^= r >> 7, r ^= r << 17, \
                  (uint32_t)(r >> 16))
	ss_frag_coords(e, n, 0.5f, 1.0f);
	for (uint32_t l = 0; l < n; l++)
		live[l] = (SS_RND() & 7) != 0;
	for (uint32_t loc = 0; loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < n; l++) {
				uint32_t v = SS_RND();

				if (!io->in_reg[loc][c])
					continue;
				if (io->in_type[loc][c] == IR_IO_FLOAT)
					ss_lane(e, io->in_reg[loc][c], l)->f =
						(float)(v % 8192) / 1024.0f - 4.0f;
				else
					ss_lane(e, io->in_reg[loc][c], l)->u =
						v % 8;
			}
#undef SS_RND
}

uint64_t
ss_image(struct ir_image_binding *im, uint32_t view_type, uint32_t format,
         uint32_t w, uint32_t h, uint32_t layers, uint32_t levels)
{
	struct img_level lv;

	memset(im, 0, sizeof(*im));
	im->view_type = view_type;
	im->fmt = swgpu_format_get_info(format);
	assert_non_null(im->fmt);
	im->elem = im->fmt->block_bytes;
	im->width = w;
	im->height = h;
	im->depth = 1;
	im->layers = layers;
	im->levels = levels;
	im->row_pitch = (w * im->elem + SWGPU_IMAGE_ROW_PITCH_ALIGN - 1) &
	                ~(SWGPU_IMAGE_ROW_PITCH_ALIGN - 1);
	im->domain = im->fmt->blit_class;
	im->decode = format_decoder(im->fmt);
	im->encode = format_encoder(im->fmt);
	/* a layer's levels, then the next layer */
	image_level(im, levels, &lv);
	im->slice_pitch = lv.off;
	return lv.off * layers;
}

void *
ss_texel(const struct ir_image_binding *im, void *base, uint32_t level,
         uint32_t layer, uint32_t x, uint32_t y)
{
	struct img_level lv;

	image_level(im, level, &lv);
	return (uint8_t *)base + lv.off + layer * im->slice_pitch +
	       (uint64_t)y * lv.row_pitch + (uint64_t)x * im->elem;
}

/* The slot reading descriptor desc of set 0. */
static uint32_t
slot_of(const struct ir_program *p, uint32_t desc)
{
	for (uint32_t i = 0; i < p->nbuffers; i++)
		if (p->buffers[i].set == 0 && p->buffers[i].desc_offset ==
		    desc * SWGPU_DESCRIPTOR_SIZE)
			return i;
	fail_msg("descriptor %u not used by the program", desc);
	return 0;
}

void
ss_bind_image(struct ir_dispatch *d, const struct ir_program *p,
              uint32_t desc, void *ptr, uint64_t range,
              const struct ir_image_binding *im)
{
	uint32_t i = slot_of(p, desc);

	d->images[i] = *im;
	d->buffers[i].ptr = ptr;
	d->buffers[i].range = range;
	d->buffers[i].img = &d->images[i];
}

void
ss_bind_sampler(struct ir_dispatch *d, const struct ir_program *p,
                uint32_t desc, const struct swgpu_sampler_state *st)
{
	uint32_t i = slot_of(p, desc);

	memset(&d->images[i], 0, sizeof(d->images[i]));
	d->images[i].has_sampler = true;
	d->images[i].sampler = *st;
	d->buffers[i].img = &d->images[i];
}

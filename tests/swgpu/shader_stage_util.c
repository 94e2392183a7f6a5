/* SPDX-License-Identifier: MIT */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_packet.h>

#include "hw/shader/xlate.h"

struct ir_program *
ss_translate(const uint32_t *code, size_t size, swgpu_shader_stage stage,
             const swgpu_descriptor_type *types, uint32_t n,
             uint32_t push_size)
{
	swgpu_shader_binding b[16];
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.bindings = b, .binding_count = n,
		.push_constant_size = push_size, .stage = stage,
	};
	struct ir_program *p = NULL;
	char msg[256] = "";
	swgpu_result r;

	assert_true(n <= 16);
	for (uint32_t i = 0; i < n; i++)
		b[i] = (swgpu_shader_binding){
			.set = 0, .binding = i, .count = 1, .type = types[i],
			.offset = i * SWGPU_DESCRIPTOR_SIZE,
		};
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

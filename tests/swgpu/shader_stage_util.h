/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the engine-level tests of vertex and fragment programs
 * (test_shader_vertex.c, test_shader_fragment.c, ...): SPIR-V compiled
 * at build time is translated with the translator itself (no device)
 * and run in batches through stage.h, with resources bound straight
 * into an ir_dispatch. Bindings follow the shader tests' convention:
 * set 0, binding i has its descriptor at i * SWGPU_DESCRIPTOR_SIZE.
 */
#ifndef SWGPU_TESTS_SHADER_STAGE_UTIL_H
#define SWGPU_TESTS_SHADER_STAGE_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

#include "hw/shader/ir.h"
#include "hw/shader/stage.h"

/* Translate code for stage with n bindings (types[i]: binding i, set 0,
 * one descriptor) and push_size bytes of push constants; asserts
 * success, printing the translator's message. */
struct ir_program *ss_translate(const uint32_t *code, size_t size,
                                swgpu_shader_stage stage,
                                const swgpu_descriptor_type *types,
                                uint32_t n, uint32_t push_size);

/* The same with a full layout and specialization constants. */
struct ir_program *ss_translate_layout(const uint32_t *code, size_t size,
                                       swgpu_shader_stage stage,
                                       const swgpu_shader_binding *b,
                                       uint32_t n, uint32_t push_size,
                                       const swgpu_spec_constant *spec,
                                       uint32_t nspec);

/* The same that may fail: the result, the message in msg. */
swgpu_result ss_try(const uint32_t *code, size_t size,
                    swgpu_shader_stage stage, char *msg, size_t msg_size);

/* A zeroed dispatch for p's batches (a long watchdog timeout). Free it
 * with free(). */
struct ir_dispatch *ss_dispatch(const struct ir_program *p);

/* Bind host memory to binding i: every slot of the program that reads
 * that descriptor. */
void ss_bind(struct ir_dispatch *d, const struct ir_program *p,
             uint32_t binding, void *ptr, uint64_t range);

/* A linear image in host memory as the interpreter addresses it:
 * view_type (VkImageViewType), format code (swgpu_format.h), base size,
 * layers (cube: 6 per cube), levels laid out by the engine's mip rule
 * (swgpu_packet.h), identity swizzle, no sampler. Returns the bytes it
 * spans. */
uint64_t ss_image(struct ir_image_binding *im, uint32_t view_type,
                  uint32_t format, uint32_t w, uint32_t h, uint32_t layers,
                  uint32_t levels);
/* Texel (x, y) of level, layer (2D views) of an image at base. */
void *ss_texel(const struct ir_image_binding *im, void *base,
               uint32_t level, uint32_t layer, uint32_t x, uint32_t y);
/* Bind image im (copied; a combined image sampler when it has a
 * sampler) at ptr to the descriptor at desc * SWGPU_DESCRIPTOR_SIZE of
 * set 0 (with ss_translate: binding desc); bind a sampler's state. */
void ss_bind_image(struct ir_dispatch *d, const struct ir_program *p,
                   uint32_t desc, void *ptr, uint64_t range,
                   const struct ir_image_binding *im);
void ss_bind_sampler(struct ir_dispatch *d, const struct ir_program *p,
                     uint32_t desc, const struct swgpu_sampler_state *st);

/* Lane l of register reg. */
static inline lane_t *
ss_lane(struct ir_exec *e, uint32_t reg, uint32_t l)
{
	return &ir_exec_reg(e, reg)[l];
}

/* Fragment quads: lane l of a batch is pixel (x, y) of quad l / 4, quads
 * side by side along x from (0, 0): x = 2 (l / 4) + (l & 1), y = (l >> 1)
 * & 1. Fills FRAG_COORD with the pixel centre, z and 1/w given. */
void ss_frag_coords(struct ir_exec *e, uint32_t n, float z, float inv_w);
uint32_t ss_quad_x(uint32_t l);
/* Random fragment inputs from seed (xorshift): live[l] for n lanes
 * (about one in eight a helper lane), then every input register of p's
 * I/O map (floats in [-4, 4), integers 0..7), and FRAG_COORD as
 * ss_frag_coords(e, n, 0.5, 1). */
void ss_random_fragment_inputs(struct ir_exec *e, const struct ir_program *p,
                               uint32_t n, uint64_t seed, uint8_t *live);
uint32_t ss_quad_y(uint32_t l);

static inline float
ss_f(uint32_t u)
{
	union { uint32_t u; float f; } v = { .u = u };
	return v.f;
}

#endif

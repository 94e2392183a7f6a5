/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the graphics engine tests that go through the public API
 * (real engines, real SPIR-V shaders compiled at build time): a device
 * with a graphics queue, state structs and vertex data in a mapped
 * buffer, attachments in host-visible memory.
 */
#ifndef GFX_API_UTIL_H
#define GFX_API_UTIL_H

#include "api_util.h"

#include <swgpu/swgpu_format.h>

struct ga {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct api_cmd cmd;
	struct api_buf scratch;        /* state structs and vertex data */
	uint64_t used;
};

struct ga_image {
	struct api_buf mem;
	uint32_t format, w, h, bpp;
	uint64_t pitch;
};

/* cfg NULL: api_config_small. Queue on graphics engine 0. */
void ga_init(struct ga *g, const swgpu_config *cfg);
void ga_fini(struct ga *g);
/* Copy data into the scratch buffer; its VA (64-byte aligned). */
uint64_t ga_put(struct ga *g, const void *data, uint64_t size);
swgpu_shader *ga_shader(struct ga *g, const uint32_t *code, size_t size,
                        swgpu_shader_stage stage);
struct ga_image ga_image(struct ga *g, uint32_t format, uint32_t w,
                         uint32_t h);
void ga_image_fini(struct ga_image *im);
void ga_attachment(const struct ga_image *im, struct swgpu_attachment *a,
                   uint32_t load_op, const uint32_t clear[4]);
static inline uint8_t *
ga_px(const struct ga_image *im, uint32_t x, uint32_t y)
{
	return im->mem.cpu + y * im->pitch + (uint64_t)x * im->bpp;
}
/* Defaults as gt_pipeline_defaults (gfx_test_util.h), with shaders. */
void ga_pipeline(struct swgpu_pipeline_state *ps, const swgpu_shader *vs,
                 const swgpu_shader *fs, uint32_t w, uint32_t h,
                 uint32_t nattr);
/* Submit what was recorded in g->cmd as one job; wait; the result of
 * the wait. The arena is reset afterwards. */
swgpu_result ga_submit_wait(struct ga *g);

static inline uint32_t
ga_fbits(float f)
{
	union { float f; uint32_t u; } v = { .f = f };
	return v.u;
}

#endif

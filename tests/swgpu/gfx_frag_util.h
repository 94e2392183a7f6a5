/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the per-fragment engine tests (test_gfx_fragment.c,
 * test_gfx_depth.c, test_gfx_blend.c): a W x H pass, full-screen or
 * rectangle quads with two varyings, drawn with the host programs of
 * gfx_test_util.h.
 */
#ifndef GFX_FRAG_UTIL_H
#define GFX_FRAG_UTIL_H

#include "gfx_test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/format/format.h"

#define W 16
#define H 16
#define NA 3                       /* position, location 1, location 2 */

struct vtx3 {
	float pos[4];
	float a[4];                    /* location 1 */
	float b[4];                    /* location 2 */
};

/* Two triangles covering screen rect [x0, x1) x [y0, y1) (pixels) at
 * depth z, location 1 = c, location 2 = d. */
static inline void
quad(struct vtx3 *v, float x0, float y0, float x1, float y1, float z,
     const float c[4], const float d[4])
{
	const float xs[6] = { x0, x1, x1, x0, x1, x0 };
	const float ys[6] = { y0, y0, y1, y0, y1, y1 };

	for (int i = 0; i < 6; i++) {
		v[i].pos[0] = 2.0f * xs[i] / W - 1.0f;
		v[i].pos[1] = 2.0f * ys[i] / H - 1.0f;
		v[i].pos[2] = z;
		v[i].pos[3] = 1.0f;
		memcpy(v[i].a, c, 16);
		memcpy(v[i].b, d ? d : c, 16);
	}
}

static inline void
full_quad(struct vtx3 *v, float z, const float c[4], const float d[4])
{
	quad(v, -1, -1, W + 1, H + 1, z, c, d);
}

struct fx {
	struct gt t;
	struct swgpu_pipeline_state ps;
	struct swgpu_pass pass;
};

static inline void
fx_init(struct fx *f)
{
	gt_init(&f->t, 2);
	gt_pipeline_defaults(&f->ps, W, H, NA);
	memset(&f->pass, 0, sizeof(f->pass));
	f->pass.layer_count = 1;
	f->pass.area_width = W;
	f->pass.area_height = H;
}

static inline void
fx_color(struct fx *f, uint32_t i, const struct gt_image *im,
         const uint32_t clear[4])
{
	gt_attachment(im, &f->pass.color[i], clear ? SWGPU_LOAD_CLEAR
	                                           : SWGPU_LOAD_LOAD, clear);
	if (f->pass.color_count <= i)
		f->pass.color_count = i + 1;
}

/* Begin the pass, draw n vertices, end it, run: true when no fault. */
static inline bool
fx_draw(struct fx *f, const struct vtx3 *v, uint32_t n)
{
	gt_programs(&f->t);
	gt_begin_pass(&f->t, &f->pass);
	gt_set_pipeline(&f->t, &f->ps);
	gt_vertices(&f->t, &v[0].pos[0], n, NA);
	gt_draw(&f->t, n, 1);
	gt_end_pass(&f->t);
	return gt_run(&f->t);
}

static inline float
rd32f(const struct gt_image *im, uint32_t x, uint32_t y, uint32_t c)
{
	float v;
	memcpy(&v, gt_px(im, x, y) + 4 * c, 4);
	return v;
}


/* VkCompareOp on two values. */
static inline bool
cmp_ref(uint32_t op, double a, double b)
{
	switch (op) {
	case 0: return false;
	case 1: return a < b;
	case 2: return a == b;
	case 3: return a <= b;
	case 4: return a > b;
	case 5: return a != b;
	case 6: return a >= b;
	default: return true;
	}
}

/* Every compare op with incoming depth below, equal to and above the
 * stored 0.5, on each depth format; writes on. */

#endif

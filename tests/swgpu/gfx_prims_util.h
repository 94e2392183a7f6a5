/* SPDX-License-Identifier: MIT */
/*
 * Fixture of the primitive engine tests (test_gfx_prims.c,
 * test_gfx_lines.c): a W x H R32_SFLOAT target cleared to 0 with
 * additive blending, so each pixel counts what was drawn on it, and
 * vertices placed in pixel coordinates.
 */
#ifndef GFX_PRIMS_UTIL_H
#define GFX_PRIMS_UTIL_H

#include "gfx_test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/format/format.h"

#define W 16
#define H 16
#define NA 4

struct vtx {
	float pos[4];
	float col[4];                  /* location 1 */
	float l2[4];                   /* location 2 */
	float l3[4];                   /* location 3: x point size, y clip
	                                  distance, z cull distance */
};

static inline struct vtx
at(double sx, double sy, double z, float r)
{
	struct vtx v;

	memset(&v, 0, sizeof(v));
	v.pos[0] = (float)(2.0 * sx / W - 1.0);
	v.pos[1] = (float)(2.0 * sy / H - 1.0);
	v.pos[2] = (float)z;
	v.pos[3] = 1.0f;
	v.col[0] = r;
	v.col[3] = 1.0f;
	v.l3[0] = 1.0f;
	v.l3[1] = 1.0f;
	v.l3[2] = 1.0f;
	return v;
}

struct px {
	struct gt t;
	struct gt_image rt;
	struct swgpu_pipeline_state ps;
	struct swgpu_pass pass;
};

/* R32_SFLOAT target cleared to 0, additive blending (counts). */
static inline void
px_init(struct px *p)
{
	gt_init(&p->t, 2);
	p->rt = gt_image(&p->t, SWGPU_FORMAT_R32_SFLOAT, W, H);
	memset(&p->pass, 0, sizeof(p->pass));
	p->pass.color_count = 1;
	p->pass.layer_count = 1;
	p->pass.area_width = W;
	p->pass.area_height = H;
	gt_attachment(&p->rt, &p->pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0 });
	gt_pipeline_defaults(&p->ps, W, H, NA);
	struct swgpu_blend_attachment *b = &p->ps.state.blend[0];
	b->enable = 1;
	b->src_color = b->dst_color = b->src_alpha = b->dst_alpha = 1;
}

static inline bool
px_draw(struct px *p, const struct vtx *v, uint32_t n)
{
	gt_programs(&p->t);
	gt_begin_pass(&p->t, &p->pass);
	gt_set_pipeline(&p->t, &p->ps);
	gt_vertices(&p->t, &v[0].pos[0], n, NA);
	gt_draw(&p->t, n, 1);
	gt_end_pass(&p->t);
	return gt_run(&p->t);
}

static inline float
val(const struct px *p, int x, int y)
{
	float f;
	memcpy(&f, gt_px(&p->rt, (uint32_t)x, (uint32_t)y), 4);
	return f;
}

/* Every pixel equals want(x, y). */
#define EXPECT_IMAGE(p, expr)                                              \
	do {                                                               \
		for (int y = 0; y < H; y++)                                \
			for (int x = 0; x < W; x++) {                      \
				float w_ = (float)(expr);                  \
				if (val(p, x, y) != w_)                    \
					fail_msg("pixel (%d, %d) = %g, "   \
					         "want %g", x, y,          \
					         (double)val(p, x, y),     \
					         (double)w_);              \
			}                                                  \
	} while (0)

#endif

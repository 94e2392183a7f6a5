/* SPDX-License-Identifier: MIT */
/*
 * msaa_shape: what the multisampling tests share (msaa_shape.c).
 */
#ifndef MSAA_SHAPE_H
#define MSAA_SHAPE_H

#include "gfx_scene_util.h"

/* The standard sample locations (spec table), 1/16 pixel, for 1, 2, 4
 * and 8 samples (index lg(S)). */
extern const uint8_t pos16[4][8][2];
uint32_t lg(uint32_t s);

/* An octagon (vertices at 1/256 positions) fanned from an inner point. */
extern const double oct[8][2];
extern const double oct_c[2];
/* Its 24 vertices, white, at z 0.5. */
uint32_t shape_vertices(struct vtx *v);
/* +1 strictly inside the octagon, -1 strictly outside, 0 on it. */
int oct_side(double px, double py);

/* The octagon and a square cut along its diagonal: 30 vertices. */
#define MSAA_COVERAGE_VERTICES 30
uint32_t coverage_shape(struct vtx *v);
/* Each pixel's red byte of o is its mask of covered samples of the
 * coverage shape at S samples: fails on a sample strictly inside that is
 * not covered or strictly outside that is. */
void coverage_check(struct gfx_ctx *c, const struct gfx_out *o, uint32_t S);

/* Multisampled lines: the spec's rectangle of width 1 centred on the
 * segment a-b. 1 when the sample location (px, py) is inside, 0 when
 * outside, -1 when it lies within MSAA_LINE_MARGIN of an edge without
 * being on it exactly (too close to decide in floating point, or for a
 * driver that snaps the rectangle's corners to its subpixel grid). On an
 * edge exactly (the corners are exact only for axis-aligned segments)
 * the polygon rule decides: inside on a top or left edge of the
 * rectangle; *tie is set then. */
#define MSAA_LINE_MARGIN (1.0 / 128)
int line_rect_side(const double a[2], const double b[2], double px,
                   double py, bool *tie);

/* Whether RGBA8 images of this usage take S samples; colour
 * attachments that are also transfer sources and destinations. */
bool has_samples_usage(const struct vkh *h, VkSampleCountFlagBits S,
                       VkImageUsageFlags usage);
bool has_samples(const struct vkh *h, VkSampleCountFlagBits S);

/* Dynamic rendering on S-sample colour (and depth) images, cleared
 * (load: colour loaded), with resolves into res / dres (NULL: none). */
void begin_ms(VkCommandBuffer cb, const struct gfx_image *color,
              const struct gfx_image *res, const struct gfx_image *ds,
              const struct gfx_image *dres, VkResolveModeFlagBits dmode,
              bool load);
/* Draw n vertices with pipe (px push constants) in a command buffer
 * already rendering; vb receives the vertex buffer (caller destroys). */
bool draw_in(struct gfx_ctx *c, VkCommandBuffer cb, VkPipeline pipe,
             const struct vtx *v, uint32_t n, struct vkh_buffer *vb);

#endif /* MSAA_SHAPE_H */

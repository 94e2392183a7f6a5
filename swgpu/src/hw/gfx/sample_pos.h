/* SPDX-License-Identifier: MIT */
/*
 * The Vulkan standard sample locations (the table of "Standard sample
 * locations" in the spec), shared by the rasterizer (coverage, per-sample
 * depth) and fragment shading (SamplePosition, interpolateAtSample).
 * Positions are in 1/16 pixel from the pixel's top-left corner, so they
 * are exact in the rasterizer's 8 subpixel bits.
 */
#ifndef SWGPU_GFX_SAMPLE_POS_H
#define SWGPU_GFX_SAMPLE_POS_H

#include <stdint.h>

/* [log2 S][s] = { x, y } in 1/16 pixel, S in 1, 2, 4, 8. */
extern const uint8_t gfx_sample_pos16[4][8][2];

static inline uint32_t
gfx_log2_samples(uint32_t samples)
{
	return samples >= 8 ? 3u : samples >= 4 ? 2u : samples >= 2 ? 1u : 0u;
}

/* Sample s of S's position inside the pixel, in [0, 1). */
static inline float
gfx_sample_x(uint32_t samples, uint32_t s)
{
	return (float)gfx_sample_pos16[gfx_log2_samples(samples)][s][0] / 16.0f;
}

static inline float
gfx_sample_y(uint32_t samples, uint32_t s)
{
	return (float)gfx_sample_pos16[gfx_log2_samples(samples)][s][1] / 16.0f;
}

#endif

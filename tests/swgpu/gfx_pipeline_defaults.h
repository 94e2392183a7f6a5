/* SPDX-License-Identifier: MIT */
/*
 * The pipeline state the graphics engine tests start from (white-box
 * gfx_test_util and public-API gfx_api_util alike): nattr vec4
 * attributes at locations 0.. from binding 0, triangle lists, a w x h
 * viewport and scissor, every test off, every channel written.
 */
#ifndef GFX_PIPELINE_DEFAULTS_H
#define GFX_PIPELINE_DEFAULTS_H

#include <string.h>

#include <swgpu/swgpu_packet.h>

static inline void
gfx_pipeline_defaults(struct swgpu_pipeline_state *ps, uint32_t w, uint32_t h,
                      uint32_t nattr)
{
	memset(ps, 0, sizeof(*ps));
	ps->size = sizeof(*ps);
	ps->binding_count = 1;
	ps->bindings[0].stride = 16 * nattr;
	ps->attrib_count = nattr;
	for (uint32_t i = 0; i < nattr; i++) {
		ps->attribs[i].location = i;
		ps->attribs[i].binding = 0;
		ps->attribs[i].format = SWGPU_FORMAT_R32G32B32A32_SFLOAT;
		ps->attribs[i].offset = 16 * i;
	}
	struct swgpu_raster_state *rs = &ps->state;
	rs->topology = SWGPU_TOPOLOGY_TRIANGLE_LIST;
	rs->line_width = 1.0f;
	rs->depth_compare = SWGPU_COMPARE_ALWAYS;
	rs->color_write_enable = 0xff;
	rs->viewport_count = rs->scissor_count = 1;
	rs->viewports[0] = (struct swgpu_viewport){ 0, 0, (float)w, (float)h,
	                                            0.0f, 1.0f };
	rs->scissors[0] = (struct swgpu_scissor){ 0, 0, w, h };
	for (uint32_t i = 0; i < 8; i++)
		rs->blend[i].write_mask = 0xf;
	rs->front.compare_op = rs->back.compare_op = SWGPU_COMPARE_ALWAYS;
	rs->front.compare_mask = rs->back.compare_mask = 0xff;
	rs->front.write_mask = rs->back.write_mask = 0xff;
}

#endif /* GFX_PIPELINE_DEFAULTS_H */

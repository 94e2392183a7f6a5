/* SPDX-License-Identifier: MIT */
/* Draws (draw.c): what the draw packets call. */
#ifndef SWGPU_GFX_DRAW_H
#define SWGPU_GFX_DRAW_H

#include "hw/gfx/gfx_internal.h"
#include "hw/packet/packet_internal.h"

/* One draw's parameters (DRAW, DRAW_INDEXED or one indirect command). */
struct gfx_draw_cmd {
	bool indexed;
	uint32_t count;            /* vertices or indices */
	uint32_t instance_count;
	uint32_t first;            /* first vertex or first index */
	int32_t vertex_offset;     /* indexed */
	uint32_t first_instance;
	uint32_t draw_index;       /* position in its packet (resume) */
	uint32_t draw_id;          /* the DrawIndex built-in */
};

enum gfx_draw_result { GFX_DRAW_DONE, GFX_DRAW_FAULT, GFX_DRAW_PREEMPTED };

/* Resolve and validate the state for a draw into d (false: fault
 * recorded). VA read lock held until the draw's gfx_draw_run ends. */
bool gfx_draw_prepare(struct exec_env *env, const struct pkt *p,
                      struct gfx_state *g, const struct swgpu_bind_table *bt,
                      struct gfx_draw *d);
/* Run cmd on a prepared draw; resume: go on from the state's resume
 * point (instance, primitives) of a preempted run. */
enum gfx_draw_result gfx_draw_run(struct exec_env *env, const struct pkt *p,
                                  struct gfx_draw *d,
                                  const struct gfx_draw_cmd *cmd, bool resume);

#endif

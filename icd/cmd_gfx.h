/* SPDX-License-Identifier: MIT */
/*
 * cmd_gfx.h — the graphics state a command buffer records against.
 *
 * The engine keeps graphics state per job (swgpu_packet.h, "Graphics
 * packets"): the open pass, pipeline, dynamic state, vertex and index
 * buffers. The command buffer tracks what the application set and emits
 * only what changed, right before the draw that needs it:
 *
 *   vkCmdBindPipeline      -> SET_PIPELINE (the pipeline's state VA)
 *   vkCmdSet* (dynamic)    -> a swgpu_raster_state in command memory +
 *                             SET_DYNAMIC, once per change
 *   vkCmdBindVertexBuffers -> SET_VERTEX_BUFFERS of the changed range
 *   vkCmdBindIndexBuffer   -> SET_INDEX_BUFFER
 *   descriptors, pushes    -> the graphics bind table (cmd_bind.c)
 *
 * Render pass instances (cmd_pass.c): each subpass is one BEGIN_PASS ..
 * END_PASS, with the attachments that subpass uses; dynamic rendering
 * maps straight onto BEGIN_PASS / END_PASS. A secondary command buffer
 * that continues a render pass records inside the primary's pass, and
 * after vkCmdExecuteCommands the primary emits its state again (the
 * secondaries changed the engine's).
 */
#ifndef ICD_CMD_GFX_H
#define ICD_CMD_GFX_H

#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "render_pass.h"

struct icd_pipeline;

struct icd_vertex_buffer {
	uint64_t va;            /* 0: unbound, reads as zero */
	uint64_t size;          /* bytes from va */
	uint32_t stride;        /* vkCmdBindVertexBuffers2 strides */
};

/* The render pass instance being recorded. */
struct icd_pass_state {
	bool active;            /* inside a render pass instance */
	bool open;              /* a BEGIN_PASS of this buffer is open */
	bool dynamic;           /* vkCmdBeginRendering */
	bool inherited;         /* a secondary continuing the primary's */
	bool suspending;        /* VK_RENDERING_SUSPENDING_BIT */
	const struct icd_render_pass *rp;
	uint32_t subpass;
	VkRect2D area;
	uint32_t layers;
	uint32_t view_mask;     /* multiview subpass / rendering: its views */
	uint32_t attachment_count;
	/* Per render pass attachment: its views' surfaces (colour, or
	 * depth and stencil) and clear value. */
	struct icd_pass_attachment {
		struct icd_view_surface color, depth, stencil;
		VkClearValue clear;
		uint32_t views_loaded;  /* multiview: views whose load op ran */
	} att[ICD_MAX_RP_ATTACHMENTS];
};

struct icd_gfx_state {
	struct icd_pipeline *pipeline;      /* bound graphics pipeline */
	/* State VA of the last SET_PIPELINE in the engine, 0 when the
	 * engine's state is unknown (new recording, after secondaries). */
	uint64_t emitted_pipeline;
	/* Values of vkCmdSet*, sent with SET_DYNAMIC when dyn_dirty. */
	struct swgpu_raster_state dyn;
	bool dyn_dirty;
	struct icd_vertex_buffer vb[SWGPU_GFX_MAX_VERTEX_BINDINGS];
	uint32_t vb_bound;      /* bit per binding ever bound */
	uint32_t vb_dirty;      /* bit per binding changed since emitted */
	uint64_t ib_va, ib_size;
	uint32_t ib_index_size; /* bytes: 1, 2 or 4; 0 unbound */
	bool ib_dirty;
	struct icd_pass_state pass;
};

/* The command buffer's graphics state, allocated at its first use; NULL
 * after a recording error (out of memory). */
struct icd_gfx_state *icd_cmd_gfx(struct icd_cmd_buffer *cb);

/* cmd_buffer.c hooks: a reset clears the state; a secondary beginning
 * with RENDER_PASS_CONTINUE records inside the primary's pass; End
 * refuses a pass left open; after vkCmdExecuteCommands everything is
 * emitted again. */
void icd_cmd_gfx_reset(struct icd_cmd_buffer *cb);
void icd_cmd_gfx_inherit_pass(struct icd_cmd_buffer *cb,
                              const VkCommandBufferInheritanceInfo *inh);
void icd_cmd_gfx_end(struct icd_cmd_buffer *cb);
void icd_cmd_gfx_state_lost(struct icd_cmd_buffer *cb);

/* Queries and timestamps inside a multiview render pass instance use
 * one query per view (the spec's N consecutive queries): the number of
 * views of cb's current subpass or rendering, 1 outside multiview. */
uint32_t icd_cmd_query_views(struct icd_cmd_buffer *cb);

/* vkCmdBindPipeline(GRAPHICS) (cmd_draw.c). */
void icd_cmd_bind_graphics_pipeline(struct icd_cmd_buffer *cb,
                                    struct icd_pipeline *p);

#endif /* ICD_CMD_GFX_H */

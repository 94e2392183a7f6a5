/* SPDX-License-Identifier: MIT */
/* Graphics packet handlers (listed in op_table). */
#ifndef SWGPU_PACKET_GFX_H
#define SWGPU_PACKET_GFX_H

#include "hw/packet/packet_internal.h"

#define GFX_EXEC_FN(name)                                                  \
	bool name(struct exec_env *env, const uint32_t *pk, uint32_t len,  \
	          const struct pkt *p, uint32_t depth)

GFX_EXEC_FN(exec_begin_pass);
GFX_EXEC_FN(exec_end_pass);
GFX_EXEC_FN(exec_clear_attachments);
GFX_EXEC_FN(exec_set_pipeline);
GFX_EXEC_FN(exec_set_dynamic);
GFX_EXEC_FN(exec_set_vertex_buffers);
GFX_EXEC_FN(exec_set_index_buffer);
GFX_EXEC_FN(exec_draw);
GFX_EXEC_FN(exec_draw_indexed);
GFX_EXEC_FN(exec_draw_indirect);
GFX_EXEC_FN(exec_query_begin);
GFX_EXEC_FN(exec_query_end);
GFX_EXEC_FN(exec_resolve);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * cmd_draw.c — graphics pipeline binds, vertex and index buffers, and the
 * draw commands. See cmd_gfx.h for what is emitted when.
 *
 * Before each draw the state the engine lacks is emitted, in this order:
 * SET_PIPELINE, SET_DYNAMIC, SET_VERTEX_BUFFERS, SET_INDEX_BUFFER (indexed
 * draws), the graphics bind table; then the draw packet. A draw outside a
 * render pass instance or without a graphics pipeline is valid-usage
 * violation the engine would fault on: it is logged and becomes a
 * recording error (vkEndCommandBuffer fails), never a packet.
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_gfx.h"
#include "pipeline.h"

void
icd_cmd_bind_graphics_pipeline(struct icd_cmd_buffer *cb,
                               struct icd_pipeline *p)
{
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (g)
		g->pipeline = p;
}

/* ------------------------------------------------------------------ */
/* Vertex and index buffers                                            */
/* ------------------------------------------------------------------ */

void
icd_CmdBindVertexBuffers2(VkCommandBuffer commandBuffer,
                          uint32_t firstBinding, uint32_t bindingCount,
                          const VkBuffer *pBuffers,
                          const VkDeviceSize *pOffsets,
                          const VkDeviceSize *pSizes,
                          const VkDeviceSize *pStrides)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = icd_cmd_gfx(cb);

	if (!g)
		return;
	for (uint32_t i = 0; i < bindingCount; i++) {
		uint32_t b = firstBinding + i;
		const struct icd_buffer *buf =
			icd_buffer_from_handle(pBuffers[i]);
		struct icd_vertex_buffer *vb;

		if (b >= SWGPU_GFX_MAX_VERTEX_BINDINGS)
			break;
		vb = &g->vb[b];
		/* VK_NULL_HANDLE (nullDescriptor): reads as zero. */
		if (buf && buf->va && pOffsets[i] <= buf->size) {
			VkDeviceSize left = buf->size - pOffsets[i];

			vb->va = buf->va + pOffsets[i];
			vb->size = pSizes && pSizes[i] != VK_WHOLE_SIZE &&
			           pSizes[i] < left ? pSizes[i] : left;
		} else {
			vb->va = 0;
			vb->size = 0;
		}
		if (pStrides)
			vb->stride = (uint32_t)pStrides[i];
		g->vb_bound |= 1u << b;
		g->vb_dirty |= 1u << b;
	}
}

void
icd_CmdBindVertexBuffers(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                         uint32_t bindingCount, const VkBuffer *pBuffers,
                         const VkDeviceSize *pOffsets)
{
	icd_CmdBindVertexBuffers2(commandBuffer, firstBinding, bindingCount,
	                          pBuffers, pOffsets, NULL, NULL);
}

void
icd_CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer,
                       VkDeviceSize offset, VkIndexType indexType)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_gfx_state *g = icd_cmd_gfx(cb);
	const struct icd_buffer *buf = icd_buffer_from_handle(buffer);
	uint32_t size;

	if (!g)
		return;
	switch (indexType) {
	case VK_INDEX_TYPE_UINT16:
		size = 2;
		break;
	case VK_INDEX_TYPE_UINT32:
		size = 4;
		break;
	case VK_INDEX_TYPE_UINT8_EXT:
		size = 1;
		break;
	default:
		icd_log("vkCmdBindIndexBuffer: index type %d is not supported",
		        (int)indexType);
		icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
		return;
	}
	g->ib_va = buf && offset <= buf->size ? buf->va + offset : 0;
	g->ib_size = buf && offset <= buf->size ? buf->size - offset : 0;
	g->ib_index_size = size;
	g->ib_dirty = true;
}

/* ------------------------------------------------------------------ */
/* State emission                                                      */
/* ------------------------------------------------------------------ */

/* The changed vertex bindings as one SET_VERTEX_BUFFERS of the range
 * from the lowest to the highest changed one. */
static void
emit_vertex_buffers(struct icd_cmd_buffer *cb, struct icd_gfx_state *g)
{
	uint32_t first = (uint32_t)__builtin_ctz(g->vb_dirty);
	uint32_t last = 31u - (uint32_t)__builtin_clz(g->vb_dirty);
	uint32_t n = last - first + 1;
	uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_SET_VERTEX_BUFFERS(n));

	if (!p)
		return;
	swgpu_emit_set_vertex_buffers_header(p, first, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct icd_vertex_buffer *vb = &g->vb[first + i];

		swgpu_put_vertex_buffer(p + 3 + 5 * i, vb->va, vb->size,
		                        vb->stride);
	}
	g->vb_dirty = 0;
}

/*
 * Emit what the engine lacks for a draw; returns the graphics bind table
 * VA, or 0 when the draw must not be recorded (no render pass instance,
 * no pipeline, no index buffer for an indexed draw: logged and a
 * recording error; or an earlier recording error).
 */
static uint64_t
draw_prepare(struct icd_cmd_buffer *cb, bool indexed, const char *cmd)
{
	struct icd_gfx_state *g = icd_cmd_gfx(cb);
	const struct icd_pipeline *pl;
	uint32_t *p;

	if (!g)
		return 0;
	pl = g->pipeline;
	if (!g->pass.active || !pl || (indexed && !g->ib_index_size)) {
		icd_log("%s %s", cmd, !g->pass.active ?
		        "outside a render pass instance" : !pl ?
		        "without a bound graphics pipeline" :
		        "without a bound index buffer");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return 0;
	}
	if (g->emitted_pipeline != pl->state_va) {
		p = icd_cmd_emit(cb, SWGPU_LEN_SET_PIPELINE);
		if (!p)
			return 0;
		swgpu_emit_set_pipeline(p, pl->state_va);
		g->emitted_pipeline = pl->state_va;
	}
	/* Dynamic values wait until a pipeline uses them; the engine keeps
	 * the last SET_DYNAMIC for later pipelines. */
	if (g->dyn_dirty && pl->dynamic_mask) {
		uint64_t va = icd_cmd_emit_data(cb, &g->dyn, sizeof(g->dyn),
		                                NULL);

		p = va ? icd_cmd_emit(cb, SWGPU_LEN_SET_DYNAMIC) : NULL;
		if (!p)
			return 0;
		swgpu_emit_set_dynamic(p, va);
		g->dyn_dirty = false;
	}
	if (g->vb_dirty)
		emit_vertex_buffers(cb, g);
	if (indexed && g->ib_dirty) {
		p = icd_cmd_emit(cb, SWGPU_LEN_SET_INDEX_BUFFER);
		if (!p)
			return 0;
		swgpu_emit_set_index_buffer(p, g->ib_va, g->ib_size,
		                            g->ib_index_size);
		g->ib_dirty = false;
	}
	return icd_cmd_bind_table(cb, ICD_BIND_GRAPHICS);
}

/* ------------------------------------------------------------------ */
/* Draws                                                               */
/* ------------------------------------------------------------------ */

void
icd_CmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount,
            uint32_t instanceCount, uint32_t firstVertex,
            uint32_t firstInstance)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	uint64_t table = draw_prepare(cb, false, "vkCmdDraw");
	uint32_t *p;

	if (!table || !vertexCount || !instanceCount)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_DRAW);
	if (p)
		swgpu_emit_draw(p, table, vertexCount, instanceCount,
		                firstVertex, firstInstance);
}

void
icd_CmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount,
                   uint32_t instanceCount, uint32_t firstIndex,
                   int32_t vertexOffset, uint32_t firstInstance)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	uint64_t table = draw_prepare(cb, true, "vkCmdDrawIndexed");
	uint32_t *p;

	if (!table || !indexCount || !instanceCount)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_DRAW_INDEXED);
	if (p)
		swgpu_emit_draw_indexed(p, table, indexCount, instanceCount,
		                        firstIndex, vertexOffset,
		                        firstInstance);
}

/* Every indirect form: one DRAW_INDIRECT reading the commands (and with
 * COUNT the count) when it executes, so earlier writes ordered by a
 * barrier are seen. */
static void
draw_indirect(VkCommandBuffer commandBuffer, uint32_t flags, VkBuffer buffer,
              VkDeviceSize offset, VkBuffer countBuffer,
              VkDeviceSize countOffset, uint32_t drawCount, uint32_t stride,
              const char *cmd)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const struct icd_buffer *buf = icd_buffer_from_handle(buffer);
	const struct icd_buffer *cnt = icd_buffer_from_handle(countBuffer);
	uint64_t table = draw_prepare(cb, flags & SWGPU_DRAW_INDEXED, cmd);
	uint32_t *p;

	if (!table || !drawCount)
		return;
	/* A single draw may give any stride: the packet reads one. */
	if (drawCount == 1 && !(flags & SWGPU_DRAW_COUNT))
		stride = flags & SWGPU_DRAW_INDEXED ?
		         sizeof(VkDrawIndexedIndirectCommand) :
		         sizeof(VkDrawIndirectCommand);
	p = icd_cmd_emit(cb, SWGPU_LEN_DRAW_INDIRECT);
	if (p)
		swgpu_emit_draw_indirect(p, flags, table, buf->va + offset,
		                         drawCount, stride,
		                         cnt ? cnt->va + countOffset : 0);
}

void
icd_CmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                    VkDeviceSize offset, uint32_t drawCount, uint32_t stride)
{
	draw_indirect(commandBuffer, 0, buffer, offset, VK_NULL_HANDLE, 0,
	              drawCount, stride, "vkCmdDrawIndirect");
}

void
icd_CmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                           VkDeviceSize offset, uint32_t drawCount,
                           uint32_t stride)
{
	draw_indirect(commandBuffer, SWGPU_DRAW_INDEXED, buffer, offset,
	              VK_NULL_HANDLE, 0, drawCount, stride,
	              "vkCmdDrawIndexedIndirect");
}

void
icd_CmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer,
                         VkDeviceSize offset, VkBuffer countBuffer,
                         VkDeviceSize countBufferOffset,
                         uint32_t maxDrawCount, uint32_t stride)
{
	draw_indirect(commandBuffer, SWGPU_DRAW_COUNT, buffer, offset,
	              countBuffer, countBufferOffset, maxDrawCount, stride,
	              "vkCmdDrawIndirectCount");
}

void
icd_CmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer,
                                VkBuffer buffer, VkDeviceSize offset,
                                VkBuffer countBuffer,
                                VkDeviceSize countBufferOffset,
                                uint32_t maxDrawCount, uint32_t stride)
{
	draw_indirect(commandBuffer, SWGPU_DRAW_INDEXED | SWGPU_DRAW_COUNT,
	              buffer, offset, countBuffer, countBufferOffset,
	              maxDrawCount, stride, "vkCmdDrawIndexedIndirectCount");
}

/* ------------------------------------------------------------------ */
/* VK_EXT_multi_draw                                                   */
/* ------------------------------------------------------------------ */

/* The elements become indirect commands in command memory, read by
 * DRAW_INDIRECT packets of at most MULTI_PER_PACKET commands each; the
 * packets number DrawIndex on from the previous one, as the spec wants
 * (the element's index in the array). */
#define MULTI_PER_PACKET 192u

static void
draw_multi(VkCommandBuffer commandBuffer, bool indexed, uint32_t drawCount,
           const void *info, uint32_t stride, uint32_t instanceCount,
           uint32_t firstInstance, const int32_t *pVertexOffset,
           const char *cmd)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const uint32_t words = indexed ? 5 : 4;
	uint64_t table;

	if (drawCount > ICD_MAX_MULTI_DRAW_COUNT) {
		icd_log("%s: drawCount %u is over maxMultiDrawCount %u; "
		        "vkEndCommandBuffer will fail", cmd, drawCount,
		        ICD_MAX_MULTI_DRAW_COUNT);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	table = draw_prepare(cb, indexed, cmd);
	if (!table || !drawCount || !instanceCount)
		return;
	for (uint32_t done = 0; done < drawCount;) {
		uint32_t n = drawCount - done < MULTI_PER_PACKET ?
		             drawCount - done : MULTI_PER_PACKET;
		uint32_t w[MULTI_PER_PACKET * 5];
		uint64_t va;
		uint32_t *p;

		for (uint32_t i = 0; i < n; i++) {
			const char *e = (const char *)info +
			                (size_t)(done + i) * stride;
			uint32_t *c = w + i * words;

			if (indexed) {
				const VkMultiDrawIndexedInfoEXT *d =
					(const void *)e;
				c[0] = d->indexCount;
				c[1] = instanceCount;
				c[2] = d->firstIndex;
				c[3] = (uint32_t)(pVertexOffset ?
				                  *pVertexOffset :
				                  d->vertexOffset);
				c[4] = firstInstance;
			} else {
				const VkMultiDrawInfoEXT *d = (const void *)e;
				c[0] = d->vertexCount;
				c[1] = instanceCount;
				c[2] = d->firstVertex;
				c[3] = firstInstance;
			}
		}
		va = icd_cmd_emit_data(cb, w, n * words * 4, NULL);
		p = va ? icd_cmd_emit(cb, SWGPU_LEN_DRAW_INDIRECT) : NULL;
		if (!p)
			return;
		swgpu_emit_draw_indirect_from(p, indexed ? SWGPU_DRAW_INDEXED
		                                         : 0,
		                              table, va, n, words * 4, done);
		done += n;
	}
}

void
icd_CmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                    const VkMultiDrawInfoEXT *pVertexInfo,
                    uint32_t instanceCount, uint32_t firstInstance,
                    uint32_t stride)
{
	draw_multi(commandBuffer, false, drawCount, pVertexInfo, stride,
	           instanceCount, firstInstance, NULL, "vkCmdDrawMultiEXT");
}

void
icd_CmdDrawMultiIndexedEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                           const VkMultiDrawIndexedInfoEXT *pIndexInfo,
                           uint32_t instanceCount, uint32_t firstInstance,
                           uint32_t stride, const int32_t *pVertexOffset)
{
	draw_multi(commandBuffer, true, drawCount, pIndexInfo, stride,
	           instanceCount, firstInstance, pVertexOffset,
	           "vkCmdDrawMultiIndexedEXT");
}

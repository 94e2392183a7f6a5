/* SPDX-License-Identifier: MIT */
/*
 * cmd_compute.c — compute commands: pipeline and descriptor-set binds,
 * push constants, dispatches.
 *
 * Binds only update the command buffer's compute state (cmd_buffer.h).
 * A dispatch writes that state as a struct swgpu_bind_table into command
 * memory — inside a NOP packet, so the engine skips it as a packet and
 * reads it as data — and emits DISPATCH naming the table's VA. The table
 * is written once per change of state: consecutive dispatches with the
 * same bindings share it. Command memory is immutable once recorded, so
 * every dispatch sees exactly the state of its recording point.
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "pipeline.h"

_Static_assert(SWGPU_BIND_TABLE_MAX_SETS == 8 &&
               SWGPU_BIND_TABLE_MAX_DYNAMIC == 16 &&
               SWGPU_BIND_TABLE_PUSH_BYTES == 256,
               "cmd_buffer.h's compute state mirrors the bind table");
_Static_assert(ICD_MAX_SETS <= SWGPU_BIND_TABLE_MAX_SETS &&
               ICD_MAX_DYNAMIC_BUFFERS <= SWGPU_BIND_TABLE_MAX_DYNAMIC &&
               ICD_MAX_PUSH_CONSTANTS <= SWGPU_BIND_TABLE_PUSH_BYTES,
               "limits fit the bind table");

#define TABLE_DW (SWGPU_BIND_TABLE_SIZE / 4)
/* NOP header + one pad dword to reach 8-byte alignment + the table. */
#define TABLE_PACKET_DW (2 + TABLE_DW)

void
icd_CmdBindPipeline(VkCommandBuffer commandBuffer,
                    VkPipelineBindPoint bindPoint, VkPipeline pipeline)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	if (bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) {
		icd_cmd_unsupported(commandBuffer,
		                    "vkCmdBindPipeline (non-compute)");
		return;
	}
	cb->compute.pipeline = icd_pipeline_from_handle(pipeline);
	cb->compute.dirty = true;
}

void
icd_CmdBindDescriptorSets(VkCommandBuffer commandBuffer,
                          VkPipelineBindPoint bindPoint,
                          VkPipelineLayout layout, uint32_t firstSet,
                          uint32_t setCount, const VkDescriptorSet *pSets,
                          uint32_t dynamicOffsetCount,
                          const uint32_t *pDynamicOffsets)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_pipeline_layout *pl = icd_pipeline_layout_from_handle(layout);
	uint32_t dyn = 0;

	if (bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) {
		icd_cmd_unsupported(commandBuffer,
		                    "vkCmdBindDescriptorSets (non-compute)");
		return;
	}
	for (uint32_t i = 0; i < setCount; i++) {
		uint32_t s = firstSet + i;
		struct icd_descriptor_set *set =
			icd_descriptor_set_from_handle(pSets[i]);
		uint32_t n;

		if (s >= ICD_MAX_SETS)
			break;
		cb->compute.set_va[s] = set ? set->va : 0;
		/* The set's dynamic offsets go where the pipeline layout
		 * puts that set's dynamic buffers in the flat array (the
		 * shader bindings were built from a compatible layout). */
		n = set ? set->layout->dynamic_count : 0;
		for (uint32_t k = 0; k < n && dyn < dynamicOffsetCount; k++) {
			uint32_t at = pl->dynamic_start[s] + k;

			if (at < ICD_MAX_DYNAMIC_BUFFERS)
				cb->compute.dynamic_offsets[at] =
					pDynamicOffsets[dyn];
			dyn++;
		}
	}
	cb->compute.dirty = true;
}

void
icd_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                     VkShaderStageFlags stageFlags, uint32_t offset,
                     uint32_t size, const void *pValues)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	/* offset + size <= maxPushConstantsSize is valid usage; clamp so a
	 * violation cannot write past the state. */
	if (offset >= sizeof(cb->compute.push))
		return;
	if (size > sizeof(cb->compute.push) - offset)
		size = (uint32_t)sizeof(cb->compute.push) - offset;
	memcpy(cb->compute.push + offset, pValues, size);
	cb->compute.dirty = true;
}

/* The VA of a bind table holding the current state, written if needed;
 * 0 after a recording error. */
static uint64_t
bind_table(struct icd_cmd_buffer *cb)
{
	struct swgpu_bind_table t;
	uint32_t *p, *dst;
	uint64_t va;

	if (!cb->compute.dirty && cb->compute.table_va)
		return cb->compute.table_va;
	p = icd_cmd_emit(cb, TABLE_PACKET_DW);
	if (!p)
		return 0;
	va = cb->cur->va + (uint64_t)(p - cb->cur->map) * 4;
	/* Chunks are page aligned, so VA alignment is dword-index parity. */
	dst = ((va + 4) & 7) ? p + 2 : p + 1;
	swgpu_emit_nop(p, TABLE_PACKET_DW);
	memset(&t, 0, sizeof(t));
	memcpy(t.set_va, cb->compute.set_va, sizeof(t.set_va));
	memcpy(t.dynamic_offsets, cb->compute.dynamic_offsets,
	       sizeof(t.dynamic_offsets));
	memcpy(t.push_constants, cb->compute.push, sizeof(t.push_constants));
	memcpy(dst, &t, sizeof(t));
	cb->compute.table_va = va + (uint64_t)(dst - p) * 4;
	cb->compute.dirty = false;
	return cb->compute.table_va;
}

/* The bound compute pipeline, or NULL (logged, recording error) if none:
 * dispatching without one is valid usage, but it must not reach the GPU
 * as a DISPATCH of VA 0. */
static struct icd_pipeline *
dispatch_pipeline(struct icd_cmd_buffer *cb, const char *cmd)
{
	if (cb->compute.pipeline)
		return cb->compute.pipeline;
	icd_log("%s without a bound compute pipeline", cmd);
	icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
	return NULL;
}

void
icd_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseX,
                    uint32_t baseY, uint32_t baseZ, uint32_t x, uint32_t y,
                    uint32_t z)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_pipeline *p = dispatch_pipeline(cb, "vkCmdDispatch");
	uint64_t table;
	uint32_t *pkt;

	if (!p || !x || !y || !z)
		return;
	table = bind_table(cb);
	if (!table)
		return;
	pkt = icd_cmd_emit(cb, SWGPU_LEN_DISPATCH);
	if (pkt)
		swgpu_emit_dispatch(pkt, p->code_va, table, x, y, z, baseX,
		                    baseY, baseZ);
}

void
icd_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y,
                uint32_t z)
{
	icd_CmdDispatchBase(commandBuffer, 0, 0, 0, x, y, z);
}

void
icd_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                        VkDeviceSize offset)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_pipeline *p = dispatch_pipeline(cb,
	                                           "vkCmdDispatchIndirect");
	struct icd_buffer *buf = icd_buffer_from_handle(buffer);
	uint64_t table;
	uint32_t *pkt;

	if (!p)
		return;
	table = bind_table(cb);
	if (!table)
		return;
	/* The counts are read when the packet executes, so a barrier
	 * before it orders an earlier write of the arguments. */
	pkt = icd_cmd_emit(cb, SWGPU_LEN_DISPATCH_INDIRECT);
	if (pkt)
		swgpu_emit_dispatch_indirect(pkt, p->code_va, table,
		                             buf->va + offset, 0, 0, 0);
}

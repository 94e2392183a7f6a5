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

/* Copy bytes (a multiple of 4) into command memory, as the payload of a
 * NOP the engine skips, 8-byte aligned: the GPU VA of the copy, 0 after
 * a recording error. It lives as long as the command buffer's memory, so
 * a resubmission sees the same bytes. */
static uint64_t
emit_data(struct icd_cmd_buffer *cb, const void *data, uint32_t bytes)
{
	/* NOP header + one pad dword to reach 8-byte alignment. */
	const uint32_t ndw = 2 + bytes / 4;
	uint32_t *p, *dst;
	uint64_t va;

	p = icd_cmd_emit(cb, ndw);
	if (!p)
		return 0;
	va = cb->cur->va + (uint64_t)(p - cb->cur->map) * 4;
	/* Chunks are page aligned, so VA alignment is dword-index parity. */
	dst = ((va + 4) & 7) ? p + 2 : p + 1;
	swgpu_emit_nop(p, ndw);
	memcpy(dst, data, bytes);
	return va + (uint64_t)(dst - p) * 4;
}

/* The VA of a bind table holding the current state, written if needed;
 * 0 after a recording error. */
static uint64_t
bind_table(struct icd_cmd_buffer *cb)
{
	struct swgpu_bind_table t;

	if (!cb->compute.dirty && cb->compute.table_va)
		return cb->compute.table_va;
	memset(&t, 0, sizeof(t));
	memcpy(t.set_va, cb->compute.set_va, sizeof(t.set_va));
	memcpy(t.dynamic_offsets, cb->compute.dynamic_offsets,
	       sizeof(t.dynamic_offsets));
	memcpy(t.push_constants, cb->compute.push, sizeof(t.push_constants));
	cb->compute.table_va = emit_data(cb, &t, sizeof(t));
	cb->compute.dirty = false;
	return cb->compute.table_va;
}

/* ------------------------------------------------------------------ */
/* Push descriptors (VK_KHR_push_descriptor)                           */
/* ------------------------------------------------------------------ */

_Static_assert(sizeof(((struct icd_compute_state *)0)->push_mem) ==
               ICD_MAX_PUSH_DESCRIPTORS * SWGPU_DESCRIPTOR_SIZE &&
               ICD_MAX_PUSH_DESCRIPTORS * SWGPU_DESCRIPTOR_SIZE / 4 + 2 <=
               ICD_CMD_MAX_PACKET_DW,
               "a push set fits the shadow and one packet");

/* The push descriptor layout at `set` of layout, its shadow ready (fresh
 * when the layout or set changed), or NULL (logged, recording error). */
static const struct icd_set_layout *
push_target(struct icd_cmd_buffer *cb, VkPipelineBindPoint bindPoint,
            VkPipelineLayout layout, uint32_t set, const char *cmd)
{
	const struct icd_pipeline_layout *pl =
		icd_pipeline_layout_from_handle(layout);
	const struct icd_set_layout *l;

	if (bindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) {
		icd_cmd_unsupported(icd_cmd_buffer_to_handle(cb), cmd);
		return NULL;
	}
	l = pl && set < ICD_MAX_SETS ? pl->sets[set] : NULL;
	if (!l || !l->push) {
		icd_log("%s: set %u of the pipeline layout is not a push "
		        "descriptor set layout", cmd, set);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return NULL;
	}
	if (cb->compute.push_layout != l || cb->compute.push_hash != l->hash ||
	    cb->compute.push_set != set) {
		icd_set_memory_init(l, cb->compute.push_mem, 0);
		cb->compute.push_layout = l;
		cb->compute.push_hash = l->hash;
		cb->compute.push_set = set;
	}
	return l;
}

/* The shadow, as updated, becomes set `set` of the next dispatches. */
static void
push_commit(struct icd_cmd_buffer *cb, const struct icd_set_layout *l,
            uint32_t set)
{
	cb->compute.set_va[set] = l->size ?
		emit_data(cb, cb->compute.push_mem, l->size) : 0;
	cb->compute.dirty = true;
}

void
icd_CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer,
                            VkPipelineBindPoint bindPoint,
                            VkPipelineLayout layout, uint32_t set,
                            uint32_t writeCount,
                            const VkWriteDescriptorSet *pWrites)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const struct icd_set_layout *l = push_target(
		cb, bindPoint, layout, set, "vkCmdPushDescriptorSetKHR");

	if (!l)
		return;
	for (uint32_t i = 0; i < writeCount; i++)
		icd_write_descriptors(l, cb->compute.push_mem, &pWrites[i]);
	push_commit(cb, l, set);
}

void
icd_CmdPushDescriptorSetWithTemplateKHR(
	VkCommandBuffer commandBuffer,
	VkDescriptorUpdateTemplate descriptorUpdateTemplate,
	VkPipelineLayout layout, uint32_t set, const void *pData)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const struct icd_set_layout *l = push_target(
		cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, set,
		"vkCmdPushDescriptorSetWithTemplateKHR");
	uint32_t tset;

	if (!l)
		return;
	if (icd_update_template_push_layout(descriptorUpdateTemplate,
	                                    &tset) == NULL) {
		icd_log("vkCmdPushDescriptorSetWithTemplateKHR: not a "
		        "PUSH_DESCRIPTORS template");
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	icd_apply_update_template(descriptorUpdateTemplate, l,
	                          cb->compute.push_mem, pData);
	push_commit(cb, l, set);
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
	const uint32_t count[3] = { x, y, z }, base[3] = { baseX, baseY, baseZ };
	static const uint32_t max[3] = {
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_X,
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_Y,
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_Z,
	};
	uint64_t table;
	uint32_t *pkt;

	if (!p || !x || !y || !z)
		return;
	/* Over maxComputeWorkGroupCount (invalid usage the engine would
	 * turn into a lost device): refused here, where the application
	 * can still see why. */
	for (int k = 0; k < 3; k++)
		if (base[k] >= max[k] || count[k] > max[k] - base[k]) {
			icd_log("vkCmdDispatch: group count %u (base %u) in %c "
			        "is over maxComputeWorkGroupCount %u; "
			        "vkEndCommandBuffer will fail", count[k],
			        base[k], "xyz"[k], max[k]);
			icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
			return;
		}
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

/* SPDX-License-Identifier: MIT */
/*
 * cmd_bind.c — descriptor-set binds, push constants and push descriptors
 * of both bind points, and the bind table a draw or dispatch names.
 *
 * Binds only update the command buffer's state of their bind point
 * (cmd_buffer.h, struct icd_bind_state). A draw or dispatch writes that
 * state as a struct swgpu_bind_table into command memory — inside a NOP
 * packet, so the engine skips it as a packet and reads it as data — and
 * names the table's VA. The table is written once per change of state:
 * consecutive draws or dispatches with the same bindings share it.
 * Command memory is immutable once recorded, so every draw and dispatch
 * sees exactly the state of its recording point.
 *
 * Push constants are per bind point too: a push reaches the compute
 * state when its stage flags name the compute stage and the graphics
 * state when they name a graphics stage, which is all a shader of that
 * bind point can read.
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "pipeline.h"

_Static_assert(SWGPU_BIND_TABLE_MAX_SETS == 8 &&
               SWGPU_BIND_TABLE_MAX_DYNAMIC == 16 &&
               SWGPU_BIND_TABLE_PUSH_BYTES == 256,
               "cmd_buffer.h's bind state mirrors the bind table");
_Static_assert(ICD_MAX_SETS <= SWGPU_BIND_TABLE_MAX_SETS &&
               ICD_MAX_DYNAMIC_BUFFERS <= SWGPU_BIND_TABLE_MAX_DYNAMIC &&
               ICD_MAX_PUSH_CONSTANTS <= SWGPU_BIND_TABLE_PUSH_BYTES,
               "limits fit the bind table");

/* The state of a Vulkan bind point, or NULL (logged, recording error)
 * for one this device has no state for (ray tracing, ...). */
static struct icd_bind_state *
bind_state(struct icd_cmd_buffer *cb, VkPipelineBindPoint bp,
           const char *cmd)
{
	switch (bp) {
	case VK_PIPELINE_BIND_POINT_GRAPHICS:
		return &cb->bind[ICD_BIND_GRAPHICS];
	case VK_PIPELINE_BIND_POINT_COMPUTE:
		return &cb->bind[ICD_BIND_COMPUTE];
	default:
		icd_log("%s: bind point %d is not supported", cmd, (int)bp);
		icd_cmd_set_error(cb, VK_ERROR_FEATURE_NOT_PRESENT);
		return NULL;
	}
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
	struct icd_bind_state *bs = bind_state(cb, bindPoint,
	                                       "vkCmdBindDescriptorSets");
	uint32_t dyn = 0;

	if (!bs)
		return;
	for (uint32_t i = 0; i < setCount; i++) {
		uint32_t s = firstSet + i;
		struct icd_descriptor_set *set =
			icd_descriptor_set_from_handle(pSets[i]);
		uint32_t n;

		if (s >= ICD_MAX_SETS)
			break;
		bs->set_va[s] = set ? set->va : 0;
		/* The set's dynamic offsets go where the pipeline layout
		 * puts that set's dynamic buffers in the flat array (the
		 * shader bindings were built from a compatible layout). */
		n = set ? set->layout->dynamic_count : 0;
		for (uint32_t k = 0; k < n && dyn < dynamicOffsetCount; k++) {
			uint32_t at = pl->dynamic_start[s] + k;

			if (at < ICD_MAX_DYNAMIC_BUFFERS)
				bs->dynamic_offsets[at] = pDynamicOffsets[dyn];
			dyn++;
		}
	}
	bs->dirty = true;
}

static void
push_into(struct icd_bind_state *bs, uint32_t offset, uint32_t size,
          const void *values)
{
	/* offset + size <= maxPushConstantsSize is valid usage; clamp so a
	 * violation cannot write past the state. */
	if (offset >= sizeof(bs->push))
		return;
	if (size > sizeof(bs->push) - offset)
		size = (uint32_t)sizeof(bs->push) - offset;
	memcpy(bs->push + offset, values, size);
	bs->dirty = true;
}

void
icd_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                     VkShaderStageFlags stageFlags, uint32_t offset,
                     uint32_t size, const void *pValues)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	if (stageFlags & VK_SHADER_STAGE_COMPUTE_BIT)
		push_into(&cb->bind[ICD_BIND_COMPUTE], offset, size, pValues);
	if (stageFlags & VK_SHADER_STAGE_ALL_GRAPHICS)
		push_into(&cb->bind[ICD_BIND_GRAPHICS], offset, size, pValues);
}

uint64_t
icd_cmd_bind_table(struct icd_cmd_buffer *cb, enum icd_bind_point bp)
{
	struct icd_bind_state *bs = &cb->bind[bp];
	struct swgpu_bind_table t;

	if (!bs->dirty && bs->table_va)
		return bs->table_va;
	memset(&t, 0, sizeof(t));
	memcpy(t.set_va, bs->set_va, sizeof(t.set_va));
	memcpy(t.dynamic_offsets, bs->dynamic_offsets,
	       sizeof(t.dynamic_offsets));
	memcpy(t.push_constants, bs->push, sizeof(t.push_constants));
	bs->table_va = icd_cmd_emit_data(cb, &t, sizeof(t), NULL);
	bs->dirty = false;
	return bs->table_va;
}

/* ------------------------------------------------------------------ */
/* Push descriptors (VK_KHR_push_descriptor)                           */
/* ------------------------------------------------------------------ */

_Static_assert(sizeof(((struct icd_bind_state *)0)->push_mem) ==
               ICD_MAX_PUSH_DESCRIPTORS * SWGPU_DESCRIPTOR_SIZE &&
               ICD_MAX_PUSH_DESCRIPTORS * SWGPU_DESCRIPTOR_SIZE / 4 + 2 <=
               ICD_CMD_MAX_PACKET_DW,
               "a push set fits the shadow and one packet");

/* The push descriptor layout at `set` of layout, its shadow ready (fresh
 * when the layout or set changed), or NULL (logged, recording error). */
static const struct icd_set_layout *
push_target(struct icd_cmd_buffer *cb, struct icd_bind_state *bs,
            VkPipelineLayout layout, uint32_t set, const char *cmd)
{
	const struct icd_pipeline_layout *pl =
		icd_pipeline_layout_from_handle(layout);
	const struct icd_set_layout *l;

	l = pl && set < ICD_MAX_SETS ? pl->sets[set] : NULL;
	if (!l || !l->push) {
		icd_log("%s: set %u of the pipeline layout is not a push "
		        "descriptor set layout", cmd, set);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return NULL;
	}
	if (bs->push_layout != l || bs->push_hash != l->hash ||
	    bs->push_set != set) {
		icd_set_memory_init(l, bs->push_mem, 0);
		bs->push_layout = l;
		bs->push_hash = l->hash;
		bs->push_set = set;
	}
	return l;
}

/* The shadow, as updated, becomes set `set` of the next draws or
 * dispatches of the bind point. */
static void
push_commit(struct icd_cmd_buffer *cb, struct icd_bind_state *bs,
            const struct icd_set_layout *l, uint32_t set)
{
	bs->set_va[set] = l->size ?
		icd_cmd_emit_data(cb, bs->push_mem, l->size, NULL) : 0;
	bs->dirty = true;
}

void
icd_CmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer,
                            VkPipelineBindPoint bindPoint,
                            VkPipelineLayout layout, uint32_t set,
                            uint32_t writeCount,
                            const VkWriteDescriptorSet *pWrites)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const char *cmd = "vkCmdPushDescriptorSetKHR";
	struct icd_bind_state *bs = bind_state(cb, bindPoint, cmd);
	const struct icd_set_layout *l;

	if (!bs)
		return;
	l = push_target(cb, bs, layout, set, cmd);
	if (!l)
		return;
	for (uint32_t i = 0; i < writeCount; i++)
		icd_write_descriptors(l, bs->push_mem, &pWrites[i]);
	push_commit(cb, bs, l, set);
}

void
icd_CmdPushDescriptorSetWithTemplateKHR(
	VkCommandBuffer commandBuffer,
	VkDescriptorUpdateTemplate descriptorUpdateTemplate,
	VkPipelineLayout layout, uint32_t set, const void *pData)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	const char *cmd = "vkCmdPushDescriptorSetWithTemplateKHR";
	VkPipelineBindPoint bp;
	struct icd_bind_state *bs;
	const struct icd_set_layout *l;
	uint32_t tset;

	if (icd_update_template_push_layout(descriptorUpdateTemplate, &tset,
	                                    &bp) == NULL) {
		icd_log("%s: not a PUSH_DESCRIPTORS template", cmd);
		icd_cmd_set_error(cb, VK_ERROR_UNKNOWN);
		return;
	}
	bs = bind_state(cb, bp, cmd);
	if (!bs)
		return;
	l = push_target(cb, bs, layout, set, cmd);
	if (!l)
		return;
	icd_apply_update_template(descriptorUpdateTemplate, l, bs->push_mem,
	                          pData);
	push_commit(cb, bs, l, set);
}

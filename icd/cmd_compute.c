/* SPDX-License-Identifier: MIT */
/*
 * cmd_compute.c — pipeline binds and dispatches.
 *
 * vkCmdBindPipeline only records which pipeline the next draw or
 * dispatch of its bind point uses (graphics pipelines: cmd_draw.c). A
 * dispatch emits DISPATCH naming the compute shader's code VA and the
 * bind table of the compute bind point (cmd_bind.c).
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "cmd_gfx.h"
#include "pipeline.h"

void
icd_CmdBindPipeline(VkCommandBuffer commandBuffer,
                    VkPipelineBindPoint bindPoint, VkPipeline pipeline)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_pipeline *p = icd_pipeline_from_handle(pipeline);

	switch (bindPoint) {
	case VK_PIPELINE_BIND_POINT_COMPUTE:
		cb->compute_pipeline = p;
		cb->bind[ICD_BIND_COMPUTE].dirty = true;
		break;
	case VK_PIPELINE_BIND_POINT_GRAPHICS:
		icd_cmd_bind_graphics_pipeline(cb, p);
		break;
	default:
		icd_cmd_unsupported(commandBuffer,
		                    "vkCmdBindPipeline (this bind point)");
		break;
	}
}

/* The bound compute pipeline, or NULL (logged, recording error) if none:
 * dispatching without one is valid usage, but it must not reach the GPU
 * as a DISPATCH of VA 0. */
static struct icd_pipeline *
dispatch_pipeline(struct icd_cmd_buffer *cb, const char *cmd)
{
	if (cb->compute_pipeline)
		return cb->compute_pipeline;
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
	table = icd_cmd_bind_table(cb, ICD_BIND_COMPUTE);
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
	table = icd_cmd_bind_table(cb, ICD_BIND_COMPUTE);
	if (!table)
		return;
	/* The counts are read when the packet executes, so a barrier
	 * before it orders an earlier write of the arguments. */
	pkt = icd_cmd_emit(cb, SWGPU_LEN_DISPATCH_INDIRECT);
	if (pkt)
		swgpu_emit_dispatch_indirect(pkt, p->code_va, table,
		                             buf->va + offset, 0, 0, 0);
}

/* SPDX-License-Identifier: MIT */
/*
 * Transfer commands on buffers: COPY, FILL and WRITE_DATA packets at the
 * buffers' GPU VAs. The engines accept any size and alignment for COPY
 * and chunk long copies themselves, so one region is one packet.
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"

static void
emit_copy(struct icd_cmd_buffer *cb, uint64_t dst, uint64_t src,
          uint64_t size)
{
	uint32_t *p;

	if (size == 0)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_COPY);
	if (p)
		swgpu_emit_copy(p, dst, src, size);
}

void
icd_CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer,
                  VkBuffer dstBuffer, uint32_t regionCount,
                  const VkBufferCopy *pRegions)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_buffer *src = icd_buffer_from_handle(srcBuffer);
	struct icd_buffer *dst = icd_buffer_from_handle(dstBuffer);

	for (uint32_t i = 0; i < regionCount; i++)
		emit_copy(cb, dst->va + pRegions[i].dstOffset,
		          src->va + pRegions[i].srcOffset, pRegions[i].size);
}

void
icd_CmdCopyBuffer2(VkCommandBuffer commandBuffer,
                   const VkCopyBufferInfo2 *pCopyBufferInfo)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_buffer *src =
		icd_buffer_from_handle(pCopyBufferInfo->srcBuffer);
	struct icd_buffer *dst =
		icd_buffer_from_handle(pCopyBufferInfo->dstBuffer);

	for (uint32_t i = 0; i < pCopyBufferInfo->regionCount; i++) {
		const VkBufferCopy2 *r = &pCopyBufferInfo->pRegions[i];

		emit_copy(cb, dst->va + r->dstOffset, src->va + r->srcOffset,
		          r->size);
	}
}

void
icd_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                  VkDeviceSize dstOffset, VkDeviceSize size, uint32_t data)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_buffer *dst = icd_buffer_from_handle(dstBuffer);
	uint32_t *p;

	/* VK_WHOLE_SIZE fills to the end rounded down to whole dwords;
	 * FILL needs dword-aligned sizes (the spec guarantees it for an
	 * explicit size). */
	if (size == VK_WHOLE_SIZE)
		size = (dst->size - dstOffset) & ~(VkDeviceSize)3;
	if (size == 0)
		return;
	p = icd_cmd_emit(cb, SWGPU_LEN_FILL);
	if (p)
		swgpu_emit_fill(p, dst->va + dstOffset, size, data);
}

void
icd_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                    VkDeviceSize dstOffset, VkDeviceSize dataSize,
                    const void *pData)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_buffer *dst = icd_buffer_from_handle(dstBuffer);
	const uint32_t max_dw = ICD_CMD_MAX_PACKET_DW - SWGPU_LEN_WRITE_DATA(0);
	const uint8_t *src = pData;
	uint64_t va = dst->va + dstOffset;
	uint32_t left_dw = (uint32_t)(dataSize / 4); /* <= 65536 / 4 */

	/* The data travels inline in the command buffer (the application
	 * may free pData on return). Up to 64 KiB is split into several
	 * WRITE_DATA packets so no packet outgrows a chunk; they execute in
	 * order, so the update is still one ordered write. */
	while (left_dw) {
		uint32_t ndw = left_dw < max_dw ? left_dw : max_dw;
		uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_WRITE_DATA(ndw));

		if (!p)
			return;
		swgpu_emit_write_data_header(p, va, ndw);
		memcpy(p + 3, src, (size_t)ndw * 4);
		src += (size_t)ndw * 4;
		va += (uint64_t)ndw * 4;
		left_dw -= ndw;
	}
}

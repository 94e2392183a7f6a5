/* SPDX-License-Identifier: MIT */
/*
 * Synchronisation inside command buffers: pipeline barriers and events.
 *
 * Barriers record nothing, and that is correct, not a shortcut: a swgpu
 * queue is bound to one engine, which executes a job's packets strictly
 * in order, one at a time — a packet (COPY, FILL, WRITE_DATA, ...) has
 * finished all its memory writes before the next packet starts, and the
 * jobs of one queue run in submission order. So every earlier command's
 * execution and writes happen-before every later command on the same
 * queue, which is the strongest dependency a barrier can ask for. The
 * engines access memory directly (no caches to flush or invalidate), so
 * memory dependencies need no packets either. Image layouts carry no
 * meaning for our linear memory. Dependencies between queues go through
 * semaphores (swgpu job waits/signals, queue.c) or events (SEM_WAIT).
 *
 * Events: vkCmdSetEvent/vkCmdResetEvent write 1/0 with SEM_SIGNAL (a plain
 * 64-bit store once every earlier packet completed, so a waiter that sees
 * the event set also sees the writes before it); vkCmdWaitEvents stalls
 * the engine with SEM_WAIT until each word is >= 1.
 */
#include <swgpu/swgpu_packet.h>

#include "cmd_buffer.h"
#include "event.h"

static void
emit_event_write(VkCommandBuffer commandBuffer, VkEvent event, uint64_t value)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);
	struct icd_event *ev = icd_event_from_handle(event);
	uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_SEM_SIGNAL);

	if (p)
		swgpu_emit_sem_signal(p, ev->word.va, value, 0);
}

static void
emit_event_waits(VkCommandBuffer commandBuffer, uint32_t eventCount,
                 const VkEvent *pEvents)
{
	struct icd_cmd_buffer *cb = icd_cmd_buffer_from_handle(commandBuffer);

	for (uint32_t i = 0; i < eventCount; i++) {
		struct icd_event *ev = icd_event_from_handle(pEvents[i]);
		uint32_t *p = icd_cmd_emit(cb, SWGPU_LEN_SEM_WAIT);

		if (!p)
			return;
		swgpu_emit_sem_wait(p, ev->word.va, 1);
	}
}

void
icd_CmdPipelineBarrier(VkCommandBuffer commandBuffer,
                       VkPipelineStageFlags srcStageMask,
                       VkPipelineStageFlags dstStageMask,
                       VkDependencyFlags dependencyFlags,
                       uint32_t memoryBarrierCount,
                       const VkMemoryBarrier *pMemoryBarriers,
                       uint32_t bufferMemoryBarrierCount,
                       const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                       uint32_t imageMemoryBarrierCount,
                       const VkImageMemoryBarrier *pImageMemoryBarriers)
{
	/* Satisfied by in-order execution: see the top of this file. */
}

void
icd_CmdPipelineBarrier2(VkCommandBuffer commandBuffer,
                        const VkDependencyInfo *pDependencyInfo)
{
	/* Satisfied by in-order execution: see the top of this file. */
}

void
icd_CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                VkPipelineStageFlags stageMask)
{
	emit_event_write(commandBuffer, event, 1);
}

void
icd_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                 const VkDependencyInfo *pDependencyInfo)
{
	emit_event_write(commandBuffer, event, 1);
}

void
icd_CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                  VkPipelineStageFlags stageMask)
{
	emit_event_write(commandBuffer, event, 0);
}

void
icd_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                   VkPipelineStageFlags2 stageMask)
{
	emit_event_write(commandBuffer, event, 0);
}

void
icd_CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount,
                  const VkEvent *pEvents, VkPipelineStageFlags srcStageMask,
                  VkPipelineStageFlags dstStageMask,
                  uint32_t memoryBarrierCount,
                  const VkMemoryBarrier *pMemoryBarriers,
                  uint32_t bufferMemoryBarrierCount,
                  const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                  uint32_t imageMemoryBarrierCount,
                  const VkImageMemoryBarrier *pImageMemoryBarriers)
{
	emit_event_waits(commandBuffer, eventCount, pEvents);
}

void
icd_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount,
                   const VkEvent *pEvents,
                   const VkDependencyInfo *pDependencyInfos)
{
	emit_event_waits(commandBuffer, eventCount, pEvents);
}

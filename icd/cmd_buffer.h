/* SPDX-License-Identifier: MIT */
/*
 * cmd_buffer.h — command pools and command buffers.
 *
 * A command buffer records swgpu packets into command memory: chunks of
 * SYSTEM-heap BOs (CPU-cached, written by the host) mapped READ-only into
 * the device's context. A recorded command buffer is the list of its
 * chunks as (va, size_dw) indirect buffers; vkQueueSubmit hands that list
 * to swgpu_submit as the job's IB list. Chunks are never chained through
 * INDIRECT_BUFFER packets because IB nesting is limited
 * (swgpu_device_info.max_ib_depth); only vkCmdExecuteCommands nests, one
 * level, for the chunks of a secondary command buffer.
 *
 * Pools own the chunks: a reset command buffer gives its chunks back to
 * the pool's free list, the next recording reuses them, and
 * vkTrimCommandPool (or a reset with RELEASE_RESOURCES) frees them.
 * Chunks on the free list are idle (the Vulkan rules forbid resetting or
 * freeing a pending command buffer) and are offered to swgpu at LOW
 * priority (swgpu_bo_offer, host mapping dropped, VA mapping kept), so
 * memory pressure can take their pages; reuse reclaims them, and a
 * DISCARDED chunk is as good as a kept one since recording rewrites it.
 * Everything here is externally synchronised by the Vulkan rules (a pool
 * and its command buffers are used by one thread at a time), so there is
 * no lock.
 */
#ifndef ICD_CMD_BUFFER_H
#define ICD_CMD_BUFFER_H

#include "icd.h"

/* One chunk of command memory. */
struct icd_cmd_chunk {
	struct icd_cmd_chunk *next;
	swgpu_bo *bo;
	uint32_t *map;          /* host pointer of the first dword */
	uint64_t va;            /* GPU VA of the first dword (READ only) */
	uint32_t capacity_dw;
	bool offered;           /* on the free list, offered, not host-mapped */
};

struct icd_cmd_pool {
	struct icd_object base;
	struct icd_device *device;
	VkAllocationCallbacks alloc;    /* the pool's callbacks, if any */
	bool has_alloc;
	VkCommandPoolCreateFlags flags;
	uint32_t queue_family;
	struct icd_cmd_chunk *free_chunks;   /* recycled, ready for reuse */
	struct icd_cmd_buffer *buffers;      /* every allocated buffer */
};

enum icd_cmd_state {
	ICD_CMD_INITIAL = 0,
	ICD_CMD_RECORDING,
	ICD_CMD_EXECUTABLE,
	ICD_CMD_INVALID,
};

/* The two bind points whose state a command buffer keeps. */
enum icd_bind_point {
	ICD_BIND_GRAPHICS = 0,
	ICD_BIND_COMPUTE = 1,
	ICD_BIND_POINT_COUNT
};

/*
 * What vkCmdBindDescriptorSets / PushConstants / PushDescriptorSetKHR
 * left for the next draw or dispatch of one bind point. The spec makes
 * this state undefined at each vkBeginCommandBuffer; a reset marks the
 * table dirty, so a new recording never reuses a table of an old one.
 */
struct icd_bind_state {
	uint64_t set_va[8];             /* SWGPU_BIND_TABLE_MAX_SETS */
	uint32_t dynamic_offsets[16];   /* ..._MAX_DYNAMIC */
	uint8_t push[256];              /* ..._PUSH_BYTES */
	/* VA of the last bind table written, valid while !dirty: draws
	 * and dispatches with unchanged state share one table. */
	uint64_t table_va;
	bool dirty;
	/* Push descriptor set (VK_KHR_push_descriptor): the layout and set
	 * number last pushed and its descriptors, kept between pushes (a
	 * push updates only what it writes) and copied into command memory
	 * at each push. */
	const struct icd_set_layout *push_layout;
	uint64_t push_hash;
	uint32_t push_set;
	uint8_t push_mem[32 * 64];  /* ICD_MAX_PUSH_DESCRIPTORS */
};

struct icd_gfx_state;

struct icd_cmd_buffer {
	struct icd_object base;         /* dispatchable: loader slot first */
	struct icd_device *device;
	struct icd_cmd_pool *pool;
	struct icd_cmd_buffer *pool_prev, *pool_next;
	VkCommandBufferLevel level;
	VkCommandBufferUsageFlags usage;
	enum icd_cmd_state state;
	/* First recording error (out of memory, unsupported command);
	 * returned by vkEndCommandBuffer. Once set, recording stops. */
	VkResult record_result;
	/* The device was lost while recording (a chunk could not be mapped):
	 * commands are dropped, vkEndCommandBuffer still succeeds (it may
	 * only report out-of-memory), and a submit returns DEVICE_LOST. */
	bool device_lost;

	struct icd_cmd_chunk *chunks;   /* in recording order */
	struct icd_cmd_chunk *cur;      /* last chunk, being written */
	uint32_t cur_used_dw;

	/* The finished chunks as indirect buffers, in order: the IB list
	 * of a submit (or of vkCmdExecuteCommands for a secondary). */
	swgpu_ib *ibs;
	uint32_t ib_count;
	uint32_t ib_capacity;

	/* Descriptor sets, dynamic offsets, push constants and push
	 * descriptors of each bind point (cmd_bind.c), and the bound
	 * compute pipeline. */
	struct icd_bind_state bind[ICD_BIND_POINT_COUNT];
	struct icd_pipeline *compute_pipeline;
	/* Graphics: bound pipeline, dynamic state, vertex and index
	 * buffers, the render pass instance (cmd_gfx.h). Allocated at the
	 * first graphics command of a recording. */
	struct icd_gfx_state *gfx;
};

ICD_DEFINE_HANDLE_CASTS(icd_cmd_pool, VkCommandPool,
                        VK_OBJECT_TYPE_COMMAND_POOL)
ICD_DEFINE_HANDLE_CASTS(icd_cmd_buffer, VkCommandBuffer,
                        VK_OBJECT_TYPE_COMMAND_BUFFER)

/* Largest packet a recorder may ask for in one go, in dwords. Longer data
 * (vkCmdUpdateBuffer) is split into several packets. */
#define ICD_CMD_MAX_PACKET_DW 1024u

/*
 * Reserve ndw (<= ICD_CMD_MAX_PACKET_DW) dwords of command memory and
 * return where the caller writes exactly ndw dwords of packets, or NULL
 * after a recording error (remembered in cb->record_result; the command
 * is then dropped).
 */
uint32_t *icd_cmd_emit(struct icd_cmd_buffer *cb, uint32_t ndw);

/* Remember a recording error (the first one wins). */
void icd_cmd_set_error(struct icd_cmd_buffer *cb, VkResult r);

/* Copy bytes (a multiple of 4) into command memory as the payload of a
 * NOP the engine skips, 8-byte aligned: the GPU VA of the copy, 0 after a
 * recording error. It lives as long as the command buffer's memory, so a
 * resubmission sees the same bytes. bytes <= 4 * (ICD_CMD_MAX_PACKET_DW -
 * 2). If host is not NULL it receives the host pointer of the copy. */
uint64_t icd_cmd_emit_data(struct icd_cmd_buffer *cb, const void *data,
                           uint32_t bytes, void **host);

/* The VA of a bind table holding bind point bp's current state (written
 * into command memory if it changed); 0 after a recording error. */
uint64_t icd_cmd_bind_table(struct icd_cmd_buffer *cb, enum icd_bind_point bp);

/* Host allocation with the pool's callbacks, else the device's. */
void *icd_cmd_alloc(struct icd_cmd_pool *pool, size_t size,
                    VkSystemAllocationScope scope);
void icd_cmd_free(struct icd_cmd_pool *pool, void *p);

#endif /* ICD_CMD_BUFFER_H */

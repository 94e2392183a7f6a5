/* SPDX-License-Identifier: MIT */
/*
 * test_icd_cmd.h — shared state and helpers of the test_icd_cmd program
 * (test_icd_cmd.c: setup, helpers, command buffers and transfers;
 * test_icd_cmd_sync.c: events, timestamps, fences, semaphores).
 */
#ifndef TEST_ICD_CMD_H
#define TEST_ICD_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <vulkan/vulkan.h>

/* Every wait in the test is bounded by this. */
#define TIMEOUT_NS (10ull * 1000 * 1000 * 1000)

extern int failures;

#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond)) {                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",      \
			        __FILE__, __LINE__, #cond);               \
			failures++;                                       \
		}                                                         \
	} while (0)

#define VK(call)                                                          \
	do {                                                              \
		VkResult vk_r_ = (call);                                  \
		if (vk_r_ != VK_SUCCESS) {                                \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__,     \
			        __LINE__, #call, (int)vk_r_);             \
			exit(1);                                          \
		}                                                         \
	} while (0)

/*
 * Events in command buffers, vkCmdResetQueryPool and vkCmdCopyQueryPoolResults
 * need a graphics or compute queue. swgpu offers TRANSFER-only families
 * until its compute engine runs shaders; on such a family the test still
 * runs those commands (the driver records and executes them) but counts the
 * layer's "-cmdpool" queue-capability messages as expected, not as errors.
 */
extern bool has_compute;
extern bool tolerate_cmdpool;

extern VkDevice dev;
extern uint32_t family;
extern uint32_t queue_count;          /* 1 or 2 queues of the family */
extern VkQueue queues[2];             /* [1] == [0] with one queue */
extern VkCommandPool pool;            /* RESET_COMMAND_BUFFER_BIT */
extern uint32_t ts_valid_bits;
extern bool is_swgpu;

struct buf {
	VkBuffer buf;
	VkDeviceMemory mem;
	VkDeviceSize size;
	uint32_t *map;          /* host-visible buffers only */
};

/* host: a HOST_VISIBLE|HOST_COHERENT buffer (mapped), else device-local. */
struct buf buf_create(VkDeviceSize size, bool host);
void buf_destroy(struct buf *b);
VkCommandBuffer cmd_begin_level(VkCommandBufferLevel level,
                                VkCommandBufferUsageFlags usage);
/* A primary ONE_TIME_SUBMIT command buffer of pool, begun. */
VkCommandBuffer cmd_begin(void);
/* Every transfer write before, every transfer access after. */
void barrier(VkCommandBuffer cb);
/* Transfer writes made visible to the host (for mapped readback). */
void barrier_host(VkCommandBuffer cb);
VkFence fence_create(bool signaled);
/* End, submit on q with a fence, wait (bounded), free. */
void cmd_submit_wait(VkCommandBuffer cb, VkQueue q);
VkSemaphore semaphore_create(bool timeline, uint64_t initial);
uint32_t pattern(uint32_t seed, uint32_t i);

void test_events(void);
void test_timestamps(void);
void test_fences(void);
void test_semaphores(void);

#endif /* TEST_ICD_CMD_H */

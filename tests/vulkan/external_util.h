/* SPDX-License-Identifier: MIT */
/*
 * What the external memory / semaphore / fence tests share (issue 22
 * item 5): the device hook that enables the fd extensions a device offers,
 * their commands, and wrappers for export, import and submission. The
 * tests: test_vk_external.c (memory, images, bad handles, fault
 * isolation), external_sync.c (timelines and fences shared by reference),
 * external_process.c (two processes).
 */
#ifndef EXTERNAL_UTIL_H
#define EXTERNAL_UTIL_H

#include "vk_harness.h"

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define MEM_FD VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
#define SEM_FD VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT
#define FENCE_FD VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT

/* Large enough that a copy takes a while on a software GPU: a reader
 * that did not wait sees zeros. */
#define BIG_SIZE (16u << 20)

/* What the device offers (set by the device hook): memory sharing is the
 * base; lavapipe, for one, shares memory but not semaphores or fences. */
extern bool ext_mem_ok, ext_sem_ok, ext_fence_ok;

struct ext_fns {
	PFN_vkGetMemoryFdKHR get_memory_fd;
	PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
	PFN_vkImportSemaphoreFdKHR import_semaphore_fd;
	PFN_vkGetFenceFdKHR get_fence_fd;
	PFN_vkImportFenceFdKHR import_fence_fd;
};

void ext_device_hook(struct vkh *h, VkDeviceCreateInfo *dci);
void ext_load_fns(VkDevice d, struct ext_fns *f);
bool ext_two_devices(struct vkh *h, struct vkh_device *a,
                     struct vkh_device *b, struct ext_fns *fa,
                     struct ext_fns *fb, bool need_sync);
VkResult ext_shared_buffer(struct vkh *h, VkDevice d, VkDeviceSize size,
                           int import_fd, int *type, VkBuffer *buf,
                           VkDeviceMemory *mem, VkDeviceSize *alloc_size);
VkSemaphore ext_make_semaphore(VkDevice d, bool exportable, bool timeline);
VkFence ext_make_fence(VkDevice d, bool exportable);
int ext_memory_fd(const struct ext_fns *f, VkDevice d, VkDeviceMemory mem);
int ext_semaphore_fd(const struct ext_fns *f, VkDevice d, VkSemaphore s);
VkResult ext_import_semaphore(const struct ext_fns *f, VkDevice d,
                              VkSemaphore s, int fd,
                              VkSemaphoreImportFlags flags);
int ext_fence_fd(const struct ext_fns *f, VkDevice d, VkFence fence);
VkResult ext_import_fence(const struct ext_fns *f, VkDevice d, VkFence fence,
                          int fd, VkFenceImportFlags flags);
VkResult ext_submit(struct vkh_device *d, VkCommandBuffer cb,
                    VkSemaphore wait, VkSemaphore signal, VkFence fence);
void ext_copy(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
              VkDeviceSize size);
bool ext_check_pattern(const uint8_t *p, uint32_t seed, VkDeviceSize size,
                       VkDeviceSize *bad);

/* Cases in their own files (the table is in test_vk_external.c). */
void test_timeline(struct vkh *h, struct vkh_device *unused);
void test_fence(struct vkh *h, struct vkh_device *unused);
void test_two_process(struct vkh *h, struct vkh_device *d);
/* The two-process test's child: argv "--child <socket fd>". */
int ext_child_main(int sock);

#endif

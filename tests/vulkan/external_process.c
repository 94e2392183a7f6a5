/* SPDX-License-Identifier: MIT */
/*
 * Memory (and timeline semaphores where offered) between two processes,
 * each with its own GPU (part of test_vk_external): the test re-executes
 * this program as a child that receives the fds over a Unix socket
 * (SCM_RIGHTS).
 */
#include "external_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Two processes                                                       */
/* ------------------------------------------------------------------ */

#define XP_SIZE (4u << 20)

struct xp_msg {
	uint64_t alloc_size;
	int32_t mem_type;
	int32_t status;       /* child: 0 ok, else failure */
	int32_t timeline;     /* fds[1] is a shared timeline: sync on it */
};

#define XP_FDS 3

static bool
send_fds(int sock, const struct xp_msg *m, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(XP_FDS * sizeof(int))];
	struct iovec iov = { (void *)m, sizeof(*m) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};

	if (nfds) {
		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	return sendmsg(sock, &msg, 0) == (ssize_t)sizeof(*m);
}

static int
recv_fds(int sock, struct xp_msg *m, int *fds, int max)
{
	char cbuf[CMSG_SPACE(XP_FDS * sizeof(int))];
	struct iovec iov = { m, sizeof(*m) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	int n = 0;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*m))
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
	     c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_RIGHTS)
			for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) /
			                       sizeof(int) && n < max; i++)
				memcpy(&fds[n++], CMSG_DATA(c) + i * sizeof(int),
				       sizeof(int));
	return n;
}

/* Submit cb on d's queue 0 waiting for and/or signalling timeline tl
 * (values 0: none), with fence. */
static VkResult
submit_timeline(struct vkh_device *d, VkCommandBuffer cb, VkSemaphore tl,
                uint64_t wait, uint64_t signal, VkFence fence)
{
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkTimelineSemaphoreSubmitInfo tsi = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = wait ? 1 : 0,
		.pWaitSemaphoreValues = &wait,
		.signalSemaphoreValueCount = signal ? 1 : 0,
		.pSignalSemaphoreValues = &signal,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tsi,
		.waitSemaphoreCount = wait ? 1 : 0,
		.pWaitSemaphores = &tl,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
		.signalSemaphoreCount = signal ? 1 : 0,
		.pSignalSemaphores = &tl,
	};
	VkResult r = vkEndCommandBuffer(cb);

	if (r != VK_SUCCESS)
		return r;
	return vkQueueSubmit(d->queues[0].queue, 1, &si, fence);
}

/* The child: its own instance and device (its own GPU in in-process
 * mode), the memory fd, a timeline and a binary semaphore fd from the
 * socket. With the timeline its GPU waits for the parent's value 1
 * before reading (the parent writes only after sending the fds) and
 * signals 2 after writing seed 33 into the first half; without, the
 * parent wrote before sending and waits for this process to exit. */
int
ext_child_main(int sock)
{
	struct vkh h;
	struct vkh_device d = { 0 };
	struct ext_fns f;
	struct xp_msg m;
	struct vkh_buffer rd, up;
	VkBuffer sb = VK_NULL_HANDLE;
	VkDeviceMemory mb = VK_NULL_HANDLE;
	VkSemaphore tl = VK_NULL_HANDLE;
	VkFence fence = VK_NULL_HANDLE;
	VkDeviceSize bad = 0, alloc_size;
	VkCommandBuffer cb;
	VkResult r;
	int fds[XP_FDS], type, status = 1;

	memset(&h, 0, sizeof(h));
	vkh_device_hook = ext_device_hook;
	if (vkh_init(&h, "test_vk_external child", VK_API_VERSION_1_3) !=
	    VK_SUCCESS || vkh_device_create(&h, 0, 1, NULL, &d) !=
	    VK_SUCCESS || !ext_mem_ok)
		goto report;
	ext_load_fns(d.device, &f);
	if (recv_fds(sock, &m, fds, XP_FDS) != XP_FDS)
		goto report;
	alloc_size = m.alloc_size;
	type = m.mem_type;
	if (ext_shared_buffer(&h, d.device, XP_SIZE, fds[0], &type, &sb, &mb,
	                      &alloc_size) != VK_SUCCESS) {
		fprintf(stderr, "child: memory import failed\n");
		goto report;
	}
	if (m.timeline) {
		tl = ext_make_semaphore(d.device, false, true);
		r = ext_import_semaphore(&f, d.device, tl, fds[1], 0);
		if (r != VK_SUCCESS) {
			fprintf(stderr, "child: timeline import: %s\n",
			        vkh_result_str(r));
			goto report;
		}
	} else {
		close(fds[1]);
	}
	/* A binary semaphore is another process's scheduler state: swgpu
	 * in in-process mode refuses it; in shared mode both processes'
	 * devices are the daemon's one GPU, which shares it. The fd stays
	 * ours. */
	if (h.is_swgpu && ext_sem_ok) {
		VkSemaphore s = ext_make_semaphore(d.device, false, false);
		const char *mode = getenv("SWGPU_MODE");
		VkResult want = mode && !strcmp(mode, "shared")
		                ? VK_SUCCESS : VK_ERROR_INVALID_EXTERNAL_HANDLE;

		r = ext_import_semaphore(&f, d.device, s, fds[2], 0);
		vkDestroySemaphore(d.device, s, NULL);
		if (r != want) {
			fprintf(stderr, "child: binary semaphore import gave "
			        "%s\n", vkh_result_str(r));
			goto report;
		}
	}
	close(fds[2]);
	fence = ext_make_fence(d.device, false);
	if (!fence ||
	    vkh_buffer_create(&h, &d, XP_SIZE, XFER, VKH_MEM_READBACK, -1,
	                      &rd) != VK_SUCCESS ||
	    vkh_buffer_create(&h, &d, XP_SIZE / 2, XFER, VKH_MEM_UPLOAD, -1,
	                      &up) != VK_SUCCESS)
		goto report;
	cb = vkh_cmd_begin(&d, 0);
	ext_copy(cb, sb, rd.buffer, XP_SIZE);
	vkh_cmd_host_barrier(cb);
	r = m.timeline ? submit_timeline(&d, cb, tl, 1, 0, fence)
	               : ext_submit(&d, cb, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                            fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d.device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "child: read: %s\n", vkh_result_str(r));
		goto report;
	}
	vkh_buffer_invalidate(&h, &d, &rd);
	if (!ext_check_pattern(rd.map, 44, XP_SIZE, &bad)) {
		fprintf(stderr, "child: byte %llu = %u, parent wrote %u\n",
		        (unsigned long long)bad, ((uint8_t *)rd.map)[bad],
		        vkh_pattern(44, bad));
		goto report;
	}
	for (VkDeviceSize i = 0; i < XP_SIZE / 2; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(33, i);
	cb = vkh_cmd_begin(&d, 0);
	ext_copy(cb, up.buffer, sb, XP_SIZE / 2);
	if (vkResetFences(d.device, 1, &fence) != VK_SUCCESS)
		goto report;
	r = m.timeline ? submit_timeline(&d, cb, tl, 0, 2, fence)
	               : ext_submit(&d, cb, VK_NULL_HANDLE, VK_NULL_HANDLE,
	                            fence);
	if (r == VK_SUCCESS)
		r = vkWaitForFences(d.device, 1, &fence, VK_TRUE,
		                    VKH_TIMEOUT_NS);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "child: write: %s\n", vkh_result_str(r));
		goto report;
	}
	vkh_buffer_destroy(&d, &rd);
	vkh_buffer_destroy(&d, &up);
	vkDestroyBuffer(d.device, sb, NULL);
	vkFreeMemory(d.device, mb, NULL);
	status = 0;
report:
	if (d.device) {
		vkDeviceWaitIdle(d.device);
		vkDestroyFence(d.device, fence, NULL);
		vkDestroySemaphore(d.device, tl, NULL);
		vkh_device_destroy(&h, &d);
	}
	if (h.instance && vkh_finish(&h) != 0)
		status = 1;
	m.status = status;
	send_fds(sock, &m, NULL, 0);
	return status;
}

/* Memory between two processes, each with its own GPU; with timeline
 * semaphore fds (swgpu), their GPUs also order each other's work. */
void
test_two_process(struct vkh *h, struct vkh_device *d)
{
	struct ext_fns f;
	struct vkh_buffer up, rd;
	VkBuffer sa = VK_NULL_HANDLE;
	VkDeviceMemory ma = VK_NULL_HANDLE;
	VkDeviceSize alloc_size = 0, bad = 0;
	VkSemaphore sem, tl = VK_NULL_HANDLE;
	VkCommandBuffer cb;
	struct xp_msg m = { 0 };
	int sv[2], fds[XP_FDS], type = -1, status = 0;
	bool timeline;
	char arg[32];
	pid_t pid;

	if (!ext_mem_ok) {
		vkh_skip(h, "VK_KHR_external_memory_fd not offered");
		return;
	}
	ext_load_fns(d->device, &f);
	timeline = ext_sem_ok && h->timeline_semaphore;
	printf("  ordering the processes with %s\n",
	       timeline ? "a shared timeline semaphore" : "messages");
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, XP_SIZE, XFER, VKH_MEM_UPLOAD,
	                                  -1, &up));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, XP_SIZE, XFER,
	                                  VKH_MEM_READBACK, -1, &rd));
	for (VkDeviceSize i = 0; i < XP_SIZE; i++)
		((uint8_t *)up.map)[i] = vkh_pattern(44, i);
	VKH_CHECK_VK(h, ext_shared_buffer(h, d->device, XP_SIZE, -1, &type, &sa,
	                                  &ma, &alloc_size));
	/* Without semaphore fds copies of the memory fd stand in (the
	 * child then only closes them). */
	sem = ext_make_semaphore(d->device, ext_sem_ok, false);
	fds[0] = ext_memory_fd(&f, d->device, ma);
	if (timeline) {
		tl = ext_make_semaphore(d->device, true, true);
		fds[1] = ext_semaphore_fd(&f, d->device, tl);
	} else {
		fds[1] = ext_memory_fd(&f, d->device, ma);
	}
	fds[2] = ext_sem_ok ? ext_semaphore_fd(&f, d->device, sem)
	                : ext_memory_fd(&f, d->device, ma);
	VKH_CHECK(h, fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0);
	if (!timeline) {
		cb = vkh_cmd_begin(d, 0);
		ext_copy(cb, up.buffer, sa, XP_SIZE);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	}

	/* The child starts afresh (exec): a forked copy of a process with
	 * a live Vulkan instance and its threads may not use it. */
	VKH_CHECK(h, socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	snprintf(arg, sizeof(arg), "%d", sv[1]);
	pid = fork();
	VKH_CHECK(h, pid >= 0);
	if (pid == 0) {
		close(sv[0]);
		execl("/proc/self/exe", "test_vk_external", "--child", arg,
		      (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	m.alloc_size = alloc_size;
	m.mem_type = type;
	m.timeline = timeline;
	VKH_CHECK(h, send_fds(sv[0], &m, fds, XP_FDS));
	for (int i = 0; i < XP_FDS; i++)
		close(fds[i]);
	if (timeline) {
		/* Written only now: the child's GPU waits for value 1. */
		uint64_t two = 2;
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &tl,
			.pValues = &two,
		};
		VkResult r;

		cb = vkh_cmd_begin(d, 0);
		ext_copy(cb, up.buffer, sa, XP_SIZE);
		VKH_CHECK_VK(h, submit_timeline(d, cb, tl, 0, 1,
		                                VK_NULL_HANDLE));
		r = vkWaitSemaphores(d->device, &wi, VKH_TIMEOUT_NS);
		printf("  the child's GPU signalled 2: %s\n",
		       vkh_result_str(r));
		VKH_CHECK_VK(h, r);
	}
	/* Bounded by the test's ctest timeout: the child always reports or
	 * exits, which closes the socket. */
	if (recv_fds(sv[0], &m, fds, 0) < 0)
		m.status = -1;
	close(sv[0]);
	VKH_CHECK(h, waitpid(pid, &status, 0) == pid);
	VKH_CHECK_MSG(h, m.status == 0 && WIFEXITED(status) &&
	              WEXITSTATUS(status) == 0,
	              "child failed (status %d, exit 0x%x)", m.status,
	              status);

	/* The child's answer, through this process's own device. */
	cb = vkh_cmd_begin(d, 0);
	ext_copy(cb, sa, rd.buffer, XP_SIZE);
	vkh_cmd_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(d, 0, cb));
	vkh_buffer_invalidate(h, d, &rd);
	VKH_CHECK_MSG(h, ext_check_pattern(rd.map, 33, XP_SIZE / 2, &bad),
	              "parent: byte %llu = %u, child wrote %u",
	              (unsigned long long)bad, ((uint8_t *)rd.map)[bad],
	              vkh_pattern(33, bad));
	for (VkDeviceSize i = XP_SIZE / 2; i < XP_SIZE; i += 997)
		VKH_CHECK(h, ((uint8_t *)rd.map)[i] == vkh_pattern(44, i));
	VKH_CHECK_VK(h, vkDeviceWaitIdle(d->device));
	vkDestroySemaphore(d->device, sem, NULL);
	vkDestroySemaphore(d->device, tl, NULL);
	vkDestroyBuffer(d->device, sa, NULL);
	vkFreeMemory(d->device, ma, NULL);
	vkh_buffer_destroy(d, &up);
	vkh_buffer_destroy(d, &rd);
}

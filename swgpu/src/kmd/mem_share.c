/* SPDX-License-Identifier: MIT */
/*
 * Shareable BOs (SWGPU_BO_SHAREABLE; VK_KHR_external_memory_fd, opaque
 * fd): the backing is a memfd mapped MAP_SHARED, so the fd is the memory.
 * Exporting hands out a dup of it; importing maps it again as a new BO,
 * in this process (another device, same pages) or in another process that
 * received the fd over a socket — the daemon (swgpud) will do the same.
 *
 * The memfd is sealed against shrinking and growing at creation: a
 * mapping can then never run past the end of its file (SIGBUS), whatever
 * any holder of the fd does, and an import can recognise the fd as one of
 * ours (a sealed memfd of exactly the BO's size).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmd/device.h"
#include "kmd/mem.h"
#include "util/util.h"
#include "remote/remote.h"

#define SHARE_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

uint8_t *
mem_backing_alloc_shared(uint64_t size, int *fd_out)
{
	int fd = memfd_create("swgpu-bo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	void *p;

	if (fd < 0)
		return NULL;
	/* ftruncate gives zero pages on demand, like the private mmap. */
	if (ftruncate(fd, (off_t)size) != 0 ||
	    fcntl(fd, F_ADD_SEALS, SHARE_SEALS) != 0)
		goto fail;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	*fd_out = fd;
	return p;
fail:
	close(fd);
	return NULL;
}

swgpu_result
swgpu_bo_export_fd(swgpu_bo *bo, int *fd_out)
{
	if (remote_is(bo))
		return rc_bo_export_fd(bo, fd_out);
	int fd;

	if (fd_out)
		*fd_out = -1;
	if (!bo || !fd_out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	if (!bo->shared)
		return SWGPU_ERR(bo->mem->debug, SWGPU_ERR_INVALID_ARG,
		                 "BO was not created with SWGPU_BO_SHAREABLE");
	fd = fcntl(bo->share_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return SWGPU_ERR(bo->mem->debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "dup of the BO's memfd: %s", strerror(errno));
	*fd_out = fd;
	return SWGPU_OK;
}

/* Whether fd is a memfd swgpu exported, of exactly size bytes; logs why
 * not. */
static bool
share_fd_check(bool debug, int fd, uint64_t size)
{
	struct stat st;
	int seals;

	if (fd < 0 || fstat(fd, &st) != 0) {
		SWGPU_ERR(debug, SWGPU_ERR_BAD_HANDLE, "fd %d: %s", fd,
		          fd < 0 ? "negative" : strerror(errno));
		return false;
	}
	seals = fcntl(fd, F_GET_SEALS);
	if (!S_ISREG(st.st_mode) || seals < 0 ||
	    (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) !=
	            (F_SEAL_SHRINK | F_SEAL_GROW)) {
		SWGPU_ERR(debug, SWGPU_ERR_BAD_HANDLE,
		          "fd %d is not exported swgpu memory (a memfd sealed "
		          "against resizing)", fd);
		return false;
	}
	if ((uint64_t)st.st_size != size) {
		SWGPU_ERR(debug, SWGPU_ERR_BAD_HANDLE,
		          "fd %d holds %llu bytes, the import asks for %llu",
		          fd, (unsigned long long)st.st_size,
		          (unsigned long long)size);
		return false;
	}
	return true;
}

swgpu_result
swgpu_bo_import_fd(swgpu_device *dev, int fd, uint64_t size, swgpu_heap heap,
                   uint32_t flags, swgpu_bo **out)
{
	if (remote_is(dev))
		return rc_bo_import_fd(dev, fd, size, heap, flags, out);
	bool debug = dev ? dev->mem.debug : swgpu_debug_env();
	uint64_t page = SWGPU_PAGE_SIZE;
	struct swgpu_bo *bo;
	void *p;

	if (out)
		*out = NULL;
	if (!dev || !out)
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG, "NULL argument");
	if (!size || size > UINT64_MAX - (page - 1) ||
	    (unsigned)heap >= SWGPU_HEAP_COUNT ||
	    (flags & ~(SWGPU_BO_BAR | SWGPU_BO_CACHED | SWGPU_BO_SHAREABLE)))
		return SWGPU_ERR(debug, SWGPU_ERR_INVALID_ARG,
		                 "import of %llu bytes, heap %d, flags 0x%x",
		                 (unsigned long long)size, (int)heap, flags);
	size = (size + page - 1) & ~(page - 1);
	if (!share_fd_check(debug, fd, size))
		return SWGPU_ERR_BAD_HANDLE;
	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "calloc");
	/* Our own reference to the memory: the caller's fd is theirs. */
	bo->share_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	p = bo->share_fd < 0 ? MAP_FAILED :
	    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		if (bo->share_fd >= 0)
			close(bo->share_fd);
		free(bo);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "mapping imported fd %d: %s", fd,
		                 strerror(err));
	}
	/* The pages count in the exporter's heap: imported, not accounted. */
	bo->shared = true;
	mem_publish_imported(dev, bo, p, size, heap,
	                     flags | SWGPU_BO_SHAREABLE);
	*out = bo;
	return SWGPU_OK;
}

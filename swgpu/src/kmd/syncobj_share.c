/* SPDX-License-Identifier: MIT */
/*
 * Exported sync objects (VK_KHR_external_semaphore_fd / _fence_fd, opaque
 * fd: by reference).
 *
 * The fd is a small sealed memfd whose first bytes say what it is
 * (struct share_header: magic, the exporting process, the object's id and
 * type). In one process the import finds the object by the memfd's inode
 * among the device's sync objects and takes a new handle to it, so both
 * handles wait on and signal the same payload, through the one scheduler
 * of the device.
 *
 * Across processes this is not enough: every process has its own
 * software GPU in in-process mode, and a payload is scheduler state (the
 * jobs that will signal it, wait-before-signal), not a word in memory. An
 * import of another process's fd is refused with BAD_HANDLE and a log
 * line naming the exporter. The daemon (swgpud) owns one scheduler for
 * every process and will resolve the same fd to its object.
 *
 * Lifetime: an opaque fd keeps the payload alive, and nothing tells us
 * when the last copy of a memfd closes, so an exported object keeps a
 * reference of its own until the device closes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmd/syncobj.h"
#include "util/util.h"

#define SHARE_MAGIC "SWGPUSYN"
#define SHARE_VERSION 1u

struct share_header {
	char magic[8];
	uint32_t version;
	int32_t pid;            /* the exporting process */
	uint32_t id;            /* syncobj id within its device */
	uint32_t type;          /* swgpu_syncobj_type */
};

void
syncobj_share_fini(struct swgpu_syncobj *obj)
{
	if (obj->exported)
		close(obj->export_fd);
	obj->exported = false;
}

/* Make obj exported: its memfd, header written, sealed. dev->lock held. */
static swgpu_result
share_create_locked(struct swgpu_syncobj *obj)
{
	struct share_header h = {
		.magic = SHARE_MAGIC,
		.version = SHARE_VERSION,
		.pid = (int32_t)getpid(),
		.id = obj->id,
		.type = (uint32_t)obj->type,
	};
	struct stat st;
	int fd = memfd_create("swgpu-syncobj",
	                      MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return SWGPU_ERR_NO_HOST_MEMORY;
	if (pwrite(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
	                           F_SEAL_WRITE | F_SEAL_SEAL) != 0 ||
	    fstat(fd, &st) != 0) {
		close(fd);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	obj->export_fd = fd;
	obj->export_dev = (uint64_t)st.st_dev;
	obj->export_ino = (uint64_t)st.st_ino;
	obj->exported = true;
	syncobj_ref(obj); /* the export's: see the lifetime note above */
	return SWGPU_OK;
}

swgpu_result
swgpu_syncobj_export_fd(swgpu_syncobj *obj, int *fd_out)
{
	swgpu_result r = SWGPU_OK;
	int fd = -1;

	if (fd_out)
		*fd_out = -1;
	if (!obj || !fd_out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	struct swgpu_device *dev = obj->dev;

	pthread_mutex_lock(&dev->lock);
	if (!obj->exported)
		r = share_create_locked(obj);
	if (r == SWGPU_OK) {
		fd = fcntl(obj->export_fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			r = SWGPU_ERR_NO_HOST_MEMORY;
	}
	pthread_mutex_unlock(&dev->lock);
	if (r != SWGPU_OK)
		return DEV_ERR(dev, r, "exporting syncobj %u: %s", obj->id,
		               strerror(errno));
	*fd_out = fd;
	return SWGPU_OK;
}

swgpu_result
swgpu_syncobj_import_fd(swgpu_device *dev, int fd, swgpu_syncobj **out)
{
	struct share_header h;
	struct stat st;
	struct dlist *it;

	if (out)
		*out = NULL;
	if (!dev || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h.magic, SHARE_MAGIC, sizeof(h.magic)) != 0 ||
	    h.version != SHARE_VERSION)
		return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
		               "fd %d is not an exported swgpu sync object", fd);
	if (h.pid != (int32_t)getpid())
		return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
		               "fd %d names sync object %u of process %d: in "
		               "in-process mode each process has its own GPU, "
		               "so sync objects are shared within a process "
		               "only", fd, h.id, (int)h.pid);
	pthread_mutex_lock(&dev->lock);
	for (it = dev->syncobjs.next; it != &dev->syncobjs; it = it->next) {
		struct swgpu_syncobj *obj =
			dlist_entry(it, struct swgpu_syncobj, link);

		if (obj->exported && obj->export_ino == (uint64_t)st.st_ino &&
		    obj->export_dev == (uint64_t)st.st_dev) {
			syncobj_ref(obj);
			obj->user_handles++;
			pthread_mutex_unlock(&dev->lock);
			*out = obj;
			return SWGPU_OK;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
	               "fd %d names sync object %u of another swgpu device",
	               fd, h.id);
}

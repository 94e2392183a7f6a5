/* SPDX-License-Identifier: MIT */
/*
 * Exported sync objects (VK_KHR_external_semaphore_fd / _fence_fd, opaque
 * fd: by reference).
 *
 * The fd is a one-page sealed memfd (struct share_page): what it is
 * (magic, the exporting process, the object's id and type) and, for a
 * timeline, the payload itself in shared memory — its value and a futex
 * word bumped at every change.
 *
 * In one process every VkDevice runs on the same swgpu device, so an
 * import finds the object among the device's sync objects by the memfd's
 * inode and takes a new handle to it: both handles act on one payload,
 * through the one scheduler.
 *
 * Across processes (in-process mode: each process has its own software
 * GPU) a timeline is *linked*: the importer gets a local timeline mapping
 * the same page. Every local change of a shared timeline's value (host or
 * GPU signal, or a failed signaller's error) is published to the page
 * (the value only grows: a CAS to the maximum), and a watcher thread per
 * shared timeline sleeps on the futex word and applies the page's value
 * to the local object like a host signal, so host waits, GPU waits
 * (wait-before-signal included) and signals work on both sides. Binary
 * payloads (binary semaphores, fences) are scheduler state — a pending
 * job, a wait that consumes — and cross processes only with the daemon
 * (swgpud): their import from another process is BAD_HANDLE.
 *
 * Lifetime: an opaque fd keeps the payload alive, and nothing tells us
 * when the last copy of a memfd closes, so an exported or linked object
 * keeps a reference of its own until the device closes.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kmd/job.h"
#include "kmd/syncobj.h"
#include "util/futex.h"
#include "util/util.h"
#include "remote/remote.h"

#define SHARE_MAGIC "SWGPUSYN"
#define SHARE_VERSION 2u
#define SHARE_PAGE_SIZE 4096u

/* The payload page. Only the atomics change after export; the header is
 * written once, before the fd exists. Every process maps it shared, so
 * the futex is a shared (not PRIVATE) one. */
struct share_page {
	char magic[8];
	uint32_t version;
	int32_t pid;                 /* the exporting process */
	uint32_t id;                 /* syncobj id within its device */
	uint32_t type;               /* swgpu_syncobj_type */
	/* Timelines: the largest value any side reached. */
	_Atomic uint64_t value;
	/* Bumped after every change of value or error: the futex word. */
	_Atomic uint32_t seq;
	/* A signaller failed on some side: waits above value fail. */
	_Atomic uint32_t error;
};

_Static_assert(sizeof(struct share_page) <= SHARE_PAGE_SIZE,
               "share page");
/* Atomics that another process sees must not hide a process-local lock. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "lock-free 64-bit and 32-bit atomics");

void
syncobj_share_publish(struct swgpu_syncobj *obj)
{
	struct share_page *p = obj->share_page;
	uint64_t cur;

	if (!p)
		return;
	cur = atomic_load_explicit(&p->value, memory_order_relaxed);
	while (cur < obj->value &&
	       !atomic_compare_exchange_weak_explicit(&p->value, &cur,
	                                              obj->value,
	                                              memory_order_release,
	                                              memory_order_relaxed))
		;
	if (obj->error)
		atomic_store_explicit(&p->error, 1, memory_order_release);
	/* release: a watcher that sees the new seq sees the new value. */
	atomic_fetch_add_explicit(&p->seq, 1, memory_order_release);
	futex_wake_all_shared(&p->seq);
}

/* Bring the local object up to the page (another process, or another
 * link in this one, changed it), as a host signal would. */
static void
share_apply(struct swgpu_syncobj *obj)
{
	struct swgpu_device *dev = obj->dev;
	struct share_page *p = obj->share_page;
	uint64_t v = atomic_load_explicit(&p->value, memory_order_acquire);
	bool err = atomic_load_explicit(&p->error, memory_order_acquire);
	bool changed = false;

	pthread_mutex_lock(&dev->lock);
	if (v > obj->value) {
		obj->value = v;
		changed = true;
	}
	if (err && !obj->error) {
		obj->error = true;
		changed = true;
	}
	if (changed) {
		atomic_fetch_add_explicit(&dev->event_serial, 1,
		                          memory_order_release);
		sched_run(dev);
		syncobj_mirror_publish(obj);
		syncobj_wake_waiters(obj, false);
	}
	pthread_mutex_unlock(&dev->lock);
	if (changed)
		dev_wake_gpu(dev);
}

static void *
share_watch(void *arg)
{
	struct swgpu_syncobj *obj = arg;
	struct share_page *p = obj->share_page;

	for (;;) {
		uint32_t seq = atomic_load_explicit(&p->seq,
		                                    memory_order_acquire);

		if (atomic_load_explicit(&obj->share_stop,
		                         memory_order_acquire))
			break;
		share_apply(obj);
		/* Sleeps only while seq is unchanged: a change between the
		 * load and here returns at once. */
		futex_wait_shared(&p->seq, seq, UINT64_MAX);
	}
	return NULL;
}

void
syncobj_share_fini(struct swgpu_syncobj *obj)
{
	if (obj->share_page)
		munmap(obj->share_page, SHARE_PAGE_SIZE);
	obj->share_page = NULL;
	if (obj->exported)
		close(obj->export_fd);
	obj->exported = false;
}

void
syncobj_share_stop(struct swgpu_device *dev)
{
	/* One watcher at a time: found and told to stop under the lock,
	 * joined without it (a watcher takes it). */
	for (;;) {
		struct swgpu_syncobj *found = NULL;
		pthread_t thread;

		pthread_mutex_lock(&dev->lock);
		for (struct dlist *it = dev->syncobjs.next;
		     it != &dev->syncobjs && !found; it = it->next) {
			struct swgpu_syncobj *obj =
				dlist_entry(it, struct swgpu_syncobj, link);

			if (obj->share_watching)
				found = obj;
		}
		if (found) {
			atomic_store_explicit(&found->share_stop, true,
			                      memory_order_release);
			atomic_fetch_add_explicit(&found->share_page->seq, 1,
			                          memory_order_release);
			futex_wake_all_shared(&found->share_page->seq);
			found->share_watching = false;
			thread = found->share_watcher;
		}
		pthread_mutex_unlock(&dev->lock);
		if (!found)
			break;
		pthread_join(thread, NULL);
	}
}

/* Map the page of fd and, for a timeline, start watching it. Makes obj
 * exported (export_fd owns fd). dev->lock held. */
static swgpu_result
share_attach_locked(struct swgpu_syncobj *obj, int fd)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) != 0)
		return SWGPU_ERR_NO_HOST_MEMORY;
	p = mmap(NULL, SHARE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
	         fd, 0);
	if (p == MAP_FAILED)
		return SWGPU_ERR_NO_HOST_MEMORY;
	obj->share_page = p;
	obj->export_fd = fd;
	obj->export_dev = (uint64_t)st.st_dev;
	obj->export_ino = (uint64_t)st.st_ino;
	obj->exported = true;
	syncobj_ref(obj); /* the export's: see the lifetime note above */
	if (obj->type == SWGPU_SYNCOBJ_TIMELINE) {
		atomic_init(&obj->share_stop, false);
		if (pthread_create(&obj->share_watcher, NULL, share_watch,
		                   obj) == 0)
			obj->share_watching = true;
		else
			swgpu_log("syncobj %u: no watcher thread: changes "
			          "from other processes are not seen",
			          obj->id);
		syncobj_share_publish(obj);
	}
	return SWGPU_OK;
}

/* Make obj exported: its page, header written, sealed. dev->lock held. */
static swgpu_result
share_create_locked(struct swgpu_syncobj *obj)
{
	struct share_page h = {
		.magic = SHARE_MAGIC,
		.version = SHARE_VERSION,
		.pid = (int32_t)getpid(),
		.id = obj->id,
		.type = (uint32_t)obj->type,
	};
	int fd = memfd_create("swgpu-syncobj",
	                      MFD_CLOEXEC | MFD_ALLOW_SEALING);
	swgpu_result r;

	if (fd < 0)
		return SWGPU_ERR_NO_HOST_MEMORY;
	/* Sealed against resizing: no mapping of it can fault. */
	if (ftruncate(fd, SHARE_PAGE_SIZE) != 0 ||
	    pwrite(fd, &h, offsetof(struct share_page, value), 0) !=
	            (ssize_t)offsetof(struct share_page, value) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
	                           F_SEAL_SEAL) != 0) {
		close(fd);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	r = share_attach_locked(obj, fd);
	if (r != SWGPU_OK)
		close(fd);
	return r;
}

swgpu_result
swgpu_syncobj_export_fd(swgpu_syncobj *obj, int *fd_out)
{
	if (remote_is(obj))
		return rc_syncobj_export_fd(obj, fd_out);
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

/* The object of dev already exported or linked through this memfd. */
static struct swgpu_syncobj *
share_find_locked(struct swgpu_device *dev, const struct stat *st)
{
	for (struct dlist *it = dev->syncobjs.next; it != &dev->syncobjs;
	     it = it->next) {
		struct swgpu_syncobj *obj =
			dlist_entry(it, struct swgpu_syncobj, link);

		if (obj->exported && obj->export_ino == (uint64_t)st->st_ino &&
		    obj->export_dev == (uint64_t)st->st_dev)
			return obj;
	}
	return NULL;
}

/* A timeline of another process (or another device of this one): a
 * local timeline linked to its page. */
static swgpu_result
share_link(struct swgpu_device *dev, int fd, const struct share_page *h,
           swgpu_syncobj **out)
{
	struct swgpu_syncobj *obj = NULL;
	swgpu_result r;
	int own;

	if (h->type != SWGPU_SYNCOBJ_TIMELINE && h->pid != (int32_t)getpid())
		return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
		               "fd %d names binary sync object %u of process "
		               "%d: in in-process mode each process has its "
		               "own GPU, and binary payloads (binary "
		               "semaphores, fences) are shared within a "
		               "process only (timelines cross processes)", fd,
		               h->id, (int)h->pid);
	if (h->type != SWGPU_SYNCOBJ_TIMELINE)
		return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
		               "fd %d names binary sync object %u of another "
		               "swgpu device (binary payloads are scheduler "
		               "state of their device)", fd, h->id);
	own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (own < 0)
		return DEV_ERR(dev, SWGPU_ERR_NO_HOST_MEMORY, "dup: %s",
		               strerror(errno));
	r = swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &obj);
	if (r != SWGPU_OK) {
		close(own);
		return r;
	}
	pthread_mutex_lock(&dev->lock);
	r = share_attach_locked(obj, own);
	pthread_mutex_unlock(&dev->lock);
	if (r != SWGPU_OK) {
		close(own);
		swgpu_syncobj_destroy(obj);
		return DEV_ERR(dev, r, "mapping sync object fd %d", fd);
	}
	/* The watcher applies the page's value from now on; this makes the
	 * current one visible before the import returns. */
	share_apply(obj);
	*out = obj;
	return SWGPU_OK;
}

swgpu_result
swgpu_syncobj_import_fd(swgpu_device *dev, int fd, swgpu_syncobj **out)
{
	if (remote_is(dev))
		return rc_syncobj_import_fd(dev, fd, out);
	struct share_page h;
	struct stat st;
	struct swgpu_syncobj *obj;

	if (out)
		*out = NULL;
	if (!dev || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size != SHARE_PAGE_SIZE ||
	    pread(fd, &h, offsetof(struct share_page, value), 0) !=
	            (ssize_t)offsetof(struct share_page, value) ||
	    memcmp(h.magic, SHARE_MAGIC, sizeof(h.magic)) != 0 ||
	    h.version != SHARE_VERSION ||
	    (h.type != SWGPU_SYNCOBJ_BINARY &&
	     h.type != SWGPU_SYNCOBJ_TIMELINE) ||
	    (fcntl(fd, F_GET_SEALS) & F_SEAL_SHRINK) == 0)
		return DEV_ERR(dev, SWGPU_ERR_BAD_HANDLE,
		               "fd %d is not an exported swgpu sync object", fd);
	pthread_mutex_lock(&dev->lock);
	obj = share_find_locked(dev, &st);
	if (obj) {
		syncobj_ref(obj);
		obj->user_handles++;
		pthread_mutex_unlock(&dev->lock);
		*out = obj;
		return SWGPU_OK;
	}
	pthread_mutex_unlock(&dev->lock);
	/* Another process's object, or another device's of this one. */
	return share_link(dev, fd, &h, out);
}

/* SPDX-License-Identifier: MIT */
/* swgpud: a GPU's engines serve its sessions' rings (ring_server.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/ring_server.h"
#include "daemon/session.h"
#include "util/futex.h"
#include "util/spin.h"
#include "util/util.h"

_Static_assert((int)KMD_ENGINE_BUSY == (int)FAST_ENGINE_BUSY &&
               (int)KMD_ENGINE_IDLE == (int)FAST_ENGINE_IDLE &&
               (int)KMD_ENGINE_ASLEEP == (int)FAST_ENGINE_ASLEEP,
               "engine states on the GPU page");

static void
rs_engine_state(void *arg, uint32_t engine, uint32_t state)
{
	struct ring_server *rs = arg;

	if (engine < SWGPU_MAX_ENGINES)
		atomic_store(&rs->page->engine_state[engine], state);
}

static bool
rs_serve(void *arg, uint32_t engine)
{
	struct ring_server *rs = arg;
	bool served = false;

	(void)engine;
	pthread_rwlock_rdlock(&rs->lock);
	for (unsigned i = 0; i < rs->count; i++)
		served |= sd_fast_try_drain(rs->sessions[i]);
	pthread_rwlock_unlock(&rs->lock);
	return served;
}

static bool
rs_pending(void *arg)
{
	struct ring_server *rs = arg;
	bool pending = false;

	pthread_rwlock_rdlock(&rs->lock);
	for (unsigned i = 0; i < rs->count && !pending; i++) {
		struct session *s = rs->sessions[i];
		struct fast_page *p = s->fast.page;

		pending = !atomic_load_explicit(&s->ring_broken,
		                                memory_order_relaxed) &&
		          atomic_load(&p->ring_tail) !=
		          atomic_load(&p->ring_head);
	}
	pthread_rwlock_unlock(&rs->lock);
	return pending;
}

static unsigned
rs_bells(void *arg, uint32_t engine, struct futex_word *words, unsigned max)
{
	struct ring_server *rs = arg;
	unsigned n = 0;

	if (engine >= SWGPU_MAX_ENGINES)
		return 0;
	pthread_rwlock_rdlock(&rs->lock);
	for (unsigned i = 0; i < rs->count && n < max; i++) {
		_Atomic uint32_t *bell =
			&rs->sessions[i]->fast.page->bell[engine];

		/* The client's page: its value may be anything, and it may
		 * be gone by the time the engine sleeps (then the wait
		 * returns at once). */
		words[n++] = (struct futex_word){ .word = bell,
		                                  .expected = atomic_load(bell),
		                                  .private_word = false };
	}
	pthread_rwlock_unlock(&rs->lock);
	return n;
}

/* spin_peer_add's count: the clients' waiters polling their pages now.
 * A client's word is its own to write: at most 4 each, so a lying
 * client only makes the engines spin a little longer on a busy CPU.
 * Never waits for the lock: a session coming or going just skips one
 * sample. */
static unsigned
rs_clients_spinning(void *arg)
{
	struct ring_server *rs = arg;
	unsigned n = 0;

	if (pthread_rwlock_tryrdlock(&rs->lock))
		return 0;
	for (unsigned i = 0; i < rs->count; i++) {
		uint32_t k = atomic_load_explicit(
			&rs->sessions[i]->fast.page->spinning,
			memory_order_relaxed);
		n += k < 4 ? k : 4;
	}
	pthread_rwlock_unlock(&rs->lock);
	return n;
}

bool
ring_server_init(struct ring_server *rs, swgpu_device *dev)
{
	swgpu_device_info info;

	memset(rs, 0, sizeof(*rs));
	rs->dev = dev;
	rs->gpu_memfd = -1;
	{
		/* Engines sleep on the bells with futex_waitv (Linux 5.16):
		 * without it nobody would hear them. A word that differs
		 * from the value given returns at once. */
		_Atomic uint32_t probe = 1;
		struct futex_word w = { .word = &probe, .expected = 0,
		                        .private_word = true };

		if (!futex_wait_many(&w, 1)) {
			errno = ENOSYS;
			swgpu_log("swgpud: no futex_waitv: the session threads "
			          "serve the rings");
			return false;
		}
	}
	rs->gpu_memfd = memfd_create("swgpud-gpu", MFD_CLOEXEC |
	                                           MFD_ALLOW_SEALING);
	if (rs->gpu_memfd < 0 ||
	    ftruncate(rs->gpu_memfd, sizeof(struct fast_gpu_page)) != 0)
		goto fail;
	rs->page = mmap(NULL, sizeof(struct fast_gpu_page),
	                PROT_READ | PROT_WRITE, MAP_SHARED, rs->gpu_memfd, 0);
	if (rs->page == MAP_FAILED) {
		rs->page = NULL;
		goto fail;
	}
	/* Clients map it read-only: no client can make an engine look
	 * busy, idle or asleep to the others. */
	if (fcntl(rs->gpu_memfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
	          F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) != 0)
		goto fail;
	swgpu_device_query_info(dev, &info);
	rs->page->magic = FAST_GPU_MAGIC;
	rs->page->engine_count = info.engine_count;
	{
		/* Engines take it for reading in their spin loop: a client
		 * coming or going must not wait behind them for good. */
		pthread_rwlockattr_t attr;

		pthread_rwlockattr_init(&attr);
		pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
		pthread_rwlock_init(&rs->lock, &attr);
		pthread_rwlockattr_destroy(&attr);
	}
	rs->ops = (struct kmd_ring_server){
		.arg = rs,
		.engine_state = rs_engine_state,
		.serve = rs_serve,
		.pending = rs_pending,
		.bells = rs_bells,
	};
	kmd_device_set_ring_server(dev, &rs->ops);
	rs->peer_counted = spin_peer_add(rs_clients_spinning, rs);
	return true;
fail:
	swgpu_log("swgpud: the engines will not serve the rings (%s): the "
	          "session threads do", strerror(errno));
	if (rs->page)
		munmap(rs->page, sizeof(struct fast_gpu_page));
	if (rs->gpu_memfd >= 0)
		close(rs->gpu_memfd);
	rs->page = NULL;
	rs->gpu_memfd = -1;
	return false;
}

void
ring_server_fini(struct ring_server *rs)
{
	if (rs->peer_counted)
		spin_peer_remove(rs_clients_spinning, rs);
	pthread_rwlock_destroy(&rs->lock);
	munmap(rs->page, sizeof(struct fast_gpu_page));
	close(rs->gpu_memfd);
}

void
ring_server_add(struct ring_server *rs, struct session *s)
{
	bool added = false;

	pthread_rwlock_wrlock(&rs->lock);
	if (rs->count < RING_SERVER_MAX_SESSIONS) {
		rs->sessions[rs->count++] = s;
		added = true;
	}
	pthread_rwlock_unlock(&rs->lock);
	atomic_store(&s->fast.page->bells_on, added);
	/* Sleeping engines do not sleep on its bells yet. */
	if (added)
		kmd_device_kick_engines(rs->dev);
}

void
ring_server_remove(struct ring_server *rs, struct session *s)
{
	pthread_rwlock_wrlock(&rs->lock);
	for (unsigned i = 0; i < rs->count; i++)
		if (rs->sessions[i] == s) {
			rs->sessions[i] = rs->sessions[--rs->count];
			break;
		}
	pthread_rwlock_unlock(&rs->lock);
}

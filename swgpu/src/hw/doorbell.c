/* SPDX-License-Identifier: MIT */
/* Doorbell: see doorbell.h for the wake-up protocol. */
#include "hw/doorbell.h"

int
doorbell_init(struct swgpu_doorbell *db)
{
	atomic_init(&db->rung, false);
	atomic_init(&db->sleeping, false);
	atomic_init(&db->stop, false);
	if (pthread_mutex_init(&db->lock, NULL))
		return -1;
	if (pthread_cond_init(&db->cond, NULL)) {
		pthread_mutex_destroy(&db->lock);
		return -1;
	}
	return 0;
}

void
doorbell_fini(struct swgpu_doorbell *db)
{
	pthread_cond_destroy(&db->cond);
	pthread_mutex_destroy(&db->lock);
}

static void
doorbell_kick(struct swgpu_doorbell *db)
{
	/* Only a sleeping engine needs the lock + signal; a busy one will
	 * see rung (or the new wptr) before it sleeps. Taking the lock
	 * waits until the engine is inside its wait (it holds the lock
	 * from its check of rung until then); the signal comes after the
	 * unlock, so the woken engine does not block on the lock we still
	 * hold (that cost two more futex calls and a switch per wake-up). */
	if (atomic_load(&db->sleeping)) {
		pthread_mutex_lock(&db->lock);
		pthread_mutex_unlock(&db->lock);
		pthread_cond_signal(&db->cond);
	}
}

void
doorbell_ring(struct swgpu_doorbell *db)
{
	/* seq_cst store then seq_cst load of sleeping, mirrored by the
	 * engine's store of sleeping then load of rung (doorbell.h). */
	atomic_store(&db->rung, true);
	doorbell_kick(db);
}

void
doorbell_stop(struct swgpu_doorbell *db)
{
	atomic_store(&db->stop, true);
	atomic_store(&db->rung, true);
	pthread_mutex_lock(&db->lock);
	pthread_cond_signal(&db->cond);
	pthread_mutex_unlock(&db->lock);
}

bool
doorbell_wait(struct swgpu_doorbell *db)
{
	bool slept = false;

	pthread_mutex_lock(&db->lock);
	atomic_store(&db->sleeping, true);
	while (!atomic_load(&db->rung) && !atomic_load(&db->stop)) {
		pthread_cond_wait(&db->cond, &db->lock);
		slept = true;
	}
	atomic_store(&db->sleeping, false);
	atomic_store(&db->rung, false);
	pthread_mutex_unlock(&db->lock);
	return slept;
}

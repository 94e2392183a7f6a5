/* SPDX-License-Identifier: MIT */
/* Doorbell: see doorbell.h for the wake-up protocol. */
#include "hw/doorbell.h"

#include "util/futex.h"

int
doorbell_init(struct swgpu_doorbell *db)
{
	atomic_init(&db->rung, false);
	atomic_init(&db->sleeping, DOORBELL_AWAKE);
	atomic_init(&db->word, 0);
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
	uint32_t how = atomic_load(&db->sleeping);

	if (how == DOORBELL_COND) {
		pthread_mutex_lock(&db->lock);
		pthread_mutex_unlock(&db->lock);
		pthread_cond_signal(&db->cond);
	} else if (how == DOORBELL_FUTEX) {
		/* Either the engine read the word before this (its wait
		 * returns at once or is woken) or it sees rung. */
		atomic_fetch_add(&db->word, 1);
		futex_wake_one(&db->word, true);
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
	atomic_fetch_add(&db->word, 1);
	futex_wake_one(&db->word, true);
}

bool
doorbell_wait(struct swgpu_doorbell *db)
{
	bool slept = false;

	pthread_mutex_lock(&db->lock);
	atomic_store(&db->sleeping, DOORBELL_COND);
	while (!atomic_load(&db->rung) && !atomic_load(&db->stop)) {
		pthread_cond_wait(&db->cond, &db->lock);
		slept = true;
	}
	atomic_store(&db->sleeping, DOORBELL_AWAKE);
	atomic_store(&db->rung, false);
	pthread_mutex_unlock(&db->lock);
	return slept;
}

bool
doorbell_wait_many(struct swgpu_doorbell *db,
                   bool (*ready)(void *arg, struct futex_word *more,
                                 unsigned max, unsigned *n),
                   void *arg)
{
	struct futex_word w[FUTEX_WAIT_MANY_MAX];
	unsigned n = 0;
	bool slept = false;

	/* seq_cst store then loads, mirrored by doorbell_ring's store of
	 * rung then load of sleeping. */
	atomic_store(&db->sleeping, DOORBELL_FUTEX);
	w[0] = (struct futex_word){ .word = &db->word,
	                            .expected = atomic_load(&db->word),
	                            .private_word = true };
	if (!ready(arg, w + 1, FUTEX_WAIT_MANY_MAX - 1, &n) && !atomic_load(&db->rung) &&
	    !atomic_load(&db->stop)) {
		if (futex_wait_many(w, n + 1)) {
			slept = true;
		} else {
			atomic_store(&db->sleeping, DOORBELL_AWAKE);
			return doorbell_wait(db);
		}
	}
	atomic_store(&db->sleeping, DOORBELL_AWAKE);
	atomic_store(&db->rung, false);
	return slept;
}

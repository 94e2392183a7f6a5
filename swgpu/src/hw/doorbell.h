/* SPDX-License-Identifier: MIT */
/*
 * Doorbell (internal): how the scheduler tells an engine that its ring
 * has new packets.
 *
 * Protocol (no lost wake-ups, no busy loop):
 *   producer: publish wptr; rung = 1 (seq_cst);
 *             if (sleeping) { lock; unlock; signal; }
 *   engine:   lock; sleeping = 1 (seq_cst);
 *             while (!rung && !stop) wait; sleeping = 0; rung = 0; unlock;
 *             then re-read wptr.
 * Either the producer sees sleeping (and signals once it got the lock,
 * which the engine holds until it is inside the wait: it is a waiter of
 * the condition by then), or the engine sees rung.
 * Rings are batched: a producer that finds the engine awake only sets
 * rung, and many submits cost one wake-up.
 */
#ifndef SWGPU_DOORBELL_H
#define SWGPU_DOORBELL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct swgpu_doorbell {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_bool rung;
	atomic_bool sleeping;
	atomic_bool stop;
};

int doorbell_init(struct swgpu_doorbell *db);
void doorbell_fini(struct swgpu_doorbell *db);
void doorbell_ring(struct swgpu_doorbell *db);
/* Ask the engine to leave its wait for good (device close). */
void doorbell_stop(struct swgpu_doorbell *db);
/* Engine side: sleep until rung (returns true if it actually slept). */
bool doorbell_wait(struct swgpu_doorbell *db);

#endif

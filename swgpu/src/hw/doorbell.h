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
 * In swgpud an engine may sleep on futexes instead (doorbell_wait_many):
 * its own word beside the bells of the clients' pages (futex_waitv).
 * Then sleeping says DOORBELL_FUTEX and the producer bumps the word and
 * wakes it: the same protocol, the word's change standing for the lock.
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
	_Atomic uint32_t sleeping;   /* enum doorbell_sleep */
	atomic_bool stop;
	_Atomic uint32_t word;       /* DOORBELL_FUTEX: bumped by a ring */
};

enum doorbell_sleep {
	DOORBELL_AWAKE = 0,
	DOORBELL_COND = 1,
	DOORBELL_FUTEX = 2,
};

struct futex_word;

int doorbell_init(struct swgpu_doorbell *db);
void doorbell_fini(struct swgpu_doorbell *db);
void doorbell_ring(struct swgpu_doorbell *db);
/* Ask the engine to leave its wait for good (device close). */
void doorbell_stop(struct swgpu_doorbell *db);
/* Engine side: sleep until rung (returns true if it actually slept). */
bool doorbell_wait(struct swgpu_doorbell *db);
/* The same, sleeping on the doorbell's word and the words ready puts in
 * more (at most max; futex_wait_many). ready is called after the engine
 * says it sleeps and has read its word: true when there is work anyway
 * (no sleep). Falls back to
 * doorbell_wait without futex_waitv. */
bool doorbell_wait_many(struct swgpu_doorbell *db,
                        bool (*ready)(void *arg, struct futex_word *more,
                                      unsigned max, unsigned *n),
                        void *arg);

#endif

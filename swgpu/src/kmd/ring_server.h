/* SPDX-License-Identifier: MIT */
/*
 * For swgpud (internal): the engines serve its clients' submit rings.
 * A client's record is best taken by the engine that will run it, at
 * once, without waking a thread in between (docs/ARCHITECTURE.md, "Who
 * serves the ring"). So an engine of a device with a ring server says
 * what it does (busy in a job, idle, asleep: the clients read it), takes
 * the records of every client ring when it goes idle and when it leaves
 * idle for a job, and sleeps on the clients' bell words beside its own
 * doorbell. The callbacks run on the engine's thread with no lock held.
 */
#ifndef SWGPU_KMD_RING_SERVER_H
#define SWGPU_KMD_RING_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

struct futex_word;

enum kmd_engine_state {
	KMD_ENGINE_BUSY = 0,        /* in a job: it takes no record */
	KMD_ENGINE_IDLE = 1,        /* takes every record before it sleeps */
	KMD_ENGINE_ASLEEP = 2,      /* on its doorbell and the bells */
};

struct kmd_ring_server {
	void *arg;
	/* The engine now is in state (seq_cst: records written before a
	 * client read the old state are taken after this). */
	void (*engine_state)(void *arg, uint32_t engine, uint32_t state);
	/* Take every record of every ring; true if one was taken. */
	bool (*serve)(void *arg, uint32_t engine);
	/* Whether some ring holds a record (cheap: the spin loop asks). */
	bool (*pending)(void *arg);
	/* Fill words with the bells the engine sleeps on (their values
	 * read now); the count. */
	unsigned (*bells)(void *arg, uint32_t engine, struct futex_word *words,
	                  unsigned max);
};

/* Set once, right after the device is opened (srv outlives the
 * device's engines). */
void kmd_device_set_ring_server(swgpu_device *dev,
                                const struct kmd_ring_server *srv);
/* Every engine looks at the rings and its bells again (a client came:
 * sleeping engines do not sleep on its bells yet). */
void kmd_device_kick_engines(swgpu_device *dev);

#endif

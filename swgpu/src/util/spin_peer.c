/* SPDX-License-Identifier: MIT */
/*
 * The partner process's spinners (spin.h, spin_peer_add): a small table
 * of counters the contention sampler (spin.c) adds up. Its own file: the
 * lock needs pthread.h, which spin.c's linux/sched/types.h clashes with.
 */
#include <pthread.h>

#include "util/spin.h"

static pthread_mutex_t peers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct spin_peer {
	unsigned (*count)(void *arg);
	void *arg;
} peers[SPIN_PEERS_MAX];

bool
spin_peer_add(unsigned (*count)(void *arg), void *arg)
{
	bool added = false;

	pthread_mutex_lock(&peers_lock);
	for (unsigned i = 0; i < SPIN_PEERS_MAX && !added; i++)
		if (!peers[i].count) {
			peers[i] = (struct spin_peer){ count, arg };
			added = true;
		}
	pthread_mutex_unlock(&peers_lock);
	return added;
}

void
spin_peer_remove(unsigned (*count)(void *arg), void *arg)
{
	pthread_mutex_lock(&peers_lock);
	for (unsigned i = 0; i < SPIN_PEERS_MAX; i++)
		if (peers[i].count == count && peers[i].arg == arg)
			peers[i] = (struct spin_peer){ NULL, NULL };
	pthread_mutex_unlock(&peers_lock);
}

long
spin_peers_spinning(void)
{
	long n = 0;

	pthread_mutex_lock(&peers_lock);
	for (unsigned i = 0; i < SPIN_PEERS_MAX; i++)
		if (peers[i].count)
			n += peers[i].count(peers[i].arg);
	pthread_mutex_unlock(&peers_lock);
	return n;
}

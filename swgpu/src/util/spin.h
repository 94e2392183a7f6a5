/* SPDX-License-Identifier: MIT */
/*
 * Adaptive spinning (internal). A thread about to sleep first polls for
 * up to a budget: on an idle machine the event usually arrives within
 * microseconds, far sooner than a futex wake-up. On a busy machine the
 * thread that would produce the event may be waiting for the very CPU the
 * poller burns, so a spin that ran out (a miss) halves the budget, down to
 * 1/16 of SWGPU_SPIN_US, and a spin that saw its event (a hit) restores
 * it. A low budget can keep itself low (the producer went to sleep, so
 * the next short spin misses too), so every 8th poll probes with the full
 * budget. Measured on the 2-core VM: with both cores busy a fixed 20 µs
 * spin made a submit→fence round trip 50 µs, adaptive 11 µs; idle, the
 * timeline round trip stays 1-3 µs instead of falling into a 60 µs
 * sleep/wake pattern without the probe.
 *
 * The budget is a heuristic shared by threads: relaxed atomics, races
 * only blur it.
 *
 * Hits and misses cannot see every kind of contention: against threads
 * that never sleep (an application's workers, other processes' busy
 * loops) a spin still hits often enough to keep the full budget, and each
 * one spends the spinner's scheduler credit, so the next preemption
 * costs it a whole time slice (issue 20 item 8: p99 over lavapipe's).
 * So while the machine has more runnable threads than CPUs
 * (spin_cpu_contended, spin.c) the budget is 0: waiters sleep at once
 * and the wake-up is the latency, as in lavapipe.
 */
#ifndef SWGPU_SPIN_H
#define SWGPU_SPIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct spin_budget {
	_Atomic uint64_t ns;
	_Atomic uint32_t polls;
	uint64_t max_ns;
};

static inline void
spin_budget_init(struct spin_budget *b, uint64_t max_ns)
{
	atomic_init(&b->ns, max_ns);
	atomic_init(&b->polls, 0);
	b->max_ns = max_ns;
}

/* True while more threads are runnable than there are CPUs, not
 * counting this process's threads that are inside a spin loop (sampled
 * every few ms, process-wide; spin.c). now_ns: swgpu_now_ns(). */
bool spin_cpu_contended(uint64_t now_ns);

/* This process's threads inside a poll loop now (spin_enter/leave): the
 * contention test does not count them as other work, else a waiter
 * spinning beside an engine spinning on its ring make a quiet 2-core
 * machine look contended (issue 20 item 8, measured 10x on round trips). */
extern _Atomic int spin_active_threads;

/* Spinners of another process that are this process's partners, not
 * work that wants the CPU: swgpud's engines polling for a client's
 * records, a client's waiters polling for the daemon's completions. In
 * shared mode each side would otherwise count the other's poll as load,
 * and a quiet 2-core machine with one passing thread (a kworker) would
 * look contended, as it did in process before spin_active_threads.
 * count(arg): such threads spinning now; called by the sampler every few
 * ms at most, with no lock of the caller's held. add: false when the
 * table (SPIN_PEERS_MAX) is full (those spinners then count as load).
 * remove: count is never called again once it returns. */
#define SPIN_PEERS_MAX 16
bool spin_peer_add(unsigned (*count)(void *arg), void *arg);
void spin_peer_remove(unsigned (*count)(void *arg), void *arg);
/* Their sum now (spin.c's sampler). */
long spin_peers_spinning(void);

static inline void
spin_enter(void)
{
	atomic_fetch_add_explicit(&spin_active_threads, 1,
	                          memory_order_relaxed);
}

static inline void
spin_leave(void)
{
	atomic_fetch_sub_explicit(&spin_active_threads, 1,
	                          memory_order_relaxed);
}

/* Short scheduler slices for the calling thread (best effort, spin.c):
 * its wake-ups preempt busy threads sooner. */
void spin_request_short_slice(uint64_t slice_ns);

/* Timer slack (issue 20 item 8). Linux lets a timed sleep of a normal
 * thread end up to its timer slack (default 50 us) after its deadline,
 * so it can be merged with other timers. The driver's own threads whose
 * deadlines are latencies — an engine polling GPU memory in 100 us
 * SEM_WAIT slices, the tick ending a held job's wait at a slice end —
 * ask for SWGPU_TIMER_SLACK_NS (default 1 ns, the least the kernel
 * takes; 0 leaves the default, to compare). Host waiters are woken by
 * the engine, not by their deadline: left alone. */
void spin_timer_slack_own_thread(void);

/* The spin budget of one wait (ns), 0 on a contended CPU. now_ns:
 * swgpu_now_ns(). */
static inline uint64_t
spin_budget_get(struct spin_budget *b, uint64_t now_ns)
{
	if (spin_cpu_contended(now_ns))
		return 0;
	uint32_t n = atomic_fetch_add_explicit(&b->polls, 1,
	                                       memory_order_relaxed);

	if (n % 8 == 7)
		return b->max_ns; /* probe */
	return atomic_load_explicit(&b->ns, memory_order_relaxed);
}

static inline void
spin_budget_feedback(struct spin_budget *b, bool hit)
{
	uint64_t cur = atomic_load_explicit(&b->ns, memory_order_relaxed);
	uint64_t floor = b->max_ns / 16;
	uint64_t next = hit ? b->max_ns : (cur / 2 > floor ? cur / 2 : floor);

	if (next != cur)
		atomic_store_explicit(&b->ns, next, memory_order_relaxed);
}

#endif

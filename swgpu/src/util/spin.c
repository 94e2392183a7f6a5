/* SPDX-License-Identifier: MIT */
/*
 * Is the machine's CPU contended? (spin.h, spin_cpu_contended)
 *
 * Every SPIN_SAMPLE_NS at most, one waiting thread reads the number of
 * runnable threads of the whole machine (the "running" part of the
 * fourth field of /proc/loadavg: the kernel's instantaneous nr_running,
 * the reader itself included) with one pread on a descriptor kept open
 * (a few microseconds). More runnable threads than CPUs means a spinner
 * takes the CPU from a thread that wants it — possibly the very thread
 * it waits for, which on Linux (EEVDF) also spends the spinner's lag, so
 * that it waits a whole time slice once it is preempted.
 *
 * Our own spinners (spin_active_threads: a host waiter polling for its
 * fence, an engine polling its ring), and in shared mode our partner
 * process's (spin_peer_add: swgpud's engines for a client, its clients'
 * waiters for swgpud), are not work that wants the CPU, so they are
 * subtracted; counting them made a quiet 2-core machine look
 * contended whenever one third thread (a kworker, a shell) ran, and the
 * round trip went from ~3 to ~25 us (docs/PERFORMANCE.md, 2026-12-05).
 * A single contended sample can still be one passing thread, so two
 * samples in a row must say so; the machine then counts as contended for
 * SPIN_HOLD_NS after the last one: a busy machine stays busy.
 *
 * Without /proc (or with SWGPU_SPIN_LOAD=0) nothing is ever contended and
 * the budgets behave as before.
 */
#include "util/spin.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/sched/types.h>
#endif

#define SPIN_SAMPLE_NS 5000000ull      /* 5 ms between samples */
#define SPIN_HOLD_NS 100000000ull      /* contended 100 ms after a sample */

static _Atomic uint64_t next_sample_ns;
static _Atomic uint64_t contended_until_ns;
static atomic_int load_fd = -1;        /* -2: disabled / no /proc */
static _Atomic long cpu_count;
static atomic_bool last_sample_contended;

_Atomic int spin_active_threads;

/* Runnable threads now, or -1. */
static long
runnable_now(void)
{
	/* Acquire: pairs with the publishing exchange (the descriptor and
	 * cpu_count are ready). */
	int fd = atomic_load_explicit(&load_fd, memory_order_acquire);
	char buf[128];
	ssize_t n;

	if (fd == -1) {
		const char *env = getenv("SWGPU_SPIN_LOAD");
		/* Tests give a file of their own, in the same format. */
		const char *path = getenv("SWGPU_SPIN_LOADAVG");
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		int expected = -1;

		fd = env && !strcmp(env, "0") ? -2 :
		     open(path && *path ? path : "/proc/loadavg",
		          O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -2;
		atomic_store_explicit(&cpu_count, cpus > 0 ? cpus : 1,
		                      memory_order_relaxed);
		/* Only one sampler at a time gets here (spin_cpu_contended):
		 * the exchange is for readers of load_fd. */
		if (!atomic_compare_exchange_strong(&load_fd, &expected, fd) &&
		    fd >= 0)
			close(fd);
		fd = atomic_load(&load_fd);
	}
	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* "0.52 0.58 0.59 3/467 12345": the field after the third space. */
	const char *p = buf;
	for (int spaces = 0; *p && spaces < 3; p++)
		if (*p == ' ')
			spaces++;
	return *p ? strtol(p, NULL, 10) : -1;
}

bool
spin_cpu_contended(uint64_t now_ns)
{
	uint64_t next = atomic_load_explicit(&next_sample_ns,
	                                     memory_order_relaxed);

	/* The one thread that moves next_sample_ns on samples. */
	if (now_ns >= next &&
	    atomic_compare_exchange_strong_explicit(
		    &next_sample_ns, &next, now_ns + SPIN_SAMPLE_NS,
		    memory_order_relaxed, memory_order_relaxed)) {
		long running = runnable_now();
		long others = running - atomic_load_explicit(
			&spin_active_threads, memory_order_relaxed) -
			spin_peers_spinning();
		bool busy = others > atomic_load_explicit(
			&cpu_count, memory_order_relaxed);

		if (running < 0) {
			/* Never again: no /proc or turned off. */
			atomic_store_explicit(&next_sample_ns, UINT64_MAX,
			                      memory_order_relaxed);
		} else {
			/* Only the sampler (the CAS winner) gets here. */
			if (busy && atomic_load_explicit(
					    &last_sample_contended,
					    memory_order_relaxed))
				atomic_store_explicit(&contended_until_ns,
				                      now_ns + SPIN_HOLD_NS,
				                      memory_order_relaxed);
			atomic_store_explicit(&last_sample_contended, busy,
			                      memory_order_relaxed);
		}
	}
	return now_ns < atomic_load_explicit(&contended_until_ns,
	                                     memory_order_relaxed);
}

/*
 * Ask the scheduler for short slices on the calling thread (Linux 6.12+
 * EEVDF: sched_attr.sched_runtime of a SCHED_OTHER thread is its slice
 * request). A thread that sleeps and is woken for short work — an engine
 * waiting on its doorbell — gets an earlier virtual deadline, so its
 * wake-up preempts a busy thread instead of waiting out that thread's
 * slice (milliseconds on a contended CPU). Its share of the CPU does not
 * change. Best effort: older kernels refuse or ignore it.
 */
void
spin_request_short_slice(uint64_t slice_ns)
{
#if defined(__linux__) && defined(SYS_sched_setattr)
	struct sched_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sched_policy = 0;              /* SCHED_OTHER */
	errno = 0;
	a.sched_nice = getpriority(PRIO_PROCESS, 0);  /* keep the nice */
	if (errno)
		return;
	a.sched_runtime = slice_ns;
	(void)syscall(SYS_sched_setattr, 0, &a, 0);
#else
	(void)slice_ns;
#endif
}

/*
 * Timer slack (spin.h): SWGPU_TIMER_SLACK_NS (0: leave the thread's
 * default), else 1 ns, the least the kernel takes (0 would mean "the
 * default" to PR_SET_TIMERSLACK). Once per thread start.
 */
void
spin_timer_slack_own_thread(void)
{
#if defined(__linux__)
	const char *env = getenv("SWGPU_TIMER_SLACK_NS");
	char *end = NULL;
	long slack = 1;

	if (env && *env) {
		long v = strtol(env, &end, 10);
		if (!*end && v >= 0)
			slack = v;
	}
	if (slack > 0)
		(void)prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * The CPU-contention test of the spin budgets (util/spin.h), white box.
 * The machine's runnable-thread count comes from a file of ours
 * (SWGPU_SPIN_LOADAVG, /proc/loadavg's format) and the sampler is given
 * its clock, so every decision is exact:
 *  - more runnable threads than CPUs in two samples in a row: contended,
 *    for 100 ms after the second (one sample is not enough);
 *  - this process's spinners (spin_enter) are not load;
 *  - neither are the partner process's (spin_peer_add: in shared mode
 *    swgpud's polling engines for a client, its clients' waiters for
 *    swgpud), and a counter removed is never called again;
 *  - the peer table holds SPIN_PEERS_MAX counters, then says no.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/spin.h"

#define MS 1000000ull

static char path[] = "/tmp/swgpu_spin_loadavg_XXXXXX";
static long cpus;

/* The file says `running` threads are runnable. */
static void
set_running(long running)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "0.50 0.40 0.30 %ld/321 4242\n", running);
	fclose(f);
}

/* Two samples 6 ms apart (SPIN_SAMPLE_NS is 5 ms), then the answer;
 * *t moves past the 100 ms a contended sample holds. */
static bool
sampled(uint64_t *t)
{
	bool r;

	spin_cpu_contended(*t);
	r = spin_cpu_contended(*t + 6 * MS);
	*t += 300 * MS;
	return r;
}

static unsigned peer_calls;

static unsigned
two_spinning(void *arg)
{
	(void)arg;
	peer_calls++;
	return 2;
}

static unsigned
none_spinning(void *arg)
{
	(void)arg;
	return 0;
}

static void
test_contended_needs_two_samples(void **state)
{
	uint64_t t = 1000 * MS;

	(void)state;
	set_running(cpus + 2);
	spin_cpu_contended(t);
	/* One sample only (the next is too soon to be taken). */
	assert_false(spin_cpu_contended(t + 1 * MS));
	assert_true(spin_cpu_contended(t + 6 * MS));
	/* It holds 100 ms after the second sample, then ends with a quiet
	 * sample. */
	set_running(1);
	assert_true(spin_cpu_contended(t + 50 * MS));
	assert_false(spin_cpu_contended(t + 200 * MS));
}

static void
test_own_and_peer_spinners_are_not_load(void **state)
{
	uint64_t t = 10000 * MS;

	(void)state;
	/* Two threads more than CPUs: contended. */
	set_running(cpus + 2);
	assert_true(sampled(&t));
	/* Two of them are ours, polling: not load. */
	spin_enter();
	spin_enter();
	assert_false(sampled(&t));
	spin_leave();
	spin_leave();
	assert_true(sampled(&t));
	/* Two of them are the partner process's pollers. */
	peer_calls = 0;
	assert_true(spin_peer_add(two_spinning, &peer_calls));
	assert_false(sampled(&t));
	assert_true(peer_calls > 0);
	/* One more runnable thread than the pollers explain: load. */
	set_running(cpus + 3);
	assert_true(sampled(&t));
	set_running(cpus + 2);
	spin_peer_remove(two_spinning, &peer_calls);
	unsigned calls = peer_calls;
	assert_true(sampled(&t));
	assert_int_equal(peer_calls, calls);
}

static void
test_peer_table_full(void **state)
{
	static int args[SPIN_PEERS_MAX + 1];

	(void)state;
	for (unsigned i = 0; i < SPIN_PEERS_MAX; i++)
		assert_true(spin_peer_add(none_spinning, &args[i]));
	assert_false(spin_peer_add(none_spinning, &args[SPIN_PEERS_MAX]));
	spin_peer_remove(none_spinning, &args[3]);
	assert_true(spin_peer_add(none_spinning, &args[SPIN_PEERS_MAX]));
	for (unsigned i = 0; i <= SPIN_PEERS_MAX; i++)
		spin_peer_remove(none_spinning, &args[i]);
	assert_int_equal(spin_peers_spinning(), 0);
}

int
main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	setenv("SWGPU_SPIN_LOADAVG", path, 1);
	unsetenv("SWGPU_SPIN_LOAD");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_contended_needs_two_samples),
		cmocka_unit_test(test_own_and_peer_spinners_are_not_load),
		cmocka_unit_test(test_peer_table_full),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(path);
	return r;
}

/* SPDX-License-Identifier: MIT */
/*
 * Time, statistics, figure lines and the data pattern every figure checks.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

bool bench_failed;

uint64_t
bench_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC: intervals must not jump with the wall clock. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU seconds of every thread of this process, the driver's included:
 * a driver that spins while it waits shows up here, not in wall time. */
double
bench_cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts v in place. */
double
bench_percentile(double *v, unsigned n, double p)
{
	unsigned i;

	if (n == 0)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	/* Nearest rank: the smallest sample with at least p of them at or
	 * below it. */
	i = (unsigned)(p * n + 0.999999);
	if (i > 0)
		i--;
	if (i >= n)
		i = n - 1;
	return v[i];
}

double
bench_median(double *v, unsigned n)
{
	if (n == 0)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void
bench_stats(struct bench_result *r, double *samples, unsigned n)
{
	r->value = bench_median(samples, n);
	r->min = n ? samples[0] : 0.0;
	r->max = n ? samples[n - 1] : 0.0;
	r->runs = n;
}

void
bench_report(const char *driver, const struct bench_result *r)
{
	if (r->na) {
		bench_report_na(driver, r->figure, r->unit, r->note);
		return;
	}
	printf("figure=%s driver=%s value=%.6g unit=%s runs=%u min=%.6g "
	       "max=%.6g", r->figure, driver, r->value, r->unit, r->runs,
	       r->min, r->max);
	/* Only figures that measure it; 0 means not measured. */
	if (r->cpu > 0)
		printf(" cpu=%.2f", r->cpu);
	printf(" verified=%s", r->verified ? "yes" : "no");
	if (r->note)
		printf(" note=%s", r->note);
	printf("\n");
	if (!r->verified)
		bench_failed = true;
	fflush(stdout);
}

void
bench_report_na(const char *driver, const char *figure, const char *unit,
                const char *note)
{
	printf("figure=%s driver=%s value=n/a unit=%s runs=0 note=%s\n",
	       figure, driver, unit, note ? note : "unsupported");
	fflush(stdout);
}

/* Does entry [e, e + elen) of --only select name? An entry selects
 * itself, the figures of a group it names ("gfx" selects "gfx_fill")
 * and the group of a figure it names ("gfx_fill" selects "gfx", which
 * then runs only that figure). */
static bool
entry_selects(const char *e, size_t elen, const char *name)
{
	size_t len = strlen(name);

	if (elen == len)
		return !strncmp(e, name, len);
	if (elen > len)
		return !strncmp(e, name, len) && e[len] == '_';
	return !strncmp(e, name, elen) && name[elen] == '_';
}

bool
bench_figure_wanted(const struct bench_opts *o, const char *group)
{
	const char *p = o->only;

	if (!p)
		return true;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t elen = end ? (size_t)(end - p) : strlen(p);
		if (entry_selects(p, elen, group))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

/* xorshift64* words, different for every seed and offset: a copy that
 * lands at the wrong offset or repeats a page never matches. */
void
bench_pattern(void *dst, uint64_t size, uint64_t seed)
{
	uint64_t *w = dst, x = seed * 0x9e3779b97f4a7c15ull + 1;
	uint64_t n = size / 8;

	for (uint64_t i = 0; i < n; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		w[i] = x * 0x2545f4914f6cdd1dull;
	}
	for (uint64_t i = n * 8; i < size; i++)
		((uint8_t *)dst)[i] = (uint8_t)(seed + i);
}

bool
bench_check(const char *what, const void *got, const void *want,
            uint64_t size)
{
	const uint8_t *g = got, *w = want;
	uint64_t first = size, bad = 0;

	if (!memcmp(got, want, size))
		return true;
	for (uint64_t i = 0; i < size; i++) {
		if (g[i] != w[i]) {
			if (first == size)
				first = i;
			bad++;
		}
	}
	fprintf(stderr, "swgpu_bench: %s: %llu of %llu bytes wrong, first "
	        "at %llu (got 0x%02x want 0x%02x)\n", what,
	        (unsigned long long)bad, (unsigned long long)size,
	        (unsigned long long)first, g[first], w[first]);
	bench_failed = true;
	return false;
}

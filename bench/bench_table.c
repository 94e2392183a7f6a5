/* SPDX-License-Identifier: MIT */
/*
 * The side-by-side table: figure lines collected from every driver's run,
 * printed as a Markdown table with the ratio of every driver to the
 * reference (the second, or --ref N), to host memcpy, and the targets of issue 7 (and of issues 4 and
 * 5 for the image and compute figures) judged on those ratios.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

enum target_kind {
	T_NONE,
	T_PEER_MIN,     /* A / B >= x          (A better when higher) */
	T_PEER_MAX,     /* A / B <= x          (A better when lower) */
	T_MEMCPY_MIN,   /* A / best memcpy >= x */
	T_ABS_MIN,      /* A >= x */
};

struct target {
	enum target_kind kind;
	double x;
};

/* The one list of figures the table knows, in print order; the host
 * figures have only a host column. */
static const struct figure_def {
	const char *name;
	bool host;
	bool bandwidth;            /* GB/s: has a memcpy ratio */
	struct target t[2];
} figures[] = {
	{ "memcpy_1t", true, true, { { T_NONE, 0 } } },
	{ "memcpy_2t", true, true, { { T_NONE, 0 } } },
	{ "upload", false, true,
	  { { T_MEMCPY_MIN, 0.9 }, { T_PEER_MIN, 1.0 } } },
	{ "copy_d2d", false, true,
	  { { T_MEMCPY_MIN, 0.9 }, { T_PEER_MIN, 1.0 } } },
	{ "readback", false, true,
	  { { T_MEMCPY_MIN, 0.9 }, { T_PEER_MIN, 1.0 } } },
	{ "fill", false, true, { { T_NONE, 0 } } },
	{ "rt_fence", false, false, { { T_PEER_MAX, 0.25 } } },
	{ "rt_fence_p99", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "rt_timeline", false, false, { { T_PEER_MAX, 0.25 } } },
	{ "rt_timeline_p99", false, false, { { T_PEER_MAX, 0.999 } } },
	/* Issue 20 item 8: below lavapipe's, with the CPUs contended too. */
	{ "rt_fence_loaded", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "rt_fence_loaded_p99", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "rt_timeline_loaded", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "rt_timeline_loaded_p99", false, false,
	  { { T_PEER_MAX, 0.999 } } },
	{ "small_copy_rate", false, false, { { T_PEER_MIN, 3.0 } } },
	{ "two_copies_1q", false, true, { { T_NONE, 0 } } },
	{ "two_copies_2q", false, true, { { T_NONE, 0 } } },
	{ "two_queue_speedup", false, false, { { T_ABS_MIN, 1.7 } } },
	{ "load_time", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "load_rss", false, false, { { T_PEER_MAX, 0.999 } } },
	{ "load_rss_base", true, false, { { T_NONE, 0 } } },
	{ "img_buf2img", false, true,
	  { { T_PEER_MIN, 0.9 }, { T_MEMCPY_MIN, 0.8 } } },
	{ "img_img2buf", false, true,
	  { { T_PEER_MIN, 0.9 }, { T_MEMCPY_MIN, 0.8 } } },
	/* Times: issue 5 asked for 0.2x lavapipe's speed (5x its time),
	 * issue 19 (compiled shaders) for 1.0x. */
	{ "saxpy", false, false,
	  { { T_PEER_MAX, 5.0 }, { T_PEER_MAX, 1.0 } } },
	{ "reduce", false, false,
	  { { T_PEER_MAX, 5.0 }, { T_PEER_MAX, 1.0 } } },
	{ "prefix_sum", false, false, { { T_PEER_MAX, 1.0 } } },
	{ "mandelbrot", false, false, { { T_PEER_MAX, 1.0 } } },
	{ "alu_flops", false, false, { { T_PEER_MIN, 1.0 } } },
	/* Frames per second: issue 17's target is 0.25x lavapipe, issue
	 * 19's 1.0x. */
	{ "gfx_tris", false, false,
	  { { T_PEER_MIN, 0.25 }, { T_PEER_MIN, 1.0 } } },
	{ "gfx_fill", false, false,
	  { { T_PEER_MIN, 0.25 }, { T_PEER_MIN, 1.0 } } },
	{ "gfx_scene", false, false,
	  { { T_PEER_MIN, 0.25 }, { T_PEER_MIN, 1.0 } } },
	/* Issue 21's 4-sample fill (bench_gfx_msaa.c): issue 19's 1.0x. */
	{ "gfx_msaa_fill", false, false, { { T_PEER_MIN, 1.0 } } },
	/* Issue 20 item 7 (bench_share.c): a small dispatch beside another
	 * VkDevice's endless or long dispatch; no target, reported. */
	{ "share_alone", false, false, { { T_NONE, 0 } } },
	{ "share_alone_p99", false, false, { { T_NONE, 0 } } },
	{ "share_endless", false, false, { { T_NONE, 0 } } },
	{ "share_endless_p99", false, false, { { T_NONE, 0 } } },
	{ "share_long", false, false, { { T_NONE, 0 } } },
	{ "share_long_p99", false, false, { { T_NONE, 0 } } },
};
#define NFIG (sizeof(figures) / sizeof(figures[0]))

#define MAX_REPEATS 16

/* One figure of one driver: a value per repetition of the whole run
 * (--repeat); the table shows their median and range. */
struct cell {
	bool present;
	bool na;
	bool verified;
	double value;           /* median of samples[], set before printing */
	double lo, hi;
	double samples[MAX_REPEATS];
	unsigned n;
	char unit[16];
	char note[40];
};

/* Column 0 is the host, 1.. the drivers in command-line order. */
static struct cell cells[BENCH_MAX_DRIVERS + 1][NFIG];
static char names[BENCH_MAX_DRIVERS + 1][64] = { "host" };

static void
field(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *p = line;

	out[0] = 0;
	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= size)
				n = size - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = 0;
			return;
		}
		p = strchr(p, ' ');
		if (p)
			p++;
	}
}

void
bench_table_add_line(unsigned driver, const char *line)
{
	char fig[64], drv[64], value[32], verified[8];
	struct cell *c = NULL;
	unsigned col = driver + 1;

	if (strncmp(line, "figure=", 7) || driver >= BENCH_MAX_DRIVERS)
		return;
	field(line, "figure", fig, sizeof(fig));
	field(line, "driver", drv, sizeof(drv));
	if (!strcmp(drv, "host"))
		col = 0;
	else if (!names[col][0])
		snprintf(names[col], sizeof(names[col]), "%s", drv);
	for (unsigned i = 0; i < NFIG; i++)
		if (!strcmp(figures[i].name, fig))
			c = &cells[col][i];
	if (!c)
		return;
	field(line, "value", value, sizeof(value));
	field(line, "verified", verified, sizeof(verified));
	field(line, "unit", c->unit, sizeof(c->unit));
	field(line, "note", c->note, sizeof(c->note));
	if (!c->present)
		c->verified = true;
	c->present = true;
	if (!strcmp(value, "n/a")) {
		c->na = true;
		return;
	}
	/* Wrong data in any repetition spoils the figure. */
	c->verified &= !strcmp(verified, "yes");
	if (c->n < MAX_REPEATS)
		c->samples[c->n++] = strtod(value, NULL);
}

static bool
usable(const struct cell *c)
{
	return c->present && !c->na && c->verified && c->n;
}

static void
fmt_value(char *out, size_t size, const struct cell *c)
{
	if (!c->present)
		snprintf(out, size, "-");
	else if (c->na)
		snprintf(out, size, "n/a (%s)", c->note);
	else if (!c->verified)
		snprintf(out, size, "WRONG DATA");
	else if (c->n > 1)
		snprintf(out, size, "%.4g [%.3g..%.3g]", c->value, c->lo,
		         c->hi);
	else
		snprintf(out, size, "%.4g", c->value);
}

/* Medians over the repetitions; n/a wins over values (it never changes
 * between repetitions of the same driver). */
static void
finalize(unsigned ndrivers)
{
	for (unsigned d = 0; d <= ndrivers; d++) {
		for (unsigned i = 0; i < NFIG; i++) {
			struct cell *c = &cells[d][i];
			double v[MAX_REPEATS];

			if (!c->present || c->na || !c->n)
				continue;
			memcpy(v, c->samples, c->n * sizeof(v[0]));
			c->value = bench_median(v, c->n);
			c->lo = v[0];
			c->hi = v[c->n - 1];
		}
	}
}

static const char *
target_text(const struct target *t, char *buf, size_t size,
            const char *a, const char *b)
{
	switch (t->kind) {
	case T_PEER_MIN:
		snprintf(buf, size, "%.20s/%.20s >= %.2g", a, b, t->x);
		break;
	case T_PEER_MAX:
		if (t->x < 1.0 && t->x > 0.99)
			snprintf(buf, size, "%.20s < %.20s", a, b);
		else
			snprintf(buf, size, "%.20s/%.20s <= %.2g", a, b, t->x);
		break;
	case T_MEMCPY_MIN:
		snprintf(buf, size, "%.20s/memcpy >= %.2g", a, t->x);
		break;
	case T_ABS_MIN:
		snprintf(buf, size, ">= %.2g", t->x);
		break;
	default:
		buf[0] = 0;
	}
	return buf;
}

/* 1 met, 0 not met, -1 cannot judge (a value missing or n/a). */
static int
target_met(const struct target *t, const struct cell *a,
           const struct cell *b, double memcpy_best)
{
	if (a->present && !a->na && !a->verified)
		return 0;       /* wrong data never meets a target */
	if (!usable(a))
		return -1;
	switch (t->kind) {
	case T_PEER_MIN:
		return usable(b) && b->value > 0 ?
			a->value / b->value >= t->x : -1;
	case T_PEER_MAX:
		return usable(b) && b->value > 0 ?
			a->value / b->value <= t->x : -1;
	case T_MEMCPY_MIN:
		return memcpy_best > 0 ? a->value / memcpy_best >= t->x : -1;
	case T_ABS_MIN:
		return a->value >= t->x;
	default:
		return -1;
	}
}

void
bench_table_print(FILE *f, unsigned ndrivers, unsigned ref)
{
	const struct cell *m1 = &cells[0][0], *m2 = &cells[0][1];
	double memcpy_1t, memcpy_best;
	/* a: the driver judged (the first, or the second when the first is
	 * the reference); b: the reference (--ref, default the second). */
	unsigned ia = ref == 1 ? 2 : 1, ib = ref;
	const char *a = names[ia], *b = ndrivers > 1 ? names[ib] : "B";
	char buf[256], buf2[96];

	finalize(ndrivers);
	memcpy_1t = usable(m1) ? m1->value : 0;
	memcpy_best = memcpy_1t;
	if (usable(m2) && m2->value > memcpy_best)
		memcpy_best = m2->value;
	fprintf(f, "\n| figure | unit | host");
	for (unsigned d = 1; d <= ndrivers; d++)
		fprintf(f, " | %s", names[d]);
	for (unsigned d = 1; ndrivers > 1 && d <= ndrivers; d++)
		if (d != ib)
			fprintf(f, " | %s/%s", names[d], b);
	fprintf(f, " | %s/memcpy1T | %s/memcpy | target | met |\n|---|---|---",
	        a, a);
	for (unsigned d = 1; d <= ndrivers; d++)
		fprintf(f, "|---");
	for (unsigned d = 2; ndrivers > 1 && d <= ndrivers; d++)
		fprintf(f, "|---");
	fprintf(f, "|---|---|---|---|\n");

	for (unsigned i = 0; i < NFIG; i++) {
		const struct figure_def *def = &figures[i];
		const struct cell *ca = &cells[ia][i], *cb = &cells[ib][i];
		const char *unit = cells[def->host ? 0 : 1][i].unit;
		bool any = cells[0][i].present;
		char met[64] = "";

		for (unsigned d = 1; d <= ndrivers; d++)
			any |= cells[d][i].present;
		if (!any)
			continue;
		fmt_value(buf, sizeof(buf), &cells[0][i]);
		fprintf(f, "| %s | %s | %s", def->name, unit[0] ? unit : "",
		        def->host ? buf : "");
		for (unsigned d = 1; d <= ndrivers; d++) {
			fmt_value(buf, sizeof(buf), &cells[d][i]);
			fprintf(f, " | %s", def->host ? "" : buf);
		}
		for (unsigned d = 1; ndrivers > 1 && d <= ndrivers; d++) {
			const struct cell *cd = &cells[d][i];

			if (d == ib)
				continue;
			if (!def->host && usable(cd) && usable(cb) &&
			    cb->value > 0)
				fprintf(f, " | %.3g", cd->value / cb->value);
			else
				fprintf(f, " | ");
		}
		if (!def->host && def->bandwidth && usable(ca) &&
		    memcpy_1t > 0)
			fprintf(f, " | %.3g | %.3g", ca->value / memcpy_1t,
			        ca->value / memcpy_best);
		else
			fprintf(f, " | | ");
		buf[0] = 0;
		for (unsigned t = 0; t < 2; t++) {
			int ok;

			if (def->t[t].kind == T_NONE)
				continue;
			target_text(&def->t[t], buf2, sizeof(buf2), a, b);
			ok = target_met(&def->t[t], ca, cb, memcpy_best);
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
			         "%s%s", t && buf[0] ? "; " : "", buf2);
			snprintf(met + strlen(met), sizeof(met) - strlen(met),
			         "%s%s", t && met[0] ? "; " : "",
			         ok > 0 ? "met" : ok == 0 ? "NOT MET" : "n/a");
		}
		fprintf(f, " | %s | %s |\n", buf, met);
	}
	fflush(f);
}

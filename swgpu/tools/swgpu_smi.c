/* SPDX-License-Identifier: MIT */
/*
 * swgpu-smi: what every swgpu device of this user is doing — engines,
 * contexts, memory, faults — read from the status pages their owners
 * publish (swgpu/swgpu_status.h). Never locks a device and never trusts
 * a page: each is checked (magic, version, size, counts) and copied
 * under its seqlock; a page of a dead process is removed.
 *
 *   swgpu-smi [--json] [--watch [SECONDS]]
 *
 * Exit status: 0, or 1 when no swgpu device is running (or bad usage).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "smi.h"

static void
skip(struct smi_scan *s, const char *file, const char *reason)
{
	if (s->skipped_count == SMI_MAX_SKIPPED)
		return;
	snprintf(s->skipped[s->skipped_count].file,
	         sizeof(s->skipped[0].file), "%s", file);
	snprintf(s->skipped[s->skipped_count].reason,
	         sizeof(s->skipped[0].reason), "%s", reason);
	s->skipped_count++;
}

/* A consistent copy of the page: between two equal even reads of seq
 * (the writer makes it odd while it writes). pread, not mmap: a mapped
 * file that shrinks under the reader (a new owner re-creating it with
 * O_TRUNC after pid reuse, or anything else writing the directory)
 * raises SIGBUS on access; a short pread is only a skipped page. The
 * page cache is what the writer's MAP_SHARED mapping writes to, and each
 * pread is a system call, so the three reads are ordered. */
static bool
read_seq(int fd, uint64_t *seq)
{
	return pread(fd, seq, sizeof(*seq),
	             offsetof(struct swgpu_status_page, seq)) ==
	       (ssize_t)sizeof(*seq);
}

static const char *
copy_page(int fd, struct swgpu_status_page *out)
{
	for (int tries = 0; tries < 200; tries++) {
		uint64_t a, b;
		if (!read_seq(fd, &a))
			return "truncated while being read";
		if (!(a & 1)) {
			if (pread(fd, out, sizeof(*out), 0) !=
			    (ssize_t)sizeof(*out))
				return "truncated while being read";
			if (!read_seq(fd, &b))
				return "truncated while being read";
			if (a == b)
				return NULL;
		}
		struct timespec ts = { 0, 500000 };
		nanosleep(&ts, NULL);
	}
	return "always being written (no consistent copy)";
}

/* The page's owner is gone (or its pid is another process now). */
static bool
owner_dead(const struct swgpu_status_page *p)
{
	if (p->pid <= 0)
		return true;
	if (kill(p->pid, 0) != 0 && errno == ESRCH)
		return true;
	uint64_t start = swgpu_status_pid_start(p->pid);
	return p->pid_start && start && start != p->pid_start;
}

/* Terminate the strings and bound the counts: the rest of the tool
 * then trusts the copy. */
static const char *
check_page(struct swgpu_status_page *p)
{
	if (p->magic != SWGPU_STATUS_MAGIC)
		return "not a swgpu status page (bad magic)";
	if (p->version != SWGPU_STATUS_VERSION)
		return "status page of another swgpu version";
	if (p->size != sizeof(*p))
		return "status page of another size";
	if (p->engine_count > SWGPU_STATUS_ENGINES ||
	    p->context_count > SWGPU_STATUS_CONTEXTS ||
	    p->process_count > SWGPU_STATUS_PROCESSES)
		return "status page with impossible counts";
	p->program[sizeof(p->program) - 1] = 0;
	p->device[sizeof(p->device) - 1] = 0;
	p->mode[sizeof(p->mode) - 1] = 0;
	for (unsigned e = 0; e < p->engine_count; e++)
		p->engines[e].name[sizeof(p->engines[e].name) - 1] = 0;
	for (unsigned c = 0; c < p->context_count; c++)
		p->contexts[c].program[sizeof(p->contexts[c].program) - 1] = 0;
	for (unsigned i = 0; i < p->process_count; i++)
		p->processes[i].program[sizeof(p->processes[i].program) - 1] =
			0;
	return NULL;
}

static void
read_one(struct smi_scan *s, const char *name)
{
	char path[4352];
	struct stat st;
	const char *why = NULL;

	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		skip(s, name, strerror(errno));
		return;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		skip(s, name, "not a regular file");
		close(fd);
		return;
	}
	if ((size_t)st.st_size != sizeof(struct swgpu_status_page)) {
		char r[96];
		snprintf(r, sizeof(r), "size %lld, a status page has %zu "
		         "bytes (truncated or another version)",
		         (long long)st.st_size,
		         sizeof(struct swgpu_status_page));
		skip(s, name, r);
		close(fd);
		return;
	}
	struct swgpu_status_page *p = &s->gpu[s->gpu_count];
	uint64_t magic = 0;
	/* the header never changes once written: judge it first */
	if (pread(fd, &magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    magic != SWGPU_STATUS_MAGIC)
		why = "not a swgpu status page (bad magic)";
	else
		why = copy_page(fd, p);
	close(fd);
	if (!why)
		why = check_page(p);
	if (why) {
		skip(s, name, why);
		return;
	}
	if (owner_dead(p)) {
		/* its process died without closing the device */
		if (unlink(path) == 0)
			s->stale_removed++;
		return;
	}
	if (s->gpu_count < SMI_MAX_GPUS)
		s->gpu_count++;
}

static int
by_pid(const void *a, const void *b)
{
	const struct swgpu_status_page *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->device_index < y->device_index ? -1 :
	       x->device_index > y->device_index;
}

static void
scan(struct smi_scan *s)
{
	struct timespec ts;
	DIR *d;
	struct dirent *de;

	s->gpu_count = s->skipped_count = s->stale_removed = 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	s->now_unix_ns = (unsigned long long)ts.tv_sec * 1000000000ull +
	                 (unsigned long long)ts.tv_nsec;
	d = opendir(s->dir);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL)
		if (!strncmp(de->d_name, "status-", 7) &&
		    s->gpu_count < SMI_MAX_GPUS)
			read_one(s, de->d_name);
	closedir(d);
	qsort(s->gpu, s->gpu_count, sizeof(s->gpu[0]), by_pid);
}

static void
usage(FILE *out)
{
	fprintf(out,
	        "usage: swgpu-smi [--json] [--watch [SECONDS]]\n"
	        "Shows every swgpu device of this user: engines (busy %%, "
	        "the job running as\nctx:queue:seqno), contexts per process "
	        "(priority, jobs, GPU time), memory per\nheap, evictions, "
	        "faults and hangs. Devices publish a status page unless\n"
	        "SWGPU_PUBLISH=0.\n"
	        "  --json            one JSON document (docs in README.md)\n"
	        "  --watch [S]       refresh every S seconds (default 1) "
	        "until interrupted\n");
}

int
main(int argc, char **argv)
{
	bool json = false, watch = false;
	double period = 1.0;
	static struct smi_scan s;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--watch")) {
			watch = true;
			if (i + 1 < argc && argv[i + 1][0] != '-') {
				char *end;
				period = strtod(argv[++i], &end);
				if (*end || !(period >= 0.05 &&
				               period <= 3600)) {
					fprintf(stderr, "swgpu-smi: --watch "
					        "wants seconds in 0.05..3600\n");
					return 1;
				}
			}
		} else if (!strcmp(argv[i], "--help") ||
		           !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "swgpu-smi: unknown argument '%s'\n",
			        argv[i]);
			usage(stderr);
			return 1;
		}
	}
	if (!swgpu_status_dir(s.dir, sizeof(s.dir))) {
		fprintf(stderr, "swgpu-smi: status directory path too long\n");
		return 1;
	}
	for (;;) {
		scan(&s);
		if (watch && !json && isatty(STDOUT_FILENO))
			fputs("\033[H\033[2J", stdout);
		if (json)
			smi_print_json(stdout, &s);
		else
			smi_print_table(stdout, &s);
		for (unsigned i = 0; i < s.skipped_count && !json; i++)
			fprintf(stderr, "swgpu-smi: skipped %s/%s: %s\n",
			        s.dir, s.skipped[i].file, s.skipped[i].reason);
		fflush(stdout);
		if (!watch)
			break;
		struct timespec ts = { (time_t)period,
		                       (long)((period - (time_t)period) *
		                              1e9) };
		nanosleep(&ts, NULL);
	}
	if (!s.gpu_count) {
		fprintf(stderr, "swgpu-smi: no swgpu device is running (no "
		        "status page in %s)\n", s.dir);
		return 1;
	}
	return 0;
}

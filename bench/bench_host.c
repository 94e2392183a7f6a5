/* SPDX-License-Identifier: MIT */
/*
 * Host figures: memcpy bandwidth (the limit a copy engine on this machine
 * can reach) and the cost of loading a driver, measured in a fresh child
 * process so that its peak RSS is the driver's and the loader's alone.
 */
#include "bench.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct memcpy_slice {
	uint8_t *dst;
	const uint8_t *src;
	size_t size;
};

static void *
memcpy_thread(void *arg)
{
	struct memcpy_slice *s = arg;

	memcpy(s->dst, s->src, s->size);
	return NULL;
}

/* One copy of size bytes by nthreads threads (the caller is one of them),
 * each moving a contiguous slice. Thread start-up is inside the time: a
 * driver pays the same to hand work to its engines. */
static uint64_t
memcpy_run(uint8_t *dst, const uint8_t *src, size_t size, unsigned nthreads)
{
	struct memcpy_slice s[2];
	pthread_t t;
	size_t half = size / 2 & ~(size_t)63;
	uint64_t t0 = bench_now_ns();

	if (nthreads == 1) {
		memcpy(dst, src, size);
		return bench_now_ns() - t0;
	}
	s[0] = (struct memcpy_slice){ dst, src, half };
	s[1] = (struct memcpy_slice){ dst + half, src + half, size - half };
	if (pthread_create(&t, NULL, memcpy_thread, &s[1])) {
		memcpy_thread(&s[1]);
		memcpy_thread(&s[0]);
		return bench_now_ns() - t0;
	}
	memcpy_thread(&s[0]);
	pthread_join(t, NULL);
	return bench_now_ns() - t0;
}

void
bench_host_memcpy(const struct bench_opts *o)
{
	size_t size = (size_t)o->copy_size;
	uint8_t *src = malloc(size), *dst = malloc(size);
	static const char *names[2] = { "memcpy_1t", "memcpy_2t" };
	double samples[64];

	if (!src || !dst) {
		fprintf(stderr, "swgpu_bench: memcpy: out of memory\n");
		bench_failed = true;
		free(src);
		free(dst);
		return;
	}
	bench_pattern(src, size, 1);
	/* Fault every page in before timing: the drivers' buffers are
	 * resident too once the warm-up ran. */
	memset(dst, 0, size);
	for (unsigned nt = 1; nt <= 2; nt++) {
		struct bench_result r = {
			.figure = names[nt - 1], .unit = "GB/s",
			.verified = true,
		};
		unsigned n = 0;
		double cpu = 0, wall = 0;

		for (unsigned i = 0; i < o->warmup + o->runs && n < 64; i++) {
			double cpu0 = bench_cpu_s();
			uint64_t ns = memcpy_run(dst, src, size, nt);

			if (i >= o->warmup) {
				samples[n++] = (double)size / (double)ns;
				wall += (double)ns / 1e9;
				cpu += bench_cpu_s() - cpu0;
			}
			r.verified &= bench_check(names[nt - 1], dst, src,
			                          size);
			/* The next run must rewrite what this one left. */
			memset(dst, (int)i, 4096);
		}
		r.cpu = wall > 0 ? cpu / wall : 0;
		bench_stats(&r, samples, n);
		bench_report("host", &r);
	}
	free(src);
	free(dst);
}

/* Peak RSS of this process since exec, in KiB (0 if unknown). Read here
 * rather than from the parent's rusage: a forked child's ru_maxrss also
 * counts the parent's pages it carried until exec. */
static long
vm_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kib = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

int
bench_load_baseline(void)
{
	printf("load_ns=0 hwm_kib=%ld\n", vm_hwm_kib());
	return 0;
}

/* --load-child: load the driver, create an instance and a device, print
 * the time it took and the peak RSS. Run in a fresh process by
 * bench_load(). */
int
bench_load_child(void)
{
	uint64_t t0 = bench_now_ns();
	struct bench_vk vk;
	VkResult r = bench_vk_init(&vk);
	uint64_t ns = bench_now_ns() - t0;

	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: load child: %s\n",
		        bench_vk_result(r));
		bench_vk_finish(&vk);
		return 1;
	}
	printf("load_ns=%llu hwm_kib=%ld\n", (unsigned long long)ns,
	       vm_hwm_kib());
	fflush(stdout);
	/* Teardown is outside the figure but must still work. */
	bench_vk_finish(&vk);
	return 0;
}

/* Runs `/proc/self/exe --load-child` (or --load-baseline), returns the
 * load time and peak RSS in KiB it reports. */
static bool
load_once(const char *mode, uint64_t *ns, long *rss_kib)
{
	int fd[2];
	pid_t pid;
	int status;
	char *hwm;
	char buf[256];
	ssize_t len = 0, got;

	if (pipe(fd))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execl("/proc/self/exe", "swgpu_bench", mode, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while ((size_t)len < sizeof(buf) - 1 &&
	       (got = read(fd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += got;
	close(fd[0]);
	buf[len] = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return false;
	hwm = strstr(buf, "hwm_kib=");
	if (strncmp(buf, "load_ns=", 8) || !hwm)
		return false;
	*ns = strtoull(buf + 8, NULL, 10);
	*rss_kib = strtol(hwm + 8, NULL, 10);
	return *rss_kib > 0;
}

void
bench_load(const struct bench_opts *o, const char *driver)
{
	struct bench_result t = {
		.figure = "load_time", .unit = "ms", .verified = true,
	};
	struct bench_result m = {
		.figure = "load_rss", .unit = "MiB", .verified = true,
	};
	double ts[64], ms[64];
	unsigned n = 0;
	uint64_t ns;
	long kib;

	for (unsigned i = 0; i < o->warmup + o->runs && n < 64; i++) {
		if (!load_once("--load-child", &ns, &kib) || !ns) {
			fprintf(stderr, "swgpu_bench: load child failed\n");
			t.verified = m.verified = false;
			break;
		}
		if (i < o->warmup)
			continue;
		ts[n] = (double)ns / 1e6;
		ms[n] = (double)kib / 1024.0;
		n++;
	}
	bench_stats(&t, ts, n);
	bench_stats(&m, ms, n);
	bench_report(driver, &t);
	bench_report(driver, &m);
	/* What the same process weighs without any Vulkan instance: the
	 * part of load_rss no driver can save. */
	if (load_once("--load-baseline", &ns, &kib)) {
		struct bench_result b = {
			.figure = "load_rss_base", .unit = "MiB",
			.value = (double)kib / 1024.0, .runs = 1,
			.verified = true,
		};
		b.min = b.max = b.value;
		bench_report("host", &b);
	}
}

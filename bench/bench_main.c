/* SPDX-License-Identifier: MIT */
/*
 * swgpu_bench entry point: options, the figure groups in order, and the
 * multi-driver mode that runs one child per --driver-files manifest (the
 * loader reads VK_DRIVER_FILES once per process) and prints the table.
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
usage(FILE *f)
{
	fprintf(f,
"usage: swgpu_bench [--quick] [--runs N] [--only GROUPS] [--ref N]\n"
"                   [--driver-files MANIFEST [--driver-env VAR=VALUE]...\n"
"                    [--driver-name NAME]]...\n"
"  --quick          tiny sizes, one warm-up and one run; data still checked\n"
"  --runs N         timed runs per figure after the warm-up (default 5)\n"
"  --only GROUPS    comma list of memcpy,copy,small,queues,sync,image,\n"
"                   compute,gfx,load (default: all), or single figures\n"
"                   (compute_mandelbrot, gfx_fill, sync_loaded, ...)\n"
"  --driver-files M run on the driver of manifest M; give it twice or more\n"
"                   to compare drivers side by side (the first is judged\n"
"                   against the second). Without it, the loader's choice\n"
"                   (VK_DRIVER_FILES) is measured.\n"
"  --driver-env V=X the driver of the --driver-files before runs with V=X\n"
"                   in its environment (repeatable; e.g. SWGPU_SHADER=jit);\n"
"                   its column is named <driver>-X unless --driver-name\n"
"  --driver-name N  name of the driver of the --driver-files before\n"
"  --load-threads N busy threads beside the loaded round trips\n"
"                   (default: CPUs + 1)\n"
"  --ref N          the driver (1-based, default 2) the table divides\n"
"                   every other driver by and judges the first against\n"
"  --repeat N       with --driver-files: the whole comparison N times\n"
"                   (1..16); the table shows the median [min..max] of\n"
"                   the N per-run medians\n"
"Exit status: 0 all data verified, 1 a figure moved wrong data or failed.\n");
}

static void
opts_sizes(struct bench_opts *o)
{
	if (o->quick) {
		o->warmup = 1;
		o->runs = o->runs ? o->runs : 1;
		o->copy_size = 4ull << 20;
		o->rt_iters = 50;
		o->small_batches = 2;
		o->image_dim = 256;
		o->compute_n = 1u << 16;
		o->scan_n = 1u << 16;
		o->mandel_dim = 128;
		o->mandel_iter = 256;
		o->alu_groups = 16;
		o->alu_iters = 64;
		o->gfx_tris = 4096;
		o->gfx_fill_w = 256;
		o->gfx_fill_h = 144;
		o->gfx_cubes = 4;
	} else {
		o->warmup = 1;
		o->runs = o->runs ? o->runs : 5;
		o->copy_size = 256ull << 20;
		o->rt_iters = 2000;
		o->small_batches = 100;
		o->image_dim = 4096;
		o->compute_n = 16u << 20;
		o->scan_n = 1u << 20;
		o->mandel_dim = 1024;
		o->mandel_iter = 256;
		o->alu_groups = 256;
		o->alu_iters = 512;
		o->gfx_tris = 131072;
		o->gfx_fill_w = 1920;
		o->gfx_fill_h = 1080;
		o->gfx_cubes = 64;
	}
}

/* Every figure of the driver the loader picks, in this process. */
static int
run_driver(const struct bench_opts *o, bool with_host)
{
	struct bench_vk vk;
	VkResult r;
	char driver[64];

	if (with_host && bench_figure_wanted(o, "memcpy"))
		bench_host_memcpy(o);
	r = bench_vk_init(&vk);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "swgpu_bench: no usable Vulkan device: %s\n",
		        bench_vk_result(r));
		bench_vk_finish(&vk);
		return 1;
	}
	fprintf(stderr, "swgpu_bench: %s (%s), %s\n", vk.driver,
	        vk.props.deviceName, o->quick ? "quick" : "full");
	if (bench_figure_wanted(o, "copy") || bench_figure_wanted(o, "small") ||
	    bench_figure_wanted(o, "queues"))
		bench_transfer(&vk, o);
	if (bench_figure_wanted(o, "sync"))
		bench_sync(&vk, o);
	if (bench_figure_wanted(o, "image"))
		bench_image(&vk, o);
	if (bench_figure_wanted(o, "compute"))
		bench_compute(&vk, o);
	if (bench_figure_wanted(o, "gfx"))
		bench_gfx(&vk, o);
	if (bench_figure_wanted(o, "gfx"))
		bench_gfx_msaa(&vk, o);
	if (bench_figure_wanted(o, "share"))
		bench_share(&vk, o);
	snprintf(driver, sizeof(driver), "%s", vk.driver);
	bench_vk_finish(&vk);
	/* After the device is gone: the children must not share the machine
	 * with our buffers' page faults or the driver's threads. */
	if (bench_figure_wanted(o, "load"))
		bench_load(o, driver);
	return bench_failed ? 1 : 0;
}

#define DRIVER_MAX_ENV 4

/* One --driver-files entry with its --driver-env / --driver-name. */
struct driver_spec {
	const char *manifest;
	const char *env[DRIVER_MAX_ENV];
	unsigned nenv;
	const char *name;
};

/* In the child: the driver's environment and the name its lines carry
 * (bench_vk.c reads SWGPU_BENCH_DRIVER_NAME / _SUFFIX). */
static void
child_env(const struct driver_spec *d)
{
	char suffix[128] = "";

	setenv("VK_DRIVER_FILES", d->manifest, 1);
	/* The older name would otherwise win on older loaders. */
	unsetenv("VK_ICD_FILENAMES");
	for (unsigned i = 0; i < d->nenv; i++) {
		const char *eq = strchr(d->env[i], '=');
		char var[128];
		size_t n = (size_t)(eq - d->env[i]);

		if (n >= sizeof(var))
			continue;
		memcpy(var, d->env[i], n);
		var[n] = 0;
		setenv(var, eq + 1, 1);
		snprintf(suffix + strlen(suffix),
		         sizeof(suffix) - strlen(suffix), "%s%s",
		         suffix[0] ? "-" : "", eq + 1);
	}
	if (d->name)
		setenv("SWGPU_BENCH_DRIVER_NAME", d->name, 1);
	else
		unsetenv("SWGPU_BENCH_DRIVER_NAME");
	if (suffix[0])
		setenv("SWGPU_BENCH_DRIVER_SUFFIX", suffix, 1);
	else
		unsetenv("SWGPU_BENCH_DRIVER_SUFFIX");
}

/* Re-run ourselves on one driver, echo and collect its lines. */
static int
run_child(unsigned idx, const struct driver_spec *drv, char **child_argv)
{
	int fd[2], status;
	pid_t pid;
	FILE *in;
	char line[512];

	if (pipe(fd))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		child_env(drv);
		execv("/proc/self/exe", child_argv);
		_exit(127);
	}
	close(fd[1]);
	in = fdopen(fd[0], "r");
	while (in && fgets(line, sizeof(line), in)) {
		fputs(line, stdout);
		fflush(stdout);
		bench_table_add_line(idx, line);
	}
	if (in)
		fclose(in);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	if (WEXITSTATUS(status))
		fprintf(stderr, "swgpu_bench: run on %s failed (exit %d)\n",
		        drv->manifest, WEXITSTATUS(status));
	return WEXITSTATUS(status) ? 1 : 0;
}

static const char *const groups[] = {
	"memcpy", "copy", "small", "queues", "sync", "image", "compute",
	"gfx", "load", "share",
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

/* The host figures into the table too: through a temporary file, so that
 * they are read back like a child's lines. */
static void
host_figures(const struct bench_opts *o)
{
	FILE *mem = tmpfile();
	char line[512];
	int saved;

	if (!mem) {
		bench_host_memcpy(o);
		return;
	}
	saved = dup(STDOUT_FILENO);
	fflush(stdout);
	dup2(fileno(mem), STDOUT_FILENO);
	bench_host_memcpy(o);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(mem);
	while (fgets(line, sizeof(line), mem)) {
		fputs(line, stdout);
		bench_table_add_line(0, line);
	}
	fclose(mem);
}

static void
build_child_argv(char **av, char *self, const struct bench_opts *o,
                 char *runs_buf, size_t runs_size, const char *group)
{
	unsigned n = 0;

	av[n++] = self;
	av[n++] = "--child";
	if (o->quick)
		av[n++] = "--quick";
	snprintf(runs_buf, runs_size, "%u", o->runs);
	av[n++] = "--runs";
	av[n++] = runs_buf;
	if (o->load_threads) {
		static char load_buf[16];

		snprintf(load_buf, sizeof(load_buf), "%u", o->load_threads);
		av[n++] = "--load-threads";
		av[n++] = load_buf;
	}
	av[n++] = "--only";
	av[n++] = (char *)group;
	av[n] = NULL;
	/* Only single figures of this group asked for ("gfx_fill"): the
	 * child gets those entries instead of the whole group. */
	static char child_only[256];
	size_t glen = strlen(group), used = 0;
	for (const char *p = o->only ? o->only : ""; *p;) {
		const char *end = strchr(p, ',');
		size_t elen = end ? (size_t)(end - p) : strlen(p);
		if (elen == glen && !strncmp(p, group, glen))
			return;         /* the whole group */
		if (elen > glen && !strncmp(p, group, glen) && p[glen] == '_' &&
		    used + elen + 2 < sizeof(child_only)) {
			if (used)
				child_only[used++] = ',';
			memcpy(child_only + used, p, elen);
			used += elen;
		}
		if (!end)
			break;
		p = end + 1;
	}
	child_only[used] = 0;
	if (used)
		av[n - 1] = child_only;
}

int
main(int argc, char **argv)
{
	struct bench_opts o = { 0 };
	struct driver_spec drivers[BENCH_MAX_DRIVERS] = { { 0 } };
	unsigned nman = 0, repeat = 1, ref = 2;
	bool child = false;
	char *child_argv[16], runs_buf[16];
	int status = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--load-child"))
			return bench_load_child();
		if (!strcmp(a, "--load-baseline"))
			return bench_load_baseline();
		if (!strcmp(a, "--quick")) {
			o.quick = true;
		} else if (!strcmp(a, "--child")) {
			child = true;
		} else if (!strcmp(a, "--runs") && i + 1 < argc) {
			long n = strtol(argv[++i], NULL, 10);

			if (n < 1 || n > 63) {
				fprintf(stderr, "swgpu_bench: --runs 1..63\n");
				return 2;
			}
			o.runs = (unsigned)n;
		} else if (!strcmp(a, "--repeat") && i + 1 < argc) {
			long n = strtol(argv[++i], NULL, 10);

			if (n < 1 || n > 16) {
				fprintf(stderr, "swgpu_bench: --repeat "
				        "1..16\n");
				return 2;
			}
			repeat = (unsigned)n;
		} else if (!strcmp(a, "--only") && i + 1 < argc) {
			o.only = argv[++i];
		} else if (!strcmp(a, "--driver-files") && i + 1 < argc) {
			if (nman == BENCH_MAX_DRIVERS) {
				fprintf(stderr, "swgpu_bench: at most %d "
				        "drivers\n", BENCH_MAX_DRIVERS);
				return 2;
			}
			drivers[nman++].manifest = argv[++i];
		} else if (!strcmp(a, "--driver-env") && i + 1 < argc) {
			struct driver_spec *d = &drivers[nman ? nman - 1 : 0];

			if (!nman || d->nenv == DRIVER_MAX_ENV ||
			    !strchr(argv[i + 1], '=')) {
				fprintf(stderr, "swgpu_bench: --driver-env "
				        "VAR=VALUE after its --driver-files, "
				        "at most %d\n", DRIVER_MAX_ENV);
				return 2;
			}
			d->env[d->nenv++] = argv[++i];
		} else if (!strcmp(a, "--driver-name") && i + 1 < argc) {
			if (!nman) {
				fprintf(stderr, "swgpu_bench: --driver-name "
				        "after its --driver-files\n");
				return 2;
			}
			drivers[nman - 1].name = argv[++i];
		} else if (!strcmp(a, "--load-threads") && i + 1 < argc) {
			long n = strtol(argv[++i], NULL, 10);

			if (n < 1 || n > 64) {
				fprintf(stderr, "swgpu_bench: --load-threads "
				        "1..64\n");
				return 2;
			}
			o.load_threads = (unsigned)n;
		} else if (!strcmp(a, "--ref") && i + 1 < argc) {
			ref = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	opts_sizes(&o);
	if (nman && (ref < 1 || ref > nman || (nman > 1 && ref == 0))) {
		fprintf(stderr, "swgpu_bench: --ref 1..%u\n", nman);
		return 2;
	}
	if (nman == 1)
		ref = 1;
	if (nman == 0)
		return run_driver(&o, !child);

	/* Group by group, every driver in its own child process in turn
	 * (never two at once), so that a change in machine load between
	 * groups hits all drivers alike and the ratios stay fair. The host
	 * figures run here, right before the copies they bound. */
	for (unsigned rep = 0; rep < repeat; rep++) {
		for (unsigned g = 0; g < NGROUPS; g++) {
			if (!bench_figure_wanted(&o, groups[g]))
				continue;
			if (!strcmp(groups[g], "memcpy")) {
				host_figures(&o);
				continue;
			}
			build_child_argv(child_argv, argv[0], &o, runs_buf,
			                 sizeof(runs_buf), groups[g]);
			for (unsigned d = 0; d < nman; d++) {
				if (run_child(d, &drivers[d], child_argv))
					status = 1;
			}
		}
	}
	bench_table_print(stdout, nman, ref);
	if (bench_failed)
		status = 1;
	return status;
}

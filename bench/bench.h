/* SPDX-License-Identifier: MIT */
/*
 * swgpu_bench: transfer, synchronization, image and compute figures of any
 * Vulkan driver, measured through the system loader (select the driver with
 * VK_DRIVER_FILES, or give --driver-files to compare several in one run).
 *
 * Every figure is the median of several timed runs after a warm-up, and
 * every run's data is checked on the host: a driver that is fast because it
 * skipped work fails the run instead of looking good.
 *
 * Output: one line per figure,
 *   figure=<name> driver=<name> value=<x> unit=<u> runs=<n> min=<x> max=<x>
 *          cpu=<process CPU time / wall time> verified=yes|no [note=<word>]
 * and, with two or more drivers, a side-by-side table (bench_table.c).
 */
#ifndef SWGPU_BENCH_H
#define SWGPU_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

#define BENCH_MAX_DRIVERS 4
#define BENCH_MAX_SAMPLES 4096

/* Bounded waits: the biggest job here (256 MiB on a slow driver) takes well
 * under a second; a driver that needs more than this is hung. */
#define BENCH_TIMEOUT_NS (60ull * 1000 * 1000 * 1000)

struct bench_opts {
	bool quick;        /* tiny sizes, 1 warm-up + 1 run, still verified */
	unsigned runs;     /* timed runs per figure (median over them) */
	unsigned warmup;   /* untimed runs before them */
	uint64_t copy_size;        /* bytes per big transfer */
	unsigned rt_iters;         /* round trips per figure */
	unsigned small_batches;    /* 64-submit batches per small-copy run */
	uint32_t image_dim;        /* image figures: dim x dim RGBA8 */
	uint32_t compute_n;        /* elements of saxpy and reduce */
	uint32_t scan_n;           /* elements of prefix_sum (<= 1 M) */
	uint32_t mandel_dim;       /* mandelbrot: dim x dim (16 divides) */
	uint32_t mandel_iter;      /* mandelbrot: iterations at most */
	uint32_t alu_groups;       /* alu_flops: 256-wide workgroups (2^k) */
	uint32_t alu_iters;        /* alu_flops: rounds per invocation */
	unsigned load_threads;     /* sync_loaded: busy threads (0: CPUs+1) */
	uint32_t gfx_tris;         /* triangles per frame (gfx_tris) */
	uint32_t gfx_fill_w, gfx_fill_h; /* gfx_fill target */
	uint32_t gfx_cubes;        /* cubes of gfx_scene (a square number) */
	const char *only;          /* comma list of figure groups, or NULL */
};

/* One measured figure. */
struct bench_result {
	const char *figure;
	const char *unit;
	double value;      /* median (or the derived value) */
	double min, max;
	unsigned runs;
	double cpu;        /* process CPU seconds / wall seconds while timed */
	bool verified;
	bool na;           /* not measurable on this driver; note says why */
	const char *note;
};

struct bench_buffer {
	VkBuffer buffer;
	VkDeviceMemory memory;
	VkDeviceSize size;
	uint32_t mem_type;
	bool coherent;
	void *map;         /* host-visible buffers only */
};

struct bench_queue {
	VkQueue queue;
	uint32_t family;
	uint32_t index;
	VkCommandPool pool;
	VkFence fence;
};

enum bench_mem_role {
	BENCH_MEM_DEVICE_LOCAL,
	BENCH_MEM_UPLOAD,
	BENCH_MEM_READBACK,
};

struct bench_vk {
	VkInstance instance;
	VkPhysicalDevice phys;
	VkDevice device;
	VkPhysicalDeviceProperties props;
	VkPhysicalDeviceMemoryProperties mem;
	uint32_t family_count;
	VkQueueFamilyProperties families[16];
	char driver[64];    /* "swgpu", "lavapipe", ... */

	struct bench_queue xfer;     /* transfer figures and round trips */
	struct bench_queue xfer2;    /* second transfer queue, if any */
	bool has_xfer2;
	const char *xfer2_note;      /* why there is none / where it is */
	struct bench_queue compute;  /* queue with COMPUTE, if any */
	bool has_compute;
	struct bench_queue gfx;      /* queue with GRAPHICS, if any */
	bool has_gfx;                /* ... and dynamicRendering enabled */
	bool timeline;               /* timelineSemaphore enabled */
};

/* bench_util.c: time, statistics, reporting, pattern. */
uint64_t bench_now_ns(void);
double bench_cpu_s(void);
double bench_median(double *v, unsigned n);
double bench_percentile(double *v, unsigned n, double p);
void bench_stats(struct bench_result *r, double *samples, unsigned n);
void bench_report(const char *driver, const struct bench_result *r);
void bench_report_na(const char *driver, const char *figure,
                     const char *unit, const char *note);
bool bench_figure_wanted(const struct bench_opts *o, const char *group);
void bench_pattern(void *dst, uint64_t size, uint64_t seed);
bool bench_check(const char *what, const void *got, const void *want,
                 uint64_t size);
extern bool bench_failed;

/* bench_vk.c: instance, device, queues, buffers, submission. */
VkResult bench_vk_init(struct bench_vk *vk);
void bench_vk_finish(struct bench_vk *vk);
VkResult bench_buffer_create(struct bench_vk *vk, VkDeviceSize size,
                             VkBufferUsageFlags usage,
                             enum bench_mem_role role,
                             struct bench_buffer *b);
void bench_buffer_destroy(struct bench_vk *vk, struct bench_buffer *b);
void bench_buffer_invalidate(struct bench_vk *vk, struct bench_buffer *b);
int bench_mem_type(const struct bench_vk *vk, uint32_t type_bits,
                   enum bench_mem_role role);
VkCommandBuffer bench_cmd_begin(struct bench_vk *vk, struct bench_queue *q);
VkResult bench_cmd_end(VkCommandBuffer cb);
void bench_cmd_free(struct bench_vk *vk, struct bench_queue *q,
                    VkCommandBuffer cb);
VkResult bench_submit_wait(struct bench_vk *vk, struct bench_queue *q,
                           VkCommandBuffer cb, uint64_t *ns);
void bench_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage,
                   VkAccessFlags src, VkPipelineStageFlags dst_stage,
                   VkAccessFlags dst);
const char *bench_vk_result(VkResult r);

/* Figure groups. Each reports its own lines and returns false only on an
 * error that makes further figures meaningless. */
void bench_host_memcpy(const struct bench_opts *o);
void bench_load(const struct bench_opts *o, const char *driver);
int bench_load_child(void);
int bench_load_baseline(void);
bool bench_transfer(struct bench_vk *vk, const struct bench_opts *o);
bool bench_sync(struct bench_vk *vk, const struct bench_opts *o);
bool bench_image(struct bench_vk *vk, const struct bench_opts *o);
bool bench_compute(struct bench_vk *vk, const struct bench_opts *o);
/* bench_compute_scan.c, bench_compute_alu.c: issue 19's compute figures,
 * read back through rb (big enough for each output). */
struct bench_buffer;
void bench_compute_scan(struct bench_vk *vk, const struct bench_opts *o,
                        struct bench_buffer *rb);
void bench_compute_alu(struct bench_vk *vk, const struct bench_opts *o,
                       struct bench_buffer *rb);
bool bench_gfx(struct bench_vk *vk, const struct bench_opts *o);
/* bench_gfx_msaa.c: the multisampled figures (group gfx). */
bool bench_gfx_msaa(struct bench_vk *vk, const struct bench_opts *o);
/* bench_share.c: a small dispatch's latency beside another VkDevice's
 * endless or long dispatch (issue 20 item 7). */
void bench_share(struct bench_vk *vk, const struct bench_opts *o);

/* bench_table.c: the side-by-side table from collected lines. */
void bench_table_add_line(unsigned driver, const char *line);
/* ref: the 1-based driver column every other driver is divided by. */
void bench_table_print(FILE *f, unsigned ndrivers, unsigned ref);

#endif /* SWGPU_BENCH_H */

/* SPDX-License-Identifier: MIT */
/*
 * image_layout: the measurement behind the image memory layout choice.
 *
 * A 4096x4096 R8G8B8A8 image moved the ways our engines move images:
 * buffer -> image copy, image -> buffer copy, a same-size nearest blit and
 * a 2:1 linear blit, for
 *   (a) linear layout with row pitch = row bytes (tight) and padded by
 *       256 B, through the real image packets (COPY_PITCHED, BLIT) run by
 *       exec_ib() on a VA space (no engine thread: the packet cost only);
 *   (b) tiled layouts (4x4-texel tiles of 64 B, and 64 KiB tiles of
 *       128x128 texels), emulated here with the best host loops we can
 *       write (memcpy of tile rows; the 2:1 blit is a specialised 2x2
 *       average through the engine's (fast) codecs, tiled addressing);
 *       the same host loops on a linear image separate the layout's
 *       cost from the engine's general blit loop.
 * A host memcpy of the same bytes is the bandwidth ceiling. Each figure
 * is the best of several runs; every result is checked against the
 * source, so a fast wrong path cannot win.
 *
 * Usage: image_layout [--quick]   (--quick: 512x512, one run; for ctest)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/format/format.h"
#include "kmd/mem.h"
#include "hw/packet/packet_exec.h"
#include "kmd/vaspace.h"

#define MIB (1024ull * 1024ull)

struct gbuf {
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

static struct swgpu_mem mem;
static struct swgpu_vaspace *vs;
static struct exec_env env;
static swgpu_fault_info fault;
static struct gbuf ib;
static uint32_t dim = 4096;
static bool have_half_ref;      /* the first linear run's 2:1 result */
static int reps = 5;

static void
die(const char *what)
{
	fprintf(stderr, "image_layout: %s\n", what);
	exit(1);
}

static struct gbuf
gbuf_new(uint64_t size)
{
	struct gbuf b = { .size = size };
	struct swgpu_bo *bo;

	if (bo_create_in(&mem, NULL, size, SWGPU_HEAP_SYSTEM, 0, &bo) ||
	    vaspace_map(vs, bo, 0, size, SWGPU_VA_READ | SWGPU_VA_WRITE,
	                &b.va))
		die("out of memory");
	b.cpu = bo->cpu;
	swgpu_bo_destroy(bo);
	memset(b.cpu, 0, size);     /* fault the pages in before timing */
	return b;
}

static void
run_packet(uint32_t ndw)
{
	if (!exec_ib(&env, ib.va, ndw, 1)) {
		fprintf(stderr, "fault: %s\n", fault.message);
		die("packet faulted");
	}
}

/* Best wall time of reps runs of fn, in seconds. */
static double
best_of(void (*fn)(void *), void *arg)
{
	double best = 1e30;

	for (int i = 0; i < reps; i++) {
		uint64_t t0 = swgpu_now_ns();
		fn(arg);
		double s = (double)(swgpu_now_ns() - t0) * 1e-9;
		if (s < best)
			best = s;
	}
	return best;
}

static void
report(const char *layout, const char *op, double s, uint64_t bytes)
{
	printf("%-22s %-26s %9.2f ms %9.2f GB/s\n", layout, op, s * 1e3,
	       (double)bytes / s * 1e-9);
}

/* ------------------------------------------------------------------ */
/* (a) Linear layout through the packets                               */
/* ------------------------------------------------------------------ */

struct lin {
	struct gbuf buf, img, out, half;
	uint64_t pitch;
};

static void
lin_upload(void *arg)
{
	struct lin *l = arg;
	struct swgpu_pitched d = { l->img.va, l->pitch, 0 };
	struct swgpu_pitched s = { l->buf.va, dim * 4ull, 0 };

	run_packet(swgpu_emit_copy_pitched((uint32_t *)(void *)ib.cpu, &d,
	                                   &s, dim * 4, dim, 1));
}

static void
lin_readback(void *arg)
{
	struct lin *l = arg;
	struct swgpu_pitched d = { l->out.va, dim * 4ull, 0 };
	struct swgpu_pitched s = { l->img.va, l->pitch, 0 };

	run_packet(swgpu_emit_copy_pitched((uint32_t *)(void *)ib.cpu, &d,
	                                   &s, dim * 4, dim, 1));
}

static struct swgpu_blit_surface
lin_surf(const struct gbuf *b, uint64_t pitch, uint32_t n)
{
	return (struct swgpu_blit_surface){
		.va = b->va, .row_pitch = pitch, .slice_pitch = 0,
		.format = SWGPU_FORMAT_R8G8B8A8_UNORM,
		.width = n, .height = n, .depth = 1,
	};
}

/* Same-size nearest blit image -> out (as an image of the same pitch). */
static void
lin_blit_copy(void *arg)
{
	struct lin *l = arg;
	struct swgpu_blit_surface s = lin_surf(&l->img, l->pitch, dim);
	struct swgpu_blit_surface d = lin_surf(&l->out, l->pitch, dim);
	const int32_t box[6] = { 0, 0, 0, (int32_t)dim, (int32_t)dim, 1 };

	run_packet(swgpu_emit_blit((uint32_t *)(void *)ib.cpu, &s, &d, box,
	                           box, 0));
}

static void
lin_blit_half(void *arg)
{
	struct lin *l = arg;
	struct swgpu_blit_surface s = lin_surf(&l->img, l->pitch, dim);
	struct swgpu_blit_surface d = lin_surf(&l->half, dim * 2ull, dim / 2);
	const int32_t sb[6] = { 0, 0, 0, (int32_t)dim, (int32_t)dim, 1 };
	const int32_t db[6] = { 0, 0, 0, (int32_t)dim / 2,
	                        (int32_t)dim / 2, 1 };

	run_packet(swgpu_emit_blit((uint32_t *)(void *)ib.cpu, &s, &d, sb,
	                           db, SWGPU_BLIT_LINEAR));
}

/* ------------------------------------------------------------------ */
/* (b) Tiled layouts, emulated on the host                             */
/* ------------------------------------------------------------------ */

struct tiled {
	uint8_t *buf, *img, *out, *half;
	uint32_t tw;            /* tile width = height in texels */
};

/* Byte offset of texel (x, y) in a row-major grid of tw x tw tiles. */
static inline uint64_t
tile_addr(uint32_t tw, uint32_t x, uint32_t y)
{
	if (tw == dim)          /* one tile as wide as the image: linear */
		return ((uint64_t)y * dim + x) * 4;
	uint64_t tiles_per_row = dim / tw;
	uint64_t tile = (uint64_t)(y / tw) * tiles_per_row + x / tw;

	return (tile * tw * tw + (uint64_t)(y % tw) * tw + x % tw) * 4;
}

static void
tiled_upload(void *arg)
{
	struct tiled *t = arg;
	const uint32_t tb = t->tw * 4;

	for (uint32_t y = 0; y < dim; y++) {
		const uint8_t *row = t->buf + (uint64_t)y * dim * 4;
		for (uint32_t x = 0; x < dim; x += t->tw)
			memcpy(t->img + tile_addr(t->tw, x, y), row + x * 4,
			       tb);
	}
}

static void
tiled_readback(void *arg)
{
	struct tiled *t = arg;
	const uint32_t tb = t->tw * 4;

	for (uint32_t y = 0; y < dim; y++) {
		uint8_t *row = t->out + (uint64_t)y * dim * 4;
		for (uint32_t x = 0; x < dim; x += t->tw)
			memcpy(row + x * 4, t->img + tile_addr(t->tw, x, y),
			       tb);
	}
}

/* Same-size, same-layout nearest blit: tiles are contiguous. */
static void
tiled_blit_copy(void *arg)
{
	struct tiled *t = arg;

	memcpy(t->out, t->img, (uint64_t)dim * dim * 4);
}

/* 2:1 linear: the same filter the engine runs (decode 4, weigh,
 * encode), sampling the tiled src. Half-size output stays linear. */
static void
tiled_blit_half(void *arg)
{
	struct tiled *t = arg;
	const swgpu_format_info *fi =
		swgpu_format_get_info(SWGPU_FORMAT_R8G8B8A8_UNORM);
	const uint32_t h = dim / 2;
	const format_decode_fn dec = format_decoder(fi);
	const format_encode_fn enc = format_encoder(fi);

	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < h; x++) {
			/* Centre of dst texel maps to src 2x + 1: the 2x2
			 * block at (2x, 2y), weights 1/4. */
			struct texel a[4], r;
			for (int k = 0; k < 4; k++)
				dec(fi, t->img + tile_addr(
					t->tw, 2 * x + (k & 1),
					2 * y + (k >> 1)), &a[k]);
			for (int c = 0; c < 4; c++)
				r.f[c] = (a[0].f[c] + a[1].f[c] + a[2].f[c] +
				          a[3].f[c]) * 0.25;
			enc(fi, &r, t->half + ((uint64_t)y * h + x) * 4);
		}
}

static void
host_memcpy(void *arg)
{
	struct tiled *t = arg;

	memcpy(t->out, t->buf, (uint64_t)dim * dim * 4);
}

/* ------------------------------------------------------------------ */

static void
check(const uint8_t *a, const uint8_t *b, uint64_t n, const char *what)
{
	if (memcmp(a, b, n))
		die(what);
}

static void
bench_linear(const char *name, uint64_t pitch, const uint8_t *ref,
             uint8_t *half_ref)
{
	const uint64_t bytes = (uint64_t)dim * dim * 4;
	struct lin l = { .pitch = pitch };

	l.buf = gbuf_new(bytes);
	l.img = gbuf_new(pitch * dim);
	l.out = gbuf_new(pitch * dim);
	l.half = gbuf_new(bytes / 4);
	memcpy(l.buf.cpu, ref, bytes);

	report(name, "buffer->image copy", best_of(lin_upload, &l), bytes);
	report(name, "image->buffer copy", best_of(lin_readback, &l), bytes);
	check(l.out.cpu, ref, bytes, "linear readback mismatch");
	report(name, "blit 1:1 nearest", best_of(lin_blit_copy, &l), bytes);
	for (uint32_t y = 0; y < dim; y++)
		check(l.out.cpu + y * pitch, ref + (uint64_t)y * dim * 4,
		      dim * 4ull, "linear blit mismatch");
	report(name, "blit 2:1 linear", best_of(lin_blit_half, &l), bytes);
	if (!have_half_ref)
		memcpy(half_ref, l.half.cpu, bytes / 4);
	have_half_ref = true;
	check(l.half.cpu, half_ref, bytes / 4, "linear 2:1 blit mismatch");
	vaspace_unmap(vs, l.buf.va);
	vaspace_unmap(vs, l.img.va);
	vaspace_unmap(vs, l.out.va);
	vaspace_unmap(vs, l.half.va);
}

static void
bench_tiled(const char *name, uint32_t tw, const uint8_t *ref,
            const uint8_t *half_ref)
{
	const uint64_t bytes = (uint64_t)dim * dim * 4;
	struct tiled t = { .tw = tw };

	t.buf = malloc(bytes);
	t.img = malloc(bytes);
	t.out = malloc(bytes);
	t.half = malloc(bytes / 4);
	if (!t.buf || !t.img || !t.out || !t.half)
		die("out of memory");
	memcpy(t.buf, ref, bytes);
	memset(t.img, 0, bytes);
	memset(t.out, 0, bytes);
	memset(t.half, 0, bytes / 4);

	report(name, "buffer->image copy", best_of(tiled_upload, &t), bytes);
	report(name, "image->buffer copy", best_of(tiled_readback, &t),
	       bytes);
	check(t.out, ref, bytes, "tiled readback mismatch");
	report(name, "blit 1:1 nearest", best_of(tiled_blit_copy, &t), bytes);
	report(name, "blit 2:1 linear", best_of(tiled_blit_half, &t), bytes);
	/* Same filter, summed in another order: +-1 allowed. */
	for (uint64_t i = 0; i < bytes / 4; i++)
		if (abs((int)t.half[i] - (int)half_ref[i]) > 1)
			die("tiled 2:1 blit mismatch");
	if (tw == 4) {
		memset(t.out, 0, bytes);
		report("host", "memcpy", best_of(host_memcpy, &t), bytes);
	}
	free(t.buf);
	free(t.img);
	free(t.out);
	free(t.half);
}

int
main(int argc, char **argv)
{
	swgpu_config cfg;

	if (argc > 1 && !strcmp(argv[1], "--quick")) {
		dim = 512;
		reps = 1;
	}
	swgpu_config_init(&cfg);
	cfg.system_size = 2048 * MIB;
	mem_init(&mem, &cfg);
	if (vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096, &vs))
		die("vaspace");
	env = (struct exec_env){
		.vs = vs, .max_ib_depth = 4, .max_ib_size_dw = 1u << 16,
		.hang_timeout_ns = 10ull * 1000000000ull, .fault = &fault,
	};
	ib = gbuf_new(64 * 1024);

	const uint64_t bytes = (uint64_t)dim * dim * 4;
	uint8_t *ref = malloc(bytes);
	uint8_t *half_ref = calloc(1, bytes / 4);
	uint32_t x = 0x9e3779b9u;
	if (!ref || !half_ref)
		die("out of memory");
	for (uint64_t i = 0; i < bytes; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		ref[i] = (uint8_t)x;
	}

	printf("image_layout: %ux%u R8G8B8A8 (%.0f MiB), best of %d\n", dim,
	       dim, (double)bytes / MIB, reps);
	bench_linear("linear tight pitch", dim * 4ull, ref, half_ref);
	bench_linear("linear pitch+256", dim * 4ull + 256, ref, half_ref);
	/* The host loops on a linear image: separates the layout's cost
	 * from the engine's (general) blit against the specialised loop. */
	bench_tiled("linear (host loops)", dim, ref, half_ref);
	bench_tiled("tiled 4x4 (64 B)", 4, ref, half_ref);
	bench_tiled("tiled 128x128 (64 KiB)", 128, ref, half_ref);

	free(ref);
	free(half_ref);
	vaspace_destroy(vs);
	mem_fini(&mem);
	return 0;
}

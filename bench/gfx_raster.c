/* SPDX-License-Identifier: MIT */
/*
 * gfx_raster: throughput of the graphics engine on the swgpu API (no
 * Vulkan): frames of draw packets submitted to a graphics queue, with
 * SPIR-V shaders compiled at build time, timed from submit to the
 * queue going idle.
 *
 *   tris       100 000 small triangles (about 8 pixels each) at
 *              1920x1080, pass-through vertex and fragment shaders
 *   tris_z     the same, depth only (no fragment shader): vertex
 *              shading, setup and raster without fragment shading
 *   fill       4 full-screen alpha-blended quads at 1920x1080
 *   fill_tri8  8 draws of one full-screen triangle (no vertex buffer,
 *              a pushed colour) blended SRC_ALPHA, ONE_MINUS_SRC_ALPHA
 *              for colour and ONE, ONE_MINUS_SRC_ALPHA for alpha: what
 *              swgpu_bench's gfx_fill draws
 *   scene      20 000 larger triangles, depth-tested (LESS) over a
 *              cleared D32 buffer, front to back and back to front
 *
 * Prints one line per figure: ms per frame (median of --runs frames
 * after a warm-up), frames/s, and Mtri/s or Mpixel/s. --quick runs each
 * once on a small target and checks a pixel (what ctest runs).
 * SWGPU_GFX_THREADS picks the raster threads as usual.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "gfx_bench_color.spv.h"
#include "gfx_bench_fulltri.spv.h"
#include "gfx_bench_pc.spv.h"
#include "gfx_bench_pos.spv.h"

#define CHECK(c)                                                           \
	do {                                                               \
		if (!(c)) {                                                \
			fprintf(stderr, "gfx_raster: %s failed at line %d\n", \
			        #c, __LINE__);                             \
			exit(1);                                           \
		}                                                          \
	} while (0)
#define OK(call) CHECK((call) == SWGPU_OK)

struct buf {
	swgpu_bo *bo;
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

struct bench {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	swgpu_shader *vs, *fs, *vs_tri, *fs_pc;
	uint32_t w, h;
	struct buf rt, zb, cmd, state, vb;
	uint32_t ncmd;
	uint64_t nstate;
};

struct vert {
	float pos[4];
	float col[4];
};

static struct buf
buf_new(struct bench *b, uint64_t size, uint32_t va_flags)
{
	struct buf x = { .size = size };
	void *p;

	OK(swgpu_bo_create(b->dev, size, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	                   &x.bo));
	OK(swgpu_bo_map(x.bo, &p));
	x.cpu = p;
	OK(swgpu_va_map(b->ctx, x.bo, 0, size, va_flags, &x.va));
	memset(x.cpu, 0, size);
	return x;
}

static void
buf_free(struct bench *b, struct buf *x)
{
	swgpu_va_unmap(b->ctx, x->va);
	swgpu_bo_unmap(x->bo);
	swgpu_bo_destroy(x->bo);
}

static swgpu_shader *
shader(struct bench *b, const uint32_t *code, size_t size,
       swgpu_shader_stage stage)
{
	swgpu_shader_info info;
	swgpu_shader *s = NULL;
	char err[256] = "";

	memset(&info, 0, sizeof(info));
	info.code = code;
	info.code_size = size;
	info.entry_point = "main";
	info.stage = stage;
	info.error = err;
	info.error_size = sizeof(err);
	if (swgpu_shader_create(b->ctx, &info, &s) != SWGPU_OK) {
		fprintf(stderr, "gfx_raster: shader: %s\n", err);
		exit(1);
	}
	return s;
}

static void
bench_init(struct bench *b, uint32_t w, uint32_t h, uint64_t vb_size)
{
	swgpu_config cfg;

	memset(b, 0, sizeof(*b));
	swgpu_config_init(&cfg);
	cfg.vram_size = 1ull << 30;
	cfg.bar_size = 64ull << 20;
	cfg.system_size = 2ull << 30;
	OK(swgpu_device_open(&cfg, &b->dev));
	OK(swgpu_context_create(b->dev, &b->ctx));
	OK(swgpu_queue_create(b->ctx, SWGPU_ENGINE_GRAPHICS, 0,
	                      SWGPU_PRIORITY_NORMAL, &b->q));
	b->vs = shader(b, gfx_bench_pos_spv, sizeof(gfx_bench_pos_spv),
	               SWGPU_SHADER_STAGE_VERTEX);
	b->fs = shader(b, gfx_bench_color_spv, sizeof(gfx_bench_color_spv),
	               SWGPU_SHADER_STAGE_FRAGMENT);
	b->vs_tri = shader(b, gfx_bench_fulltri_spv,
	                   sizeof(gfx_bench_fulltri_spv),
	                   SWGPU_SHADER_STAGE_VERTEX);
	b->fs_pc = shader(b, gfx_bench_pc_spv, sizeof(gfx_bench_pc_spv),
	                  SWGPU_SHADER_STAGE_FRAGMENT);
	b->w = w;
	b->h = h;
	const uint32_t rw = SWGPU_VA_READ | SWGPU_VA_WRITE;
	b->rt = buf_new(b, (uint64_t)w * h * 4, rw);
	b->zb = buf_new(b, (uint64_t)w * h * 4, rw);
	b->cmd = buf_new(b, 1u << 20, SWGPU_VA_READ);
	b->state = buf_new(b, 1u << 20, SWGPU_VA_READ);
	b->vb = buf_new(b, vb_size, SWGPU_VA_READ);
}

static void
bench_fini(struct bench *b)
{
	buf_free(b, &b->rt);
	buf_free(b, &b->zb);
	buf_free(b, &b->cmd);
	buf_free(b, &b->state);
	buf_free(b, &b->vb);
	swgpu_shader_destroy(b->vs);
	swgpu_shader_destroy(b->fs);
	swgpu_shader_destroy(b->vs_tri);
	swgpu_shader_destroy(b->fs_pc);
	swgpu_queue_destroy(b->q);
	swgpu_context_destroy(b->ctx);
	swgpu_device_close(b->dev);
}

static uint64_t
put(struct bench *b, const void *p, uint64_t size)
{
	uint64_t at = (b->nstate + 63) & ~63ull;

	CHECK(at + size <= b->state.size);
	memcpy(b->state.cpu + at, p, size);
	b->nstate = at + size;
	return b->state.va + at;
}

static uint32_t *
emit(struct bench *b, uint32_t n)
{
	uint32_t *p = (uint32_t *)(void *)b->cmd.cpu + b->ncmd;

	b->ncmd += n;
	CHECK(b->ncmd * 4u <= b->cmd.size);
	return p;
}

struct frame {
	bool depth;            /* D32 attachment, LESS test + writes */
	bool no_fs;
	bool blend;            /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA */
	uint32_t nverts;
	uint32_t tri8;         /* fill_tri8: draws of a full-screen triangle */
};

/* Record one frame: a pass clearing colour (and depth), the draw. */
static void
record(struct bench *b, const struct frame *f)
{
	struct swgpu_pass pass;
	struct swgpu_pipeline_state ps;

	b->ncmd = 0;
	b->nstate = 0;
	memset(&pass, 0, sizeof(pass));
	pass.color_count = 1;
	pass.layer_count = 1;
	pass.area_width = b->w;
	pass.area_height = b->h;
	struct swgpu_attachment *a = &pass.color[0];
	a->va = b->rt.va;
	a->row_pitch = (uint64_t)b->w * 4;
	a->layer_pitch = a->row_pitch * b->h;
	a->format = SWGPU_FORMAT_B8G8R8A8_UNORM;
	a->width = b->w;
	a->height = b->h;
	a->layers = 1;
	a->load_op = SWGPU_LOAD_CLEAR;
	a->samples = 1;
	if (f->depth) {
		pass.depth = *a;
		pass.depth.va = b->zb.va;
		pass.depth.format = SWGPU_FORMAT_D32_SFLOAT;
		pass.depth.clear[0] = 0x3f800000;
	}
	memset(&ps, 0, sizeof(ps));
	ps.size = sizeof(ps);
	ps.vs_code_va = swgpu_shader_code_va(b->vs);
	ps.fs_code_va = f->no_fs ? 0 : swgpu_shader_code_va(b->fs);
	ps.binding_count = 1;
	ps.bindings[0].stride = sizeof(struct vert);
	ps.attrib_count = 2;
	ps.attribs[1].location = 1;
	ps.attribs[0].format = ps.attribs[1].format =
		SWGPU_FORMAT_R32G32B32A32_SFLOAT;
	ps.attribs[1].offset = 16;
	struct swgpu_raster_state *rs = &ps.state;
	rs->topology = SWGPU_TOPOLOGY_TRIANGLE_LIST;
	rs->line_width = 1;
	rs->depth_test = rs->depth_write = f->depth;
	rs->depth_compare = SWGPU_COMPARE_LESS;
	rs->color_write_enable = 1;
	rs->viewport_count = rs->scissor_count = 1;
	rs->viewports[0] = (struct swgpu_viewport){ 0, 0, (float)b->w,
	                                            (float)b->h, 0, 1 };
	rs->scissors[0] = (struct swgpu_scissor){ 0, 0, b->w, b->h };
	rs->blend[0].write_mask = 0xf;
	if (f->blend) {
		rs->blend[0].enable = 1;
		rs->blend[0].src_color = rs->blend[0].src_alpha = 6;
		rs->blend[0].dst_color = rs->blend[0].dst_alpha = 7;
	}
	swgpu_emit_begin_pass(emit(b, SWGPU_LEN_BEGIN_PASS),
	                      put(b, &pass, sizeof(pass)));
	swgpu_emit_set_pipeline(emit(b, SWGPU_LEN_SET_PIPELINE),
	                        put(b, &ps, sizeof(ps)));
	uint32_t *p = emit(b, SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	swgpu_emit_set_vertex_buffers_header(p, 0, 1);
	swgpu_put_vertex_buffer(p + 3, b->vb.va,
	                        (uint64_t)f->nverts * sizeof(struct vert),
	                        sizeof(struct vert));
	if (f->tri8) {
		ps.vs_code_va = swgpu_shader_code_va(b->vs_tri);
		ps.fs_code_va = swgpu_shader_code_va(b->fs_pc);
		ps.binding_count = ps.attrib_count = 0;
		rs->blend[0].src_alpha = 1;     /* ONE */
		swgpu_emit_set_pipeline(emit(b, SWGPU_LEN_SET_PIPELINE),
		                        put(b, &ps, sizeof(ps)));
		for (uint32_t i = 0; i < f->tri8; i++) {
			struct swgpu_bind_table bt;
			const float c[4] = { 0.1f * (float)i, 0.5f,
			                     1.0f - 0.1f * (float)i, 0.25f };
			memset(&bt, 0, sizeof(bt));
			memcpy(bt.push_constants, c, sizeof(c));
			swgpu_emit_draw(emit(b, SWGPU_LEN_DRAW),
			                put(b, &bt, sizeof(bt)), 3, 1, 0, 0);
		}
	} else {
		swgpu_emit_draw(emit(b, SWGPU_LEN_DRAW), 0, f->nverts, 1, 0,
		                0);
	}
	swgpu_emit_end_pass(emit(b, SWGPU_LEN_END_PASS));
}

static double
run_frame(struct bench *b)
{
	swgpu_ib ib = { .va = b->cmd.va, .size_dw = b->ncmd };
	swgpu_submit_info si;

	memset(&si, 0, sizeof(si));
	si.ibs = &ib;
	si.ib_count = 1;
	uint64_t t0 = swgpu_now_ns();
	OK(swgpu_submit(b->q, &si, NULL));
	OK(swgpu_queue_wait(b->q, 0, UINT64_MAX));
	return (double)(swgpu_now_ns() - t0) / 1e6;
}

static int
cmp_double(const void *a, const void *c)
{
	double x = *(const double *)a, y = *(const double *)c;
	return x < y ? -1 : x > y;
}

static double
median_ms(struct bench *b, uint32_t runs)
{
	double t[64];

	run_frame(b);                       /* warm-up */
	if (runs > 64)
		runs = 64;
	for (uint32_t i = 0; i < runs; i++)
		t[i] = run_frame(b);
	qsort(t, runs, sizeof(t[0]), cmp_double);
	return t[runs / 2];
}

static uint64_t rng = 0x853c49e6748fea9bull;
static float
frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)(rng >> 11) / 9007199254740992.0f;
}

/* n triangles of about `pixels` pixels each at random places; z grows
 * with i (or falls, back to front), colours vary. */
static void
fill_triangles(struct bench *b, uint32_t n, double pixels, bool back_to_front)
{
	struct vert *v = (struct vert *)(void *)b->vb.cpu;
	const float sx = (float)sqrt(2.0 * pixels) * 2.0f / (float)b->w;
	const float sy = (float)sqrt(2.0 * pixels) * 2.0f / (float)b->h;

	for (uint32_t i = 0; i < n; i++) {
		float cx = frand() * 2 - 1, cy = frand() * 2 - 1;
		float z = (float)i / (float)n;
		if (back_to_front)
			z = 1.0f - z;
		for (int k = 0; k < 3; k++) {
			struct vert t = {
				{ cx + (k == 1 ? sx : 0), cy + (k == 2 ? sy : 0),
				  z * 0.99f, 1 },
				{ frand(), frand(), frand(), 0.5f },
			};
			v[3 * i + k] = t;
		}
	}
}

static void
fill_quads(struct bench *b, uint32_t n)
{
	struct vert *v = (struct vert *)(void *)b->vb.cpu;
	const float xs[6] = { -1, 1, 1, -1, 1, -1 }, ys[6] = { -1, -1, 1, -1,
	                                                        1, 1 };
	for (uint32_t q = 0; q < n; q++)
		for (int i = 0; i < 6; i++) {
			struct vert t = {
				{ xs[i], ys[i], 0.5f, 1 },
				{ 0.2f * (float)q, 0.5f, 1.0f - 0.2f * (float)q,
				  0.5f },
			};
			v[6 * q + i] = t;
		}
}

static bool
wanted(const char *only, const char *name)
{
	if (!only)
		return true;
	size_t n = strlen(name);
	for (const char *p = only; (p = strstr(p, name)); p += n)
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

int
main(int argc, char **argv)
{
	bool quick = false;
	uint32_t runs = 7;
	const char *only = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (uint32_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else {
			fprintf(stderr, "usage: gfx_raster [--quick] "
			        "[--runs N] [--only tris,tris_z,fill,fill_tri8,scene]\n");
			return 2;
		}
	}
	const uint32_t w = quick ? 256 : 1920, h = quick ? 144 : 1080;
	const uint32_t ntris = quick ? 2000 : 100000;
	const uint32_t nscene = quick ? 500 : 20000;
	if (quick)
		runs = 1;
	struct bench b;
	bench_init(&b, w, h, (uint64_t)ntris * 3 * sizeof(struct vert));
	swgpu_config cfg;
	swgpu_config_init(&cfg);
	printf("gfx_raster: %ux%u, %u raster threads\n", w, h,
	       cfg.gfx_threads);

	struct frame f = { .nverts = 3 * ntris };
	double ms;
	fill_triangles(&b, ntris, 8.0, false);
	if (wanted(only, "tris")) {
		record(&b, &f);
		ms = median_ms(&b, runs);
		printf("figure=tris value=%.2f unit=ms fps=%.1f mtris=%.2f\n",
		       ms, 1000.0 / ms, ntris / ms / 1000.0);
	}
	if (wanted(only, "tris_z")) {
		f.no_fs = true;
		f.depth = true;
		record(&b, &f);
		ms = median_ms(&b, runs);
		printf("figure=tris_z value=%.2f unit=ms fps=%.1f "
		       "mtris=%.2f\n", ms, 1000.0 / ms, ntris / ms / 1000.0);
	}
	if (wanted(only, "fill")) {
		memset(&f, 0, sizeof(f));
		f.blend = true;
		f.nverts = 6 * 4;
		fill_quads(&b, 4);
		record(&b, &f);
		ms = median_ms(&b, runs);
		printf("figure=fill value=%.2f unit=ms fps=%.1f "
		       "mpixels=%.1f\n", ms, 1000.0 / ms,
		       4.0 * w * h / ms / 1000.0);
		/* four quads blended over the clear (0), each c * a +
		 * d * (1 - a) with a = 0.5; BGRA8 */
	const uint8_t *px = b.rt.cpu + ((uint64_t)(h / 2) * w + w / 2) * 4;
	double want[4] = { 0, 0, 0, 0 };
	for (uint32_t q = 0; q < 4; q++) {
		const double c[4] = { 1.0 - 0.2 * q, 0.5, 0.2 * q, 0.5 };
		for (int k = 0; k < 4; k++)
			want[k] = 0.5 * c[k] + 0.5 * want[k];
	}
	for (int k = 0; k < 4; k++)
		CHECK(fabs(px[k] - want[k] * 255.0) <= 2.0);
	}

	if (wanted(only, "fill_tri8")) {
		memset(&f, 0, sizeof(f));
		f.blend = true;
		f.tri8 = 8;
		record(&b, &f);
		ms = median_ms(&b, runs);
		printf("figure=fill_tri8 value=%.2f unit=ms fps=%.1f "
		       "mpixels=%.1f\n", ms, 1000.0 / ms,
		       8.0 * w * h / ms / 1000.0);
		/* RGB: c a + d (1 - a); alpha: a + d (1 - a), from 0 */
		const uint8_t *p8 = b.rt.cpu +
		                    ((uint64_t)(h / 3) * w + w / 3) * 4;
		double want8[4] = { 0, 0, 0, 0 };
		for (uint32_t i = 0; i < 8; i++) {
			const double c[4] = { 0.1 * i, 0.5, 1.0 - 0.1 * i, 0.25 };
			for (int k = 0; k < 3; k++)
				want8[k] = c[k] * 0.25 + want8[k] * 0.75;
			want8[3] = 0.25 + want8[3] * 0.75;
		}
		/* BGRA8 target */
		const int idx[4] = { 2, 1, 0, 3 };
		for (int k = 0; k < 4; k++)
			CHECK(fabs(p8[idx[k]] - want8[k] * 255.0) <= 2.0);
	}

	for (int btf = 0; btf < 2 && wanted(only, "scene"); btf++) {
		memset(&f, 0, sizeof(f));
		f.depth = true;
		f.nverts = 3 * nscene;
		fill_triangles(&b, nscene, 400.0, btf);
		record(&b, &f);
		ms = median_ms(&b, runs);
		printf("figure=scene_%s value=%.2f unit=ms fps=%.1f "
		       "mtris=%.2f\n", btf ? "back_to_front" : "front_to_back",
		       ms, 1000.0 / ms, nscene / ms / 1000.0);
	}
	bench_fini(&b);
	return 0;
}

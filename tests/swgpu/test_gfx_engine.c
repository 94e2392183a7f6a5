/* SPDX-License-Identifier: MIT */
/*
 * The graphics engine class through the public API: graphics packets
 * only on graphics engines (BAD_PACKET elsewhere, that context only),
 * a job must close its pass, a graphics ring runs copies, draws and
 * copies in ring order, a fragment shader that never ends is a HANG of
 * its context while other contexts keep drawing (with the graphics
 * state and decoded packets in the state dump), a HIGH job preempts a
 * long LOW draw between primitive batches and the draw resumes to the
 * exact image of an uninterrupted run (also when another graphics
 * engine takes the paused draw over), and draws show in SWGPU_TRACE.
 */
#include "gfx_api_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gfx_color.spv.h"
#include "gfx_pos_color.spv.h"
#include "gfx_spin.spv.h"

#define W 64
#define H 64

struct vert {
	float pos[4];
	float col[4];
};

struct scene {
	swgpu_shader *vs, *fs;
	struct ga_image rt;
	struct swgpu_pass pass;
	struct swgpu_pipeline_state ps;
};

static void
scene_init(struct ga *g, struct scene *s, const uint32_t *fs_code,
           size_t fs_size)
{
	static const uint32_t clear[4] = { 0, 0, 0, 0 };

	s->vs = ga_shader(g, gfx_pos_color_spv, sizeof(gfx_pos_color_spv),
	                  SWGPU_SHADER_STAGE_VERTEX);
	s->fs = ga_shader(g, fs_code, fs_size, SWGPU_SHADER_STAGE_FRAGMENT);
	s->rt = ga_image(g, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	memset(&s->pass, 0, sizeof(s->pass));
	s->pass.color_count = 1;
	s->pass.layer_count = 1;
	s->pass.area_width = W;
	s->pass.area_height = H;
	ga_attachment(&s->rt, &s->pass.color[0], SWGPU_LOAD_CLEAR, clear);
	ga_pipeline(&s->ps, s->vs, s->fs, W, H, 2);
}

static void
scene_fini(struct scene *s)
{
	ga_image_fini(&s->rt);
	swgpu_shader_destroy(s->vs);
	swgpu_shader_destroy(s->fs);
}

/* Record pass, pipeline, vertices (at vb_va, or copied into scratch),
 * one draw, end of pass into g->cmd. */
static void
record_draw_vb(struct ga *g, struct scene *s, const struct vert *v,
               uint64_t vb_va, uint32_t n)
{
	swgpu_emit_begin_pass(api_cmd_reserve(&g->cmd, SWGPU_LEN_BEGIN_PASS),
	                      ga_put(g, &s->pass, sizeof(s->pass)));
	swgpu_emit_set_pipeline(api_cmd_reserve(&g->cmd,
	                                        SWGPU_LEN_SET_PIPELINE),
	                        ga_put(g, &s->ps, sizeof(s->ps)));
	uint64_t va = vb_va ? vb_va : ga_put(g, v, (uint64_t)n * sizeof(*v));
	uint32_t *p = api_cmd_reserve(&g->cmd, SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	swgpu_emit_set_vertex_buffers_header(p, 0, 1);
	swgpu_put_vertex_buffer(p + 3, va, (uint64_t)n * sizeof(*v),
	                        sizeof(*v));
	swgpu_emit_draw(api_cmd_reserve(&g->cmd, SWGPU_LEN_DRAW), 0, n, 1, 0,
	                0);
	swgpu_emit_end_pass(api_cmd_reserve(&g->cmd, SWGPU_LEN_END_PASS));
}

static void
record_draw(struct ga *g, struct scene *s, const struct vert *v, uint32_t n)
{
	record_draw_vb(g, s, v, 0, n);
}

static void
full_screen(struct vert v[6], float r, float gr, float b)
{
	const float xs[6] = { -1, 1, 1, -1, 1, -1 }, ys[6] = { -1, -1, 1, -1,
	                                                        1, 1 };
	for (int i = 0; i < 6; i++) {
		struct vert t = { { xs[i], ys[i], 0.5f, 1 }, { r, gr, b, 1 } };
		v[i] = t;
	}
}

static bool
all_rgba(const struct ga_image *im, uint8_t r, uint8_t g, uint8_t b,
         uint8_t a)
{
	for (uint32_t y = 0; y < im->h; y++)
		for (uint32_t x = 0; x < im->w; x++) {
			const uint8_t *p = ga_px(im, x, y);
			if (p[0] != r || p[1] != g || p[2] != b || p[3] != a)
				return false;
		}
	return true;
}

/* BEGIN_PASS on a compute queue: BAD_PACKET, that context lost; another
 * context on the same compute engine goes on. */
static void
test_graphics_packet_on_compute_engine(void **state)
{
	struct ga g;
	swgpu_fault_info f;

	ga_init(&g, NULL);
	swgpu_queue *cq = api_queue(g.ctx, SWGPU_ENGINE_COMPUTE, 0);
	struct swgpu_pass pass = { .layer_count = 1 };
	swgpu_emit_begin_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_BEGIN_PASS),
	                      ga_put(&g, &pass, sizeof(pass)));
	swgpu_ib ib = api_cmd_end(&g.cmd);
	api_ok(api_submit(cq, &ib, NULL, 0, NULL, 0, NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(cq, 0, api_deadline_ms(API_WAIT_MS)));
	assert_int_equal(swgpu_context_query_state(g.ctx, &f),
	                 SWGPU_CONTEXT_GUILTY);
	assert_int_equal(f.kind, SWGPU_FAULT_BAD_PACKET);
	assert_int_equal(f.opcode, SWGPU_OP_BEGIN_PASS);
	assert_int_equal(f.engine, api_engine(g.dev, SWGPU_ENGINE_COMPUTE, 0));

	swgpu_context *ctx2;
	api_ok(swgpu_context_create(g.dev, &ctx2));
	swgpu_queue *q2 = api_queue(ctx2, SWGPU_ENGINE_COMPUTE, 0);
	struct api_buf b;
	struct api_cmd c;
	api_buf_init(&b, g.dev, ctx2, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&c, g.dev, ctx2, 64);
	api_emit_write32(&c, b.va, 0x600d);
	ib = api_cmd_end(&c);
	api_ok(api_submit(q2, &ib, NULL, 0, NULL, 0, NULL));
	api_queue_idle(q2);
	assert_int_equal(api_load32(b.cpu), 0x600d);
	api_cmd_fini(&c);
	api_buf_fini(&b);
	swgpu_queue_destroy(q2);
	swgpu_context_destroy(ctx2);
	swgpu_queue_destroy(cq);
	ga_fini(&g);
}

/* A job that ends with its pass open faults (BAD_PACKET, END_PASS). */
static void
test_pass_left_open(void **state)
{
	struct ga g;
	struct scene s;
	swgpu_fault_info f;

	ga_init(&g, NULL);
	scene_init(&g, &s, gfx_color_spv, sizeof(gfx_color_spv));
	swgpu_emit_begin_pass(api_cmd_reserve(&g.cmd, SWGPU_LEN_BEGIN_PASS),
	                      ga_put(&g, &s.pass, sizeof(s.pass)));
	api_check(SWGPU_ERR_CONTEXT_LOST, ga_submit_wait(&g));
	swgpu_context_query_state(g.ctx, &f);
	assert_int_equal(f.kind, SWGPU_FAULT_BAD_PACKET);
	assert_int_equal(f.opcode, SWGPU_OP_END_PASS);
	assert_non_null(strstr(f.message, "pass open"));
	scene_fini(&s);
	ga_fini(&g);
}

/* A graphics ring runs copies and draws in ring order: FILL the target
 * grey, draw red over its left half with LOAD, COPY the result out —
 * the copy sees the draw. */
static void
test_ring_order_copy_draw_copy(void **state)
{
	struct ga g;
	struct scene s;
	struct vert v[6];

	ga_init(&g, NULL);
	scene_init(&g, &s, gfx_color_spv, sizeof(gfx_color_spv));
	s.pass.color[0].load_op = SWGPU_LOAD_LOAD;
	struct api_buf out;
	api_buf_init(&out, g.dev, g.ctx, s.rt.mem.size, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_emit_fill(&g.cmd, s.rt.mem.va, s.rt.mem.size, 0x80808080u);
	full_screen(v, 1, 0, 0);
	for (int i = 0; i < 6; i++)
		v[i].pos[0] = v[i].pos[0] < 0 ? -1.0f : 0.0f;
	record_draw(&g, &s, v, 6);
	api_emit_copy(&g.cmd, out.va, s.rt.mem.va, s.rt.mem.size);
	api_ok(ga_submit_wait(&g));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			const uint8_t *p = out.cpu + (y * W + x) * 4;
			if (x < W / 2)
				assert_true(p[0] == 255 && p[1] == 0 &&
				            p[3] == 255);
			else
				assert_true(p[0] == 0x80 && p[1] == 0x80);
		}
	api_buf_fini(&out);
	scene_fini(&s);
	ga_fini(&g);
}

/* A fragment shader in an endless loop: HANG after the timeout, that
 * context only; the state dump shows the decoded draw and the graphics
 * state; another context then draws on the same engine. */
static void
test_fragment_shader_hang(void **state)
{
	swgpu_config cfg;
	struct ga g;
	struct scene s;
	struct vert v[6];
	swgpu_fault_info f;

	api_config_small(&cfg);
	cfg.hang_timeout_ms = 300;
	ga_init(&g, &cfg);
	scene_init(&g, &s, gfx_spin_spv, sizeof(gfx_spin_spv));
	full_screen(v, 0.5f, 0, 0);
	record_draw(&g, &s, v, 6);
	uint64_t t0 = swgpu_now_ns();
	api_check(SWGPU_ERR_CONTEXT_LOST, ga_submit_wait(&g));
	uint64_t dt = swgpu_now_ns() - t0;
	assert_true(dt >= 250000000ull);
	swgpu_context_query_state(g.ctx, &f);
	assert_int_equal(f.kind, SWGPU_FAULT_HANG);
	assert_int_equal(f.opcode, SWGPU_OP_DRAW);
	assert_int_equal(f.engine, api_engine(g.dev, SWGPU_ENGINE_GRAPHICS, 0));

	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	swgpu_device_dump(g.dev, mem);
	fclose(mem);
	assert_non_null(strstr(text, "graphics state of the guilty job"));
	assert_non_null(strstr(text, "R8G8B8A8_UNORM"));
	assert_non_null(strstr(text, "TRIANGLE_LIST"));
	assert_non_null(strstr(text, "6 vertices x 1 instances"));
	free(text);

	/* an innocent context draws on the same engine */
	struct ga g2 = g;
	api_ok(swgpu_context_create(g.dev, &g2.ctx));
	g2.q = api_queue(g2.ctx, SWGPU_ENGINE_GRAPHICS, 0);
	api_cmd_init(&g2.cmd, g.dev, g2.ctx, 4096);
	api_buf_init(&g2.scratch, g.dev, g2.ctx, 1u << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	g2.used = 0;
	struct scene s2;
	scene_init(&g2, &s2, gfx_color_spv, sizeof(gfx_color_spv));
	full_screen(v, 0, 1, 0);
	record_draw(&g2, &s2, v, 6);
	api_ok(ga_submit_wait(&g2));
	assert_true(all_rgba(&s2.rt, 0, 255, 0, 255));
	scene_fini(&s2);
	api_buf_fini(&g2.scratch);
	api_cmd_fini(&g2.cmd);
	swgpu_queue_destroy(g2.q);
	swgpu_context_destroy(g2.ctx);
	scene_fini(&s);
	ga_fini(&g);
}

/* Many small blended triangles (the result depends on their order). */
static struct vert *
long_draw_vertices(uint32_t ntri)
{
	struct vert *v = malloc(sizeof(*v) * 3 * ntri);
	uint64_t r = 88172645463325252ull;

	for (uint32_t i = 0; i < ntri; i++) {
		float cx, cy;
		r ^= r << 13; r ^= r >> 7; r ^= r << 17;
		cx = (float)(r % 1000) / 500.0f - 1.0f;
		cy = (float)((r >> 20) % 1000) / 500.0f - 1.0f;
		for (int k = 0; k < 3; k++) {
			struct vert t = {
				{ cx + (k == 1 ? 0.09f : 0), cy + (k == 2 ? 0.09f
				                                          : 0),
				  0.5f, 1 },
				{ (float)(i % 7) / 7.0f, (float)(i % 11) / 11.0f,
				  (float)(i % 5) / 5.0f, 0.5f },
			};
			v[3 * i + k] = t;
		}
	}
	return v;
}

static void
blend_over(struct swgpu_pipeline_state *ps)
{
	struct swgpu_blend_attachment *b = &ps->state.blend[0];
	b->enable = 1;
	b->src_color = b->src_alpha = 6;   /* SRC_ALPHA */
	b->dst_color = b->dst_alpha = 7;   /* ONE_MINUS_SRC_ALPHA */
}

/* A HIGH job submitted during a long LOW draw runs in the middle of it
 * (its timestamps fall between the LOW job's), the engine counts a
 * preemption, and the LOW draw's image equals an uninterrupted run's. */
static void
test_draw_preempted_resumes_exactly(void **state)
{
	const uint32_t ntri = 120000;
	struct vert *v = long_draw_vertices(ntri);
	uint8_t *ref;
	struct ga g;
	struct scene s;
	swgpu_engine_stats st0, st1;

	/* reference: the same draw alone */
	ga_init(&g, NULL);
	scene_init(&g, &s, gfx_color_spv, sizeof(gfx_color_spv));
	blend_over(&s.ps);
	struct api_buf vb;
	api_buf_init(&vb, g.dev, g.ctx, sizeof(*v) * 3 * ntri,
	             SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED, SWGPU_VA_READ);
	memcpy(vb.cpu, v, sizeof(*v) * 3 * ntri);
	record_draw_vb(&g, &s, v, vb.va, 3 * ntri);
	uint64_t t_ref = swgpu_now_ns();
	api_ok(ga_submit_wait(&g));
	print_message("reference draw: %.1f ms\n",
	              (double)(swgpu_now_ns() - t_ref) / 1e6);
	ref = malloc(s.rt.mem.size);
	memcpy(ref, s.rt.mem.cpu, s.rt.mem.size);
	uint32_t eng = api_engine(g.dev, SWGPU_ENGINE_GRAPHICS, 0);

	swgpu_queue *hi;
	api_ok(swgpu_queue_create(g.ctx, SWGPU_ENGINE_GRAPHICS, 0,
	                          SWGPU_PRIORITY_HIGH, &hi));
	struct api_buf ts;
	struct api_cmd hc;
	api_buf_init(&ts, g.dev, g.ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&hc, g.dev, g.ctx, 256);
	bool inside = false;
	for (int attempt = 0; attempt < 5 && !inside; attempt++) {
		memset(ts.cpu, 0, 64);
		memset(s.rt.mem.cpu, 0x11, s.rt.mem.size);
		api_ok(swgpu_engine_query_stats(g.dev, eng, &st0));
		api_emit_timestamp(&g.cmd, ts.va);
		record_draw_vb(&g, &s, v, vb.va, 3 * ntri);
		api_emit_timestamp(&g.cmd, ts.va + 8);
		swgpu_ib ib = api_cmd_end(&g.cmd);
		api_ok(api_submit(g.q, &ib, NULL, 0, NULL, 0, NULL));
		uint64_t deadline = api_deadline_ms(API_WAIT_MS);
		while (!api_load64(ts.cpu) && swgpu_now_ns() < deadline)
			;
		api_cmd_reset(&hc);
		api_emit_timestamp(&hc, ts.va + 16);
		ib = api_cmd_end(&hc);
		api_ok(api_submit(hi, &ib, NULL, 0, NULL, 0, NULL));
		api_queue_idle(hi);
		api_queue_idle(g.q);
		api_cmd_reset(&g.cmd);
		g.used = 0;
		uint64_t lo0 = api_load64(ts.cpu), lo1 = api_load64(ts.cpu + 8);
		uint64_t h0 = api_load64(ts.cpu + 16);
		inside = h0 > lo0 && h0 < lo1;
		assert_memory_equal(s.rt.mem.cpu, ref, s.rt.mem.size);
		api_ok(swgpu_engine_query_stats(g.dev, eng, &st1));
		if (inside)
			assert_true(st1.preemptions > st0.preemptions);
	}
	assert_true(inside);
	api_cmd_fini(&hc);
	api_buf_fini(&ts);
	api_buf_fini(&vb);
	swgpu_queue_destroy(hi);
	free(ref);
	free(v);
	scene_fini(&s);
	ga_fini(&g);
}

/* Record the long draw into cmd (not g->cmd, which may hold a running
 * job's IB), its state in g's scratch after what is there. */
static swgpu_ib
record_draw_into(struct ga *g, struct api_cmd *cmd, struct scene *s,
                 uint64_t vb_va, uint32_t n, uint64_t ts_va)
{
	struct api_cmd keep = g->cmd;

	g->cmd = *cmd;
	api_emit_timestamp(&g->cmd, ts_va);
	record_draw_vb(g, s, NULL, vb_va, n);
	swgpu_ib ib = api_cmd_end(&g->cmd);
	*cmd = g->cmd;
	g->cmd = keep;
	return ib;
}

/*
 * Two graphics engines (issue 20 items 1/3: a preempted draw resumes "on
 * the same or another engine of the class"). A long blended draw L of
 * queue A starts on graphics0 while graphics1 is held by queue C's job
 * (a SEM_WAIT on memory the test writes); a HIGH queue's long draw H on
 * graphics0 pauses L; then graphics1 is released, becomes idle and takes
 * L over from its save area, with L's graphics state, on its own raster
 * threads. Checked: graphics1 resumed a job of graphics0
 * (resumed_here), L's and H's images both equal an uninterrupted run's
 * (the draws' triangles blend in order: one skipped, repeated or
 * reordered batch changes pixels).
 */
static void
test_draw_resumes_on_other_engine(void **state)
{
	const uint32_t ntri = 120000;
	struct vert *v = long_draw_vertices(ntri);
	swgpu_config cfg;
	struct ga g;
	struct scene s, s2;

	api_config_small(&cfg);
	cfg.engine_count[SWGPU_ENGINE_GRAPHICS] = 2;
	ga_init(&g, &cfg);
	scene_init(&g, &s, gfx_color_spv, sizeof(gfx_color_spv));
	scene_init(&g, &s2, gfx_color_spv, sizeof(gfx_color_spv));
	blend_over(&s.ps);
	blend_over(&s2.ps);
	struct api_buf vb, ts, flag;
	api_buf_init(&vb, g.dev, g.ctx, sizeof(*v) * 3 * ntri,
	             SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED, SWGPU_VA_READ);
	memcpy(vb.cpu, v, sizeof(*v) * 3 * ntri);
	api_buf_init(&ts, g.dev, g.ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&flag, g.dev, g.ctx, 4096, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	memset(ts.cpu, 0, 64);
	memset(flag.cpu, 0, 64);

	/* Reference: the draw alone. */
	record_draw_vb(&g, &s, v, vb.va, 3 * ntri);
	uint64_t t_ref = swgpu_now_ns();
	api_ok(ga_submit_wait(&g));
	print_message("reference draw: %.1f ms\n",
	              (double)(swgpu_now_ns() - t_ref) / 1e6);
	uint8_t *ref = malloc(s.rt.mem.size);
	memcpy(ref, s.rt.mem.cpu, s.rt.mem.size);
	memset(s.rt.mem.cpu, 0x11, s.rt.mem.size);
	uint32_t e1 = api_engine(g.dev, SWGPU_ENGINE_GRAPHICS, 1);
	swgpu_engine_stats st0;
	api_ok(swgpu_engine_query_stats(g.dev, e1, &st0));

	/* C holds graphics1 until the test writes 1. */
	swgpu_queue *cq, *hq;
	struct api_cmd cc, hc;
	api_ok(swgpu_queue_create(g.ctx, SWGPU_ENGINE_GRAPHICS, 1,
	                          SWGPU_PRIORITY_NORMAL, &cq));
	api_ok(swgpu_queue_create(g.ctx, SWGPU_ENGINE_GRAPHICS, 0,
	                          SWGPU_PRIORITY_HIGH, &hq));
	api_cmd_init(&cc, g.dev, g.ctx, 256);
	api_cmd_init(&hc, g.dev, g.ctx, 16384);
	api_emit_sem_wait(&cc, flag.va, 1);
	swgpu_ib ib = api_cmd_end(&cc);
	api_ok(api_submit(cq, &ib, NULL, 0, NULL, 0, NULL));

	/* L on graphics0 (graphics1 is busy), then H. */
	ib = record_draw_into(&g, &g.cmd, &s, vb.va, 3 * ntri, ts.va);
	api_ok(api_submit(g.q, &ib, NULL, 0, NULL, 0, NULL));
	uint64_t deadline = api_deadline_ms(API_WAIT_MS);
	while (!api_load64(ts.cpu) && swgpu_now_ns() < deadline)
		usleep(100);
	ib = record_draw_into(&g, &hc, &s2, vb.va, 3 * ntri, ts.va + 8);
	api_ok(api_submit(hq, &ib, NULL, 0, NULL, 0, NULL));
	while (!api_load64(ts.cpu + 8) && swgpu_now_ns() < deadline)
		usleep(100);
	assert_true(api_load64(ts.cpu + 8) != 0);
	/* graphics1 becomes idle while H runs on graphics0: it takes L. */
	__atomic_store_n((uint32_t *)flag.cpu, 1u, __ATOMIC_RELEASE);
	api_queue_idle(cq);
	api_queue_idle(g.q);
	api_queue_idle(hq);

	swgpu_engine_stats st1;
	api_ok(swgpu_engine_query_stats(g.dev, e1, &st1));
	print_message("graphics1 resumed %llu job(s) of graphics0\n",
	              (unsigned long long)(st1.resumed_here -
	                                   st0.resumed_here));
	assert_true(st1.resumed_here > st0.resumed_here);
	assert_memory_equal(s.rt.mem.cpu, ref, s.rt.mem.size);
	assert_memory_equal(s2.rt.mem.cpu, ref, s2.rt.mem.size);
	swgpu_fault_info fi;
	assert_int_equal(swgpu_context_query_state(g.ctx, &fi),
	                 SWGPU_CONTEXT_OK);

	api_cmd_fini(&hc);
	api_cmd_fini(&cc);
	swgpu_queue_destroy(hq);
	swgpu_queue_destroy(cq);
	api_buf_fini(&flag);
	api_buf_fini(&ts);
	api_buf_fini(&vb);
	free(ref);
	free(v);
	scene_fini(&s2);
	scene_fini(&s);
	ga_fini(&g);
}

/* SWGPU_TRACE: a draw is a "draw" slice named after its packet, with
 * its counts. */
static void
test_draws_traced(void **state)
{
	char path[] = "/tmp/swgpu-gfx-trace-XXXXXX";
	int fd = mkstemp(path);
	swgpu_config cfg;
	struct ga g;
	struct scene s;
	struct vert v[6];

	assert_true(fd >= 0);
	close(fd);
	api_config_small(&cfg);
	cfg.trace = path;
	ga_init(&g, &cfg);
	scene_init(&g, &s, gfx_color_spv, sizeof(gfx_color_spv));
	full_screen(v, 1, 1, 1);
	record_draw(&g, &s, v, 6);
	api_ok(ga_submit_wait(&g));
	scene_fini(&s);
	ga_fini(&g);
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char line[2048];
	bool found = false;
	while (fgets(line, sizeof(line), fp))
		if (strstr(line, "\"cat\":\"draw\"") &&
		    strstr(line, "\"name\":\"DRAW\"") &&
		    strstr(line, "\"vertices\":6") &&
		    strstr(line, "\"primitives\":2"))
			found = true;
	fclose(fp);
	unlink(path);
	assert_true(found);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graphics_packet_on_compute_engine),
		cmocka_unit_test(test_pass_left_open),
		cmocka_unit_test(test_ring_order_copy_draw_copy),
		cmocka_unit_test(test_fragment_shader_hang),
		cmocka_unit_test(test_draw_preempted_resumes_exactly),
		cmocka_unit_test(test_draw_resumes_on_other_engine),
		cmocka_unit_test(test_draws_traced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

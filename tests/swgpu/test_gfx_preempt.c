/* SPDX-License-Identifier: MIT */
/*
 * Draws preempted at every preemption point they reach (between batches
 * of primitives, between the draws of an indirect packet) and resumed
 * from the save area and the graphics state: the image equals the one
 * of an uninterrupted run, bit for bit, with a blend whose result
 * depends on the order of every primitive (dst = src + dst / 2), for an
 * instanced draw whose batches span instances, an indexed strip with
 * restarts, and an indirect packet of three draws; and (issue 20) the
 * same draws stopped at random subsets of those points, a hundred times;
 * and (issue 21) the same draws in a 2-view multiview pass, stopped
 * also between the views.
 */
#include "gfx_test_util.h"

#include <stdlib.h>
#include <string.h>

#define W 96
#define H 64
#define NTRI 7000                  /* > one batch (4096 primitives) */

struct pv {
	float pos[4];
	float col[4];
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static float
frand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (float)(rng >> 11) / 9007199254740992.0f;
}

struct scene {
	struct gt t;
	struct gt_image rt;
	uint64_t vb, ib, inst, args;
	uint32_t ndw;
};

/* view_mask: 0, or a multiview pass over 2 layers (0x3). */
static void
record(struct scene *s, uint32_t view_mask)
{
	struct swgpu_pass pass;
	struct swgpu_pipeline_state ps;
	static struct pv v[3 * NTRI];
	static uint16_t idx[2 * NTRI];
	const float inst_col[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 2, 0, 1 }, { 0, 0, 3, 1 }, { 4, 4, 4, 1 },
	};
	const uint32_t cmds[15] = {
		3000, 2, 0, 0, 0,
		6000, 1, 3000, 0, 1,
		2400, 3, 9000, 0, 0,
	};

	gt_init(&s->t, 2);
	const uint32_t layers = view_mask ? 2 : 1;
	s->rt = gt_image(&s->t, SWGPU_FORMAT_R32_SFLOAT, W, layers * H);
	for (uint32_t i = 0; i < 3 * NTRI; i++) {
		float cx = frand() * 2 - 1, cy = frand() * 2 - 1;
		if (i % 3)
			cx = v[i - i % 3].pos[0] + frand() * 0.2f,
			cy = v[i - i % 3].pos[1] + frand() * 0.2f;
		v[i] = (struct pv){ { cx, cy, 0.5f, 1 },
		                    { frand(), 0, 0, 1 } };
	}
	for (uint32_t i = 0; i < 2 * NTRI; i++)
		idx[i] = (i % 97) == 96 ? 0xffff : (uint16_t)(i % (3 * NTRI));
	memset(&pass, 0, sizeof(pass));
	pass.color_count = 1;
	pass.layer_count = 1;
	pass.area_width = W;
	pass.area_height = H;
	gt_attachment(&s->rt, &pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0 });
	pass.color[0].height = H;
	pass.color[0].layers = layers;
	pass.color[0].layer_pitch = (uint64_t)W * 4 * H;
	pass.layer_count = layers;
	pass.view_mask = view_mask;
	gt_pipeline_defaults(&ps, W, H, 2);
	struct swgpu_blend_attachment *b = &ps.state.blend[0];
	b->enable = 1;
	b->src_color = b->src_alpha = 1;          /* ONE */
	b->dst_color = b->dst_alpha = 10;         /* CONSTANT_COLOR */
	for (int c = 0; c < 4; c++)
		ps.state.blend_constants[c] = 0.5f;
	/* binding 1: a per-instance colour (location 1) */
	ps.binding_count = 2;
	ps.bindings[0].stride = sizeof(struct pv);
	ps.bindings[1].stride = 16;
	ps.bindings[1].input_rate = 1;
	ps.bindings[1].divisor = 1;
	ps.attribs[1].binding = 1;
	ps.attribs[1].offset = 0;

	s->vb = gt_put(&s->t, v, sizeof(v));
	s->inst = gt_put(&s->t, inst_col, sizeof(inst_col));
	s->ib = gt_put(&s->t, idx, sizeof(idx));
	s->args = gt_put(&s->t, cmds, sizeof(cmds));
	gt_begin_pass(&s->t, &pass);
	gt_set_pipeline(&s->t, &ps);
	uint32_t *p = gt_emit(&s->t, SWGPU_LEN_SET_VERTEX_BUFFERS(2));
	swgpu_emit_set_vertex_buffers_header(p, 0, 2);
	swgpu_put_vertex_buffer(p + 3, s->vb, sizeof(v), sizeof(v[0]));
	swgpu_put_vertex_buffer(p + 8, s->inst, sizeof(inst_col), 16);
	/* 4 instances of 2000 triangles: batches span instances */
	swgpu_emit_draw(gt_emit(&s->t, SWGPU_LEN_DRAW), 0, 6000, 4, 0, 0);
	/* an indexed list with restarts, several batches */
	swgpu_emit_set_index_buffer(gt_emit(&s->t, SWGPU_LEN_SET_INDEX_BUFFER),
	                            s->ib, sizeof(idx), 2);
	swgpu_emit_draw_indexed(gt_emit(&s->t, SWGPU_LEN_DRAW_INDEXED), 0,
	                        2 * NTRI, 2, 0, 0, 1);
	/* three indirect draws */
	swgpu_emit_draw_indirect(gt_emit(&s->t, SWGPU_LEN_DRAW_INDIRECT), 0, 0,
	                         s->args, 3, 20, 0);
	gt_end_pass(&s->t);
	s->ndw = s->t.n;
}

static bool
always_stop(void *cookie)
{
	(void)cookie;
	return true;
}

static void
preempted_everywhere(uint32_t view_mask, uint32_t expect_stops)
{
	struct scene ref, s;
	struct exec_save save;

	rng = 0x2545f4914f6cdd1dull;
	record(&ref, view_mask);
	assert_true(gt_run(&ref.t));
	rng = 0x2545f4914f6cdd1dull;
	record(&s, view_mask);
	gfx_state_reset(s.t.g);
	gfx_state_set_test_programs(s.t.g, &s.t.vsp, &s.t.fsp);
	memset(&save, 0, sizeof(save));
	s.t.env.save = &save;
	s.t.env.preempt_hook = always_stop;
	uint32_t stops = 0;
	for (;;) {
		s.t.env.preempted = false;
		save.resuming = save.valid;
		memset(&s.t.fault, 0, sizeof(s.t.fault));
		if (exec_ib(&s.t.env, s.t.ib.va, s.ndw, 1))
			break;
		assert_true(s.t.env.preempted);
		assert_int_equal(s.t.fault.kind, SWGPU_FAULT_NONE);
		stops++;
		assert_true(stops < 10000);
	}
	print_message("%u stops\n", stops);
	assert_int_equal(stops, expect_stops);
	assert_memory_equal(s.rt.mem.cpu, ref.rt.mem.cpu, ref.rt.mem.size);
	/* the scene really drew, in every view */
	for (uint32_t l = 0; l < (view_mask ? 2u : 1u); l++) {
		uint32_t lit = 0;
		for (uint32_t i = 0; i < W * H; i++) {
			float f;
			memcpy(&f, ref.rt.mem.cpu + 4 * (l * W * H + i), 4);
			lit += f != 0.0f;
		}
		assert_true(lit > W * H / 2);
	}
	gt_fini(&s.t);
	gt_fini(&ref.t);
}

static void
test_draws_preempted_everywhere(void **state)
{
	/* 7 packet boundaries; inside the instanced draw (8000 triangles:
	 * batches of 4096 + 3904) 1; the indexed one (2 x 4666: 4096 +
	 * 4096 + 1140) 2; between the three indirect draws 2 */
	preempted_everywhere(0, 7 + 1 + 2 + 2);
}

/* Two views: each draw's stops once per view, and one between the
 * views of every draw (the indirect packet's three draws included). */
static void
test_multiview_preempted_everywhere(void **state)
{
	preempted_everywhere(0x3, 7 + (2 * 1 + 1) + (2 * 2 + 1) + 2 + 3);
}

/* Thread sanitizer builds run ~10x slower: fewer runs. */
#if defined(__SANITIZE_THREAD__)
#define GP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GP_TSAN 1
#endif
#endif
#ifndef GP_TSAN
#define GP_TSAN 0
#endif

/* Stops at random: about one preemption point in three. */
static uint64_t stop_rng;

static bool
random_stop(void *cookie)
{
	(void)cookie;
	stop_rng ^= stop_rng << 13;
	stop_rng ^= stop_rng >> 7;
	stop_rng ^= stop_rng << 17;
	return stop_rng % 3 == 0;
}

/* Randomized (issue 20): the same draws stopped at random subsets of
 * their preemption points, many times, each resumed from the save area
 * and the graphics state: always the uninterrupted image, bit for bit. */
static void
test_draws_preempted_at_random(void **state)
{
	struct scene ref, s;
	struct exec_save save;
	const uint32_t runs = GP_TSAN ? 10 : 100;
	uint32_t total = 0;

	(void)state;
	rng = 0x2545f4914f6cdd1dull;
	record(&ref, 0);
	assert_true(gt_run(&ref.t));
	rng = 0x2545f4914f6cdd1dull;
	record(&s, 0);
	stop_rng = 0x9e3779b97f4a7c15ull;
	for (uint32_t r = 0; r < runs; r++) {
		memset(s.rt.mem.cpu, 0xa5, s.rt.mem.size);
		gfx_state_reset(s.t.g);
		gfx_state_set_test_programs(s.t.g, &s.t.vsp, &s.t.fsp);
		memset(&save, 0, sizeof(save));
		s.t.env.save = &save;
		s.t.env.preempt_hook = random_stop;
		for (uint32_t stops = 0;; stops++) {
			s.t.env.preempted = false;
			save.resuming = save.valid;
			memset(&s.t.fault, 0, sizeof(s.t.fault));
			if (exec_ib(&s.t.env, s.t.ib.va, s.ndw, 1))
				break;
			assert_true(s.t.env.preempted);
			assert_int_equal(s.t.fault.kind, SWGPU_FAULT_NONE);
			assert_true(stops < 100);
			total++;
		}
		assert_memory_equal(s.rt.mem.cpu, ref.rt.mem.cpu,
		                    ref.rt.mem.size);
	}
	print_message("%u runs, %u stops\n", runs, total);
	assert_true(total >= runs);
	gt_fini(&s.t);
	gt_fini(&ref.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draws_preempted_everywhere),
		cmocka_unit_test(test_multiview_preempted_everywhere),
		cmocka_unit_test(test_draws_preempted_at_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

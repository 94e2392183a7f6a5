/* SPDX-License-Identifier: MIT */
/*
 * Graphics packets on their own: load ops over the render area and
 * layers, CLEAR_ATTACHMENTS (rects clipped to the attachment, layers,
 * depth and stencil), occlusion queries, multiview (load ops, clears
 * and draws on the view mask's layers, ViewIndex), and every kind of
 * bad packet
 * faulting with its kind and opcode and leaving memory untouched.
 */
#include "hw/gfx/describe.h"
#include "gfx_test_util.h"

#include <string.h>

#define W 32
#define H 24

static const uint32_t RED[4] = { 0x3f800000, 0, 0, 0x3f800000 };

struct pk {
	struct gt t;
	struct gt_image rt, zb, sb;
	struct swgpu_pass pass;
	struct swgpu_pipeline_state ps;
};

static void
pk_init(struct pk *p)
{
	gt_init(&p->t, 2);
	p->rt = gt_image(&p->t, SWGPU_FORMAT_R8G8B8A8_UNORM, W, H);
	p->zb = gt_image(&p->t, SWGPU_FORMAT_D16_UNORM, W, H);
	p->sb = gt_image(&p->t, SWGPU_FORMAT_S8_UINT, W, H);
	memset(p->rt.mem.cpu, 0xab, p->rt.mem.size);
	memset(p->zb.mem.cpu, 0xab, p->zb.mem.size);
	memset(p->sb.mem.cpu, 0xab, p->sb.mem.size);
	memset(&p->pass, 0, sizeof(p->pass));
	p->pass.color_count = 1;
	p->pass.layer_count = 1;
	p->pass.area_width = W;
	p->pass.area_height = H;
	gt_attachment(&p->rt, &p->pass.color[0], SWGPU_LOAD_LOAD, NULL);
	gt_attachment(&p->zb, &p->pass.depth, SWGPU_LOAD_LOAD, NULL);
	gt_attachment(&p->sb, &p->pass.stencil, SWGPU_LOAD_LOAD, NULL);
	gt_pipeline_defaults(&p->ps, W, H, 2);
}

static bool
all_bytes(const uint8_t *b, uint64_t n, uint8_t v)
{
	for (uint64_t i = 0; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* Load ops and clears                                                 */
/* ------------------------------------------------------------------ */

/* CLEAR writes the render area (x 5..20, y 3..11) of each attachment,
 * LOAD and DONT_CARE leave memory alone. */
static void
test_load_ops_render_area(void **state)
{
	for (uint32_t op = 0; op < 3; op++) {
		struct pk p;
		pk_init(&p);
		p.pass.area_x = 5;
		p.pass.area_y = 3;
		p.pass.area_width = 15;
		p.pass.area_height = 8;
		p.pass.color[0].load_op = op;
		memcpy(p.pass.color[0].clear, RED, 16);
		p.pass.depth.load_op = op;
		p.pass.depth.clear[0] = gt_fbits(0.25f);
		p.pass.stencil.load_op = op;
		p.pass.stencil.clear[0] = 0x1234;   /* low 8 bits */
		gt_begin_pass(&p.t, &p.pass);
		gt_end_pass(&p.t);
		assert_true(gt_run(&p.t));
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				bool in = op == SWGPU_LOAD_CLEAR && x >= 5 &&
				          x < 20 && y >= 3 && y < 11;
				const uint8_t *c = gt_px(&p.rt, x, y);
				uint16_t z;
				memcpy(&z, gt_px(&p.zb, x, y), 2);
				if (in) {
					assert_true(c[0] == 255 && c[1] == 0 &&
					            c[2] == 0 && c[3] == 255);
					assert_int_equal(z, 16384);
					assert_int_equal(*gt_px(&p.sb, x, y),
					                 0x34);
				} else {
					assert_true(all_bytes(c, 4, 0xab));
					assert_int_equal(z, 0xabab);
					assert_int_equal(*gt_px(&p.sb, x, y),
					                 0xab);
				}
			}
		gt_fini(&p.t);
	}
}

/* Every layer of layer_count is cleared, the ones after are not. */
static void
test_load_clear_layers(void **state)
{
	struct pk p;

	pk_init(&p);
	struct gt_image arr = gt_image(&p.t, SWGPU_FORMAT_R32_UINT, W, 4 * H);
	memset(arr.mem.cpu, 0xab, arr.mem.size);
	gt_attachment(&arr, &p.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 77 });
	p.pass.color[0].height = H;
	p.pass.color[0].layers = 4;
	p.pass.color[0].layer_pitch = (uint64_t)W * 4 * H;
	p.pass.depth.va = p.pass.stencil.va = 0;
	p.pass.layer_count = 3;
	gt_begin_pass(&p.t, &p.pass);
	gt_end_pass(&p.t);
	assert_true(gt_run(&p.t));
	for (uint32_t y = 0; y < 4 * H; y++) {
		uint32_t v;
		memcpy(&v, gt_px(&arr, 7, y), 4);
		assert_true(v == (y < 3 * H ? 77u : 0xababababu));
	}
	gt_fini(&p.t);
}

/* Large load-op clears (over 1 MiB of colour): colour (3 layers of 4),
 * depth and stencil (3 layers) over a render area whose height (333) is
 * not a multiple of 16 and which leaves a margin on every side. Every
 * texel inside is the clear value, every byte outside untouched. */
static void
test_load_clear_banded(void **state)
{
	enum { BW = 300, BH = 345, X0 = 7, Y0 = 5, AW = 290, AH = 333 };
	struct pk p;

	pk_init(&p);
	struct gt_image arr = gt_image(&p.t, SWGPU_FORMAT_R32_UINT, BW, 4 * BH);
	struct gt_image zb = gt_image(&p.t, SWGPU_FORMAT_D32_SFLOAT, BW, 3 * BH);
	struct gt_image sb = gt_image(&p.t, SWGPU_FORMAT_S8_UINT, BW, 3 * BH);
	memset(arr.mem.cpu, 0xab, arr.mem.size);
	memset(zb.mem.cpu, 0xab, zb.mem.size);
	memset(sb.mem.cpu, 0xab, sb.mem.size);
	gt_attachment(&arr, &p.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 77 });
	p.pass.color[0].height = BH;
	p.pass.color[0].layers = 4;
	p.pass.color[0].layer_pitch = (uint64_t)BW * 4 * BH;
	gt_attachment(&zb, &p.pass.depth, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ gt_fbits(0.25f) });
	gt_attachment(&sb, &p.pass.stencil, SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 0x5a });
	p.pass.depth.height = p.pass.stencil.height = BH;
	p.pass.depth.layers = p.pass.stencil.layers = 3;
	p.pass.depth.layer_pitch = (uint64_t)BW * 4 * BH;
	p.pass.stencil.layer_pitch = (uint64_t)BW * BH;
	p.pass.layer_count = 3;
	p.pass.area_x = X0;
	p.pass.area_y = Y0;
	p.pass.area_width = AW;
	p.pass.area_height = AH;
	gt_begin_pass(&p.t, &p.pass);
	gt_end_pass(&p.t);
	assert_true(gt_run(&p.t));
	for (uint32_t y = 0; y < 4 * BH; y++)
		for (uint32_t x = 0; x < BW; x++) {
			const uint32_t ly = y % BH;
			const bool in = y < 3 * BH && x >= X0 && x < X0 + AW &&
			                ly >= Y0 && ly < Y0 + AH;
			uint32_t v;
			memcpy(&v, gt_px(&arr, x, y), 4);
			if (v != (in ? 77u : 0xababababu))
				fail_msg("colour (%u, %u): 0x%x", x, y, v);
			if (y >= 3 * BH)
				continue;
			memcpy(&v, gt_px(&zb, x, y), 4);
			if (v != (in ? gt_fbits(0.25f) : 0xababababu))
				fail_msg("depth (%u, %u): 0x%x", x, y, v);
			if (*gt_px(&sb, x, y) != (in ? 0x5a : 0xab))
				fail_msg("stencil (%u, %u): 0x%x", x, y,
				         *gt_px(&sb, x, y));
		}
	gt_fini(&p.t);
}

/* CLEAR_ATTACHMENTS: two rects on the colour attachment (one running
 * off the edge: clipped), one on depth and one on stencil. */
static void
test_clear_attachments(void **state)
{
	struct pk p;
	const uint32_t rects[12] = {
		2, 3, 4, 2, 0, 1,
		(uint32_t)-3, 20, 40, 100, 0, 1,
	};
	const uint32_t zr[6] = { 10, 10, 2, 2, 0, 1 };

	pk_init(&p);
	gt_begin_pass(&p.t, &p.pass);
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(2)), 0, RED, 2, rects);
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(1)),
		SWGPU_ATTACHMENT_DEPTH,
		(const uint32_t[4]){ gt_fbits(1.0f) }, 1, zr);
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(1)),
		SWGPU_ATTACHMENT_STENCIL, (const uint32_t[4]){ 9 }, 1, zr);
	/* attachment 5 is not in the pass: a no-op */
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(1)), 5, RED, 1, zr);
	gt_end_pass(&p.t);
	assert_true(gt_run(&p.t));
	for (uint32_t y = 0; y < H; y++)
		for (uint32_t x = 0; x < W; x++) {
			bool in = (x >= 2 && x < 6 && y >= 3 && y < 5) ||
			          (x < 37 && y >= 20);
			const uint8_t *c = gt_px(&p.rt, x, y);
			assert_true(in ? c[0] == 255 && c[3] == 255
			               : all_bytes(c, 4, 0xab));
			bool zin = x >= 10 && x < 12 && y >= 10 && y < 12;
			uint16_t z;
			memcpy(&z, gt_px(&p.zb, x, y), 2);
			assert_int_equal(z, zin ? 0xffff : 0xabab);
			assert_int_equal(*gt_px(&p.sb, x, y), zin ? 9 : 0xab);
		}
	gt_fini(&p.t);
}

/* ------------------------------------------------------------------ */
/* Occlusion queries                                                   */
/* ------------------------------------------------------------------ */

struct qv {
	float pos[4];
	float col[4];
};

static void
quad(struct qv *v, float x0, float y0, float x1, float y1, float z)
{
	const float xs[6] = { x0, x1, x1, x0, x1, x0 };
	const float ys[6] = { y0, y0, y1, y0, y1, y1 };

	for (int i = 0; i < 6; i++) {
		v[i].pos[0] = 2.0f * xs[i] / W - 1.0f;
		v[i].pos[1] = 2.0f * ys[i] / H - 1.0f;
		v[i].pos[2] = z;
		v[i].pos[3] = 1.0f;
		v[i].col[0] = v[i].col[3] = 1.0f;
		v[i].col[1] = v[i].col[2] = 0.0f;
	}
}

/* Samples passing depth: an 8x8 quad at z 0.25 over depth 0.5 (64
 * pass), a 10x4 quad at z 0.75 (0 pass), then a 4x4 quad at 0.1 over
 * the first (16 more); a second query over one draw only. Colour
 * writes off change nothing. */
static void
test_occlusion_query(void **state)
{
	struct pk p;
	struct qv v[18];
	uint64_t zero[2] = { 0xdead, 0xdead };

	pk_init(&p);
	p.pass.depth.load_op = SWGPU_LOAD_CLEAR;
	p.pass.depth.clear[0] = gt_fbits(0.5f);
	p.pass.stencil.va = 0;
	p.ps.state.depth_test = 1;
	p.ps.state.depth_write = 1;
	p.ps.state.depth_compare = SWGPU_COMPARE_LESS;
	p.ps.state.blend[0].write_mask = 0;
	quad(v, 1, 1, 9, 9, 0.25f);
	quad(v + 6, 12, 1, 22, 5, 0.75f);
	quad(v + 12, 2, 2, 6, 6, 0.1f);
	uint64_t q = gt_put(&p.t, zero, sizeof(zero));
	gt_begin_pass(&p.t, &p.pass);
	gt_set_pipeline(&p.t, &p.ps);
	gt_vertices(&p.t, &v[0].pos[0], 18, 2);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY), q,
	                       SWGPU_QUERY_PRECISE);
	gt_draw(&p.t, 18, 1);
	swgpu_emit_query_end(gt_emit(&p.t, SWGPU_LEN_QUERY), q);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY), q + 8, 0);
	swgpu_emit_draw(gt_emit(&p.t, SWGPU_LEN_DRAW), 0, 6, 1, 0, 0);
	swgpu_emit_query_end(gt_emit(&p.t, SWGPU_LEN_QUERY), q + 8);
	gt_end_pass(&p.t);
	uint8_t *qp = p.t.scratch.cpu + (q - p.t.scratch.va);
	assert_true(gt_run(&p.t));
	uint64_t c[2];
	memcpy(c, qp, 16);
	assert_true(c[0] == 64 + 16);
	/* the first quad again at 0.25 against 0.25/0.1: LESS fails */
	assert_true(c[1] == 0);
	assert_true(all_bytes(p.rt.mem.cpu, p.rt.mem.size, 0xab));
	gt_fini(&p.t);
}

/* ------------------------------------------------------------------ */
/* Multiview                                                           */
/* ------------------------------------------------------------------ */

/* Colour = 100 + ViewIndex. */
static void
frag_view(struct gt *t, struct gfx_exec *e, uint32_t n, const uint8_t *live,
          uint8_t *discarded)
{
	const lane_t *v = gfx_exec_reg(e, IR_REG_VIEW_INDEX);
	lane_t *o = gfx_exec_reg(e, GT_OUT(0, 0));

	for (uint32_t l = 0; l < n; l++)
		o[l].u = 100 + v[l].u;
}

/* View mask 0b1010 over 4 R32_UINT layers: the CLEAR load op (77), a
 * CLEAR_ATTACHMENTS rect (5; Vulkan's base layer 0, count 1) and an 8x8
 * quad (100 + ViewIndex) reach layers 1 and 3 only; the query counts
 * the samples of both views. */
static void
test_multiview(void **state)
{
	struct pk p;
	struct qv v[6];
	const uint64_t dead = 0xdead;
	const uint32_t rect[6] = { 20, 10, 4, 4, 0, 1 };

	pk_init(&p);
	struct gt_image arr = gt_image(&p.t, SWGPU_FORMAT_R32_UINT, W, 4 * H);
	memset(arr.mem.cpu, 0xab, arr.mem.size);
	gt_attachment(&arr, &p.pass.color[0], SWGPU_LOAD_CLEAR,
	              (const uint32_t[4]){ 77 });
	p.pass.color[0].height = H;
	p.pass.color[0].layers = 4;
	p.pass.color[0].layer_pitch = (uint64_t)W * 4 * H;
	p.pass.depth.va = p.pass.stencil.va = 0;
	p.pass.layer_count = 4;
	p.pass.view_mask = 0xa;
	p.t.frag = frag_view;
	quad(v, 1, 1, 9, 9, 0.5f);
	uint64_t q = gt_put(&p.t, &dead, sizeof(dead));
	gt_begin_pass(&p.t, &p.pass);
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(1)), 0,
		(const uint32_t[4]){ 5 }, 1, rect);
	gt_set_pipeline(&p.t, &p.ps);
	gt_vertices(&p.t, &v[0].pos[0], 6, 2);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY), q, 0);
	gt_draw(&p.t, 6, 1);
	swgpu_emit_query_end(gt_emit(&p.t, SWGPU_LEN_QUERY), q);
	gt_end_pass(&p.t);
	uint8_t *qp = p.t.scratch.cpu + (q - p.t.scratch.va);
	assert_true(gt_run(&p.t));
	for (uint32_t l = 0; l < 4; l++)
		for (uint32_t y = 0; y < H; y++)
			for (uint32_t x = 0; x < W; x++) {
				uint32_t got, want = 77;
				memcpy(&got, gt_px(&arr, x, l * H + y), 4);
				if (!((0xau >> l) & 1u))
					want = 0xababababu;
				else if (x >= 1 && x < 9 && y >= 1 && y < 9)
					want = 100 + l;
				else if (x >= 20 && x < 24 && y >= 10 &&
				         y < 14)
					want = 5;
				assert_int_equal(got, want);
			}
	uint64_t c;
	memcpy(&c, qp, 8);
	assert_int_equal(c, 2 * 64);
	/* a job that faults inside the pass: its dump shows the view mask */
	gt_begin_pass(&p.t, &p.pass);
	gt_draw(&p.t, 6, 1);   /* no pipeline bound in this job */
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	char text[4096];
	gfx_state_describe(p.t.g, text, sizeof(text));
	assert_non_null(strstr(text, "4 layer(s), view mask 0xa"));
	gt_fini(&p.t);
}

/* ------------------------------------------------------------------ */
/* Bad packets                                                         */
/* ------------------------------------------------------------------ */

/* Emit a minimal valid draw setup around a broken piece. */
static void
setup(struct pk *p)
{
	static const float v[6 * 8] = { 0 };

	gt_begin_pass(&p->t, &p->pass);
	gt_set_pipeline(&p->t, &p->ps);
	gt_vertices(&p->t, v, 6, 2);
}

static void
expect_untouched(const struct pk *p)
{
	assert_true(all_bytes(p->rt.mem.cpu, p->rt.mem.size, 0xab));
	assert_true(all_bytes(p->zb.mem.cpu, p->zb.mem.size, 0xab));
	assert_true(all_bytes(p->sb.mem.cpu, p->sb.mem.size, 0xab));
}

static void
test_bad_draw_state(void **state)
{
	struct pk p;

	pk_init(&p);
	/* draw outside a pass */
	gt_set_pipeline(&p.t, &p.ps);
	gt_draw(&p.t, 3, 1);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	/* draw with no pipeline */
	gt_begin_pass(&p.t, &p.pass);
	gt_draw(&p.t, 3, 1);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	assert_non_null(strstr(p.t.fault.message, "no pipeline"));
	/* a pass inside a pass, an end without a pass */
	gt_begin_pass(&p.t, &p.pass);
	gt_begin_pass(&p.t, &p.pass);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BEGIN_PASS);
	gt_end_pass(&p.t);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_END_PASS);
	/* indexed draw with no index buffer */
	setup(&p);
	swgpu_emit_draw_indexed(gt_emit(&p.t, SWGPU_LEN_DRAW_INDEXED), 0, 3,
	                        1, 0, 0, 0);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW_INDEXED);
	/* clears outside a pass */
	swgpu_emit_clear_attachments(
		gt_emit(&p.t, SWGPU_LEN_CLEAR_ATTACHMENTS(1)), 0, RED, 1,
		(const uint32_t[6]){ 0, 0, 1, 1, 0, 1 });
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET,
	                SWGPU_OP_CLEAR_ATTACHMENTS);
	expect_untouched(&p);
	gt_fini(&p.t);
}

/* Out-of-range enumerants fault at the draw that uses them. */
static void
test_bad_enums(void **state)
{
	for (int k = 0; k < 10; k++) {
		struct pk p;
		pk_init(&p);
		struct swgpu_raster_state *rs = &p.ps.state;
		switch (k) {
		case 0: rs->topology = 42; break;
		case 1: rs->polygon_mode = 3; break;
		case 2: rs->cull_mode = 4; break;
		case 3: rs->depth_test = 1; rs->depth_compare = 8; break;
		case 4: rs->stencil_test = 1; rs->back.pass_op = 8; break;
		case 5: rs->blend[0].enable = 1; rs->blend[0].dst_color = 19;
			break;
		case 6: rs->logic_op_enable = 1; rs->logic_op = 16; break;
		case 7: rs->alpha_to_coverage = 2; break;
		case 8: rs->alpha_to_one = 0x100; break;
		default: rs->viewports[0].width = -4; break;
		}
		setup(&p);
		gt_draw(&p.t, 3, 1);
		gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
		expect_untouched(&p);
		gt_fini(&p.t);
	}
}

static void
test_bad_state_packets(void **state)
{
	struct pk p;

	pk_init(&p);
	/* pipeline struct of the wrong size */
	p.ps.size = 12;
	gt_set_pipeline(&p.t, &p.ps);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_SET_PIPELINE);
	p.ps.size = sizeof(p.ps);
	/* unaligned and unmapped state VAs */
	swgpu_emit_set_pipeline(gt_emit(&p.t, SWGPU_LEN_SET_PIPELINE),
	                        p.t.scratch.va + 4);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_SET_PIPELINE);
	swgpu_emit_set_dynamic(gt_emit(&p.t, SWGPU_LEN_SET_DYNAMIC),
	                       0xdead0000ull);
	gt_expect_fault(&p.t, SWGPU_FAULT_PAGE_READ, SWGPU_OP_SET_DYNAMIC);
	/* vertex buffers past binding 31; a length that does not match */
	uint32_t *v = gt_emit(&p.t, SWGPU_LEN_SET_VERTEX_BUFFERS(2));
	swgpu_emit_set_vertex_buffers_header(v, 31, 2);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET,
	                SWGPU_OP_SET_VERTEX_BUFFERS);
	v = gt_emit(&p.t, SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	swgpu_emit_set_vertex_buffers_header(v, 0, 2);
	v[0] = swgpu_pkt_header(SWGPU_OP_SET_VERTEX_BUFFERS, 0,
	                        SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET,
	                SWGPU_OP_SET_VERTEX_BUFFERS);
	/* index size 3, misaligned index buffer */
	swgpu_emit_set_index_buffer(gt_emit(&p.t, SWGPU_LEN_SET_INDEX_BUFFER),
	                            p.t.scratch.va, 64, 3);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET,
	                SWGPU_OP_SET_INDEX_BUFFER);
	swgpu_emit_set_index_buffer(gt_emit(&p.t, SWGPU_LEN_SET_INDEX_BUFFER),
	                            p.t.scratch.va + 2, 64, 4);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET,
	                SWGPU_OP_SET_INDEX_BUFFER);
	/* wrong fixed length */
	uint32_t *d = gt_emit(&p.t, SWGPU_LEN_DRAW + 1);
	swgpu_emit_draw(d, 0, 3, 1, 0, 0);
	d[0] = swgpu_pkt_header(SWGPU_OP_DRAW, 0, SWGPU_LEN_DRAW + 1);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW);
	/* query end without a begin, begin twice, unaligned */
	swgpu_emit_query_end(gt_emit(&p.t, SWGPU_LEN_QUERY), p.t.scratch.va);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_QUERY_END);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY), p.t.scratch.va,
	                       0);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY),
	                       p.t.scratch.va + 8, 0);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_QUERY_BEGIN);
	swgpu_emit_query_begin(gt_emit(&p.t, SWGPU_LEN_QUERY),
	                       p.t.scratch.va + 4, 0);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_QUERY_BEGIN);
	/* indirect draw: unaligned arguments, reserved dword set */
	setup(&p);
	swgpu_emit_draw_indirect(gt_emit(&p.t, SWGPU_LEN_DRAW_INDIRECT), 0, 0,
	                         p.t.scratch.va + 2, 1, 16, 0);
	gt_expect_fault(&p.t, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_DRAW_INDIRECT);
	expect_untouched(&p);
	gt_fini(&p.t);
}

/* Attachments: a format that is not renderable for its slot, a layer
 * count over the view's, an unmapped and a read-only colour attachment
 * (the depth clear of the same pass must not happen either); view
 * masks with a view at the limit or beyond the layer count. */
static void
test_bad_pass(void **state)
{
	for (int k = 0; k < 7; k++) {
		struct pk p;
		pk_init(&p);
		p.pass.depth.load_op = SWGPU_LOAD_CLEAR;
		swgpu_fault_kind kind = SWGPU_FAULT_BAD_PACKET;
		if (k == 0) {
			p.pass.depth.format = SWGPU_FORMAT_R8G8B8A8_UNORM;
		} else if (k == 1) {
			p.pass.layer_count = 2;
		} else if (k == 2) {
			p.pass.color[0].va = 0xdead0000ull;
			kind = SWGPU_FAULT_PAGE_WRITE;
		} else if (k == 3) {
			struct gt_buf ro = gt_buf(&p.t, p.rt.mem.size,
			                          SWGPU_VA_READ);
			p.pass.color[0].va = ro.va;
			kind = SWGPU_FAULT_PAGE_WRITE;
		} else if (k == 4) {
			p.pass.color[0].row_pitch = 4;   /* below the row */
		} else if (k == 5) {
			p.pass.view_mask = 1u << SWGPU_GFX_MAX_VIEWS;
		} else {
			p.pass.view_mask = 0x2;  /* layer 1 of 1 */
		}
		gt_begin_pass(&p.t, &p.pass);
		gt_expect_fault(&p.t, kind, SWGPU_OP_BEGIN_PASS);
		expect_untouched(&p);
		gt_fini(&p.t);
	}
}

/* A draw whose vertex buffer is not mapped faults with a page fault. */
static void
test_bad_vertex_buffer(void **state)
{
	struct pk p;

	pk_init(&p);
	gt_begin_pass(&p.t, &p.pass);
	gt_set_pipeline(&p.t, &p.ps);
	uint32_t *v = gt_emit(&p.t, SWGPU_LEN_SET_VERTEX_BUFFERS(1));
	swgpu_emit_set_vertex_buffers_header(v, 0, 1);
	swgpu_put_vertex_buffer(v + 3, 0xdead0000ull, 4096, 32);
	gt_draw(&p.t, 3, 1);
	gt_expect_fault(&p.t, SWGPU_FAULT_PAGE_READ, SWGPU_OP_DRAW);
	expect_untouched(&p);
	gt_fini(&p.t);
}

/* Graphics packets on an engine without a 3D pipe (env.gfx NULL). */
static void
test_not_a_graphics_engine(void **state)
{
	struct pk p;

	pk_init(&p);
	p.t.env.gfx = NULL;
	gt_begin_pass(&p.t, &p.pass);
	bool ok = exec_ib(&p.t.env, p.t.ib.va, p.t.n, 1);
	p.t.n = 0;
	assert_false(ok);
	assert_int_equal(p.t.fault.kind, SWGPU_FAULT_BAD_PACKET);
	assert_int_equal(p.t.fault.opcode, SWGPU_OP_BEGIN_PASS);
	p.t.env.gfx = p.t.g;
	gt_fini(&p.t);
}

/* A fragment program that never finishes its batch: the draw faults
 * with HANG. */
static void
test_fragment_hang(void **state)
{
	struct pk p;
	struct qv v[6];

	pk_init(&p);
	quad(v, 0, 0, W, H, 0.5f);
	p.t.frag_hang = true;
	gt_programs(&p.t);
	gt_begin_pass(&p.t, &p.pass);
	gt_set_pipeline(&p.t, &p.ps);
	gt_vertices(&p.t, &v[0].pos[0], 6, 2);
	gt_draw(&p.t, 6, 1);
	gt_end_pass(&p.t);
	gt_expect_fault(&p.t, SWGPU_FAULT_HANG, SWGPU_OP_DRAW);
	gt_fini(&p.t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_ops_render_area),
		cmocka_unit_test(test_load_clear_layers),
		cmocka_unit_test(test_load_clear_banded),
		cmocka_unit_test(test_multiview),
		cmocka_unit_test(test_clear_attachments),
		cmocka_unit_test(test_occlusion_query),
		cmocka_unit_test(test_bad_draw_state),
		cmocka_unit_test(test_bad_enums),
		cmocka_unit_test(test_bad_state_packets),
		cmocka_unit_test(test_bad_pass),
		cmocka_unit_test(test_bad_vertex_buffer),
		cmocka_unit_test(test_not_a_graphics_engine),
		cmocka_unit_test(test_fragment_hang),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Primitives and geometry of the graphics engine against hand-computed
 * pixels: points with a shader point size and PointCoord (lines are in
 * test_gfx_lines.c), clipping at the near and far planes and of a
 * triangle crossing the camera plane (w < 0), clip and cull distances
 * (also read as fragment inputs), polygon modes LINE and POINT,
 * primitive restart, instancing with a divisor, vertex formats and
 * robust vertex fetch, indirect draws with a count.
 */
#include "gfx_prims_util.h"

/* ------------------------------------------------------------------ */
/* Points                                                              */
/* ------------------------------------------------------------------ */

/* A size-4 point at (8.5, 8.5) covers the pixels whose centres lie in
 * [6.5, 10.5)^2; a size-1 point at (3.2, 3.7) the pixel (3, 3). */
static void
test_points(void **state)
{
	struct px p;
	struct vtx v[2] = { at(8.5, 8.5, 0.5, 1), at(3.2, 3.7, 0.5, 10) };

	px_init(&p);
	p.t.point_size = true;
	v[0].l3[0] = 4.0f;
	v[1].l3[0] = 1.0f;
	p.ps.state.topology = SWGPU_TOPOLOGY_POINT_LIST;
	assert_true(px_draw(&p, v, 2));
	EXPECT_IMAGE(&p, (x >= 6 && x < 10 && y >= 6 && y < 10) ? 1
	                 : (x == 3 && y == 3) ? 10 : 0);
	gt_fini(&p.t);
}

static void
frag_point_coord(struct gt *t, struct gfx_exec *e, uint32_t n,
                 const uint8_t *live, uint8_t *discarded)
{
	lane_t *s = gfx_exec_reg(e, IR_REG_POINT_COORD);
	lane_t *tt = gfx_exec_reg(e, IR_REG_POINT_COORD + 1);
	lane_t *o = gfx_exec_reg(e, GT_OUT(0, 0));
	for (uint32_t l = 0; l < n; l++)
		o[l].f = s[l].f * 100.0f + tt[l].f;
}

/* PointCoord = (1/2 + (xp - x) / size, 1/2 + (yp - y) / size). */
static void
test_point_coord(void **state)
{
	struct px p;
	struct vtx v[1] = { at(8.5, 8.5, 0.5, 1) };

	px_init(&p);
	p.t.point_size = true;
	p.t.frag = frag_point_coord;
	v[0].l3[0] = 4.0f;
	p.ps.state.topology = SWGPU_TOPOLOGY_POINT_LIST;
	assert_true(px_draw(&p, v, 1));
	for (int y = 6; y < 10; y++)
		for (int x = 6; x < 10; x++) {
			float s = 0.5f + (x + 0.5f - 8.5f) / 4.0f;
			float t = 0.5f + (y + 0.5f - 8.5f) / 4.0f;
			assert_true(fabsf(val(&p, x, y) - (s * 100 + t)) < 1e-4f);
		}
	gt_fini(&p.t);
}

/* ------------------------------------------------------------------ */
/* Clipping                                                            */
/* ------------------------------------------------------------------ */

/* A full-screen quad whose z goes from -0.5 (left) to 0.5 (right)
 * (near plane clips z < 0), then from 0.5 to 1.5 (far plane clips z >
 * w): the pixel columns whose centres have z >= 0 (resp. <= 1) stay. */
static void
test_clip_near_far(void **state)
{
	for (int far = 0; far < 2; far++) {
		struct px p;
		struct vtx v[6] = {
			at(0, -1, 0, 1), at(W, -1, 0, 1), at(W, H + 1, 0, 1),
			at(0, -1, 0, 1), at(W, H + 1, 0, 1), at(0, H + 1, 0, 1),
		};
		for (int i = 0; i < 6; i++) {
			double sx = (v[i].pos[0] + 1) * W / 2;
			v[i].pos[2] = (float)((far ? 0.5 : -0.5) + sx / W);
		}
		px_init(&p);
		assert_true(px_draw(&p, v, 6));
		/* z at column x: (far ? 0.5 : -0.5) + (x + 0.5) / 16 */
		EXPECT_IMAGE(&p, far ? (x + 0.5 < 8 ? 1 : 0)
		                     : (x + 0.5 > 8 ? 1 : 0));
		gt_fini(&p.t);
	}
}

/*
 * A triangle with one vertex behind the camera (w = -1): A = (-1, -1,
 * 0.5, 1), B = (1, -1, 0.5, 1), C = (0, 3, -1, -1). Clipped at z = 0 the
 * edges to C end at t = 1/3: (-2/3, 1/3, 0, 1/3) and (2/3, 1/3, 0, 1/3),
 * NDC (-2, 1) and (2, 1): a trapezoid covering the whole viewport, each
 * pixel once. Projected without clipping C would land at NDC (0, -3),
 * above the screen.
 */
static void
test_clip_behind_camera(void **state)
{
	struct px p;
	struct vtx v[3];

	px_init(&p);
	v[0] = at(0, 0, 0.5, 1);
	v[1] = at(W, 0, 0.5, 1);
	v[2] = at(0, 0, 0, 1);
	v[2].pos[0] = 0;
	v[2].pos[1] = 3;
	v[2].pos[2] = -1;
	v[2].pos[3] = -1;
	assert_true(px_draw(&p, v, 3));
	EXPECT_IMAGE(&p, 1);
	gt_fini(&p.t);
}

/* Huge triangles beyond the guard band are clipped in x/y, not wrapped:
 * a triangle spanning 1e6 pixels covers the viewport once. */
static void
test_guard_band(void **state)
{
	struct px p;
	struct vtx v[3] = { at(-1e6, -1e6, 0.5, 1), at(1e6, -1e6, 0.5, 1),
	                    at(8, 1e6, 0.5, 1) };

	px_init(&p);
	assert_true(px_draw(&p, v, 3));
	EXPECT_IMAGE(&p, 1);
	gt_fini(&p.t);
}

/* ClipDistance[0] = x_ndc clips the left half; CullDistance[0] < 0 at
 * every vertex drops a triangle, at some vertices keeps it whole. */
static void
test_clip_cull_distance(void **state)
{
	struct px p;
	struct vtx v[12];

	px_init(&p);
	p.t.clip_cull = true;
	const double xs[6] = { 0, W, W, 0, W, 0 }, ys[6] = { 0, 0, H, 0, H, H };
	for (int i = 0; i < 6; i++) {
		v[i] = at(xs[i], ys[i], 0.5, 1);
		v[i].l3[1] = v[i].pos[0];      /* clip: x_ndc */
		v[i].l3[2] = 1.0f;
	}
	/* second quad: cull distance -1 at every vertex of its first
	 * triangle, -1 at one vertex of the second (kept) */
	for (int i = 0; i < 6; i++) {
		v[6 + i] = at(xs[i], ys[i], 0.5, 100);
		v[6 + i].l3[1] = 1.0f;
		v[6 + i].l3[2] = i < 3 ? -1.0f : (i == 3 ? -1.0f : 1.0f);
	}
	assert_true(px_draw(&p, v, 12));
	/* first quad: columns with x_ndc >= 0 (x >= 8). second: triangle
	 * (0,0)(16,0)(16,16) culled, (0,0)(16,16)(0,16) drawn: below the
	 * diagonal, which is a right edge of this one (the culled triangle
	 * owned it). */
	EXPECT_IMAGE(&p, (x >= 8 ? 1 : 0) + (y > x ? 100 : 0));
	gt_fini(&p.t);
}

/* The fragment program's colour: its ClipDistance[0] input, or its
 * CullDistance[0] one (t->user non-NULL). */
static void
frag_distance(struct gt *t, struct gfx_exec *e, uint32_t n,
              const uint8_t *live, uint8_t *discarded)
{
	const lane_t *in = gfx_exec_reg(e, t->user ? GT_CULL_IN : GT_CLIP_IN);
	lane_t *out = gfx_exec_reg(e, GT_OUT(0, 0));

	(void)live;
	(void)discarded;
	for (uint32_t l = 0; l < n; l++)
		out[l] = in[l];
}

/* ClipDistance[0] = x_ndc + 0.5 clips x < 4 off the triangle (0,0)
 * (16,0) (0,16); the fragment program reads ClipDistance[0] (then
 * CullDistance[0] = y_ndc + 2) as inputs: the vertex values
 * interpolated at the pixel centre, on the clipped polygon too. */
static void
test_distance_inputs(void **state)
{
	for (int cull = 0; cull < 2; cull++) {
		struct px p;
		struct vtx v[3] = { at(0, 0, 0.5, 1), at(W, 0, 0.5, 1),
		                    at(0, H, 0.5, 1) };
		uint32_t checked = 0;

		px_init(&p);
		p.t.clip_cull = true;
		p.t.distance_inputs = true;
		p.t.frag = frag_distance;
		p.t.user = cull ? &p : NULL;
		for (int i = 0; i < 3; i++) {
			v[i].l3[1] = v[i].pos[0] + 0.5f;
			v[i].l3[2] = v[i].pos[1] + 2.0f;
		}
		assert_true(px_draw(&p, v, 3));
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				float xn = 2.0f * ((float)x + 0.5f) / W - 1.0f;
				float yn = 2.0f * ((float)y + 0.5f) / H - 1.0f;
				float want = cull ? yn + 2.0f : xn + 0.5f;

				if (x < 4 || x + y >= 16)
					want = 0.0f;       /* not drawn */
				else if (x + y == 15)
					continue;          /* the edge's rule */
				if (fabsf(val(&p, x, y) - want) > 1e-5f)
					fail_msg("%s: pixel (%d, %d) = %g, want "
					         "%g", cull ? "cull" : "clip", x,
					         y, (double)val(&p, x, y),
					         (double)want);
				checked++;
			}
		assert_true(checked > 200);
		gt_fini(&p.t);
	}
}

/* ------------------------------------------------------------------ */
/* Polygon modes                                                       */
/* ------------------------------------------------------------------ */

/* LINE: the triangle (2.5,2.5) (12.5,2.5) (2.5,12.5) drawn as its three
 * edges; POINT: its three vertices as 1-pixel points. */
static void
test_polygon_modes(void **state)
{
	for (uint32_t mode = 1; mode <= 2; mode++) {
		struct px p;
		struct vtx v[3] = { at(2.5, 2.5, 0.5, 1), at(12.5, 2.5, 0.5, 1),
		                    at(2.5, 12.5, 0.5, 1) };
		px_init(&p);
		p.ps.state.polygon_mode = mode;
		/* no blending: shared line ends overlap harmlessly */
		p.ps.state.blend[0].enable = 0;
		assert_true(px_draw(&p, v, 3));
		if (mode == 2) {
			EXPECT_IMAGE(&p, (x == 2 && y == 2) || (x == 12 && y == 2) ||
			                 (x == 2 && y == 12) ? 1 : 0);
		} else {
			/* edges: row 2 x 2..12, column 2 y 2..12, the diagonal
			 * x + y = 14 */
			EXPECT_IMAGE(&p, (y == 2 && x >= 2 && x <= 12) ||
			                 (x == 2 && y >= 2 && y <= 12) ||
			                 (x + y == 14 && x >= 2 && y >= 2) ? 1 : 0);
		}
		gt_fini(&p.t);
	}
}

/* ------------------------------------------------------------------ */
/* Indexed draws: restart, instancing                                  */
/* ------------------------------------------------------------------ */

/* A 16-bit indexed triangle strip with a restart index between two
 * quads: without restart a bridging triangle would appear. */
static void
test_primitive_restart(void **state)
{
	for (int restart = 0; restart < 2; restart++) {
		struct px p;
		struct vtx v[8] = {
			at(0, 0, 0.5, 1), at(6, 0, 0.5, 1), at(0, 6, 0.5, 1),
			at(6, 6, 0.5, 1),
			at(10, 10, 0.5, 1), at(16, 10, 0.5, 1), at(10, 16, 0.5, 1),
			at(16, 16, 0.5, 1),
		};
		const uint16_t idx[9] = { 0, 1, 2, 3, 0xffff, 4, 5, 6, 7 };
		const uint16_t idx_nr[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
		px_init(&p);
		p.ps.state.topology = SWGPU_TOPOLOGY_TRIANGLE_STRIP;
		p.ps.state.primitive_restart = (uint32_t)restart;
		gt_programs(&p.t);
		gt_begin_pass(&p.t, &p.pass);
		gt_set_pipeline(&p.t, &p.ps);
		gt_vertices(&p.t, &v[0].pos[0], 8, NA);
		const void *ib = restart ? (const void *)idx : (const void *)idx_nr;
		uint32_t n = restart ? 9 : 8;
		swgpu_emit_set_index_buffer(
			gt_emit(&p.t, SWGPU_LEN_SET_INDEX_BUFFER),
			gt_put(&p.t, ib, n * 2), n * 2, 2);
		swgpu_emit_draw_indexed(gt_emit(&p.t, SWGPU_LEN_DRAW_INDEXED),
		                        0, n, 1, 0, 0, 0);
		gt_end_pass(&p.t);
		assert_true(gt_run(&p.t));
		int bridge = 0;
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) {
				bool a = x < 6 && y < 6, b = x >= 10 && y >= 10;
				float c = val(&p, x, y);
				if (a || b)
					assert_true(c == 1.0f);
				else
					bridge += c != 0.0f;
			}
		assert_true(restart ? bridge == 0 : bridge > 0);
		gt_fini(&p.t);
	}
}

/* Instances: binding 1 per instance with divisor 2 offsets each pair of
 * instances; InstanceIndex = firstInstance + i. Four instances of a
 * 4x4 quad, first instance 1: instances 1, 2 read element 1 + (i - 1) /
 * 2 = 1, 1; instances 3, 4 element 2. Offsets element e = (4e, 0). */
static void
test_instancing_divisor(void **state)
{
	struct px p;
	struct vtx v[6] = {
		at(0, 0, 0.5, 1), at(4, 0, 0.5, 1), at(4, 4, 0.5, 1),
		at(0, 0, 0.5, 1), at(4, 4, 0.5, 1), at(0, 4, 0.5, 1),
	};
	/* binding 1, per instance (divisor 2): the colour of each
	 * instance, element 1 adds 1, element 2 adds 10 */
	float colors[3][4] = { { 0, 0, 0, 1 }, { 1, 0, 0, 1 }, { 10, 0, 0, 1 } };

	px_init(&p);
	p.ps.binding_count = 2;
	p.ps.bindings[1].stride = 16;
	p.ps.bindings[1].input_rate = 1;
	p.ps.bindings[1].divisor = 2;
	p.ps.attribs[1].binding = 1;
	p.ps.attribs[1].offset = 0;
	gt_programs(&p.t);
	gt_begin_pass(&p.t, &p.pass);
	gt_set_pipeline(&p.t, &p.ps);
	uint64_t vva = gt_put(&p.t, v, sizeof(v));
	uint64_t cva = gt_put(&p.t, colors, sizeof(colors));
	uint32_t *pk = gt_emit(&p.t, SWGPU_LEN_SET_VERTEX_BUFFERS(2));
	swgpu_emit_set_vertex_buffers_header(pk, 0, 2);
	swgpu_put_vertex_buffer(pk + 3, vva, sizeof(v), sizeof(v[0]));
	swgpu_put_vertex_buffer(pk + 8, cva, sizeof(colors), 16);
	swgpu_emit_draw(gt_emit(&p.t, SWGPU_LEN_DRAW), 0, 6, 4, 0, 1);
	gt_end_pass(&p.t);
	assert_true(gt_run(&p.t));
	/* 4 instances on the same pixels: 1 + 1 + 10 + 10 */
	EXPECT_IMAGE(&p, x < 4 && y < 4 ? 22 : 0);
	gt_fini(&p.t);
}

/* ------------------------------------------------------------------ */
/* Vertex fetch                                                        */
/* ------------------------------------------------------------------ */

static void
frag_flat_rgba(struct gt *t, struct gfx_exec *e, uint32_t n,
               const uint8_t *live, uint8_t *discarded)
{
	for (uint32_t c = 0; c < 4; c++) {
		lane_t *in = gfx_exec_reg(e, GT_IN(1, c));
		lane_t *o = gfx_exec_reg(e, GT_OUT(0, c));
		for (uint32_t l = 0; l < n; l++)
			o[l] = in[l];
	}
}

/* Each vertex-fetchable format with 32-bit-or-less channels as the
 * colour attribute (binding 1, flat): the fragment sees what the
 * format's decoder makes of the bytes (floats, or integers as their
 * bits for integer formats); an attribute past the end of its buffer
 * reads as zero bytes. */
static void
test_vertex_formats_robust(void **state)
{
	uint32_t tested = 0;

	for (uint32_t fmt = 1; fmt < SWGPU_FORMAT_COUNT; fmt++) {
		if (!swgpu_format_vertex_fetchable(fmt))
			continue;
		const swgpu_format_info *fi = swgpu_format_get_info(fmt);
		struct gt t;
		struct swgpu_pipeline_state ps;
		struct swgpu_pass pass;
		struct vtx v[6] = {
			at(0, 0, 0.5, 0), at(8, 0, 0.5, 0), at(0, 8, 0.5, 0),
			at(8, 8, 0.5, 0), at(16, 8, 0.5, 0), at(8, 16, 0.5, 0),
		};
		uint8_t bytes[2][32];
		for (int k = 0; k < 32; k++)
			bytes[0][k] = (uint8_t)(0x35 + 29 * k);
		gt_init(&t, 1);
		struct gt_image rt = gt_image(&t, SWGPU_FORMAT_R32G32B32A32_UINT,
		                              W, H);
		memset(&pass, 0, sizeof(pass));
		pass.color_count = 1;
		pass.layer_count = 1;
		pass.area_width = W;
		pass.area_height = H;
		gt_attachment(&rt, &pass.color[0], SWGPU_LOAD_CLEAR,
		              (const uint32_t[4]){ 7, 7, 7, 7 });
		gt_pipeline_defaults(&ps, W, H, NA);
		ps.binding_count = 2;
		ps.bindings[1].stride = fi->block_bytes;
		ps.attribs[1].binding = 1;
		ps.attribs[1].offset = 0;
		ps.attribs[1].format = fmt;
		t.interp[1] = IR_INTERP_FLAT;
		t.frag = frag_flat_rgba;
		gt_programs(&t);
		gt_begin_pass(&t, &pass);
		gt_set_pipeline(&t, &ps);
		uint64_t vva = gt_put(&t, v, sizeof(v));
		/* only the first 3 vertices' colours exist */
		uint64_t cva = gt_put(&t, bytes[0], 3u * fi->block_bytes);
		uint32_t *pk = gt_emit(&t, SWGPU_LEN_SET_VERTEX_BUFFERS(2));
		swgpu_emit_set_vertex_buffers_header(pk, 0, 2);
		swgpu_put_vertex_buffer(pk + 3, vva, sizeof(v), sizeof(v[0]));
		swgpu_put_vertex_buffer(pk + 8, cva, 3u * fi->block_bytes,
		                        fi->block_bytes);
		gt_draw(&t, 6, 1);
		gt_end_pass(&t);
		assert_true(gt_run(&t));
		for (int tri = 0; tri < 2; tri++) {
			struct texel tx;
			uint8_t zero[32] = { 0 };
			format_decode(fi, tri ? zero : bytes[0], &tx);
			const uint8_t *got = gt_px(&rt, tri ? 11 : 2, tri ? 11 : 2);
			for (int c = 0; c < 4; c++) {
				uint32_t want;
				if (fi->blit_class == SWGPU_BLIT_CLASS_UINT)
					want = (uint32_t)tx.u[c];
				else if (fi->blit_class == SWGPU_BLIT_CLASS_SINT)
					want = (uint32_t)(int32_t)tx.i[c];
				else
					want = gt_fbits((float)tx.f[c]);
				uint32_t g;
				memcpy(&g, got + 4 * c, 4);
				if (g != want)
					fail_msg("%s triangle %d channel %d: "
					         "0x%08x want 0x%08x", fi->name,
					         tri, c, g, want);
			}
		}
		tested++;
		gt_fini(&t);
	}
	print_message("%u vertex formats\n", tested);
	const uint32_t mandatory[] = {
		SWGPU_FORMAT_R8_UNORM, SWGPU_FORMAT_R8_SNORM,
		SWGPU_FORMAT_R8_UINT, SWGPU_FORMAT_R8_SINT,
		SWGPU_FORMAT_R8G8_UNORM, SWGPU_FORMAT_R8G8B8A8_UNORM,
		SWGPU_FORMAT_R8G8B8A8_SNORM, SWGPU_FORMAT_R8G8B8A8_UINT,
		SWGPU_FORMAT_R8G8B8A8_SINT, SWGPU_FORMAT_B8G8R8A8_UNORM,
		SWGPU_FORMAT_A2B10G10R10_UNORM_PACK32, SWGPU_FORMAT_R16_UNORM,
		SWGPU_FORMAT_R16_SNORM, SWGPU_FORMAT_R16_UINT,
		SWGPU_FORMAT_R16_SINT, SWGPU_FORMAT_R16_SFLOAT,
		SWGPU_FORMAT_R16G16B16A16_SFLOAT, SWGPU_FORMAT_R32_UINT,
		SWGPU_FORMAT_R32_SINT, SWGPU_FORMAT_R32_SFLOAT,
		SWGPU_FORMAT_R32G32_SFLOAT, SWGPU_FORMAT_R32G32B32_SFLOAT,
		SWGPU_FORMAT_R32G32B32A32_SFLOAT,
		SWGPU_FORMAT_R32G32B32A32_UINT, SWGPU_FORMAT_R32G32B32A32_SINT,
	};
	for (size_t i = 0; i < sizeof(mandatory) / sizeof(mandatory[0]); i++)
		assert_true(swgpu_format_vertex_fetchable(mandatory[i]));
	assert_true(tested > 60);
}

/* ------------------------------------------------------------------ */
/* Indirect draws                                                      */
/* ------------------------------------------------------------------ */

/* Three commands (the middle one with no instances), stride 20; the
 * COUNT form with a count of 1 draws only the first. */
static void
test_draw_indirect(void **state)
{
	for (int count = 0; count < 2; count++) {
		struct px p;
		struct vtx v[9] = {
			at(0, 0, 0.5, 1), at(4, 0, 0.5, 1), at(0, 4, 0.5, 1),
			at(8, 0, 0.5, 10), at(12, 0, 0.5, 10), at(8, 4, 0.5, 10),
			at(0, 8, 0.5, 100), at(4, 8, 0.5, 100),
			at(0, 12, 0.5, 100),
		};
		const uint32_t cmds[15] = {
			3, 1, 0, 0, 0,
			3, 0, 3, 0, 0,
			3, 1, 6, 0, 0,
		};
		const uint32_t n = 1;
		px_init(&p);
		gt_programs(&p.t);
		gt_begin_pass(&p.t, &p.pass);
		gt_set_pipeline(&p.t, &p.ps);
		gt_vertices(&p.t, &v[0].pos[0], 9, NA);
		uint64_t args = gt_put(&p.t, cmds, sizeof(cmds));
		uint64_t cva = gt_put(&p.t, &n, 4);
		swgpu_emit_draw_indirect(gt_emit(&p.t, SWGPU_LEN_DRAW_INDIRECT),
		                         count ? SWGPU_DRAW_COUNT : 0, 0, args,
		                         3, 20, count ? cva : 0);
		gt_end_pass(&p.t);
		assert_true(gt_run(&p.t));
		assert_true(val(&p, 1, 1) == 1.0f);
		assert_true(val(&p, 9, 1) == 0.0f);
		assert_true(val(&p, 1, 9) == (count ? 0.0f : 100.0f));
		gt_fini(&p.t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_point_coord),
		cmocka_unit_test(test_clip_near_far),
		cmocka_unit_test(test_clip_behind_camera),
		cmocka_unit_test(test_guard_band),
		cmocka_unit_test(test_clip_cull_distance),
		cmocka_unit_test(test_distance_inputs),
		cmocka_unit_test(test_polygon_modes),
		cmocka_unit_test(test_primitive_restart),
		cmocka_unit_test(test_instancing_divisor),
		cmocka_unit_test(test_vertex_formats_robust),
		cmocka_unit_test(test_draw_indirect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

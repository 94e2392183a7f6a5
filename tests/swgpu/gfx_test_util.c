/* SPDX-License-Identifier: MIT */
/* Fixture of the graphics engine tests (see gfx_test_util.h). */
#include "gfx_test_util.h"
#include "gfx_pipeline_defaults.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/format/format.h"

#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)

static bool
vs_host(void *user, struct gfx_exec *e, uint32_t n, const uint8_t *live,
        uint8_t *discarded)
{
	struct gt *t = user;

	for (uint32_t c = 0; c < 4; c++) {
		lane_t *in = gfx_exec_reg(e, GT_IN(0, c));
		lane_t *out = gfx_exec_reg(e, GT_POS + c);
		for (uint32_t l = 0; l < n; l++)
			out[l] = in[l];
	}
	for (uint32_t loc = 1; loc < GT_LOCS; loc++)
		for (uint32_t c = 0; c < 4; c++) {
			lane_t *in = gfx_exec_reg(e, GT_IN(loc, c));
			lane_t *out = gfx_exec_reg(e, GT_OUT(loc, c));
			for (uint32_t l = 0; l < n; l++)
				out[l] = in[l];
		}
	if (t->point_size) {
		lane_t *in = gfx_exec_reg(e, GT_IN(3, 0));
		lane_t *out = gfx_exec_reg(e, GT_PSIZE);
		for (uint32_t l = 0; l < n; l++)
			out[l] = in[l];
	}
	if (t->clip_cull) {
		lane_t *cy = gfx_exec_reg(e, GT_IN(3, 1));
		lane_t *cz = gfx_exec_reg(e, GT_IN(3, 2));
		lane_t *clip = gfx_exec_reg(e, GT_CLIP);
		lane_t *cull = gfx_exec_reg(e, GT_CULL);
		for (uint32_t l = 0; l < n; l++) {
			clip[l] = cy[l];
			cull[l] = cz[l];
		}
	}
	return true;
}

static bool
fs_host(void *user, struct gfx_exec *e, uint32_t n, const uint8_t *live,
        uint8_t *discarded)
{
	struct gt *t = user;

	__atomic_fetch_add(&t->frag_runs, 1, __ATOMIC_RELAXED);
	if (t->frag_hang)
		return false;
	if (t->frag) {
		t->frag(t, e, n, live, discarded);
	} else {
		for (uint32_t a = 0; a < GT_LOCS; a++)
			for (uint32_t c = 0; c < 4; c++) {
				lane_t *in = gfx_exec_reg(e, GT_IN(1, c));
				lane_t *out = gfx_exec_reg(e, GT_OUT(a, c));
				for (uint32_t l = 0; l < n; l++)
					out[l] = in[l];
			}
	}
	if (t->dual)
		for (uint32_t c = 0; c < 4; c++) {
			lane_t *in = gfx_exec_reg(e, GT_IN(2, c));
			lane_t *out = gfx_exec_reg(e, GT_OUT1(c));
			for (uint32_t l = 0; l < n; l++)
				out[l] = in[l];
		}
	if (t->frag_depth) {
		lane_t *in = gfx_exec_reg(e, GT_IN(2, 0));
		lane_t *out = gfx_exec_reg(e, GT_FDEPTH);
		for (uint32_t l = 0; l < n; l++)
			out[l] = in[l];
	}
	return true;
}

void
gt_programs(struct gt *t)
{
	memset(&t->vs_io, 0, sizeof(t->vs_io));
	memset(&t->fs_io, 0, sizeof(t->fs_io));
	for (uint32_t loc = 0; loc < GT_LOCS; loc++)
		for (uint32_t c = 0; c < 4; c++) {
			t->vs_io.in_reg[loc][c] = GT_IN(loc, c);
			if (loc)
				t->vs_io.out_reg[loc][c] = GT_OUT(loc, c);
		}
	t->vs_io.position_reg = GT_POS;
	if (t->point_size)
		t->vs_io.point_size_reg = GT_PSIZE;
	if (t->clip_cull) {
		t->vs_io.clip_reg = GT_CLIP;
		t->vs_io.clip_count = 1;
		t->vs_io.cull_reg = GT_CULL;
		t->vs_io.cull_count = 1;
	}
	for (uint32_t loc = 1; loc < GT_LOCS; loc++)
		for (uint32_t c = 0; c < 4; c++) {
			t->fs_io.in_reg[loc][c] = GT_IN(loc, c);
			t->fs_io.in_interp[loc][c] = t->interp[loc];
		}
	for (uint32_t a = 0; a < GT_LOCS; a++)
		for (uint32_t c = 0; c < 4; c++)
			t->fs_io.out_reg[a][c] = GT_OUT(a, c);
	if (t->dual)
		for (uint32_t c = 0; c < 4; c++)
			t->fs_io.out_index1_reg[c] = GT_OUT1(c);
	if (t->distance_inputs) {
		t->fs_io.clip_in_reg = GT_CLIP_IN;
		t->fs_io.clip_in_count = 1;
		t->fs_io.cull_in_reg = GT_CULL_IN;
		t->fs_io.cull_in_count = 1;
	}
	t->fs_io.early_fragment_tests = t->early;
	if (t->frag_depth) {
		t->fs_io.frag_depth_reg = GT_FDEPTH;
		t->fs_io.depth_mode = IR_DEPTH_ANY;
	}
	t->fs_io.discards = t->frag != NULL && !t->frag_no_discard;
	t->fs_io.reads_input_attachment = t->input_attachment;
	t->vsp = (struct gfx_program){
		.io = &t->vs_io, .host = vs_host, .user = t,
		.nregs = GT_NREGS,
		.builtins_used = (1ull << IR_REG_VERTEX_INDEX) |
		                 (1ull << IR_REG_INSTANCE_INDEX),
	};
	t->fsp = (struct gfx_program){
		.io = &t->fs_io, .host = fs_host, .user = t,
		.nregs = GT_NREGS,
		.builtins_used = (~0ull >> 2) |
		                 (1ull << IR_REG_CENTROID_SAMPLE),
	};
	/* Reading SampleId or SamplePosition makes a multisampled draw
	 * shade per sample: only tests that ask for them claim them. */
	if (!t->fs_sample_builtins)
		t->fsp.builtins_used &= ~((1ull << IR_REG_SAMPLE_ID) |
		                          (3ull << IR_REG_SAMPLE_POSITION));
	gfx_state_set_test_programs(t->g, &t->vsp, t->no_fs ? NULL : &t->fsp);
}

struct gt_buf
gt_buf(struct gt *t, uint64_t size, uint32_t va_flags)
{
	struct gt_buf b = { .size = size };
	struct swgpu_bo *bo;

	assert_int_equal(bo_create_in(&t->mem, NULL, size, SWGPU_HEAP_SYSTEM,
	                              0, &bo), SWGPU_OK);
	assert_int_equal(vaspace_map(t->vs, bo, 0, size, va_flags, &b.va),
	                 SWGPU_OK);
	b.cpu = bo->cpu;
	swgpu_bo_destroy(bo);
	memset(b.cpu, 0, size);
	return b;
}

void
gt_init(struct gt *t, uint32_t threads)
{
	swgpu_config cfg;

	memset(t, 0, sizeof(*t));
	swgpu_config_init(&cfg);
	cfg.vram_size = 64ull << 20;
	cfg.bar_size = 16ull << 20;
	cfg.system_size = 1024ull << 20;
	mem_init(&t->mem, &cfg);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096,
	                                &t->vs), SWGPU_OK);
	t->pool = gfx_pool_create(threads);
	assert_non_null(t->pool);
	t->g = gfx_state_create(t->pool);
	assert_non_null(t->g);
	t->env = (struct exec_env){
		.vs = t->vs, .engine = 4, .max_ib_depth = 4,
		.max_ib_size_dw = 1u << 20,
		.hang_timeout_ns = 10ull * 1000000000ull,
		.fault = &t->fault, .stats = &t->stats, .gfx = t->g,
	};
	t->ib = gt_buf(t, 1u << 20, RW);
	t->scratch = gt_buf(t, 8u << 20, RW);
	for (uint32_t i = 0; i < GT_LOCS; i++)
		t->interp[i] = IR_INTERP_SMOOTH;
	gt_programs(t);
}

void
gt_fini(struct gt *t)
{
	gfx_state_destroy(t->g);
	gfx_pool_destroy(t->pool);
	vaspace_destroy(t->vs);
	assert_int_equal(t->mem.bo_count, 0);
	mem_fini(&t->mem);
}

uint64_t
gt_put(struct gt *t, const void *data, uint64_t size)
{
	uint64_t at = (t->scratch_used + 63) & ~63ull;

	assert_true(at + size <= t->scratch.size);
	memcpy(t->scratch.cpu + at, data, size);
	t->scratch_used = at + size;
	return t->scratch.va + at;
}

uint32_t *
gt_emit(struct gt *t, uint32_t ndw)
{
	uint32_t *p = (uint32_t *)(void *)t->ib.cpu + t->n;

	assert_true((t->n + ndw) * 4u <= t->ib.size);
	t->n += ndw;
	return p;
}

bool
gt_run(struct gt *t)
{
	memset(&t->fault, 0, sizeof(t->fault));
	gfx_state_reset(t->g);
	gfx_state_set_test_programs(t->g, &t->vsp, t->no_fs ? NULL : &t->fsp);
	bool ok = exec_ib(&t->env, t->ib.va, t->n, 1);
	if (!ok && getenv("TEST_VERBOSE"))
		print_message("fault: %s\n", t->fault.message);
	t->n = 0;
	t->scratch_used = 0;
	return ok;
}

void
gt_expect_fault(struct gt *t, swgpu_fault_kind kind, uint32_t opcode)
{
	bool ok = gt_run(t);

	if (ok || t->fault.kind != kind || t->fault.opcode != opcode)
		print_error("expected fault kind %d op 0x%x, got ok=%d kind %d "
		            "op 0x%x: %s\n", kind, opcode, ok, t->fault.kind,
		            t->fault.opcode, t->fault.message);
	assert_false(ok);
	assert_int_equal(t->fault.kind, kind);
	assert_int_equal(t->fault.opcode, opcode);
}

struct gt_image
gt_image(struct gt *t, uint32_t format, uint32_t w, uint32_t h)
{
	struct gt_image im = { .format = format, .w = w, .h = h };
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	assert_non_null(fi);
	im.bpp = fi->block_bytes;
	im.pitch = (uint64_t)w * im.bpp;
	im.mem = gt_buf(t, im.pitch * h, RW);
	return im;
}

void
gt_attachment(const struct gt_image *im, struct swgpu_attachment *a,
              uint32_t load_op, const uint32_t clear[4])
{
	memset(a, 0, sizeof(*a));
	a->va = im->mem.va;
	a->row_pitch = im->pitch;
	a->layer_pitch = im->pitch * im->h;
	a->format = im->format;
	a->width = im->w;
	a->height = im->h;
	a->layers = 1;
	a->load_op = load_op;
	a->samples = 1;
	if (clear)
		memcpy(a->clear, clear, sizeof(a->clear));
}

float
gt_pxf(const struct gt_image *im, uint32_t x, uint32_t y, uint32_t c)
{
	const swgpu_format_info *fi = swgpu_format_get_info(im->format);
	struct texel tx;

	format_decode(fi, gt_px(im, x, y), &tx);
	return (float)tx.f[c];
}

void
gt_pipeline_defaults(struct swgpu_pipeline_state *ps, uint32_t w, uint32_t h,
                     uint32_t nattr)
{
	gfx_pipeline_defaults(ps, w, h, nattr);
	ps->vs_code_va = 0x1000;  /* unused: host programs */
}

void
gt_begin_pass(struct gt *t, const struct swgpu_pass *ps)
{
	swgpu_emit_begin_pass(gt_emit(t, SWGPU_LEN_BEGIN_PASS),
	                      gt_put(t, ps, sizeof(*ps)));
}

void
gt_end_pass(struct gt *t)
{
	swgpu_emit_end_pass(gt_emit(t, SWGPU_LEN_END_PASS));
}

void
gt_set_pipeline(struct gt *t, const struct swgpu_pipeline_state *ps)
{
	swgpu_emit_set_pipeline(gt_emit(t, SWGPU_LEN_SET_PIPELINE),
	                        gt_put(t, ps, sizeof(*ps)));
}

void
gt_set_dynamic(struct gt *t, const struct swgpu_raster_state *rs)
{
	swgpu_emit_set_dynamic(gt_emit(t, SWGPU_LEN_SET_DYNAMIC),
	                       gt_put(t, rs, sizeof(*rs)));
}

void
gt_vertices(struct gt *t, const float *data, uint32_t nverts, uint32_t nattr)
{
	uint64_t size = (uint64_t)nverts * nattr * 16;
	uint64_t va = gt_put(t, data, size);
	uint32_t *p = gt_emit(t, SWGPU_LEN_SET_VERTEX_BUFFERS(1));

	swgpu_emit_set_vertex_buffers_header(p, 0, 1);
	swgpu_put_vertex_buffer(p + 3, va, size, 16 * nattr);
}

void
gt_draw(struct gt *t, uint32_t count, uint32_t instances)
{
	swgpu_emit_draw(gt_emit(t, SWGPU_LEN_DRAW), 0, count, instances, 0, 0);
}

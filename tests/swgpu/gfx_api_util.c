/* SPDX-License-Identifier: MIT */
/* Helpers of the public-API graphics engine tests (gfx_api_util.h). */
#include "gfx_api_util.h"
#include "gfx_pipeline_defaults.h"

#include <string.h>

#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)

void
ga_init(struct ga *g, const swgpu_config *cfg)
{
	swgpu_config small;

	memset(g, 0, sizeof(*g));
	if (!cfg) {
		api_config_small(&small);
		cfg = &small;
	}
	g->dev = api_open(cfg);
	api_ok(swgpu_context_create(g->dev, &g->ctx));
	g->q = api_queue(g->ctx, SWGPU_ENGINE_GRAPHICS, 0);
	api_cmd_init(&g->cmd, g->dev, g->ctx, 16384);
	api_buf_init(&g->scratch, g->dev, g->ctx, 4u << 20, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, RW);
}

void
ga_fini(struct ga *g)
{
	api_buf_fini(&g->scratch);
	api_cmd_fini(&g->cmd);
	swgpu_queue_destroy(g->q);
	swgpu_context_destroy(g->ctx);
	swgpu_device_close(g->dev);
}

uint64_t
ga_put(struct ga *g, const void *data, uint64_t size)
{
	uint64_t at = (g->used + 63) & ~63ull;

	assert_true(at + size <= g->scratch.size);
	memcpy(g->scratch.cpu + at, data, size);
	g->used = at + size;
	return g->scratch.va + at;
}

swgpu_shader *
ga_shader(struct ga *g, const uint32_t *code, size_t size,
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
	if (swgpu_shader_create(g->ctx, &info, &s) != SWGPU_OK)
		print_error("shader_create: %s\n", err);
	assert_non_null(s);
	return s;
}

struct ga_image
ga_image(struct ga *g, uint32_t format, uint32_t w, uint32_t h)
{
	struct ga_image im = { .format = format, .w = w, .h = h };
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	assert_non_null(fi);
	im.bpp = fi->block_bytes;
	im.pitch = (uint64_t)w * im.bpp;
	api_buf_init(&im.mem, g->dev, g->ctx, im.pitch * h, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, RW);
	memset(im.mem.cpu, 0, im.pitch * h);
	return im;
}

void
ga_image_fini(struct ga_image *im)
{
	api_buf_fini(&im->mem);
}

void
ga_attachment(const struct ga_image *im, struct swgpu_attachment *a,
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

void
ga_pipeline(struct swgpu_pipeline_state *ps, const swgpu_shader *vs,
            const swgpu_shader *fs, uint32_t w, uint32_t h, uint32_t nattr)
{
	gfx_pipeline_defaults(ps, w, h, nattr);
	ps->vs_code_va = vs ? swgpu_shader_code_va(vs) : 0;
	ps->fs_code_va = fs ? swgpu_shader_code_va(fs) : 0;
}

swgpu_result
ga_submit_wait(struct ga *g)
{
	swgpu_ib ib = api_cmd_end(&g->cmd);
	swgpu_result r = api_submit(g->q, &ib, NULL, 0, NULL, 0, NULL);

	if (r == SWGPU_OK)
		r = swgpu_queue_wait(g->q, 0, api_deadline_ms(API_WAIT_MS));
	api_cmd_reset(&g->cmd);
	g->used = 0;
	return r;
}

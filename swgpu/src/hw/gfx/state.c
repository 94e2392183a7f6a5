/* SPDX-License-Identifier: MIT */
/*
 * Graphics state of one hardware queue: its lifetime, reset at each job,
 * the per-thread scratch of the raster threads and the batch buffers
 * reused from draw to draw.
 */
#include "hw/gfx/gfx_internal.h"

#include <stdlib.h>
#include <string.h>

#include "hw/shader/shader.h"
#include "util/util.h"

static void
drop_programs(struct gfx_state *g)
{
	shader_put(g->vs_shader);
	shader_put(g->fs_shader);
	g->vs_shader = g->fs_shader = NULL;
	memset(&g->vs_prog, 0, sizeof(g->vs_prog));
	memset(&g->fs_prog, 0, sizeof(g->fs_prog));
	/* Execution states belong to the old programs. */
	for (uint32_t i = 0; i < g->nthreads; i++) {
		struct gfx_thread *t = g->threads[i];
		gfx_exec_destroy(t->vs);
		gfx_exec_destroy(t->fs);
		gfx_exec_destroy(t->fs_uniform);
		t->vs = t->fs = t->fs_uniform = NULL;
		t->have_execs = false;
	}
	g->prog_gen++;
}

void
gfx_state_reset(struct gfx_state *g)
{
	drop_programs(g);
	g->pass_open = false;
	g->has_pipeline = false;
	g->has_dynamic = false;
	g->index_size = 0;
	g->ib_va = g->ib_size = 0;
	g->query_open = false;
	g->query_count = 0;
	memset(g->vb, 0, sizeof(g->vb));
	memset(&g->dyn, 0, sizeof(g->dyn));
	memset(&g->resume, 0, sizeof(g->resume));
}

struct gfx_state *
gfx_state_create(struct gfx_pool *pool)
{
	struct gfx_state *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->pool = pool;
	g->nthreads = gfx_pool_threads(pool);
	g->threads = calloc(g->nthreads, sizeof(*g->threads));
	g->vs_res = calloc(1, sizeof(*g->vs_res));
	g->fs_res = calloc(1, sizeof(*g->fs_res));
	g->batch = swgpu_calloc_private(1, sizeof(*g->batch));
	g->draw = calloc(1, sizeof(*g->draw));
	if (!g->threads || !g->vs_res || !g->fs_res || !g->batch || !g->draw)
		goto fail;
	g->batch->hash = calloc(GFX_HASH_SIZE, sizeof(*g->batch->hash));
	if (!g->batch->hash)
		goto fail;
	for (uint32_t i = 0; i < g->nthreads; i++) {
		/* written batch after batch: lines of its own */
		g->threads[i] = swgpu_calloc_private(1,
		                                     sizeof(*g->threads[i]));
		if (!g->threads[i])
			goto fail;
		g->threads[i]->index = i;
	}
	return g;
fail:
	gfx_state_destroy(g);
	return NULL;
}

bool
gfx_state_set_pool(struct gfx_state *g, struct gfx_pool *pool)
{
	/* The per-thread scratch (g->threads) is indexed by pool thread. */
	if (gfx_pool_threads(pool) != g->nthreads)
		return false;
	g->pool = pool;
	return true;
}

void
gfx_state_destroy(struct gfx_state *g)
{
	if (!g)
		return;
	if (g->threads) {
		for (uint32_t i = 0; i < g->nthreads; i++)
			if (!g->threads[i])
				g->nthreads = i;
		drop_programs(g);
		for (uint32_t i = 0; i < g->nthreads; i++)
			free(g->threads[i]);
	}
	free(g->threads);
	if (g->batch) {
		struct gfx_batch *b = g->batch;
		for (uint32_t k = 0; k < GFX_BATCH_CHUNKS; k++) {
			free(b->chunks[k].prims);
			free(b->chunks[k].bins);
			gfx_arena_free(&b->chunks[k].arena);
		}
		free(b->verts);
		free(b->hash);
		free(b->tile_count);
		free(b->touched);
		free(b->tile_start);
		free(b->tile_prims);
		free(b);
	}
	free(g->vs_res);
	free(g->fs_res);
	free(g->draw);
	free(g);
}

bool
gfx_state_pass_open(const struct gfx_state *g)
{
	return g->pass_open;
}

void
gfx_state_set_test_programs(struct gfx_state *g, const struct gfx_program *vs,
                            const struct gfx_program *fs)
{
	g->test_vs = vs;
	g->test_fs = fs;
	drop_programs(g);
}

void
gfx_state_set_programs(struct gfx_state *g, struct swgpu_shader *vs,
                       const struct gfx_program *vp, struct swgpu_shader *fs,
                       const struct gfx_program *fp)
{
	drop_programs(g);
	g->vs_shader = vs;
	g->fs_shader = fs;
	g->vs_prog = *vp;
	g->fs_prog = *fp;
}

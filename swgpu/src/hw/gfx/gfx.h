/* SPDX-License-Identifier: MIT */
/*
 * The fixed-function graphics pipeline of a graphics engine (internal):
 * what the engine and the graphics packets (hw/packet/packet_gfx.c) see.
 *
 * A graphics engine owns one raster worker pool (gfx_pool: the engine
 * thread plus SWGPU_GFX_THREADS - 1 persistent workers) and one
 * graphics state per hardware queue (gfx_state: the "registers" of the
 * 3D pipe — open pass, pipeline, dynamic state, vertex/index buffers,
 * open query). The state is reset at every JOB_BEGIN and left alone
 * while a preempted job waits, so the job resumes with its own state.
 *
 * The stages, one file each (see docs/ARCHITECTURE.md "The graphics
 * engine"): vertex_fetch.c, vertex_shade.c, assembly.c, clip.c,
 * setup.c, bin.c, raster_tri.c, raster_line.c, raster_point.c,
 * frag_shade.c, depth_stencil.c, blend.c, output.c; pass.c (load ops,
 * clears), draw.c (a draw from packet to pixels), pool.c (threads).
 */
#ifndef SWGPU_GFX_H
#define SWGPU_GFX_H

#include <stdbool.h>
#include <stdint.h>

struct gfx_pool;
struct gfx_state;

/* A pool of threads raster work runs on: the calling (engine) thread
 * and threads - 1 workers, started at once and idle until work comes.
 * NULL when out of memory or threads could not be started. */
struct gfx_pool *gfx_pool_create(uint32_t threads);
void gfx_pool_destroy(struct gfx_pool *pool);
uint32_t gfx_pool_threads(const struct gfx_pool *pool);
/* The engine has no work in sight (about to poll and sleep): workers
 * still polling for the next loop sleep now instead (pool.c). */
void gfx_pool_idle(struct gfx_pool *pool);

/* Graphics state of one hardware queue, running its work on pool. */
struct gfx_state *gfx_state_create(struct gfx_pool *pool);
void gfx_state_destroy(struct gfx_state *g);
/* Run g's work on pool from now on: a paused job's state follows its
 * stream to the engine of the class that takes it over (engine_lend.c),
 * and runs there on that engine's raster threads. False (nothing
 * changed) if pool's thread count differs from the one g was made for. */
bool gfx_state_set_pool(struct gfx_state *g, struct gfx_pool *pool);
/* JOB_BEGIN: everything unset (drops pipeline shader references). */
void gfx_state_reset(struct gfx_state *g);
/* A pass is open (a job must not end so). */
bool gfx_state_pass_open(const struct gfx_state *g);

/* What the last draw did, for traces (engine thread). */
struct gfx_draw_stats {
	uint64_t vertices;        /* vertex shader invocations */
	uint64_t primitives;      /* assembled primitives */
	uint64_t rasterized;      /* primitives that reached a tile */
	uint64_t fragments;       /* fragment shader lanes run (helpers
	                             included) */
	uint64_t tiles;           /* tile jobs */
};

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Shared types of the graphics pipeline stages (internal to hw/gfx and
 * the graphics packets).
 *
 * Coordinates: framebuffer pixels, y down, pixel (x, y) has its sample
 * at (x + 0.5, y + 0.5). Rasterization works in fixed point with
 * GFX_SUBPIXEL_BITS (8) fraction bits.
 *
 * A draw runs in *batches* of primitives (draw.c):
 *   1. assembly (engine thread): up to GFX_BATCH_PRIMS primitives (of
 *      one or more instances), as slots into a list of unique vertices;
 *   2. vertex shading (all threads, GFX_LANES vertices per task);
 *   3. geometry (all threads, GFX_CHUNK_PRIMS primitives per task):
 *      cull distances, clipping, viewport, setup, face culling, binning;
 *   4. the bins of all chunks are merged in chunk order into one
 *      primitive list per touched 64x64 tile (engine thread);
 *   5. raster (all threads, one tile per task): the tile's primitives in
 *      API order, quads batched through the fragment shader, depth,
 *      stencil, blending and colour writes.
 * Only one thread ever touches a tile's pixels during step 5, and the
 * steps are separated by the pool's barrier, so API order per pixel
 * holds without locks. A preemption point follows every batch.
 */
#ifndef SWGPU_GFX_INTERNAL_H
#define SWGPU_GFX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <swgpu/swgpu.h>
#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/format/format.h"
#include "hw/gfx/gfx.h"
#include "hw/shader/ir.h"
#include "util/util.h"

#define GFX_TILE_SHIFT 6u
#define GFX_TILE_SIZE (1 << GFX_TILE_SHIFT)
/* Lanes of a fragment batch: 256 (64 quads) measured 7-15 % faster on
 * the textured scene than 128, 384 and 512 slower (PERFORMANCE.md). */
#define GFX_LANES 256u
#define GFX_VS_LANES 128u                /* vertices of a vertex task */
#define GFX_BATCH_QUADS (GFX_LANES / 4u) /* fragment quads per batch */
#define GFX_UNIFORM_LANES 32u          /* lanes of a uniform-output run */
/* fragment outputs the pipeline reads: colours, Index 1, depth, mask */
#define GFX_UNIFORM_MAX_OUT (IR_MAX_LOCATIONS * 4u + 6u)
/* user components and the fragment stage's ClipDistance/CullDistance */
#define GFX_MAX_VARYINGS (SWGPU_GFX_MAX_LOCATIONS * 4u + \
                          SWGPU_GFX_MAX_CLIP_DISTANCES)
#define GFX_SUBPIXEL_BITS 8
#define GFX_SUBPIXEL_ONE (1 << GFX_SUBPIXEL_BITS)
#define GFX_BATCH_PRIMS 4096u            /* primitives per batch */
#define GFX_BATCH_VERTS (3u * GFX_BATCH_PRIMS)
#define GFX_CHUNK_PRIMS 256u             /* geometry task size */

/* ------------------------------------------------------------------ */
/* Programmable stages                                                 */
/* ------------------------------------------------------------------ */

struct gfx_exec;

/* A program written in C over the same register-file conventions as a
 * translated one (ir_io, IR_REG_*): what engine tests run in place of
 * SPIR-V shaders. Returns false on a hang. */
typedef bool (*gfx_host_fn)(void *user, struct gfx_exec *e, uint32_t n,
                            const uint8_t *live, uint8_t *discarded);

struct gfx_program {
	const struct ir_io *io;
	uint64_t builtins_used;        /* bit r: built-in register r read */
	const struct ir_program *ir;   /* NULL: a host program */
	gfx_host_fn host;
	void *user;
	uint32_t nregs;                /* host programs */
	/* Fragment: outputs the same on every lane, no other effect
	 * (ir_program.uniform_outputs; host programs: their author's
	 * word): a batch runs one quad and broadcasts (frag_shade.c). */
	bool uniform_outputs;
	/* ... a function of push constants [0, push_bytes) alone */
	bool uniform_push_only;
};

/* One thread's execution state for batches of width lanes. */
struct gfx_exec *gfx_exec_create(const struct gfx_program *p, uint32_t width);
void gfx_exec_destroy(struct gfx_exec *e);
lane_t *gfx_exec_reg(struct gfx_exec *e, uint32_t reg);
bool gfx_exec_run(struct gfx_exec *e, struct ir_dispatch *d, uint32_t n,
                  const uint8_t *live, uint8_t *discarded);

/* ------------------------------------------------------------------ */
/* Graphics state (the registers of one hardware queue)                */
/* ------------------------------------------------------------------ */

struct gfx_vbuf {
	uint64_t va;               /* 0: unbound, reads as zero */
	uint64_t size;
	uint32_t stride;
};

struct gfx_thread;
struct gfx_batch;

struct gfx_state {
	struct gfx_pool *pool;
	bool pass_open;
	struct swgpu_pass pass;
	bool has_pipeline;
	struct swgpu_pipeline_state pipe;
	uint64_t pipe_va;
	struct swgpu_shader *vs_shader, *fs_shader; /* references */
	struct gfx_program vs_prog, fs_prog;
	uint32_t prog_gen;         /* bumped when the programs change */
	bool has_dynamic;
	struct swgpu_raster_state dyn;
	struct gfx_vbuf vb[SWGPU_GFX_MAX_VERTEX_BINDINGS];
	uint64_t ib_va, ib_size;
	uint32_t index_size;       /* 0: no index buffer */
	bool query_open;
	uint64_t query_va;
	uint64_t query_count;
	/* A draw stopped by preemption between two batches goes on here:
	 * the draw of an indirect packet, the instance and the primitives
	 * of that instance already done. */
	struct {
		uint32_t draw;
		uint32_t instance;
		uint64_t prims;
		uint32_t view;     /* multiview: the view it was in */
	} resume;
	/* Engine tests: host programs used instead of the pipeline's. */
	const struct gfx_program *test_vs, *test_fs;
	/* Scratch kept across draws. */
	struct ir_dispatch *vs_res, *fs_res;
	struct gfx_thread **threads;  /* one per pool thread */
	uint32_t nthreads;
	struct gfx_batch *batch;
	struct gfx_draw *draw;
	struct gfx_draw_stats last;
};

/* The pipeline's shaders (references, owned from now on) and their
 * programs; drops the previous ones. */
void gfx_state_set_programs(struct gfx_state *g, struct swgpu_shader *vs,
                            const struct gfx_program *vp,
                            struct swgpu_shader *fs,
                            const struct gfx_program *fp);

/* Tests: run these host programs instead of the pipeline's shaders
 * (NULL: back to the pipeline's). */
void gfx_state_set_test_programs(struct gfx_state *g,
                                 const struct gfx_program *vs,
                                 const struct gfx_program *fs);

/* ------------------------------------------------------------------ */
/* A draw as the stages see it                                         */
/* ------------------------------------------------------------------ */

struct gfx_rect {
	int32_t x0, y0, x1, y1;    /* [x0, x1) x [y0, y1) */
};

/* r cut to tile; false when nothing is left (the rasterizers' bbox). */
static inline bool
gfx_rect_clip(struct gfx_rect *r, const struct gfx_rect *tile)
{
	if (r->x0 < tile->x0)
		r->x0 = tile->x0;
	if (r->y0 < tile->y0)
		r->y0 = tile->y0;
	if (r->x1 > tile->x1)
		r->x1 = tile->x1;
	if (r->y1 > tile->y1)
		r->y1 = tile->y1;
	return r->x0 < r->x1 && r->y0 < r->y1;
}

/* One attachment plane reachable by the draw's threads. */
struct gfx_plane {
	uint8_t *base;             /* pixel (ox, oy) of layer 0; NULL: none */
	int32_t ox, oy;
	uint64_t row_pitch, layer_pitch;  /* layer_pitch: of a slice */
	uint32_t samples;          /* slices per layer (1, 2, 4, 8) */
	uint32_t bpp;
	uint32_t format;
	const swgpu_format_info *fi;
	format_decode_fn decode;
	format_encode_fn encode;
};

static inline uint8_t *
gfx_texel(const struct gfx_plane *pl, int32_t x, int32_t y, uint32_t layer)
{
	return pl->base + layer * pl->layer_pitch +
	       (uint64_t)(y - pl->oy) * pl->row_pitch +
	       (uint64_t)(x - pl->ox) * pl->bpp;
}

enum gfx_fast_color {
	GFX_FAST_NONE = 0,
	GFX_FAST_RGBA8_UNORM,      /* R8G8B8A8_UNORM */
	GFX_FAST_BGRA8_UNORM,      /* B8G8R8A8_UNORM */
	GFX_FAST_RGBA8_SRGB,
	GFX_FAST_BGRA8_SRGB,
};

struct gfx_color_target {
	struct gfx_plane pl;
	int32_t pl_x1, pl_y1;      /* end of the mapped pixels */
	uint8_t blend_mode;        /* enum gfx_blend_mode */
	uint32_t cls;              /* SWGPU_BLIT_CLASS_FLOAT/UINT/SINT */
	uint32_t numeric;
	uint32_t write_mask;       /* RGBA bits; 0: nothing written */
	uint32_t present;          /* channel bits the format has */
	bool blend;
	bool logic;                /* logic op applies (integer/normalized) */
	bool srgb;
	bool blend8;               /* UNORM, every channel 8 bits: blends in
	                              8-bit fixed point (blend_unorm8.c) */
	uint8_t fast;              /* enum gfx_fast_color */
	struct swgpu_blend_attachment b;
	float clamp_lo, clamp_hi;  /* blend inputs (UNORM 0..1, SNORM -1..1;
	                              others unbounded) */
};

struct gfx_stencil_face {
	uint32_t fail_op, pass_op, depth_fail_op, compare_op;
	uint8_t compare_mask, write_mask, reference;
};

struct gfx_viewport {
	float ox, oy, oz;          /* centre and depth offset */
	float hx, hy, pz;          /* half width/height, depth scale */
	float zmin, zmax;          /* depth clamp range */
	/* guard band in NDC: x in [gx0, gx1], y in [gy0, gy1] */
	float gx0, gx1, gy0, gy1;
};

/* Where a post-vertex-shader vertex keeps what (words of lane_t). */
struct gfx_vlayout {
	uint32_t stride;           /* words per vertex */
	uint32_t clip_off, nclip;  /* ClipDistance */
	uint32_t cull_off, ncull;  /* CullDistance */
	uint32_t layer_off;        /* Layer, 0: not written */
	uint32_t vpi_off;          /* ViewportIndex, 0: not written */
	uint32_t var_off, nvar;    /* varyings the fragment shader reads:
	                              user inputs, then ClipDistance and
	                              CullDistance inputs */
	/* per varying: fragment input register, interpolation (ir_interp),
	 * vertex shader output register (0: not written, reads 0) */
	uint32_t var_fs_reg[GFX_MAX_VARYINGS];
	uint8_t var_interp[GFX_MAX_VARYINGS];
	uint32_t var_vs_reg[GFX_MAX_VARYINGS];
	bool any_noperspective;
};
#define GFX_VTX_POS 0u             /* x, y, z, w (clip space) */
#define GFX_VTX_PSIZE 4u
#define GFX_VTX_FIXED 5u           /* first word after the fixed ones */

/* Vertex input of a draw, resolved. */
struct gfx_fetch_binding {
	const uint8_t *ptr;        /* NULL: unbound (zeros) */
	uint64_t size;
	uint32_t stride;
	uint32_t per_instance;
	uint32_t divisor;
};
struct gfx_fetch_attrib {
	uint32_t binding;
	uint32_t offset;
	uint32_t bytes;            /* block size */
	const swgpu_format_info *fi;
	format_decode_fn decode;
	uint32_t cls;              /* SWGPU_BLIT_CLASS_* */
	uint8_t fast;              /* vertex_fetch.c fast path */
	lane_t *reg[4];            /* per thread: set by the vertex stage */
	uint32_t in_reg[4];        /* shader input registers, 0: unused */
};

enum gfx_prim_kind { GFX_PRIM_POINT = 1, GFX_PRIM_LINE = 2,
                     GFX_PRIM_TRI = 3 };

struct gfx_draw {
	struct gfx_state *g;
	struct swgpu_raster_state rs;   /* pipeline + dynamic, merged */
	const struct gfx_program *vs, *fs;  /* fs NULL: none */
	struct ir_dispatch *vs_res, *fs_res;
	uint32_t prog_gen;
	/* vertex input */
	struct gfx_fetch_binding bind[SWGPU_GFX_MAX_VERTEX_BINDINGS];
	struct gfx_fetch_attrib attr[SWGPU_GFX_MAX_VERTEX_ATTRIBS];
	uint32_t nattr;
	struct gfx_vlayout vl;
	/* draw parameters */
	bool indexed;
	const uint8_t *indices;    /* NULL: no index buffer bytes */
	uint64_t index_avail;      /* indices inside the index buffer */
	uint32_t index_size;
	uint32_t restart_index;
	bool restart;
	uint32_t first, count;     /* first vertex / index, count */
	int32_t vertex_offset;     /* indexed: added to each index */
	uint32_t first_instance, instance_count;
	uint32_t draw_index;
	/* multiview: the view being drawn (ViewIndex; the layer of every
	 * primitive when multiview is set) */
	bool multiview;
	uint32_t view_index;
	/* targets */
	uint32_t ncolor;
	struct gfx_color_target color[SWGPU_GFX_MAX_COLOR_ATTACHMENTS];
	struct gfx_plane depth, stencil;
	uint32_t layers;           /* rendered layers */
	struct gfx_rect fb;        /* render area within every attachment */
	uint32_t nvp;
	struct gfx_viewport vp[SWGPU_GFX_MAX_VIEWPORTS];
	struct gfx_rect scissor[SWGPU_GFX_MAX_VIEWPORTS]; /* within fb */
	/* rasterization */
	uint32_t topology;
	enum gfx_prim_kind kind;   /* after assembly */
	uint32_t polygon_mode;
	uint32_t cull_mode;
	bool front_ccw;
	bool discard;              /* rasterizerDiscard */
	bool depth_clamp;
	bool depth_bias;
	float bias_constant, bias_slope, bias_clamp;
	float depth_r;             /* minimum resolvable difference (UNORM) */
	bool depth_float;          /* D32: r from the primitive's max z */
	/* per-fragment operations */
	bool early_tests;
	bool need_z;               /* fragment depth is used */
	bool smooth_inputs;        /* a varying is not flat */
	bool centroid_inputs;      /* a varying is Centroid, not flat */
	bool zs_active;            /* a depth, bounds or stencil test runs */
	bool depth_test, depth_write, depth_bounds, stencil_test;
	/* whole quads take the early depth test a row at a time
	 * (gfx_depth_rows): the depth test alone, early, one sample, D32
	 * or D16; SWGPU_GFX_DEPTH_ROWS=0 turns it off */
	bool depth_rows;
	/* single-sample triangles in 8x8 blocks on AVX2
	 * (gfx_raster_tri_avx2); SWGPU_GFX_RASTER_BLOCKS=0 turns it off */
	bool raster_blocks;
	/* multisampled UNORM8 colour of batches whose pixels have all or
	 * none of their samples: one job for all S slices (frag_ms.c);
	 * SWGPU_GFX_MS_PLANES=0 turns it off */
	bool ms_planes;
	uint32_t depth_op;
	float bounds_min, bounds_max;
	struct gfx_stencil_face face[2];   /* 0 front, 1 back */
	bool logic_op_enable;
	uint32_t logic_op;
	float blend_const[4];
	bool dual_source;
	bool any_color;            /* some colour target is written */
	bool fs_writes_depth;
	bool alpha_to_coverage;    /* keep lanes whose output 0 alpha >= 0.5 */
	bool alpha_to_one;         /* then every output's alpha = 1 */
	/* multisampling (MSAA-IFACE / frag_ms.c) */
	uint32_t samples;          /* 1, 2, 4, 8: slices per layer */
	uint32_t sample_mask;      /* pipeline mask & ((1 << samples) - 1) */
	bool sample_shading;
	float min_sample_shading;
	/* samples one fragment shader invocation covers: S without sample
	 * shading, 1 when each sample has its own (inputs and FragCoord
	 * then at the sample's location) */
	uint32_t shading_run;
	/* failure of any thread (__atomic): a fault ends the draw */
	uint32_t failed;           /* 0, or a swgpu_fault_kind */
	const char *fail_msg;      /* set by the thread that failed it */
};

/* ------------------------------------------------------------------ */
/* Primitives after setup                                              */
/* ------------------------------------------------------------------ */

/*
 * A primitive ready for the raster: its coverage rule (triangles: three
 * fixed-point edge functions; lines and points: their own data) and how
 * to interpolate at a pixel centre (px, py):
 *   l1 = l1x * (px - rx) + l1y * (py - ry) + l1c     (screen-space
 *   l2 = l2x * (px - rx) + l2y * (py - ry) + l2c      barycentrics of
 *                                                     v[1] and v[2])
 *   z  = zx * (px - rx) + zy * (py - ry) + zc  (+ depth bias)
 * perspective-correct weights from iw[] (1 / clip w of each vertex).
 */
struct gfx_prim {
	uint8_t kind;              /* enum gfx_prim_kind */
	uint8_t front;             /* FrontFacing */
	uint8_t face;              /* stencil face: 0 front, 1 back */
	uint8_t affine;            /* all vertices have the same 1/w */
	uint32_t layer;
	uint32_t viewport;
	uint32_t prim_id;
	struct gfx_rect bbox;      /* pixels, within the scissor */
	/* triangles: E_i(x, y) = ea * x + eb * y + ec at subpixel
	 * coordinates; covered when all three are >= 0 (the top-left
	 * rule is folded into ec) */
	int64_t ea[3], eb[3], ec[3];
	/* lines: the segment (snapped), see raster_line.c and
	 * raster_line_ms.c */
	float lx0, ly0, lx1, ly1;
	/* points: square [px0, px1) x [py0, py1) of sample positions */
	float px0, py0, px1, py1, psize;
	/* interpolation */
	float rx, ry;
	float l1x, l1y, l1c, l2x, l2y, l2c;
	float zx, zy, zc;
	float bias;                /* depth bias, added to z */
	float iw[3];
	const lane_t *v[3];        /* vertices (post clipping) */
	const lane_t *flat;        /* provoking vertex */
};

/* ------------------------------------------------------------------ */
/* Batches                                                             */
/* ------------------------------------------------------------------ */

/* An assembled primitive: slots into the batch's vertex list, v[0] the
 * provoking vertex, winding as the topology defines it. */
struct gfx_aprim {
	uint32_t v[3];
	uint32_t id;               /* PrimitiveID */
};

/* Primitive assembly position inside one instance's element stream,
 * carried from batch to batch. */
struct gfx_asm {
	uint64_t pos;              /* next element */
	uint32_t nwin;             /* elements since the last restart */
	uint32_t win[6];           /* the last elements' vertex ids */
	uint32_t first;            /* fans: the first vertex */
	uint32_t strip_i;          /* strips with adjacency: primitives */
	uint64_t prim_id;          /* primitives emitted so far */
	bool done;                 /* stream exhausted */
};

/* Vertices clipping made: blocks that never move (prims point in). */
struct gfx_arena_block;
struct gfx_arena {
	struct gfx_arena_block *head, *cur;
};
lane_t *gfx_arena_alloc(struct gfx_arena *a, uint32_t words);
void gfx_arena_reset(struct gfx_arena *a);
void gfx_arena_free(struct gfx_arena *a);

struct gfx_bin {
	uint32_t tile;             /* index into the batch's tile grid */
	uint32_t prim;             /* index into the chunk's prims */
};

/* What one geometry task produced. Lines of its own (the batch holding
 * the chunks comes from swgpu_calloc_private): two threads fill
 * neighbouring chunks and count every primitive. */
struct gfx_chunk {
	_Alignas(SWGPU_PRIVATE_ALIGN) struct gfx_prim *prims;
	uint32_t nprims, prim_cap;
	struct gfx_bin *bins;
	uint32_t nbins, bin_cap;
	struct gfx_arena arena;
	bool oom;
};

#define GFX_BATCH_CHUNKS (GFX_BATCH_PRIMS / GFX_CHUNK_PRIMS)

struct gfx_batch {
	uint32_t cur_inst;         /* InstanceIndex being assembled */
	uint32_t nverts;
	uint32_t vert_id[GFX_BATCH_VERTS];
	uint32_t vert_inst[GFX_BATCH_VERTS]; /* InstanceIndex of each slot */
	lane_t *verts;             /* nverts x vl.stride words */
	uint64_t verts_cap;        /* words */
	uint32_t nprims;
	struct gfx_aprim prims[GFX_BATCH_PRIMS];
	/* (vertex id, instance) -> slot, valid where stamp matches */
	struct { uint32_t id, inst, slot, stamp; } *hash;
	uint32_t stamp;
	uint32_t nchunks;
	struct gfx_chunk chunks[GFX_BATCH_CHUNKS];
	/* tile grid of the render area: tile (tx, ty) covers pixels
	 * [tx * 64, tx * 64 + 64) x [ty * 64, ...) */
	int32_t tx0, ty0;
	uint32_t tiles_x, tiles_y;
	uint32_t *tile_count;      /* tiles_x * tiles_y, 0 when untouched */
	uint32_t tile_cap;
	uint32_t *touched;         /* tiles with primitives, first-touch order */
	uint32_t ntouched;
	uint32_t *tile_start;      /* per touched tile: first entry */
	const struct gfx_prim **tile_prims;
	uint64_t tile_prims_cap;
};

#define GFX_HASH_SIZE 32768u       /* > 2 x GFX_BATCH_VERTS, power of 2 */

/* assembly.c: empty b's vertex and primitive lists; b has no room
 * for another primitive. */
void gfx_batch_reset(struct gfx_batch *b);
bool gfx_batch_full(const struct gfx_batch *b);
/* Add primitives of instance's element stream from *as to b until it is
 * full or the stream ends (as->done), skipping the first skip
 * primitives of the instance. */
void gfx_assemble(const struct gfx_draw *d, struct gfx_asm *as,
                  struct gfx_batch *b, uint64_t skip, uint32_t instance);

/* ------------------------------------------------------------------ */
/* Per-thread state                                                    */
/* ------------------------------------------------------------------ */

struct gfx_quad {
	int32_t x, y;              /* top-left pixel, both even */
	uint8_t mask;              /* covered: bit 0 (x, y), 1 (x+1, y),
	                              2 (x, y+1), 3 (x+1, y+1) */
	uint8_t sample;            /* per-sample shading: SampleId */
	uint32_t cov;              /* samples > 1: bits [8i, 8i + S) are
	                              the covered samples of pixel i */
	const struct gfx_prim *prim;
};

struct gfx_thread {
	uint32_t index;
	struct gfx_exec *vs, *fs;  /* for programs of generation gen */
	/* A fragment program with uniform outputs (frag_shade.c
	 * gfx_frag_run_uniform): fs_uniform, a GFX_UNIFORM_LANES-wide state
	 * that runs it, else NULL; the output registers the pipeline reads,
	 * and the values every lane of fs holds in them (valid when
	 * uniform_valid: fs's own runs never write them). */
	struct gfx_exec *fs_uniform;
	uint32_t n_uniform;
	bool uniform_valid;
	uint32_t uniform_reg[GFX_UNIFORM_MAX_OUT];
	uint32_t uniform_val[GFX_UNIFORM_MAX_OUT];
	uint8_t uniform_push[sizeof(((struct ir_dispatch *)0)->push)];
	                           /* push constants of uniform_val */
	uint32_t gen;
	bool have_execs;
	/* fragment batch */
	uint32_t nquads;
	uint32_t nquads_out;       /* quads of the batch being written */
	uint32_t out_sample;       /* sample the colour output writes */
	/* samples out_sample.. written alike by a UNORM8 output (frag_ms.c:
	 * every pixel has all or none of its samples); 0 or 1: one */
	uint32_t out_planes;
	struct gfx_quad quad[GFX_BATCH_QUADS];
	float z[GFX_LANES];        /* depth of each lane (bias applied) */
	uint8_t live[GFX_LANES];
	uint8_t discarded[GFX_LANES];
	/* counters of the current draw */
	uint64_t occlusion;
	uint64_t fragments;
	uint64_t vertices;
};

/* ------------------------------------------------------------------ */
/* Stage entry points                                                  */
/* ------------------------------------------------------------------ */

/* frag_shade.c: after new execution states for d's programs, what
 * gfx_frag_run_uniform keeps of them. */
void gfx_frag_uniform_setup(struct gfx_thread *t, const struct gfx_draw *d);

/* vertex_fetch.c: attribute values of vertex / instance into lane l of
 * every used input register (a->reg[]). */
void gfx_fetch_vertex(const struct gfx_draw *d,
                      struct gfx_fetch_attrib *attr, uint32_t nattr,
                      uint32_t vertex, uint32_t instance, uint32_t lane);
/* Resolve one attribute's format (false: not fetchable). */
bool gfx_fetch_attrib_init(struct gfx_fetch_attrib *a, uint32_t format);

/* clip.c: clip the polygon of n vertices (pointers to vertex words) in
 * clip space against the view volume (near/far unless depth clamp, w >
 * 0), the guard band of vp and the clip distances. New vertices are
 * written to out_words (room for GFX_CLIP_MAX_NEW vertices of stride
 * words). Returns the vertex count (0: nothing left) into out[]. */
#define GFX_CLIP_MAX_VERTS 24u
#define GFX_CLIP_MAX_NEW 32u
uint32_t gfx_clip_polygon(const struct gfx_draw *d,
                          const struct gfx_viewport *vp,
                          const lane_t *const *in, uint32_t n,
                          const lane_t **out, lane_t *out_words);
/* Clip a line segment the same way; out_words: room for 2 vertices. */
bool gfx_clip_line(const struct gfx_draw *d, const struct gfx_viewport *vp,
                   const lane_t *const in[2], const lane_t *out[2],
                   lane_t *out_words);
/* Which planes a vertex is outside of (bit mask, see clip.c). */
uint32_t gfx_clip_outcode(const struct gfx_draw *d,
                          const struct gfx_viewport *vp, const lane_t *v);
/* A cull distance is negative at every vertex: drop the primitive. */
bool gfx_cull_distance_reject(const struct gfx_draw *d,
                              const lane_t *const *v, uint32_t n);

/* setup.c: a clipped triangle / line / point in clip space to a
 * gfx_prim (false: nothing to rasterize: culled, zero area, outside the
 * scissor). */
bool gfx_setup_tri(const struct gfx_draw *d, const lane_t *const v[3],
                   const lane_t *flat, uint32_t prim_id,
                   struct gfx_prim *p);
bool gfx_setup_line(const struct gfx_draw *d, const lane_t *const v[2],
                    const lane_t *flat, uint32_t prim_id, bool front,
                    float bias, struct gfx_prim *p);
bool gfx_setup_point(const struct gfx_draw *d, const lane_t *v,
                     uint32_t prim_id, bool front, float bias,
                     struct gfx_prim *p);
/* Screen position of a clip-space vertex under viewport vp. */
void gfx_viewport_xform(const struct gfx_viewport *vp, const lane_t *v,
                        float out[4]);
/* Viewport and layer a primitive goes to (provoking vertex). */
uint32_t gfx_prim_viewport(const struct gfx_draw *d, const lane_t *flat);
uint32_t gfx_prim_layer(const struct gfx_draw *d, const lane_t *flat);

/* raster_tri.c / raster_line.c / raster_point.c: the quads of p inside
 * tile, handed to gfx_frag_quad in raster order. */
void gfx_raster_tri(struct gfx_thread *t, const struct gfx_draw *d,
                    const struct gfx_prim *p, const struct gfx_rect *tile);
void gfx_raster_line(struct gfx_thread *t, const struct gfx_draw *d,
                     const struct gfx_prim *p, const struct gfx_rect *tile);
void gfx_raster_point(struct gfx_thread *t, const struct gfx_draw *d,
                      const struct gfx_prim *p, const struct gfx_rect *tile);

/* raster_block_avx2.c: gfx_raster_tri of a single-sample triangle in
 * 8x8 blocks (GFX_RASTER_BLOCK), r its bbox cut to the tile; x86 builds,
 * only when gfx_draw.raster_blocks. */
#define GFX_RASTER_BLOCK 8
void gfx_raster_tri_avx2(struct gfx_thread *t, const struct gfx_draw *d,
                         const struct gfx_prim *p, const struct gfx_rect *r);

/* frag_shade.c: one covered quad into the thread's fragment batch
 * (early tests first when allowed); gfx_frag_flush runs the batch. */
void gfx_frag_quad(struct gfx_thread *t, const struct gfx_draw *d,
                   const struct gfx_prim *p, int32_t x, int32_t y,
                   uint32_t mask);
void gfx_frag_flush(struct gfx_thread *t, const struct gfx_draw *d);
/* A quad that passed its early tests (mask: its passing pixels, z[4]
 * their depths) into the batch, which runs when full; only with a
 * fragment shader. */
static inline void
gfx_frag_push(struct gfx_thread *t, const struct gfx_draw *d,
              const struct gfx_prim *p, int32_t x, int32_t y, uint32_t mask,
              const float *z)
{
	struct gfx_quad *q = &t->quad[t->nquads];

	q->x = x;
	q->y = y;
	q->mask = (uint8_t)mask;
	q->prim = p;
	memcpy(&t->z[4 * t->nquads], z, 4 * sizeof(float));
	if (++t->nquads == GFX_BATCH_QUADS)
		gfx_frag_flush(t, d);
}
/* n fully covered quads side by side from (x, y) (x, y even). */
void gfx_frag_quads_full(struct gfx_thread *t, const struct gfx_draw *d,
                         const struct gfx_prim *p, int32_t x, int32_t y,
                         uint32_t n);

/* depth_stencil.c: depth of lane l of quad at (x, y) ... */
float gfx_depth_at(const struct gfx_draw *d, const struct gfx_prim *p,
                   float px, float py);
/* The depth bounds, depth and stencil tests (and their writes) for the
 * pixels of mask at (x, y) of quad's primitive, depth z[4] (lane order
 * of the quad). Returns the pixels that pass. */
uint32_t gfx_depth_stencil(const struct gfx_draw *d, const struct gfx_prim *p,
                           int32_t x, int32_t y, uint32_t mask,
                           const float *z);
/* The same on one sample's slice (layer * samples + sample). */
uint32_t gfx_depth_stencil_slice(const struct gfx_draw *d,
                                 const struct gfx_prim *p, uint32_t slice,
                                 int32_t x, int32_t y, uint32_t mask,
                                 const float *z);
/* Up to GFX_DEPTH_ROW_QUADS (n) fully covered quads side by side from
 * (x, y), when gfx_draw.depth_rows: their depths (gfx_frag_quad's, lane
 * order of a quad, 4 per quad) into z and the early depth test alone
 * with its writes, the passing pixels of quad i into pass[i]; the same
 * as gfx_depth_stencil quad after quad. */
#define GFX_DEPTH_ROW_QUADS 4u
void gfx_depth_rows(const struct gfx_draw *d, const struct gfx_prim *p,
                    int32_t x, int32_t y, uint32_t n, float *z,
                    uint8_t *pass);
/* gfx_depth_rows of exactly GFX_DEPTH_ROW_QUADS quads on D16_UNORM
 * (depth_avx2.c; x86 builds, only when out8_have_avx2()). */
void gfx_depth_rows_d16_avx2(const struct gfx_draw *d,
                             const struct gfx_prim *p, int32_t x, int32_t y,
                             float *z, uint8_t *pass);
/* When gfx_draw.depth_rows: the early depth test alone (and its writes)
 * of the pixels cov (bit 8 j + i: pixel (bx + i, by + j)) of the 8x8
 * block at (bx, by), 8-aligned and inside the render area; the passing
 * pixels, and the depths (gfx_frag_quad's) of every row of a row pair
 * with coverage into z[8 j + i]. The same as gfx_depth_stencil quad
 * after quad (depth_avx2.c; only when out8_have_avx2()). */
uint64_t gfx_depth_block_avx2(const struct gfx_draw *d,
                              const struct gfx_prim *p, int32_t bx,
                              int32_t by, uint64_t cov, float *z);
/* frag_shade.c's varyings of quads [q0, q1) of t->quad, all of
 * primitive p, shaded at the pixel centre: into rows reg[j] (lanes 4 q0
 * on) and iw (1/w, FragCoord.w), two quads per vector
 * (varyings_avx2.c; x86 builds, only when out8_have_avx2()). */
void gfx_varyings_run_avx2(const struct gfx_vlayout *vl,
                           const struct gfx_prim *p,
                           const struct gfx_quad *quad, uint32_t q0,
                           uint32_t q1, lane_t *const *reg, float *iw);
/* gfx_frag_quad's early test when gfx_draw.depth_rows: the quad's
 * depths (its expression, four lanes at once) into z[4], then
 * gfx_depth_stencil, D32 and D16 partly covered quads inside the render
 * area by the whole-quad compare masked by mask. The same results. */
uint32_t gfx_depth_quad_early(const struct gfx_draw *d,
                              const struct gfx_prim *p, int32_t x,
                              int32_t y, uint32_t mask, float *z);
/* Depth value as stored: z converted to the depth format and back. */
float gfx_depth_quantize(uint32_t format, float z);

/* blend.c: blend src (and src1 for dual-source) with dst, all RGBA in
 * the target's float domain; result into out. */
void gfx_blend(const struct gfx_color_target *rt, const float *blend_const,
               const float src[4], const float src1[4], const float dst[4],
               float out[4]);
/* blend_unorm8.c: the blend of targets with blend8 (every channel
 * 8-bit UNORM), in 8-bit fixed point: src / src1 / blend_const as the
 * shader and state give them, dst and out as the channels' bytes
 * (RGBA order; a channel the format lacks as the decoder reads it). */
void gfx_blend_unorm8(const struct swgpu_blend_attachment *b,
                      const float *blend_const, const float src[4],
                      const float src1[4], const uint8_t dst[4],
                      uint8_t out[4]);
/* Logic op on raw channel bits. */
uint64_t gfx_logic_op(uint32_t op, uint64_t s, uint64_t d);

/* output.c: write one fragment's colour to target rt at pixel (x, y),
 * layer: src as 4 lanes (float bits for float targets, integers for
 * integer ones), src1 the dual-source colour (or NULL). */
void gfx_output_pixel(const struct gfx_draw *d, const struct gfx_color_target *rt,
                      int32_t x, int32_t y, uint32_t layer,
                      const lane_t src[4], const lane_t *src1);
/* Set up a colour target's conversions (format known renderable). */
void gfx_output_target_init(struct gfx_color_target *rt);
/* rt's batches take the fused UNORM8 kernels (gfx_output_batch8's
 * non-sRGB path), which honour gfx_thread.out_planes. */
bool gfx_output_unorm8(const struct gfx_color_target *rt);
/* The lanes of quad q whose bit is set in qmask[q], of the thread's
 * batch (t->nquads_out quads), into target rt: src the colour output's
 * four lane arrays, src1 the dual-source ones (src1[0] NULL: none). */
void gfx_output_batch(const struct gfx_thread *t, const struct gfx_draw *d,
                      const struct gfx_color_target *rt,
                      const uint8_t *qmask, const lane_t *const src[4],
                      const lane_t *const src1[4]);
/* output8.c: the same for 8-bit RGBA/BGRA UNORM/sRGB targets with every
 * channel written and no logic op. */
void gfx_output_batch8(const struct gfx_thread *t, const struct gfx_draw *d,
                       const struct gfx_color_target *rt,
                       const uint8_t *qmask, const lane_t *const src[4],
                       const lane_t *const src1[4]);

/* frag_ms.c (samples > 1, see /MSAA-IFACE in docs/ARCHITECTURE.md):
 * a quad with sample coverage cov (bits [8i, 8i + S) for pixel i) from
 * the raster: sample mask, per-sample depth and early tests, then into
 * the batch; gfx_frag_ms_output is gfx_frag_flush's tail after the
 * shader ran: coverage from the shader, late tests, per-sample colour. */
void gfx_frag_quad_ms(struct gfx_thread *t, const struct gfx_draw *d,
                      const struct gfx_prim *p, int32_t x, int32_t y,
                      uint32_t cov);
void gfx_frag_ms_output(struct gfx_thread *t, const struct gfx_draw *d,
                        struct gfx_exec *e, uint32_t nq);
/* Queue one quad (batch flushed when full): cov as above, sample its
 * SampleId; mask = pixels with coverage. */
void gfx_frag_queue(struct gfx_thread *t, const struct gfx_draw *d,
                    const struct gfx_prim *p, int32_t x, int32_t y,
                    uint32_t cov, uint32_t sample, const float z[4]);
/* raster_ms.c / raster_line_ms.c: the multisampled rasterization of
 * triangles, points and lines (the spec's rectangle of lineWidth). */
void gfx_raster_tri_ms(struct gfx_thread *t, const struct gfx_draw *d,
                       const struct gfx_prim *p, const struct gfx_rect *tile);
void gfx_raster_point_ms(struct gfx_thread *t, const struct gfx_draw *d,
                         const struct gfx_prim *p,
                         const struct gfx_rect *tile);
void gfx_raster_line_ms(struct gfx_thread *t, const struct gfx_draw *d,
                        const struct gfx_prim *p,
                        const struct gfx_rect *tile);
/* Pixels (bit i) of the 2x2 quad at (x, y) inside [r). */
static inline uint32_t
gfx_quad_rect_mask(const struct gfx_rect *r, int32_t x, int32_t y)
{
	uint32_t m = 0xf;

	if (x < r->x0)
		m &= ~0x5u;
	if (x + 1 >= r->x1)
		m &= ~0xau;
	if (y < r->y0)
		m &= ~0x3u;
	if (y + 1 >= r->y1)
		m &= ~0xcu;
	return m;
}

/* A pixel mask (bit i: pixel i of a quad) as every sample covered. */
static inline uint32_t
gfx_ms_full_cov(uint32_t mask, uint32_t samples)
{
	const uint32_t all = (1u << samples) - 1u;
	uint32_t cov = 0;

	for (uint32_t i = 0; i < 4; i++)
		if (mask & (1u << i))
			cov |= all << (8 * i);
	return cov;
}

/* Pipeline tasks (one gfx_pool_run each, ctx the draw): vertex
 * shading of GFX_LANES vertices (vertex_shade.c), geometry of
 * GFX_CHUNK_PRIMS primitives (geometry.c), one tile (bin.c). */
bool gfx_thread_execs(struct gfx_thread *t, struct gfx_draw *d);
void gfx_vertex_task(void *ctx, uint32_t item, uint32_t thread);
void gfx_geometry_task(void *ctx, uint32_t item, uint32_t thread);
void gfx_raster_task(void *ctx, uint32_t item, uint32_t thread);
/* bin.c: the primitive's tiles into the chunk's bins. */
bool gfx_bin_prim(const struct gfx_draw *d, const struct gfx_batch *b,
                  struct gfx_chunk *c, uint32_t prim);
/* Merge the chunks' bins into per-tile lists, in chunk order (false:
 * out of memory). */
bool gfx_bin_merge(struct gfx_batch *b);
/* The batch's tile grid for the draw's render area. */
bool gfx_bin_grid(struct gfx_batch *b, const struct gfx_rect *fb);
/* setup.c: facing of a triangle (1, or 0: culled, -1: zero area) and
 * the depth bias of its polygon, for polygon modes LINE and POINT. */
int gfx_tri_face(const struct gfx_draw *d, const lane_t *const v[3],
                  const lane_t *flat, bool *front, float *bias);

/* pool.c: run fn(ctx, item, thread) for items [0, n) on every thread
 * of the pool (the caller is thread 0; pool NULL: the caller alone);
 * returns when all are done. */
typedef void (*gfx_task_fn)(void *ctx, uint32_t item, uint32_t thread);
void gfx_pool_run(struct gfx_pool *pool, uint32_t n, gfx_task_fn fn,
                  void *ctx);

/* Mark the draw failed (first kind wins). */
static inline void
gfx_draw_fail(struct gfx_draw *d, uint32_t kind)
{
	uint32_t none = 0;

	__atomic_compare_exchange_n(&d->failed, &none, kind, false,
	                            __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static inline void
gfx_draw_fail_msg(struct gfx_draw *d, uint32_t kind, const char *msg)
{
	uint32_t none = 0;

	if (__atomic_compare_exchange_n(&d->failed, &none, kind, false,
	                                __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		d->fail_msg = msg;
}

static inline bool
gfx_draw_failed(const struct gfx_draw *d)
{
	return __atomic_load_n(&d->failed, __ATOMIC_RELAXED) != 0;
}

static inline float
gfx_f(const lane_t *v, uint32_t i)
{
	return v[i].f;
}

#endif

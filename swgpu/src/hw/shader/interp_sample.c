/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: sampled images (IR_IMGSAMPLE; internal, called from
 * interp.c), following the Vulkan spec's "Texel Filtering" chapter with
 * an explicit LOD (compute shaders have no derivatives):
 *  - LOD: shader LOD + the sampler's mipLodBias, clamped to
 *    [minLod, maxLod]; <= 0 picks magFilter, > 0 minFilter; the level
 *    is the nearest one or the two around it (mipmapMode), within the
 *    view's levels;
 *  - texel coordinates u = s * width (unnormalizedCoordinates: s) plus
 *    the ConstOffset, wrapped by the address mode (REPEAT,
 *    MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP_TO_BORDER,
 *    MIRROR_CLAMP_TO_EDGE); border texels take the border colour;
 *  - NEAREST takes floor(u), LINEAR weighs the 2, 4 or 8 texels around
 *    u - 0.5 (float formats only; integer formats have no LINEAR);
 *  - arrays: layer = round(layer coordinate) clamped to the view;
 *    cubes: the face of the major axis of (s, t, r), CLAMP_TO_EDGE for
 *    NEAREST; LINEAR is seamless ("Cube Map Edge Handling"): a texel
 *    beyond an edge is the neighbouring face's texel there, one beyond a
 *    corner the average of the three texels meeting at the corner.
 * The view's swizzle applies to the result. Null descriptors read 0.
 * Gathers (aux2 = 1 + component) take the base level's LINEAR footprint
 * whatever the filters, each of the four texels swizzled, then the
 * component ("Texel Gathering").
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "interp_util.h"

/* One sample's inputs. */
struct smp {
	const struct ir_buffer_binding *bb;
	const struct swgpu_sampler_state *ss;
	bool fl;                   /* float domain (filtering, border) */
	uint32_t dims;             /* 1, 2, 3 wrapped coordinates */
	uint32_t slice;            /* array layer (cube: face + 6 layer) */
	uint32_t addr[3];          /* VkSamplerAddressMode per axis */
	bool unnorm;
	int32_t off[3];
	bool cube;                 /* slice = cube_base + face */
	uint32_t face, cube_base;
};

static int32_t
mirror(int32_t a)
{
	return a >= 0 ? a : -(1 + a);
}

/* Texel index i wrapped into [0, size), or -1 for a border texel. */
static int32_t
wrap(int32_t i, int32_t size, uint32_t mode)
{
	switch (mode) {
	case 0:                         /* REPEAT */
		i %= size;
		return i < 0 ? i + size : i;
	case 1: {                       /* MIRRORED_REPEAT */
		int32_t m = i % (2 * size);

		if (m < 0)
			m += 2 * size;
		return (size - 1) - mirror(m - size);
	}
	case 3:                         /* CLAMP_TO_BORDER */
		return i < 0 || i >= size ? -1 : i;
	case 4:                         /* MIRROR_CLAMP_TO_EDGE */
		i = mirror(i);
		return i >= size ? size - 1 : i;
	default:                        /* CLAMP_TO_EDGE */
		return i < 0 ? 0 : i >= size ? size - 1 : i;
	}
}

static void
border(const struct smp *s, lane_t v[4])
{
	uint32_t b = s->ss->address >> 24;
	bool opaque = b >= 2, white = b >= 4;

	for (uint32_t c = 0; c < 4; c++) {
		bool one = white || (opaque && c == 3);

		if (s->fl)
			v[c].f = one ? 1.0f : 0.0f;
		else
			v[c].u = one ? 1u : 0u;
	}
}

/* Cube map face selection (the spec's table): face and (s, t) on it. */
static uint32_t
cube_face(float rx, float ry, float rz, float st[2])
{
	float ax = fabsf(rx), ay = fabsf(ry), az = fabsf(rz);
	float sc, tc, ma;
	uint32_t face;

	if (az >= ax && az >= ay) {
		face = rz >= 0 ? 4 : 5;
		sc = rz >= 0 ? rx : -rx;
		tc = -ry;
		ma = az;
	} else if (ay >= ax) {
		face = ry >= 0 ? 2 : 3;
		sc = rx;
		tc = ry >= 0 ? rz : -rz;
		ma = ay;
	} else {
		face = rx >= 0 ? 0 : 1;
		sc = rx >= 0 ? -rz : rz;
		tc = -ry;
		ma = ax;
	}
	if (ma == 0.0f) {
		st[0] = st[1] = 0.5f;
		return face;
	}
	st[0] = 0.5f * (sc / ma + 1.0f);
	st[1] = 0.5f * (tc / ma + 1.0f);
	return face;
}

/* The direction through (sc, tc) in [-1, 1]^2 of face: the inverse of
 * cube_face's table. */
static void
face_direction(uint32_t face, float sc, float tc, float d[3])
{
	switch (face) {
	case 0: d[0] = 1.0f; d[1] = -tc; d[2] = -sc; break;
	case 1: d[0] = -1.0f; d[1] = -tc; d[2] = sc; break;
	case 2: d[0] = sc; d[1] = 1.0f; d[2] = tc; break;
	case 3: d[0] = sc; d[1] = -1.0f; d[2] = -tc; break;
	case 4: d[0] = sc; d[1] = -tc; d[2] = 1.0f; break;
	default: d[0] = -sc; d[1] = -tc; d[2] = -1.0f; break;
	}
}

static int32_t
clampi(int32_t v, int32_t n)
{
	return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* Texel (i, j) of an n x n face, one of them beyond the edge: the texel
 * of the neighbouring face under the same direction. */
static bool
cube_neighbour(const struct smp *s, const struct img_level *lv, int32_t i,
               int32_t j, lane_t v[4])
{
	const int32_t n = (int32_t)lv->w;
	float d[3], st[2];
	uint32_t face;

	face_direction(s->face, 2.0f * ((float)i + 0.5f) / (float)n - 1.0f,
	               2.0f * ((float)j + 0.5f) / (float)n - 1.0f, d);
	face = cube_face(d[0], d[1], d[2], st);
	return image_fetch(s->bb, lv,
	                   (uint32_t)clampi((int32_t)floorf(st[0] * (float)n),
	                                    n),
	                   (uint32_t)clampi((int32_t)floorf(st[1] * (float)n),
	                                    n),
	                   s->cube_base + face, v);
}

/* Seamless cube texel (i, j) of the sample's face. */
static void
cube_texel(const struct smp *s, const struct img_level *lv, int32_t i,
           int32_t j, lane_t v[4])
{
	const int32_t n = (int32_t)lv->w;
	const bool oi = i < 0 || i >= n, oj = j < 0 || j >= n;
	lane_t t[3][4];
	bool ok = true;

	if (!oi && !oj) {
		ok = image_fetch(s->bb, lv, (uint32_t)i, (uint32_t)j, s->slice,
		                 v);
	} else if (oi != oj) {
		ok = cube_neighbour(s, lv, i, j, v);
	} else {
		/* Corner: this face's corner texel and the two across its
		 * edges. */
		ok = image_fetch(s->bb, lv, (uint32_t)clampi(i, n),
		                 (uint32_t)clampi(j, n), s->slice, t[0]) &&
		     cube_neighbour(s, lv, i, clampi(j, n), t[1]) &&
		     cube_neighbour(s, lv, clampi(i, n), j, t[2]);
		/* integers (gathers) are not averaged: this face's texel */
		for (uint32_t c = 0; ok && c < 4; c++)
			v[c] = s->fl ? (lane_t){ .f = (t[0][c].f + t[1][c].f +
			                              t[2][c].f) / 3.0f }
			             : t[0][c];
	}
	if (!ok)
		memset(v, 0, 4 * sizeof(*v));
}

/* Texel (i, j, k) of level lv after wrapping, or the border colour. */
static void
texel(const struct smp *s, const struct img_level *lv, int32_t i,
      int32_t j, int32_t k, bool seamless, lane_t v[4])
{
	const int32_t size[3] = { (int32_t)lv->w, (int32_t)lv->h,
	                          (int32_t)lv->d };
	int32_t x[3] = { i, j, k };

	if (seamless) {
		cube_texel(s, lv, i, j, v);
		return;
	}
	for (uint32_t a = 0; a < 3; a++) {
		if (a >= s->dims) {
			x[a] = 0;
			continue;
		}
		x[a] = wrap(x[a], size[a], s->addr[a]);
		if (x[a] < 0) {
			border(s, v);
			return;
		}
	}
	if (s->dims == 3) {
		/* 3D: the slice is the third coordinate */
		if (!image_fetch(s->bb, lv, (uint32_t)x[0], (uint32_t)x[1],
		                 (uint32_t)x[2], v))
			memset(v, 0, 4 * sizeof(*v));
	} else if (!image_fetch(s->bb, lv, (uint32_t)x[0], (uint32_t)x[1],
	                        s->slice, v)) {
		memset(v, 0, 4 * sizeof(*v));
	}
}

/* Texel-space coordinates u of c (normalized unless unnorm) on lv. */
static void
texel_space(const struct smp *s, const struct img_level *lv,
            const float c[3], float u[3])
{
	const float sz[3] = { (float)lv->w, (float)lv->h, (float)lv->d };

	for (uint32_t a = 0; a < 3; a++) {
		u[a] = a < s->dims ? (s->unnorm ? c[a] : c[a] * sz[a]) : 0.0f;
		/* Texel indices must fit an int32 (wrapping makes any
		 * coordinate this far out land somewhere valid). */
		if (!isfinite(u[a]))
			u[a] = 0.0f;
		else if (u[a] > 1e9f)
			u[a] = 1e9f;
		else if (u[a] < -1e9f)
			u[a] = -1e9f;
	}
}

/* floor(u) + off, kept inside int32 for any offset (an Offset operand
 * may be any value; wrapping makes the exact one irrelevant that far
 * out). */
static int32_t
floor_off(float u, int32_t off)
{
	int64_t i = (int64_t)floorf(u) + off;

	return i > INT32_MAX / 2 ? INT32_MAX / 2 :
	       i < INT32_MIN / 2 ? INT32_MIN / 2 : (int32_t)i;
}

/* Filter level `level` at coordinates c (normalized unless unnorm). */
static void
filter_level(const struct smp *s, uint32_t level, const float c[3],
             bool linear, float out[4], lane_t iout[4])
{
	struct img_level lv;
	float u[3];
	int32_t i0[3];
	float frac[3];

	image_level(s->bb->img, level, &lv);
	texel_space(s, &lv, c, u);
	if (!linear || !s->fl) {
		lane_t v[4];

		for (uint32_t a = 0; a < 3; a++)
			i0[a] = floor_off(u[a], s->off[a]);
		texel(s, &lv, i0[0], i0[1], i0[2], false, v);
		for (uint32_t k = 0; k < 4; k++) {
			out[k] = v[k].f;
			iout[k] = v[k];
		}
		return;
	}
	for (uint32_t a = 0; a < 3; a++) {
		float f = u[a] - 0.5f, fl = floorf(f);

		i0[a] = floor_off(fl, s->off[a]);
		frac[a] = f - fl;
	}
	for (uint32_t k = 0; k < 4; k++)
		out[k] = 0.0f;
	/* 2^dims corners, each weighted by its distance on every axis. */
	for (uint32_t n = 0; n < (1u << s->dims); n++) {
		float w = 1.0f;
		int32_t x[3];
		lane_t v[4];

		for (uint32_t a = 0; a < 3; a++) {
			uint32_t hi = a < s->dims ? (n >> a) & 1 : 0;

			x[a] = i0[a] + (int32_t)hi;
			if (a < s->dims)
				w *= hi ? frac[a] : 1.0f - frac[a];
		}
		if (w == 0.0f)
			continue;
		texel(s, &lv, x[0], x[1], x[2], s->cube, v);
		for (uint32_t k = 0; k < 4; k++)
			out[k] += w * v[k].f;
	}
}

/* A gather: result k is component comp of the i0j0 texel of the LINEAR
 * footprint at offset goff[k] on the base level (xlate_sample.c turns a
 * single offset into the four footprint corners). */
static void
gather_level(const struct smp *s, const float c[3], const int32_t goff[8],
             uint32_t comp, lane_t out[4])
{
	struct img_level lv;
	float u[3];

	image_level(s->bb->img, 0, &lv);
	texel_space(s, &lv, c, u);
	for (uint32_t k = 0; k < 4; k++) {
		lane_t v[4];

		texel(s, &lv, floor_off(u[0] - 0.5f, goff[2 * k]),
		      floor_off(u[1] - 0.5f, goff[2 * k + 1]), 0, s->cube, v);
		image_swizzle(s->bb->img, v);
		out[k] = v[comp];
	}
}

static uint32_t
round_layer(float f, uint32_t n)
{
	float r = rintf(f);        /* round to nearest even */

	if (!(r > 0.0f))
		return 0;
	return r >= (float)n ? (n ? n - 1 : 0) : (uint32_t)r;
}

/* gather: 1 + component, the offsets in goff; 0: a sample at lod. */
static void
sample_lane(struct smp *s, const float crd[4], float lod, uint32_t gather,
            const int32_t goff[8], lane_t out[4])
{
	const struct ir_image_binding *im = s->bb->img;
	const struct swgpu_sampler_state *ss = s->ss;
	float c[3] = { crd[0], crd[1], crd[2] };
	float res[4], res2[4];
	lane_t ires[4], ires2[4];
	uint32_t levels = im->levels;

	for (uint32_t a = 0; a < 3; a++)
		s->addr[a] = (ss->address >> (8 * a)) & 0xff;
	s->slice = 0;
	switch (im->view_type) {
	case 0: case 4:                 /* 1D (array) */
		s->dims = 1;
		if (im->view_type == 4)
			s->slice = round_layer(crd[3], im->layers);
		break;
	case 1: case 5:                 /* 2D (array) */
		s->dims = 2;
		if (im->view_type == 5)
			s->slice = round_layer(crd[3], im->layers);
		break;
	case 2:                         /* 3D */
		s->dims = 3;
		break;
	default: {                      /* cube (array) */
		float st[2];
		uint32_t face = cube_face(crd[0], crd[1], crd[2], st);

		s->dims = 2;
		c[0] = st[0];
		c[1] = st[1];
		s->addr[0] = s->addr[1] = 2;    /* CLAMP_TO_EDGE */
		s->cube = true;
		s->face = face;
		s->cube_base = im->view_type == 6 ?
		               6 * round_layer(crd[3], im->layers / 6) : 0;
		s->slice = s->cube_base + face;
		break;
	}
	}
	if (s->slice >= im->layers)
		s->slice = im->layers ? im->layers - 1 : 0;
	if (gather) {
		gather_level(s, c, goff, gather - 1, out);
		return;
	}

	/* Level selection. */
	float bias = (float)(int16_t)(ss->filter >> 16) / 256.0f;
	float min_lod = (float)(ss->lod & 0xffff) / 256.0f;
	float max_lod = (float)(ss->lod >> 16) / 256.0f;
	float lambda = s->unnorm ? 0.0f : lod + bias;
	bool linear, mip_linear = (ss->filter & SWGPU_SAMPLER_MIP_LINEAR) != 0;
	uint32_t lo = 0, hi = 0;
	float delta = 0.0f;

	if (isnan(lambda))
		lambda = 0.0f;
	if (!s->unnorm) {
		if (lambda > max_lod)
			lambda = max_lod;
		if (lambda < min_lod)
			lambda = min_lod;
	}
	linear = lambda <= 0.0f ? (ss->filter & SWGPU_SAMPLER_MAG_LINEAR)
	                        : (ss->filter & SWGPU_SAMPLER_MIN_LINEAR);
	float dl = lambda < 0.0f ? 0.0f : lambda;
	float q = (float)(levels - 1);

	if (dl > q)
		dl = q;
	if (!mip_linear) {
		lo = dl <= 0.5f ? 0 : (uint32_t)ceilf(dl + 0.5f) - 1;
		if (lo > levels - 1)
			lo = levels - 1;
	} else {
		lo = (uint32_t)floorf(dl);
		hi = lo + 1 < levels ? lo + 1 : lo;
		delta = dl - floorf(dl);
	}
	filter_level(s, lo, c, linear, res, ires);
	if (mip_linear && delta > 0.0f && hi != lo && s->fl) {
		filter_level(s, hi, c, linear, res2, ires2);
		for (uint32_t k = 0; k < 4; k++)
			res[k] = (1.0f - delta) * res[k] + delta * res2[k];
	}
	for (uint32_t k = 0; k < 4; k++) {
		if (s->fl)
			out[k].f = res[k];
		else
			out[k] = ires[k];
	}
	image_swizzle(im, out);
}

void
interp_sample(struct ir_exec *e, const struct ir_dispatch *d,
              const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *regs = e->regs;
	lane_t *D = regs + (size_t)in->dst * W;
	const lane_t *A = regs + (size_t)in->a * W;
	const lane_t *L = regs + (size_t)in->b * W;
	const lane_t *Cs = regs + (size_t)in->c * W;
	const lane_t *Dd = regs + (size_t)in->d * W;
	const uint32_t smp_slot = (in->imm >> 16) & 0xff;
	const uint32_t smp_count = in->imm >> 24;

	LANES({
		const struct ir_buffer_binding *bb = image_resource(
			d, in->aux, Dd[l].u, in->imm & 0xffffu);
		const struct ir_buffer_binding *sb;
		lane_t v[4] = { { 0 }, { 0 }, { 0 }, { 0 } };

		/* A sampler has no memory: its slot's img holds the
		 * state (image_resource wants memory). */
		sb = Cs[l].u < (smp_count ? smp_count : 1u) &&
		     smp_slot + Cs[l].u < IR_MAX_BUFFERS ?
		     &d->buffers[smp_slot + Cs[l].u] : NULL;
		if (bb && sb && sb->img && sb->img->has_sampler) {
			const uint32_t dom = bb->img->domain;
			struct smp s = {
				.bb = bb, .ss = &sb->img->sampler,
				.fl = dom != SWGPU_BLIT_CLASS_UINT &&
				      dom != SWGPU_BLIT_CLASS_SINT &&
				      dom != SWGPU_BLIT_CLASS_STENCIL,
				.unnorm = (sb->img->sampler.filter &
				           SWGPU_SAMPLER_UNNORMALIZED) != 0,
			};
			float crd[4];
			int32_t goff[8];

			for (uint32_t k = 0; k < 4; k++)
				crd[k] = A[(size_t)k * W + l].f;
			if (in->aux2) {
				for (uint32_t k = 0; k < 8; k++)
					goff[k] = A[(size_t)(4 + k) * W + l].i;
			} else {
				for (uint32_t k = 0; k < 3; k++)
					s.off[k] = A[(size_t)(4 + k) * W + l].i;
			}
			sample_lane(&s, crd, L[l].f, in->aux2, goff, v);
		}
		for (uint32_t c = 0; c < 4; c++)
			D[(size_t)c * W + l] = v[c];
	});
}

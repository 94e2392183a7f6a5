/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: sampled images (IR_IMGSAMPLE; internal, called from
 * interp.c), following the Vulkan spec's "Image Operations" chapter:
 *  - LOD (interp_lod.c): explicit (Lod), from the Grad derivatives, or
 *    implicit from the lane's 2x2 quad (coarse: the quad's first row and
 *    column, fragment shaders); the sampler's mipLodBias plus the Bias
 *    operand (clamped), [max(minLod, MinLod), maxLod]; <= 0 picks
 *    magFilter, > 0 minFilter; the nearest level or the two around it
 *    (mipmapMode), within the view's levels;
 *  - texel coordinates u = s * width (unnormalizedCoordinates: s) plus
 *    the (Const)Offset, wrapped by the address mode (REPEAT,
 *    MIRRORED_REPEAT, CLAMP_TO_EDGE, CLAMP_TO_BORDER,
 *    MIRROR_CLAMP_TO_EDGE); border texels take the border colour;
 *  - NEAREST takes floor(u), LINEAR weighs the 2, 4 or 8 texels around
 *    u - 0.5 (float formats only; integer formats have no LINEAR);
 *  - depth comparison (Dref): each texel's depth D becomes 1.0 if
 *    Dref <compareOp> D (Dref clamped to [0, 1] for UNORM formats), 0.0
 *    otherwise, before filtering (percentage closer);
 *  - gathers take one component of the 4 texels LINEAR would weigh at
 *    the base level whatever the filters (or of the texels at 4
 *    ConstOffsets), after swizzle ("Texel Gathering");
 *  - arrays: layer = round(layer coordinate) clamped to the view;
 *    cubes: the face of the major axis of (s, t, r), CLAMP_TO_EDGE for
 *    NEAREST; LINEAR is seamless ("Cube Map Edge Handling"): a texel
 *    beyond an edge is the neighbouring face's texel there, one beyond a
 *    corner the average of the three texels meeting at the corner.
 * The view's swizzle applies to the result (not to a comparison's).
 * Null descriptors read 0. Projection (Proj) is the translator's: it
 * divides the coordinates and Dref by q before the instruction.
 * The common case (2D, byte-channel formats, no border, comparison or
 * gather) goes through interp_sample_fast.c first: the same results,
 * a quad at a time.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interp_sample.h"

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
	bool codes;                /* smp_codes: filter 8-bit UNORM codes */
	bool dref;                 /* compare texels with ref by cmp */
	float ref;
	uint32_t cmp;              /* VkCompareOp */
};

/* Depth comparison: the texel's depth becomes 1.0 or 0.0. */
static void
depth_compare(const struct smp *s, lane_t v[4])
{
	const float r = s->ref, d = v[0].f;
	bool pass;

	switch (s->cmp) {
	case 1: pass = r < d; break;     /* LESS */
	case 2: pass = r == d; break;    /* EQUAL */
	case 3: pass = r <= d; break;    /* LESS_OR_EQUAL */
	case 4: pass = r > d; break;     /* GREATER */
	case 5: pass = r != d; break;    /* NOT_EQUAL */
	case 6: pass = r >= d; break;    /* GREATER_OR_EQUAL */
	case 7: pass = true; break;      /* ALWAYS */
	default: pass = false; break;    /* NEVER */
	}
	v[0].f = pass ? 1.0f : 0.0f;
}

/* The border colour replaces the texel before "Conversion to RGBA": a
 * component the format lacks reads 0 (R, G, B) or 1 (A), as for any
 * texel of the format, and the view's swizzle applies after. */
static void
border(const struct smp *s, lane_t v[4])
{
	uint32_t b = s->ss->address >> 24;
	bool opaque = b >= 2, white = b >= 4;
	const swgpu_format_info *fi = s->bb->img->fmt;
	bool reduce = fi && !(fi->caps & SWGPU_FORMAT_CAP_COMPRESSED);

	for (uint32_t c = 0; c < 4; c++) {
		bool one = white || (opaque && c == 3);

		if (reduce && !fi->bit_width[c])
			one = c == 3;

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
texel_raw(const struct smp *s, const struct img_level *lv, int32_t i,
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
		x[a] = smp_wrap(x[a], size[a], s->addr[a]);
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

/* The same, compared with the reference for Dref instructions. */
static void
texel(const struct smp *s, const struct img_level *lv, int32_t i,
      int32_t j, int32_t k, bool seamless, lane_t v[4])
{
	texel_raw(s, lv, i, j, k, seamless, v);
	if (s->dref)
		depth_compare(s, v);
}

/* Unnormalized texel coordinates of normalized c on level lv, within
 * int32 range (wrapping makes any coordinate this far out land
 * somewhere valid). */
static void
unnormalize(const struct smp *s, const struct img_level *lv,
            const float c[3], float u[3])
{
	const float sz[3] = { (float)lv->w, (float)lv->h, (float)lv->d };

	for (uint32_t a = 0; a < 3; a++)
		u[a] = a < s->dims ? smp_unnorm_clamp(s->unnorm ? c[a]
		                                                : c[a] * sz[a])
		                   : 0.0f;
}

bool
smp_fixed_enabled(void)
{
	static int on = -1;

	if (__atomic_load_n(&on, __ATOMIC_RELAXED) < 0) {
		const char *e = getenv("SWGPU_SAMPLE_FIXED");

		__atomic_store_n(&on, !(e && e[0] == '0'), __ATOMIC_RELAXED);
	}
	return __atomic_load_n(&on, __ATOMIC_RELAXED) != 0;
}

/*
 * LINEAR: the 2^dims corners from texel i0, each weighted by the
 * product of its axes' weights w0[a] (the lower texel) or w1[a], corners
 * of weight 0 not read. Float weights: the products and sums in floats,
 * in corner order. Fixed point (smp_sub8, interp_sample.h; the weights
 * are the integers 256 - f and f): the products are exact in a float
 * (at most 2^24) and the sums are taken in a double, exact for codes
 * (integers) whatever the order, so the fast path's integer and float
 * forms give the same value in 2D (a float holds it exactly there).
 * Border texels are codes too (0 or 255); only a seamless cube corner
 * (three texels averaged) is not an integer.
 */
static void
filter_corners(const struct smp *s, const struct img_level *lv,
               const int32_t i0[3], const float w0[3], const float w1[3],
               bool fixed, float out[4])
{
	double sum[4] = { 0.0, 0.0, 0.0, 0.0 };

	for (uint32_t k = 0; k < 4; k++)
		out[k] = 0.0f;
	for (uint32_t n = 0; n < (1u << s->dims); n++) {
		float w = 1.0f;
		int32_t x[3];
		lane_t v[4];

		for (uint32_t a = 0; a < 3; a++) {
			uint32_t hi = a < s->dims ? (n >> a) & 1 : 0;

			x[a] = i0[a] + (int32_t)hi;
			if (a < s->dims)
				w *= hi ? w1[a] : w0[a];
		}
		if (w == 0.0f)
			continue;
		texel(s, lv, x[0], x[1], x[2], s->cube, v);
		for (uint32_t k = 0; k < 4; k++) {
			const float t = s->codes ? v[k].f * 255.0f : v[k].f;

			if (fixed)
				sum[k] += (double)w * (double)t;
			else
				out[k] += w * t;
		}
	}
	for (uint32_t k = 0; fixed && k < 4; k++)
		out[k] = (float)sum[k];
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
	unnormalize(s, &lv, c, u);
	if (!linear || !s->fl) {
		lane_t v[4];

		for (uint32_t a = 0; a < 3; a++)
			i0[a] = smp_floor_off(u[a], s->off[a]);
		texel(s, &lv, i0[0], i0[1], i0[2], false, v);
		for (uint32_t k = 0; k < 4; k++) {
			out[k] = s->codes ? v[k].f * 255.0f : v[k].f;
			iout[k] = v[k];
		}
		return;
	}
	for (uint32_t a = 0; a < 3; a++) {
		float f = u[a] - 0.5f, fl = floorf(f);

		i0[a] = smp_floor_off(fl, s->off[a]);
		frac[a] = f - fl;
	}
	const bool fixed = s->codes && smp_fixed_enabled();
	float w0[3], w1[3];

	for (uint32_t a = 0; a < 3; a++) {
		w1[a] = fixed ? (float)smp_sub8(frac[a]) : frac[a];
		w0[a] = fixed ? (float)SMP_SUB_ONE - w1[a] : 1.0f - frac[a];
	}
	filter_corners(s, &lv, i0, w0, w1, fixed, out);
}

static uint32_t
round_layer(float f, uint32_t n)
{
	float r = rintf(f);        /* round to nearest even */

	if (!(r > 0.0f))
		return 0;
	return r >= (float)n ? (n ? n - 1 : 0) : (uint32_t)r;
}

/* OpImage*Gather: component comp (after swizzle) of the four texels
 * LINEAR filtering would weigh at the base level, (i0, j1), (i1, j1),
 * (i1, j0), (i0, j0); with ConstOffsets the texels (i0, j0) + offs[k]
 * instead. A Dref gather returns the four comparisons. */
static void
gather_lane(const struct smp *s, const float c[3], uint32_t comp,
            const int32_t (*offs)[2], lane_t out[4])
{
	static const int32_t corner[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 },
	                                      { 0, 0 } };
	struct img_level lv;
	float u[3];

	image_level(s->bb->img, 0, &lv);
	unnormalize(s, &lv, c, u);
	for (uint32_t k = 0; k < 4; k++) {
		/* an Offset may be any value: its sum with the corner is
		 * 64-bit */
		int64_t di = offs ? offs[k][0]
		                  : (int64_t)corner[k][0] + s->off[0];
		int64_t dj = offs ? offs[k][1]
		                  : (int64_t)corner[k][1] + s->off[1];
		lane_t v[4];

		texel(s, &lv, smp_floor_off(u[0] - 0.5f, di),
		      smp_floor_off(u[1] - 0.5f, dj), 0, s->cube, v);
		if (s->dref) {
			out[k] = v[0];
			continue;
		}
		image_swizzle(s->bb->img, v);
		out[k] = v[comp];
	}
}

/* The view's slice and dimensionality for coordinates crd (s, t, r,
 * layer); cubes: the face and the face coordinates in c. */
static void
setup_coords(struct smp *s, const float crd[4], float c[3])
{
	const struct ir_image_binding *im = s->bb->img;
	const struct swgpu_sampler_state *ss = s->ss;

	c[0] = crd[0];
	c[1] = crd[1];
	c[2] = crd[2];
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
		c[2] = 0.0f;
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
}

/* lambda_base from derivatives of the coordinates (s, t, r) or, for a
 * cube, of the direction. */
static float
lambda_from_derivs(const struct smp *s, const float dir[3],
                   const float ddx[3], const float ddy[3])
{
	float fdx[3], fdy[3];

	if (!s->cube)
		return lod_scale(s->bb->img, s->dims, ddx, ddy);
	lod_cube_derivs(s->face, dir, ddx, ddy, fdx, fdy);
	return lod_scale(s->bb->img, 2, fdx, fdy);
}

/* Filtered sample of the levels lod selects. */
/* Filtering weights rounded in float may sum past 1: a filtered SNORM
 * value stays in [-1, 1] as each texel is (the CTS's
 * texture.conversion.snorm_clamp_linear). UNORM is not clamped yet: the
 * fast path (interp_sample_fast.c) must clamp the same way first, the
 * two are compared bit for bit. */
static void
clamp_normalized(const swgpu_format_info *fi, float res[4])
{
	if (!fi || fi->numeric != SWGPU_NUMERIC_SNORM)
		return;
	for (uint32_t k = 0; k < 4; k++)
		res[k] = res[k] < -1.0f ? -1.0f
		         : res[k] > 1.0f ? 1.0f : res[k];
}

static void
filter_lane(const struct smp *s, const float c[3], const struct smp_lod *lod,
            lane_t out[4])
{
	float res[4], res2[4];
	lane_t ires[4], ires2[4];

	filter_level(s, lod->lo, c, lod->linear, res, ires);
	if (lod->delta > 0.0f && lod->hi != lod->lo && s->fl) {
		filter_level(s, lod->hi, c, lod->linear, res2, ires2);
		for (uint32_t k = 0; k < 4; k++)
			res[k] = (1.0f - lod->delta) * res[k] +
			         lod->delta * res2[k];
	}
	if (s->codes) {
		const float scale = smp_codes_scale(
			lod->linear && smp_fixed_enabled(), s->dims);

		for (uint32_t k = 0; k < 4; k++)
			res[k] = smp_codes_value_scaled(res[k], scale);
	}
	if (s->fl && !s->dref)
		clamp_normalized(s->bb->img->fmt, res);
	if (s->dref) {
		/* the comparison result as the depth aspect's (D, 0, 0, 1) */
		out[0].f = res[0];
		out[1].f = out[2].f = 0.0f;
		out[3].f = 1.0f;
		return;
	}
	for (uint32_t k = 0; k < 4; k++) {
		if (s->fl)
			out[k].f = res[k];
		else
			out[k] = ires[k];
	}
	image_swizzle(s->bb->img, out);
}

/* The sampler of lane l's instruction, or NULL (a sampler has no
 * memory: its slot's img holds the state). */
const struct ir_buffer_binding *
smp_sampler_of(const struct ir_dispatch *d, const struct ir_instr *in,
               uint32_t idx)
{
	const uint32_t slot = (in->imm >> 16) & 0xff, count = in->imm >> 24;
	const struct ir_buffer_binding *sb;

	if (idx >= (count ? count : 1u) || slot + idx >= IR_MAX_BUFFERS)
		return NULL;
	sb = &d->buffers[slot + idx];
	return sb->img && sb->img->has_sampler ? sb : NULL;
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
	const uint32_t mode = in->aux2 & IR_SMP_LOD_MASK;
	const uint32_t comp = (in->aux2 >> IR_SMP_COMP_SHIFT) & 3;

	if (interp_sample_fast(e, d, in, full))
		return;
#define OPND(k, lane) (A[(size_t)(k) * W + (lane)])
	LANES({
		const struct ir_buffer_binding *bb = image_resource(
			d, in->aux, Dd[l].u, in->imm & 0xffffu);
		const struct ir_buffer_binding *sb = smp_sampler_of(d, in,
		                                                    Cs[l].u);
		lane_t v[4] = { { 0 }, { 0 }, { 0 }, { 0 } };

		if (bb && sb) {
			const struct swgpu_sampler_state *ss =
				&sb->img->sampler;
			const uint32_t dom = bb->img->domain;
			struct smp s = {
				.bb = bb, .ss = ss,
				.fl = dom != SWGPU_BLIT_CLASS_UINT &&
				      dom != SWGPU_BLIT_CLASS_SINT &&
				      dom != SWGPU_BLIT_CLASS_STENCIL,
				.unnorm = (ss->filter &
				           SWGPU_SAMPLER_UNNORMALIZED) != 0,
				.dref = (in->aux2 & IR_SMP_DREF) != 0,
				.cmp = (ss->filter >>
				        SWGPU_SAMPLER_COMPARE_OP_SHIFT) & 7,
			};
			float crd[4], c[3], lambda_base = L[l].f;
			int32_t offs[4][2];
			struct smp_lod lod;

			if (!(ss->filter & SWGPU_SAMPLER_COMPARE_ENABLE))
				s.cmp = 0;
			s.codes = s.fl && !s.dref && smp_codes(bb->img->fmt);
			for (uint32_t k = 0; k < 4; k++)
				crd[k] = OPND(k, l).f;
			for (uint32_t k = 0; k < 3; k++)
				s.off[k] = OPND(4 + k, l).i;
			s.ref = OPND(9, l).f;
			if (s.dref && bb->img->fmt &&
			    bb->img->fmt->numeric == SWGPU_NUMERIC_UNORM)
				s.ref = s.ref < 0.0f ? 0.0f
				        : s.ref > 1.0f ? 1.0f : s.ref;
			setup_coords(&s, crd, c);
			if (mode == IR_SMP_LOD_IMPLICIT ||
			    mode == IR_SMP_LOD_QUERY) {
				/* coarse: the quad's first row and column */
				const uint32_t q = l & ~3u;
				float ddx[3], ddy[3];

				for (uint32_t k = 0; k < 3; k++) {
					ddx[k] = OPND(k, q + 1).f -
					         OPND(k, q).f;
					ddy[k] = OPND(k, q + 2).f -
					         OPND(k, q).f;
				}
				lambda_base = lambda_from_derivs(&s, crd, ddx,
				                                 ddy);
			} else if (mode == IR_SMP_LOD_GRAD) {
				float ddx[3], ddy[3];

				for (uint32_t k = 0; k < 3; k++) {
					ddx[k] = OPND(10 + k, l).f;
					ddy[k] = OPND(13 + k, l).f;
				}
				lambda_base = lambda_from_derivs(&s, crd, ddx,
				                                 ddy);
			}
			lod_select(ss, bb->img->levels, s.unnorm, lambda_base,
			           OPND(7, l).f, OPND(8, l).f, &lod);
			if (mode == IR_SMP_LOD_QUERY) {
				/* (level accessed, LOD): GLSL's
				 * textureQueryLod order, which the CTS
				 * and every driver follow */
				v[0].f = lod.dl;
				v[1].f = lod.lambda_prime;
			} else if (in->aux2 & IR_SMP_GATHER) {
				for (uint32_t k = 0; k < 4; k++) {
					offs[k][0] = OPND(16 + 2 * k, l).i;
					offs[k][1] = OPND(17 + 2 * k, l).i;
				}
				gather_lane(&s, c, comp,
				            in->aux2 & IR_SMP_OFFSETS ? offs
				                                      : NULL, v);
			} else {
				filter_lane(&s, c, &lod, v);
			}
		}
		for (uint32_t k = 0; k < 4; k++)
			D[(size_t)k * W + l] = v[k];
	});
#undef OPND
}

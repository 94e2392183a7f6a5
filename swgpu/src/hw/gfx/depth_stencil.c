/* SPDX-License-Identifier: MIT */
/*
 * Depth bounds, stencil and depth tests with their writes (the spec's
 * "Fragment Operations"), on the separate depth (D16_UNORM, X8_D24_UNORM,
 * D32_SFLOAT) and stencil (S8_UINT) planes of the pass.
 *
 * Order per pixel: depth bounds (on the stored depth; failing discards
 * the fragment with no stencil update), stencil test (fail: failOp),
 * depth test (fail: depthFailOp; pass: passOp and the depth write). A
 * missing attachment makes its test pass. Incoming depth is clamped to
 * the viewport's depth range with depthClamp, then to [0, 1], and
 * converted to the attachment's format before comparing, so the test
 * compares exactly the value that would be stored.
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/output8_unorm.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline float
clamp_range(float v, float lo, float hi)
{
	/* NaN -> lo */
	return v >= lo ? (v <= hi ? v : hi) : lo;
}

static uint32_t
unorm_bits(float z, uint32_t bits)
{
	double scale = (double)((1u << bits) - 1u);

	/* nearbyint (round half to even) of a value in [0, 2^24): adding
	 * and taking away 2^52 rounds it the same, without a libm call */
	return (uint32_t)(((double)z * scale + 0x1p52) - 0x1p52);
}

float
gfx_depth_quantize(uint32_t format, float z)
{
	z = clamp_range(z, 0.0f, 1.0f);
	switch (format) {
	case SWGPU_FORMAT_D16_UNORM:
		return (float)((double)unorm_bits(z, 16) / 65535.0);
	case SWGPU_FORMAT_X8_D24_UNORM:
		return (float)((double)unorm_bits(z, 24) / 16777215.0);
	default:
		return z;
	}
}

/* A depth value in the attachment's own units: UNORM integers, or the
 * float's bits made ordered (z >= 0 here, so the bits order as
 * unsigned integers). */
static inline uint32_t
depth_encode(uint32_t format, float z)
{
	z = clamp_range(z, 0.0f, 1.0f);
	switch (format) {
	case SWGPU_FORMAT_D16_UNORM:
		return unorm_bits(z, 16);
	case SWGPU_FORMAT_X8_D24_UNORM:
		return unorm_bits(z, 24);
	default: {
		uint32_t u;
		memcpy(&u, &z, 4);
		return u;
	}
	}
}

static uint32_t
depth_load(uint32_t format, const uint8_t *p)
{
	switch (format) {
	case SWGPU_FORMAT_D16_UNORM: {
		uint16_t v;
		memcpy(&v, p, 2);
		return v;
	}
	case SWGPU_FORMAT_X8_D24_UNORM: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v & 0xffffffu;
	}
	default: {
		uint32_t v;
		memcpy(&v, p, 4);
		return v;
	}
	}
}

static void
depth_store(uint32_t format, uint8_t *p, uint32_t v)
{
	if (format == SWGPU_FORMAT_D16_UNORM) {
		uint16_t h = (uint16_t)v;
		memcpy(p, &h, 2);
	} else {
		/* X8_D24: bits 24..31 written 0 (swgpu_format.h) */
		memcpy(p, &v, 4);
	}
}

/* Stored depth as a float in [0, 1] (depth bounds). */
static float
depth_value(uint32_t format, uint32_t v)
{
	switch (format) {
	case SWGPU_FORMAT_D16_UNORM:
		return (float)((double)v / 65535.0);
	case SWGPU_FORMAT_X8_D24_UNORM:
		return (float)((double)v / 16777215.0);
	default: {
		float f;
		memcpy(&f, &v, 4);
		return f;
	}
	}
}

/* Compare for depth: the D32 values are non-negative floats (ordered
 * as integers) or NaN, which compares false except NOT_EQUAL. */
static bool
depth_compare(uint32_t op, uint32_t format, uint32_t in, uint32_t stored)
{
	if (format == SWGPU_FORMAT_D32_SFLOAT) {
		float a, b;
		memcpy(&a, &in, 4);
		memcpy(&b, &stored, 4);
		switch (op) {
		case SWGPU_COMPARE_NEVER: return false;
		case SWGPU_COMPARE_LESS: return a < b;
		case SWGPU_COMPARE_EQUAL: return a == b;
		case SWGPU_COMPARE_LESS_OR_EQUAL: return a <= b;
		case SWGPU_COMPARE_GREATER: return a > b;
		case SWGPU_COMPARE_NOT_EQUAL: return a != b;
		case SWGPU_COMPARE_GREATER_OR_EQUAL: return a >= b;
		default: return true;
		}
	}
	switch (op) {
	case SWGPU_COMPARE_NEVER: return false;
	case SWGPU_COMPARE_LESS: return in < stored;
	case SWGPU_COMPARE_EQUAL: return in == stored;
	case SWGPU_COMPARE_LESS_OR_EQUAL: return in <= stored;
	case SWGPU_COMPARE_GREATER: return in > stored;
	case SWGPU_COMPARE_NOT_EQUAL: return in != stored;
	case SWGPU_COMPARE_GREATER_OR_EQUAL: return in >= stored;
	default: return true;
	}
}

static bool
stencil_compare(uint32_t op, uint32_t ref, uint32_t s)
{
	switch (op) {
	case SWGPU_COMPARE_NEVER: return false;
	case SWGPU_COMPARE_LESS: return ref < s;
	case SWGPU_COMPARE_EQUAL: return ref == s;
	case SWGPU_COMPARE_LESS_OR_EQUAL: return ref <= s;
	case SWGPU_COMPARE_GREATER: return ref > s;
	case SWGPU_COMPARE_NOT_EQUAL: return ref != s;
	case SWGPU_COMPARE_GREATER_OR_EQUAL: return ref >= s;
	default: return true;
	}
}

/* VkStencilOp on an 8-bit value. */
static uint8_t
stencil_op(uint32_t op, uint8_t s, uint8_t ref)
{
	switch (op) {
	case 1: return 0;                                  /* ZERO */
	case 2: return ref;                                /* REPLACE */
	case 3: return s == 0xff ? s : (uint8_t)(s + 1);   /* INC_CLAMP */
	case 4: return s == 0 ? s : (uint8_t)(s - 1);      /* DEC_CLAMP */
	case 5: return (uint8_t)~s;                        /* INVERT */
	case 6: return (uint8_t)(s + 1);                   /* INC_WRAP */
	case 7: return (uint8_t)(s - 1);                   /* DEC_WRAP */
	default: return s;                                 /* KEEP */
	}
}

static void
stencil_apply(const struct gfx_stencil_face *f, uint32_t op, uint8_t *sp)
{
	uint8_t s = *sp;
	uint8_t r = stencil_op(op, s, f->reference);

	*sp = (uint8_t)((s & ~f->write_mask) | (r & f->write_mask));
}

/* VkCompareOp bits: 1 less, 2 equal, 4 greater (NEVER 0, ALWAYS 7). */
static inline bool
cmp_bits(uint32_t op, bool lt, bool eq, bool gt)
{
	return (op & ((lt ? 1u : 0u) | (eq ? 2u : 0u) | (gt ? 4u : 0u))) != 0;
}

#if defined(__SSE2__)
/* clamp_range on four lanes, the same selections (NaN -> lo). */
static inline __m128
clamp_range4(__m128 v, float lo, float hi)
{
	const __m128 l = _mm_set1_ps(lo), h = _mm_set1_ps(hi);
	const __m128 le = _mm_cmple_ps(v, h), ge = _mm_cmpge_ps(v, l);
	const __m128 t = _mm_or_ps(_mm_and_ps(le, v), _mm_andnot_ps(le, h));

	return _mm_or_ps(_mm_and_ps(ge, t), _mm_andnot_ps(ge, l));
}

/* depth_compare of four D32 lanes (a clamped to [0, 1] or NaN). */
static inline __m128
d32_compare4(uint32_t op, __m128 a, __m128 b)
{
	__m128 ok = _mm_setzero_ps();

	if (op == SWGPU_COMPARE_ALWAYS)
		return _mm_castsi128_ps(_mm_set1_epi32(-1));
	if (op == SWGPU_COMPARE_NOT_EQUAL)
		return _mm_cmpneq_ps(a, b);     /* true with a NaN */
	if (op & 1)
		ok = _mm_or_ps(ok, _mm_cmplt_ps(a, b));
	if (op & 2)
		ok = _mm_or_ps(ok, _mm_cmpeq_ps(a, b));
	if (op & 4)
		ok = _mm_or_ps(ok, _mm_cmpgt_ps(a, b));
	return ok;
}

/* A whole D32_SFLOAT quad (all four pixels covered, so all inside the
 * render area) at rows row[0], row[1]: depth_only's per-pixel steps for
 * the four lanes at once. */
static uint32_t
depth_only_d32_quad_masked(const struct gfx_draw *d,
                           const struct gfx_viewport *vp,
                           uint8_t *const row[2], const float *z,
                           uint32_t mask)
{
	const uint32_t op = d->depth_op;
	__m128 a = _mm_loadu_ps(z);

	if (d->depth_clamp)
		a = clamp_range4(a, vp->zmin, vp->zmax);
	a = clamp_range4(a, 0.0f, 1.0f);
	const __m128 b = _mm_castsi128_ps(_mm_unpacklo_epi64(
		_mm_loadl_epi64((const void *)row[0]),
		_mm_loadl_epi64((const void *)row[1])));
	const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
	const __m128 cov = _mm_castsi128_ps(_mm_cmpeq_epi32(
		_mm_and_si128(_mm_set1_epi32((int)mask), bit), bit));
	const __m128 ok = _mm_and_ps(d32_compare4(op, a, b), cov);
	const uint32_t pass = (uint32_t)_mm_movemask_ps(ok);
	if (d->depth_write && pass) {
		const __m128 v = _mm_or_ps(_mm_and_ps(ok, a),
		                           _mm_andnot_ps(ok, b));
		_mm_storel_epi64((void *)row[0], _mm_castps_si128(v));
		_mm_storel_epi64((void *)row[1],
		                 _mm_castps_si128(_mm_movehl_ps(v, v)));
	}
	return pass;
}

static inline uint32_t
depth_only_d32_quad(const struct gfx_draw *d, const struct gfx_viewport *vp,
                    uint8_t *const row[2], const float *z)
{
	return depth_only_d32_quad_masked(d, vp, row, z, 0xf);
}

/* unorm_bits of four floats already in [0, 1]: the same double
 * operations (z * scale exact, then the 2^52 rounding) two lanes at a
 * time. */
static inline __m128i
unorm_bits4(__m128 z, double scale)
{
	const __m128d k = _mm_set1_pd(scale), big = _mm_set1_pd(0x1p52);
	const __m128d lo = _mm_cvtps_pd(z);
	const __m128d hi = _mm_cvtps_pd(_mm_movehl_ps(z, z));
	const __m128i ilo = _mm_cvttpd_epi32(
		_mm_sub_pd(_mm_add_pd(_mm_mul_pd(lo, k), big), big));
	const __m128i ihi = _mm_cvttpd_epi32(
		_mm_sub_pd(_mm_add_pd(_mm_mul_pd(hi, k), big), big));

	return _mm_unpacklo_epi64(ilo, ihi);
}

/* A D16_UNORM quad inside the render area: depth_only's per-pixel steps
 * for the four lanes at once (the codes compare as integers), pixels not
 * in mask failing (their codes written back unchanged). */
static uint32_t
depth_only_d16_quad_masked(const struct gfx_draw *d,
                           const struct gfx_viewport *vp,
                           uint8_t *const row[2], const float *z,
                           uint32_t mask)
{
	const uint32_t op = d->depth_op;
	__m128 a = _mm_loadu_ps(z);
	uint32_t r0, r1;

	if (d->depth_clamp)
		a = clamp_range4(a, vp->zmin, vp->zmax);
	a = clamp_range4(a, 0.0f, 1.0f);
	const __m128i in = unorm_bits4(a, 65535.0);
	memcpy(&r0, row[0], 4);
	memcpy(&r1, row[1], 4);
	const __m128i st = _mm_unpacklo_epi16(
		_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)r0),
		                   _mm_cvtsi32_si128((int)r1)),
		_mm_setzero_si128());
	__m128i ok = _mm_setzero_si128();
	if (op & 1)
		ok = _mm_or_si128(ok, _mm_cmplt_epi32(in, st));
	if (op & 2)
		ok = _mm_or_si128(ok, _mm_cmpeq_epi32(in, st));
	if (op & 4)
		ok = _mm_or_si128(ok, _mm_cmpgt_epi32(in, st));
	if (mask != 0xf) {
		const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
		ok = _mm_and_si128(ok, _mm_cmpeq_epi32(
			_mm_and_si128(_mm_set1_epi32((int)mask), bit), bit));
	}
	const uint32_t pass = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(ok));
	if (d->depth_write && pass) {
		/* codes < 2^16: packs_epi32 of the selection after taking
		 * 2^15 away keeps them exact */
		const __m128i v = _mm_or_si128(_mm_and_si128(ok, in),
		                               _mm_andnot_si128(ok, st));
		const __m128i off = _mm_set1_epi32(0x8000);
		const __m128i p = _mm_xor_si128(
			_mm_packs_epi32(_mm_sub_epi32(v, off), off),
			_mm_set1_epi16((short)0x8000));
		const uint32_t w0 = (uint32_t)_mm_cvtsi128_si32(p);
		const uint32_t w1 = (uint32_t)_mm_cvtsi128_si32(
			_mm_srli_si128(p, 4));
		memcpy(row[0], &w0, 4);
		memcpy(row[1], &w1, 4);
	}
	return pass;
}

/* A whole D16_UNORM quad. */
static inline uint32_t
depth_only_d16_quad(const struct gfx_draw *d, const struct gfx_viewport *vp,
                    uint8_t *const row[2], const float *z)
{
	return depth_only_d16_quad_masked(d, vp, row, z, 0xf);
}
#endif

/* The depth test alone (no stencil, no bounds): the common case, with
 * the attachment's format decided once per quad. Same results as the
 * general path below. */
static uint32_t
depth_only(const struct gfx_draw *d, const struct gfx_prim *p,
           uint32_t slice, int32_t x, int32_t y, uint32_t mask,
           const float *z)
{
	const struct gfx_viewport *vp = &d->vp[p->viewport];
	const uint32_t op = d->depth_op, fmt = d->depth.format;
	uint8_t *row[2];
	uint32_t pass = 0;

	row[0] = gfx_texel(&d->depth, x, y, slice);
	row[1] = row[0] + d->depth.row_pitch;
#if defined(__SSE2__)
	if (mask == 0xf && fmt == SWGPU_FORMAT_D32_SFLOAT)
		return depth_only_d32_quad(d, vp, row, z);
	if (mask == 0xf && fmt == SWGPU_FORMAT_D16_UNORM)
		return depth_only_d16_quad(d, vp, row, z);
#endif
	for (uint32_t l = 0; l < 4; l++) {
		if (!(mask & (1u << l)))
			continue;
		uint8_t *dp = row[l >> 1] + (l & 1) * d->depth.bpp;
		float zv = z[l];
		if (d->depth_clamp)
			zv = clamp_range(zv, vp->zmin, vp->zmax);
		uint32_t zin = depth_encode(fmt, zv);
		uint32_t stored = depth_load(fmt, dp);
		bool ok;
		if (fmt == SWGPU_FORMAT_D32_SFLOAT) {
			float a, b;
			memcpy(&a, &zin, 4);
			memcpy(&b, &stored, 4);
			ok = op == SWGPU_COMPARE_ALWAYS ||
			     (a != a || b != b ? op == SWGPU_COMPARE_NOT_EQUAL
			                       : cmp_bits(op, a < b, a == b, a > b));
		} else {
			ok = cmp_bits(op, zin < stored, zin == stored,
			              zin > stored);
		}
		if (!ok)
			continue;
		if (d->depth_write)
			depth_store(fmt, dp, zin);
		pass |= 1u << l;
	}
	return pass;
}

uint32_t
gfx_depth_stencil(const struct gfx_draw *d, const struct gfx_prim *p,
                  int32_t x, int32_t y, uint32_t mask, const float *z)
{
	return gfx_depth_stencil_slice(d, p, p->layer * d->samples, x, y,
	                               mask, z);
}

uint32_t
gfx_depth_stencil_slice(const struct gfx_draw *d, const struct gfx_prim *p,
                        uint32_t slice, int32_t x, int32_t y, uint32_t mask,
                        const float *z)
{
	if (d->depth_test && !d->stencil_test && !d->depth_bounds &&
	    x >= d->depth.ox && y >= d->depth.oy)
		return depth_only(d, p, slice, x, y, mask, z);
	const bool has_depth = d->depth.base != NULL;
	const bool has_stencil = d->stencil.base != NULL;
	const struct gfx_stencil_face *f = &d->face[p->face];
	const struct gfx_viewport *vp = &d->vp[p->viewport];
	uint32_t pass = 0;

	for (uint32_t l = 0; l < 4; l++) {
		if (!(mask & (1u << l)))
			continue;
		int32_t px = x + (int32_t)(l & 1), py = y + (int32_t)(l >> 1);
		uint8_t *dp = has_depth ? gfx_texel(&d->depth, px, py, slice)
		                        : NULL;
		uint8_t *sp = has_stencil ? gfx_texel(&d->stencil, px, py,
		                                      slice)
		                          : NULL;
		uint32_t stored = dp ? depth_load(d->depth.format, dp) : 0;

		if (dp && d->depth_bounds) {
			float sv = depth_value(d->depth.format, stored);
			if (!(sv >= d->bounds_min && sv <= d->bounds_max))
				continue;
		}
		if (sp && d->stencil_test) {
			uint32_t cm = f->compare_mask;
			if (!stencil_compare(f->compare_op, f->reference & cm,
			                     *sp & cm)) {
				stencil_apply(f, f->fail_op, sp);
				continue;
			}
		}
		bool zpass = true;
		uint32_t zin = 0;
		if (dp && d->depth_test) {
			float zv = z[l];
			if (d->depth_clamp)
				zv = clamp_range(zv, vp->zmin, vp->zmax);
			zin = depth_encode(d->depth.format, zv);
			zpass = depth_compare(d->depth_op, d->depth.format, zin,
			                      stored);
		}
		if (sp && d->stencil_test)
			stencil_apply(f, zpass ? f->pass_op : f->depth_fail_op,
			              sp);
		if (!zpass)
			continue;
		if (dp && d->depth_test && d->depth_write)
			depth_store(d->depth.format, dp, zin);
		pass |= 1u << l;
	}
	return pass;
}

/*
 * Rows of whole quads (gfx_frag_quads_full with the depth test alone:
 * gfx_draw.depth_rows). Quads side by side do not overlap, so testing
 * them together is testing them one after the other. The depths are
 * gfx_frag_quad's expression, zc + zx (px - rx) + zy (py - ry) + bias
 * with the same operations in the same order, four pixels of a row at
 * a time; D32 compares and writes two quads' rows at once with
 * depth_only_d32_quad's operations, D16 goes quad by quad through
 * depth_only_d16_quad, or four quads (two rows of eight pixels) at once
 * on AVX2 (depth_avx2.c). Same bits as the per-quad path (test_gfx_depth
 * test_depth_rows_same, SWGPU_GFX_DEPTH_ROWS=0 turns it off).
 */
#if defined(__SSE2__)
/* Depth of pixels x .. x + 3 of the row whose centre is at py. */
static inline __m128
row_depth4(const struct gfx_prim *p, int32_t x, float dy)
{
	const __m128 px = _mm_add_ps(
		_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(x),
		                              _mm_setr_epi32(0, 1, 2, 3))),
		_mm_set1_ps(0.5f));
	const __m128 dz = _mm_mul_ps(_mm_set1_ps(p->zx),
	                             _mm_sub_ps(px, _mm_set1_ps(p->rx)));

	return _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_set1_ps(p->zc), dz),
	                             _mm_set1_ps(p->zy * dy)),
	                  _mm_set1_ps(p->bias));
}
#endif

uint32_t
gfx_depth_quad_early(const struct gfx_draw *d, const struct gfx_prim *p,
                     int32_t x, int32_t y, uint32_t mask, float *z)
{
#if defined(__SSE2__)
	const float dy0 = ((float)y + 0.5f) - p->ry;
	const float dy1 = ((float)(y + 1) + 0.5f) - p->ry;
	const __m128 px = _mm_add_ps(
		_mm_cvtepi32_ps(_mm_add_epi32(_mm_set1_epi32(x),
		                              _mm_setr_epi32(0, 1, 0, 1))),
		_mm_set1_ps(0.5f));
	const __m128 dz = _mm_mul_ps(_mm_set1_ps(p->zx),
	                             _mm_sub_ps(px, _mm_set1_ps(p->rx)));
	const __m128 zy = _mm_setr_ps(p->zy * dy0, p->zy * dy0, p->zy * dy1,
	                              p->zy * dy1);

	_mm_storeu_ps(z, _mm_add_ps(_mm_add_ps(_mm_add_ps(
		_mm_set1_ps(p->zc), dz), zy), _mm_set1_ps(p->bias)));
	/* a partly covered quad inside the render area: the whole quad's
	 * compare, its uncovered pixels' bytes written back unchanged */
	if (x >= d->fb.x0 && y >= d->fb.y0 && x + 2 <= d->fb.x1 &&
	    y + 2 <= d->fb.y1 && x >= d->depth.ox && y >= d->depth.oy) {
		const struct gfx_viewport *vp = &d->vp[p->viewport];
		uint8_t *row[2];

		row[0] = gfx_texel(&d->depth, x, y, p->layer);
		row[1] = row[0] + d->depth.row_pitch;
		if (d->depth.format == SWGPU_FORMAT_D32_SFLOAT)
			return depth_only_d32_quad_masked(d, vp, row, z, mask);
		if (d->depth.format == SWGPU_FORMAT_D16_UNORM)
			return depth_only_d16_quad_masked(d, vp, row, z, mask);
	}
#else
	for (uint32_t l = 0; l < 4; l++) {
		float px = (float)(x + (int32_t)(l & 1)) + 0.5f;
		float py = (float)(y + (int32_t)(l >> 1)) + 0.5f;
		z[l] = p->zc + p->zx * (px - p->rx) + p->zy * (py - p->ry) +
		       p->bias;
	}
#endif
	return gfx_depth_stencil(d, p, x, y, mask, z);
}

void
gfx_depth_rows(const struct gfx_draw *d, const struct gfx_prim *p,
               int32_t x, int32_t y, uint32_t n, float *z, uint8_t *pass)
{
	const uint32_t slice = p->layer * d->samples;
#if defined(__SSE2__)
	const struct gfx_viewport *vp = &d->vp[p->viewport];
	const float dy0 = ((float)y + 0.5f) - p->ry;
	const float dy1 = ((float)(y + 1) + 0.5f) - p->ry;
	const bool d32 = d->depth.format == SWGPU_FORMAT_D32_SFLOAT;
#if defined(__x86_64__) || defined(__i386__)
	if (!d32 && n == GFX_DEPTH_ROW_QUADS && out8_have_avx2()) {
		gfx_depth_rows_d16_avx2(d, p, x, y, z, pass);
		return;
	}
#endif
	uint8_t *row0 = gfx_texel(&d->depth, x, y, slice);
	uint8_t *row1 = row0 + d->depth.row_pitch;

	/* the raster walks 8x8 blocks left to right: the block after next
	 * reads these rows one cache line on */
	__builtin_prefetch(row0 + 64, 1);
	__builtin_prefetch(row1 + 64, 1);
	for (uint32_t i = 0; i < n; i += 2, x += 4, row0 += 4 * d->depth.bpp,
	     row1 += 4 * d->depth.bpp) {
		const __m128 z0 = row_depth4(p, x, dy0);
		const __m128 z1 = row_depth4(p, x, dy1);

		_mm_storeu_ps(z + 4 * i, _mm_movelh_ps(z0, z1));
		if (i + 1 < n)
			_mm_storeu_ps(z + 4 * i + 4, _mm_movehl_ps(z1, z0));
		if (!d32 || i + 1 == n) {
			for (uint32_t k = i; k < n && k < i + 2; k++) {
				uint8_t *const row[2] = {
					row0 + 2 * (k - i) * d->depth.bpp,
					row1 + 2 * (k - i) * d->depth.bpp };

				pass[k] = (uint8_t)(d32
				        ? depth_only_d32_quad(d, vp, row, z + 4 * k)
				        : depth_only_d16_quad(d, vp, row,
				                              z + 4 * k));
			}
			continue;
		}
		__m128 a0 = z0, a1 = z1;
		if (d->depth_clamp) {
			a0 = clamp_range4(a0, vp->zmin, vp->zmax);
			a1 = clamp_range4(a1, vp->zmin, vp->zmax);
		}
		a0 = clamp_range4(a0, 0.0f, 1.0f);
		a1 = clamp_range4(a1, 0.0f, 1.0f);
		const __m128 b0 = _mm_loadu_ps((const float *)(void *)row0);
		const __m128 b1 = _mm_loadu_ps((const float *)(void *)row1);
		const __m128 ok0 = d32_compare4(d->depth_op, a0, b0);
		const __m128 ok1 = d32_compare4(d->depth_op, a1, b1);
		const uint32_t m0 = (uint32_t)_mm_movemask_ps(ok0);
		const uint32_t m1 = (uint32_t)_mm_movemask_ps(ok1);

		pass[i] = (uint8_t)((m0 & 3u) | (m1 & 3u) << 2);
		pass[i + 1] = (uint8_t)((m0 >> 2) | (m1 >> 2) << 2);
		if (d->depth_write && (m0 | m1)) {
			/* a failing pixel gets its own bytes back */
			_mm_storeu_ps((float *)(void *)row0,
			              _mm_or_ps(_mm_and_ps(ok0, a0),
			                        _mm_andnot_ps(ok0, b0)));
			_mm_storeu_ps((float *)(void *)row1,
			              _mm_or_ps(_mm_and_ps(ok1, a1),
			                        _mm_andnot_ps(ok1, b1)));
		}
	}
#else
	for (uint32_t i = 0; i < n; i++, x += 2) {
		for (uint32_t l = 0; l < 4; l++) {
			float px = (float)(x + (int32_t)(l & 1)) + 0.5f;
			float py = (float)(y + (int32_t)(l >> 1)) + 0.5f;
			z[4 * i + l] = p->zc + p->zx * (px - p->rx) +
			               p->zy * (py - p->ry) + p->bias;
		}
		pass[i] = (uint8_t)gfx_depth_stencil_slice(d, p, slice, x, y,
		                                           0xf, z + 4 * i);
	}
#endif
}

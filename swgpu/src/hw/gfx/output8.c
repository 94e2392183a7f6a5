/* SPDX-License-Identifier: MIT */
/*
 * Colour output to 8-bit RGBA/BGRA targets (UNORM and sRGB), all four
 * channels written and no logic op: the common case, a whole fragment
 * batch at a time. UNORM goes to the fused per-quad kernels of
 * output8_unorm.c / output8_avx2.c (8-bit fixed-point blending,
 * blend_unorm8.c). sRGB is done channel by channel, so
 * every blend factor and op costs one short loop over the batch's lanes
 * instead of a branch per pixel:
 *   1. the destination of every lane (when blending) into float arrays
 *      (linearized; alpha i / 255), by table;
 *   2. for each channel: source and destination factors as lane arrays
 *      (blend.c's factor(), same float operations), then the op;
 *   3. back to bytes: the colour takes the smallest code whose upper
 *      threshold, linearized, lies above the value (the format encoder's
 *      rule); alpha rounds v * 255 to nearest in double, where the
 *      product of a float is exact (the format encoder's rounding: the
 *      only tie a float has is 0.5 -> 127.5).
 * The bytes are exactly those output.c's per-pixel path (the format
 * encoder and gfx_blend) writes.
 */
#include "hw/gfx/gfx_internal.h"
#include "hw/gfx/output8_unorm.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define N GFX_LANES

static float unorm8_table[256];
static float srgb_decode[256];
static double srgb_upper[256];
static uint8_t srgb_start[1025];   /* encode(i / 1024): a lower bound */
static float ones[N], zeros[N];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void
tables_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		unorm8_table[i] = (float)((double)i / 255.0);
		srgb_decode[i] = (float)format_srgb_to_linear((double)i / 255.0);
		srgb_upper[i] = format_srgb_to_linear(((double)i + 0.5) /
		                                      255.0);
	}
	for (uint32_t i = 0; i <= 1024; i++) {
		double l = (double)i / 1024.0;
		uint32_t n = 0;
		while (n < 255 && !(l < srgb_upper[n]))
			n++;
		srgb_start[i] = (uint8_t)n;
	}
	for (uint32_t i = 0; i < N; i++)
		ones[i] = 1.0f;
}

static inline float
clamp01(float v)
{
	/* NaN -> 0 */
	return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

static inline uint8_t
unorm8(float v)
{
	double x = v > 0.0f ? (v < 1.0f ? (double)v : 1.0) : 0.0;
	return (uint8_t)(int)(x * 255.0 + 0.5);
}

static inline uint8_t
srgb8(float v)
{
	if (!(v > 0.0f))
		return 0;
	if (v >= 1.0f)
		return 255;
	uint32_t n = srgb_start[(int)(v * 1024.0f)];
	while (n < 255 && !((double)v < srgb_upper[n]))
		n++;
	return (uint8_t)n;
}

/* Lane loops over n (a multiple of 4) floats, four at a time where SSE2
 * is there; each computes exactly the scalar expression. */
#if defined(__SSE2__)
#define V4 __m128
#define LD(p) _mm_loadu_ps(p)
#define ST(p, v) _mm_storeu_ps(p, v)
#define ADD(a, b) _mm_add_ps(a, b)
#define SUB(a, b) _mm_sub_ps(a, b)
#define MUL(a, b) _mm_mul_ps(a, b)
#define MIN(a, b) _mm_min_ps(a, b)
#define MAX(a, b) _mm_max_ps(a, b)
#define SET1(v) _mm_set1_ps(v)
#define STEP 4u
#else
#define V4 float
#define LD(p) (*(p))
#define ST(p, v) (*(p) = (v))
#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define SET1(v) (v)
#define STEP 1u
#endif

/* out = clamp01(in): NaN -> 0 (SSE max returns its second operand). */
static inline void
clamp_lanes(float *out, const float *in, uint32_t n)
{
	for (uint32_t l = 0; l < n; l += STEP) {
		V4 v = LD(in + l);
#if defined(__SSE2__)
		ST(out + l, MIN(MAX(v, SET1(0.0f)), SET1(1.0f)));
#else
		ST(out + l, clamp01(v));
#endif
	}
}

struct lanes {
	uint32_t n;
	float s[4][N], s1[4][N], d[4][N];
	float k[4];
	float tmp[2][N];
};

/* Blend factor f (VkBlendFactor) of channel c for every lane: a lane
 * array, computed into buf when it is not one already. */
static const float *
factor_lanes(const struct lanes *x, uint32_t f, uint32_t c, float *buf)
{
	const uint32_t n = x->n;
	const float *a = NULL;
	bool inv = false;
	float kv = 0.0f;

	switch (f) {
	case 0: return zeros;
	case 1: return ones;
	case 2: return x->s[c];
	case 3: a = x->s[c]; inv = true; break;
	case 4: return x->d[c];
	case 5: a = x->d[c]; inv = true; break;
	case 6: return x->s[3];
	case 7: a = x->s[3]; inv = true; break;
	case 8: return x->d[3];
	case 9: a = x->d[3]; inv = true; break;
	case 10: kv = x->k[c]; break;
	case 11: kv = 1.0f - x->k[c]; break;
	case 12: kv = x->k[3]; break;
	case 13: kv = 1.0f - x->k[3]; break;
	case 14:                     /* SRC_ALPHA_SATURATE */
		if (c == 3)
			return ones;
		for (uint32_t l = 0; l < n; l += STEP)
			ST(buf + l, MIN(LD(x->s[3] + l),
			                SUB(SET1(1.0f), LD(x->d[3] + l))));
		return buf;
	case 15: return x->s1[c];
	case 16: a = x->s1[c]; inv = true; break;
	case 17: return x->s1[3];
	case 18: a = x->s1[3]; inv = true; break;
	default: return zeros;
	}
	if (a && inv) {
		for (uint32_t l = 0; l < n; l += STEP)
			ST(buf + l, SUB(SET1(1.0f), LD(a + l)));
		return buf;
	}
	for (uint32_t l = 0; l < n; l += STEP)
		ST(buf + l, SET1(kv));
	return buf;
}

static void
blend_lanes(struct lanes *x, const struct swgpu_blend_attachment *b,
            float out[4][N])
{
	const uint32_t n = x->n;

	for (uint32_t c = 0; c < 4; c++) {
		uint32_t sfc = c < 3 ? b->src_color : b->src_alpha;
		uint32_t dfc = c < 3 ? b->dst_color : b->dst_alpha;
		uint32_t op = c < 3 ? b->color_op : b->alpha_op;
		const float *sf = factor_lanes(x, sfc, c, x->tmp[0]);
		const float *df = factor_lanes(x, dfc, c, x->tmp[1]);
		const float *s = x->s[c], *d = x->d[c];
		float *o = out[c];
		switch (op) {
		case 1:
			for (uint32_t l = 0; l < n; l += STEP)
				ST(o + l, SUB(MUL(LD(s + l), LD(sf + l)),
				              MUL(LD(d + l), LD(df + l))));
			break;
		case 2:
			for (uint32_t l = 0; l < n; l += STEP)
				ST(o + l, SUB(MUL(LD(d + l), LD(df + l)),
				              MUL(LD(s + l), LD(sf + l))));
			break;
		case 3:
			for (uint32_t l = 0; l < n; l += STEP)
				ST(o + l, MIN(LD(s + l), LD(d + l)));
			break;
		case 4:
			for (uint32_t l = 0; l < n; l += STEP)
				ST(o + l, MAX(LD(s + l), LD(d + l)));
			break;
		default:
			for (uint32_t l = 0; l < n; l += STEP)
				ST(o + l, ADD(MUL(LD(s + l), LD(sf + l)),
				              MUL(LD(d + l), LD(df + l))));
			break;
		}
	}
}

/* The job's pixels off bytes on (the next sample's slice). */
static void
out8_job_move(struct out8_job *j, uint64_t off)
{
	for (uint32_t i = 0; i < j->npieces; i++) {
		struct out8_piece *pc = &j->piece[i];

		if (pc->n) {
			pc->r0 += off;
		} else if (j->qmask[pc->q]) {
			j->row[pc->q][0] += off;
			j->row[pc->q][1] += off;
		}
	}
}

/* UNORM: the fused kernels of output8_unorm.c / output8_avx2.c. */
static void
unorm_batch(const struct gfx_thread *t, const struct gfx_draw *d,
            const struct gfx_color_target *rt, const uint8_t *qmask,
            const lane_t *const src[4], const lane_t *const src1[4],
            const uint32_t ci[4])
{
	struct out8_job j;
	const uint32_t nq = t->nquads_out;

	j.nq = nq;
	j.qmask = qmask;
	/* gfx_texel with the plane in locals (4 bytes a pixel): stores
	 * into j would otherwise reload them for every quad */
	const int32_t ox = rt->pl.ox, oy = rt->pl.oy;
	const int32_t x1 = rt->pl_x1, y1 = rt->pl_y1;
	const uint64_t pitch = rt->pl.row_pitch;
	/* multisampled: sample out_sample of each layer's slices */
	const uint64_t lpitch = rt->pl.layer_pitch * d->samples;
	uint8_t *const base = rt->pl.base +
	                      t->out_sample * rt->pl.layer_pitch;
	uint32_t np = 0;

	j.pitch = pitch;
	for (uint32_t q = 0; q < nq;) {
		const struct gfx_quad *qd = &t->quad[q];
		const int32_t x = qd->x, y = qd->y;
		uint32_t e = q + 1;
		/* a row of fully covered quads side by side (one primitive's
		 * span, gfx_frag_quads_full) */
		if (qmask[q] == 0xf)
			while (e < nq && qmask[e] == 0xf &&
			       t->quad[e].y == y &&
			       t->quad[e].x == x + 2 * (int32_t)(e - q) &&
			       t->quad[e].prim == qd->prim)
				e++;
		/* signed: a quad at an odd edge of the area starts a pixel
		 * before it (only its covered pixels are written) */
		uint8_t *p0 = base + (ptrdiff_t)(qd->prim->layer * lpitch) +
		              (ptrdiff_t)(y - oy) * (ptrdiff_t)pitch +
		              (ptrdiff_t)(x - ox) * 4;
		if (qmask[q] == 0xf && x >= ox && y >= oy &&
		    x + 2 * (int32_t)(e - q) <= x1 && y + 1 < y1) {
			j.piece[np++] = (struct out8_piece){
				.r0 = p0, .q = (uint16_t)q,
				.n = (uint16_t)(e - q) };
			if (rt->blend)
				for (uint32_t o = 0; o < 8 * (e - q); o += 64) {
					__builtin_prefetch(p0 + o, 1);
					__builtin_prefetch(p0 + pitch + o, 1);
				}
			/* the next 8x8 block's rows after the run's end */
			__builtin_prefetch(p0 + 8 * (e - q) + 32, 1);
			__builtin_prefetch(p0 + pitch + 8 * (e - q) + 32, 1);
			q = e;
			continue;
		}
		/* one quad alone */
		j.piece[np++] = (struct out8_piece){ .q = (uint16_t)q };
		if (qmask[q]) {
			j.row[q][0] = p0;
			j.row[q][1] = p0 + pitch;
			j.whole[q] = x >= ox && y >= oy && x + 1 < x1 &&
			             y + 1 < y1;
		}
		q++;
	}
	j.npieces = np;
	for (uint32_t c = 0; c < 4; c++) {
		j.src[c] = &src[c][0].f;
		j.src1[c] = src1[0] ? &src1[c][0].f : NULL;
		j.sh[c] = 8 * ci[c];
	}
	j.k8 = 0;
	for (uint32_t c = 0; c < 4; c++)
		j.k8 |= unorm8_quantize(d->blend_const[c]) << j.sh[c];
	j.blend = rt->blend;
	j.b = rt->b;
	j.blend_const = d->blend_const;
	/* Samples written alike: the same job on each sample's slice. */
	for (uint32_t s = 0;; s++) {
		if (out8_have_avx2())
			out8_run_avx2(&j);
		else
			out8_run_sse2(&j);
		if (s + 1 >= t->out_planes)
			break;
		out8_job_move(&j, rt->pl.layer_pitch);
	}
}

void
gfx_output_batch8(const struct gfx_thread *t, const struct gfx_draw *d,
                  const struct gfx_color_target *rt, const uint8_t *qmask,
                  const lane_t *const src[4], const lane_t *const src1[4])
{
	const uint32_t nq = t->nquads_out;
	const bool bgra = rt->fast == GFX_FAST_BGRA8_UNORM ||
	                  rt->fast == GFX_FAST_BGRA8_SRGB;
	const bool srgb = rt->srgb;
	const uint32_t ci[4] = { bgra ? 2u : 0u, 1u, bgra ? 0u : 2u, 3u };
	uint8_t *px[GFX_BATCH_QUADS][4];
	static __thread struct lanes x;
	float out_buf[4][N];
	const float *o[4];

	if (!srgb) {
		unorm_batch(t, d, rt, qmask, src, src1, ci);
		return;
	}
	pthread_once(&tables_once, tables_init);
	x.n = 4 * nq;
	/* Pixel addresses; a quad at an edge of an odd-sized area may have
	 * lanes outside the mapped pixels: only its covered lanes are
	 * touched. */
	for (uint32_t q = 0; q < nq; q++) {
		const struct gfx_quad *qd = &t->quad[q];
		if (!qmask[q])
			continue;
		uint8_t *p0 = gfx_texel(&rt->pl, qd->x, qd->y,
		                        qd->prim->layer * d->samples +
		                        t->out_sample);
		px[q][0] = p0;
		px[q][1] = p0 + 4;
		px[q][2] = p0 + rt->pl.row_pitch;
		px[q][3] = px[q][2] + 4;
	}
	if (rt->blend) {
		for (uint32_t q = 0; q < nq; q++) {
			const uint32_t m = qmask[q];
			for (uint32_t i = 0; i < 4; i++) {
				const uint32_t l = 4 * q + i;
				const uint8_t *p = m & (1u << i) ? px[q][i]
				                                 : NULL;
				for (uint32_t c = 0; c < 4; c++)
					x.d[c][l] = p ? (c == 3 ? unorm8_table
					                        : srgb_decode)[p[ci[c]]]
					              : 0.0f;
			}
		}
		for (uint32_t c = 0; c < 4; c++) {
			clamp_lanes(x.s[c], &src[c][0].f, x.n);
			if (src1[0])
				clamp_lanes(x.s1[c], &src1[c][0].f, x.n);
			else
				memset(x.s1[c], 0, x.n * sizeof(float));
		}
		for (uint32_t c = 0; c < 4; c++)
			x.k[c] = clamp01(d->blend_const[c]);
		blend_lanes(&x, &rt->b, out_buf);
		for (uint32_t c = 0; c < 4; c++)
			o[c] = out_buf[c];
	} else {
		for (uint32_t c = 0; c < 4; c++)
			o[c] = &src[c][0].f;
	}
	for (uint32_t q = 0; q < nq; q++) {
		const uint32_t m = qmask[q];
		if (!m)
			continue;
		for (uint32_t i = 0; i < 4; i++) {
			if (!(m & (1u << i)))
				continue;
			const uint32_t l = 4 * q + i;
			uint8_t *p = px[q][i];
			for (uint32_t c = 0; c < 4; c++)
				p[ci[c]] = c < 3 ? srgb8(o[c][l]) : unorm8(o[c][l]);
		}
	}
}

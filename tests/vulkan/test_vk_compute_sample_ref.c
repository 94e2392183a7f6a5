/* SPDX-License-Identifier: MIT */
/*
 * test_vk_compute_sample: the spec reference of sampling (Texel
 * Filtering, Wrapping Operation, Image Level(s) Selection, Cube Map Face
 * Selection, Unnormalized Texel Coordinate Operations) and the checks of
 * the shaders' results against it. See test_vk_compute_sample.h.
 */
#include "test_vk_compute_sample.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Spec reference                                                      */
/* ------------------------------------------------------------------ */

void
ref_texel(const struct rview *v, uint32_t level, uint32_t layer, int32_t x,
          int32_t y, int32_t z, double out[4])
{
	const struct timg *t = v->t;
	const uint8_t *b = timg_block(t, 0, v->base_mip + level,
	                              v->base_layer + layer, (uint32_t)x,
	                              (uint32_t)y, (uint32_t)z);

	if (t->aspect[0] == VK_IMAGE_ASPECT_DEPTH_BIT) {
		float f;
		memcpy(&f, b, sizeof(f));      /* D32_SFLOAT only */
		out[0] = f;
		out[1] = out[2] = 0.0;
		out[3] = 1.0;
		return;
	}
	ir_decode(t->fmt, b, false, out);
}

static void
border_color(VkBorderColor b, double out[4])
{
	bool white = b == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE ||
	             b == VK_BORDER_COLOR_INT_OPAQUE_WHITE;
	bool opaque = white || b == VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK ||
	              b == VK_BORDER_COLOR_INT_OPAQUE_BLACK;

	out[0] = out[1] = out[2] = white ? 1.0 : 0.0;
	out[3] = opaque ? 1.0 : 0.0;
}

static int32_t
mirror(int32_t n)
{
	return n >= 0 ? n : -(1 + n);
}

/* Wrapping Operation: the texel index in [0, size) or -1 (border). */
static int32_t
wrap(int32_t i, int32_t size, VkSamplerAddressMode m)
{
	int32_t t;

	switch (m) {
	case VK_SAMPLER_ADDRESS_MODE_REPEAT:
		return ((i % size) + size) % size;
	case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT:
		t = ((i % (2 * size)) + 2 * size) % (2 * size) - size;
		return (size - 1) - mirror(t);
	case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
		return i < 0 || i >= size ? -1 : i;
	case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE:
		t = mirror(i);
		return t > size - 1 ? size - 1 : t;
	default: /* CLAMP_TO_EDGE */
		return i < 0 ? 0 : i > size - 1 ? size - 1 : i;
	}
}

/* Texel Filtering of one level at unnormalized (u, v, w). */
static void
ref_level(const struct rview *v, const struct sdesc *s, uint32_t level,
          uint32_t layer, const double uvw[3], VkFilter f, double out[4])
{
	VkExtent3D e = timg_mip_extent(v->t, v->base_mip + level);
	int32_t size[3] = { (int32_t)e.width, (int32_t)e.height,
	                    v->kind == RV_3D ? (int32_t)e.depth : 1 };
	int dims = v->kind == RV_3D ? 3 : 2;
	int32_t i0[3] = { 0, 0, 0 };
	double a[3] = { 0, 0, 0 };
	int taps = f == VK_FILTER_LINEAR ? 1 << dims : 1;

	for (int k = 0; k < dims; k++) {
		double p = f == VK_FILTER_LINEAR ? uvw[k] - 0.5 : uvw[k];
		i0[k] = (int32_t)floor(p);
		if (f == VK_FILTER_LINEAR)
			a[k] = p - floor(p);
	}
	memset(out, 0, 4 * sizeof(double));
	for (int corner = 0; corner < taps; corner++) {
		int32_t c[3] = { 0, 0, 0 };
		bool border = false;
		double w = 1.0, t[4];

		for (int k = 0; k < dims; k++) {
			int bit = corner >> k & 1;
			w *= bit ? a[k] : 1.0 - a[k];
			c[k] = wrap(i0[k] + bit, size[k], s->am[k]);
			border |= c[k] < 0;
		}
		if (w == 0.0)
			continue;
		if (border)
			border_color(s->border, t);
		else
			ref_texel(v, level, layer, c[0], c[1], c[2], t);
		for (int i = 0; i < 4; i++)
			out[i] += w * t[i];
	}
}

/* Cube Map Face Selection: face (layer) and normalized (s, t). */
static uint32_t
cube_face(const double r[3], double st[3])
{
	double ax = fabs(r[0]), ay = fabs(r[1]), az = fabs(r[2]);
	double ma, sc, tc;
	uint32_t face;

	if (ax >= ay && ax >= az) {
		face = r[0] >= 0 ? 0 : 1;
		sc = r[0] >= 0 ? -r[2] : r[2];
		tc = -r[1];
		ma = ax;
	} else if (ay >= az) {
		face = r[1] >= 0 ? 2 : 3;
		sc = r[0];
		tc = r[1] >= 0 ? r[2] : -r[2];
		ma = ay;
	} else {
		face = r[2] >= 0 ? 4 : 5;
		sc = r[2] >= 0 ? r[0] : -r[0];
		tc = -r[1];
		ma = az;
	}
	st[0] = 0.5 * (sc / ma + 1.0);
	st[1] = 0.5 * (tc / ma + 1.0);
	st[2] = 0.0;
	return face;
}

/* One textureLod with an explicit lod. alt: NEAREST mip selection with
 * the spec's alternative rounding floor(d + 0.5) instead of the
 * preferred ceil(d + 0.5) - 1 (they differ only at d = n + 0.5). */
void
ref_sample(const struct rview *v, const struct sdesc *s, const double c[3],
           double lod, bool alt, double out[4])
{
	double coord[3] = { c[0], c[1], c[2] };
	double q = (double)v->mips - 1.0, lambda, dp, delta = 0.0;
	uint32_t layer = 0, lv[2];
	double res[2][4];

	if (v->kind == RV_CUBE) {
		layer = cube_face(c, coord);
	} else if (v->kind == RV_ARRAY) {
		double l = nearbyint(c[2]);
		l = l < 0 ? 0 : l > v->layers - 1 ? v->layers - 1 : l;
		layer = (uint32_t)l;
	}
	lambda = fmin(fmax(lod, s->min_lod), s->max_lod);
	VkFilter f = lambda <= 0.0 ? s->mag : s->min;
	dp = fmin(fmax(lambda, 0.0), q);
	if (s->mip == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
		double d = alt ? floor(dp + 0.5) : ceil(dp + 0.5) - 1.0;
		lv[0] = lv[1] = (uint32_t)fmin(fmax(d, 0.0), q);
	} else {
		lv[0] = (uint32_t)floor(dp);
		lv[1] = (uint32_t)fmin(lv[0] + 1.0, q);
		delta = dp - floor(dp);
	}
	for (int i = 0; i < 2; i++) {
		VkExtent3D e = timg_mip_extent(v->t, v->base_mip + lv[i]);
		double uvw[3] = { coord[0], coord[1], coord[2] };
		if (!s->unnorm) {
			uvw[0] *= e.width;
			uvw[1] *= e.height;
			uvw[2] *= v->kind == RV_3D ? e.depth : 1;
		}
		ref_level(v, s, lv[i], layer, uvw, f, res[i]);
	}
	for (int i = 0; i < 4; i++)
		out[i] = (1.0 - delta) * res[0][i] + delta * res[1][i];
}

/* ------------------------------------------------------------------ */
/* Checking                                                            */
/* ------------------------------------------------------------------ */

static bool
close4(const float got[4], const double want[4], double tol, unsigned mask)
{
	for (int c = 0; c < 4; c++)
		if ((mask >> c & 1) && !(fabs(got[c] - want[c]) <= tol))
			return false;
	return true;
}

static void
report(struct tally *k, const char *kase, const float q[4], const float got[4],
       const double want[4], const double *alt)
{
	if (k->bad++ >= MAX_REPORT)
		return;
	printf("  %s: %s at (%g, %g, %g) [mode %g]: got (%g, %g, %g, %g), "
	       "want (%g, %g, %g, %g)", k->what, kase, q[0], q[1], q[2], q[3],
	       got[0], got[1], got[2], got[3], want[0], want[1], want[2],
	       want[3]);
	if (alt)
		printf(" or (%g, %g, %g, %g)", alt[0], alt[1], alt[2], alt[3]);
	printf("\n");
}

/* A textureLod result: 2D queries are (x, y, lod), the others (x, y, z)
 * at lod 0. Only the components in mask are compared. */
void
check_sample(struct tally *k, const char *kase, const struct rview *v,
             const struct sdesc *s, const float q[4], const float got[4],
             double tol, unsigned mask)
{
	bool flat = v->kind == RV_2D;
	double c[3] = { q[0], q[1], flat ? 0.0 : q[2] };
	double lod = flat ? q[2] : 0.0, w[4], a[4];

	k->n++;
	ref_sample(v, s, c, lod, false, w);
	ref_sample(v, s, c, lod, true, a);
	if (close4(got, w, tol, mask) || close4(got, a, tol, mask))
		return;
	report(k, kase, q, got, w, memcmp(w, a, sizeof(w)) ? a : NULL);
}

void
check_exact(struct tally *k, const char *kase, const float q[4],
            const float got[4], const double want[4], double tol)
{
	k->n++;
	if (!close4(got, want, tol, 0xf))
		report(k, kase, q, got, want, NULL);
}

double
tol_of(const struct timg *t)
{
	if (t->aspect[0] == VK_IMAGE_ASPECT_DEPTH_BIT)
		return TOL_DEPTH;
	return t->fmt->type == IR_UNORM ? TOL_UNORM8 : TOL_FLOAT;
}

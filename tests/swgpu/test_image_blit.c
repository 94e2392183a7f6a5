/* SPDX-License-Identifier: MIT */
/*
 * BLIT packet tests against a host reference of vkCmdBlitImage written
 * here from the spec's text (texel-centre mapping, clamp to edge,
 * nearest = floor, linear = weights of the neighbours of coord - 0.5,
 * sRGB decoded before filtering and encoded after). The reference has its
 * own texel codecs for the formats used, so it shares no code with the
 * engine. Every dst texel is checked; bytes outside the dst region keep
 * their PAD.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "image_test_util.h"

struct img {
	struct gbuf buf;
	struct swgpu_blit_surface s;
	uint32_t bb;
};

static struct img
img_new(struct fixture *f, uint32_t format, uint32_t bb, uint32_t w,
        uint32_t h, uint32_t d, uint32_t va_flags)
{
	struct img m = { .bb = bb };
	uint64_t rp = (uint64_t)w * bb + 12;    /* padded pitches */
	uint64_t sp = rp * h + 40;

	m.buf = gbuf_new(f, sp * d + 64, va_flags);
	m.s = (struct swgpu_blit_surface){
		.va = m.buf.va + 8, .row_pitch = rp, .slice_pitch = sp,
		.format = format, .width = w, .height = h, .depth = d,
	};
	return m;
}

static uint8_t *
img_texel(const struct img *m, uint32_t x, uint32_t y, uint32_t z)
{
	return m->buf.cpu + 8 + z * m->s.slice_pitch + y * m->s.row_pitch +
	       (uint64_t)x * m->bb;
}

static void
img_random(struct img *m)
{
	for (uint32_t z = 0; z < m->s.depth; z++)
		for (uint32_t y = 0; y < m->s.height; y++)
			fill_random(img_texel(m, 0, y, z),
			            (uint64_t)m->s.width * m->bb);
}

/* ------------------------------------------------------------------ */
/* Host reference                                                      */
/* ------------------------------------------------------------------ */

static double
ref_srgb_decode(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double
ref_srgb_encode(double l)
{
	if (l <= 0.0)
		return 0.0;
	if (l < 0.0031308)
		return 12.92 * l;
	return l >= 1.0 ? 1.0 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

static void
ref_decode(uint32_t fmt, const uint8_t *p, double v[4])
{
	float fl[4];

	switch (fmt) {
	case SWGPU_FORMAT_R8G8B8A8_UNORM:
		for (int c = 0; c < 4; c++)
			v[c] = p[c] / 255.0;
		break;
	case SWGPU_FORMAT_R8G8B8A8_SRGB:
		for (int c = 0; c < 4; c++)
			v[c] = c < 3 ? ref_srgb_decode(p[c] / 255.0)
			             : p[c] / 255.0;
		break;
	case SWGPU_FORMAT_R32_SFLOAT:
		memcpy(fl, p, 4);
		v[0] = fl[0];
		v[1] = v[2] = 0.0;
		v[3] = 1.0;
		break;
	case SWGPU_FORMAT_R32G32B32A32_SFLOAT:
		memcpy(fl, p, 16);
		for (int c = 0; c < 4; c++)
			v[c] = fl[c];
		break;
	default:
		fail_msg("no reference decoder for format %u", fmt);
	}
}

/* Unnormalized coordinate -> clamped index. */
static uint32_t
ref_clamp(double f, uint32_t n)
{
	long i = (long)floor(f);

	return i < 0 ? 0 : (uint32_t)i >= n ? n - 1 : (uint32_t)i;
}

static void
ref_fetch(const struct img *m, long x, long y, long z, double v[4])
{
	x = x < 0 ? 0 : x >= (long)m->s.width ? (long)m->s.width - 1 : x;
	y = y < 0 ? 0 : y >= (long)m->s.height ? (long)m->s.height - 1 : y;
	z = z < 0 ? 0 : z >= (long)m->s.depth ? (long)m->s.depth - 1 : z;
	ref_decode(m->s.format,
	           img_texel(m, (uint32_t)x, (uint32_t)y, (uint32_t)z), v);
}

static void
ref_sample(const struct img *m, const double uvw[3], bool linear,
           double out[4])
{
	if (!linear) {
		ref_decode(m->s.format,
		           img_texel(m, ref_clamp(uvw[0], m->s.width),
		                     ref_clamp(uvw[1], m->s.height),
		                     ref_clamp(uvw[2], m->s.depth)), out);
		return;
	}
	double a[3];
	long b[3];
	for (int i = 0; i < 3; i++) {
		double t = uvw[i] - 0.5;
		b[i] = (long)floor(t);
		a[i] = t - floor(t);
	}
	if (m->s.depth == 1) {
		a[2] = 0.0;
		b[2] = 0;
	}
	for (int c = 0; c < 4; c++)
		out[c] = 0.0;
	for (int k = 0; k < 8; k++) {
		int i = k & 1, j = (k >> 1) & 1, l = k >> 2;
		double wgt = (i ? a[0] : 1 - a[0]) * (j ? a[1] : 1 - a[1]) *
		             (l ? a[2] : 1 - a[2]);
		double t[4];

		if (wgt == 0.0)
			continue;
		ref_fetch(m, b[0] + i, b[1] + j, b[2] + l, t);
		for (int c = 0; c < 4; c++)
			out[c] += wgt * t[c];
	}
}

/* Compare one dst texel with the reference value. */
static void
ref_check(const struct img *d, const uint8_t *got, const double v[4],
          uint32_t x, uint32_t y, uint32_t z)
{
	for (int c = 0; c < 4; c++) {
		double e = v[c], g = 0.0, tol = 0.0;

		switch (d->s.format) {
		case SWGPU_FORMAT_R8G8B8A8_UNORM:
			e = rint((e < 0 ? 0 : e > 1 ? 1 : e) * 255.0);
			g = got[c];
			tol = 1.0;      /* filtered in a different order */
			break;
		case SWGPU_FORMAT_R8G8B8A8_SRGB:
			e = rint((c < 3 ? ref_srgb_encode(e) : e) * 255.0);
			g = got[c];
			tol = 1.0;
			break;
		case SWGPU_FORMAT_R32_SFLOAT:
		case SWGPU_FORMAT_R32G32B32A32_SFLOAT: {
			float fl;
			if (c > 0 && d->s.format == SWGPU_FORMAT_R32_SFLOAT)
				continue;
			memcpy(&fl, got + 4 * c, 4);
			g = fl;
			tol = 1e-6 * (1.0 + fabs(e));
			break;
		}
		default:
			fail_msg("no reference encoder");
			return;
		}
		if (fabs(g - e) > tol)
			fail_msg("texel (%u,%u,%u) channel %d: got %g want %g",
			         x, y, z, c, g, e);
	}
}

/* Run one blit and check it against the reference; returns the number
 * of dst texels written. */
static void
blit_check(struct fixture *f, const struct img *s, const struct img *d,
           const int32_t sb[6], const int32_t db[6], bool linear)
{
	memset(d->buf.cpu, PAD, d->buf.size);
	f->n += swgpu_emit_blit(emit(f), &s->s, &d->s, sb, db,
	                        linear ? SWGPU_BLIT_LINEAR : 0);
	assert_true(run(f));

	uint8_t *inside = calloc(1, d->buf.size);
	uint32_t lo[3], hi[3];
	for (int i = 0; i < 3; i++) {
		lo[i] = (uint32_t)(db[i] < db[i + 3] ? db[i] : db[i + 3]);
		hi[i] = (uint32_t)(db[i] < db[i + 3] ? db[i + 3] : db[i]);
	}
	for (uint32_t z = lo[2]; z < hi[2]; z++)
		for (uint32_t y = lo[1]; y < hi[1]; y++)
			for (uint32_t x = lo[0]; x < hi[0]; x++) {
				const uint32_t xyz[3] = { x, y, z };
				double uvw[3], v[4];
				uint8_t *got = img_texel(d, x, y, z);

				for (int i = 0; i < 3; i++)
					uvw[i] = sb[i] + (xyz[i] + 0.5 - db[i]) *
					         (double)(sb[i + 3] - sb[i]) /
					         (double)(db[i + 3] - db[i]);
				ref_sample(s, uvw, linear, v);
				ref_check(d, got, v, x, y, z);
				memset(inside + (got - d->buf.cpu), 1, d->bb);
			}
	for (uint64_t i = 0; i < d->buf.size; i++)
		if (!inside[i] && d->buf.cpu[i] != PAD)
			fail_msg("dst byte %llu outside the region changed",
			         (unsigned long long)i);
	free(inside);
}

/* 2D region pairs: scale up, down, non-integer, mirrored on either or
 * both sides, src corners outside the image (clamped). */
static const int32_t regions2d[][2][6] = {
	{ { 0, 0, 0, 16, 12, 1 }, { 0, 0, 0, 32, 24, 1 } },
	{ { 0, 0, 0, 16, 12, 1 }, { 3, 2, 0, 11, 8, 1 } },
	{ { 1, 2, 0, 14, 11, 1 }, { 5, 1, 0, 28, 20, 1 } },
	{ { 0, 0, 0, 16, 12, 1 }, { 20, 0, 0, 4, 10, 1 } },
	{ { 16, 0, 0, 0, 12, 1 }, { 0, 23, 0, 30, 2, 1 } },
	{ { 15, 11, 0, 2, 1, 1 }, { 31, 23, 0, 7, 5, 1 } },
	{ { -4, -3, 0, 20, 15, 1 }, { 2, 2, 0, 30, 22, 1 } },
	{ { 3, 4, 0, 9, 5, 1 }, { 0, 0, 0, 32, 24, 1 } },
	{ { 0, 0, 0, 16, 12, 1 }, { 0, 0, 0, 16, 12, 1 } },
	{ { 2, 1, 0, 10, 7, 1 }, { 7, 9, 0, 15, 15, 1 } },
};

static void
blit_2d_matrix(struct fixture *f, uint32_t sfmt, uint32_t sbb,
               uint32_t dfmt, uint32_t dbb, bool linear)
{
	struct img s = img_new(f, sfmt, sbb, 16, 12, 1, SWGPU_VA_READ);
	struct img d = img_new(f, dfmt, dbb, 32, 24, 1, RW);

	img_random(&s);
	for (size_t i = 0; i < sizeof(regions2d) / sizeof(regions2d[0]); i++)
		blit_check(f, &s, &d, regions2d[i][0], regions2d[i][1],
		           linear);
}

static void
test_blit_nearest(void **state)
{
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_UNORM, 4,
	               SWGPU_FORMAT_R8G8B8A8_UNORM, 4, false);
	blit_2d_matrix(*state, SWGPU_FORMAT_R32G32B32A32_SFLOAT, 16,
	               SWGPU_FORMAT_R32G32B32A32_SFLOAT, 16, false);
}

static void
test_blit_linear(void **state)
{
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_UNORM, 4,
	               SWGPU_FORMAT_R8G8B8A8_UNORM, 4, true);
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_UNORM, 4,
	               SWGPU_FORMAT_R32G32B32A32_SFLOAT, 16, true);
}

static void
test_blit_srgb(void **state)
{
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_SRGB, 4,
	               SWGPU_FORMAT_R8G8B8A8_SRGB, 4, true);
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_SRGB, 4,
	               SWGPU_FORMAT_R8G8B8A8_UNORM, 4, true);
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_UNORM, 4,
	               SWGPU_FORMAT_R8G8B8A8_SRGB, 4, false);
	blit_2d_matrix(*state, SWGPU_FORMAT_R8G8B8A8_SRGB, 4,
	               SWGPU_FORMAT_R32G32B32A32_SFLOAT, 16, false);
}

static void
test_blit_3d(void **state)
{
	struct fixture *f = *state;
	struct img s = img_new(f, SWGPU_FORMAT_R32_SFLOAT, 4, 5, 4, 6,
	                       SWGPU_VA_READ);
	struct img d = img_new(f, SWGPU_FORMAT_R32_SFLOAT, 4, 8, 7, 9, RW);
	static const int32_t r[][2][6] = {
		{ { 0, 0, 0, 5, 4, 6 }, { 0, 0, 0, 8, 7, 9 } },
		{ { 0, 0, 0, 5, 4, 6 }, { 1, 2, 1, 7, 5, 4 } },
		{ { 5, 0, 6, 0, 4, 0 }, { 0, 7, 0, 8, 0, 9 } },
		{ { 1, 1, 1, 4, 3, 5 }, { 8, 0, 9, 0, 7, 0 } },
	};

	for (uint32_t z = 0; z < 6; z++)
		for (uint32_t y = 0; y < 4; y++)
			for (uint32_t x = 0; x < 5; x++) {
				float v = (float)(rnd() % 100000) / 1000.0f;
				memcpy(img_texel(&s, x, y, z), &v, 4);
			}
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		blit_check(f, &s, &d, r[i][0], r[i][1], false);
		blit_check(f, &s, &d, r[i][0], r[i][1], true);
	}
}

/* Nearest conversions with exact expectations. */
static void
test_blit_convert(void **state)
{
	struct fixture *f = *state;
	const int32_t box[6] = { 0, 0, 0, 4, 2, 1 };

	/* R8G8B8A8_UINT -> R16G16B16A16_UINT: zero-extended. */
	struct img s = img_new(f, SWGPU_FORMAT_R8G8B8A8_UINT, 4, 4, 2, 1,
	                       SWGPU_VA_READ);
	struct img d = img_new(f, SWGPU_FORMAT_R16G16B16A16_UINT, 8, 4, 2, 1,
	                       RW);
	img_random(&s);
	f->n += swgpu_emit_blit(emit(f), &s.s, &d.s, box, box, 0);
	assert_true(run(f));
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 4; x++)
			for (int c = 0; c < 4; c++) {
				uint16_t g;
				memcpy(&g, img_texel(&d, x, y, 0) + 2 * c, 2);
				assert_int_equal(g, img_texel(&s, x, y, 0)[c]);
			}

	/* R16_SINT -> R8_SINT: clamped. */
	struct img s16 = img_new(f, SWGPU_FORMAT_R16_SINT, 2, 4, 2, 1,
	                         SWGPU_VA_READ);
	struct img d8 = img_new(f, SWGPU_FORMAT_R8_SINT, 1, 4, 2, 1, RW);
	static const int16_t sv[8] = { -30000, -129, -128, -1, 0, 127, 128,
	                               32767 };
	static const int8_t dv[8] = { -128, -128, -128, -1, 0, 127, 127,
	                              127 };
	for (int i = 0; i < 8; i++)
		memcpy(img_texel(&s16, i % 4, i / 4, 0), &sv[i], 2);
	f->n += swgpu_emit_blit(emit(f), &s16.s, &d8.s, box, box, 0);
	assert_true(run(f));
	for (int i = 0; i < 8; i++)
		assert_int_equal((int8_t)*img_texel(&d8, i % 4, i / 4, 0),
		                 dv[i]);

	/* R32_SFLOAT -> R16_SFLOAT: rounding, overflow, denormals. */
	struct img sf = img_new(f, SWGPU_FORMAT_R32_SFLOAT, 4, 4, 2, 1,
	                        SWGPU_VA_READ);
	struct img dh = img_new(f, SWGPU_FORMAT_R16_SFLOAT, 2, 4, 2, 1, RW);
	const float fv[8] = { 1.0f, -2.0f, 65504.0f, 1e6f,
	                      5.9604645e-8f, 1.0f + 1.0f / 2048.0f,
	                      1.0f + 3.0f / 2048.0f, -INFINITY };
	static const uint16_t hv[8] = { 0x3c00, 0xc000, 0x7bff, 0x7c00,
	                                0x0001, 0x3c00, 0x3c02, 0xfc00 };
	for (int i = 0; i < 8; i++)
		memcpy(img_texel(&sf, i % 4, i / 4, 0), &fv[i], 4);
	f->n += swgpu_emit_blit(emit(f), &sf.s, &dh.s, box, box, 0);
	assert_true(run(f));
	for (int i = 0; i < 8; i++) {
		uint16_t g;
		memcpy(&g, img_texel(&dh, i % 4, i / 4, 0), 2);
		assert_int_equal(g, hv[i]);
	}

	/* Depth blits: same format, nearest, bytes kept. */
	struct img sd = img_new(f, SWGPU_FORMAT_X8_D24_UNORM, 4, 4, 2, 1,
	                        SWGPU_VA_READ);
	struct img dd = img_new(f, SWGPU_FORMAT_X8_D24_UNORM, 4, 8, 4, 1, RW);
	const int32_t up[6] = { 0, 0, 0, 8, 4, 1 };
	img_random(&sd);
	f->n += swgpu_emit_blit(emit(f), &sd.s, &dd.s, box, up, 0);
	assert_true(run(f));
	for (uint32_t y = 0; y < 4; y++)
		for (uint32_t x = 0; x < 8; x++)
			assert_memory_equal(img_texel(&dd, x, y, 0),
			                    img_texel(&sd, x / 2, y / 2, 0), 3);
}

static void
test_blit_faults(void **state)
{
	struct fixture *f = *state;
	struct img s = img_new(f, SWGPU_FORMAT_R8G8B8A8_UNORM, 4, 8, 8, 1,
	                       SWGPU_VA_READ);
	struct img d = img_new(f, SWGPU_FORMAT_R8G8B8A8_UNORM, 4, 8, 8, 1,
	                       RW);
	struct img ro = img_new(f, SWGPU_FORMAT_R8G8B8A8_UNORM, 4, 8, 8, 1,
	                        SWGPU_VA_READ);
	const int32_t box[6] = { 0, 0, 0, 8, 8, 1 };
	struct swgpu_blit_surface ss, ds;
	static const struct {
		uint32_t sfmt, dfmt;
		bool linear;
	} badfmt[] = {
		{ SWGPU_FORMAT_R8G8B8A8_UNORM, SWGPU_FORMAT_R8G8B8A8_UINT, 0 },
		{ SWGPU_FORMAT_R8G8B8A8_SINT, SWGPU_FORMAT_R8G8B8A8_UINT, 0 },
		{ SWGPU_FORMAT_R8G8B8A8_UINT, SWGPU_FORMAT_R8G8B8A8_UINT, 1 },
		{ SWGPU_FORMAT_D16_UNORM, SWGPU_FORMAT_R16_UNORM, 0 },
		{ SWGPU_FORMAT_D16_UNORM, SWGPU_FORMAT_D16_UNORM, 1 },
		{ SWGPU_FORMAT_X8_D24_UNORM, SWGPU_FORMAT_D32_SFLOAT, 0 },
		{ 0, SWGPU_FORMAT_R8G8B8A8_UNORM, 0 },
		{ SWGPU_FORMAT_R8G8B8A8_UNORM, 12345, 0 },
	};

	for (size_t i = 0; i < sizeof(badfmt) / sizeof(badfmt[0]); i++) {
		ss = s.s;
		ds = d.s;
		ss.format = badfmt[i].sfmt;
		ds.format = badfmt[i].dfmt;
		f->n += swgpu_emit_blit(emit(f), &ss, &ds, box, box,
		                        badfmt[i].linear ? SWGPU_BLIT_LINEAR
		                                         : 0);
		assert_false(run(f));
		expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	}
	/* dst region outside the dst extent; zero or absurd extent. */
	const int32_t out[6] = { 0, 0, 0, 9, 8, 1 };
	const int32_t neg[6] = { -1, 0, 0, 8, 8, 1 };
	f->n += swgpu_emit_blit(emit(f), &s.s, &d.s, box, out, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	f->n += swgpu_emit_blit(emit(f), &s.s, &d.s, box, neg, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	ss = s.s;
	ss.depth = 0;
	f->n += swgpu_emit_blit(emit(f), &ss, &d.s, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	ss.depth = SWGPU_IMAGE_MAX_EXTENT + 1;
	f->n += swgpu_emit_blit(emit(f), &ss, &d.s, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	/* Row pitch too small for the extent. */
	ss = s.s;
	ss.row_pitch = 16;
	f->n += swgpu_emit_blit(emit(f), &ss, &d.s, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	/* src extent one row past the mapping end. */
	ss = s.s;
	ss.va = s.buf.va + s.buf.size - 7 * ss.row_pitch - 32 + 1;
	f->n += swgpu_emit_blit(emit(f), &ss, &d.s, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_READ, SWGPU_OP_BLIT);
	/* Read-only dst. */
	f->n += swgpu_emit_blit(emit(f), &s.s, &ro.s, box, box, 0);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_PAGE_WRITE, SWGPU_OP_BLIT);
	/* Unknown flag. */
	f->n += swgpu_emit_blit(emit(f), &s.s, &d.s, box, box, 0x80);
	assert_false(run(f));
	expect_fault(f, SWGPU_FAULT_BAD_PACKET, SWGPU_OP_BLIT);
	assert_true(all_bytes(d.buf.cpu, d.buf.size, PAD));
	/* An empty dst region is a no-op. */
	const int32_t empty[6] = { 3, 0, 0, 3, 8, 1 };
	f->n += swgpu_emit_blit(emit(f), &s.s, &d.s, box, empty, 0);
	assert_true(run(f));
	assert_true(all_bytes(d.buf.cpu, d.buf.size, PAD));
}

int
main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, img_setup, img_teardown)
	const struct CMUnitTest tests[] = {
		T(test_blit_nearest),
		T(test_blit_linear),
		T(test_blit_srgb),
		T(test_blit_3d),
		T(test_blit_convert),
		T(test_blit_faults),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Texel conversions. Formats are described by data (format_table.c), so
 * one decoder and one encoder serve all of them; E5B9G9R9, whose
 * channels share an exponent, is a special case, and the common layouts
 * get specialised loops for the blit (format_decoder/format_encoder).
 */
#include "hw/format/format.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Scalar conversions                                                  */
/* ------------------------------------------------------------------ */

/* Unsigned or signed small float with 5 exponent bits (bias 15) and
 * man_bits mantissa bits: half (10, signed), 11-bit (6), 10-bit (5). */
static double
minifloat_to_double(uint32_t bits, int man_bits, bool has_sign)
{
	uint32_t man = bits & ((1u << man_bits) - 1);
	uint32_t exp = (bits >> man_bits) & 0x1f;
	double s = has_sign && (bits >> (man_bits + 5)) & 1 ? -1.0 : 1.0;

	if (exp == 0x1f)
		return man ? NAN : s * INFINITY;
	if (exp == 0)
		return s * ldexp((double)man, -14 - man_bits);
	return s * ldexp((double)(man | (1u << man_bits)),
	                 (int)exp - 15 - man_bits);
}

/* Round to nearest even, denormals kept, overflow to Inf, NaN stays NaN
 * (quiet). Unsigned formats take negative values (and -0) to 0. */
static uint32_t
double_to_minifloat(double v, int man_bits, bool has_sign)
{
	const uint32_t exp_all = 0x1fu << man_bits;
	uint32_t sign = 0;

	if (isnan(v))
		return exp_all | (1u << (man_bits - 1));
	if (signbit(v)) {
		if (!has_sign)
			return 0;
		sign = 1u << (man_bits + 5);
		v = -v;
	}
	if (isinf(v))
		return sign | exp_all;
	if (v < ldexp(1.0, -14)) {
		/* Denormal range: the unit is 2^(-14 - man_bits); rint
		 * rounding up to 1 << man_bits gives the smallest normal,
		 * whose encoding is that very integer. */
		return sign | (uint32_t)rint(ldexp(v, 14 + man_bits));
	}
	int e;
	(void)frexp(v, &e);         /* v = m * 2^e, m in [0.5, 1) */
	int exp = e - 1;            /* v = 1.f * 2^exp */
	double m = rint(ldexp(v, man_bits - exp));  /* in [2^mb, 2^(mb+1)] */
	if (m >= ldexp(1.0, man_bits + 1)) {
		m = ldexp(1.0, man_bits);
		exp++;
	}
	if (exp + 15 >= 0x1f)
		return sign | exp_all;
	return sign | ((uint32_t)(exp + 15) << man_bits) |
	       ((uint32_t)m - (1u << man_bits));
}

double
format_half_to_double(uint16_t h)
{
	return minifloat_to_double(h, 10, true);
}

uint16_t
format_double_to_half(double v)
{
	return (uint16_t)double_to_minifloat(v, 10, true);
}

/* The spec's sRGB EOTF and its inverse ("sRGB transfer functions"). */
double
format_srgb_to_linear(double c)
{
	if (c <= 0.04045)
		return c / 12.92;
	return pow((c + 0.055) / 1.055, 2.4);
}

double
format_linear_to_srgb(double l)
{
	if (isnan(l) || l <= 0.0)
		return 0.0;
	if (l < 0.0031308)
		return l * 12.92;
	if (l >= 1.0)
		return 1.0;
	return 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

/* n / 255.0 for every 8-bit UNORM code, evaluated by the compiler: a
 * lookup beats the division in the blit's inner loop. */
#define U1(n) (n) / 255.0
#define U4(n) U1(n), U1(n + 1), U1(n + 2), U1(n + 3)
#define U16(n) U4(n), U4(n + 4), U4(n + 8), U4(n + 12)
#define U64(n) U16(n), U16(n + 16), U16(n + 32), U16(n + 48)
static const double unorm8_decode[256] = {
	U64(0), U64(64), U64(128), U64(192)
};

/*
 * 8-bit sRGB through tables: decode is a lookup of the exact transfer
 * function; encode finds the code whose interval [dec(n - 0.5),
 * dec(n + 0.5)) holds the linear value, which is rint(enc(l) * 255)
 * computed without pow() per texel. Built once (pthread_once, called
 * once per decode/encode of an sRGB block).
 */
static double srgb8_decode[256];
static double srgb8_upper[256];         /* linear value of code n + 0.5 */
static pthread_once_t srgb8_once = PTHREAD_ONCE_INIT;

static void
srgb8_init(void)
{
	for (int n = 0; n < 256; n++) {
		srgb8_decode[n] = format_srgb_to_linear(n / 255.0);
		srgb8_upper[n] = format_srgb_to_linear((n + 0.5) / 255.0);
	}
}

static uint64_t
srgb8_encode(double l)
{
	int lo = 0, hi = 255;

	if (!(l > 0.0))
		return 0;
	/* Smallest n with l < upper[n]. */
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (l < srgb8_upper[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return (uint64_t)lo;
}

/* ------------------------------------------------------------------ */
/* Block bit access                                                    */
/* ------------------------------------------------------------------ */

/* Bits [off, off + width) of the little-endian block; width <= 64, and a
 * 64-bit channel is byte aligned. Touches only the bytes the channel
 * covers. */
static uint64_t
get_bits(const uint8_t *blk, uint32_t off, uint32_t width)
{
	uint64_t v = 0;
	uint32_t first = off / 8, shift = off % 8;
	uint32_t n = (shift + width + 7) / 8;

	/* Byte-aligned channels (most formats) load directly. */
	if (shift == 0) {
		switch (width) {
		case 8:
			return blk[first];
		case 16: {
			uint16_t h;
			memcpy(&h, blk + first, 2);
			return h;
		}
		case 32: {
			uint32_t w;
			memcpy(&w, blk + first, 4);
			return w;
		}
		case 64:
			memcpy(&v, blk + first, 8);
			return v;
		}
	}
	for (uint32_t k = 0; k < n; k++)
		v |= (uint64_t)blk[first + k] << (8 * k);
	return (v >> shift) & ((1ull << width) - 1);
}

/* OR value into bits [off, off + width) of a zeroed block. */
static void
put_bits(uint8_t *blk, uint32_t off, uint32_t width, uint64_t value)
{
	uint32_t first = off / 8, shift = off % 8;
	uint32_t n = (shift + width + 7) / 8;

	if (width == 64) {
		memcpy(blk + first, &value, 8);
		return;
	}
	if (shift == 0 && width == 8) {
		blk[first] = (uint8_t)value;
		return;
	}
	value = (value & ((1ull << width) - 1)) << shift;
	for (uint32_t k = 0; k < n; k++)
		blk[first + k] |= (uint8_t)(value >> (8 * k));
}

static int64_t
sign_extend(uint64_t v, uint32_t width)
{
	if (width == 64)
		return (int64_t)v;
	uint64_t m = 1ull << (width - 1);
	return (int64_t)((v ^ m) - m);
}

static double
bits_to_float(uint64_t raw, uint32_t width)
{
	if (width == 16)
		return format_half_to_double((uint16_t)raw);
	if (width == 32) {
		float f;
		uint32_t u = (uint32_t)raw;
		memcpy(&f, &u, 4);
		return f;
	}
	double d;
	memcpy(&d, &raw, 8);
	return d;
}

static uint64_t
float_to_bits(double v, uint32_t width)
{
	if (width == 16)
		return format_double_to_half(v);
	if (width == 32) {
		/* The C conversion rounds to nearest even and keeps
		 * denormals, Inf and NaN. */
		float f = (float)v;
		uint32_t u;
		memcpy(&u, &f, 4);
		return u;
	}
	uint64_t u;
	memcpy(&u, &v, 8);
	return u;
}

/* ------------------------------------------------------------------ */
/* Shared exponent (E5B9G9R9)                                          */
/* ------------------------------------------------------------------ */

enum { SE_N = 9, SE_B = 15, SE_EMAX = 31 };

static void
decode_sharedexp(const uint8_t *src, struct texel *t)
{
	uint32_t w;

	memcpy(&w, src, 4);
	int e = (int)(w >> 27) - SE_B - SE_N;
	t->f[0] = ldexp((double)(w & 0x1ff), e);
	t->f[1] = ldexp((double)((w >> 9) & 0x1ff), e);
	t->f[2] = ldexp((double)((w >> 18) & 0x1ff), e);
	t->f[3] = 1.0;
}

/* The spec's "Shared Exponent" encoding, step by step. */
static void
encode_sharedexp(const struct texel *t, uint8_t *dst)
{
	const double max_v = ldexp((double)((1 << SE_N) - 1) /
	                           (double)(1 << SE_N), SE_EMAX - SE_B);
	double c[3];
	double max_c = 0.0;

	for (int i = 0; i < 3; i++) {
		double v = t->f[i];
		c[i] = isnan(v) || v < 0.0 ? 0.0 : v > max_v ? max_v : v;
		if (c[i] > max_c)
			max_c = c[i];
	}
	/* floor(log2(max_c)), with max_c == 0 clamped by the max(). */
	int fl = -SE_B - 1;
	if (max_c > 0.0) {
		int e;
		(void)frexp(max_c, &e);
		if (e - 1 > fl)
			fl = e - 1;
	}
	int exp_p = fl + 1 + SE_B;
	double max_s = floor(ldexp(max_c, -(exp_p - SE_B - SE_N)) + 0.5);
	int exp_s = max_s == (double)(1 << SE_N) ? exp_p + 1 : exp_p;
	uint32_t w = (uint32_t)exp_s << 27;

	for (int i = 0; i < 3; i++) {
		uint32_t s = (uint32_t)floor(ldexp(c[i],
		                                   -(exp_s - SE_B - SE_N)) + 0.5);
		w |= (s & 0x1ff) << (9 * i);
	}
	memcpy(dst, &w, 4);
}

/* ------------------------------------------------------------------ */
/* Decode / encode                                                     */
/* ------------------------------------------------------------------ */

void
format_decode(const swgpu_format_info *fi, const uint8_t *src,
              struct texel *t)
{
	const bool is_int = fi->numeric == SWGPU_NUMERIC_UINT ||
	                    fi->numeric == SWGPU_NUMERIC_SINT;

	if (fi->numeric == SWGPU_NUMERIC_SHAREDEXP) {
		decode_sharedexp(src, t);
		return;
	}
	if (fi->numeric == SWGPU_NUMERIC_SRGB)
		pthread_once(&srgb8_once, srgb8_init);
	for (int c = 0; c < 4; c++) {
		uint32_t w = fi->bit_width[c];

		if (w == 0) {
			if (is_int)
				t->u[c] = c == 3;
			else
				t->f[c] = c == 3 ? 1.0 : 0.0;
			continue;
		}
		uint64_t raw = get_bits(src, fi->bit_offset[c], w);
		switch (fi->numeric) {
		case SWGPU_NUMERIC_UNORM:
			if (w == 8) {
				t->f[c] = unorm8_decode[raw];
				break;
			}
			t->f[c] = (double)raw / (double)((1ull << w) - 1);
			break;
		case SWGPU_NUMERIC_SRGB:
			if (c < 3 && w == 8) {
				t->f[c] = srgb8_decode[raw];
				break;
			}
			t->f[c] = (double)raw / (double)((1ull << w) - 1);
			if (c < 3)
				t->f[c] = format_srgb_to_linear(t->f[c]);
			break;
		case SWGPU_NUMERIC_SNORM: {
			double v = (double)sign_extend(raw, w) /
			           (double)((1ull << (w - 1)) - 1);
			t->f[c] = v < -1.0 ? -1.0 : v;
			break;
		}
		case SWGPU_NUMERIC_USCALED:
			t->f[c] = (double)raw;
			break;
		case SWGPU_NUMERIC_SSCALED:
			t->f[c] = (double)sign_extend(raw, w);
			break;
		case SWGPU_NUMERIC_UINT:
			t->u[c] = raw;
			break;
		case SWGPU_NUMERIC_SINT:
			t->i[c] = sign_extend(raw, w);
			break;
		case SWGPU_NUMERIC_UFLOAT:
			t->f[c] = minifloat_to_double((uint32_t)raw,
			                              (int)w - 5, false);
			break;
		case SWGPU_NUMERIC_SFLOAT:
			t->f[c] = bits_to_float(raw, w);
			break;
		default:
			t->f[c] = 0.0;
			break;
		}
	}
}

/* Round to nearest, ties to even, for |x| < 2^52: adding 2^52 leaves no
 * fraction bits, so the FPU's default rounding does it (rint() is a
 * library call on baseline x86-64, and this sits in the blit loop). */
static inline double
round_even(double x)
{
	if (x < 0.0)
		return -((-x + 0x1p52) - 0x1p52);
	return (x + 0x1p52) - 0x1p52;
}

static uint64_t
encode_unorm(double v, uint32_t w)
{
	double max = (double)((1ull << w) - 1);

	if (!(v > 0.0))         /* NaN too */
		return 0;
	if (v >= 1.0)
		return (uint64_t)max;
	return (uint64_t)round_even(v * max);
}

static uint64_t
encode_snorm(double v, uint32_t w)
{
	double max = (double)((1ull << (w - 1)) - 1);

	if (isnan(v))
		return 0;
	v = v < -1.0 ? -1.0 : v > 1.0 ? 1.0 : v;
	return (uint64_t)(int64_t)round_even(v * max);
}

/* Round to nearest even into [lo, hi] (scaled formats, <= 32 bits);
 * lo and hi are integers, so clamping first changes nothing. */
static uint64_t
encode_scaled(double v, double lo, double hi)
{
	if (isnan(v))
		return 0;
	v = v < lo ? lo : v > hi ? hi : v;
	return (uint64_t)(int64_t)round_even(v);
}

void
format_encode(const swgpu_format_info *fi, const struct texel *t,
              uint8_t *dst)
{
	uint8_t blk[FORMAT_MAX_BLOCK_BYTES] = { 0 };

	if (fi->numeric == SWGPU_NUMERIC_SHAREDEXP) {
		encode_sharedexp(t, dst);
		return;
	}
	if (fi->numeric == SWGPU_NUMERIC_SRGB)
		pthread_once(&srgb8_once, srgb8_init);
	for (int c = 0; c < 4; c++) {
		uint32_t w = fi->bit_width[c];
		uint64_t raw;

		if (w == 0)
			continue;
		switch (fi->numeric) {
		case SWGPU_NUMERIC_UNORM:
			raw = encode_unorm(t->f[c], w);
			break;
		case SWGPU_NUMERIC_SRGB:
			if (c < 3 && w == 8) {
				raw = srgb8_encode(t->f[c]);
				break;
			}
			raw = encode_unorm(c < 3 ? format_linear_to_srgb(t->f[c])
			                         : t->f[c], w);
			break;
		case SWGPU_NUMERIC_SNORM:
			raw = encode_snorm(t->f[c], w);
			break;
		case SWGPU_NUMERIC_USCALED:
			raw = encode_scaled(t->f[c], 0.0,
			                    (double)((1ull << w) - 1));
			break;
		case SWGPU_NUMERIC_SSCALED:
			raw = encode_scaled(t->f[c],
			                    -(double)(1ull << (w - 1)),
			                    (double)((1ull << (w - 1)) - 1));
			break;
		case SWGPU_NUMERIC_UINT: {
			uint64_t max = w == 64 ? UINT64_MAX
			                       : (1ull << w) - 1;
			raw = t->u[c] > max ? max : t->u[c];
			break;
		}
		case SWGPU_NUMERIC_SINT: {
			int64_t max = w == 64 ? INT64_MAX
			                      : (int64_t)((1ull << (w - 1)) - 1);
			int64_t min = -max - 1;
			int64_t v = t->i[c];
			raw = (uint64_t)(v < min ? min : v > max ? max : v);
			break;
		}
		case SWGPU_NUMERIC_UFLOAT:
			raw = double_to_minifloat(t->f[c], (int)w - 5, false);
			break;
		case SWGPU_NUMERIC_SFLOAT:
			raw = float_to_bits(t->f[c], w);
			break;
		default:
			raw = 0;
			break;
		}
		put_bits(blk, fi->bit_offset[c], w, raw);
	}
	memcpy(dst, blk, fi->block_bytes);
}

/* ------------------------------------------------------------------ */
/* Specialised codecs for the blit loop                                */
/* ------------------------------------------------------------------ */

/* Formats whose every channel is a byte-aligned 8-bit UNORM/sRGB or an
 * aligned 32-bit float get loops without the generic per-channel
 * switch; they compute exactly what format_decode/format_encode do. */
static bool
channels_are(const swgpu_format_info *fi, uint32_t width)
{
	for (int c = 0; c < 4; c++)
		if (fi->bit_width[c] &&
		    (fi->bit_width[c] != width || fi->bit_offset[c] % 8))
			return false;
	return true;
}

static void
decode_unorm8(const swgpu_format_info *fi, const uint8_t *src,
              struct texel *t)
{
	for (int c = 0; c < 4; c++)
		t->f[c] = fi->bit_width[c]
		          ? unorm8_decode[src[fi->bit_offset[c] / 8]]
		          : c == 3 ? 1.0 : 0.0;
}

static void
decode_srgb8(const swgpu_format_info *fi, const uint8_t *src,
             struct texel *t)
{
	pthread_once(&srgb8_once, srgb8_init);
	for (int c = 0; c < 3; c++)
		t->f[c] = fi->bit_width[c]
		          ? srgb8_decode[src[fi->bit_offset[c] / 8]] : 0.0;
	t->f[3] = fi->bit_width[3] ? unorm8_decode[src[fi->bit_offset[3] / 8]]
	                           : 1.0;
}

static void
decode_sfloat32(const swgpu_format_info *fi, const uint8_t *src,
                struct texel *t)
{
	for (int c = 0; c < 4; c++) {
		float f;

		if (!fi->bit_width[c]) {
			t->f[c] = c == 3 ? 1.0 : 0.0;
			continue;
		}
		memcpy(&f, src + fi->bit_offset[c] / 8, 4);
		t->f[c] = f;
	}
}

static void
encode_unorm8(const swgpu_format_info *fi, const struct texel *t,
              uint8_t *dst)
{
	for (int c = 0; c < 4; c++)
		if (fi->bit_width[c])
			dst[fi->bit_offset[c] / 8] =
				(uint8_t)encode_unorm(t->f[c], 8);
}

static void
encode_srgb8(const swgpu_format_info *fi, const struct texel *t,
             uint8_t *dst)
{
	pthread_once(&srgb8_once, srgb8_init);
	for (int c = 0; c < 3; c++)
		if (fi->bit_width[c])
			dst[fi->bit_offset[c] / 8] =
				(uint8_t)srgb8_encode(t->f[c]);
	if (fi->bit_width[3])
		dst[fi->bit_offset[3] / 8] = (uint8_t)encode_unorm(t->f[3], 8);
}

static void
encode_sfloat32(const swgpu_format_info *fi, const struct texel *t,
                uint8_t *dst)
{
	for (int c = 0; c < 4; c++) {
		float f = (float)t->f[c];

		if (fi->bit_width[c])
			memcpy(dst + fi->bit_offset[c] / 8, &f, 4);
	}
}

/* Whole-block formats only: a channel-less byte would otherwise keep
 * stale contents where the generic encoder writes 0. */
static bool
covers_block(const swgpu_format_info *fi)
{
	uint32_t bits = 0;

	for (int c = 0; c < 4; c++)
		bits += fi->bit_width[c];
	return bits == fi->block_bytes * 8;
}

format_decode_fn
format_decoder(const swgpu_format_info *fi)
{
	if (fi->numeric == SWGPU_NUMERIC_UNORM && channels_are(fi, 8))
		return decode_unorm8;
	if (fi->numeric == SWGPU_NUMERIC_SRGB && channels_are(fi, 8))
		return decode_srgb8;
	if (fi->numeric == SWGPU_NUMERIC_SFLOAT && channels_are(fi, 32))
		return decode_sfloat32;
	return format_decode;
}

/* Float tables of the byte-channel decoders (format_byte_tables). */
static float unorm8_f[256], srgb8_f[256], zero_f[256], one_f[256];
static pthread_once_t byte_tables_once = PTHREAD_ONCE_INIT;

static void
byte_tables_init(void)
{
	pthread_once(&srgb8_once, srgb8_init);
	for (uint32_t n = 0; n < 256; n++) {
		unorm8_f[n] = (float)unorm8_decode[n];
		srgb8_f[n] = (float)srgb8_decode[n];
		one_f[n] = 1.0f;
	}
}

bool
format_byte_tables(const swgpu_format_info *fi, const float *tab[4],
                   uint8_t byte[4])
{
	format_decode_fn dec = format_decoder(fi);

	if ((dec != decode_unorm8 && dec != decode_srgb8) ||
	    (fi->caps & SWGPU_FORMAT_CAP_COMPRESSED))
		return false;
	pthread_once(&byte_tables_once, byte_tables_init);
	for (int c = 0; c < 4; c++) {
		byte[c] = fi->bit_width[c] ? (uint8_t)(fi->bit_offset[c] / 8) : 0;
		if (!fi->bit_width[c])
			tab[c] = c == 3 ? one_f : zero_f;
		else
			tab[c] = dec == decode_srgb8 && c < 3 ? srgb8_f : unorm8_f;
	}
	return true;
}

format_encode_fn
format_encoder(const swgpu_format_info *fi)
{
	if (!covers_block(fi))
		return format_encode;
	if (fi->numeric == SWGPU_NUMERIC_UNORM && channels_are(fi, 8))
		return encode_unorm8;
	if (fi->numeric == SWGPU_NUMERIC_SRGB && channels_are(fi, 8))
		return encode_srgb8;
	if (fi->numeric == SWGPU_NUMERIC_SFLOAT && channels_are(fi, 32))
		return encode_sfloat32;
	return format_encode;
}

void
format_clear_value(const swgpu_format_info *fi, const uint32_t v[4],
                   struct texel *t)
{
	for (int c = 0; c < 4; c++) {
		switch (fi->blit_class) {
		case SWGPU_BLIT_CLASS_UINT:
			t->u[c] = v[c];
			break;
		case SWGPU_BLIT_CLASS_STENCIL:
			/* The spec takes the stencil value's low bits. */
			t->u[c] = v[c] & ((1u << fi->bit_width[0]) - 1);
			break;
		case SWGPU_BLIT_CLASS_SINT:
			t->i[c] = (int32_t)v[c];
			break;
		default: {
			float f;
			memcpy(&f, &v[c], 4);
			t->f[c] = f;
			break;
		}
		}
	}
}

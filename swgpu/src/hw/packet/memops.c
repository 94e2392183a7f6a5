/* SPDX-License-Identifier: MIT */
#include "hw/packet/memops.h"

#include <string.h>

/* Sanitizers check ordinary loads and stores, not intrinsics: their
 * builds keep plain memcpy so every byte an engine writes is checked. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MEMOPS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MEMOPS_SANITIZED 1
#endif

#if defined(__x86_64__) && !defined(MEMOPS_SANITIZED)
#include <emmintrin.h>
#define MEMOPS_STREAMING 1
#endif

#ifdef MEMOPS_STREAMING
/* Bytes before dst reaches 16-byte alignment, at most n. */
static size_t
head_bytes(const void *dst, size_t n)
{
	size_t h = (16 - ((uintptr_t)dst & 15)) & 15;

	return h < n ? h : n;
}

static void
stream_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t h = head_bytes(d, n);

	memcpy(d, s, h);
	d += h;
	s += h;
	n -= h;
	for (; n >= 64; n -= 64, d += 64, s += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(s + 0));
		__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
		_mm_stream_si128((__m128i *)(d + 0), a);
		_mm_stream_si128((__m128i *)(d + 16), b);
		_mm_stream_si128((__m128i *)(d + 32), c);
		_mm_stream_si128((__m128i *)(d + 48), e);
	}
	memcpy(d, s, n);
}

static void
stream_fill32(uint8_t *d, size_t n, uint32_t pattern)
{
	size_t h = head_bytes(d, n);
	/* dst is 4-aligned, so the head is whole dwords and the pattern
	 * keeps its phase across it. */
	for (size_t i = 0; i < h; i += 4)
		memcpy(d + i, &pattern, 4);
	d += h;
	n -= h;
	const __m128i v = _mm_set1_epi32((int)pattern);
	for (; n >= 64; n -= 64, d += 64) {
		_mm_stream_si128((__m128i *)(d + 0), v);
		_mm_stream_si128((__m128i *)(d + 16), v);
		_mm_stream_si128((__m128i *)(d + 32), v);
		_mm_stream_si128((__m128i *)(d + 48), v);
	}
	for (size_t i = 0; i < n; i += 4)
		memcpy(d + i, &pattern, 4);
}
#endif

void
memops_copy(void *dst, const void *src, size_t n, bool stream)
{
#ifdef MEMOPS_STREAMING
	if (stream) {
		stream_copy(dst, src, n);
		return;
	}
#else
	(void)stream;
#endif
	memmove(dst, src, n);
}

void
memops_fill32(void *dst, size_t n, uint32_t pattern, bool stream)
{
	uint8_t *d = dst;
	uint8_t b = (uint8_t)pattern;

#ifdef MEMOPS_STREAMING
	if (stream) {
		stream_fill32(d, n, pattern);
		return;
	}
#else
	(void)stream;
#endif
	if (pattern == b * 0x01010101u) {
		memset(d, b, n);
		return;
	}
	/* Seed one small block, then replicate it: memcpy of a cache-hot
	 * block runs at memset speed, and blocks of whole dwords keep the
	 * pattern phase. */
	const size_t seed = n < 4096 ? n : 4096;
	for (size_t off = 0; off < seed; off += 4)
		memcpy(d + off, &pattern, 4);
	for (size_t off = seed; off < n;) {
		size_t k = n - off < seed ? n - off : seed;
		memcpy(d + off, d, k);
		off += k;
	}
}

void
memops_stream_done(void)
{
#ifdef MEMOPS_STREAMING
	_mm_sfence();
#endif
}

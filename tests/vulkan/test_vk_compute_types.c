/* SPDX-License-Identifier: MIT */
/*
 * Shader arithmetic types beyond 32 bits, each only where the device
 * reports it, through the loader with the validation layer on: doubles
 * (shaderFloat64); 8- and 16-bit integers with 8/16-bit storage buffer
 * and push constant access (shaderInt8, shaderInt16,
 * storageBuffer8/16BitAccess, storagePushConstant8/16); half floats
 * (shaderFloat16, rounded to nearest even at each operation); the float
 * controls the device tells (denormals preserved, signed zero/inf/NaN
 * preserved, round to nearest even) on 32- and 64-bit floats. Results against a host model; division and sqrt may
 * be a few ulps off on other devices (Vulkan allows it), the rest is
 * exact. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "types_f64.spv.h"
#include "types_narrow.spv.h"
#include "types_fctl32.spv.h"
#include "types_half.spv.h"
#include "types_fctl64.spv.h"

#define N 256u
#define F64_K 12u

static void
f64_model(double x, double y, double k, uint32_t i, const double *all,
          double *o, uint32_t *w)
{
	o[0] = x + y;
	o[1] = x * y - k;
	o[2] = x / y;
	o[3] = sqrt(fabs(x));
	o[4] = floor(x) + ceil(y);
	o[5] = x - floor(x);
	o[6] = fmin(x, y) - fmax(x, y);
	o[7] = x - y * floor(x / y);
	o[8] = (double)(float)x;
	o[9] = (double)((int32_t)i - 77) + (double)((int64_t)i << 40);
	o[10] = all[(i & ~63u) + 63u - (i & 63u)];
	o[11] = fmin(fmax(x, -10.0), 10.0);
	w[0] = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 |
	       (uint32_t)(x == y) << 2 | (uint32_t)(x != y) << 3 |
	       (uint32_t)(x > y) << 4;
	w[1] = (uint32_t)(int32_t)trunc(x);
	w[2] = (uint32_t)((int64_t)(y * 1024.0) >> 8);
	{
		float f = (float)y;

		memcpy(&w[3], &f, 4);
	}
}

/* Exact, but for division and sqrt a relative 4 ulps. */
static bool
close_enough(uint32_t k, double got, double want)
{
	if (got == want)
		return true;
	if (k != 2 && k != 3 && k != 7)
		return false;
	return fabs(got - want) <= 4 * 2.220446049250313e-16 * fabs(want);
}

struct f64_objs {
	struct vkh_device d;
	struct vkh_buffer b[4];
};

static void
f64_body(struct vkh *h, struct f64_objs *o)
{
	static const double edge[] = {
		0.0, -0.0, 1.0, -1.0, 2.5, -7.25, 0.1, 1e-310, 3e8, -1e9,
		123456.789, 0.5,
	};
	const uint32_t ne = sizeof(edge) / sizeof(edge[0]), n = N;
	double *a, *b, *out, want[F64_K], k = 0.3;
	uint32_t *w, ww[4];
	uint64_t s = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8, 0, &o->b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8, 0, &o->b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8 * F64_K, 0,
	                                &o->b[2]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 16, 0, &o->b[3]));
	a = o->b[0].map;
	b = o->b[1].map;
	out = o->b[2].map;
	w = o->b[3].map;
	for (uint32_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		a[i] = i < ne * ne ? edge[i / ne] :
		       (double)(int64_t)(s >> 30) / 4096.0 - 1e6;
		/* no zero divisor: x / 0 and mod(x, 0) are undefined */
		b[i] = i < ne * ne ? (edge[i % ne] != 0.0 ? edge[i % ne] : 3.0) :
		       (double)(s % 100000) / 7.0 + 0.5;
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, &o->d, types_f64_spv,
	                                sizeof(types_f64_spv), o->b, 4, &k,
	                                sizeof(k), n / 64, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		f64_model(a[i], b[i], k, i, a, want, ww);
		for (uint32_t j = 0; j < F64_K; j++)
			if (!close_enough(j, out[i * F64_K + j], want[j]) &&
			    bad++ < 6)
				fprintf(stderr, "  lane %u op %u: x=%a y=%a "
				        "got %a want %a\n", i, j, a[i], b[i],
				        out[i * F64_K + j], want[j]);
		for (uint32_t j = 0; j < 4; j++)
			if (w[i * 4 + j] != ww[j] && bad++ < 6)
				fprintf(stderr, "  lane %u word %u: x=%a y=%a "
				        "got 0x%x want 0x%x\n", i, j, a[i], b[i],
				        w[i * 4 + j], ww[j]);
	}
	VKH_CHECK_MSG(h, bad == 0, "%u double result(s) wrong", bad);
}

static void
test_float64(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct f64_objs o;

	memset(&o, 0, sizeof(o));
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f2.features.shaderFloat64 || !f2.features.shaderInt64) {
		vkh_skip(h, "shaderFloat64 or shaderInt64 not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderFloat64 = VK_TRUE;
	f2.features.shaderInt64 = VK_TRUE;
	f2.pNext = &f13;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	f64_body(h, &o);
	for (int k = 0; k < 4; k++)
		vkh_buffer_destroy(&o.d, &o.b[k]);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

#define NAR_K 6u

static void
narrow_model(const int8_t *a8, const int16_t *a16, uint32_t i, uint8_t p8,
             int16_t p16, uint32_t *o)
{
	int8_t x = a8[i], y = a8[255 - i];
	int16_t s = a16[i], t = a16[255 - i];
	int8_t yd = y ? y : 3;
	int16_t td = t ? t : 5;

	o[0] = (uint8_t)(x + y) | (uint32_t)(uint8_t)(x * y) << 8 |
	       (uint32_t)(uint16_t)(s * t) << 16;
	o[1] = ((uint32_t)(int8_t)(x / yd) & 0xffffu) |
	       (uint32_t)(int16_t)(s / td) << 16;
	o[2] = (uint32_t)(x >> 2) ^ (uint32_t)(s >> 3) << 9;
	o[3] = (uint32_t)(x < y) | (uint32_t)(s < t) << 1 |
	       (uint32_t)((uint8_t)x < (uint8_t)y) << 2 |
	       (uint32_t)((uint16_t)s < (uint16_t)t) << 3;
	o[4] = (uint32_t)x + (uint32_t)(uint16_t)s * 3u;
	o[5] = p8 + (uint32_t)p16 + (uint32_t)(int8_t)s * 7u;
}

struct narrow_objs {
	struct vkh_device d;
	struct vkh_buffer b[5];
};

static void
narrow_body(struct vkh *h, struct narrow_objs *o)
{
	static const int8_t e8[] = { 0, 1, -1, 127, -128, 2, -2, 64 };
	static const int16_t e16[] = { 0, 1, -1, 32767, -32768, 256, -256,
	                               7 };
	const uint32_t n = N;
	struct { uint8_t p8, pad; int16_t p16; } push = { 201, 0, -999 };
	int8_t *a8;
	int16_t *a16;
	uint32_t *out, want[NAR_K];
	uint8_t *b8;
	uint16_t *v16;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n, 0, &o->b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 2, 0, &o->b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 4 * NAR_K, 0,
	                                &o->b[2]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n, 0, &o->b[3]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 4, 0, &o->b[4]));
	a8 = o->b[0].map;
	a16 = o->b[1].map;
	out = o->b[2].map;
	b8 = o->b[3].map;
	v16 = o->b[4].map;
	for (uint32_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		a8[i] = i < 8 ? e8[i] : (int8_t)s;
		a16[i] = i < 8 ? e16[i] : (int16_t)(s >> 16);
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, &o->d, types_narrow_spv,
	                                sizeof(types_narrow_spv), o->b, 5,
	                                &push, sizeof(push), n / 64, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		narrow_model(a8, a16, i, push.p8, push.p16, want);
		for (uint32_t k = 0; k < NAR_K; k++)
			if (out[i * NAR_K + k] != want[k] && bad++ < 6)
				fprintf(stderr, "  lane %u op %u: x=%d s=%d got "
				        "0x%x want 0x%x\n", i, k, a8[i], a16[i],
				        out[i * NAR_K + k], want[k]);
		if (b8[i] != (uint8_t)((uint8_t)a8[i] + push.p8) ||
		    v16[2 * i] != (uint16_t)a16[i] >> 1 ||
		    v16[2 * i + 1] != (uint16_t)(a16[255 - i] - a16[i]))
			if (bad++ < 6)
				fprintf(stderr, "  lane %u: stores wrong\n", i);
	}
	VKH_CHECK_MSG(h, bad == 0, "%u 8/16-bit result(s) wrong", bad);
}

static void
test_int8_int16(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f11,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct narrow_objs o;

	memset(&o, 0, sizeof(o));
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f2.features.shaderInt16 || !f12.shaderInt8 ||
	    !f12.storageBuffer8BitAccess || !f11.storageBuffer16BitAccess ||
	    !f12.storagePushConstant8 || !f11.storagePushConstant16) {
		vkh_skip(h, "8/16-bit integers or storage not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt16 = VK_TRUE;
	memset(&f11, 0, sizeof(f11));
	f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
	f11.pNext = &f12;
	f11.storageBuffer16BitAccess = VK_TRUE;
	f11.storagePushConstant16 = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.shaderInt8 = VK_TRUE;
	f12.storageBuffer8BitAccess = VK_TRUE;
	f12.storagePushConstant8 = VK_TRUE;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	narrow_body(h, &o);
	for (int k = 0; k < 5; k++)
		vkh_buffer_destroy(&o.d, &o.b[k]);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

/* One float-controls kernel: in[0..4] = denormal, -0.0, +inf, 1.0, half
 * an ulp of 1.0; results in [8..13]. */
static unsigned
fctl_run(struct vkh *h, struct vkh_device *d, bool dbl)
{
	struct vkh_buffer b = { 0 };
	unsigned bad = 0;

	if (vkh_host_buffer(h, d, 16 * 8, 0, &b) != VK_SUCCESS)
		return 1;
	if (dbl) {
		double *v = b.map;

		v[0] = 4.9406564584124654e-324 * 3;  /* denormal */
		v[1] = -0.0;
		v[2] = INFINITY;
		v[3] = 1.0;
		v[4] = 0x1p-53;
	} else {
		float *v = b.map;

		v[0] = 1.4e-45f * 3;
		v[1] = -0.0f;
		v[2] = INFINITY;
		v[3] = 1.0f;
		v[4] = 0x1p-24f;
	}
	if (vkh_compute_run(h, d, dbl ? types_fctl64_spv : types_fctl32_spv,
	                    dbl ? sizeof(types_fctl64_spv) :
	                          sizeof(types_fctl32_spv), &b, 1, NULL, 0,
	                    1, 1, 1) != VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return 1;
	}
	if (dbl) {
		const double *v = b.map;

		bad += v[8] != v[0] || v[9] != 2 * v[0] || v[9] == 0.0;
		bad += v[10] != 0.0 || !signbit(v[10]);
		bad += !isnan(v[11]);
		bad += v[12] != 1.0;
		bad += v[13] != 0.0 || !signbit(v[13]);
	} else {
		const float *v = b.map;

		bad += v[8] != v[0] || v[9] != 2 * v[0] || v[9] == 0.0f;
		bad += v[10] != 0.0f || !signbit(v[10]);
		bad += !isnan(v[11]);
		bad += v[12] != 1.0f;
		bad += v[13] != 0.0f || !signbit(v[13]);
	}
	vkh_buffer_destroy(d, &b);
	return bad;
}

static void
test_float_controls(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Properties p12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &p12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct vkh_device d;
	unsigned bad = 0, ran = 0;
	bool f64;

	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	f64 = f2.features.shaderFloat64 && p12.shaderDenormPreserveFloat64 &&
	      p12.shaderSignedZeroInfNanPreserveFloat64 &&
	      p12.shaderRoundingModeRTEFloat64;
	if (!(p12.shaderDenormPreserveFloat32 &&
	      p12.shaderSignedZeroInfNanPreserveFloat32 &&
	      p12.shaderRoundingModeRTEFloat32)) {
		vkh_skip(h, "32-bit float controls not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderFloat64 = f64;
	f2.pNext = &f13;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	bad += fctl_run(h, &d, false);
	ran++;
	if (f64) {
		bad += fctl_run(h, &d, true);
		ran++;
	}
	vkh_device_destroy(h, &d);
	(void)unused;
	VKH_CHECK_MSG(h, bad == 0, "%u float control result(s) wrong "
	              "(%u kernels)", bad, ran);
}

/* Half <-> float on the host for the model (round to nearest even);
 * finite inputs, results may overflow to infinity. */
static float
half_to_float(uint16_t h)
{
	uint32_t e = (h >> 10) & 31, m = h & 0x3ffu;
	float f = e ? ldexpf(1.0f + (float)m / 1024.0f, (int)e - 15)
	            : ldexpf((float)m, -24);

	return h & 0x8000u ? -f : f;
}

static uint16_t
float_to_half(float f)
{
	uint16_t sign = signbit(f) ? 0x8000u : 0;
	float a = fabsf(f);
	int e;
	uint32_t q, he;

	if (a >= 65520.0f)       /* rounds to infinity */
		return sign | 0x7c00u;
	if (a < 0x1p-14f)
		return sign | (uint16_t)nearbyintf(a * 0x1p24f);
	frexpf(a, &e);
	q = (uint32_t)nearbyintf(a / ldexpf(1.0f, e - 11));
	he = (uint32_t)(e - 1 + 15);
	if (q == 2048) {
		q = 1024;
		he++;
	}
	return (uint16_t)(sign | he << 10 | (q - 1024));
}

struct half_objs {
	struct vkh_device d;
	struct vkh_buffer b[3];
};

static void
half_body(struct vkh *h, struct half_objs *o)
{
	const uint32_t n = N;
	uint16_t *a, *hv;
	uint32_t *out;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 2, 0, &o->b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 16, 0, &o->b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 2, 0, &o->b[2]));
	a = o->b[0].map;
	out = o->b[1].map;
	hv = o->b[2].map;
	for (uint32_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		/* finite, non-zero, |v| in [2^-10, 2^7) */
		a[i] = (uint16_t)((s & 0x8000u) | (((s >> 16) % 17 + 5) << 10) |
		                  ((s >> 32) & 0x3ffu));
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, &o->d, types_half_spv,
	                                sizeof(types_half_spv), o->b, 3, NULL,
	                                0, n / 64, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		float x = half_to_float(a[i]), y = half_to_float(a[255 - i]);
		float hx = x * 0.5f;
		uint32_t want[4], fb;

		memcpy(&fb, &hx, 4);
		want[0] = float_to_half(x + y) |
		          (uint32_t)float_to_half(x * y) << 16;
		want[1] = float_to_half(x / y) |
		          (uint32_t)float_to_half(x - y) << 16;
		want[2] = fb;
		want[3] = (uint32_t)(int32_t)x ^ (uint32_t)(x < y) << 31;
		for (uint32_t k = 0; k < 4; k++)
			if (out[i * 4 + k] != want[k] && bad++ < 6)
				fprintf(stderr, "  lane %u op %u: x=%04x y=%04x "
				        "got 0x%x want 0x%x\n", i, k, a[i],
				        a[255 - i], out[i * 4 + k], want[k]);
		if (hv[i] != float_to_half(y * 3.0f) && bad++ < 6)
			fprintf(stderr, "  lane %u: half store 0x%x want "
			        "0x%x\n", i, hv[i], float_to_half(y * 3.0f));
	}
	VKH_CHECK_MSG(h, bad == 0, "%u half result(s) wrong", bad);
}

static void
test_float16(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f11,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct half_objs o;

	memset(&o, 0, sizeof(o));
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f12.shaderFloat16 || !f2.features.shaderInt16 ||
	    !f11.storageBuffer16BitAccess) {
		vkh_skip(h, "shaderFloat16/Int16 or 16-bit storage not "
		         "reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt16 = VK_TRUE;
	memset(&f11, 0, sizeof(f11));
	f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
	f11.pNext = &f12;
	f11.storageBuffer16BitAccess = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.shaderFloat16 = VK_TRUE;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	half_body(h, &o);
	for (int k = 0; k < 3; k++)
		vkh_buffer_destroy(&o.d, &o.b[k]);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

static const struct vkh_test tests[] = {
	/* These make their own devices with the features they test. */
	{ "float64", test_float64, 1, VK_QUEUE_COMPUTE_BIT },
	{ "int8_int16", test_int8_int16, 1, VK_QUEUE_COMPUTE_BIT },
	{ "float_controls", test_float_controls, 1, VK_QUEUE_COMPUTE_BIT },
	{ "float16", test_float16, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_types", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

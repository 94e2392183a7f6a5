/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: control flow, functions, composites and access chains
 * on diverging lanes; workgroup shared memory and barriers. Every result
 * is recomputed on the host. Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <string.h>

#include "flow_ctrl.spv.h"
#include "flow_shared.spv.h"

#define LANES 512u

struct item {
	uint32_t key;
	uint32_t vals[3];
	uint32_t pos[2];
};

static uint32_t
rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static uint32_t
gcd(uint32_t x, uint32_t y)
{
	while (y) {
		uint32_t t = x % y;
		x = y;
		y = t;
	}
	return x;
}

static uint32_t
classify(uint32_t x)
{
	switch (x % 7) {
	case 0:
		return 10;
	case 1:
	case 2:
		return 20 + x % 3;
	case 5:
		return 50;
	case 6:
		x += 1;
		return 40 + x % 5;
	default:
		return 40 + x % 5;
	}
}

static uint32_t
nested(uint32_t n)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (i == 5)
			continue;
		for (uint32_t j = 0; j < i; j++) {
			if (j * i > 40)
				break;
			s += j ^ i;
		}
		if (s > 500)
			break;
	}
	return s;
}

static uint32_t
dowhile(uint32_t x)
{
	uint32_t n = 0;

	do {
		x /= 3;
		n++;
	} while (x > 0);
	return n;
}

static uint32_t
early(uint32_t x)
{
	if ((x & 3) == 0)
		return 1;
	if ((x & 3) == 1 && x > 100)
		return 2;
	return 3;
}

static void
ctrl_model(uint32_t x, uint32_t y, struct item *it, uint32_t *o)
{
	uint32_t acc = 7, arr[8], v[4] = { x, y, x ^ y, x + y };
	float diag = 0;

	o[0] = gcd(x % 1000 + 1, y % 1000 + 1);
	o[1] = x < y ? x : y;
	o[2] = x > y ? x : y;
	for (uint32_t k = 0; k < x % 17; k++)
		acc = acc * 31 + k;
	o[3] = acc;
	o[4] = classify(x);
	o[5] = nested(x % 20);
	o[6] = dowhile(x);
	o[7] = early(x);
	it->vals[x % 3] += 5;
	{
		uint32_t t = it->pos[0];
		it->pos[0] = it->pos[1];
		it->pos[1] = t;
	}
	o[8] = it->vals[0] + it->vals[1] * 2 + it->vals[2] * 3 +
	       it->pos[0] * 5;
	it->vals[2] += it->key;
	for (int k = 0; k < 8; k++)
		arr[k] = x >> k;
	arr[y % 8] = 12345;
	o[9] = arr[y % 8] + arr[(y + 1) % 8];
	o[10] = v[y % 4];
	v[0] = v[2];
	v[1] = v[3];
	v[3] = 9;
	o[11] = v[0] + v[1] * 3 + v[2] * 5 + v[3] * 7;
	o[12] = 1 + (y % 3) * 3 + x % 3;
	for (uint32_t c = 0; c < 3; c++)
		diag += c == x % 3 ? 10.0f : (float)(1 + 4 * c);
	o[13] = (uint32_t)diag;
	o[14] = (x % 5 < 2) + (x % 9 == 0 ? 100u : 200u);
	o[15] = (x & 1) ? gcd(y, 12) : early(y) + 1000;
}

static void
test_ctrl(struct vkh *h, struct vkh_device *d)
{
	struct vkh_buffer b[3] = { 0 };
	struct item *items, model_items[LANES];
	uint32_t *a, *o, s = 0x600dcafeu, want[16];
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, LANES * 8, 0, &b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, LANES * sizeof(struct item), 0,
	                                &b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, LANES * 16 * 4, 0, &b[2]));
	a = b[0].map;
	items = b[1].map;
	o = b[2].map;
	for (uint32_t i = 0; i < LANES * 2; i++)
		a[i] = i < 64 ? i * 3 : (i & 2) ? rnd(&s) : rnd(&s) % 300;
	for (uint32_t i = 0; i < LANES; i++) {
		items[i] = (struct item){
			rnd(&s) % 1000, { i, i * 2, i * 3 },
			{ rnd(&s) % 50, i }
		};
		model_items[i] = items[i];
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, d, flow_ctrl_spv,
	                                sizeof(flow_ctrl_spv), b, 3, NULL, 0,
	                                LANES / 64, 1, 1));
	for (uint32_t i = 0; i < LANES; i++) {
		ctrl_model(a[2 * i], a[2 * i + 1], &model_items[i], want);
		for (uint32_t k = 0; k < 16; k++)
			if (o[i * 16 + k] != want[k] && bad++ < 8)
				fprintf(stderr, "  lane %u result %u: x=%u y=%u "
				        "got %u want %u\n", i, k, a[2 * i],
				        a[2 * i + 1], o[i * 16 + k], want[k]);
		if (memcmp(&items[i], &model_items[i], sizeof(struct item)) &&
		    bad++ < 8)
			fprintf(stderr, "  lane %u: item written back wrong "
			        "(vals %u %u %u pos %u %u)\n", i,
			        items[i].vals[0], items[i].vals[1],
			        items[i].vals[2], items[i].pos[0],
			        items[i].pos[1]);
	}
	for (uint32_t i = 0; i < 3; i++)
		vkh_buffer_destroy(d, &b[i]);
	VKH_CHECK_MSG(h, bad == 0, "%u control-flow result(s) wrong", bad);
}

static void
test_shared(struct vkh *h, struct vkh_device *d)
{
	const uint32_t groups = LANES / 128;
	struct vkh_buffer b[2] = { 0 };
	uint32_t *a, *o, s = 0x5a5a1234u;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, LANES * 4, 0, &b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, LANES * 3 * 4, 0, &b[1]));
	a = b[0].map;
	o = b[1].map;
	for (uint32_t i = 0; i < LANES; i++)
		a[i] = rnd(&s);
	VKH_CHECK_VK(h, vkh_compute_run(h, d, flow_shared_spv,
	                                sizeof(flow_shared_spv), b, 2, NULL,
	                                0, groups, 1, 1));
	for (uint32_t g = 0; g < groups; g++) {
		const uint32_t *x = a + g * 128;
		uint32_t sum = 0, res[128];
		for (uint32_t l = 0; l < 128; l++)
			sum += x[l] & 0xffff;
		for (uint32_t l = 0; l < 128; l++) {
			uint32_t r = 0;
			if (l % 3 == 0) {
				for (uint32_t k = 0; k < x[l] % 13; k++)
					r += k * l;
			} else if (l % 3 == 1) {
				uint32_t t = x[l];
				while (t > 1)
					t >>= 2;
				r = t + 1000;
			} else {
				r = sum ^ l;
			}
			res[l] = r;
		}
		for (uint32_t l = 0; l < 128; l++) {
			const uint32_t *got = o + (g * 128 + l) * 3;
			uint32_t w[3] = {
				x[127 - l], sum,
				res[(l + 1) % 128] + res[(l + 127) % 128],
			};
			if (memcmp(got, w, 12) && bad++ < 8)
				fprintf(stderr, "  group %u lane %u: got %u %u "
				        "%u want %u %u %u\n", g, l, got[0],
				        got[1], got[2], w[0], w[1], w[2]);
		}
	}
	vkh_buffer_destroy(d, &b[0]);
	vkh_buffer_destroy(d, &b[1]);
	VKH_CHECK_MSG(h, bad == 0, "%u shared-memory result(s) wrong", bad);
}

static const struct vkh_test tests[] = {
	{ "control_flow_functions_composites", test_ctrl, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "shared_memory_barriers", test_shared, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_flow", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

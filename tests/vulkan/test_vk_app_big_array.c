/* SPDX-License-Identifier: MIT */
/*
 * The FFT library of issue 16: its storage buffer is a fixed-size array
 * sized to the data, `vec2 data[1 << 24]` (128 MiB, exactly lavapipe's
 * maxStorageBufferRange), which swgpu refused ("array too large") for
 * any buffer over 4 MiB. The pipeline must be created and run: elements
 * spread over the whole array, the last one included, are written and
 * read back, with a 64 KiB uniform array beside. Runs on swgpu and
 * lavapipe, validation layer on.
 */
#include <stdio.h>
#include <string.h>

#include "vkh_compute.h"

#include "app_big_array.spv.h"

#define ELEMS (1u << 24)
#define INVOCATIONS 4096u

static void
test_big_fixed_array(struct vkh *h, struct vkh_device *d)
{
	const VkDeviceSize size = (VkDeviceSize)ELEMS * 8;
	struct vkh_buffer data = { 0 }, out = { 0 }, table = { 0 };
	struct vkh_pipe p;
	struct vkh_pipe_desc desc = {
		.spv = app_big_array_spv,
		.spv_size = sizeof(app_big_array_spv),
		.set_count = 1,
		.binding_count = { 3 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		             VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER } },
	};

	if (h->props.limits.maxStorageBufferRange < size ||
	    h->props.limits.maxUniformBufferRange < 65536) {
		vkh_skip(h, "maxStorageBufferRange %u < %llu",
		         h->props.limits.maxStorageBufferRange,
		         (unsigned long long)size);
		return;
	}
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, size,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_DEVICE_LOCAL, -1, &data));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, INVOCATIONS * 16, 0, &out));
	VKH_CHECK_VK(h, vkh_buffer_create(h, d, 65536,
	                                  VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &table));
	for (uint32_t i = 0; i < 4096; i++)
		for (uint32_t c = 0; c < 4; c++)
			((float *)table.map)[i * 4 + c] = (float)(i * 4 + c);
	vkh_buffer_flush(h, d, &table);
	/* The pipeline that used to fail to create. */
	VKH_CHECK_VK(h, vkh_pipe_create(d, &desc, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    data.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(d, &p, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    out.buffer, 0, VK_WHOLE_SIZE);
	vkh_pipe_set_buffer(d, &p, 0, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
	                    table.buffer, 0, VK_WHOLE_SIZE);
	VKH_CHECK_VK(h, vkh_dispatch_sync(d, 0, &p, NULL, INVOCATIONS / 64,
	                                  1, 1));
	vkh_buffer_invalidate(h, d, &out);
	unsigned bad = 0;
	for (uint32_t i = 0; i < INVOCATIONS; i++) {
		uint32_t k = i == 0 ? ELEMS - 1 : (i * 40503u) & (ELEMS - 1);
		const float *r = (const float *)out.map + i * 4;
		uint32_t t = (i & 4095u) * 4;

		if ((r[0] != (float)k || r[1] != -(float)i ||
		     r[2] != (float)(t + 2) || r[3] != (float)(t + 3)) &&
		    bad++ < 4)
			fprintf(stderr, "  invocation %u: (%g, %g, %g, %g)\n",
			        i, r[0], r[1], r[2], r[3]);
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &data);
	vkh_buffer_destroy(d, &out);
	vkh_buffer_destroy(d, &table);
	VKH_CHECK_MSG(h, !bad, "%u invocations wrong", bad);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "big_fixed_array", test_big_fixed_array, 1,
		  VK_QUEUE_COMPUTE_BIT },
	};

	return vkh_run_tests(argc, argv, "test_vk_app_big_array", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

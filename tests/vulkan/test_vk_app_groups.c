/* SPDX-License-Identifier: MIT */
/*
 * The peak-throughput tool of issue 16 dispatches 122,880 workgroups in
 * X; swgpu told maxComputeWorkGroupCount 65,535 (the spec's minimum) and
 * lost the device. Here a dispatch of 2^20 workgroups marks one bit per
 * group: in one row when maxComputeWorkGroupCount[0] allows it (swgpu:
 * 2^31 - 1, directly and through vkCmdDispatchIndirect), else as a
 * 1024 x 1024 grid (lavapipe: 65535); every bit set exactly once. And
 * the bad input: a dispatch over the limit is refused when it is
 * recorded (swgpu: vkEndCommandBuffer fails, with a log line; the
 * validation layer reports the VUID), never a lost device.
 */
#include <stdio.h>
#include <string.h>

#include "vkh_compute.h"

#include "app_groups.spv.h"

#define GROUPS (1u << 20)

static unsigned
check_bits(const uint32_t *bits)
{
	unsigned bad = 0;

	for (uint32_t w = 0; w < GROUPS / 32; w++)
		if (bits[w] != UINT32_MAX && bad++ < 4)
			fprintf(stderr, "  groups %u..%u: 0x%08x\n", w * 32,
			        w * 32 + 31, bits[w]);
	return bad;
}

static void
test_million_groups(struct vkh *h, struct vkh_device *d)
{
	const uint32_t max_x = h->props.limits.maxComputeWorkGroupCount[0];
	const bool row = max_x >= GROUPS;
	struct vkh_buffer bits = { 0 }, args = { 0 };
	struct vkh_pipe p;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, GROUPS / 8, 0, &bits));
	VKH_CHECK_VK(h, vkh_pipe_create_simple(d, app_groups_spv,
	                                       sizeof(app_groups_spv), 1, 0,
	                                       NULL, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    bits.buffer, 0, VK_WHOLE_SIZE);
	memset(bits.map, 0, GROUPS / 8);
	vkh_buffer_flush(h, d, &bits);
	printf("  maxComputeWorkGroupCount[0] = %u: %s\n", max_x,
	       row ? "2^20 x 1 x 1" : "1024 x 1024 x 1");
	{
		/* a million groups: a generous bound (sanitizer builds,
		 * reference drivers under them) */
		VkCommandBuffer cb = vkh_cmd_begin(d, 0);

		VKH_CHECK(h, cb != VK_NULL_HANDLE);
		vkh_pipe_bind(cb, &p, 0, NULL, NULL);
		vkCmdDispatch(cb, row ? GROUPS : 1024, row ? 1 : 1024, 1);
		vkh_cmd_compute_host_barrier(cb);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait_ns(d, 0, cb,
		                                       12 * VKH_TIMEOUT_NS));
	}
	vkh_buffer_invalidate(h, d, &bits);
	unsigned bad = check_bits(bits.map);
	VKH_CHECK_MSG(h, !bad, "%u words of the bitmap wrong", bad);

	if (row) {
		/* The same through the indirect path, whose counts the
		 * engine reads when the dispatch runs. */
		const uint32_t cmd[3] = { GROUPS, 1, 1 };

		VKH_CHECK_VK(h, vkh_host_buffer(
			h, d, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
			&args));
		memcpy(args.map, cmd, sizeof(cmd));
		vkh_buffer_flush(h, d, &args);
		memset(bits.map, 0, GROUPS / 8);
		vkh_buffer_flush(h, d, &bits);
		VkCommandBuffer cb = vkh_cmd_begin(d, 0);
		VKH_CHECK(h, cb != VK_NULL_HANDLE);
		vkh_pipe_bind(cb, &p, 0, NULL, NULL);
		vkCmdDispatchIndirect(cb, args.buffer, 0);
		vkh_cmd_compute_host_barrier(cb);
		VKH_CHECK_VK(h, vkh_cmd_submit_wait_ns(d, 0, cb,
		                                       4 * VKH_TIMEOUT_NS));
		vkh_buffer_invalidate(h, d, &bits);
		bad = check_bits(bits.map);
		vkh_buffer_destroy(d, &args);
		VKH_CHECK_MSG(h, !bad, "indirect: %u words wrong", bad);
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &bits);
}

/* Over maxComputeWorkGroupCount: invalid usage swgpu detects when it is
 * recorded (the command buffer fails to end, with a log line) rather
 * than a lost device. Other drivers promise nothing: swgpu only. */
static void
test_over_the_limit(struct vkh *h, struct vkh_device *d)
{
	const uint32_t max_x = h->props.limits.maxComputeWorkGroupCount[0];
	struct vkh_buffer bits = { 0 };
	struct vkh_pipe p;

	if (!h->is_swgpu || max_x == UINT32_MAX) {
		vkh_skip(h, "swgpu's record-time check");
		return;
	}
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, 4096, 0, &bits));
	VKH_CHECK_VK(h, vkh_pipe_create_simple(d, app_groups_spv,
	                                       sizeof(app_groups_spv), 1, 0,
	                                       NULL, &p));
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    bits.buffer, 0, VK_WHOLE_SIZE);
	vkh_expect_message("VUID-vkCmdDispatch-groupCountX-00386");
	VkCommandBuffer cb = vkh_cmd_begin(d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkh_pipe_bind(cb, &p, 0, NULL, NULL);
	vkCmdDispatch(cb, max_x + 1, 1, 1);
	VkResult r = vkEndCommandBuffer(cb);
	vkh_expect_clear();
	vkFreeCommandBuffers(d->device, d->queues[0].pool, 1, &cb);
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &bits);
	VKH_CHECK_MSG(h, r != VK_SUCCESS, "vkEndCommandBuffer accepted a "
	              "dispatch of %u groups in X", max_x + 1);
	/* the layer saw it too (sanitizer builds run without it) */
	VKH_CHECK(h, !h->validation || vkh_expected_errors >= 1);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "million_groups", test_million_groups, 1,
		  VK_QUEUE_COMPUTE_BIT },
		{ "over_the_limit", test_over_the_limit, 1,
		  VK_QUEUE_COMPUTE_BIT },
	};

	return vkh_run_tests(argc, argv, "test_vk_app_groups", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

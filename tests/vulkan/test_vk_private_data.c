/* SPDX-License-Identifier: MIT */
/*
 * Private data (core 1.3): values per (object, slot), independent slots,
 * and no value surviving its object or its slot — a new object, even at
 * the same handle value, reads 0.
 */
#include "vk_harness.h"

static VkPrivateDataSlot
make_slot(struct vkh *h, struct vkh_device *d)
{
	VkPrivateDataSlotCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO,
	};
	VkPrivateDataSlot slot = VK_NULL_HANDLE;
	VkResult r = vkCreatePrivateDataSlot(d->device, &ci, NULL, &slot);

	if (r != VK_SUCCESS)
		vkh_fail(h, __FILE__, __LINE__, "vkCreatePrivateDataSlot = %s",
		         vkh_result_str(r));
	return slot;
}

static VkBuffer
make_buffer(struct vkh *h, struct vkh_device *d)
{
	VkBufferCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = 256,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
	};
	VkBuffer b = VK_NULL_HANDLE;
	VkResult r = vkCreateBuffer(d->device, &ci, NULL, &b);

	if (r != VK_SUCCESS)
		vkh_fail(h, __FILE__, __LINE__, "vkCreateBuffer = %s",
		         vkh_result_str(r));
	return b;
}

static uint64_t
get(struct vkh_device *d, VkObjectType type, uint64_t obj,
    VkPrivateDataSlot slot)
{
	uint64_t v = 0xdeadbeef;

	vkGetPrivateData(d->device, type, obj, slot, &v);
	return v;
}

static void
test_set_get(struct vkh *h, struct vkh_device *d)
{
	if (!h->private_data) {
		vkh_skip(h, "privateData not supported");
		return;
	}
	VkPrivateDataSlot s1 = make_slot(h, d), s2 = make_slot(h, d);
	VkBuffer b = make_buffer(h, d);
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence f = VK_NULL_HANDLE;

	VKH_CHECK_VK(h, vkCreateFence(d->device, &fci, NULL, &f));
	/* Never set: 0. */
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b, s1) == 0);
	VKH_CHECK_VK(h, vkSetPrivateData(d->device, VK_OBJECT_TYPE_BUFFER,
	                                 (uint64_t)b, s1, 0x1111));
	VKH_CHECK_VK(h, vkSetPrivateData(d->device, VK_OBJECT_TYPE_BUFFER,
	                                 (uint64_t)b, s2, 0x2222));
	VKH_CHECK_VK(h, vkSetPrivateData(d->device, VK_OBJECT_TYPE_FENCE,
	                                 (uint64_t)f, s1, 0x3333));
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b, s1) == 0x1111);
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b, s2) == 0x2222);
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_FENCE, (uint64_t)f, s1) == 0x3333);
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_FENCE, (uint64_t)f, s2) == 0);
	/* Overwrite. */
	VKH_CHECK_VK(h, vkSetPrivateData(d->device, VK_OBJECT_TYPE_BUFFER,
	                                 (uint64_t)b, s1, 0x4444));
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b, s1) == 0x4444);
	/* The device itself carries data too. */
	VKH_CHECK_VK(h, vkSetPrivateData(d->device, VK_OBJECT_TYPE_DEVICE,
	                                 (uint64_t)(uintptr_t)d->device, s2,
	                                 0x5555));
	VKH_CHECK(h, get(d, VK_OBJECT_TYPE_DEVICE,
	                 (uint64_t)(uintptr_t)d->device, s2) == 0x5555);
	vkDestroyFence(d->device, f, NULL);
	vkDestroyBuffer(d->device, b, NULL);
	vkDestroyPrivateDataSlot(d->device, s1, NULL);
	vkDestroyPrivateDataSlot(d->device, s2, NULL);
}

/* A value dies with its object: buffers created after one is destroyed
 * (allocators reuse the address, so some get the same handle) read 0. */
static void
test_object_lifetime(struct vkh *h, struct vkh_device *d)
{
	if (!h->private_data) {
		vkh_skip(h, "privateData not supported");
		return;
	}
	VkPrivateDataSlot s = make_slot(h, d);
	unsigned reused = 0;

	for (unsigned i = 0; i < 32; i++) {
		VkBuffer b = make_buffer(h, d);
		uint64_t old = (uint64_t)b;

		VKH_CHECK_VK(h, vkSetPrivateData(d->device,
		                                 VK_OBJECT_TYPE_BUFFER, old, s,
		                                 0x1000 + i));
		vkDestroyBuffer(d->device, b, NULL);
		b = make_buffer(h, d);
		reused += (uint64_t)b == old;
		VKH_CHECK_MSG(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b,
		                     s) == 0,
		              "round %u: a new buffer reads an old value", i);
		vkDestroyBuffer(d->device, b, NULL);
	}
	printf("    %u of 32 new buffers reused the old handle\n", reused);
	vkDestroyPrivateDataSlot(d->device, s, NULL);
}

/* A value dies with its slot. */
static void
test_slot_lifetime(struct vkh *h, struct vkh_device *d)
{
	if (!h->private_data) {
		vkh_skip(h, "privateData not supported");
		return;
	}
	VkBuffer b = make_buffer(h, d);

	for (unsigned i = 0; i < 16; i++) {
		VkPrivateDataSlot s = make_slot(h, d);

		VKH_CHECK_MSG(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b,
		                     s) == 0,
		              "round %u: a new slot reads an old value", i);
		VKH_CHECK_VK(h, vkSetPrivateData(d->device,
		                                 VK_OBJECT_TYPE_BUFFER,
		                                 (uint64_t)b, s, 0x77 + i));
		VKH_CHECK(h, get(d, VK_OBJECT_TYPE_BUFFER, (uint64_t)b, s) ==
		             0x77 + i);
		vkDestroyPrivateDataSlot(d->device, s, NULL);
	}
	vkDestroyBuffer(d->device, b, NULL);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "set_get", test_set_get, 1, 0 },
		{ "object_lifetime", test_object_lifetime, 1, 0 },
		{ "slot_lifetime", test_slot_lifetime, 1, 0 },
	};

	return vkh_run_tests(argc, argv, "test_vk_private_data", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

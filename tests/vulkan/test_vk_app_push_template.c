/* SPDX-License-Identifier: MIT */
/*
 * An application written against Vulkan 1.0 + extensions, like the
 * compute framework of issue 16 that crashed in its first dispatch: it
 * records with vkCmdPushDescriptorSetWithTemplateKHR, which it loads only
 * when the device lists VK_KHR_descriptor_update_template. Here: a 1.0
 * instance (VK_KHR_get_physical_device_properties2), a 1.0 device with
 * VK_KHR_push_descriptor and VK_KHR_descriptor_update_template, every
 * command loaded by its extension name, a dispatch whose two buffers are
 * pushed through a template, results checked; commands of an extension
 * not enabled are NULL. Runs on swgpu and lavapipe, validation layer on.
 * (The finer rule — the template push needs Vulkan 1.1 or
 * VK_KHR_descriptor_update_template besides VK_KHR_push_descriptor — is
 * checked on the ICD itself in test_icd_loader_iface.c: the validation
 * layer answers for it on its own.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_harness.h"

#include "app_push_scale.spv.h"

#define N 4096u

static bool
device_lists(struct vkh *h, const char *name)
{
	VkExtensionProperties e[512];
	uint32_t n = 512;

	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, e);
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(e[i].extensionName, name))
			return true;
	return false;
}

static int
compute_family(const struct vkh *h)
{
	for (uint32_t f = 0; f < h->family_count; f++)
		if (h->families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)
			return (int)f;
	return -1;
}

/* A Vulkan 1.0 device with these extensions and one compute queue. */
static VkResult
make_device(struct vkh *h, int family, const char *const *exts,
            uint32_t n, struct vkh_device *d)
{
	const float prio = 1.0f;
	VkDeviceQueueCreateInfo q = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = (uint32_t)family,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkDeviceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &q,
		.enabledExtensionCount = n,
		.ppEnabledExtensionNames = exts,
	};
	VkCommandPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
		.queueFamilyIndex = (uint32_t)family,
	};
	VkResult r;

	memset(d, 0, sizeof(*d));
	r = vkCreateDevice(h->phys, &ci, NULL, &d->device);
	if (r != VK_SUCCESS)
		return r;
	d->queue_count = d->distinct_queues = d->distinct_families = 1;
	d->queues[0].family = (uint32_t)family;
	d->queues[0].flags = h->families[family].queueFlags;
	vkGetDeviceQueue(d->device, (uint32_t)family, 0, &d->queues[0].queue);
	return vkCreateCommandPool(d->device, &pci, NULL, &d->queues[0].pool);
}

static void
drop_device(struct vkh_device *d)
{
	if (d->queues[0].pool)
		vkDestroyCommandPool(d->device, d->queues[0].pool, NULL);
	vkDestroyDevice(d->device, NULL);
	memset(d, 0, sizeof(*d));
}

#define LOAD(d, name) ((PFN_##name)vkGetDeviceProcAddr((d), #name))

static void
test_push_template_dispatch(struct vkh *h, struct vkh_device *unused)
{
	static const char *const exts[] = {
		VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME,
		VK_KHR_DESCRIPTOR_UPDATE_TEMPLATE_EXTENSION_NAME,
	};
	const int fam = compute_family(h);
	struct vkh_device d;
	struct vkh_buffer in = { 0 }, out = { 0 };

	(void)unused;
	if (fam < 0 || !device_lists(h, exts[0])) {
		vkh_skip(h, "no compute queue or no VK_KHR_push_descriptor");
		return;
	}
	/* What the framework checks before it uses templates: without
	 * this name it cannot know the command exists (the crash). */
	VKH_CHECK_MSG(h, device_lists(h, exts[1]), "the device offers push "
	              "descriptors but does not list %s", exts[1]);
	VKH_CHECK_VK(h, make_device(h, fam, exts, 2, &d));

	PFN_vkCreateDescriptorUpdateTemplateKHR create_template =
		LOAD(d.device, vkCreateDescriptorUpdateTemplateKHR);
	PFN_vkDestroyDescriptorUpdateTemplateKHR destroy_template =
		LOAD(d.device, vkDestroyDescriptorUpdateTemplateKHR);
	PFN_vkCmdPushDescriptorSetWithTemplateKHR push_template =
		LOAD(d.device, vkCmdPushDescriptorSetWithTemplateKHR);
	PFN_vkCmdPushDescriptorSetKHR push =
		LOAD(d.device, vkCmdPushDescriptorSetKHR);
	PFN_vkUpdateDescriptorSetWithTemplateKHR update_template =
		LOAD(d.device, vkUpdateDescriptorSetWithTemplateKHR);
	VKH_CHECK(h, create_template && destroy_template && push_template &&
	             push && update_template);
	/* Commands of extensions this device did not enable: NULL, as the
	 * spec and the loader say (never a pointer into the void). */
	VKH_CHECK(h, !vkGetDeviceProcAddr(d.device,
	                                  "vkGetCalibratedTimestampsEXT"));
	VKH_CHECK(h, !vkGetDeviceProcAddr(d.device,
	                                  "vkGetMemoryHostPointerPropertiesEXT"));
	VKH_CHECK(h, !vkGetDeviceProcAddr(d.device, "vkNotACommandKHR"));

	VKH_CHECK_VK(h, vkh_buffer_create(h, &d, N * 4,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_UPLOAD, -1, &in));
	VKH_CHECK_VK(h, vkh_buffer_create(h, &d, N * 4,
	                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
	                                  VKH_MEM_READBACK, -1, &out));
	for (uint32_t i = 0; i < N; i++)
		((uint32_t *)in.map)[i] = i ^ 0x5a5au;

	const VkDescriptorSetLayoutBinding b[2] = {
		{ 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
	};
	const VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
		.bindingCount = 2,
		.pBindings = b,
	};
	VkDescriptorSetLayout sl;
	VKH_CHECK_VK(h, vkCreateDescriptorSetLayout(d.device, &lci, NULL,
	                                            &sl));
	const VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &sl,
	};
	VkPipelineLayout pl;
	VKH_CHECK_VK(h, vkCreatePipelineLayout(d.device, &plci, NULL, &pl));
	const VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = sizeof(app_push_scale_spv),
		.pCode = app_push_scale_spv,
	};
	VkShaderModule sm;
	VKH_CHECK_VK(h, vkCreateShaderModule(d.device, &smci, NULL, &sm));
	const VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = sm,
			.pName = "main",
		},
		.layout = pl,
	};
	VkPipeline pipe;
	VKH_CHECK_VK(h, vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1,
	                                         &cpci, NULL, &pipe));

	/* The framework's template: two buffer infos, packed in its own
	 * struct. */
	struct { VkDescriptorBufferInfo src, dst; } data = {
		{ in.buffer, 0, VK_WHOLE_SIZE },
		{ out.buffer, 0, VK_WHOLE_SIZE },
	};
	const VkDescriptorUpdateTemplateEntry ent[2] = {
		{ 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0,
		  sizeof(VkDescriptorBufferInfo) },
		{ 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		  sizeof(VkDescriptorBufferInfo),
		  sizeof(VkDescriptorBufferInfo) },
	};
	const VkDescriptorUpdateTemplateCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
		.descriptorUpdateEntryCount = 2,
		.pDescriptorUpdateEntries = ent,
		.templateType =
			VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE,
		.pipelineLayout = pl,
		.set = 0,
	};
	VkDescriptorUpdateTemplate tpl;
	VKH_CHECK_VK(h, create_template(d.device, &tci, NULL, &tpl));

	VkCommandBuffer cb = vkh_cmd_begin(&d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	push_template(cb, tpl, pl, 0, &data);
	vkCmdDispatch(cb, N / 64, 1, 1);
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
	                     0, NULL);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(&d, 0, cb));
	vkh_buffer_invalidate(h, &d, &out);
	unsigned bad = 0;
	for (uint32_t i = 0; i < N; i++)
		if (((uint32_t *)out.map)[i] != (i ^ 0x5a5au) * 3u + 1u &&
		    bad++ < 4)
			fprintf(stderr, "  out[%u] = %u\n", i,
			        ((uint32_t *)out.map)[i]);
	VKH_CHECK_MSG(h, !bad, "%u results wrong", bad);

	destroy_template(d.device, tpl, NULL);
	vkDestroyPipeline(d.device, pipe, NULL);
	vkDestroyShaderModule(d.device, sm, NULL);
	vkDestroyPipelineLayout(d.device, pl, NULL);
	vkDestroyDescriptorSetLayout(d.device, sl, NULL);
	vkh_buffer_destroy(&d, &in);
	vkh_buffer_destroy(&d, &out);
	drop_device(&d);
}

int
main(int argc, char **argv)
{
	static const char *const inst_exts[] = {
		VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME,
	};
	static const struct vkh_test tests[] = {
		{ "push_template_dispatch", test_push_template_dispatch, 0, 0 },
	};

	vkh_configure_instance(VK_API_VERSION_1_0, inst_exts, 1);
	return vkh_run_tests(argc, argv, "test_vk_app_push_template", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

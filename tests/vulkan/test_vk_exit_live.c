/* SPDX-License-Identifier: MIT */
/*
 * An application that exits (exit(), a return from main) with its
 * devices alive, pipelines still compiling in the background and
 * dispatches in flight must exit cleanly: LLVM's static objects are
 * destroyed by exit handlers while our compile thread may still be
 * compiling (jit.h, jit_exit_guard). Each child process creates
 * PIPELINES compute pipelines (each its own program), submits a dispatch
 * of each and calls exit(0) at once (after a first dispatch whose
 * results it checks, so that a driver doing nothing fails); the parent
 * requires every child to
 * end with status 0 (a crash is a signal, an LLVM fatal error an abort)
 * within a bound. Before the exit handler 1 to 3 children in 8 aborted
 * in LLVM (a double free in the pass registry, "unknown pass name",
 * "Do not know how to split"). lavapipe, run the same way by hand
 * (VK_DRIVER_FILES=lvp_icd.x86_64.json), crashed in 3 of 80 children
 * (segfaults in its own compile threads): not a reference for this one.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vulkan/vulkan.h>

#include "exit_live.spv.h"

#define CHILDREN 16
#define PIPELINES 24
#define CHILD_TIMEOUT_S 120

#define CHECK(x)                                                         \
	do {                                                             \
		VkResult r_ = (x);                                       \
		if (r_ != VK_SUCCESS) {                                  \
			fprintf(stderr, "%s: %d\n", #x, (int)r_);        \
			exit(3);                                         \
		}                                                        \
	} while (0)

static uint32_t
compute_family(VkPhysicalDevice pd)
{
	VkQueueFamilyProperties qp[16];
	uint32_t n = 16;

	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qp);
	for (uint32_t i = 0; i < n; i++)
		if (qp[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
			return i;
	exit(77);
}

static uint32_t
host_visible_type(VkPhysicalDevice pd, uint32_t bits)
{
	const VkMemoryPropertyFlags want =
		VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
		VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	VkPhysicalDeviceMemoryProperties mp;

	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (mp.memoryTypes[i].propertyFlags & want) == want)
			return i;
	exit(3);
}

/* exit_live.comp's v[i] for K, from v[i] = 0. */
static uint32_t
expected(uint32_t k)
{
	uint32_t x = k;

	for (uint32_t n = 0; n < k % 7u + 3u; n++) {
		x = x * 1664525u + 1013904223u;
		if ((x & 3u) == 0)
			x ^= x >> 7;
	}
	return x;
}

/* The child: everything created, work queued, then exit(0). */
static void
child(uint32_t seed)
{
	VkApplicationInfo ai = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
	                         .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &ai };
	VkInstance inst;
	VkPhysicalDevice pd;
	uint32_t n = 1;
	float prio = 1.0f;

	CHECK(vkCreateInstance(&ici, NULL, &inst));
	if (vkEnumeratePhysicalDevices(inst, &n, &pd) < 0 || n == 0)
		exit(3);
	uint32_t fam = compute_family(pd);
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = fam, .queueCount = 1,
		.pQueuePriorities = &prio };
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
	VkDevice dev;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));

	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 65536,
		.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
	VkBuffer buf;
	VkMemoryRequirements mr;
	VkDeviceMemory mem;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &buf));
	vkGetBufferMemoryRequirements(dev, buf, &mr);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = mr.size,
		.memoryTypeIndex = host_visible_type(pd, mr.memoryTypeBits) };
	CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
	CHECK(vkBindBufferMemory(dev, buf, mem, 0));
	uint32_t *v;
	CHECK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&v));
	memset(v, 0, 65536);

	VkDescriptorSetLayoutBinding b0 = {
		.binding = 0,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.descriptorCount = 1,
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
	VkDescriptorSetLayoutCreateInfo dlci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1, .pBindings = &b0 };
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dlci, NULL, &dsl));
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &dsl };
	VkPipelineLayout layout;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = sizeof(exit_live_spv), .pCode = exit_live_spv };
	VkShaderModule sm;
	CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));

	VkPipeline pipes[PIPELINES];
	for (uint32_t i = 0; i < PIPELINES; i++) {
		uint32_t k = seed * 1000u + i * 13u + 1u;
		VkSpecializationMapEntry me = { 0, 0, 4 };
		VkSpecializationInfo si = { 1, &me, 4, &k };
		VkComputePipelineCreateInfo cpci = {
			.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
			.stage = {
				.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
				.stage = VK_SHADER_STAGE_COMPUTE_BIT,
				.module = sm, .pName = "main",
				.pSpecializationInfo = &si },
			.layout = layout };
		CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci,
		                               NULL, &pipes[i]));
	}

	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
	VkDescriptorPool dp;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetAllocateInfo dsai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = dp, .descriptorSetCount = 1,
		.pSetLayouts = &dsl };
	VkDescriptorSet ds;
	CHECK(vkAllocateDescriptorSets(dev, &dsai, &ds));
	VkDescriptorBufferInfo dbi = { buf, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = ds,
		.descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = &dbi };
	vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);

	VkCommandPoolCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.queueFamilyIndex = fam };
	VkCommandPool cp;
	CHECK(vkCreateCommandPool(dev, &cpci, NULL, &cp));
	VkCommandBufferAllocateInfo cbai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = cp, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1 };
	cbai.commandBufferCount = 2;
	VkCommandBuffer cb[2];
	CHECK(vkAllocateCommandBuffers(dev, &cbai, cb));
	VkCommandBufferBeginInfo cbbi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
	/* cb[0]: the first pipeline alone; cb[1]: every pipeline */
	for (uint32_t c = 0; c < 2; c++) {
		CHECK(vkBeginCommandBuffer(cb[c], &cbbi));
		vkCmdBindDescriptorSets(cb[c], VK_PIPELINE_BIND_POINT_COMPUTE,
		                        layout, 0, 1, &ds, 0, NULL);
		for (uint32_t i = 0; i < (c ? PIPELINES : 1u); i++) {
			vkCmdBindPipeline(cb[c], VK_PIPELINE_BIND_POINT_COMPUTE,
			                  pipes[i]);
			vkCmdDispatch(cb[c], 16, 1, 1);
		}
		CHECK(vkEndCommandBuffer(cb[c]));
	}
	VkQueue q;
	vkGetDeviceQueue(dev, fam, 0, &q);
	VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
	                    .commandBufferCount = 1, .pCommandBuffers = &cb[0] };
	CHECK(vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE));
	CHECK(vkQueueWaitIdle(q));
	const uint32_t want = expected(seed * 1000u + 1u);
	for (uint32_t i = 0; i < 1024; i++)
		if (v[i] != want) {
			fprintf(stderr, "v[%u] = %#x, expected %#x\n", i, v[i],
			        want);
			exit(4);
		}
	si.pCommandBuffers = &cb[1];
	CHECK(vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE));
	exit(0);         /* devices alive, compiles and dispatches running */
}

int
main(void)
{
	pid_t pids[CHILDREN];
	int failed = 0;

	for (uint32_t c = 0; c < CHILDREN; c++) {
		fflush(NULL);
		pids[c] = fork();
		if (pids[c] < 0) {
			perror("fork");
			return 1;
		}
		if (pids[c] == 0)
			child(c + 1);
		/* one child at a time: each owns the machine's cores */
		time_t end = time(NULL) + CHILD_TIMEOUT_S;
		int st = 0;
		pid_t got;

		while ((got = waitpid(pids[c], &st, WNOHANG)) == 0 &&
		       time(NULL) < end)
			usleep(10000);
		if (got == 0) {
			kill(pids[c], SIGKILL);
			waitpid(pids[c], &st, 0);
			fprintf(stderr, "child %u: no exit in %d s\n", c,
			        CHILD_TIMEOUT_S);
			failed++;
		} else if (WIFSIGNALED(st)) {
			fprintf(stderr, "child %u: killed by signal %d (%s)\n",
			        c, WTERMSIG(st), strsignal(WTERMSIG(st)));
			failed++;
		} else if (WEXITSTATUS(st) == 77) {
			printf("no compute queue: skipped\n");
			return 77;
		} else if (WEXITSTATUS(st) != 0) {
			fprintf(stderr, "child %u: exit status %d\n", c,
			        WEXITSTATUS(st));
			failed++;
		}
	}
	printf("%d children exited with live devices, %d failed\n", CHILDREN,
	       failed);
	return failed ? 1 : 0;
}

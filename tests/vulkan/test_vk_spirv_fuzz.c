/* SPDX-License-Identifier: MIT */
/*
 * Mutated SPIR-V through the whole driver (issue 23, "Bad input"): real
 * compute shaders of the test suite, each case mutated by a deterministic
 * generator (bit flips, word swaps, truncation, words replaced by ids
 * near the bound), go through vkCreateShaderModule,
 * vkCreateComputePipelines and, when both succeed, a dispatch of one
 * workgroup with four storage buffers and push constants bound.
 *
 * Nothing may crash (ASan and UBSan builds run it too) or hang; every
 * result must be one the spec allows for the call: module creation
 * SUCCESS or UNKNOWN (a bad header), pipeline creation SUCCESS, UNKNOWN
 * (invalid SPIR-V: the driver's log names the instruction) or
 * OUT_OF_HOST_MEMORY (a limit), with a null pipeline on failure; the
 * dispatch completes or loses the device (a fault of its context: bad
 * address, or a loop the watchdog ends, SWGPU_TIMEOUT_MS in
 * CMakeLists.txt), after which the test makes a new device.
 *
 * Runs without the validation layer, which would rightly stop each
 * invalid module before the driver sees it; on swgpu only (the question
 * is whether our driver survives, lavapipe's answer is not ours).
 * SPIRV_FUZZ_CASES and SPIRV_FUZZ_SEED override the case count and seed
 * for longer runs.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_harness.h"
#include "vkh_compute.h"

#include "alu_int.spv.h"
#include "alu_float.spv.h"
#include "alu_conv.spv.h"
#include "flow_ctrl.spv.h"
#include "flow_shared.spv.h"
#include "types_f64.spv.h"
#include "feat_int64.spv.h"
#include "sg_arith.spv.h"

#define FUZZ_DEFAULT_CASES 2000u
#define FUZZ_DEFAULT_SEED 0x5eed2023u
#define FUZZ_BUFS 4u
#define FUZZ_BUF_BYTES 65536u
#define FUZZ_PUSH_BYTES 128u
#define FUZZ_MAX_WORDS 16384u
#define FUZZ_WAIT_NS (20ull * 1000 * 1000 * 1000)

static const struct {
	const char *name;
	const uint32_t *code;
	size_t size;
} seeds[] = {
#define SEED(n) { #n, n##_spv, sizeof(n##_spv) }
	SEED(alu_int), SEED(alu_float), SEED(alu_conv), SEED(flow_ctrl),
	SEED(flow_shared), SEED(types_f64), SEED(feat_int64), SEED(sg_arith),
#undef SEED
};

/* The objects one device needs: a layout of four storage buffers at
 * set 0 plus push constants, the buffers and their descriptor set. */
struct fuzz_dev {
	struct vkh_device d;
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkDescriptorPool pool;
	VkDescriptorSet set;
	struct vkh_buffer bufs[FUZZ_BUFS];
};

static uint64_t
next_rand(uint64_t *s)
{
	/* xorshift64*: deterministic and the same on every host */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static uint32_t
env_u32(const char *name, uint32_t def)
{
	const char *v = getenv(name);

	return v && *v ? (uint32_t)strtoul(v, NULL, 0) : def;
}

static VkResult
fuzz_dev_create(struct vkh *h, struct fuzz_dev *f)
{
	VkDescriptorSetLayoutBinding b[FUZZ_BUFS];
	VkDescriptorSetLayoutCreateInfo slci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = FUZZ_BUFS,
		.pBindings = b,
	};
	VkPushConstantRange pcr = {
		.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		.size = FUZZ_PUSH_BYTES,
	};
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &f->set_layout,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &pcr,
	};
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                            FUZZ_BUFS };
	VkDescriptorPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &ps,
	};
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorSetCount = 1,
		.pSetLayouts = &f->set_layout,
	};
	VkResult r;

	memset(f, 0, sizeof(*f));
	r = vkh_device_create(h, VK_QUEUE_COMPUTE_BIT, 1, NULL, &f->d);
	if (r != VK_SUCCESS)
		return r;
	for (uint32_t i = 0; i < FUZZ_BUFS; i++)
		b[i] = (VkDescriptorSetLayoutBinding){
			.binding = i,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
		};
	r = vkCreateDescriptorSetLayout(f->d.device, &slci, NULL,
	                                &f->set_layout);
	if (r == VK_SUCCESS)
		r = vkCreatePipelineLayout(f->d.device, &plci, NULL,
		                           &f->layout);
	if (r == VK_SUCCESS)
		r = vkCreateDescriptorPool(f->d.device, &pci, NULL, &f->pool);
	ai.descriptorPool = f->pool;
	if (r == VK_SUCCESS)
		r = vkAllocateDescriptorSets(f->d.device, &ai, &f->set);
	for (uint32_t i = 0; i < FUZZ_BUFS && r == VK_SUCCESS; i++) {
		VkDescriptorBufferInfo bi;
		VkWriteDescriptorSet w = {
			.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
			.dstSet = f->set,
			.dstBinding = i,
			.descriptorCount = 1,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.pBufferInfo = &bi,
		};

		r = vkh_host_buffer(h, &f->d, FUZZ_BUF_BYTES, 0, &f->bufs[i]);
		if (r != VK_SUCCESS)
			break;
		for (uint32_t k = 0; k < FUZZ_BUF_BYTES / 4; k++)
			((uint32_t *)f->bufs[i].map)[k] = vkh_pattern(i, 4 * k);
		vkh_buffer_flush(h, &f->d, &f->bufs[i]);
		bi = (VkDescriptorBufferInfo){ f->bufs[i].buffer, 0,
		                               VK_WHOLE_SIZE };
		vkUpdateDescriptorSets(f->d.device, 1, &w, 0, NULL);
	}
	return r;
}

static void
fuzz_dev_destroy(struct vkh *h, struct fuzz_dev *f)
{
	if (!f->d.device)
		return;
	vkDeviceWaitIdle(f->d.device);   /* a lost device returns at once */
	for (uint32_t i = 0; i < FUZZ_BUFS; i++)
		vkh_buffer_destroy(&f->d, &f->bufs[i]);
	vkDestroyDescriptorPool(f->d.device, f->pool, NULL);
	vkDestroyPipelineLayout(f->d.device, f->layout, NULL);
	vkDestroyDescriptorSetLayout(f->d.device, f->set_layout, NULL);
	vkh_device_destroy(h, &f->d);
}

/* One to three mutations of words[0..*n) (the case's copy). */
static void
mutate(uint64_t *rng, uint32_t *w, uint32_t *n, char *what, size_t len)
{
	/* mostly one mutation: more of the cases get through to a
	 * dispatch */
	uint32_t r = (uint32_t)(next_rand(rng) % 10);
	uint32_t count = r < 7 ? 1 : r < 9 ? 2 : 3;
	size_t at = 0;

	what[0] = 0;
	for (uint32_t m = 0; m < count && *n > 5; m++) {
		uint32_t kind = (uint32_t)(next_rand(rng) % 8);
		/* The header mostly stays: the interesting code is behind
		 * it (1 in 16 mutations may hit it). */
		uint32_t lo = next_rand(rng) % 16 ? 5 : 0;
		uint32_t i = lo + (uint32_t)(next_rand(rng) % (*n - lo));
		uint32_t j = lo + (uint32_t)(next_rand(rng) % (*n - lo));
		uint32_t t;

		switch (kind) {
		case 0: case 1: case 2:        /* flip one bit */
			w[i] ^= 1u << (next_rand(rng) % 32);
			at += (size_t)snprintf(what + at, len - at,
			                       " flip@%u", i);
			break;
		case 3:                        /* swap two words */
			t = w[i];
			w[i] = w[j];
			w[j] = t;
			at += (size_t)snprintf(what + at, len - at,
			                       " swap@%u,%u", i, j);
			break;
		case 4:                        /* truncate */
			*n = 5 + (uint32_t)(next_rand(rng) % (*n - 5));
			at += (size_t)snprintf(what + at, len - at,
			                       " trunc@%u", *n);
			break;
		case 5: case 6:                /* an id near the bound */
			w[i] = w[3] + (uint32_t)(next_rand(rng) % 4) - 2;
			at += (size_t)snprintf(what + at, len - at,
			                       " id@%u", i);
			break;
		default:                       /* a small number */
			w[i] = (uint32_t)(next_rand(rng) % 64);
			at += (size_t)snprintf(what + at, len - at,
			                       " small@%u", i);
			break;
		}
		if (at >= len)
			at = len - 1;
	}
}

struct fuzz_counts {
	uint32_t module_refused, pipeline_refused, pipeline_oom;
	uint32_t dispatched, lost;
};

/* One case; false on a result the spec does not allow or a hang. */
static bool
run_case(struct vkh *h, struct fuzz_dev *f, const uint32_t *w, uint32_t n,
         struct fuzz_counts *c, const char *label)
{
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = (size_t)n * 4,
		.pCode = w,
	};
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.pName = "main",
		},
		.layout = f->layout,
	};
	uint8_t push[FUZZ_PUSH_BYTES] = { 0 };
	VkShaderModule module = VK_NULL_HANDLE;
	VkPipeline pipe = (VkPipeline)(uintptr_t)0x1;   /* must be nulled */
	VkCommandBuffer cb;
	VkResult r;

	r = vkCreateShaderModule(f->d.device, &smci, NULL, &module);
	if (r == VK_ERROR_UNKNOWN) {
		c->module_refused++;
		return true;
	}
	if (r != VK_SUCCESS) {
		fprintf(stderr, "%s: vkCreateShaderModule: %s\n", label,
		        vkh_result_str(r));
		return false;
	}
	cpci.stage.module = module;
	r = vkCreateComputePipelines(f->d.device, VK_NULL_HANDLE, 1, &cpci,
	                             NULL, &pipe);
	vkDestroyShaderModule(f->d.device, module, NULL);
	if (r == VK_ERROR_UNKNOWN || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
		c->pipeline_refused += r == VK_ERROR_UNKNOWN;
		c->pipeline_oom += r == VK_ERROR_OUT_OF_HOST_MEMORY;
		if (pipe != VK_NULL_HANDLE) {
			fprintf(stderr, "%s: failed pipeline creation left a "
			        "non-null handle\n", label);
			return false;
		}
		return true;
	}
	if (r != VK_SUCCESS) {
		fprintf(stderr, "%s: vkCreateComputePipelines: %s\n", label,
		        vkh_result_str(r));
		return false;
	}
	for (uint32_t i = 0; i < sizeof(push); i++)
		push[i] = (uint8_t)(i * 37u);
	cb = vkh_cmd_begin(&f->d, 0);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f->layout,
	                        0, 1, &f->set, 0, NULL);
	vkCmdPushConstants(cb, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
	                   sizeof(push), push);
	vkCmdDispatch(cb, 1, 1, 1);
	r = vkh_cmd_submit_wait_ns(&f->d, 0, cb, FUZZ_WAIT_NS);
	c->dispatched++;
	if (r == VK_TIMEOUT) {
		fprintf(stderr, "%s: the dispatch hangs\n", label);
		return false;   /* the pipeline stays: the device is busy */
	}
	vkDestroyPipeline(f->d.device, pipe, NULL);
	if (r == VK_ERROR_DEVICE_LOST) {
		c->lost++;
		fuzz_dev_destroy(h, f);
		return fuzz_dev_create(h, f) == VK_SUCCESS;
	}
	if (r != VK_SUCCESS) {
		fprintf(stderr, "%s: dispatch: %s\n", label,
		        vkh_result_str(r));
		return false;
	}
	return true;
}

static void
test_mutated_spirv(struct vkh *h, struct vkh_device *unused)
{
	const uint32_t cases = env_u32("SPIRV_FUZZ_CASES",
	                               FUZZ_DEFAULT_CASES);
	uint64_t rng = env_u32("SPIRV_FUZZ_SEED", FUZZ_DEFAULT_SEED);
	static uint32_t w[FUZZ_MAX_WORDS];
	struct fuzz_counts c = { 0 };
	struct fuzz_dev f;
	bool ok = true;

	(void)unused;
	if (!h->is_swgpu) {
		vkh_skip(h, "mutated SPIR-V is run on swgpu only");
		return;
	}
	rng = rng * 0x9e3779b97f4a7c15ull + 1;
	VKH_CHECK(h, fuzz_dev_create(h, &f) == VK_SUCCESS);
	/* The seeds themselves are valid and run. */
	for (uint32_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		struct fuzz_counts sc = { 0 };

		VKH_CHECK(h, seeds[s].size / 4 <= FUZZ_MAX_WORDS);
		memcpy(w, seeds[s].code, seeds[s].size);
		ok = run_case(h, &f, w, (uint32_t)(seeds[s].size / 4), &sc,
		              seeds[s].name);
		VKH_CHECK_MSG(h, ok && sc.dispatched == 1 && !sc.lost,
		              "seed %s does not run", seeds[s].name);
	}
	for (uint32_t k = 0; k < cases && ok; k++) {
		uint32_t s = (uint32_t)(next_rand(&rng) %
		                        (sizeof(seeds) / sizeof(seeds[0])));
		uint32_t n = (uint32_t)(seeds[s].size / 4);
		char what[160], label[224];

		memcpy(w, seeds[s].code, seeds[s].size);
		mutate(&rng, w, &n, what, sizeof(what));
		snprintf(label, sizeof(label), "case %u (%s:%s)", k,
		         seeds[s].name, what);
		ok = run_case(h, &f, w, n, &c, label);
		VKH_CHECK_MSG(h, ok, "%s", label);
	}
	printf("%u cases: %u modules refused, %u pipelines refused, %u over "
	       "a limit, %u dispatched, %u device losses\n", cases,
	       c.module_refused, c.pipeline_refused, c.pipeline_oom,
	       c.dispatched, c.lost);
	fuzz_dev_destroy(h, &f);
}

int
main(int argc, char **argv)
{
	static const struct vkh_test tests[] = {
		{ "mutated_spirv", test_mutated_spirv, 0, 0 },
	};

	return vkh_run_tests(argc, argv, "test_vk_spirv_fuzz", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

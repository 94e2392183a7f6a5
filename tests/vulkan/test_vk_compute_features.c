/* SPDX-License-Identifier: MIT */
/*
 * Compute features beyond the basics, each only where the device reports
 * it: pipeline caches (header, round trip, merge, incompatible data),
 * buffer device addresses in shaders (bufferDeviceAddress), required
 * subgroup sizes and full subgroups (subgroupSizeControl,
 * computeFullSubgroups), 64-bit integers (shaderInt64). Skips (77) without a COMPUTE queue.
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "feat_bda.spv.h"
#include "feat_cache.spv.h"
#include "feat_full_subgroups.spv.h"
#include "feat_int64.spv.h"
#include "feat_zeroinit.spv.h"
#include "feat_std_ubo.spv.h"
#include "feat_wg_explicit.spv.h"
#include "feat_inline_ubo.spv.h"
#include "feat_sg_ext.spv.h"

#define N 256u

/* Run feat_cache.comp built with cache c; check its output. */
static bool
run_cache_kernel(struct vkh *h, struct vkh_device *d, VkPipelineCache c)
{
	struct vkh_pipe_desc desc = {
		.spv = feat_cache_spv,
		.spv_size = sizeof(feat_cache_spv),
		.set_count = 1,
		.binding_count = { 1 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.cache = c,
	};
	struct vkh_pipe p;
	struct vkh_buffer b = { 0 };
	bool ok = true;

	if (vkh_host_buffer(h, d, N * 4, 0, &b) != VK_SUCCESS)
		return false;
	if (vkh_pipe_create(d, &desc, &p) != VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return false;
	}
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    b.buffer, 0, VK_WHOLE_SIZE);
	if (vkh_dispatch_sync(d, 0, &p, NULL, N / 64, 1, 1) != VK_SUCCESS)
		ok = false;
	vkh_buffer_invalidate(h, d, &b);
	for (uint32_t i = 0; ok && i < N; i++)
		ok = ((uint32_t *)b.map)[i] == i * i + 17;
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &b);
	return ok;
}

static void *
cache_data(struct vkh_device *d, VkPipelineCache c, size_t *size)
{
	void *data;

	*size = 0;
	if (vkGetPipelineCacheData(d->device, c, size, NULL) != VK_SUCCESS)
		return NULL;
	data = malloc(*size ? *size : 1);
	if (data && vkGetPipelineCacheData(d->device, c, size, data) !=
	            VK_SUCCESS) {
		free(data);
		return NULL;
	}
	return data;
}

static void
test_cache(struct vkh *h, struct vkh_device *d)
{
	VkPipelineCacheCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
	};
	VkPipelineCache c1, c2, c3, c4;
	VkPipelineCacheHeaderVersionOne hdr;
	uint8_t small[8];
	size_t size, small_size = sizeof(small), merged_size;
	void *data, *merged;

	VKH_CHECK_VK(h, vkCreatePipelineCache(d->device, &ci, NULL, &c1));
	VKH_CHECK(h, run_cache_kernel(h, d, c1));
	data = cache_data(d, c1, &size);
	VKH_CHECK(h, data);
	printf("  cache data: %zu bytes\n", size);
	VKH_CHECK(h, size >= sizeof(hdr));
	memcpy(&hdr, data, sizeof(hdr));
	VKH_CHECK_MSG(h, hdr.headerSize == 16 + VK_UUID_SIZE &&
	              hdr.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
	              hdr.vendorID == h->props.vendorID &&
	              hdr.deviceID == h->props.deviceID &&
	              !memcmp(hdr.pipelineCacheUUID,
	                      h->props.pipelineCacheUUID, VK_UUID_SIZE),
	              "bad header: size %u version %d vendor 0x%x device "
	              "0x%x", hdr.headerSize, hdr.headerVersion,
	              hdr.vendorID, hdr.deviceID);
	/* Too small for the header: nothing written, size 0, INCOMPLETE. */
	VKH_CHECK_RESULT(h, vkGetPipelineCacheData(d->device, c1, &small_size,
	                                           small), VK_INCOMPLETE);
	VKH_CHECK(h, small_size == 0);

	/* Round trip: a cache created from the data works. */
	ci.initialDataSize = size;
	ci.pInitialData = data;
	VKH_CHECK_VK(h, vkCreatePipelineCache(d->device, &ci, NULL, &c2));
	VKH_CHECK(h, run_cache_kernel(h, d, c2));

	/* Data from another "driver" (different cache UUID): accepted as an
	 * empty cache, pipelines still build. */
	((uint8_t *)data)[16] ^= 0xff;
	VKH_CHECK_VK(h, vkCreatePipelineCache(d->device, &ci, NULL, &c3));
	VKH_CHECK(h, run_cache_kernel(h, d, c3));

	/* Merge c1 and c2 into a fresh cache; its data keeps a valid
	 * header. */
	ci.initialDataSize = 0;
	ci.pInitialData = NULL;
	VKH_CHECK_VK(h, vkCreatePipelineCache(d->device, &ci, NULL, &c4));
	{
		VkPipelineCache src[2] = { c1, c2 };
		VKH_CHECK_VK(h, vkMergePipelineCaches(d->device, c4, 2, src));
	}
	merged = cache_data(d, c4, &merged_size);
	VKH_CHECK(h, merged && merged_size >= sizeof(hdr));
	VKH_CHECK(h, !memcmp(merged, &hdr, sizeof(hdr)));
	VKH_CHECK(h, run_cache_kernel(h, d, c4));
	free(merged);
	free(data);
	vkDestroyPipelineCache(d->device, c1, NULL);
	vkDestroyPipelineCache(d->device, c2, NULL);
	vkDestroyPipelineCache(d->device, c3, NULL);
	vkDestroyPipelineCache(d->device, c4, NULL);
}

/* A host-visible buffer with a device address. */
static VkResult
bda_buffer(struct vkh *h, struct vkh_device *d, VkDeviceSize size,
           struct vkh_buffer *b, VkDeviceAddress *addr)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
		         VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
	};
	VkMemoryAllocateFlagsInfo fi = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
		.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = &fi,
	};
	VkBufferDeviceAddressInfo ai = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
	};
	VkMemoryRequirements req;
	VkResult r;

	memset(b, 0, sizeof(*b));
	b->size = size;
	r = vkCreateBuffer(d->device, &bci, NULL, &b->buffer);
	if (r != VK_SUCCESS)
		return r;
	vkGetBufferMemoryRequirements(d->device, b->buffer, &req);
	b->mem_type = vkh_memtype_readback(h, req.memoryTypeBits);
	if (b->mem_type < 0)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	mai.allocationSize = req.size;
	mai.memoryTypeIndex = (uint32_t)b->mem_type;
	r = vkAllocateMemory(d->device, &mai, NULL, &b->memory);
	if (r == VK_SUCCESS)
		r = vkBindBufferMemory(d->device, b->buffer, b->memory, 0);
	if (r == VK_SUCCESS)
		r = vkMapMemory(d->device, b->memory, 0, VK_WHOLE_SIZE, 0,
		                &b->map);
	if (r != VK_SUCCESS)
		return r;
	memset(b->map, 0, size);
	ai.buffer = b->buffer;
	*addr = vkGetBufferDeviceAddress(d->device, &ai);
	return *addr ? VK_SUCCESS : VK_ERROR_UNKNOWN;
}

struct bda_objs {
	struct vkh_device d;
	struct vkh_buffer node, src, dst;
	struct vkh_pipe p;
};

/* The body of test_bda on its own device; checks return early, the
 * caller destroys what was made. */
static void
bda_body(struct vkh *h, struct bda_objs *o)
{
	struct {
		VkDeviceAddress node, dst;
		uint32_t count;
	} push;
	VkDeviceAddress a_node, a_src, a_dst;
	unsigned bad = 0;

	VKH_CHECK_VK(h, bda_buffer(h, &o->d, 64, &o->node, &a_node));
	VKH_CHECK_VK(h, bda_buffer(h, &o->d, N * 4, &o->src, &a_src));
	VKH_CHECK_VK(h, bda_buffer(h, &o->d, N * 4 + 64, &o->dst, &a_dst));
	for (uint32_t i = 0; i < N; i++)
		((uint32_t *)o->src.map)[i] = i * 7 + 1;
	memcpy(o->node.map, &a_src, 8);          /* Node.data */
	((uint32_t *)o->node.map)[2] = 1000;     /* Node.scale */
	vkh_buffer_flush(h, &o->d, &o->node);
	vkh_buffer_flush(h, &o->d, &o->src);
	push.node = a_node;
	push.dst = a_dst + 16; /* an address inside the buffer */
	push.count = N;
	VKH_CHECK_VK(h, vkh_pipe_create_simple(&o->d, feat_bda_spv,
	                                       sizeof(feat_bda_spv), 0, 24,
	                                       NULL, &o->p));
	VKH_CHECK_VK(h, vkh_dispatch_sync(&o->d, 0, &o->p, &push, N / 64, 1,
	                                  1));
	vkh_buffer_invalidate(h, &o->d, &o->dst);
	for (uint32_t i = 0; i < N; i++) {
		uint32_t got = ((uint32_t *)o->dst.map)[4 + i];
		if (got != (i * 7 + 1) * 1000 + i && bad++ < 4)
			fprintf(stderr, "  dst[%u] = %u\n", i, got);
	}
	for (uint32_t i = 0; i < 4; i++)
		bad += ((uint32_t *)o->dst.map)[i] != 0;
	VKH_CHECK_MSG(h, bad == 0, "%u value(s) wrong through device "
	              "addresses", bad);
}

static void
test_bda(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct bda_objs o;

	memset(&o, 0, sizeof(o));
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f12.bufferDeviceAddress) {
		vkh_skip(h, "bufferDeviceAddress not reported");
		return;
	}
	/* Only what this test needs (and LocalSizeId's maintenance4). */
	memset(&f2.features, 0, sizeof(f2.features));
	f12 = (VkPhysicalDeviceVulkan12Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.bufferDeviceAddress = VK_TRUE,
	};
	f13 = (VkPhysicalDeviceVulkan13Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
		.maintenance4 = h->maintenance4,
	};
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	bda_body(h, &o);
	vkh_pipe_destroy(&o.d, &o.p);
	vkh_buffer_destroy(&o.d, &o.node);
	vkh_buffer_destroy(&o.d, &o.src);
	vkh_buffer_destroy(&o.d, &o.dst);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

/* One pipeline with (size ? required size : any) and full subgroups;
 * returns the number of wrong invocations. */
static unsigned
run_full(struct vkh *h, struct vkh_device *d, uint32_t size, uint32_t wg,
         uint32_t max_size)
{
	VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
		.requiredSubgroupSize = size,
	};
	VkSpecializationMapEntry me = { 0, 0, 4 };
	VkSpecializationInfo si = { 1, &me, 4, &wg };
	struct vkh_pipe_desc desc = {
		.spv = feat_full_subgroups_spv,
		.spv_size = sizeof(feat_full_subgroups_spv),
		.set_count = 1,
		.binding_count = { 1 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.spec = &si,
		.stage_flags =
			VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT,
		.stage_next = size ? &rs : NULL,
	};
	const uint32_t groups = 4, n = groups * wg;
	struct vkh_buffer b = { 0 };
	struct vkh_pipe p;
	unsigned bad = 0;

	if (vkh_host_buffer(h, d, n * 16, 0, &b) != VK_SUCCESS)
		return 1;
	if (vkh_pipe_create(d, &desc, &p) != VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return 1;
	}
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    b.buffer, 0, VK_WHOLE_SIZE);
	if (vkh_dispatch_sync(d, 0, &p, NULL, groups, 1, 1) != VK_SUCCESS)
		bad++;
	vkh_buffer_invalidate(h, d, &b);
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *o = (const uint32_t *)b.map + i * 4;
		uint32_t want = size ? size : o[0];
		if ((o[0] != want || o[1] != want || o[0] > max_size ||
		     o[2] >= want) && bad++ < 4)
			fprintf(stderr, "  size %u inv %u: gl_SubgroupSize %u, "
			        "active %u, id %u\n", size, i, o[0], o[1],
			        o[2]);
	}
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &b);
	return bad;
}

static void
test_full_subgroups(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceSubgroupSizeControlProperties sc = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES,
	};
	VkPhysicalDeviceSubgroupProperties sp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
		.pNext = &sc,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &sp,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device d;
	unsigned bad = 0, ran = 0;
	const uint32_t need = VK_SUBGROUP_FEATURE_BASIC_BIT |
	                      VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;

	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	printf("  subgroup sizes %u..%u, required-size stages 0x%x, "
	       "maxComputeWorkgroupSubgroups %u, sizeControl %u, "
	       "fullSubgroups %u\n", sc.minSubgroupSize, sc.maxSubgroupSize,
	       sc.requiredSubgroupSizeStages, sc.maxComputeWorkgroupSubgroups,
	       f13.subgroupSizeControl, f13.computeFullSubgroups);
	if (!f13.computeFullSubgroups ||
	    !(sp.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
	    (sp.supportedOperations & need) != need) {
		vkh_skip(h, "computeFullSubgroups or compute subgroup "
		         "arithmetic not reported");
		return;
	}
	VKH_CHECK(h, sc.minSubgroupSize >= 1 &&
	          sc.minSubgroupSize <= sc.maxSubgroupSize &&
	          sp.subgroupSize >= sc.minSubgroupSize &&
	          sp.subgroupSize <= sc.maxSubgroupSize);
	memset(&f2.features, 0, sizeof(f2.features));
	f13 = (VkPhysicalDeviceVulkan13Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.subgroupSizeControl = f13.subgroupSizeControl,
		.computeFullSubgroups = VK_TRUE,
		.maintenance4 = h->maintenance4,
	};
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	/* Full subgroups at the device's own size: a workgroup of
	 * maxSubgroupSize x 2 is a multiple of every size it may pick. */
	bad += run_full(h, &d, 0, sc.maxSubgroupSize * 2, sc.maxSubgroupSize);
	ran++;
	if (f13.subgroupSizeControl &&
	    (sc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
		for (uint32_t s = sc.minSubgroupSize; s <= sc.maxSubgroupSize;
		     s *= 2) {
			uint32_t wg = s * 2;
			if (wg > h->props.limits.maxComputeWorkGroupInvocations ||
			    2 > sc.maxComputeWorkgroupSubgroups)
				continue;
			printf("  required subgroup size %u\n", s);
			bad += run_full(h, &d, s, wg, sc.maxSubgroupSize);
			ran++;
		}
	}
	vkh_device_destroy(h, &d);
	(void)unused;
	VKH_CHECK_MSG(h, bad == 0, "%u invocation(s) not in a full subgroup "
	              "of the required size (%u pipelines)", bad, ran);
}

#define I64_K 10u

static void
int64_model(uint64_t x, uint64_t y, uint64_t *o)
{
	int64_t sx = (int64_t)x, sy = (int64_t)y;
	uint64_t yd = y ? y : 7;

	o[0] = x + y;
	o[1] = x * y - x;
	o[2] = x >> (y & 63);
	o[3] = (uint64_t)(sx >> (y & 63)); /* gcc: arithmetic shift */
	o[4] = x / yd;
	o[5] = x % yd;
	o[6] = (uint64_t)(sx < sy) | (uint64_t)(x < y) << 1;
	o[7] = (x >> 32) | (x << 32);
	o[8] = (uint64_t)(uint32_t)x * (uint32_t)y;
	o[9] = (uint64_t)(int64_t)(int32_t)(uint32_t)x;
}

struct i64_objs {
	struct vkh_device d;
	struct vkh_buffer b[3];
};

static void
int64_body(struct vkh *h, struct i64_objs *o)
{
	static const uint64_t edge[] = {
		0, 1, 2, 0x8000000000000000ull, 0xffffffffffffffffull,
		0x100000000ull, 0xffffffffull, 0x8000000080000000ull,
		0x7fffffffffffffffull, 63, 64, 0x123456789abcdef0ull,
	};
	const uint32_t ne = sizeof(edge) / sizeof(edge[0]), n = N;
	uint64_t *a, *b, *out, want[I64_K], s = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8, 0, &o->b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8, 0, &o->b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &o->d, n * 8 * I64_K, 0,
	                                &o->b[2]));
	a = o->b[0].map;
	b = o->b[1].map;
	out = o->b[2].map;
	for (uint32_t i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		a[i] = i < ne * ne ? edge[i / ne] : s;
		b[i] = i < ne * ne ? edge[i % ne] : (i & 1) ? s * 31 : s % 97;
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, &o->d, feat_int64_spv,
	                                sizeof(feat_int64_spv), o->b, 3, NULL,
	                                0, n / 64, 1, 1));
	for (uint32_t i = 0; i < n; i++) {
		int64_model(a[i], b[i], want);
		for (uint32_t k = 0; k < I64_K; k++)
			if (out[i * I64_K + k] != want[k] && bad++ < 6)
				fprintf(stderr, "  lane %u op %u: x=0x%llx y=0x%llx "
				        "got 0x%llx want 0x%llx\n", i, k,
				        (unsigned long long)a[i],
				        (unsigned long long)b[i],
				        (unsigned long long)out[i * I64_K + k],
				        (unsigned long long)want[k]);
	}
	VKH_CHECK_MSG(h, bad == 0, "%u 64-bit result(s) wrong", bad);
}

static void
test_int64(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct i64_objs o;

	memset(&o, 0, sizeof(o));
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f2.features.shaderInt64) {
		vkh_skip(h, "shaderInt64 not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt64 = VK_TRUE;
	f2.pNext = &f13;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &o.d));
	int64_body(h, &o);
	for (int k = 0; k < 3; k++)
		vkh_buffer_destroy(&o.d, &o.b[k]);
	vkh_device_destroy(h, &o.d);
	(void)unused;
}

/* shaderZeroInitializeWorkgroupMemory: a null-initialized shared array
 * reads 0 in every workgroup before it is written. */
static void
test_zero_init_workgroup(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device d;
	struct vkh_buffer b;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f13.shaderZeroInitializeWorkgroupMemory) {
		vkh_skip(h, "shaderZeroInitializeWorkgroupMemory not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&f13, 0, sizeof(f13));
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
	f13.maintenance4 = h->maintenance4;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 64 * 16 * 4, 0, &b));
	memset(b.map, 0xff, 64 * 16 * 4);
	VKH_CHECK_VK(h, vkh_compute_run(h, &d, feat_zeroinit_spv,
	                                sizeof(feat_zeroinit_spv), &b, 1, NULL,
	                                0, 16, 1, 1));
	const uint32_t *o = b.map;
	for (uint32_t g = 0; g < 16; g++)
		for (uint32_t i = 0; i < 64; i++)
			VKH_CHECK_MSG(h, o[g * 64 + i] == g, "group %u lane %u: "
			              "0x%x", g, i, o[g * 64 + i]);
	vkh_buffer_destroy(&d, &b);
	vkh_device_destroy(h, &d);
}

/* uniformBufferStandardLayout (a std430 uniform block) and
 * subgroupBroadcastDynamicId (the source lane from the block). */
static void
test_std_ubo_dynamic_broadcast(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	struct vkh_pipe_desc pd = {
		.spv = feat_std_ubo_spv, .spv_size = sizeof(feat_std_ubo_spv),
		.set_count = 1, .binding_count = { 2 },
		.types = { { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
	};
	struct vkh_device d;
	struct vkh_buffer ub, ob;
	struct vkh_pipe p;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f12.uniformBufferStandardLayout ||
	    !f12.subgroupBroadcastDynamicId) {
		vkh_skip(h, "uniformBufferStandardLayout or "
		         "subgroupBroadcastDynamicId not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.uniformBufferStandardLayout = VK_TRUE;
	f12.subgroupBroadcastDynamicId = VK_TRUE;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 64,
	                                VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &ub));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 33 * 4, 0, &ob));
	float *u = ub.map;
	for (int i = 0; i < 8; i++)
		u[i] = (float)(i * 10);      /* a[]: stride 4 */
	u[8] = 1000.0f;                      /* v.x at 32 */
	u[9] = 2000.0f;                      /* v.y at 36 */
	u[10] = 3000.0f;                     /* v.z at 40 */
	u[11] = 500.0f;                      /* w at 44, packed after v */
	((uint32_t *)u)[12] = 3;             /* pick at 48 */
	vkh_buffer_flush(h, &d, &ub);
	VKH_CHECK_VK(h, vkh_pipe_create(&d, &pd, &p));
	vkh_pipe_set_buffer(&d, &p, 0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
	                    ub.buffer, 0, 64);
	vkh_pipe_set_buffer(&d, &p, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    ob.buffer, 0, 33 * 4);
	VKH_CHECK_VK(h, vkh_dispatch_sync(&d, 0, &p, NULL, 1, 1, 1));
	vkh_buffer_invalidate(h, &d, &ob);
	const float *o = ob.map;
	uint32_t sg = (uint32_t)o[32];
	VKH_CHECK_MSG(h, sg >= 4 && sg <= 32 && !(sg & (sg - 1)),
	              "subgroup size %u", sg);
	for (uint32_t i = 0; i < 32; i++) {
		uint32_t src = (i & ~(sg - 1)) + 3;
		float want = (float)((src & 7) * 10) + 2000.0f + 500.0f +
		             (float)i;
		VKH_CHECK_MSG(h, o[i] == want, "lane %u: %f, want %f", i, o[i],
		              want);
	}
	vkh_pipe_destroy(&d, &p);
	vkh_buffer_destroy(&d, &ub);
	vkh_buffer_destroy(&d, &ob);
	vkh_device_destroy(h, &d);
}

/* VK_KHR_workgroup_memory_explicit_layout: Block Workgroup variables
 * alias, in an explicit layout, with 8/16/64-bit accesses. */
static void
test_wg_explicit_layout(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR wf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = &wf,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	const char *ext = VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME;
	VkExtensionProperties props[256];
	uint32_t n = 256;
	bool have = false;
	struct vkh_device d;
	struct vkh_buffer b;

	(void)unused;
	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, props);
	for (uint32_t i = 0; i < n; i++)
		have |= !strcmp(props[i].extensionName, ext);
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!have || !wf.workgroupMemoryExplicitLayout ||
	    !wf.workgroupMemoryExplicitLayout8BitAccess ||
	    !wf.workgroupMemoryExplicitLayout16BitAccess ||
	    !f2.features.shaderInt64 || !f12.shaderInt8 ||
	    !f2.features.shaderInt16) {
		vkh_skip(h, "%s with 8/16-bit access (and Int8/16/64) not "
		         "offered", ext);
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt64 = VK_TRUE;
	f2.features.shaderInt16 = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.shaderInt8 = VK_TRUE;
	f12.pNext = &wf;
	wf.pNext = &f13;
	wf.workgroupMemoryExplicitLayoutScalarBlockLayout = VK_FALSE;
	VKH_CHECK_VK(h, vkh_device_create_features_ext(
		h, VK_QUEUE_COMPUTE_BIT, &f2, &ext, 1, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 32 * 4, 0, &b));
	memset(b.map, 0xff, 32 * 4);
	VKH_CHECK_VK(h, vkh_compute_run(h, &d, feat_wg_explicit_spv,
	                                sizeof(feat_wg_explicit_spv), &b, 1,
	                                NULL, 0, 3, 1, 1));
	const uint32_t *o = b.map;
	for (uint32_t i = 0; i < 8; i++) {
		uint32_t w = 0x04030201u * (i + 1);
		VKH_CHECK_MSG(h, o[i] == ((w >> 8) & 0xff), "byte %u", i);
		VKH_CHECK_MSG(h, o[8 + i] == w >> 16, "half %u", i);
	}
	VKH_CHECK(h, o[16] == 0xabcdef01u && o[17] == 0 && o[18] == 0);
	VKH_CHECK(h, o[19] == 0xee030201u);
	vkh_buffer_destroy(&d, &b);
	vkh_device_destroy(h, &d);
}

/* inlineUniformBlock: 32 bytes written into the set in two pieces
 * (VkWriteDescriptorSetInlineUniformBlock at byte offsets 0 and 16),
 * one of them copied from another set, read by a shader as a uniform
 * block. */
static void
test_inline_uniform_block(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	struct vkh_device d;
	struct vkh_buffer out;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	if (!f13.inlineUniformBlock) {
		vkh_skip(h, "inlineUniformBlock not reported");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	memset(&f13, 0, sizeof(f13));
	f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
	f13.inlineUniformBlock = VK_TRUE;
	f13.maintenance4 = h->maintenance4;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 64, 0, &out));
	memset(out.map, 0, 64);
	vkh_buffer_flush(h, &d, &out);

	VkDescriptorSetLayoutBinding lb[2] = {
		{ 0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
		{ 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
		  VK_SHADER_STAGE_COMPUTE_BIT, NULL },
	};
	VkDescriptorSetLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 2, .pBindings = lb,
	};
	VkDescriptorSetLayout sl;
	VKH_CHECK_VK(h, vkCreateDescriptorSetLayout(d.device, &lci, NULL, &sl));
	VkPipelineLayoutCreateInfo plci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = &sl,
	};
	VkPipelineLayout pl;
	VKH_CHECK_VK(h, vkCreatePipelineLayout(d.device, &plci, NULL, &pl));
	VkShaderModuleCreateInfo smci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = sizeof(feat_inline_ubo_spv),
		.pCode = feat_inline_ubo_spv,
	};
	VkShaderModule sm;
	VKH_CHECK_VK(h, vkCreateShaderModule(d.device, &smci, NULL, &sm));
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		           .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm,
		           .pName = "main" },
		.layout = pl,
	};
	VkPipeline pipe;
	VKH_CHECK_VK(h, vkCreateComputePipelines(d.device, VK_NULL_HANDLE, 1,
	                                         &cpci, NULL, &pipe));
	VkDescriptorPoolSize ps[2] = {
		{ VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64 },
		{ VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 },
	};
	VkDescriptorPoolInlineUniformBlockCreateInfo pib = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
		.maxInlineUniformBlockBindings = 2,
	};
	VkDescriptorPoolCreateInfo pci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.pNext = &pib, .maxSets = 2, .poolSizeCount = 2,
		.pPoolSizes = ps,
	};
	VkDescriptorPool pool;
	VKH_CHECK_VK(h, vkCreateDescriptorPool(d.device, &pci, NULL, &pool));
	VkDescriptorSetLayout sls[2] = { sl, sl };
	VkDescriptorSetAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = pool, .descriptorSetCount = 2,
		.pSetLayouts = sls,
	};
	VkDescriptorSet set[2];
	VKH_CHECK_VK(h, vkAllocateDescriptorSets(d.device, &ai, set));
	const uint32_t lo[4] = { 11, 22, 33, 44 }, hi[4] = { 55, 66, 77, 88 };
	VkWriteDescriptorSetInlineUniformBlock ib[2] = {
		{ VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
		  NULL, 16, lo },
		{ VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
		  NULL, 16, hi },
	};
	VkDescriptorBufferInfo bi = { out.buffer, 0, 64 };
	VkWriteDescriptorSet w[3] = {
		{ VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &ib[0], set[0], 0, 0,
		  16, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, NULL, NULL,
		  NULL },
		/* the upper half goes to the other set, then is copied */
		{ VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &ib[1], set[1], 0, 16,
		  16, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, NULL, NULL,
		  NULL },
		{ VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set[0], 1, 0, 1,
		  VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi, NULL },
	};
	VkCopyDescriptorSet cp = {
		VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, NULL, set[1], 0, 16,
		set[0], 0, 16, 16,
	};
	vkUpdateDescriptorSets(d.device, 3, w, 1, &cp);

	VkCommandBuffer cb = vkh_cmd_begin(&d, 0);
	VKH_CHECK(h, cb != VK_NULL_HANDLE);
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1,
	                        &set[0], 0, NULL);
	vkCmdDispatch(cb, 1, 1, 1);
	vkh_cmd_compute_host_barrier(cb);
	VKH_CHECK_VK(h, vkh_cmd_submit_wait(&d, 0, cb));
	vkh_buffer_invalidate(h, &d, &out);
	const uint32_t *o = out.map;
	for (uint32_t i = 0; i < 8; i++)
		VKH_CHECK_MSG(h, o[i] == (i < 4 ? lo[i] : hi[i - 4]),
		              "word %u = %u", i, o[i]);
	vkDestroyDescriptorPool(d.device, pool, NULL);
	vkDestroyPipeline(d.device, pipe, NULL);
	vkDestroyShaderModule(d.device, sm, NULL);
	vkDestroyPipelineLayout(d.device, pl, NULL);
	vkDestroyDescriptorSetLayout(d.device, sl, NULL);
	vkh_buffer_destroy(&d, &out);
	vkh_device_destroy(h, &d);
}

/* shaderSubgroupExtendedTypes: subgroup reductions, scans and
 * broadcasts of uint8, int16, uint64 and float16 values, checked per
 * subgroup (of whatever size the device runs). */
static void
test_subgroup_extended_types(struct vkh *h, struct vkh_device *unused)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = h->maintenance4,
	};
	VkPhysicalDeviceSubgroupProperties sp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &sp,
	};
	struct vkh_device d;
	struct vkh_buffer b;

	(void)unused;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	if (!f12.shaderSubgroupExtendedTypes || !f12.shaderInt8 ||
	    !f12.shaderFloat16 || !f2.features.shaderInt16 ||
	    !f2.features.shaderInt64 ||
	    !(sp.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
	    (sp.supportedOperations & (VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
	                               VK_SUBGROUP_FEATURE_BALLOT_BIT)) !=
	    (VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
	     VK_SUBGROUP_FEATURE_BALLOT_BIT)) {
		vkh_skip(h, "shaderSubgroupExtendedTypes with Int8/16/64, "
		         "Float16 and arithmetic/ballot subgroups not offered");
		return;
	}
	memset(&f2.features, 0, sizeof(f2.features));
	f2.features.shaderInt16 = VK_TRUE;
	f2.features.shaderInt64 = VK_TRUE;
	memset(&f12, 0, sizeof(f12));
	f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
	f12.pNext = &f13;
	f12.shaderInt8 = VK_TRUE;
	f12.shaderFloat16 = VK_TRUE;
	f12.shaderSubgroupExtendedTypes = VK_TRUE;
	VKH_CHECK_VK(h, vkh_device_create_features(h, VK_QUEUE_COMPUTE_BIT,
	                                           &f2, &d));
	VKH_CHECK_VK(h, vkh_host_buffer(h, &d, 32 * 11 * 4, 0, &b));
	memset(b.map, 0xff, 32 * 11 * 4);
	VKH_CHECK_VK(h, vkh_compute_run(h, &d, feat_sg_ext_spv,
	                                sizeof(feat_sg_ext_spv), &b, 1, NULL,
	                                0, 1, 1, 1));
	const uint32_t *o = b.map;
	uint32_t sg = o[8];
	int32_t exmax = -32768, exmin = 127;
	VKH_CHECK_MSG(h, sg >= 4 && sg <= 32 && !(sg & (sg - 1)),
	              "subgroup size %u", sg);
	for (uint32_t l = 0; l < 32; l++) {
		uint32_t lane = l % sg, add8 = 0, add64lo = 0, add64hi = 0;
		int32_t mn = 1 << 20, mx = -(1 << 20), inc = 0;
		uint32_t half2 = 0;

		for (uint32_t k = 0; k < sg; k++) {
			int32_t bk = (int32_t)k * 1000 - 16000;
			uint64_t ck = (uint64_t)k << 33 | k;

			add8 += (k * 37 + 200) & 0xff;
			mn = bk < mn ? bk : mn;
			mx = bk > mx ? bk : mx;
			add64lo += (uint32_t)ck;
			add64hi += (uint32_t)(ck >> 32);
			half2 += k;
			if (k <= lane)
				inc += bk;
		}
		const uint32_t *w = o + l * 11;
		VKH_CHECK_MSG(h, w[0] == (add8 & 0xff), "lane %u add8 %u", l,
		              w[0]);
		VKH_CHECK(h, w[1] == (uint32_t)(mn + 65536));
		VKH_CHECK(h, w[2] == (uint32_t)(mx + 65536));
		VKH_CHECK_MSG(h, w[3] == add64lo && w[4] == add64hi,
		              "lane %u add64 %08x%08x", l, w[4], w[3]);
		VKH_CHECK_MSG(h, w[5] == half2, "lane %u addf16 x2 %u", l,
		              w[5]);
		VKH_CHECK(h, w[6] == ((3 * 37 + 200) & 0xff));
		VKH_CHECK_MSG(h, w[7] == ((uint32_t)inc & 0xffff),
		              "lane %u inclusive add16 %u", l, w[7]);
		/* over the lanes below (none: INT16_MIN, INT8_MAX) */
		if (lane == 0) {
			exmax = -32768;
			exmin = 127;
		}
		VKH_CHECK_MSG(h, w[9] == (uint32_t)(exmax + 65536) &&
		              w[10] == (uint32_t)(exmin + 256), "lane %u "
		              "exclusive max16 %d min8 %d, want %d %d", l,
		              (int)w[9] - 65536, (int)w[10] - 256, exmax,
		              exmin);
		exmax = (int32_t)lane * 1000 - 16000 > exmax ?
		        (int32_t)lane * 1000 - 16000 : exmax;
		exmin = (int32_t)lane - 100 < exmin ? (int32_t)lane - 100
		                                     : exmin;
	}
	vkh_buffer_destroy(&d, &b);
	vkh_device_destroy(h, &d);
}

static const struct vkh_test tests[] = {
	{ "pipeline_cache", test_cache, 1, VK_QUEUE_COMPUTE_BIT },
	/* These make their own devices with the features they test (the
	 * runner's device, which does not enable them, stays unused). */
	{ "buffer_device_address", test_bda, 1, VK_QUEUE_COMPUTE_BIT },
	{ "full_subgroups_required_size", test_full_subgroups, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "int64", test_int64, 1, VK_QUEUE_COMPUTE_BIT },
	{ "zero_init_workgroup_memory", test_zero_init_workgroup, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "std430_ubo_dynamic_broadcast", test_std_ubo_dynamic_broadcast, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "workgroup_memory_explicit_layout", test_wg_explicit_layout, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "inline_uniform_block", test_inline_uniform_block, 1,
	  VK_QUEUE_COMPUTE_BIT },
	{ "subgroup_extended_types", test_subgroup_extended_types, 1,
	  VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_features", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

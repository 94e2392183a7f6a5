/* SPDX-License-Identifier: MIT */
/*
 * test_icd_instance: the instance / physical device / device / memory /
 * buffer / image half of the ICD, through the real loader.
 *
 *  1. with the validation layer on (any error or warning fails): physical
 *     device enumeration, properties, features and their pNext chains,
 *     limits, memory types, queue families, two VkDevices with all queues,
 *     memory map/write/read, buffers and images with their memory
 *     requirements, binding and linear subresource layout;
 *  2. without layers: error paths the validation layer would flag (bad
 *     sizes, unmappable memory, unsupported features and extensions);
 *  3. allocation-callback failure injection: a counting allocator fails
 *     the Nth allocation, N = 0, 1, 2, ... until the call succeeds; every
 *     failed call must return VK_ERROR_OUT_OF_HOST_MEMORY and free
 *     everything it allocated.
 *
 * Checks that hold for any driver run everywhere (ctest also runs the test
 * on lavapipe to validate the test itself); swgpu's exact memory types,
 * queue families and features are checked only when the device is swgpu.
 */
#include "test_icd_instance.h"

/* ------------------------------------------------------------------ */
/* 1. Properties, features, limits, memory types, queue families       */
/* ------------------------------------------------------------------ */

static void
test_properties(VkPhysicalDevice pd, bool swgpu)
{
	VkPhysicalDeviceProperties p;
	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
	};
	VkPhysicalDeviceVulkan12Properties p12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
		.pNext = &drv,
	};
	VkPhysicalDeviceIDProperties id = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES,
		.pNext = &p12,
	};
	VkPhysicalDeviceVulkan11Properties p11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES,
		.pNext = &id,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &p11,
	};
	const VkPhysicalDeviceLimits *l = &p.limits;

	vkGetPhysicalDeviceProperties(pd, &p);
	vkGetPhysicalDeviceProperties2(pd, &p2);
	CHECK(!memcmp(&p, &p2.properties, sizeof(p)));
	CHECK(VK_API_VERSION_MINOR(p.apiVersion) >= 3);
	CHECK(l->timestampPeriod > 0.0f);
	CHECK(is_pow2(l->nonCoherentAtomSize) && l->nonCoherentAtomSize <= 256);
	CHECK(is_pow2(l->bufferImageGranularity) &&
	      l->bufferImageGranularity <= 131072);
	CHECK(l->maxMemoryAllocationCount >= 4096);
	CHECK(l->minMemoryMapAlignment >= 64);
	CHECK(l->maxImageDimension2D >= 4096);
	CHECK(l->discreteQueuePriorities >= 2);
	/* The individual structs agree with the aggregates. */
	CHECK(!memcmp(id.deviceUUID, p11.deviceUUID, VK_UUID_SIZE));
	CHECK(!memcmp(id.driverUUID, p11.driverUUID, VK_UUID_SIZE));
	CHECK(drv.driverID == p12.driverID);
	CHECK(!strcmp(drv.driverName, p12.driverName));
	CHECK(p11.maxMemoryAllocationSize >= (1u << 30));

	if (!swgpu)
		return;
	CHECK(p.vendorID == SWGPU_VENDOR_ID);
	CHECK(p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU);
	CHECK(!strncmp(p.deviceName, "swgpu (", 7));
	CHECK(!strcmp(drv.driverName, "swgpu"));
	/* A value VkDriverId defines (tools print it by name): the
	 * software stand-in icd.h explains, with swgpu's own name, info
	 * and vendor; no conformance claimed. */
	CHECK(drv.driverID == VK_DRIVER_ID_GOOGLE_SWIFTSHADER);
	CHECK(!strncmp(drv.driverInfo, "swgpu ", 6));
	CHECK(drv.conformanceVersion.major == 0);
	/* Family 0 is COMPUTE and every queue writes timestamps. */
	CHECK(l->timestampComputeAndGraphics == VK_TRUE);
	CHECK(l->timestampPeriod == 1.0f);
	CHECK(!id.deviceLUIDValid);
}

static void
test_features(VkPhysicalDevice pd, bool swgpu)
{
	VkPhysicalDeviceTimelineSemaphoreFeatures tl = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
	};
	VkPhysicalDeviceSynchronization2Features s2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
		.pNext = &tl,
	};
	VkPhysicalDeviceHostQueryResetFeatures hqr = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
		.pNext = &s2,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &hqr,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = &f13,
	};
	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f11,
	};
	VkPhysicalDeviceFeatures f;

	/* Poison the outputs: the driver must write every member. */
	memset(&f, 0xff, sizeof(f));
	vkGetPhysicalDeviceFeatures(pd, &f);
	vkGetPhysicalDeviceFeatures2(pd, &f2);
	CHECK(!memcmp(&f, &f2.features, sizeof(f)));
	CHECK(f2.pNext == &f11 && f11.pNext == &f12 && f12.pNext == &f13);
	CHECK(tl.timelineSemaphore == f12.timelineSemaphore);
	CHECK(hqr.hostQueryReset == f12.hostQueryReset);
	CHECK(s2.synchronization2 == f13.synchronization2);
	CHECK(f.robustBufferAccess == VK_TRUE);

	if (!swgpu)
		return;
	CHECK(f12.timelineSemaphore && f12.hostQueryReset &&
	      f13.synchronization2);
	/* No geometry shaders, sparse, anisotropy (yet); multiview only
	 * with a graphics engine (the engine draws the views), and never
	 * with the stages that do not exist. */
	CHECK(!f.geometryShader && !f.sparseBinding &&
	      !f.samplerAnisotropy && !f.tessellationShader);
	CHECK(!f11.samplerYcbcrConversion && !f11.protectedMemory);
	CHECK(!f11.multiviewGeometryShader &&
	      !f11.multiviewTessellationShader);
	CHECK(!f12.descriptorIndexing &&
	      !f12.bufferDeviceAddressCaptureReplay);
	/* Exactly what the shader engine executes: buffer device
	 * addresses (PhysicalStorageBufferAddresses) and robust storage
	 * images; dynamic rendering and the other graphics features
	 * exactly when the device has a graphics engine. */
	CHECK(f12.bufferDeviceAddress);
	CHECK(f13.robustImageAccess);
	const bool gfx = has_graphics_engine(pd);
	CHECK(f13.dynamicRendering == gfx);
	CHECK(f11.multiview == gfx);
	CHECK(f12.imagelessFramebuffer == gfx && f.independentBlend == gfx &&
	      f.fullDrawIndexUint32 == gfx && f.multiDrawIndirect == gfx);
}

static void
test_memory_types(VkPhysicalDevice pd, bool swgpu)
{
	const VkMemoryPropertyFlags DL = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
		HV = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
		HC = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
		CA = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
	VkPhysicalDeviceMemoryProperties m;
	VkPhysicalDeviceMemoryProperties2 m2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
	};
	bool has_hv_hc = false, has_dl_heap = false;

	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	vkGetPhysicalDeviceMemoryProperties2(pd, &m2);
	CHECK(m.memoryTypeCount == m2.memoryProperties.memoryTypeCount &&
	      m.memoryHeapCount == m2.memoryProperties.memoryHeapCount);
	CHECK(!memcmp(m.memoryTypes, m2.memoryProperties.memoryTypes,
	              m.memoryTypeCount * sizeof(m.memoryTypes[0])));
	for (uint32_t i = 0; i < m.memoryHeapCount; i++)
		CHECK(m.memoryHeaps[i].size ==
		      m2.memoryProperties.memoryHeaps[i].size &&
		      m.memoryHeaps[i].flags ==
		      m2.memoryProperties.memoryHeaps[i].flags);
	/* The spec's rules: a HOST_VISIBLE|HOST_COHERENT type, a
	 * DEVICE_LOCAL heap, and type X before Y when X's flags are a
	 * strict subset of Y's. */
	for (uint32_t i = 0; i < m.memoryTypeCount; i++) {
		VkMemoryPropertyFlags a = m.memoryTypes[i].propertyFlags;

		CHECK(m.memoryTypes[i].heapIndex < m.memoryHeapCount);
		if ((a & (HV | HC)) == (HV | HC))
			has_hv_hc = true;
		for (uint32_t j = 0; j < i; j++) {
			VkMemoryPropertyFlags b = m.memoryTypes[j].propertyFlags;

			CHECK(!((a & b) == a && a != b));
		}
	}
	for (uint32_t i = 0; i < m.memoryHeapCount; i++)
		if (m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
			has_dl_heap = true;
	CHECK(has_hv_hc && has_dl_heap);

	if (!swgpu)
		return;
	CHECK(m.memoryHeapCount == 3);
	CHECK(m.memoryHeaps[0].flags == VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
	CHECK(m.memoryHeaps[1].flags == 0);
	CHECK(m.memoryHeaps[2].flags == VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
	if (!getenv("SWGPU_BAR_MB") && !getenv("SWGPU_VRAM_MB")) {
		CHECK(m.memoryHeaps[2].size == 256ull << 20);
		CHECK(m.memoryHeaps[0].size == (4096ull - 256) << 20);
	}
	CHECK(m.memoryTypeCount == 4);
	CHECK(m.memoryTypes[0].propertyFlags == DL &&
	      m.memoryTypes[0].heapIndex == 0);
	CHECK(m.memoryTypes[1].propertyFlags == (HV | HC) &&
	      m.memoryTypes[1].heapIndex == 1);
	CHECK(m.memoryTypes[2].propertyFlags == (HV | HC | CA) &&
	      m.memoryTypes[2].heapIndex == 1);
	CHECK(m.memoryTypes[3].propertyFlags == (DL | HV | HC) &&
	      m.memoryTypes[3].heapIndex == 2);
}

static void
test_queue_families(VkPhysicalDevice pd, bool swgpu)
{
	VkQueueFamilyProperties qf[8];
	VkQueueFamilyProperties2 qf2[8];
	uint32_t n = 8, n2 = 8, n0 = 0;

	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n0, NULL);
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
	for (uint32_t i = 0; i < 8; i++)
		qf2[i] = (VkQueueFamilyProperties2){
			.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2 };
	vkGetPhysicalDeviceQueueFamilyProperties2(pd, &n2, qf2);
	CHECK(n0 == n && n2 == n && n >= 1);
	for (uint32_t i = 0; i < n; i++) {
		CHECK(!memcmp(&qf[i], &qf2[i].queueFamilyProperties,
		              sizeof(qf[i])));
		CHECK(qf[i].queueCount >= 1);
	}
	if (!swgpu)
		return;
	/* Families by engine class (icd/README.md): with graphics
	 * engines, family 0 is GRAPHICS|COMPUTE|TRANSFER on them; then the
	 * compute engines (COMPUTE|TRANSFER, 2 by default), then the copy
	 * engines (TRANSFER, 2 by default). */
	const bool gfx = has_graphics_engine(pd);
	const VkQueueFlags want[3] = {
		VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT |
		VK_QUEUE_TRANSFER_BIT,
		VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
		VK_QUEUE_TRANSFER_BIT,
	};
	const uint32_t first = gfx ? 0 : 1;

	CHECK(n == 3 - first);
	for (uint32_t i = 0; i < n && i + first < 3; i++) {
		CHECK(qf[i].queueFlags == want[i + first]);
		CHECK(qf[i].timestampValidBits == 64);
		CHECK(qf[i].minImageTransferGranularity.width == 1 &&
		      qf[i].minImageTransferGranularity.height == 1 &&
		      qf[i].minImageTransferGranularity.depth == 1);
		if (i + first > 0 && !getenv("SWGPU_COMPUTE_ENGINES") &&
		    !getenv("SWGPU_COPY_ENGINES"))
			CHECK(qf[i].queueCount == 2);
		if (i + first == 0 && !getenv("SWGPU_GRAPHICS_ENGINES"))
			CHECK(qf[i].queueCount == 1);
	}
}

static void
test_extensions(VkPhysicalDevice pd, bool swgpu)
{
	static VkExtensionProperties e[512];
	uint32_t n = 512, n2 = 2;
	bool tl = false;

	VK(vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e));
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(e[i].extensionName,
		            VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME))
			tl = true;
	CHECK(tl);
	if (n > 2)
		CHECK(vkEnumerateDeviceExtensionProperties(pd, NULL, &n2, e) ==
		      VK_INCOMPLETE && n2 == 2);
}

/* ------------------------------------------------------------------ */
/* Devices, memory, buffers, images                                    */
/* ------------------------------------------------------------------ */

static void
test_queues(VkPhysicalDevice pd, VkDevice dev)
{
	VkQueueFamilyProperties qf[8];
	uint32_t n = 8;
	VkQueue seen[64];
	uint32_t nseen = 0;

	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
	for (uint32_t f = 0; f < n; f++) {
		uint32_t count = qf[f].queueCount < 16 ? qf[f].queueCount : 16;

		for (uint32_t i = 0; i < count; i++) {
			VkQueue q = VK_NULL_HANDLE, q2 = VK_NULL_HANDLE;
			VkDeviceQueueInfo2 qi = {
				.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2,
				.queueFamilyIndex = f,
				.queueIndex = i,
			};

			vkGetDeviceQueue(dev, f, i, &q);
			vkGetDeviceQueue2(dev, &qi, &q2);
			CHECK(q != VK_NULL_HANDLE && q == q2);
			for (uint32_t k = 0; k < nseen; k++)
				CHECK(seen[k] != q);
			if (nseen < 64)
				seen[nseen++] = q;
			VK(vkQueueWaitIdle(q));
		}
	}
}

/* Allocate host-visible memory of each host-visible type, write a pattern,
 * read it back through a second mapping. */
static void
test_memory_map(VkPhysicalDevice pd, VkDevice dev, uint32_t seed)
{
	VkPhysicalDeviceMemoryProperties m;
	const VkDeviceSize size = 65536 + 123;

	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	for (uint32_t t = 0; t < m.memoryTypeCount; t++) {
		VkMemoryAllocateInfo ai = {
			.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
			.allocationSize = size,
			.memoryTypeIndex = t,
		};
		VkDeviceMemory mem;
		VkDeviceSize committed = 0;
		uint32_t *p;
		uint8_t *b;

		if (m.memoryHeaps[m.memoryTypes[t].heapIndex].size < size)
			continue;
		VK(vkAllocateMemory(dev, &ai, NULL, &mem));
		if (!(m.memoryTypes[t].propertyFlags &
		      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
			vkFreeMemory(dev, mem, NULL);
			continue;
		}
		if (m.memoryTypes[t].propertyFlags &
		    VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)
			vkGetDeviceMemoryCommitment(dev, mem, &committed);
		VK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&p));
		/* New memory of swgpu is zero-filled; not promised by Vulkan,
		 * so not checked. */
		for (uint32_t i = 0; i < size / 4; i++)
			p[i] = seed ^ (i * 2654435761u);
		VkMappedMemoryRange r = {
			.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
			.memory = mem, .offset = 0, .size = VK_WHOLE_SIZE,
		};
		VK(vkFlushMappedMemoryRanges(dev, 1, &r));
		vkUnmapMemory(dev, mem);
		/* A mapping at an offset sees the same bytes. */
		VK(vkMapMemory(dev, mem, 256, 4096, 0, (void **)&b));
		r.offset = 256;
		r.size = 4096;
		VK(vkInvalidateMappedMemoryRanges(dev, 1, &r));
		p = (uint32_t *)b;
		for (uint32_t i = 0; i < 1024; i++)
			if (p[i] != (seed ^ ((i + 64) * 2654435761u))) {
				CHECK(!"mapped data differs");
				break;
			}
		vkUnmapMemory(dev, mem);
		vkFreeMemory(dev, mem, NULL);
	}
}

static void
test_buffer(VkPhysicalDevice pd, VkDevice dev)
{
	VkPhysicalDeviceMemoryProperties m;
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = 1000,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
		         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	};
	VkBuffer buf[2];
	VkMemoryRequirements req;
	VkMemoryDedicatedRequirements ded = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS,
	};
	VkMemoryRequirements2 req2 = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &ded,
	};
	VkMemoryRequirements2 req3 = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
	};
	VkDeviceBufferMemoryRequirements dbr = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
		.pCreateInfo = &bci,
	};
	VkDeviceMemory mem;
	uint32_t t;

	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	VK(vkCreateBuffer(dev, &bci, NULL, &buf[0]));
	VK(vkCreateBuffer(dev, &bci, NULL, &buf[1]));
	vkGetBufferMemoryRequirements(dev, buf[0], &req);
	vkGetBufferMemoryRequirements2(dev,
		&(VkBufferMemoryRequirementsInfo2){
			.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
			.buffer = buf[0] }, &req2);
	vkGetDeviceBufferMemoryRequirements(dev, &dbr, &req3);
	CHECK(req.size >= bci.size && is_pow2(req.alignment));
	CHECK(req_eq(&req, &req2.memoryRequirements));
	CHECK(req_eq(&req, &req3.memoryRequirements));
	CHECK(!ded.requiresDedicatedAllocation);
	t = find_memory_type(&m, req.memoryTypeBits,
	                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(t != UINT32_MAX);
	if (t == UINT32_MAX)
		return;
	/* Two buffers in one allocation: bind and bind2. */
	VkDeviceSize off = (req.size + req.alignment - 1) &
	                   ~(req.alignment - 1);
	VK(vkAllocateMemory(dev, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = off + req.size, .memoryTypeIndex = t },
		NULL, &mem));
	VK(vkBindBufferMemory(dev, buf[0], mem, 0));
	VK(vkBindBufferMemory2(dev, 1, &(VkBindBufferMemoryInfo){
		.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
		.buffer = buf[1], .memory = mem, .memoryOffset = off }));
	vkDestroyBuffer(dev, buf[0], NULL);
	vkDestroyBuffer(dev, buf[1], NULL);
	vkDestroyBuffer(dev, VK_NULL_HANDLE, NULL);
	vkFreeMemory(dev, mem, NULL);
	vkFreeMemory(dev, VK_NULL_HANDLE, NULL);

	/* A dedicated allocation is accepted. */
	VK(vkCreateBuffer(dev, &bci, NULL, &buf[0]));
	VkMemoryDedicatedAllocateInfo dai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
		.buffer = buf[0],
	};
	VK(vkAllocateMemory(dev, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &dai,
		.allocationSize = req.size, .memoryTypeIndex = t },
		NULL, &mem));
	VK(vkBindBufferMemory(dev, buf[0], mem, 0));
	vkDestroyBuffer(dev, buf[0], NULL);
	vkFreeMemory(dev, mem, NULL);
}


static void
test_image(VkPhysicalDevice pd, VkDevice dev, bool swgpu)
{
	VkPhysicalDeviceMemoryProperties m;
	VkFormatProperties fp;
	VkImageFormatProperties ifp;
	VkImage img;
	VkMemoryRequirements req;
	VkMemoryRequirements2 req2 = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2,
	};
	VkDeviceImageMemoryRequirements dir = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
		.pCreateInfo = &image_linear_ci,
	};
	VkSubresourceLayout sl;
	VkDeviceMemory mem;
	uint32_t t, *p;

	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	vkGetPhysicalDeviceFormatProperties(pd, VK_FORMAT_R8G8B8A8_UNORM, &fp);
	CHECK(fp.linearTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
	CHECK(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT);
	VK(vkGetPhysicalDeviceImageFormatProperties(pd,
		VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
		VK_IMAGE_TILING_LINEAR, image_linear_ci.usage, 0, &ifp));
	CHECK(ifp.maxExtent.width >= 33 && ifp.maxMipLevels >= 1 &&
	      (ifp.sampleCounts & VK_SAMPLE_COUNT_1_BIT));
	if (swgpu) {
		/* Colour formats are no depth/stencil attachments. */
		CHECK(vkGetPhysicalDeviceImageFormatProperties(pd,
			VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
			VK_IMAGE_TILING_OPTIMAL,
			VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0,
			&ifp) == VK_ERROR_FORMAT_NOT_SUPPORTED);
		/* 32-byte texels are beyond the offered formats. */
		vkGetPhysicalDeviceFormatProperties(pd,
			VK_FORMAT_R64G64B64A64_SFLOAT, &fp);
		CHECK(fp.optimalTilingFeatures == 0 && fp.bufferFeatures == 0);
	}

	/* Linear 2D image: layout is host-addressable. */
	VK(vkCreateImage(dev, &image_linear_ci, NULL, &img));
	vkGetImageMemoryRequirements(dev, img, &req);
	vkGetImageMemoryRequirements2(dev, &(VkImageMemoryRequirementsInfo2){
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
		.image = img }, &req2);
	CHECK(req_eq(&req, &req2.memoryRequirements));
	req2.memoryRequirements = (VkMemoryRequirements){ 0 };
	vkGetDeviceImageMemoryRequirements(dev, &dir, &req2);
	CHECK(req_eq(&req, &req2.memoryRequirements));
	CHECK(req.size >= 33 * 17 * 4 && is_pow2(req.alignment));
	vkGetImageSubresourceLayout(dev, img, &(VkImageSubresource){
		VK_IMAGE_ASPECT_COLOR_BIT, 0, 0 }, &sl);
	CHECK(sl.rowPitch >= 33 * 4);
	CHECK(sl.size >= sl.rowPitch * 16 + 33 * 4);
	CHECK(sl.offset + sl.size <= req.size);
	t = find_memory_type(&m, req.memoryTypeBits,
	                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	CHECK(t != UINT32_MAX);
	VK(vkAllocateMemory(dev, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.allocationSize = req.size, .memoryTypeIndex = t }, NULL, &mem));
	VK(vkBindImageMemory2(dev, 1, &(VkBindImageMemoryInfo){
		.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
		.image = img, .memory = mem, .memoryOffset = 0 }));
	/* Every texel of the linear layout lies inside the allocation. */
	VK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&p));
	for (uint32_t y = 0; y < 17; y++)
		for (uint32_t x = 0; x < 33; x++)
			p[(sl.offset + y * sl.rowPitch) / 4 + x] = y << 16 | x;
	CHECK(p[(sl.offset + 16 * sl.rowPitch) / 4 + 32] == (16u << 16 | 32));
	vkUnmapMemory(dev, mem);
	vkDestroyImage(dev, img, NULL);
	vkFreeMemory(dev, mem, NULL);

	/* Optimal images of every dimensionality, with mips and layers. */
	static const struct { VkImageType type; VkExtent3D e; uint32_t mips,
	                      layers; VkFormat fmt; } cases[] = {
		{ VK_IMAGE_TYPE_1D, { 256, 1, 1 }, 9, 4, VK_FORMAT_R8_UNORM },
		{ VK_IMAGE_TYPE_2D, { 100, 60, 1 }, 7, 3,
		  VK_FORMAT_R32G32B32A32_SFLOAT },
		{ VK_IMAGE_TYPE_3D, { 16, 8, 4 }, 5, 1,
		  VK_FORMAT_R16G16_UINT },
	};
	for (uint32_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		VkImageCreateInfo ci = image_linear_ci;

		ci.imageType = cases[i].type;
		ci.extent = cases[i].e;
		ci.mipLevels = cases[i].mips;
		ci.arrayLayers = cases[i].layers;
		ci.format = cases[i].fmt;
		ci.tiling = VK_IMAGE_TILING_OPTIMAL;
		VK(vkCreateImage(dev, &ci, NULL, &img));
		vkGetImageMemoryRequirements(dev, img, &req);
		CHECK(req.size > 0 && req.memoryTypeBits != 0);
		t = find_memory_type(&m, req.memoryTypeBits,
		                     VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
		CHECK(t != UINT32_MAX);
		VK(vkAllocateMemory(dev, &(VkMemoryAllocateInfo){
			.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
			.allocationSize = req.size, .memoryTypeIndex = t },
			NULL, &mem));
		VK(vkBindImageMemory(dev, img, mem, 0));
		vkDestroyImage(dev, img, NULL);
		vkFreeMemory(dev, mem, NULL);
	}
	vkDestroyImage(dev, VK_NULL_HANDLE, NULL);
}

/* bufferDeviceAddress: addresses of buffers in one allocation are the
 * allocation's address plus their offsets. */
static void
test_buffer_device_address(VkPhysicalDevice pd)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f12,
	};
	VkPhysicalDeviceMemoryProperties m;
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = 4096,
		.usage = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
		         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
	};
	VkMemoryAllocateFlagsInfo fi = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
		.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
	};
	VkMemoryRequirements req;
	VkDeviceAddress a[2];
	VkBuffer buf[2];
	VkDeviceMemory mem;
	VkDevice dev;

	vkGetPhysicalDeviceFeatures2(pd, &f2);
	if (!f12.bufferDeviceAddress)
		return;
	vkGetPhysicalDeviceMemoryProperties(pd, &m);
	f12 = (VkPhysicalDeviceVulkan12Features){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.bufferDeviceAddress = VK_TRUE,
	};
	VK(create_device(pd, NULL, &f12, NULL, 0, NULL, &dev));
	for (int i = 0; i < 2; i++)
		VK(vkCreateBuffer(dev, &bci, NULL, &buf[i]));
	vkGetBufferMemoryRequirements(dev, buf[0], &req);
	VkDeviceSize off = (req.size + req.alignment - 1) &
	                   ~(req.alignment - 1);
	VK(vkAllocateMemory(dev, &(VkMemoryAllocateInfo){
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &fi,
		.allocationSize = off + req.size,
		.memoryTypeIndex = find_memory_type(&m, req.memoryTypeBits, 0) },
		NULL, &mem));
	VK(vkBindBufferMemory(dev, buf[0], mem, 0));
	VK(vkBindBufferMemory(dev, buf[1], mem, off));
	for (int i = 0; i < 2; i++)
		a[i] = vkGetBufferDeviceAddress(dev,
			&(VkBufferDeviceAddressInfo){
				.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
				.buffer = buf[i] });
	CHECK(a[0] != 0 && a[1] == a[0] + off);
	for (int i = 0; i < 2; i++)
		vkDestroyBuffer(dev, buf[i], NULL);
	vkFreeMemory(dev, mem, NULL);
	vkDestroyDevice(dev, NULL);
}

static void
test_proc_addr(VkInstance inst, VkDevice dev, bool swgpu)
{
	/* Instance-level commands are not device commands. */
	CHECK(vkGetDeviceProcAddr(dev, "vkGetPhysicalDeviceProperties") ==
	      NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkCreateBuffer") != NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkWaitSemaphoresKHR") != NULL);
	CHECK(vkGetDeviceProcAddr(dev, "vkNoSuchCommand") == NULL);
	CHECK(vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceProperties2") !=
	      NULL);
	CHECK(vkGetInstanceProcAddr(NULL, "vkCreateInstance") != NULL);
}

/* The validated part: everything with the layer on. */
static void
test_with_validation(void)
{
	VkInstance inst;
	VkPhysicalDevice pd;
	VkPhysicalDeviceProperties props;
	VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
	bool validation = has_layer("VK_LAYER_KHRONOS_validation");
	VkDevice dev[2];
	bool swgpu;
	uint32_t api = 0;
	static const char *ext = VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME;

	VK(vkEnumerateInstanceVersion(&api));
	CHECK(VK_API_VERSION_MINOR(api) >= 3);
	if (!validation)
		fprintf(stderr, "note: validation layer not installed\n");
	VK(create_instance(validation, NULL, &inst));
	if (validation) {
		PFN_vkCreateDebugUtilsMessengerEXT create =
			(PFN_vkCreateDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(inst,
			                      "vkCreateDebugUtilsMessengerEXT");
		VkDebugUtilsMessengerCreateInfoEXT mci = {
			.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
			.messageSeverity =
				VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
				VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
			.messageType =
				VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
				VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
				VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
			.pfnUserCallback = on_message,
		};
		VK(create(inst, &mci, NULL, &messenger));
	}
	pd = first_physical_device(inst);
	vkGetPhysicalDeviceProperties(pd, &props);
	swgpu = props.vendorID == SWGPU_VENDOR_ID;
	printf("device: %s (%s)\n", props.deviceName,
	       swgpu ? "swgpu checks on" : "driver-independent checks only");

	test_properties(pd, swgpu);
	test_features(pd, swgpu);
	test_memory_types(pd, swgpu);
	test_queue_families(pd, swgpu);
	test_extensions(pd, swgpu);

	/* Two devices on one physical device: independent contexts. */
	for (int i = 0; i < 2; i++)
		VK(create_device(pd, NULL, NULL, NULL, 1, &ext, &dev[i]));
	for (int i = 0; i < 2; i++) {
		test_queues(pd, dev[i]);
		test_memory_map(pd, dev[i], 0x1234567u * (i + 1));
		test_buffer(pd, dev[i]);
		test_image(pd, dev[i], swgpu);
		test_proc_addr(inst, dev[i], swgpu);
	}
	for (int i = 0; i < 2; i++)
		vkDestroyDevice(dev[i], NULL);
	vkDestroyDevice(VK_NULL_HANDLE, NULL);
	test_buffer_device_address(pd);

	if (messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy =
			(PFN_vkDestroyDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(inst,
			                      "vkDestroyDebugUtilsMessengerEXT");
		destroy(inst, messenger, NULL);
	}
	vkDestroyInstance(inst, NULL);
	CHECK(validation_messages == 0);
}

int
main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_with_validation();
	test_error_paths();
	test_physical_device_count();
	test_alloc_failures();
	if (failures) {
		printf("test_icd_instance: %d check(s) failed\n", failures);
		return 1;
	}
	printf("test_icd_instance: all checks passed\n");
	return 0;
}

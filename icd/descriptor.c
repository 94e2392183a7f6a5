/* SPDX-License-Identifier: MIT */
/*
 * descriptor.c — descriptor set layouts, pools and sets, and their updates
 * (vkUpdateDescriptorSets, copies and update templates).
 *
 * A pool is one BO of SYSTEM memory (CPU-cached: the host writes
 * descriptors through the cache, the engines read them coherently),
 * mapped into the host and READ-only into the device's context: a shader
 * can never write its own descriptors. A set is a range of that BO; its
 * descriptors are SWGPU_DESCRIPTOR_SIZE bytes each in the formats of
 * swgpu_packet.h, so an update is a host write of a few bytes and
 * vkCmdBindDescriptorSets only records the set's VA.
 *
 * Pools and their sets are externally synchronised (Vulkan rules), so there
 * is no lock; set layouts are shared between threads and reference counted
 * atomically.
 */
#include <stdlib.h>

#include <swgpu/swgpu_packet.h>

#include "pipeline.h"

/* ------------------------------------------------------------------ */
/* Set layouts                                                         */
/* ------------------------------------------------------------------ */

static bool
type_is_dynamic(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

void
icd_set_layout_ref(struct icd_set_layout *l)
{
	__atomic_add_fetch(&l->refcount, 1, __ATOMIC_RELAXED);
}

void
icd_set_layout_unref(struct icd_set_layout *l)
{
	if (!l || __atomic_sub_fetch(&l->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	icd_free(NULL, &l->device->alloc, l);
}

/*
 * Why a layout cannot be created, or NULL if it can. Every core descriptor
 * type has a place in descriptor memory, so a layout of any of them is
 * created (the spec requires it); whether a shader may *use* a type is
 * decided at pipeline creation, by the engine. What is refused here needs
 * a feature or extension we do not offer (inline uniform blocks, push
 * descriptors, update-after-bind), i.e. valid-usage violations.
 */
static const char *
layout_unsupported(const VkDescriptorSetLayoutCreateInfo *ci,
                   uint32_t *total)
{
	const bool push = ci->flags &
	                  VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;

	*total = 0;
	if (ci->flags &
	    ~(VkDescriptorSetLayoutCreateFlags)
	    VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR)
		return "layout flags other than PUSH_DESCRIPTOR "
		       "(update-after-bind)";
	for (uint32_t i = 0; i < ci->bindingCount; i++) {
		const VkDescriptorSetLayoutBinding *b = &ci->pBindings[i];

		if (icd_descriptor_type_to_swgpu(b->descriptorType) ==
		    SWGPU_DESCRIPTOR_NONE)
			return "a descriptor type outside core Vulkan 1.3";
		if (push && (b->descriptorType ==
		             VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
		             b->descriptorType ==
		             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
		             b->descriptorType ==
		             VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK))
			return "a dynamic buffer or inline uniform block in a "
			       "push descriptor layout";
		if (b->descriptorType ==
		    VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
			/* descriptorCount is the block's size in bytes. */
			if (b->descriptorCount % 4 ||
			    b->descriptorCount > ICD_MAX_INLINE_UNIFORM_BLOCK)
				return "an inline uniform block size that is "
				       "not a multiple of 4 up to "
				       "maxInlineUniformBlockSize";
			*total += 1;
			continue;
		}
		*total += b->descriptorCount;
	}
	if (*total > ICD_MAX_PER_SET_DESCRIPTORS)
		return "more descriptors than maxPerSetDescriptors";
	if (push && *total > ICD_MAX_PUSH_DESCRIPTORS)
		return "more descriptors than maxPushDescriptors";
	return NULL;
}

/* Whether the binding's samplers are immutable (pImmutableSamplers counts
 * for SAMPLER and COMBINED_IMAGE_SAMPLER bindings only). */
static bool
has_immutable(const VkDescriptorSetLayoutBinding *b)
{
	return b->pImmutableSamplers && b->descriptorCount &&
	       (b->descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
	        b->descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
}

VkResult
icd_CreateDescriptorSetLayout(VkDevice device,
                              const VkDescriptorSetLayoutCreateInfo *ci,
                              const VkAllocationCallbacks *pAllocator,
                              VkDescriptorSetLayout *pSetLayout)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_set_layout_handle *h;
	struct icd_set_layout *l;
	struct swgpu_sampler_state *imm;
	uint32_t nbind = 0, total, offset = 0, dyn = 0;
	const char *why;
	size_t bytes;

	why = layout_unsupported(ci, &total);
	if (why) {
		/* A valid-usage violation (vkGetDescriptorSetLayoutSupport
		 * says VK_FALSE); no error code fits, VK_ERROR_UNKNOWN is
		 * the one for invalid input. */
		icd_log("vkCreateDescriptorSetLayout: unsupported: %s", why);
		return icd_error(VK_ERROR_UNKNOWN, "unsupported set layout");
	}
	for (uint32_t i = 0; i < ci->bindingCount; i++) {
		const VkDescriptorSetLayoutBinding *b = &ci->pBindings[i];

		if (b->binding + 1 > nbind)
			nbind = b->binding + 1;
	}
	/* The handle, with the application's callbacks (icd_set_layout_handle
	 * in pipeline.h), then one allocation for the layout and its binding
	 * table. That one is freed by the last unref, which may come after
	 * vkDestroyDescriptorSetLayout, so it uses the device's allocator. */
	h = icd_alloc(pAllocator, &dev->alloc, sizeof(*h), 8,
	              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!h)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "set layout");
	bytes = sizeof(*l) + nbind * sizeof(l->bindings[0]);
	for (uint32_t i = 0; i < ci->bindingCount; i++)
		if (has_immutable(&ci->pBindings[i]))
			bytes += ci->pBindings[i].descriptorCount *
			         sizeof(struct swgpu_sampler_state);
	l = icd_zalloc(NULL, &dev->alloc, bytes, 8,
	               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!l) {
		icd_free(pAllocator, &dev->alloc, h);
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "set layout");
	}
	icd_object_init(&h->base, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT);
	h->layout = l;
	l->device = dev;
	l->refcount = 1;
	l->flags = ci->flags;
	l->push = (ci->flags &
	           VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0;
	l->binding_count = nbind;
	l->bindings = (struct icd_set_binding *)(l + 1);
	imm = (struct swgpu_sampler_state *)(l->bindings + nbind);
	for (uint32_t i = 0; i < ci->bindingCount; i++) {
		const VkDescriptorSetLayoutBinding *b = &ci->pBindings[i];
		struct icd_set_binding *sb = &l->bindings[b->binding];

		sb->type = b->descriptorType;
		sb->count = b->descriptorCount;
		sb->stages = b->stageFlags;
		if (sb->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
			sb->inline_bytes = b->descriptorCount;
			sb->count = b->descriptorCount ? 1 : 0;
		}
		if (has_immutable(b)) {
			sb->immutable = imm;
			for (uint32_t k = 0; k < b->descriptorCount; k++)
				if (!icd_sampler_state(b->pImmutableSamplers[k],
				                       &imm[k]))
					memset(&imm[k], 0, sizeof(imm[k]));
			imm += b->descriptorCount;
			/* Sets of different samplers are different layouts
			 * for the pipeline cache. */
			l->hash = icd_hash64(sb->immutable, b->descriptorCount *
			                     sizeof(*imm), l->hash);
		}
	}
	/* Descriptors in binding-number order: the same order as the
	 * dynamic offsets of vkCmdBindDescriptorSets. */
	for (uint32_t b = 0; b < nbind; b++) {
		struct icd_set_binding *sb = &l->bindings[b];

		sb->offset = offset;
		offset += sb->count * SWGPU_DESCRIPTOR_SIZE;
		if (sb->inline_bytes) {
			sb->inline_offset = offset;
			offset += (sb->inline_bytes + SWGPU_DESCRIPTOR_SIZE - 1) &
			          ~(SWGPU_DESCRIPTOR_SIZE - 1);
			l->hash = icd_hash64(&sb->inline_bytes,
			                     sizeof(sb->inline_bytes), l->hash);
		}
		if (type_is_dynamic(sb->type)) {
			sb->dynamic_index = dyn;
			dyn += sb->count;
		}
		l->hash = icd_hash64(&sb->type, sizeof(sb->type), l->hash);
		l->hash = icd_hash64(&sb->count, sizeof(sb->count), l->hash);
	}
	l->size = offset;
	l->dynamic_count = dyn;
	l->descriptor_count = total;
	*pSetLayout = icd_set_layout_handle_to_handle(h);
	return VK_SUCCESS;
}

void
icd_DestroyDescriptorSetLayout(VkDevice device,
                               VkDescriptorSetLayout descriptorSetLayout,
                               const VkAllocationCallbacks *pAllocator)
{
	struct icd_set_layout_handle *h =
		icd_set_layout_handle_from_handle(descriptorSetLayout);

	if (!h)
		return;
	icd_set_layout_unref(h->layout);
	icd_free(pAllocator, &icd_device_from_handle(device)->alloc, h);
}

void
icd_GetDescriptorSetLayoutSupport(VkDevice device,
                                  const VkDescriptorSetLayoutCreateInfo *ci,
                                  VkDescriptorSetLayoutSupport *pSupport)
{
	VkDescriptorSetVariableDescriptorCountLayoutSupport *var;
	uint32_t total;

	pSupport->supported = layout_unsupported(ci, &total) ? VK_FALSE :
	                                                      VK_TRUE;
	/* No descriptorBindingVariableDescriptorCount. */
	var = (void *)icd_find_struct(pSupport->pNext,
		VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT);
	if (var)
		var->maxVariableDescriptorCount = 0;
}

/* ------------------------------------------------------------------ */
/* Pools                                                               */
/* ------------------------------------------------------------------ */

static void
set_free(struct icd_descriptor_pool *pool, struct icd_descriptor_set *set)
{
	if (set->pool_prev)
		set->pool_prev->pool_next = set->pool_next;
	else
		pool->sets = set->pool_next;
	if (set->pool_next)
		set->pool_next->pool_prev = set->pool_prev;
	pool->used -= set->size;
	pool->set_count--;
	icd_set_layout_unref(set->layout);
	icd_free(NULL, &pool->device->alloc, set);
}

static void
pool_reset(struct icd_descriptor_pool *pool)
{
	while (pool->sets)
		set_free(pool, pool->sets);
	pool->bump = 0;
}

VkResult
icd_CreateDescriptorPool(VkDevice device,
                         const VkDescriptorPoolCreateInfo *ci,
                         const VkAllocationCallbacks *pAllocator,
                         VkDescriptorPool *pDescriptorPool)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_descriptor_pool *pool;
	uint64_t count = 0;
	swgpu_result r;
	void *map;

	for (uint32_t i = 0; i < ci->poolSizeCount; i++)
		count += ci->pPoolSizes[i].descriptorCount;
	pool = icd_zalloc(pAllocator, &dev->alloc, sizeof(*pool), 8,
	                  VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!pool)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "pool");
	icd_object_init(&pool->base, VK_OBJECT_TYPE_DESCRIPTOR_POOL);
	pool->device = dev;
	pool->flags = ci->flags;
	pool->max_sets = ci->maxSets;
	pool->size = count * SWGPU_DESCRIPTOR_SIZE;
	/* Set offsets are 32-bit. */
	if (pool->size > UINT32_MAX) {
		icd_free(pAllocator, &dev->alloc, pool);
		return icd_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, "%llu "
		                 "descriptors in one pool",
		                 (unsigned long long)count);
	}
	if (!pool->size) {
		*pDescriptorPool = icd_descriptor_pool_to_handle(pool);
		return VK_SUCCESS;
	}
	r = swgpu_bo_create(dev->pdev->swdev, pool->size, SWGPU_HEAP_SYSTEM,
	                    SWGPU_BO_CACHED, &pool->bo);
	if (r != SWGPU_OK)
		goto fail_free;
	r = swgpu_bo_map(pool->bo, &map);
	if (r != SWGPU_OK)
		goto fail_bo;
	pool->map = map;
	r = swgpu_va_map(dev->ctx, pool->bo, 0, swgpu_bo_size(pool->bo),
	                 SWGPU_VA_READ, &pool->va);
	if (r != SWGPU_OK)
		goto fail_map;
	*pDescriptorPool = icd_descriptor_pool_to_handle(pool);
	return VK_SUCCESS;

fail_map:
	swgpu_bo_unmap(pool->bo);
fail_bo:
	swgpu_bo_destroy(pool->bo);
fail_free:
	icd_free(pAllocator, &dev->alloc, pool);
	return icd_error(r == SWGPU_ERR_NO_HOST_MEMORY ?
	                 VK_ERROR_OUT_OF_HOST_MEMORY :
	                 VK_ERROR_OUT_OF_DEVICE_MEMORY,
	                 "descriptor memory: %s", swgpu_result_str(r));
}

void
icd_DestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                          const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_descriptor_pool *pool =
		icd_descriptor_pool_from_handle(descriptorPool);

	if (!pool)
		return;
	pool_reset(pool);
	if (pool->bo) {
		/* Waits for packets still reading the sets; the spec forbids
		 * destroying a pool used by pending work anyway. */
		swgpu_va_unmap(dev->ctx, pool->va);
		swgpu_bo_unmap(pool->bo);
		swgpu_bo_destroy(pool->bo);
	}
	icd_free(pAllocator, &dev->alloc, pool);
}

VkResult
icd_ResetDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                        VkDescriptorPoolResetFlags flags)
{
	pool_reset(icd_descriptor_pool_from_handle(descriptorPool));
	return VK_SUCCESS;
}

/*
 * Place size bytes in the pool: first fit in the holes between the live
 * sets (kept sorted by offset). Without FREE_DESCRIPTOR_SET the sets are
 * only ever appended, so this is a bump allocator in effect. Returns the
 * set to insert after (NULL: at the head) through *prev.
 */
static VkResult
pool_place(struct icd_descriptor_pool *pool, uint32_t size, uint32_t *offset,
           struct icd_descriptor_set **prev)
{
	uint64_t at = 0;

	*prev = NULL;
	for (struct icd_descriptor_set *s = pool->sets; s; s = s->pool_next) {
		if (s->offset - at >= size)
			break;
		at = s->offset + s->size;
		*prev = s;
	}
	if (pool->size - at >= size) {
		*offset = (uint32_t)at;
		return VK_SUCCESS;
	}
	/* Enough bytes in total but no hole big enough: fragmentation. */
	if (pool->size - pool->used >= size)
		return VK_ERROR_FRAGMENTED_POOL;
	return VK_ERROR_OUT_OF_POOL_MEMORY;
}

void
icd_set_memory_init(const struct icd_set_layout *l, uint8_t *map, uint64_t va)
{
	/* Unwritten descriptors are null descriptors (VA 0), which
	 * the engine treats as out of bounds, never as memory. */
	memset(map, 0, l->size);
	/* An inline uniform block is a uniform buffer in the set;
	 * immutable samplers are there from the start (a combined
	 * image sampler takes its state when its image is
	 * written). */
	for (uint32_t b = 0; b < l->binding_count; b++) {
		const struct icd_set_binding *sb = &l->bindings[b];

		if (sb->immutable &&
		    sb->type == VK_DESCRIPTOR_TYPE_SAMPLER)
			for (uint32_t k = 0; k < sb->count; k++) {
				struct swgpu_descriptor_sampler d = {
					.type = SWGPU_DESCRIPTOR_SAMPLER,
					.state = sb->immutable[k],
				};

				memcpy(map + sb->offset +
				       k * SWGPU_DESCRIPTOR_SIZE, &d,
				       sizeof(d));
			}
		if (sb->inline_bytes)
			swgpu_write_buffer_descriptor(
				map + sb->offset,
				SWGPU_DESCRIPTOR_UNIFORM_BUFFER,
				va + sb->inline_offset,
				sb->inline_bytes);
	}
}

static VkResult
set_alloc(struct icd_descriptor_pool *pool, struct icd_set_layout *layout,
          struct icd_descriptor_set **out)
{
	struct icd_descriptor_set *set, *prev;
	uint32_t offset = 0;
	VkResult r;

	if (pool->set_count >= pool->max_sets)
		return VK_ERROR_OUT_OF_POOL_MEMORY;
	if (layout->size) {
		r = pool_place(pool, layout->size, &offset, &prev);
		if (r != VK_SUCCESS)
			return r;
	} else {
		/* An empty set takes no memory and sorts first. */
		prev = NULL;
	}
	/* The device's allocator: sets are not created with callbacks. */
	set = icd_zalloc(NULL, &pool->device->alloc, sizeof(*set), 8,
	                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!set)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	icd_object_init(&set->base, VK_OBJECT_TYPE_DESCRIPTOR_SET);
	set->pool = pool;
	set->layout = layout;
	icd_set_layout_ref(layout);
	set->offset = offset;
	set->size = layout->size;
	if (set->size) {
		set->map = pool->map + offset;
		set->va = pool->va + offset;
		icd_set_memory_init(layout, set->map, set->va);
	}
	set->pool_prev = prev;
	set->pool_next = prev ? prev->pool_next : pool->sets;
	if (set->pool_next)
		set->pool_next->pool_prev = set;
	if (prev)
		prev->pool_next = set;
	else
		pool->sets = set;
	pool->used += set->size;
	pool->set_count++;
	*out = set;
	return VK_SUCCESS;
}

VkResult
icd_AllocateDescriptorSets(VkDevice device,
                           const VkDescriptorSetAllocateInfo *ai,
                           VkDescriptorSet *pDescriptorSets)
{
	struct icd_descriptor_pool *pool =
		icd_descriptor_pool_from_handle(ai->descriptorPool);
	VkResult r = VK_SUCCESS;
	uint32_t i;

	for (i = 0; i < ai->descriptorSetCount; i++) {
		struct icd_descriptor_set *set;

		r = set_alloc(pool, icd_set_layout_from_handle(
		                      ai->pSetLayouts[i]), &set);
		if (r != VK_SUCCESS)
			break;
		pDescriptorSets[i] = icd_descriptor_set_to_handle(set);
	}
	if (r == VK_SUCCESS)
		return VK_SUCCESS;
	/* All or nothing; every handle NULL on failure. */
	while (i-- > 0)
		set_free(pool, icd_descriptor_set_from_handle(
		                       pDescriptorSets[i]));
	for (i = 0; i < ai->descriptorSetCount; i++)
		pDescriptorSets[i] = VK_NULL_HANDLE;
	return icd_error(r, "descriptor sets: %u of %u sets live, %llu of "
	                 "%llu bytes used", pool->set_count, pool->max_sets,
	                 (unsigned long long)pool->used,
	                 (unsigned long long)pool->size);
}

VkResult
icd_FreeDescriptorSets(VkDevice device, VkDescriptorPool descriptorPool,
                       uint32_t count, const VkDescriptorSet *pSets)
{
	struct icd_descriptor_pool *pool =
		icd_descriptor_pool_from_handle(descriptorPool);

	for (uint32_t i = 0; i < count; i++) {
		struct icd_descriptor_set *set =
			icd_descriptor_set_from_handle(pSets[i]);

		if (set)
			set_free(pool, set);
	}
	return VK_SUCCESS;
}

/* SPDX-License-Identifier: MIT */
/*
 * descriptor_update.c — writing descriptors: vkUpdateDescriptorSets (writes
 * and copies) and descriptor update templates.
 *
 * Every descriptor is written by the host straight into the set's
 * descriptor memory in the engine's format (swgpu_packet.h "Descriptors").
 * Buffer descriptors carry the buffer's VA and resolved range; images
 * and texel buffers the descriptor their view made at creation
 * (image_view.c, buffer_view.c), samplers their packed state (sampler.c).
 * A binding with immutable samplers keeps them: its SAMPLER descriptors
 * are written when the set is allocated (descriptor.c) and left alone by
 * writes, and its combined image samplers take the immutable state.
 */
#include <swgpu/swgpu_packet.h>

#include "pipeline.h"

/* A descriptor update template: the entries, copied. */
struct icd_update_template {
	struct icd_object base;
	/* PUSH_DESCRIPTORS templates: the set layout they write (from the
	 * pipeline layout, referenced) and its set number. */
	struct icd_set_layout *push_layout;
	uint32_t push_set;
	VkPipelineBindPoint push_bind_point;
	uint32_t entry_count;
	VkDescriptorUpdateTemplateEntry entries[];
};

ICD_DEFINE_HANDLE_CASTS(icd_update_template, VkDescriptorUpdateTemplate,
                        VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE)

/*
 * Walk `count` consecutive descriptors from (binding, element): when the
 * binding is exhausted the update continues at element 0 of the next
 * binding with descriptors (the spec's "consecutive binding updates").
 * Returns the host address of the descriptor, or NULL past the set's end.
 */
struct desc_cursor {
	const struct icd_set_layout *layout;
	uint8_t *base;
	uint32_t binding;
	uint32_t element;
};

static uint8_t *
cursor_next(struct desc_cursor *c, const struct icd_set_binding **out)
{
	const struct icd_set_layout *l = c->layout;

	while (c->binding < l->binding_count &&
	       c->element >= l->bindings[c->binding].count) {
		c->element -= l->bindings[c->binding].count;
		c->binding++;
	}
	if (c->binding >= l->binding_count)
		return NULL;
	*out = &l->bindings[c->binding];
	return c->base + (*out)->offset +
	       (size_t)c->element++ * SWGPU_DESCRIPTOR_SIZE;
}

/* Which element of binding sb the descriptor at dst is. */
static uint32_t
element_of(const uint8_t *base, const struct icd_set_binding *sb,
           const uint8_t *dst)
{
	return (uint32_t)((size_t)(dst - base - sb->offset) /
	                  SWGPU_DESCRIPTOR_SIZE);
}

static void
write_buffer(uint8_t *dst, VkDescriptorType type,
             const VkDescriptorBufferInfo *bi)
{
	struct icd_buffer *buf = icd_buffer_from_handle(bi->buffer);
	uint64_t range;

	/* VK_NULL_HANDLE (nullDescriptor) or an unbound buffer: null. */
	if (!buf || !buf->va) {
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
		return;
	}
	range = bi->range == VK_WHOLE_SIZE ? buf->size - bi->offset :
	                                     bi->range;
	swgpu_write_buffer_descriptor(dst, icd_descriptor_type_to_swgpu(type),
	                              buf->va + bi->offset, range);
}

static bool
type_is_buffer(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
	       t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static bool
type_is_texel_buffer(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
	       t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

static bool
type_is_image(VkDescriptorType t)
{
	return t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
	       t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ||
	       t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
	       t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ||
	       t == VK_DESCRIPTOR_TYPE_SAMPLER;
}

/* Write one descriptor of `type` from the application's data (a
 * VkDescriptorBufferInfo, VkDescriptorImageInfo or VkBufferView; template
 * data need not be aligned for them, hence the copies) into element elem
 * of binding sb. */
static void
write_one(uint8_t *dst, VkDescriptorType type, const void *info,
          const struct icd_set_binding *sb, uint32_t elem)
{
	const struct swgpu_sampler_state *imm =
		sb->immutable && elem < sb->count ? &sb->immutable[elem] : NULL;

	if (type == VK_DESCRIPTOR_TYPE_SAMPLER && imm)
		return;         /* immutable: written at allocation */
	if (!info) {
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
	} else if (type_is_buffer(type)) {
		VkDescriptorBufferInfo bi;

		memcpy(&bi, info, sizeof(bi));
		write_buffer(dst, type, &bi);
	} else if (type == VK_DESCRIPTOR_TYPE_SAMPLER) {
		VkDescriptorImageInfo ii;
		struct swgpu_descriptor_sampler d = {
			.type = SWGPU_DESCRIPTOR_SAMPLER,
		};

		memcpy(&ii, info, sizeof(ii));
		if (!icd_sampler_state(ii.sampler, &d.state))
			d.type = SWGPU_DESCRIPTOR_NONE;
		memcpy(dst, &d, sizeof(d));
	} else if (type_is_image(type)) {
		VkDescriptorImageInfo ii;
		struct swgpu_sampler_state st;
		const struct swgpu_sampler_state *smp = imm;

		memcpy(&ii, info, sizeof(ii));
		if (!smp && icd_sampler_state(ii.sampler, &st))
			smp = &st;
		icd_write_image_view_descriptor(dst, ii.imageView, type, smp);
	} else if (type_is_texel_buffer(type)) {
		VkBufferView bv;

		memcpy(&bv, info, sizeof(bv));
		icd_write_buffer_view_descriptor(dst, bv, type);
	} else
		memset(dst, 0, SWGPU_DESCRIPTOR_SIZE);
}

/* Bytes into an inline uniform block: offset and count are in bytes
 * (dstArrayElement, descriptorCount). */
static void
write_inline(const struct icd_set_layout *l, uint8_t *map, uint32_t binding,
             uint32_t offset, const void *data, uint32_t size)
{
	const struct icd_set_binding *sb;

	if (binding >= l->binding_count)
		return;
	sb = &l->bindings[binding];
	if (!sb->inline_bytes || offset > sb->inline_bytes ||
	    size > sb->inline_bytes - offset)
		return;
	memcpy(map + sb->inline_offset + offset, data, size);
}

void
icd_write_descriptors(const struct icd_set_layout *l, uint8_t *map,
                      const VkWriteDescriptorSet *w)
{
	if (w->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
		const VkWriteDescriptorSetInlineUniformBlock *ib =
			icd_find_struct(w->pNext,
				VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);

		if (ib)
			write_inline(l, map, w->dstBinding, w->dstArrayElement,
			             ib->pData, ib->dataSize);
		return;
	}
	struct desc_cursor c = {
		.layout = l, .base = map,
		.binding = w->dstBinding, .element = w->dstArrayElement,
	};

	for (uint32_t i = 0; i < w->descriptorCount; i++) {
		const struct icd_set_binding *sb;
		uint8_t *dst = cursor_next(&c, &sb);
		const void *info = NULL;

		if (!dst)
			return;
		/* A missing array (invalid usage) writes a null
		 * descriptor rather than crashing. */
		if (type_is_buffer(w->descriptorType) && w->pBufferInfo)
			info = &w->pBufferInfo[i];
		else if (type_is_image(w->descriptorType) && w->pImageInfo)
			info = &w->pImageInfo[i];
		else if (type_is_texel_buffer(w->descriptorType) &&
		         w->pTexelBufferView)
			info = &w->pTexelBufferView[i];
		write_one(dst, w->descriptorType, info, sb,
		          element_of(map, sb, dst));
	}
}

static void
copy_set(const VkCopyDescriptorSet *cp)
{
	struct icd_descriptor_set *src =
		icd_descriptor_set_from_handle(cp->srcSet);
	struct icd_descriptor_set *dst =
		icd_descriptor_set_from_handle(cp->dstSet);

	if (cp->srcBinding < src->layout->binding_count &&
	    src->layout->bindings[cp->srcBinding].inline_bytes) {
		/* Inline uniform blocks copy bytes (offsets and count in
		 * bytes), not their descriptor (which points into its own
		 * set). */
		const struct icd_set_binding *sb =
			&src->layout->bindings[cp->srcBinding];

		if (cp->srcArrayElement <= sb->inline_bytes &&
		    cp->descriptorCount <= sb->inline_bytes -
		                           cp->srcArrayElement)
			write_inline(dst->layout, dst->map, cp->dstBinding,
			             cp->dstArrayElement,
			             src->map + sb->inline_offset +
			             cp->srcArrayElement, cp->descriptorCount);
		return;
	}
	struct desc_cursor s = {
		.layout = src->layout, .base = src->map,
		.binding = cp->srcBinding, .element = cp->srcArrayElement,
	};
	struct desc_cursor d = {
		.layout = dst->layout, .base = dst->map,
		.binding = cp->dstBinding, .element = cp->dstArrayElement,
	};

	/* Descriptors are self-contained (VA, range, type), so a copy is a
	 * byte copy; memmove because src and dst may be the same set. */
	for (uint32_t i = 0; i < cp->descriptorCount; i++) {
		const struct icd_set_binding *sb, *db;
		uint8_t *from = cursor_next(&s, &sb);
		uint8_t *to = cursor_next(&d, &db);

		if (!from || !to)
			return;
		memmove(to, from, SWGPU_DESCRIPTOR_SIZE);
	}
}

void
icd_UpdateDescriptorSets(VkDevice device, uint32_t writeCount,
                         const VkWriteDescriptorSet *pWrites,
                         uint32_t copyCount,
                         const VkCopyDescriptorSet *pCopies)
{
	/* The spec: writes first, in order, then copies. */
	for (uint32_t i = 0; i < writeCount; i++) {
		struct icd_descriptor_set *set =
			icd_descriptor_set_from_handle(pWrites[i].dstSet);

		icd_write_descriptors(set->layout, set->map, &pWrites[i]);
	}
	for (uint32_t i = 0; i < copyCount; i++)
		copy_set(&pCopies[i]);
}

/* ------------------------------------------------------------------ */
/* Update templates (core 1.1)                                         */
/* ------------------------------------------------------------------ */

VkResult
icd_CreateDescriptorUpdateTemplate(
	VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *ci,
	const VkAllocationCallbacks *pAllocator,
	VkDescriptorUpdateTemplate *pTemplate)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_update_template *t;
	struct icd_set_layout *push = NULL;

	if (ci->templateType ==
	    VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR) {
		const struct icd_pipeline_layout *pl =
			icd_pipeline_layout_from_handle(ci->pipelineLayout);

		if ((ci->pipelineBindPoint != VK_PIPELINE_BIND_POINT_COMPUTE &&
		     ci->pipelineBindPoint !=
		     VK_PIPELINE_BIND_POINT_GRAPHICS) || !pl || ci->set >= ICD_MAX_SETS || !pl->sets[ci->set] ||
		    !pl->sets[ci->set]->push)
			return icd_error(VK_ERROR_UNKNOWN, "push-descriptor "
			                 "template: needs the COMPUTE or "
			                 "GRAPHICS bind point and a push "
			                 "descriptor set layout at `set` of "
			                 "pipelineLayout");
		push = pl->sets[ci->set];
	}
	t = icd_alloc(pAllocator, &dev->alloc, sizeof(*t) +
	              ci->descriptorUpdateEntryCount * sizeof(t->entries[0]),
	              8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!t)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "update template");
	icd_object_init(&t->base, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE);
	t->push_layout = push;
	t->push_set = ci->set;
	t->push_bind_point = ci->pipelineBindPoint;
	if (push)
		icd_set_layout_ref(push);
	t->entry_count = ci->descriptorUpdateEntryCount;
	if (t->entry_count)
		memcpy(t->entries, ci->pDescriptorUpdateEntries,
		       t->entry_count * sizeof(t->entries[0]));
	*pTemplate = icd_update_template_to_handle(t);
	return VK_SUCCESS;
}

void
icd_DestroyDescriptorUpdateTemplate(VkDevice device,
                                    VkDescriptorUpdateTemplate tmpl,
                                    const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_update_template *t = icd_update_template_from_handle(tmpl);

	if (!t)
		return;
	if (t->push_layout)
		icd_set_layout_unref(t->push_layout);
	icd_free(pAllocator, &dev->alloc, t);
}

void
icd_apply_update_template(VkDescriptorUpdateTemplate tmpl,
                          const struct icd_set_layout *l, uint8_t *map,
                          const void *pData)
{
	struct icd_update_template *t = icd_update_template_from_handle(tmpl);

	for (uint32_t e = 0; e < t->entry_count; e++) {
		const VkDescriptorUpdateTemplateEntry *en = &t->entries[e];

		if (en->descriptorType ==
		    VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
			write_inline(l, map, en->dstBinding,
			             en->dstArrayElement,
			             (const uint8_t *)pData + en->offset,
			             en->descriptorCount);
			continue;
		}
		struct desc_cursor c = {
			.layout = l, .base = map,
			.binding = en->dstBinding,
			.element = en->dstArrayElement,
		};

		for (uint32_t i = 0; i < en->descriptorCount; i++) {
			const struct icd_set_binding *sb;
			uint8_t *dst = cursor_next(&c, &sb);
			const uint8_t *info = (const uint8_t *)pData +
			                      en->offset + i * en->stride;

			if (!dst)
				break;
			write_one(dst, en->descriptorType, info, sb,
			          element_of(map, sb, dst));
		}
	}
}

const struct icd_set_layout *
icd_update_template_push_layout(VkDescriptorUpdateTemplate tmpl,
                                uint32_t *set, VkPipelineBindPoint *bp)
{
	const struct icd_update_template *t =
		icd_update_template_from_handle(tmpl);

	*set = t->push_set;
	*bp = t->push_bind_point;
	return t->push_layout;
}

void
icd_UpdateDescriptorSetWithTemplate(VkDevice device,
                                    VkDescriptorSet descriptorSet,
                                    VkDescriptorUpdateTemplate tmpl,
                                    const void *pData)
{
	struct icd_descriptor_set *set =
		icd_descriptor_set_from_handle(descriptorSet);

	icd_apply_update_template(tmpl, set->layout, set->map, pData);
}

/* SPDX-License-Identifier: MIT */
/*
 * pipeline.h — the compute-side objects of the ICD: shader modules,
 * descriptor set layouts, descriptor pools and sets, pipeline layouts,
 * pipelines and pipeline caches, and what command recording needs of them.
 *
 * Descriptor memory model: a descriptor set is a range of a pool's BO,
 * mapped into the host (vkUpdateDescriptorSets writes it) and READ-only
 * into the device's context (the shader engine reads it). A set is an array
 * of SWGPU_DESCRIPTOR_SIZE-byte descriptors; binding b's descriptors start
 * at layout->bindings[b].offset. Set layouts are reference counted because
 * sets and pipeline layouts keep using them after the application may
 * have destroyed its handle.
 */
#ifndef ICD_PIPELINE_H
#define ICD_PIPELINE_H

#include "icd.h"

/* Bound sets a pipeline layout may have (maxBoundDescriptorSets). */
#define ICD_MAX_SETS SWGPU_SHADER_MAX_SETS
/* Push-constant bytes (maxPushConstantsSize). */
#define ICD_MAX_PUSH_CONSTANTS SWGPU_SHADER_MAX_PUSH_CONSTANTS
/* Dynamic buffers over all sets of a pipeline layout. */
#define ICD_MAX_DYNAMIC_BUFFERS SWGPU_SHADER_MAX_DYNAMIC_BUFFERS
/* Descriptors in one set (maxPerSetDescriptors). */
#define ICD_MAX_PER_SET_DESCRIPTORS 1024u
/* Bytes of one inline uniform block (maxInlineUniformBlockSize). */
#define ICD_MAX_INLINE_UNIFORM_BLOCK 4096u

/* The engine's type of a core descriptor type; NONE for anything else. */
static inline swgpu_descriptor_type
icd_descriptor_type_to_swgpu(VkDescriptorType t)
{
	switch (t) {
	case VK_DESCRIPTOR_TYPE_SAMPLER:
		return SWGPU_DESCRIPTOR_SAMPLER;
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
		return SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
		return SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
		return SWGPU_DESCRIPTOR_STORAGE_IMAGE;
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
		return SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER;
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
		return SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER;
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
		return SWGPU_DESCRIPTOR_UNIFORM_BUFFER;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
		return SWGPU_DESCRIPTOR_STORAGE_BUFFER;
	case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
		return SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC;
	case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
		return SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC;
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
		/* Fragment-only; it has a place in memory like an image. */
		return SWGPU_DESCRIPTOR_SAMPLED_IMAGE;
	case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
		/* Its bytes live in the set, behind a uniform buffer
		 * descriptor that points at them (descriptor.c). */
		return SWGPU_DESCRIPTOR_UNIFORM_BUFFER;
	default:
		return SWGPU_DESCRIPTOR_NONE;
	}
}

/* FNV-1a, 64-bit: content hashes for pipeline-cache keys. */
static inline uint64_t
icd_hash64(const void *data, size_t size, uint64_t h)
{
	const uint8_t *p = data;

	if (!h)
		h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* ------------------------------------------------------------------ */
/* Shader modules                                                      */
/* ------------------------------------------------------------------ */

struct icd_shader_module {
	struct icd_object base;
	uint64_t hash;          /* of the SPIR-V words */
	size_t code_size;       /* bytes */
	uint32_t code[];
};

/* Check the SPIR-V header (magic, version 1.0..1.6, size, id bound):
 * VK_SUCCESS, or VK_ERROR_UNKNOWN after a log line saying what is wrong. */
VkResult icd_spirv_check_header(const uint32_t *code, size_t size);

/* ------------------------------------------------------------------ */
/* Descriptor set layouts                                              */
/* ------------------------------------------------------------------ */

struct icd_set_binding {
	VkDescriptorType type;
	uint32_t count;         /* 0: binding not in the layout */
	VkShaderStageFlags stages;
	uint32_t offset;        /* bytes from the start of the set */
	/* Dynamic buffers: index of the first one within the set's
	 * dynamic offsets (binding order). */
	uint32_t dynamic_index;
	/* Inline uniform blocks (count 1): the block's bytes and where they
	 * are in the set, after its descriptor. */
	uint32_t inline_bytes;
	uint32_t inline_offset;
	/* Immutable samplers ([count], in the layout's allocation), or
	 * NULL. */
	struct swgpu_sampler_state *immutable;
};

struct icd_set_layout {
	struct icd_device *device;
	uint32_t refcount;      /* atomic: handle + sets + pipeline layouts */
	VkDescriptorSetLayoutCreateFlags flags;
	uint32_t binding_count; /* highest binding number + 1 */
	uint32_t size;          /* bytes of descriptor memory per set */
	uint32_t dynamic_count; /* dynamic buffers in the set */
	uint32_t descriptor_count;
	uint64_t hash;          /* of the layout's shape (cache keys) */
	bool push;              /* PUSH_DESCRIPTOR_BIT_KHR: no sets */
	struct icd_set_binding *bindings; /* [binding_count] */
};

void icd_set_layout_ref(struct icd_set_layout *l);
void icd_set_layout_unref(struct icd_set_layout *l);

/* Push descriptor sets (VK_KHR_push_descriptor): descriptors a command
 * buffer keeps on the host and copies into its command memory at each
 * push (cmd_compute.c). */
#define ICD_MAX_PUSH_DESCRIPTORS 32u

/* Fresh descriptor memory of layout l at map (GPU address va): null
 * descriptors, immutable samplers, inline uniform blocks pointing at
 * their bytes (descriptor.c). */
void icd_set_memory_init(const struct icd_set_layout *l, uint8_t *map,
                         uint64_t va);
/* One VkWriteDescriptorSet into the memory map of a set of layout l
 * (descriptor_update.c; dstSet is not used). */
void icd_write_descriptors(const struct icd_set_layout *l, uint8_t *map,
                           const VkWriteDescriptorSet *w);
/* The entries of an update template, from pData, into map of layout l. */
void icd_apply_update_template(VkDescriptorUpdateTemplate tmpl,
                               const struct icd_set_layout *l, uint8_t *map,
                               const void *pData);
/* A PUSH_DESCRIPTORS template's set layout, set number and bind point
 * (NULL for a DESCRIPTOR_SET template). */
const struct icd_set_layout *icd_update_template_push_layout(
	VkDescriptorUpdateTemplate tmpl, uint32_t *set, VkPipelineBindPoint *bp);

/* ------------------------------------------------------------------ */
/* Descriptor pools and sets                                           */
/* ------------------------------------------------------------------ */

struct icd_descriptor_pool;

struct icd_descriptor_set {
	struct icd_object base;
	struct icd_descriptor_pool *pool;
	struct icd_set_layout *layout;  /* referenced */
	struct icd_descriptor_set *pool_prev, *pool_next;
	uint32_t offset;        /* in the pool's BO */
	uint32_t size;
	uint8_t *map;           /* host pointer of the set's first byte */
	uint64_t va;            /* GPU VA of the set (0 if size is 0) */
};

struct icd_descriptor_pool {
	struct icd_object base;
	struct icd_device *device;
	VkDescriptorPoolCreateFlags flags;
	uint32_t max_sets;
	uint32_t set_count;
	uint64_t size;          /* bytes of descriptor memory */
	uint64_t bump;          /* next free byte without FREE_DESCRIPTOR_SET */
	uint64_t used;          /* bytes held by live sets */
	swgpu_bo *bo;           /* NULL when size is 0 */
	uint8_t *map;
	uint64_t va;
	/* Live sets, sorted by offset (the free-set allocator walks the
	 * holes between them). */
	struct icd_descriptor_set *sets;
};

/* ------------------------------------------------------------------ */
/* Pipeline layouts and pipelines                                      */
/* ------------------------------------------------------------------ */

struct icd_pipeline_layout {
	struct icd_object base;
	uint32_t set_count;
	struct icd_set_layout *sets[ICD_MAX_SETS];  /* referenced, may be NULL */
	/* First dynamic offset of each set in the flat array of the layout
	 * (vkCmdBindDescriptorSets order: set, then binding). */
	uint32_t dynamic_start[ICD_MAX_SETS];
	uint32_t dynamic_count;
	uint32_t push_size;     /* bytes: end of the highest range */
	uint64_t hash;
};

struct swgpu_pipeline_state;

struct icd_pipeline {
	struct icd_object base;
	struct icd_device *device;
	VkPipelineBindPoint bind_point;
	/* What a dispatch needs of the layout, copied: the pipeline layout
	 * may be destroyed while the pipeline lives. */
	uint32_t set_count;
	uint32_t dynamic_start[ICD_MAX_SETS];
	uint32_t dynamic_count;
	uint32_t push_size;
	uint32_t local_size[3];
	swgpu_shader *shader;   /* compute; graphics: the vertex shader */
	uint64_t code_va;       /* the shader's code VA in the context */
	/* Graphics pipelines (pipeline_gfx.c): the fragment shader (NULL:
	 * none) and the swgpu_pipeline_state the engine reads, in a BO of
	 * its own mapped READ-only into the context at state_va; state is
	 * its host mapping. */
	swgpu_shader *fs;
	swgpu_bo *state_bo;
	uint64_t state_va;
	const struct swgpu_pipeline_state *state;
	uint64_t dynamic_mask;  /* SWGPU_DYN_* */
};

/* Everything swgpu_shader_create needs for one stage, on the heap. */
struct icd_shader_build {
	swgpu_spec_constant spec[64];
	swgpu_shader_binding bindings[SWGPU_SHADER_MAX_BINDINGS];
	char error[256];
	swgpu_shader_info info;
	uint64_t key;           /* pipeline-cache key */
	bool cache_hit;         /* out: native code from the VkPipelineCache */
};

/* Prepare b (zeroed by the caller) for the stage st of a pipeline with
 * layout pl: code, entry point, specialization, the layout's bindings
 * and push-constant size, and the cache key. VK_ERROR_UNKNOWN after a
 * log line for what the engine cannot take. */
VkResult icd_shader_build_prepare(struct icd_shader_build *b,
                                  const struct icd_pipeline_layout *pl,
                                  const VkPipelineShaderStageCreateInfo *st,
                                  swgpu_shader_stage stage);

/* swgpu_shader_create for a prepared build, with cache's native code
 * (NULL: none), and the shader's code recorded in cache; on failure logs "<what>:
 * entry point ...: <engine message>" and returns VK_ERROR_UNKNOWN for
 * invalid or unsupported SPIR-V, else the mapped error. */
struct icd_pipeline_cache;
VkResult icd_shader_build_create(struct icd_device *dev,
                                 struct icd_pipeline_cache *cache,
                                 struct icd_shader_build *b,
                                 const char *what, swgpu_shader **out);

/* The graphics pipeline of one create info (pipeline_gfx.c). */
struct icd_pipeline_cache;
VkResult icd_graphics_pipeline_create(struct icd_device *dev,
                                      struct icd_pipeline_cache *cache,
                                      const VkGraphicsPipelineCreateInfo *ci,
                                      const VkAllocationCallbacks *alloc,
                                      VkPipeline *out);
void icd_graphics_pipeline_destroy(struct icd_device *dev,
                                   struct icd_pipeline *p);
/* The fixed-function part of a graphics pipeline's engine state (all of
 * it but the shader VAs): ps is zeroed and filled from ci. */
VkResult icd_graphics_pipeline_fill_state(struct swgpu_pipeline_state *ps,
                                          const VkGraphicsPipelineCreateInfo *ci);

/* ------------------------------------------------------------------ */
/* Handle casts                                                        */
/* ------------------------------------------------------------------ */

ICD_DEFINE_HANDLE_CASTS(icd_shader_module, VkShaderModule,
                        VK_OBJECT_TYPE_SHADER_MODULE)
/* A VkDescriptorSetLayout is a small handle object allocated with the
 * application's pAllocator and freed by vkDestroyDescriptorSetLayout; the
 * layout it names is refcounted in the device's memory, because sets and
 * pipeline layouts may outlive the handle (the spec allows it). */
struct icd_set_layout_handle {
	struct icd_object base;
	struct icd_set_layout *layout;
};
ICD_DEFINE_HANDLE_CASTS(icd_set_layout_handle, VkDescriptorSetLayout,
                        VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT)

static inline struct icd_set_layout *
icd_set_layout_from_handle(VkDescriptorSetLayout h)
{
	struct icd_set_layout_handle *o = icd_set_layout_handle_from_handle(h);

	return o ? o->layout : NULL;
}
ICD_DEFINE_HANDLE_CASTS(icd_descriptor_pool, VkDescriptorPool,
                        VK_OBJECT_TYPE_DESCRIPTOR_POOL)
ICD_DEFINE_HANDLE_CASTS(icd_descriptor_set, VkDescriptorSet,
                        VK_OBJECT_TYPE_DESCRIPTOR_SET)
ICD_DEFINE_HANDLE_CASTS(icd_pipeline_layout, VkPipelineLayout,
                        VK_OBJECT_TYPE_PIPELINE_LAYOUT)
ICD_DEFINE_HANDLE_CASTS(icd_pipeline, VkPipeline, VK_OBJECT_TYPE_PIPELINE)

#endif /* ICD_PIPELINE_H */

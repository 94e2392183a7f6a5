/* SPDX-License-Identifier: MIT */
/*
 * Shader objects: translation at creation, the code VA that names a
 * shader in DISPATCH packets, and the registry that resolves that VA.
 *
 * The registry is keyed by (VA space, code VA). A DISPATCH looks the
 * shader up and holds a reference for its duration, so destroying a
 * shader while a dispatch runs only delays the free.
 */
#include "shader.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_packet.h>

#include "jit.h"
#include "kmd/context.h"
#include "util/util.h"
#include "xlate.h"
#include "remote/remote.h"

#define CODE_MAGIC 0x48535753u /* "SWSH" */

struct swgpu_shader {
	uint32_t remote_tag;          /* 0: in process (remote/remote.h) */
	struct swgpu_context *ctx;
	struct ir_program *prog;
	swgpu_bo *bo;
	uint64_t va;
	uint32_t refs;             /* __atomic */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reg_entry {
	const void *vs;
	uint64_t va;
	struct swgpu_shader *shader;
} *registry;
static uint32_t registry_count, registry_cap;

bool
swgpu_shader_descriptor_type_supported(swgpu_descriptor_type type)
{
	return type == SWGPU_DESCRIPTOR_UNIFORM_BUFFER ||
	       type == SWGPU_DESCRIPTOR_STORAGE_BUFFER ||
	       type == SWGPU_DESCRIPTOR_UNIFORM_BUFFER_DYNAMIC ||
	       type == SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC ||
	       type == SWGPU_DESCRIPTOR_UNIFORM_TEXEL_BUFFER ||
	       type == SWGPU_DESCRIPTOR_STORAGE_TEXEL_BUFFER ||
	       type == SWGPU_DESCRIPTOR_STORAGE_IMAGE ||
	       type == SWGPU_DESCRIPTOR_SAMPLED_IMAGE ||
	       type == SWGPU_DESCRIPTOR_SAMPLER ||
	       type == SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
}

static void
shader_free(struct swgpu_shader *s)
{
	ir_program_free(s->prog);
	free(s);
}

static void
shader_unref(struct swgpu_shader *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		shader_free(s);
}

static bool
registry_add(struct swgpu_shader *s)
{
	bool ok = true;

	pthread_mutex_lock(&registry_lock);
	if (registry_count == registry_cap) {
		uint32_t cap = registry_cap ? registry_cap * 2 : 16;
		struct reg_entry *n = realloc(registry, cap * sizeof(*n));

		if (n) {
			registry = n;
			registry_cap = cap;
		} else {
			ok = false;
		}
	}
	if (ok)
		registry[registry_count++] = (struct reg_entry){
			s->ctx->vs, s->va, s };
	pthread_mutex_unlock(&registry_lock);
	return ok;
}

static void
registry_remove(struct swgpu_shader *s)
{
	pthread_mutex_lock(&registry_lock);
	for (uint32_t i = 0; i < registry_count; i++)
		if (registry[i].shader == s) {
			registry[i] = registry[--registry_count];
			break;
		}
	if (!registry_count) {
		free(registry);
		registry = NULL;
		registry_cap = 0;
	}
	pthread_mutex_unlock(&registry_lock);
}

struct swgpu_shader *
shader_lookup(const struct swgpu_vaspace *vs, uint64_t va)
{
	struct swgpu_shader *s = NULL;

	pthread_mutex_lock(&registry_lock);
	for (uint32_t i = 0; i < registry_count; i++)
		if (registry[i].vs == vs && registry[i].va == va) {
			s = registry[i].shader;
			__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	return s;
}

void
shader_put(struct swgpu_shader *s)
{
	if (s)
		shader_unref(s);
}

const struct ir_program *
shader_program(const struct swgpu_shader *s)
{
	return s->prog;
}

swgpu_result
swgpu_shader_create(swgpu_context *ctx, const swgpu_shader_info *info,
                    swgpu_shader **out)
{
	if (remote_is(ctx))
		return rc_shader_create(ctx, info, out);
	struct swgpu_shader *s;
	char msg[256] = "";
	swgpu_result r;
	bool debug;
	uint32_t *code;
	uint64_t lanes;

	if (!ctx || !info || !out)
		return SWGPU_ERR(swgpu_debug_env(), SWGPU_ERR_INVALID_ARG,
		                 "NULL argument");
	debug = ctx->dev->cfg.debug;
	*out = NULL;
	if (info->push_constant_size > SWGPU_SHADER_MAX_PUSH_CONSTANTS ||
	    info->binding_count > SWGPU_SHADER_MAX_BINDINGS ||
	    (info->binding_count && !info->bindings) ||
	    (info->spec_constant_count && !info->spec_constants)) {
		snprintf(msg, sizeof(msg), "bad shader_info counts");
		r = SWGPU_ERR_INVALID_ARG;
		goto fail_msg;
	}
	for (uint32_t i = 0; i < info->binding_count; i++) {
		const swgpu_shader_binding *b = &info->bindings[i];

		if (b->set >= SWGPU_SHADER_MAX_SETS || !b->count ||
		    b->offset % SWGPU_DESCRIPTOR_SIZE ||
		    b->type >= SWGPU_DESCRIPTOR_TYPE_COUNT) {
			snprintf(msg, sizeof(msg), "bad binding %u", i);
			r = SWGPU_ERR_INVALID_ARG;
			goto fail_msg;
		}
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "shader");
	s->ctx = ctx;
	s->refs = 1;
	r = xlate_module(info, &s->prog, msg, sizeof(msg));
	if (r != SWGPU_OK) {
		free(s);
		goto fail_msg;
	}
	lanes = (uint64_t)s->prog->local_size[0] * s->prog->local_size[1] *
	        s->prog->local_size[2];
	lanes = (lanes + 31) / 32 * 32;
	/* xlate_var.c failed such shaders already, naming the variable;
	 * kept as the engine's own guard. */
	if ((uint64_t)s->prog->nregs * lanes * 4 > IR_MAX_REGFILE_BYTES) {
		snprintf(msg, sizeof(msg), "shader needs %u registers x %llu "
		         "lanes: too large", s->prog->nregs,
		         (unsigned long long)lanes);
		shader_free(s);
		r = SWGPU_ERR_NO_HOST_MEMORY;   /* a limit: xlate.h */
		goto fail_msg;
	}
	r = swgpu_bo_create(ctx->dev, 4096, SWGPU_HEAP_SYSTEM, 0, &s->bo);
	if (r != SWGPU_OK) {
		shader_free(s);
		return r;
	}
	if (swgpu_bo_map(s->bo, (void **)&code) == SWGPU_OK) {
		code[0] = CODE_MAGIC;
		code[1] = s->prog->ninstr;
		swgpu_bo_unmap(s->bo);
	}
	r = swgpu_va_map(ctx, s->bo, 0, 4096, SWGPU_VA_READ, &s->va);
	if (r != SWGPU_OK) {
		swgpu_bo_destroy(s->bo);
		shader_free(s);
		return r;
	}
	if (!registry_add(s)) {
		swgpu_va_unmap(ctx, s->va);
		swgpu_bo_destroy(s->bo);
		shader_free(s);
		return SWGPU_ERR(debug, SWGPU_ERR_NO_HOST_MEMORY, "registry");
	}
	/* SWGPU_SHADER=jit: compile once, requested here, at pipeline
	 * creation, with the specialization constants already folded by
	 * the translator: code a cache has (this process's, the
	 * application's VkPipelineCache through binary_lookup, the disk:
	 * jit/jit_cache.h) is loaded now; else it is compiled in the
	 * background and the program interpreted until it is ready
	 * (jit_queue.c). A decline is logged there and the program
	 * interpreted. */
	jit_program_request(s->prog, info->binary_lookup, info->binary_user);
	*out = s;
	return SWGPU_OK;
fail_msg:
	if (info->error && info->error_size)
		snprintf(info->error, info->error_size, "%s", msg);
	return SWGPU_ERR(debug, r, "shader_create: %s", msg);
}

void
swgpu_shader_destroy(swgpu_shader *s)
{
	if (remote_is(s)) {
		rc_shader_destroy(s);
		return;
	}
	if (!s)
		return;
	registry_remove(s);
	/* Unmap waits for packets using the code mapping to finish. */
	swgpu_va_unmap(s->ctx, s->va);
	swgpu_bo_destroy(s->bo);
	shader_unref(s);
}

uint64_t
swgpu_shader_code_va(const swgpu_shader *s)
{
	if (remote_is(s))
		return rc_shader_code_va(s);
	return s ? s->va : 0;
}

void
swgpu_shader_query_properties(const swgpu_shader *s,
                              swgpu_shader_properties *props)
{
	if (remote_is(s)) {
		rc_shader_query_properties(s, props);
		return;
	}
	const struct ir_program *p;

	if (!s || !props)
		return;
	p = s->prog;
	memset(props, 0, sizeof(*props));
	memcpy(props->local_size, p->local_size, sizeof(props->local_size));
	props->shared_memory_size = p->shared_bytes;
	props->push_constant_size = p->push_bytes;
	props->subgroup_size = p->subgroup_size;
	props->instruction_count = p->ninstr;
	props->register_count = p->nregs;
	props->uses_barrier = p->uses_barrier;
	props->uses_subgroup_ops = p->uses_subgroup;
	props->uses_atomics = p->uses_atomics;
	props->stage = (swgpu_shader_stage)p->stage;
	for (uint32_t l = 0; l < IR_MAX_LOCATIONS; l++)
		for (uint32_t c = 0; c < 4; c++) {
			if (p->io.in_reg[l][c])
				props->input_locations |= 1u << l;
			if (p->io.out_reg[l][c])
				props->output_locations |= 1u << l;
		}
	props->writes_position = p->io.position_reg != 0;
	props->writes_point_size = p->io.point_size_reg != 0;
	props->writes_depth = p->io.frag_depth_reg != 0;
	props->discards = p->io.discards;
	props->early_fragment_tests = p->io.early_fragment_tests;
	props->code_source = (swgpu_shader_code_source)p->jit_source;
}

bool
swgpu_shader_binary_key(const swgpu_shader *s, uint8_t key[16])
{
	if (remote_is(s))
		return rc_shader_binary_key(s, key);
	const struct ir_program *p;

	if (!s || !jit_requested())
		return false;
	p = s->prog;
	/* keyed at creation; a program tried without code has none */
	if (!p->jit_keyed ||
	    (__atomic_load_n(&p->jit_tried, __ATOMIC_ACQUIRE) && !p->jit))
		return false;
	memcpy(key, p->jit_key, 16);
	return true;
}

void *
swgpu_shader_binary_get(const uint8_t key[16], size_t *size)
{
	void *blob;

	/* Shared mode: the code lives in the daemon. */
	if (key && size && rc_shader_binary_get(key, size, &blob))
		return blob;
	if (!key || !size || !jit_requested())
		return NULL;
	jit_wait_key(key);
	return jit_binary_get(key, size);
}

bool
swgpu_shader_cache_uuid(uint8_t uuid[16])
{
	return uuid && jit_available() && jit_cache_uuid(uuid);
}

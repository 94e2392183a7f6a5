/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the shader engine tests (test_shader_*.c): a device with one
 * compute queue, shaders built from the SPIR-V headers compiled at build
 * time, and dispatches through real submits. Bindings follow one
 * convention: set 0, binding i is buffer i (storage unless told), its
 * descriptor at offset i * SWGPU_DESCRIPTOR_SIZE.
 */
#ifndef SWGPU_TESTS_SHADER_TEST_UTIL_H
#define SWGPU_TESTS_SHADER_TEST_UTIL_H

#include "api_util.h"

#define ST_MAX_BUFS 8

struct st_env {
	swgpu_device *dev;
	swgpu_context *ctx;
	swgpu_queue *q;
	struct api_cmd cmd;
	struct api_buf desc;     /* descriptor set 0 */
	struct api_buf table;    /* bind table */
	struct api_buf bufs[ST_MAX_BUFS];
	uint32_t nbufs;
};

void st_init(struct st_env *e);
void st_fini(struct st_env *e);
/* Another context on an open device (tests with several contexts): its
 * own queue on compute engine `engine` at priority prio, command memory
 * and descriptor/table buffers; st_side_fini frees them and leaves the
 * device open. */
void st_side_init(struct st_env *e, swgpu_device *dev, uint32_t engine,
                  swgpu_priority prio);
void st_side_fini(struct st_env *e);
/* st_dispatch of groups x 1 x 1 over every whole buffer, without
 * waiting: the job's seqno. */
uint64_t st_submit(struct st_env *e, swgpu_shader *s, const void *push,
                   uint32_t push_size, uint32_t groups);

/* Add a host-visible buffer (zeroed) as binding e->nbufs; returns its
 * host pointer. */
void *st_buf(struct st_env *e, uint64_t size);

/* Create a shader: binding i of set 0 is buffer i with types[i]
 * (NULL: all storage); spec constants optional. Asserts success. */
swgpu_shader *st_shader(struct st_env *e, const uint32_t *code,
                        size_t size, const swgpu_descriptor_type *types,
                        const swgpu_spec_constant *spec, uint32_t nspec);

/* Create a shader with explicit bindings and push_size bytes of push
 * constants. Asserts success (the message is printed). */
swgpu_shader *st_make_shader(struct st_env *e, const uint32_t *code,
                             size_t size, const swgpu_shader_binding *b,
                             uint32_t n, uint32_t push_size);

/* Shader creation that may fail: returns the result, message in err. */
swgpu_result st_try_shader(struct st_env *e, const uint32_t *code,
                           size_t size, swgpu_shader **out, char *err,
                           size_t err_size);

/* st_try_shader with swgpu_shader_info.subgroup_size set (0: the
 * default). */
swgpu_result st_try_shader_subgroup(struct st_env *e, const uint32_t *code,
                                    size_t size, uint32_t subgroup_size,
                                    swgpu_shader **out, char *err,
                                    size_t err_size);

/* Write descriptors for every buffer (range: the buffer size, or
 * ranges[i] when given) and the bind table, dispatch, wait. Returns the
 * queue wait result. */
swgpu_result st_dispatch(struct st_env *e, swgpu_shader *s,
                         const uint64_t *ranges, const void *push,
                         uint32_t push_size, uint32_t gx, uint32_t gy,
                         uint32_t gz);

/* The same with the descriptors already in e->desc (the caller wrote
 * them: images, texel buffers). */
swgpu_result st_dispatch_desc(struct st_env *e, swgpu_shader *s,
                              const void *push, uint32_t push_size,
                              uint32_t gx, uint32_t gy, uint32_t gz);

static inline float
st_f(uint32_t u)
{
	union { uint32_t u; float f; } v = { .u = u };
	return v.f;
}

static inline uint32_t
st_u(float f)
{
	union { uint32_t u; float f; } v = { .f = f };
	return v.u;
}

#endif

/* SPDX-License-Identifier: MIT */
#include "shader_test_util.h"

#include <string.h>

void
st_init(struct st_env *e)
{
	swgpu_config cfg;

	memset(e, 0, sizeof(*e));
	api_config_small(&cfg);
	e->dev = api_open(&cfg);
	api_ok(swgpu_context_create(e->dev, &e->ctx));
	e->q = api_queue(e->ctx, SWGPU_ENGINE_COMPUTE, 0);
	api_cmd_init(&e->cmd, e->dev, e->ctx, 4096);
	api_buf_init(&e->desc, e->dev, e->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&e->table, e->dev, e->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
}

void
st_side_init(struct st_env *e, swgpu_device *dev, uint32_t engine,
             swgpu_priority prio)
{
	memset(e, 0, sizeof(*e));
	e->dev = dev;
	api_ok(swgpu_context_create(dev, &e->ctx));
	api_ok(swgpu_queue_create(e->ctx, SWGPU_ENGINE_COMPUTE, engine, prio,
	                          &e->q));
	api_cmd_init(&e->cmd, dev, e->ctx, 4096);
	api_buf_init(&e->desc, dev, e->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_buf_init(&e->table, dev, e->ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
}

void
st_side_fini(struct st_env *e)
{
	for (uint32_t i = 0; i < e->nbufs; i++)
		api_buf_fini(&e->bufs[i]);
	api_buf_fini(&e->table);
	api_buf_fini(&e->desc);
	api_cmd_fini(&e->cmd);
	swgpu_queue_destroy(e->q);
	swgpu_context_destroy(e->ctx);
}

void
st_fini(struct st_env *e)
{
	st_side_fini(e);
	swgpu_device_close(e->dev);
}

void *
st_buf(struct st_env *e, uint64_t size)
{
	struct api_buf *b;

	assert_true(e->nbufs < ST_MAX_BUFS);
	b = &e->bufs[e->nbufs++];
	api_buf_init(b, e->dev, e->ctx, size, SWGPU_HEAP_SYSTEM,
	             SWGPU_BO_CACHED, SWGPU_VA_READ | SWGPU_VA_WRITE);
	assert_non_null(b->cpu);
	memset(b->cpu, 0, size);
	return b->cpu;
}

static void
fill_info(swgpu_shader_info *info, swgpu_shader_binding *b,
          const uint32_t *code, size_t size,
          const swgpu_descriptor_type *types)
{
	memset(info, 0, sizeof(*info));
	for (uint32_t i = 0; i < ST_MAX_BUFS; i++) {
		b[i].set = 0;
		b[i].binding = i;
		b[i].type = types ? types[i] : SWGPU_DESCRIPTOR_STORAGE_BUFFER;
		b[i].offset = i * SWGPU_DESCRIPTOR_SIZE;
		b[i].count = 1;
		b[i].dynamic_index = 0;
	}
	info->code = code;
	info->code_size = size;
	info->entry_point = "main";
	info->bindings = b;
	info->binding_count = ST_MAX_BUFS;
	info->push_constant_size = 128;
}

/* Create the shader of info or fail the test with its message. */
static swgpu_shader *
create_or_fail(struct st_env *e, swgpu_shader_info *info)
{
	swgpu_shader *s = NULL;
	char err[256] = "";

	info->error = err;
	info->error_size = sizeof(err);
	if (swgpu_shader_create(e->ctx, info, &s) != SWGPU_OK)
		print_error("shader_create: %s\n", err);
	assert_non_null(s);
	return s;
}

swgpu_shader *
st_shader(struct st_env *e, const uint32_t *code, size_t size,
          const swgpu_descriptor_type *types,
          const swgpu_spec_constant *spec, uint32_t nspec)
{
	swgpu_shader_binding b[ST_MAX_BUFS];
	swgpu_shader_info info;

	fill_info(&info, b, code, size, types);
	info.spec_constants = spec;
	info.spec_constant_count = nspec;
	return create_or_fail(e, &info);
}

swgpu_shader *
st_make_shader(struct st_env *e, const uint32_t *code, size_t size,
               const swgpu_shader_binding *b, uint32_t n, uint32_t push_size)
{
	swgpu_shader_info info = {
		.code = code, .code_size = size, .entry_point = "main",
		.bindings = b, .binding_count = n,
		.push_constant_size = push_size,
	};

	return create_or_fail(e, &info);
}

swgpu_result
st_try_shader(struct st_env *e, const uint32_t *code, size_t size,
              swgpu_shader **out, char *err, size_t err_size)
{
	swgpu_shader_binding b[ST_MAX_BUFS];
	swgpu_shader_info info;

	fill_info(&info, b, code, size, NULL);
	info.error = err;
	info.error_size = err_size;
	return swgpu_shader_create(e->ctx, &info, out);
}

swgpu_result
st_try_shader_subgroup(struct st_env *e, const uint32_t *code, size_t size,
                       uint32_t subgroup_size, swgpu_shader **out,
                       char *err, size_t err_size)
{
	swgpu_shader_binding b[ST_MAX_BUFS];
	swgpu_shader_info info;

	fill_info(&info, b, code, size, NULL);
	info.subgroup_size = subgroup_size;
	info.error = err;
	info.error_size = err_size;
	return swgpu_shader_create(e->ctx, &info, out);
}

/* Every buffer of e bound in set 0 (ranges NULL: whole buffers). */
static void
bind_buffers(struct st_env *e, const uint64_t *ranges)
{
	memset(e->desc.cpu, 0, 4096);
	for (uint32_t i = 0; i < e->nbufs; i++)
		swgpu_write_buffer_descriptor(
			e->desc.cpu + i * SWGPU_DESCRIPTOR_SIZE,
			SWGPU_DESCRIPTOR_STORAGE_BUFFER, e->bufs[i].va,
			ranges ? ranges[i] : e->bufs[i].size);
}

swgpu_result
st_dispatch(struct st_env *e, swgpu_shader *s, const uint64_t *ranges,
            const void *push, uint32_t push_size, uint32_t gx, uint32_t gy,
            uint32_t gz)
{
	bind_buffers(e, ranges);
	return st_dispatch_desc(e, s, push, push_size, gx, gy, gz);
}

/* The bind table (set 0 = e->desc, push constants) and one DISPATCH,
 * submitted on e->q; the job's seqno. */
static uint64_t
submit_desc(struct st_env *e, swgpu_shader *s, const void *push,
            uint32_t push_size, uint32_t gx, uint32_t gy, uint32_t gz)
{
	struct swgpu_bind_table bt;
	uint64_t seqno = 0;
	uint32_t *p;
	swgpu_ib ib;

	memset(&bt, 0, sizeof(bt));
	bt.set_va[0] = e->desc.va;
	if (push)
		memcpy(bt.push_constants, push, push_size);
	memcpy(e->table.cpu, &bt, sizeof(bt));
	api_cmd_reset(&e->cmd);
	p = api_cmd_reserve(&e->cmd, SWGPU_LEN_DISPATCH);
	swgpu_emit_dispatch(p, swgpu_shader_code_va(s), e->table.va, gx, gy,
	                    gz, 0, 0, 0);
	ib = api_cmd_end(&e->cmd);
	api_ok(api_submit(e->q, &ib, NULL, 0, NULL, 0, &seqno));
	return seqno;
}

swgpu_result
st_dispatch_desc(struct st_env *e, swgpu_shader *s, const void *push,
                 uint32_t push_size, uint32_t gx, uint32_t gy, uint32_t gz)
{
	submit_desc(e, s, push, push_size, gx, gy, gz);
	return swgpu_queue_wait(e->q, 0, api_deadline_ms(API_WAIT_MS));
}

uint64_t
st_submit(struct st_env *e, swgpu_shader *s, const void *push,
          uint32_t push_size, uint32_t groups)
{
	bind_buffers(e, NULL);
	return submit_desc(e, s, push, push_size, groups, 1, 1);
}

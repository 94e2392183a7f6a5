/* SPDX-License-Identifier: MIT */
/*
 * swgpud: shaders. The daemon translates (and, SWGPU_SHADER=jit,
 * compiles, with its own process and disk caches) exactly as in process;
 * the client keeps what never changes — code VA, properties, binary key.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon/session.h"
#include "util/util.h"

#define MAX_SPEC 4096u

/* The client's application cache (VkPipelineCache), asked for the blob
 * of the key the translation gave: the blob lives until creation ends. */
struct lookup {
	struct sd_req *rq;
	void *blob;
};

static const void *
lookup(void *user, const uint8_t key[16], size_t *size)
{
	struct lookup *lk = user;
	struct wire_wr q;
	uint32_t n = 0;

	wire_wr_init(&q);
	wire_put(&q, key, SWGPU_SHADER_BINARY_KEY_SIZE);
	if (!sd_ask(lk->rq->s, lk->rq->h.tag, PROTO_SHADER_LOOKUP, &q,
	            &lk->blob, &n))
		n = 0;
	wire_wr_fini(&q);
	*size = n;
	return n ? lk->blob : NULL;
}

static swgpu_result
shader_create(struct sd_req *rq)
{
	struct session *s = rq->s;
	swgpu_shader_info info;
	uint64_t ctx_id = wire_get_u64(&rq->rd), code_size;
	const void *code, *spec, *bind;
	uint32_t *code_copy = NULL;
	swgpu_spec_constant *spec_copy = NULL;
	swgpu_shader_binding *bind_copy = NULL;
	char error[256] = "";
	struct lookup lk = { .rq = rq };
	uint32_t has_lookup;
	struct sd_entry *c;
	swgpu_shader *sh = NULL;
	swgpu_result r;

	memset(&info, 0, sizeof(info));
	info.stage = (swgpu_shader_stage)wire_get_u32(&rq->rd);
	info.subgroup_size = wire_get_u32(&rq->rd);
	info.push_constant_size = wire_get_u32(&rq->rd);
	info.entry_point = wire_get_str(&rq->rd);
	code_size = wire_get_u64(&rq->rd);
	code = wire_get_ptr(&rq->rd, code_size);
	info.spec_constant_count = wire_get_u32(&rq->rd);
	spec = info.spec_constant_count <= MAX_SPEC
	       ? wire_get_ptr(&rq->rd, sizeof(swgpu_spec_constant) *
	                               info.spec_constant_count)
	       : NULL;
	info.binding_count = wire_get_u32(&rq->rd);
	bind = info.binding_count <= SWGPU_SHADER_MAX_BINDINGS * 64
	       ? wire_get_ptr(&rq->rd, sizeof(swgpu_shader_binding) *
	                               info.binding_count)
	       : NULL;
	has_lookup = wire_get_u32(&rq->rd);
	if ((info.spec_constant_count && !spec) ||
	    (info.binding_count && !bind))
		rq->rd.bad = true;
	if (!wire_rd_done(&rq->rd))
		return SWGPU_ERR_INVALID_ARG;
	c = sd_get(s, ctx_id, PROTO_KIND_CTX);
	if (!c)
		return SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG, "client %d: "
		                 "SHADER_CREATE: no such context of this "
		                 "client", (int)s->pid);
	/* Payload bytes are not aligned for the arrays: copy them. */
	code_copy = malloc(code_size ? code_size : 1);
	spec_copy = malloc(sizeof(*spec_copy) * info.spec_constant_count + 1);
	bind_copy = malloc(sizeof(*bind_copy) * info.binding_count + 1);
	if (!code_copy || !spec_copy || !bind_copy) {
		r = SWGPU_ERR_NO_HOST_MEMORY;
		goto out;
	}
	memcpy(code_copy, code, code_size);
	memcpy(spec_copy, spec, sizeof(*spec_copy) * info.spec_constant_count);
	memcpy(bind_copy, bind, sizeof(*bind_copy) * info.binding_count);
	info.code = code_copy;
	info.code_size = code_size;
	info.spec_constants = spec_copy;
	info.bindings = bind_copy;
	info.error = error;
	info.error_size = sizeof(error);
	if (has_lookup) {
		info.binary_lookup = lookup;
		info.binary_user = &lk;
	}
	r = swgpu_shader_create(c->obj, &info, &sh);
	if (r == SWGPU_OK) {
		swgpu_shader_properties props;
		uint8_t key[SWGPU_SHADER_BINARY_KEY_SIZE] = { 0 };
		bool has_key = swgpu_shader_binary_key(sh, key);

		/* the shader's entry keeps our ref on its context */
		r = sd_add_reply(rq, PROTO_KIND_SHADER, sh, c);
		if (r != SWGPU_OK)
			goto out;
		swgpu_shader_query_properties(sh, &props);
		wire_put_u64(&rq->out, swgpu_shader_code_va(sh));
		wire_put(&rq->out, &props, sizeof(props));
		wire_put_u32(&rq->out, has_key);
		wire_put(&rq->out, key, sizeof(key));
	} else {
		wire_put_str(&rq->out, error);
	}
out:
	sd_put(s, c);
	free(lk.blob);
	free(code_copy);
	free(spec_copy);
	free(bind_copy);
	return r;
}

swgpu_result
serve_shader(struct sd_req *rq)
{
	if (rq->h.op == PROTO_SHADER_CREATE)
		return shader_create(rq);
	if (rq->h.op == PROTO_SHADER_DESTROY) {
		uint64_t id = wire_get_u64(&rq->rd);

		if (!wire_rd_done(&rq->rd))
			return SWGPU_ERR_INVALID_ARG;
		if (sd_destroy(rq->s, id, PROTO_KIND_SHADER) != SWGPU_OK)
			return SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG,
			                 "client %d: SHADER_DESTROY: no such "
			                 "shader", (int)rq->s->pid);
		return SWGPU_OK;
	}
	/* PROTO_SHADER_BINARY_GET: size 0 when the daemon has no code. */
	{
		uint8_t key[SWGPU_SHADER_BINARY_KEY_SIZE];
		size_t size = 0;
		void *blob;

		wire_get(&rq->rd, key, sizeof(key));
		if (!wire_rd_done(&rq->rd))
			return SWGPU_ERR_INVALID_ARG;
		blob = swgpu_shader_binary_get(key, &size);
		wire_put_u64(&rq->out, blob ? size : 0);
		if (blob)
			wire_put(&rq->out, blob, size);
		free(blob);
		return SWGPU_OK;
	}
}

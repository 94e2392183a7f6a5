/* SPDX-License-Identifier: MIT */
/*
 * swgpud's request handlers: each reads its arguments, resolves ids in
 * the client's own session table (an id of another kind, a destroyed one
 * or a forged one is INVALID_ARG) and calls the same swgpu.h function an
 * in-process client would — so every argument check, every packet check
 * against the context's VA space and every fault rule is the in-process
 * one. A handler reads its whole request before acting: a malformed one
 * does nothing and ends the session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/session.h"
#include "util/util.h"

swgpu_result
sd_add_reply(struct sd_req *rq, uint32_t kind, void *obj,
               struct sd_entry *parent)
{
	uint64_t id;
	swgpu_result r = sd_add(rq->s, kind, obj, parent, &id);

	if (r == SWGPU_OK) {
		wire_put_u64(&rq->out, id);
		rq->added = sd_get(rq->s, id, kind);
		/* the table's ref keeps it: the request's is not needed */
		sd_put(rq->s, rq->added);
		return SWGPU_OK;
	}
	sd_destroy_object(kind, obj);
	return r;
}

/* ---- device ---- */

static swgpu_result
dev_op(struct sd_req *rq)
{
	swgpu_device *dev = rq->s->dev;
	swgpu_result r = SWGPU_OK;

	switch (rq->h.op) {
	case PROTO_DEV_ENGINE_STATS: {
		uint32_t engine = (uint32_t)wire_get_u64(&rq->rd);
		swgpu_engine_stats st;

		ARGS_DONE(rq);
		r = swgpu_engine_query_stats(dev, engine, &st);
		wire_put(&rq->out, &st, sizeof(st));
		return r;
	}
	case PROTO_DEV_MEM_STATS: {
		swgpu_mem_stats st;

		ARGS_DONE(rq);
		r = swgpu_mem_query_stats(dev, &st);
		wire_put(&rq->out, &st, sizeof(st));
		return r;
	}
	case PROTO_DEV_HEAP_BUDGET: {
		swgpu_heap heap = (swgpu_heap)wire_get_u64(&rq->rd);
		uint64_t v[2] = { 0, 0 };

		ARGS_DONE(rq);
		r = swgpu_heap_budget(dev, heap, &v[0], &v[1]);
		wire_put(&rq->out, v, sizeof(v));
		return r;
	}
	case PROTO_DEV_BAR_BUDGET: {
		uint64_t v[2] = { 0, 0 };

		ARGS_DONE(rq);
		r = swgpu_bar_budget(dev, &v[0], &v[1]);
		wire_put(&rq->out, v, sizeof(v));
		return r;
	}
	case PROTO_DEV_TRIM:
		ARGS_DONE(rq);
		wire_put_u64(&rq->out, swgpu_debug_trim(dev));
		return SWGPU_OK;
	case PROTO_DEV_DUMP: {
		char *text = NULL;
		size_t len = 0;
		FILE *f;

		ARGS_DONE(rq);
		f = open_memstream(&text, &len);
		if (!f)
			return SWGPU_ERR_NO_HOST_MEMORY;
		swgpu_device_dump(dev, f);
		fclose(f);
		wire_put_str(&rq->out, text ? text : "");
		free(text);
		return SWGPU_OK;
	}
	case PROTO_DEV_TRACE_TRACK: {
		const char *name = wire_get_str(&rq->rd);

		ARGS_DONE(rq);
		wire_put_u32(&rq->out, swgpu_trace_track(dev, name ? name
		                                                   : "?"));
		return SWGPU_OK;
	}
	case PROTO_DEV_TRACE_EVENT: {
		uint32_t track = wire_get_u32(&rq->rd);
		uint32_t instant = wire_get_u32(&rq->rd);
		const char *cat = wire_get_str(&rq->rd);
		const char *name = wire_get_str(&rq->rd);
		uint64_t start = wire_get_u64(&rq->rd);
		uint64_t end = wire_get_u64(&rq->rd);
		const char *args = wire_get_str(&rq->rd);

		ARGS_DONE(rq);
		if (!cat || !name)
			return SWGPU_ERR_INVALID_ARG;
		if (instant)
			swgpu_trace_instant(dev, track, cat, name, start, args);
		else
			swgpu_trace_slice(dev, track, cat, name, start, end,
			                  args);
		return SWGPU_OK;
	}
	}
	return SWGPU_ERR_UNSUPPORTED;
}

/* ---- contexts, VA, BOs ---- */

static swgpu_result
ctx_op(struct sd_req *rq)
{
	struct session *s = rq->s;
	struct sd_entry *c, *b;
	swgpu_result r;
	uint64_t id;

	if (rq->h.op == PROTO_CTX_CREATE) {
		swgpu_context *ctx;

		ARGS_DONE(rq);
		r = swgpu_context_create(s->dev, &ctx);
		if (r != SWGPU_OK)
			return r;
		/* Its owner (swgpu-smi) is the session's client:
		 * kmd_owner_set in hello(). */
		r = sd_add_reply(rq, PROTO_KIND_CTX, ctx, NULL);
		if (r == SWGPU_OK) {
			wire_put_u32(&rq->out, swgpu_context_id(ctx));
			sd_fast_attach(rq);
		}
		return r;
	}
	id = wire_get_u64(&rq->rd);
	if (rq->h.op == PROTO_CTX_DESTROY) {
		ARGS_DONE(rq);
		r = sd_destroy(s, id, PROTO_KIND_CTX);
		return r == SWGPU_OK ? r : BAD_ID(rq, "context");
	}
	if (rq->h.op == PROTO_VA_MAP) {
		uint64_t bo_id = wire_get_u64(&rq->rd);
		uint64_t off = wire_get_u64(&rq->rd);
		uint64_t size = wire_get_u64(&rq->rd);
		uint32_t flags = (uint32_t)wire_get_u64(&rq->rd);
		uint64_t va = 0;

		ARGS_DONE(rq);
		c = sd_get(s, id, PROTO_KIND_CTX);
		b = sd_get(s, bo_id, PROTO_KIND_BO);
		if (c && b)
			r = swgpu_va_map(c->obj, b->obj, off, size, flags, &va);
		else
			r = BAD_ID(rq, c ? "BO" : "context");
		sd_put(s, c);
		sd_put(s, b);
		wire_put_u64(&rq->out, va);
		return r;
	}
	if (rq->h.op == PROTO_VA_UNMAP) {
		uint64_t va = wire_get_u64(&rq->rd);

		ARGS_DONE(rq);
		c = sd_get(s, id, PROTO_KIND_CTX);
		r = c ? swgpu_va_unmap(c->obj, va) : BAD_ID(rq, "context");
		sd_put(s, c);
		return r;
	}
	/* PROTO_CTX_STATE */
	ARGS_DONE(rq);
	c = sd_get(s, id, PROTO_KIND_CTX);
	if (!c)
		return BAD_ID(rq, "context");
	{
		swgpu_fault_info f;
		swgpu_context_state st = swgpu_context_query_state(c->obj, &f);

		wire_put_u32(&rq->out, (uint32_t)st);
		wire_put(&rq->out, &f, sizeof(f));
	}
	sd_put(s, c);
	return SWGPU_OK;
}

static swgpu_result
bo_reply(struct sd_req *rq, swgpu_bo *bo, bool send_fd)
{
	swgpu_result r;
	int fd = -1;

	if (send_fd) {
		r = swgpu_bo_export_fd(bo, &fd);
		if (r != SWGPU_OK) {
			swgpu_bo_destroy(bo);
			return r;
		}
	}
	r = sd_add_reply(rq, PROTO_KIND_BO, bo, NULL);
	if (r != SWGPU_OK) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	wire_put_u64(&rq->out, swgpu_bo_size(bo));
	rq->out_fd = fd;
	return SWGPU_OK;
}

static swgpu_result
bo_op(struct sd_req *rq)
{
	struct session *s = rq->s;
	swgpu_result r;
	struct sd_entry *b;
	uint64_t id;

	if (rq->h.op == PROTO_BO_CREATE || rq->h.op == PROTO_BO_IMPORT_FD) {
		bool import = rq->h.op == PROTO_BO_IMPORT_FD;
		uint64_t size = wire_get_u64(&rq->rd);
		swgpu_heap heap = import ? (swgpu_heap)wire_get_u32(&rq->rd)
		                         : (swgpu_heap)wire_get_u64(&rq->rd);
		uint32_t flags = import ? wire_get_u32(&rq->rd)
		                        : (uint32_t)wire_get_u64(&rq->rd);
		swgpu_bo *bo;

		ARGS_DONE(rq);
		if (import) {
			if (rq->h.nfds != 1)
				return SWGPU_ERR_BAD_HANDLE;
			r = swgpu_bo_import_fd(s->dev, rq->fds[0], size, heap,
			                       flags, &bo);
		} else {
			/* Every client BO is a memfd the client maps too. */
			r = swgpu_bo_create(s->dev, size, heap,
			                    flags | SWGPU_BO_SHAREABLE, &bo);
		}
		if (r != SWGPU_OK)
			return r;
		return bo_reply(rq, bo, !import);
	}
	id = wire_get_u64(&rq->rd);
	if (rq->h.op == PROTO_BO_DESTROY) {
		ARGS_DONE(rq);
		r = sd_destroy(s, id, PROTO_KIND_BO);
		return r == SWGPU_OK ? r : BAD_ID(rq, "BO");
	}
	{
		uint64_t arg = rq->h.op == PROTO_BO_OFFER ||
		                       rq->h.op == PROTO_BO_SET_PRIORITY
		               ? wire_get_u64(&rq->rd) : 0;

		ARGS_DONE(rq);
		b = sd_get(s, id, PROTO_KIND_BO);
		if (!b)
			return BAD_ID(rq, "BO");
		switch (rq->h.op) {
		case PROTO_BO_MAP: {
			void *p;

			r = swgpu_bo_map(b->obj, &p);
			break;
		}
		case PROTO_BO_UNMAP:
			swgpu_bo_unmap(b->obj);
			r = SWGPU_OK;
			break;
		case PROTO_BO_OFFER:
			r = swgpu_bo_offer(b->obj, (swgpu_offer_priority)arg);
			break;
		case PROTO_BO_RECLAIM:
			r = swgpu_bo_reclaim(b->obj);
			break;
		case PROTO_BO_SET_PRIORITY:
			r = swgpu_bo_set_priority(b->obj, (uint32_t)arg);
			break;
		default: /* PROTO_BO_LOCATION */
			wire_put_u64(&rq->out,
			             (uint64_t)swgpu_bo_location(b->obj));
			r = SWGPU_OK;
			break;
		}
		sd_put(s, b);
		return r;
	}
}

swgpu_result
serve_request(struct sd_req *rq)
{
	switch (rq->h.op) {
	case PROTO_DEV_ENGINE_STATS: case PROTO_DEV_MEM_STATS:
	case PROTO_DEV_HEAP_BUDGET: case PROTO_DEV_BAR_BUDGET:
	case PROTO_DEV_DUMP: case PROTO_DEV_TRIM:
	case PROTO_DEV_TRACE_TRACK: case PROTO_DEV_TRACE_EVENT:
		return dev_op(rq);
	case PROTO_CTX_CREATE: case PROTO_CTX_DESTROY: case PROTO_CTX_STATE:
	case PROTO_VA_MAP: case PROTO_VA_UNMAP:
		return ctx_op(rq);
	case PROTO_BO_CREATE: case PROTO_BO_IMPORT_FD: case PROTO_BO_DESTROY:
	case PROTO_BO_MAP: case PROTO_BO_UNMAP: case PROTO_BO_OFFER:
	case PROTO_BO_RECLAIM: case PROTO_BO_SET_PRIORITY:
	case PROTO_BO_LOCATION:
		return bo_op(rq);
	case PROTO_SYNC_CREATE: case PROTO_SYNC_DESTROY:
	case PROTO_SYNC_SIGNAL: case PROTO_SYNC_RESET: case PROTO_SYNC_QUERY:
	case PROTO_SYNC_EXPORT_FD: case PROTO_SYNC_IMPORT_FD:
	case PROTO_SYNC_WAIT:
		return serve_sync(rq);
	case PROTO_QUEUE_CREATE: case PROTO_QUEUE_DESTROY:
	case PROTO_QUEUE_SUBMIT: case PROTO_QUEUE_COMPLETED:
	case PROTO_QUEUE_ENGINE: case PROTO_QUEUE_WAIT: case PROTO_QUEUE_FAULT:
		return serve_queue(rq);
	case PROTO_SHADER_CREATE: case PROTO_SHADER_DESTROY:
	case PROTO_SHADER_BINARY_GET:
		return serve_shader(rq);
	}
	/* An op we do not know: the request cannot be parsed. */
	rq->rd.bad = true;
	return SWGPU_ERR_UNSUPPORTED;
}

/* SPDX-License-Identifier: MIT */
/*
 * Shared mode: swgpu.h on a daemon's device. Each call is one request
 * (client_conn.c); what never changes (sizes, types, ids, a shader's
 * properties) is kept in the client object and answered locally. BOs are
 * memfds the daemon created: the client maps the same pages, so mapped
 * memory needs no copies either way.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "remote/client.h"
#include "util/util.h"

struct rc_ctx {
	struct rc_obj o;
	uint32_t ctx_id;
	struct mirror_slot *mirror;  /* in the fast page, or NULL */
};

struct rc_bo {
	struct rc_obj o;
	uint64_t size;
	swgpu_heap heap;
	int fd;                      /* the memory */
	pthread_mutex_t lock;
	void *map;                   /* our mapping of fd, while maps > 0 */
	uint32_t maps;
};


struct rc_shader {
	struct rc_obj o;
	uint64_t code_va;
	swgpu_shader_properties props;
	bool has_key;
	uint8_t key[SWGPU_SHADER_BINARY_KEY_SIZE];
};

#define DEV(p) ((struct rc_dev *)(p))
#define OBJ(p) ((struct rc_obj *)(p))

/* Every live client object is on its device's list: device close frees
 * what the application left, as in process. */
void *
rc_obj_new(size_t size, struct rc_dev *d, uint32_t kind, uint64_t id)
{
	struct rc_obj *o = calloc(1, size);

	if (o) {
		o->tag = REMOTE_TAG;
		o->kind = kind;
		o->id = id;
		o->dev = d;
		pthread_mutex_lock(&d->objs_lock);
		o->next = d->objs;
		if (d->objs)
			d->objs->prev = o;
		d->objs = o;
		pthread_mutex_unlock(&d->objs_lock);
	}
	return o;
}

static void bo_free(struct rc_bo *b);

/* Off the list and freed (no request: the caller sent any). */
void
rc_obj_free(void *p)
{
	struct rc_obj *o = p;
	struct rc_dev *d = o->dev;

	pthread_mutex_lock(&d->objs_lock);
	if (o->prev)
		o->prev->next = o->next;
	else
		d->objs = o->next;
	if (o->next)
		o->next->prev = o->prev;
	pthread_mutex_unlock(&d->objs_lock);
	if (o->kind == PROTO_KIND_BO)
		bo_free(p);
	else
		free(o);
}

/* A call whose request is a list of u64s and whose reply is read by the
 * caller (rep_out NULL: must be empty). */
swgpu_result
rc_call_u64s(struct rc_dev *d, uint32_t op, const uint64_t *args,
             unsigned n, struct rc_reply *rep_out)
{
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;

	wire_wr_init(&w);
	for (unsigned i = 0; i < n; i++)
		wire_put_u64(&w, args[i]);
	r = rc_call(d, op, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	if (rep_out) {
		*rep_out = rep;
		return r;
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	return r;
}

/* One object id in, nothing out. */
swgpu_result
rc_call_id(const void *obj, uint32_t op)
{
	uint64_t id = OBJ(obj)->id;

	return rc_call_u64s(OBJ(obj)->dev, op, &id, 1, NULL);
}

/* One object id (and args) in, one u64 out (0 on error). */
static uint64_t
call_get_u64(struct rc_dev *d, uint32_t op, const uint64_t *args, unsigned n,
             swgpu_result *res)
{
	struct rc_reply rep;
	swgpu_result r = rc_call_u64s(d, op, args, n, &rep);
	uint64_t v = 0;

	if (r == SWGPU_OK)
		v = wire_get_u64(&rep.rd);
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (res)
		*res = r;
	return r == SWGPU_OK ? v : 0;
}

/* ---- device ---- */

swgpu_result
rc_device_open(const swgpu_config *cfg, swgpu_device **out)
{
	struct rc_dev *d = calloc(1, sizeof(*d));
	swgpu_result r;

	if (!d)
		return SWGPU_ERR_NO_HOST_MEMORY;
	d->tag = REMOTE_TAG;
	d->sock = -1;
	d->debug = cfg->debug;
	d->tracing = cfg->trace != NULL;
	pthread_mutex_init(&d->send_lock, NULL);
	pthread_mutex_init(&d->lock, NULL);
	pthread_mutex_init(&d->objs_lock, NULL);
	pthread_cond_init(&d->cond, NULL);
	r = rc_connect(d, cfg);
	if (r != SWGPU_OK) {
		rc_fast_close(d);
		pthread_mutex_destroy(&d->objs_lock);
		pthread_mutex_destroy(&d->send_lock);
		pthread_mutex_destroy(&d->lock);
		pthread_cond_destroy(&d->cond);
		free(d);
		return r;
	}
	rc_register(d);
	*out = (swgpu_device *)d;
	return SWGPU_OK;
}

void
rc_set_device_index(swgpu_device *dev, uint32_t index)
{
	DEV(dev)->info.device_index = index;
}

void
rc_device_close(swgpu_device *dev)
{
	struct rc_dev *d = DEV(dev);

	rc_unregister(d);
	rc_fast_quiesce(d);
	/* Everything of this device is gone in the daemon when the reply
	 * comes (its trace file complete, its memory back in the budget);
	 * EOF alone would clean up too, but later. */
	rc_call_u64s(d, PROTO_DEV_CLOSE, NULL, 0, NULL);
	rc_disconnect(d);
	if (d->debug)
		rc_fast_log_stats(d);
	rc_fast_close(d);
	/* The daemon destroyed them all; free our halves. */
	while (d->objs)
		rc_obj_free(d->objs);
	pthread_mutex_destroy(&d->objs_lock);
	pthread_mutex_destroy(&d->send_lock);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free(d);
}

void
rc_device_query_info(const swgpu_device *dev, swgpu_device_info *info)
{
	if (info)
		*info = DEV(dev)->info;
}

/* A call returning one struct copied as bytes. */
static swgpu_result
call_struct(struct rc_dev *d, uint32_t op, const uint64_t *args, unsigned n,
            void *out, size_t size)
{
	struct rc_reply rep;
	swgpu_result r = rc_call_u64s(d, op, args, n, &rep);

	if (r == SWGPU_OK)
		wire_get(&rep.rd, out, size);
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	return r;
}

swgpu_result
rc_engine_query_stats(const swgpu_device *dev, uint32_t engine,
                      swgpu_engine_stats *stats)
{
	uint64_t a = engine;

	if (!stats)
		return SWGPU_ERR_INVALID_ARG;
	return call_struct(DEV(dev), PROTO_DEV_ENGINE_STATS, &a, 1, stats,
	                   sizeof(*stats));
}

swgpu_result
rc_mem_query_stats(const swgpu_device *dev, swgpu_mem_stats *out)
{
	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	return call_struct(DEV(dev), PROTO_DEV_MEM_STATS, NULL, 0, out,
	                   sizeof(*out));
}

swgpu_result
rc_heap_budget(const swgpu_device *dev, swgpu_heap heap, uint64_t *usage,
               uint64_t *budget)
{
	uint64_t a = (uint64_t)heap, v[2] = { 0, 0 };
	swgpu_result r = call_struct(DEV(dev), PROTO_DEV_HEAP_BUDGET, &a, 1, v,
	                             sizeof(v));

	if (usage)
		*usage = v[0];
	if (budget)
		*budget = v[1];
	return r;
}

uint64_t
rc_heap_usage(const swgpu_device *dev, swgpu_heap heap)
{
	uint64_t usage = 0;

	rc_heap_budget(dev, heap, &usage, NULL);
	return usage;
}

swgpu_result
rc_bar_budget(const swgpu_device *dev, uint64_t *usage, uint64_t *budget)
{
	uint64_t v[2] = { 0, 0 };
	swgpu_result r = call_struct(DEV(dev), PROTO_DEV_BAR_BUDGET, NULL, 0,
	                             v, sizeof(v));

	if (usage)
		*usage = v[0];
	if (budget)
		*budget = v[1];
	return r;
}

uint64_t
rc_bar_usage(const swgpu_device *dev)
{
	uint64_t usage = 0;

	rc_bar_budget(dev, &usage, NULL);
	return usage;
}

uint64_t
rc_debug_trim(swgpu_device *dev)
{
	return call_get_u64(DEV(dev), PROTO_DEV_TRIM, NULL, 0, NULL);
}

void
rc_device_dump(swgpu_device *dev, FILE *out)
{
	struct rc_dev *d = DEV(dev);
	struct rc_reply rep;
	swgpu_result r = rc_call_u64s(d, PROTO_DEV_DUMP, NULL, 0, &rep);
	const char *text = r == SWGPU_OK ? wire_get_str(&rep.rd) : NULL;

	if (text && out)
		fputs(text, out);
	else if (out)
		fprintf(out, "swgpu: no state dump from swgpud: %s\n",
		        swgpu_result_str(r));
	rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
}

uint32_t
rc_trace_track(swgpu_device *dev, const char *name)
{
	struct rc_dev *d = DEV(dev);
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;
	uint32_t track = 0;

	if (!d->tracing)
		return 0;
	wire_wr_init(&w);
	wire_put_str(&w, name);
	r = rc_call(d, PROTO_DEV_TRACE_TRACK, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	if (r == SWGPU_OK)
		track = wire_get_u32(&rep.rd);
	rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	return track;
}

void
rc_trace_event(swgpu_device *dev, uint32_t track, const char *cat,
               const char *name, uint64_t start_ns, uint64_t end_ns,
               bool instant, const char *args_json)
{
	struct rc_dev *d = DEV(dev);
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;

	if (!d->tracing || !track)
		return;
	wire_wr_init(&w);
	wire_put_u32(&w, track);
	wire_put_u32(&w, instant);
	wire_put_str(&w, cat);
	wire_put_str(&w, name);
	wire_put_u64(&w, start_ns);
	wire_put_u64(&w, end_ns);
	wire_put_str(&w, args_json);
	r = rc_call(d, PROTO_DEV_TRACE_EVENT, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
}

/* ---- contexts and VA ---- */

swgpu_result
rc_context_create(swgpu_device *dev, swgpu_context **out)
{
	struct rc_dev *d = DEV(dev);
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id;
	uint32_t ctx_id, slot;
	struct rc_ctx *c;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	r = rc_call_u64s(d, PROTO_CTX_CREATE, NULL, 0, &rep);
	id = r == SWGPU_OK ? wire_get_u64(&rep.rd) : 0;
	ctx_id = r == SWGPU_OK ? wire_get_u32(&rep.rd) : 0;
	slot = r == SWGPU_OK ? wire_get_u32(&rep.rd) : FAST_NO_SLOT;
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK)
		return r;
	c = rc_obj_new(sizeof(*c), d, PROTO_KIND_CTX, id);
	if (!c) {
		rc_call_u64s(d, PROTO_CTX_DESTROY, &id, 1, NULL);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	c->ctx_id = ctx_id;
	c->mirror = rc_fast_slot(d, PROTO_KIND_CTX, slot);
	*out = (swgpu_context *)c;
	return SWGPU_OK;
}

void
rc_context_destroy(swgpu_context *ctx)
{
	rc_call_id(ctx, PROTO_CTX_DESTROY);
	rc_obj_free(ctx);
}

swgpu_context_state
rc_context_query_state(const swgpu_context *ctx, swgpu_fault_info *fault)
{
	struct rc_dev *d = OBJ(ctx)->dev;
	const struct rc_ctx *c = (const struct rc_ctx *)ctx;
	uint64_t id = OBJ(ctx)->id;
	struct rc_reply rep;
	swgpu_result r;
	uint32_t state = SWGPU_CONTEXT_LOST;
	swgpu_fault_info f;

	/* A context that is fine needs no request (the ICD asks at every
	 * submit); a lost one's fault record comes from the daemon. */
	if (rc_fast_context_ok(d, c->mirror)) {
		if (fault)
			memset(fault, 0, sizeof(*fault));
		return SWGPU_CONTEXT_OK;
	}
	r = rc_call_u64s(d, PROTO_CTX_STATE, &id, 1, &rep);
	memset(&f, 0, sizeof(f));
	if (r == SWGPU_OK) {
		state = wire_get_u32(&rep.rd);
		wire_get(&rep.rd, &f, sizeof(f));
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK) {
		/* The daemon is gone: so is everything of this context. */
		state = SWGPU_CONTEXT_LOST;
		memset(&f, 0, sizeof(f));
		snprintf(f.message, sizeof(f.message),
		         "the connection to swgpud was lost");
	}
	if (fault)
		*fault = f;
	return (swgpu_context_state)state;
}

uint32_t
rc_context_id(const swgpu_context *ctx)
{
	return ((const struct rc_ctx *)ctx)->ctx_id;
}

bool
rc_same_dev(const void *a, const void *b)
{
	return remote_is(a) && remote_is(b) && OBJ(a)->dev == OBJ(b)->dev;
}

swgpu_result
rc_va_map(swgpu_context *ctx, swgpu_bo *bo, uint64_t bo_offset,
          uint64_t size, uint32_t va_flags, uint64_t *va_out)
{
	uint64_t a[5];
	swgpu_result r;
	uint64_t va;

	if (!rc_same_dev(ctx, bo) || OBJ(bo)->kind != PROTO_KIND_BO || !va_out)
		return SWGPU_ERR(OBJ(ctx)->dev->debug, SWGPU_ERR_INVALID_ARG,
		                 "BO of another device, or NULL argument");
	a[0] = OBJ(ctx)->id;
	a[1] = OBJ(bo)->id;
	a[2] = bo_offset;
	a[3] = size;
	a[4] = va_flags;
	va = call_get_u64(OBJ(ctx)->dev, PROTO_VA_MAP, a, 5, &r);
	*va_out = va;
	return r;
}

swgpu_result
rc_va_unmap(swgpu_context *ctx, uint64_t va)
{
	uint64_t a[2] = { OBJ(ctx)->id, va };

	return rc_call_u64s(OBJ(ctx)->dev, PROTO_VA_UNMAP, a, 2, NULL);
}

/* ---- BOs ---- */

static swgpu_result
bo_finish(struct rc_dev *d, uint64_t id, int fd, uint64_t size,
          swgpu_heap heap, swgpu_bo **out)
{
	struct rc_bo *b = rc_obj_new(sizeof(*b), d, PROTO_KIND_BO, id);

	if (!b) {
		close(fd);
		rc_call_u64s(d, PROTO_BO_DESTROY, &id, 1, NULL);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	b->size = size;
	b->heap = heap;
	b->fd = fd;
	pthread_mutex_init(&b->lock, NULL);
	*out = (swgpu_bo *)b;
	return SWGPU_OK;
}

swgpu_result
rc_bo_create(swgpu_device *dev, uint64_t size, swgpu_heap heap,
             uint32_t flags, swgpu_bo **out)
{
	struct rc_dev *d = DEV(dev);
	uint64_t a[3] = { size, (uint64_t)heap, flags };
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id = 0, real_size = 0;
	int fd = -1;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	r = rc_call_u64s(d, PROTO_BO_CREATE, a, 3, &rep);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		real_size = wire_get_u64(&rep.rd);
		fd = rep.fds[0];
		rep.fds[0] = -1;
		if (fd < 0)
			rep.rd.bad = true;
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	return bo_finish(d, id, fd, real_size, heap, out);
}

swgpu_result
rc_bo_import_fd(swgpu_device *dev, int fd, uint64_t size, swgpu_heap heap,
                uint32_t flags, swgpu_bo **out)
{
	struct rc_dev *d = DEV(dev);
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id = 0, real_size = 0;
	int mine;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	if (fd < 0)
		return SWGPU_ERR(d->debug, SWGPU_ERR_BAD_HANDLE, "fd %d", fd);
	wire_wr_init(&w);
	wire_put_u64(&w, size);
	wire_put_u32(&w, (uint32_t)heap);
	wire_put_u32(&w, flags);
	r = rc_call(d, PROTO_BO_IMPORT_FD, &w, &fd, 1, &rep);
	wire_wr_fini(&w);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		real_size = wire_get_u64(&rep.rd);
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK)
		return r;
	/* The daemon checked fd; our mapping needs a descriptor of our own
	 * (the import does not take the caller's). */
	mine = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (mine < 0) {
		rc_call_u64s(d, PROTO_BO_DESTROY, &id, 1, NULL);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	return bo_finish(d, id, mine, real_size, heap, out);
}

static void
bo_free(struct rc_bo *b)
{
	if (b->map)
		munmap(b->map, b->size);
	close(b->fd);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

void
rc_bo_destroy(swgpu_bo *bo)
{
	rc_call_id(bo, PROTO_BO_DESTROY);
	rc_obj_free(bo);
}

swgpu_result
rc_bo_export_fd(swgpu_bo *bo, int *fd_out)
{
	struct rc_bo *b = (struct rc_bo *)bo;
	int fd;

	if (!fd_out)
		return SWGPU_ERR_INVALID_ARG;
	*fd_out = -1;
	/* The memfd is the memory; the daemon created it shareable. */
	fd = fcntl(b->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return SWGPU_ERR(b->o.dev->debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "dup of the BO's memfd failed");
	*fd_out = fd;
	return SWGPU_OK;
}

uint64_t
rc_bo_size(const swgpu_bo *bo)
{
	return ((const struct rc_bo *)bo)->size;
}

swgpu_heap
rc_bo_heap(const swgpu_bo *bo)
{
	return ((const struct rc_bo *)bo)->heap;
}

swgpu_result
rc_bo_map(swgpu_bo *bo, void **ptr)
{
	struct rc_bo *b = (struct rc_bo *)bo;
	swgpu_result r;

	if (!ptr)
		return SWGPU_ERR_INVALID_ARG;
	*ptr = NULL;
	/* The daemon decides whether the BO is mappable and counts maps
	 * (an offered BO must not be mapped). */
	r = rc_call_id(bo, PROTO_BO_MAP);
	if (r != SWGPU_OK)
		return r;
	pthread_mutex_lock(&b->lock);
	if (!b->map) {
		void *p = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
		               MAP_SHARED, b->fd, 0);

		b->map = p == MAP_FAILED ? NULL : p;
	}
	if (b->map)
		b->maps++;
	*ptr = b->map;
	pthread_mutex_unlock(&b->lock);
	if (!*ptr) {
		rc_call_id(bo, PROTO_BO_UNMAP);
		return SWGPU_ERR(b->o.dev->debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "mmap of a %llu-byte BO failed",
		                 (unsigned long long)b->size);
	}
	return SWGPU_OK;
}

void
rc_bo_unmap(swgpu_bo *bo)
{
	struct rc_bo *b = (struct rc_bo *)bo;

	pthread_mutex_lock(&b->lock);
	/* The mapping stays until destroy: pointers handed out earlier
	 * stay valid as in process, and a re-map costs nothing. */
	if (b->maps)
		b->maps--;
	pthread_mutex_unlock(&b->lock);
	rc_call_id(bo, PROTO_BO_UNMAP);
}

swgpu_result
rc_bo_offer(swgpu_bo *bo, swgpu_offer_priority priority)
{
	uint64_t a[2] = { OBJ(bo)->id, (uint64_t)priority };

	return rc_call_u64s(OBJ(bo)->dev, PROTO_BO_OFFER, a, 2, NULL);
}

swgpu_result
rc_bo_reclaim(swgpu_bo *bo)
{
	return rc_call_id(bo, PROTO_BO_RECLAIM);
}

swgpu_result
rc_bo_set_priority(swgpu_bo *bo, uint32_t priority)
{
	uint64_t a[2] = { OBJ(bo)->id, priority };

	return rc_call_u64s(OBJ(bo)->dev, PROTO_BO_SET_PRIORITY, a, 2, NULL);
}

swgpu_heap
rc_bo_location(const swgpu_bo *bo)
{
	uint64_t id = OBJ(bo)->id;
	swgpu_result r;
	uint64_t v = call_get_u64(OBJ(bo)->dev, PROTO_BO_LOCATION, &id, 1, &r);

	return r == SWGPU_OK ? (swgpu_heap)v : rc_bo_heap(bo);
}

/* ---- queues ---- */

swgpu_result
rc_queue_create(swgpu_context *ctx, swgpu_engine_class cls,
                uint32_t engine_index, swgpu_priority priority,
                swgpu_queue **out)
{
	struct rc_dev *d = OBJ(ctx)->dev;
	uint64_t a[4] = { OBJ(ctx)->id, (uint64_t)cls, engine_index,
	                  (uint64_t)priority };
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id = 0;
	uint32_t qid = 0, slot = FAST_NO_SLOT;
	struct rc_queue *q;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	r = rc_call_u64s(d, PROTO_QUEUE_CREATE, a, 4, &rep);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		qid = wire_get_u32(&rep.rd);
		slot = wire_get_u32(&rep.rd);
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK)
		return r;
	q = rc_obj_new(sizeof(*q), d, PROTO_KIND_QUEUE, id);
	if (!q) {
		rc_call_u64s(d, PROTO_QUEUE_DESTROY, &id, 1, NULL);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	q->queue_id = qid;
	q->mirror = rc_fast_slot(d, PROTO_KIND_QUEUE, slot);
	*out = (swgpu_queue *)q;
	return SWGPU_OK;
}

void
rc_queue_destroy(swgpu_queue *q)
{
	rc_call_id(q, PROTO_QUEUE_DESTROY);
	rc_obj_free(q);
}

uint32_t
rc_queue_id(const swgpu_queue *q)
{
	return ((const struct rc_queue *)q)->queue_id;
}

uint32_t
rc_queue_engine(const swgpu_queue *q)
{
	uint64_t id = OBJ(q)->id;

	return (uint32_t)call_get_u64(OBJ(q)->dev, PROTO_QUEUE_ENGINE, &id, 1,
	                              NULL);
}

static bool
put_sync_points(struct wire_wr *w, struct rc_dev *d,
                const swgpu_sync_point *pts, uint32_t n)
{
	if (n > PROTO_MAX_SYNC_POINTS)
		return false;
	wire_put_u32(w, n);
	for (uint32_t i = 0; i < n; i++) {
		if (!remote_is(pts[i].obj) || OBJ(pts[i].obj)->dev != d ||
		    OBJ(pts[i].obj)->kind != PROTO_KIND_SYNC)
			return false;
		wire_put_u64(w, OBJ(pts[i].obj)->id);
		wire_put_u64(w, pts[i].value);
		wire_put_u32(w, pts[i].flags);
	}
	return true;
}

swgpu_result
rc_submit(swgpu_queue *q, const swgpu_submit_info *info, uint64_t *seqno_out)
{
	struct rc_dev *d = OBJ(q)->dev;
	struct wire_wr w;
	swgpu_result r;
	uint64_t seqno;
	bool ok;

	if (!info || (info->ib_count && !info->ibs) ||
	    (info->wait_count && !info->waits) ||
	    (info->signal_count && !info->signals))
		return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
		                 "NULL submit array");
	wire_wr_init(&w);
	wire_put_u64(&w, OBJ(q)->id);
	wire_put_u32(&w, info->ib_count);
	wire_put(&w, info->ibs, sizeof(*info->ibs) * info->ib_count);
	ok = put_sync_points(&w, d, info->waits, info->wait_count) &&
	     put_sync_points(&w, d, info->signals, info->signal_count);
	if (!ok) {
		wire_wr_fini(&w);
		return SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG,
		                 "sync object of another device, or more than "
		                 "%u waits or signals (shared mode)",
		                 PROTO_MAX_SYNC_POINTS);
	}
	rc_fast_submit_lock(d);
	r = rc_fast_submit((struct rc_queue *)q, info, &w, &seqno);
	if (r == RC_FAST_NOT_TAKEN) {
		struct rc_reply rep;

		r = rc_call(d, PROTO_QUEUE_SUBMIT, &w, NULL, 0, &rep);
		seqno = r == SWGPU_OK ? wire_get_u64(&rep.rd) : 0;
		r = rc_reply_check(d, &rep, r);
		rc_reply_fini(&rep);
		if (r == SWGPU_OK)
			atomic_store(&((struct rc_queue *)q)->submitted,
			             seqno);
	}
	rc_fast_submit_unlock(d);
	wire_wr_fini(&w);
	if (r == SWGPU_OK && seqno_out)
		*seqno_out = seqno;
	return r;
}

uint64_t
rc_queue_completed(const swgpu_queue *q)
{
	const struct rc_queue *rq = (const struct rc_queue *)q;
	uint64_t id = OBJ(q)->id;

	if (rq->mirror) {
		atomic_fetch_add_explicit(&rq->o.dev->local_queries, 1,
		                          memory_order_relaxed);
		return atomic_load_explicit(&rq->mirror->value,
		                            memory_order_acquire);
	}
	return call_get_u64(OBJ(q)->dev, PROTO_QUEUE_COMPLETED, &id, 1, NULL);
}

swgpu_result
rc_queue_wait(swgpu_queue *q, uint64_t seqno, uint64_t deadline_ns)
{
	uint64_t a[3] = { OBJ(q)->id, seqno, deadline_ns };
	swgpu_result r = rc_fast_queue_wait((struct rc_queue *)q, seqno,
	                                    deadline_ns);

	if (r != RC_FAST_NOT_TAKEN)
		return r;
	return rc_call_u64s(OBJ(q)->dev, PROTO_QUEUE_WAIT, a, 3, NULL);
}

swgpu_result
rc_debug_inject_fault(swgpu_queue *q, uint64_t job_seqno,
                      swgpu_fault_kind kind)
{
	uint64_t a[3] = { OBJ(q)->id, job_seqno, (uint64_t)kind };

	return rc_call_u64s(OBJ(q)->dev, PROTO_QUEUE_FAULT, a, 3, NULL);
}

/* ---- shaders ---- */

/* The daemon's question: the application cache's blob for a key. */
static void
lookup_answer(void *user, struct wire_rd *q, struct wire_wr *a)
{
	const swgpu_shader_info *info = user;
	const uint8_t *key = wire_get_ptr(q, SWGPU_SHADER_BINARY_KEY_SIZE);
	const void *blob = NULL;
	size_t size = 0;

	if (key && info->binary_lookup)
		blob = info->binary_lookup(info->binary_user, key, &size);
	if (blob && size)
		wire_put(a, blob, size);
}

swgpu_result
rc_shader_create(swgpu_context *ctx, const swgpu_shader_info *info,
                 swgpu_shader **out)
{
	struct rc_dev *d = OBJ(ctx)->dev;
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;
	struct rc_shader *s;
	uint64_t id = 0;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	if (!info || (info->code_size && !info->code) ||
	    (info->spec_constant_count && !info->spec_constants) ||
	    (info->binding_count && !info->bindings))
		return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
		                 "NULL shader info array");
	s = rc_obj_new(sizeof(*s), d, PROTO_KIND_SHADER, 0);
	if (!s)
		return SWGPU_ERR_NO_HOST_MEMORY;
	wire_wr_init(&w);
	wire_put_u64(&w, OBJ(ctx)->id);
	wire_put_u32(&w, (uint32_t)info->stage);
	wire_put_u32(&w, info->subgroup_size);
	wire_put_u32(&w, info->push_constant_size);
	wire_put_str(&w, info->entry_point);
	wire_put_u64(&w, info->code_size);
	wire_put(&w, info->code, info->code_size);
	wire_put_u32(&w, info->spec_constant_count);
	wire_put(&w, info->spec_constants,
	         sizeof(*info->spec_constants) * info->spec_constant_count);
	wire_put_u32(&w, info->binding_count);
	wire_put(&w, info->bindings,
	         sizeof(*info->bindings) * info->binding_count);
	/* With an application cache the daemon asks for the blob of the
	 * key it computed (lookup_answer). */
	wire_put_u32(&w, info->binary_lookup != NULL);
	r = rc_call_answering(d, PROTO_SHADER_CREATE, &w, NULL, 0, &rep,
	                      lookup_answer, (void *)info);
	wire_wr_fini(&w);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		s->code_va = wire_get_u64(&rep.rd);
		wire_get(&rep.rd, &s->props, sizeof(s->props));
		s->has_key = wire_get_u32(&rep.rd);
		wire_get(&rep.rd, s->key, sizeof(s->key));
	} else if (rep.h.size) {
		const char *msg = wire_get_str(&rep.rd);

		if (msg && info->error && info->error_size)
			snprintf(info->error, info->error_size, "%s", msg);
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK) {
		rc_obj_free(s);
		return r;
	}
	s->o.id = id;
	*out = (swgpu_shader *)s;
	return SWGPU_OK;
}

void
rc_shader_destroy(swgpu_shader *shader)
{
	rc_call_id(shader, PROTO_SHADER_DESTROY);
	rc_obj_free(shader);
}

uint64_t
rc_shader_code_va(const swgpu_shader *shader)
{
	return ((const struct rc_shader *)shader)->code_va;
}

void
rc_shader_query_properties(const swgpu_shader *shader,
                           swgpu_shader_properties *props)
{
	if (props)
		*props = ((const struct rc_shader *)shader)->props;
}

bool
rc_shader_binary_key(const swgpu_shader *shader, uint8_t key[16])
{
	const struct rc_shader *s = (const struct rc_shader *)shader;

	if (s->has_key && key)
		memcpy(key, s->key, sizeof(s->key));
	return s->has_key;
}

bool
rc_shader_binary_get(const uint8_t key[16], size_t *size, void **blob)
{
	struct rc_dev *d = rc_any_device();
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;
	uint64_t n;
	const void *p;

	*blob = NULL;
	if (!d)
		return false;
	wire_wr_init(&w);
	wire_put(&w, key, SWGPU_SHADER_BINARY_KEY_SIZE);
	r = rc_call(d, PROTO_SHADER_BINARY_GET, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	if (r == SWGPU_OK) {
		n = wire_get_u64(&rep.rd);
		p = wire_get_ptr(&rep.rd, n);
		if (p && n && rep.rd.p == rep.rd.end) {
			*blob = malloc(n);
			if (*blob) {
				memcpy(*blob, p, n);
				*size = n;
			}
		}
	}
	rc_reply_fini(&rep);
	return true;
}

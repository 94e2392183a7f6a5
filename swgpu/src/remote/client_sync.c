/* SPDX-License-Identifier: MIT */
/*
 * Shared mode: swgpu.h's sync objects on a daemon's device (client_api.c
 * has the rest). Timelines only this client sees are signalled through
 * the submit ring and answered from their mirror (client_fast.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/client.h"
#include "util/util.h"

#define DEV(p) ((struct rc_dev *)(p))
#define OBJ(p) ((struct rc_obj *)(p))

/* ---- sync objects ---- */

static swgpu_result
sync_finish(struct rc_dev *d, uint64_t id, uint32_t slot,
            swgpu_syncobj_type type, swgpu_syncobj **out)
{
	struct rc_sync *s = rc_obj_new(sizeof(*s), d, PROTO_KIND_SYNC, id);

	if (!s) {
		rc_call_u64s(d, PROTO_SYNC_DESTROY, &id, 1, NULL);
		return SWGPU_ERR_NO_HOST_MEMORY;
	}
	s->type = type;
	s->mirror = rc_fast_slot(d, PROTO_KIND_SYNC, slot);
	*out = (swgpu_syncobj *)s;
	return SWGPU_OK;
}

swgpu_result
rc_syncobj_create(swgpu_device *dev, swgpu_syncobj_type type,
                  uint64_t initial_value, swgpu_syncobj **out)
{
	uint64_t a[2] = { (uint64_t)type, initial_value };
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id = 0;
	uint32_t slot = FAST_NO_SLOT;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	r = rc_call_u64s(DEV(dev), PROTO_SYNC_CREATE, a, 2, &rep);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		slot = wire_get_u32(&rep.rd);
	}
	r = rc_reply_check(DEV(dev), &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK)
		return r;
	return sync_finish(DEV(dev), id, slot, type, out);
}

void
rc_syncobj_destroy(swgpu_syncobj *obj)
{
	rc_call_id(obj, PROTO_SYNC_DESTROY);
	rc_obj_free(obj);
}

swgpu_syncobj_type
rc_syncobj_get_type(const swgpu_syncobj *obj)
{
	return ((const struct rc_sync *)obj)->type;
}

swgpu_result
rc_syncobj_signal(swgpu_syncobj *obj, uint64_t value)
{
	struct rc_dev *d = OBJ(obj)->dev;
	uint64_t a[2] = { OBJ(obj)->id, value };
	swgpu_result r;

	/* The submit lock: one sequence with the ring's records, and the
	 * rewind check and the record as one step. */
	rc_fast_submit_lock(d);
	r = rc_fast_sync_signal((struct rc_sync *)obj, value);
	if (r == RC_FAST_NOT_TAKEN)
		r = rc_call_u64s(d, PROTO_SYNC_SIGNAL, a, 2, NULL);
	rc_fast_submit_unlock(d);
	return r;
}

swgpu_result
rc_syncobj_reset(swgpu_syncobj *obj)
{
	struct rc_dev *d = OBJ(obj)->dev;
	swgpu_result r;

	/* The submit lock: one sequence with the ring's records. */
	rc_fast_submit_lock(d);
	r = rc_fast_sync_reset((struct rc_sync *)obj);
	rc_fast_submit_unlock(d);
	if (r == RC_FAST_NOT_TAKEN)
		r = rc_call_id(obj, PROTO_SYNC_RESET);
	return r;
}

swgpu_result
rc_syncobj_query(const swgpu_syncobj *obj, uint64_t *value)
{
	struct rc_dev *d = OBJ(obj)->dev;
	uint64_t id = OBJ(obj)->id;
	struct rc_reply rep;
	swgpu_result r;

	if (!value)
		return SWGPU_ERR_INVALID_ARG;
	r = rc_fast_sync_query((const struct rc_sync *)obj, value);
	if (r != RC_FAST_NOT_TAKEN)
		return r;
	/* The value comes with CONTEXT_LOST too (a failed payload). */
	r = rc_call_u64s(d, PROTO_SYNC_QUERY, &id, 1, &rep);
	if (rep.h.size == sizeof(uint64_t))
		*value = wire_get_u64(&rep.rd);
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	return r;
}

swgpu_result
rc_syncobj_export_fd(swgpu_syncobj *obj, int *fd_out)
{
	struct rc_dev *d = OBJ(obj)->dev;
	struct rc_reply rep;
	uint64_t id = OBJ(obj)->id;
	swgpu_result r;

	if (!fd_out)
		return SWGPU_ERR_INVALID_ARG;
	*fd_out = -1;
	r = rc_call_u64s(d, PROTO_SYNC_EXPORT_FD, &id, 1, &rep);
	if (r == SWGPU_OK) {
		*fd_out = rep.fds[0];
		rep.fds[0] = -1;
		if (*fd_out < 0)
			rep.rd.bad = true;
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r == SWGPU_OK)
		atomic_store(&((struct rc_sync *)obj)->shared, true);
	if (r != SWGPU_OK && *fd_out >= 0) {
		close(*fd_out);
		*fd_out = -1;
	}
	return r;
}

swgpu_result
rc_syncobj_import_fd(swgpu_device *dev, int fd, swgpu_syncobj **out)
{
	struct rc_dev *d = DEV(dev);
	struct rc_reply rep;
	swgpu_result r;
	uint64_t id = 0;
	uint32_t type = 0, slot = FAST_NO_SLOT;

	if (!out)
		return SWGPU_ERR_INVALID_ARG;
	*out = NULL;
	if (fd < 0)
		return SWGPU_ERR(d->debug, SWGPU_ERR_BAD_HANDLE, "fd %d", fd);
	r = rc_call(d, PROTO_SYNC_IMPORT_FD, NULL, &fd, 1, &rep);
	if (r == SWGPU_OK) {
		id = wire_get_u64(&rep.rd);
		slot = wire_get_u32(&rep.rd);
		type = wire_get_u32(&rep.rd);
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r != SWGPU_OK)
		return r;
	r = sync_finish(d, id, slot, (swgpu_syncobj_type)type, out);
	if (r == SWGPU_OK)
		atomic_store(&((struct rc_sync *)*out)->shared, true);
	return r;
}

swgpu_result
rc_syncobj_wait(swgpu_syncobj *const *objs, const uint64_t *values,
                uint32_t count, uint32_t wait_flags, uint64_t deadline_ns,
                uint32_t *first_signaled)
{
	struct rc_dev *d = OBJ(objs[0])->dev;
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;
	uint32_t first = 0;

	if (count == 0 || count > PROTO_MAX_SYNC_POINTS)
		return SWGPU_ERR(true, SWGPU_ERR_INVALID_ARG,
		                 "%u sync objects in one wait (shared mode: "
		                 "1..%u)", count, PROTO_MAX_SYNC_POINTS);
	for (uint32_t i = 1; i < count; i++)
		if (!rc_same_dev(objs[0], objs[i]))
			return SWGPU_ERR(d->debug, SWGPU_ERR_INVALID_ARG,
			                 "sync objects of different devices");
	r = rc_fast_sync_wait(d, objs, values, count, wait_flags, deadline_ns,
	                      first_signaled);
	if (r != RC_FAST_NOT_TAKEN)
		return r;
	wire_wr_init(&w);
	wire_put_u32(&w, count);
	wire_put_u32(&w, wait_flags);
	wire_put_u64(&w, deadline_ns);
	wire_put_u32(&w, values != NULL);
	for (uint32_t i = 0; i < count; i++) {
		wire_put_u64(&w, OBJ(objs[i])->id);
		wire_put_u64(&w, values ? values[i] : 0);
	}
	r = rc_call(d, PROTO_SYNC_WAIT, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	if (r == SWGPU_OK)
		first = wire_get_u32(&rep.rd);
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	if (r == SWGPU_OK && first_signaled)
		*first_signaled = first;
	return r;
}

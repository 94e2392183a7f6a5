/* SPDX-License-Identifier: MIT */
/*
 * Shared mode, client side (docs/ARCHITECTURE.md, "Shared mode"): with
 * SWGPU_MODE=shared, swgpu_device_open connects to swgpud (starting it
 * when none runs) and every object it hands out is a remote one: a small
 * client struct naming the daemon's object by id. The public functions in
 * kmd/ and hw/shader/ check remote_is() first and forward to the rc_*
 * functions here; the in-process structs start with a zero tag so the
 * check is one load.
 */
#ifndef SWGPU_REMOTE_H
#define SWGPU_REMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <swgpu/swgpu.h>

/* First member of every object swgpu.h hands out: 0 in process,
 * REMOTE_TAG for a client object of a daemon's. */
#define REMOTE_TAG 0x74657273u /* "sret" */

static inline bool
remote_is(const void *obj)
{
	return obj && *(const uint32_t *)obj == REMOTE_TAG;
}

/* SWGPU_MODE: "inproc" (default) or "shared". */
bool remote_mode_shared(void);

/* Open a device in the daemon for cfg; SWGPU_ERR_UNSUPPORTED when the
 * daemon cannot be reached or started (the caller falls back). */
swgpu_result rc_device_open(const swgpu_config *cfg, swgpu_device **out);
void rc_device_close(swgpu_device *dev);
/* The process-wide order of opening (swgpu_device_info.device_index). */
void rc_set_device_index(swgpu_device *dev, uint32_t index);
void rc_device_query_info(const swgpu_device *dev, swgpu_device_info *info);
swgpu_result rc_engine_query_stats(const swgpu_device *dev, uint32_t engine,
                                   swgpu_engine_stats *stats);
void rc_device_dump(swgpu_device *dev, FILE *out);
uint64_t rc_heap_usage(const swgpu_device *dev, swgpu_heap heap);
swgpu_result rc_heap_budget(const swgpu_device *dev, swgpu_heap heap,
                            uint64_t *usage, uint64_t *budget);
uint64_t rc_bar_usage(const swgpu_device *dev);
swgpu_result rc_bar_budget(const swgpu_device *dev, uint64_t *usage,
                           uint64_t *budget);
swgpu_result rc_mem_query_stats(const swgpu_device *dev,
                                swgpu_mem_stats *out);
uint64_t rc_debug_trim(swgpu_device *dev);
uint32_t rc_trace_track(swgpu_device *dev, const char *name);
void rc_trace_event(swgpu_device *dev, uint32_t track, const char *cat,
                    const char *name, uint64_t start_ns, uint64_t end_ns,
                    bool instant, const char *args_json);

swgpu_result rc_context_create(swgpu_device *dev, swgpu_context **out);
void rc_context_destroy(swgpu_context *ctx);
swgpu_context_state rc_context_query_state(const swgpu_context *ctx,
                                           swgpu_fault_info *fault);
uint32_t rc_context_id(const swgpu_context *ctx);
swgpu_result rc_va_map(swgpu_context *ctx, swgpu_bo *bo, uint64_t bo_offset,
                       uint64_t size, uint32_t va_flags, uint64_t *va_out);
swgpu_result rc_va_unmap(swgpu_context *ctx, uint64_t va);

swgpu_result rc_bo_create(swgpu_device *dev, uint64_t size, swgpu_heap heap,
                          uint32_t flags, swgpu_bo **out);
swgpu_result rc_bo_import_fd(swgpu_device *dev, int fd, uint64_t size,
                             swgpu_heap heap, uint32_t flags,
                             swgpu_bo **out);
void rc_bo_destroy(swgpu_bo *bo);
swgpu_result rc_bo_export_fd(swgpu_bo *bo, int *fd_out);
uint64_t rc_bo_size(const swgpu_bo *bo);
swgpu_heap rc_bo_heap(const swgpu_bo *bo);
swgpu_result rc_bo_map(swgpu_bo *bo, void **ptr);
void rc_bo_unmap(swgpu_bo *bo);
swgpu_result rc_bo_offer(swgpu_bo *bo, swgpu_offer_priority priority);
swgpu_result rc_bo_reclaim(swgpu_bo *bo);
swgpu_result rc_bo_set_priority(swgpu_bo *bo, uint32_t priority);
swgpu_heap rc_bo_location(const swgpu_bo *bo);

swgpu_result rc_syncobj_create(swgpu_device *dev, swgpu_syncobj_type type,
                               uint64_t initial_value, swgpu_syncobj **out);
void rc_syncobj_destroy(swgpu_syncobj *obj);
swgpu_syncobj_type rc_syncobj_get_type(const swgpu_syncobj *obj);
swgpu_result rc_syncobj_signal(swgpu_syncobj *obj, uint64_t value);
swgpu_result rc_syncobj_reset(swgpu_syncobj *obj);
swgpu_result rc_syncobj_query(const swgpu_syncobj *obj, uint64_t *value);
swgpu_result rc_syncobj_export_fd(swgpu_syncobj *obj, int *fd_out);
swgpu_result rc_syncobj_import_fd(swgpu_device *dev, int fd,
                                  swgpu_syncobj **out);
swgpu_result rc_syncobj_wait(swgpu_syncobj *const *objs,
                             const uint64_t *values, uint32_t count,
                             uint32_t wait_flags, uint64_t deadline_ns,
                             uint32_t *first_signaled);

swgpu_result rc_queue_create(swgpu_context *ctx, swgpu_engine_class cls,
                             uint32_t engine_index, swgpu_priority priority,
                             swgpu_queue **out);
void rc_queue_destroy(swgpu_queue *q);
uint32_t rc_queue_id(const swgpu_queue *q);
uint32_t rc_queue_engine(const swgpu_queue *q);
swgpu_result rc_submit(swgpu_queue *q, const swgpu_submit_info *info,
                       uint64_t *seqno_out);
uint64_t rc_queue_completed(const swgpu_queue *q);
swgpu_result rc_queue_wait(swgpu_queue *q, uint64_t seqno,
                           uint64_t deadline_ns);
swgpu_result rc_debug_inject_fault(swgpu_queue *q, uint64_t job_seqno,
                                   swgpu_fault_kind kind);

swgpu_result rc_shader_create(swgpu_context *ctx,
                              const swgpu_shader_info *info,
                              swgpu_shader **out);
void rc_shader_destroy(swgpu_shader *shader);
uint64_t rc_shader_code_va(const swgpu_shader *shader);
void rc_shader_query_properties(const swgpu_shader *shader,
                                swgpu_shader_properties *props);
bool rc_shader_binary_key(const swgpu_shader *shader, uint8_t key[16]);
/* The blob from the daemon of any remote device open in this process;
 * false (and *blob NULL) when none is open. */
bool rc_shader_binary_get(const uint8_t key[16], size_t *size, void **blob);

#endif

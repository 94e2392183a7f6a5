/* SPDX-License-Identifier: MIT */
/*
 * swgpud's GPUs: one swgpu device per device configuration its clients
 * ask for (engine counts, heap sizes, timeouts, ... as bytes on the
 * wire, and the client's device ordinal). Every client of the usual configuration shares one GPU: one
 * scheduler, one VRAM budget. A GPU opens with its first session and
 * closes with its last.
 */
#ifndef SWGPUD_GPU_TABLE_H
#define SWGPUD_GPU_TABLE_H

#include <stddef.h>

#include <swgpu/swgpu.h>

struct gpu;

swgpu_result gpu_table_get(const void *cfg_bytes, size_t size,
                           struct gpu **gpu, swgpu_device **dev);
void gpu_table_put(struct gpu *gpu);
/* The GPU's ring server (its engines serve the sessions' rings), or
 * NULL. */
struct ring_server *gpu_table_ring_server(struct gpu *gpu);
/* Sessions open on every GPU. */
unsigned gpu_table_sessions(void);

#endif

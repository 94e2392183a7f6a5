/* SPDX-License-Identifier: MIT */
/* DISPATCH / DISPATCH_INDIRECT packet handlers (listed in op_table). */
#ifndef SWGPU_PACKET_DISPATCH_H
#define SWGPU_PACKET_DISPATCH_H

#include "hw/packet/packet_internal.h"

bool exec_dispatch(struct exec_env *env, const uint32_t *pk, uint32_t len,
                   const struct pkt *p, uint32_t depth);
bool exec_dispatch_indirect(struct exec_env *env, const uint32_t *pk,
                            uint32_t len, const struct pkt *p,
                            uint32_t depth);

struct ir_program;
struct ir_dispatch;
struct swgpu_bind_table;

/* Resolve a program's resources from a bind table into d (which it
 * initializes: program, push constants, watchdog, VA space), exactly as
 * DISPATCH does; the graphics stages use it for their programs. VA read
 * lock held; false with a fault recorded. */
bool dispatch_bind_resources(struct exec_env *env, const struct pkt *p,
                             const struct ir_program *prog,
                             const struct swgpu_bind_table *bt,
                             struct ir_dispatch *d);

#endif

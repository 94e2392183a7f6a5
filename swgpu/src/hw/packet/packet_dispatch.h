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

#endif

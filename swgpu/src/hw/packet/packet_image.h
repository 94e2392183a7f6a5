/* SPDX-License-Identifier: MIT */
/*
 * Image packet handlers (COPY_PITCHED, CLEAR_BOX, BLIT), listed in
 * packet_exec.c's op_table. Layouts: swgpu_packet.h "Image packets".
 */
#ifndef SWGPU_PACKET_IMAGE_H
#define SWGPU_PACKET_IMAGE_H

#include "hw/packet/packet_internal.h"

bool exec_copy_pitched(struct exec_env *env, const uint32_t *pk,
                       uint32_t len, const struct pkt *p, uint32_t depth);
bool exec_clear_box(struct exec_env *env, const uint32_t *pk, uint32_t len,
                    const struct pkt *p, uint32_t depth);
bool exec_blit(struct exec_env *env, const uint32_t *pk, uint32_t len,
               const struct pkt *p, uint32_t depth);

#endif

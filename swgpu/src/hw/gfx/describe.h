/* SPDX-License-Identifier: MIT */
/* Graphics state and packets as text, for state dumps (describe.c). */
#ifndef SWGPU_GFX_DESCRIBE_H
#define SWGPU_GFX_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gfx_state;

/* The graphics registers of a hardware queue, a few indented lines.
 * Engine thread (the state's owner). */
void gfx_state_describe(const struct gfx_state *g, char *buf, size_t size);

/* A graphics packet's fields (its len dwords at pk); false for other
 * opcodes or a packet too short to decode. */
bool gfx_packet_describe(const uint32_t *pk, uint32_t len, char *buf,
                         size_t size);

#endif

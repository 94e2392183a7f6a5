/* SPDX-License-Identifier: MIT */
/* Shader objects (internal): what the DISPATCH packet needs. */
#ifndef SWGPU_SHADER_SHADER_H
#define SWGPU_SHADER_SHADER_H

#include <stdint.h>

#include <swgpu/swgpu.h>

#include "ir.h"

struct swgpu_vaspace;

/* The shader whose code VA is va in VA space vs, with a reference taken
 * (drop it with shader_put), or NULL. */
struct swgpu_shader *shader_lookup(const struct swgpu_vaspace *vs,
                                   uint64_t va);
void shader_put(struct swgpu_shader *s);
const struct ir_program *shader_program(const struct swgpu_shader *s);

#endif

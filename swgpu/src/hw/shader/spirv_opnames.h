/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V opcode names for messages (generated from spirv-headers'
 * grammar by gen_spirv_opnames.py): the name of op ("OpLoad") or NULL
 * if unknown; *result_word gets the word index of its result id inside
 * the instruction (0: it has none).
 */
#ifndef SWGPU_SHADER_SPIRV_OPNAMES_H
#define SWGPU_SHADER_SPIRV_OPNAMES_H

#include <stdint.h>

const char *spirv_opname(uint32_t op, uint32_t *result_word);

#endif

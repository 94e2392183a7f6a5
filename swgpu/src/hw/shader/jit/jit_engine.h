/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM engine (jit_engine.c): LLVM set-up, the
 * optimization pipeline for the host CPU, and turning a module into
 * native code whose functions are found by name. jit_llvm.c emits the
 * module; this file owns what happens to it after.
 */
#ifndef SWGPU_SHADER_JIT_ENGINE_H
#define SWGPU_SHADER_JIT_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

/* LLVM's native target, initialised once; false (logged once) without
 * one. */
bool jit_llvm_init(void);

/* Log "jit: <what>: <LLVM's message>; interpreting the shader" and
 * consume err. */
void jit_log_error(const char *what, LLVMErrorRef err);

/* Verify mod and run the O2 pipeline for the host CPU on it; false
 * (logged) on an error. */
bool jit_engine_optimize(LLVMModuleRef mod);

/* Native code for mod (consumed, as is nothing else of tsc): an engine
 * for jit_engine_lookup / jit_engine_free, or NULL (logged). */
void *jit_engine_load(LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod);

/* The address of function name in engine; 0 (logged) on an error. */
uint64_t jit_engine_lookup(void *engine, const char *name);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM engine (jit_engine.c): LLVM set-up, the
 * optimization pipeline for the host CPU, object files, and native code
 * whose functions are found by name. jit_llvm.c emits the module; this
 * file owns what happens to it after, and the caches (jit_cache.h).
 */
#ifndef SWGPU_SHADER_JIT_ENGINE_H
#define SWGPU_SHADER_JIT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

struct jit_cache_key;

/* LLVM's native target, initialised once; false (logged once) without
 * one. */
bool jit_llvm_init(void);

/* Log "jit: <what>: <LLVM's message>; interpreting the shader" and
 * consume err. */
void jit_log_error(const char *what, LLVMErrorRef err);

/* Verify mod and run the O2 pipeline for the host CPU on it; false
 * (logged) on an error. SWGPU_JIT_DUMP=1 prints the optimized module's
 * LLVM IR on stderr, 2 the emitted one before it too: compiles only (a
 * cache hit has no IR; SWGPU_SHADER_CACHE=0 to see every shader's). */
bool jit_engine_optimize(LLVMModuleRef mod);

/* mod as a relocatable object file for the host: malloc'ed bytes and
 * *size, or NULL (logged). mod is kept. */
void *jit_engine_emit(LLVMModuleRef mod, size_t *size);

/* Native code of an object file (bytes copied): an engine for
 * jit_engine_lookup / jit_engine_free, or NULL (logged). */
void *jit_engine_load_object(const void *obj, size_t size);

/* The engine of a cached object for key: io's application blob
 * (checked), then the process's memory cache, then the disk cache; NULL on a
 * miss everywhere (an unusable entry is logged). io (may be NULL) gets
 * the key, the source, and missed when io->cache_only. With io->probe,
 * always NULL: io says which cache has the code (found, source). */
struct jit_compile_io;
void *jit_engine_cached(const struct jit_cache_key *key,
                        struct jit_compile_io *io);

/* Native code for the optimized mod (consumed): emitted to an object,
 * kept in the memory cache, stored in the disk cache under key (unless
 * the cache is off), loaded. NULL (logged) on an error. */
void *jit_engine_build(LLVMModuleRef mod, const struct jit_cache_key *key,
                       struct jit_compile_io *io);

/* The address of function name in engine; 0 (logged) on an error. */
uint64_t jit_engine_lookup(void *engine, const char *name);

/* The compile-time bound: programs with more compilable instructions
 * than this are interpreted (SWGPU_JIT_MAX_INSTRS; 0: no bound). LLVM's
 * C API cannot interrupt a compile, so the bound is on the input size:
 * measured (straight-line ALU code, loaded machine) 2000 instructions
 * compile in ~90 ms of CPU, 20000 in ~1.4 s, so 8000 is about half a
 * second (docs/ARCHITECTURE.md, "Shader compiler"). */
#define JIT_DEFAULT_MAX_INSTRS 8000u
uint32_t jit_engine_max_instrs(void);

#endif

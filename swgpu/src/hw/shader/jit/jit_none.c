/* SPDX-License-Identifier: MIT */
/* The shader compiler in a build without LLVM (jit.h): nothing is ever
 * compiled, SWGPU_SHADER=jit logs once and interprets (jit_run.c). */
#include <stddef.h>
#include <stdint.h>

#include "hw/shader/jit.h"
#include "hw/shader/jit_run.h"

bool
jit_available(void)
{
	return false;
}

uint32_t
jit_host_lanes(void)
{
	return 4;
}

struct jit_program *
jit_compile(const struct ir_program *p, uint32_t lanes)
{
	(void)p;
	(void)lanes;
	return NULL;
}

void
jit_engine_free(void *engine)
{
	(void)engine;
}

struct jit_program *
jit_compile_io(const struct ir_program *p, uint32_t lanes,
               struct jit_compile_io *io)
{
	(void)p;
	(void)lanes;
	(void)io;
	return NULL;
}

void
jit_compile_io_store(struct jit_compile_io *io)
{
	(void)io;
}

void *
jit_binary_get(const uint8_t key[16], size_t *size)
{
	(void)key;
	(void)size;
	return NULL;
}

bool
jit_cache_uuid(uint8_t uuid[16])
{
	(void)uuid;
	return false;
}

void
jit_unload(void)
{
}

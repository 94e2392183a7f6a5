/* SPDX-License-Identifier: MIT */
/* The shader compiler in a build without LLVM (jit.h): nothing is ever
 * compiled, SWGPU_SHADER=jit logs once and interprets (jit_run.c). */
#include <stddef.h>

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

/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY, removed when gfx-shader M1 is merged: the batch interface
 * of hw/shader/stage.h is implemented by the shader-stages branch. Until
 * then a draw that needs a SPIR-V vertex or fragment program cannot
 * create its execution state and faults with a message saying so;
 * engine tests run host programs (program.c).
 */
#include <stddef.h>

#include "hw/shader/stage.h"

struct ir_exec *
ir_exec_create_batch(const struct ir_program *p, uint32_t width)
{
	(void)p;
	(void)width;
	return NULL;
}

lane_t *
ir_exec_reg(struct ir_exec *e, uint32_t reg)
{
	(void)e;
	(void)reg;
	return NULL;
}

bool
ir_exec_run_batch(struct ir_exec *e, struct ir_dispatch *d, uint32_t n,
                  const uint8_t *live, uint8_t *discarded)
{
	(void)e;
	(void)d;
	(void)n;
	(void)live;
	(void)discarded;
	return false;
}

/* SPDX-License-Identifier: MIT */
/*
 * Programmable stages as the fixed-function pipeline runs them: a
 * translated SPIR-V program on the shader cores (hw/shader/stage.h), or
 * a host function over a register file laid out the same way (engine
 * tests check the fixed function without depending on the translator).
 */
#include "hw/gfx/gfx_internal.h"

#include <stdlib.h>

#include "hw/shader/stage.h"
#include "util/util.h"

struct gfx_exec {
	const struct gfx_program *prog;
	struct ir_exec *ir;
	lane_t *regs;              /* host programs: nregs x width */
	uint32_t width;
};

struct gfx_exec *
gfx_exec_create(const struct gfx_program *p, uint32_t width)
{
	struct gfx_exec *e = swgpu_calloc_private(1, sizeof(*e));

	if (!e)
		return NULL;
	e->prog = p;
	e->width = width;
	if (p->ir) {
		e->ir = ir_exec_create_batch(p->ir, width);
		if (!e->ir)
			goto fail;
	} else {
		e->regs = swgpu_calloc_private((size_t)p->nregs * width,
		                               sizeof(lane_t));
		if (!e->regs)
			goto fail;
	}
	return e;
fail:
	free(e);
	return NULL;
}

void
gfx_exec_destroy(struct gfx_exec *e)
{
	if (!e)
		return;
	if (e->ir)
		ir_exec_destroy(e->ir);
	free(e->regs);
	free(e);
}

lane_t *
gfx_exec_reg(struct gfx_exec *e, uint32_t reg)
{
	if (e->ir)
		return ir_exec_reg(e->ir, reg);
	return e->regs + (size_t)reg * e->width;
}

bool
gfx_exec_run(struct gfx_exec *e, struct ir_dispatch *d, uint32_t n,
             const uint8_t *live, uint8_t *discarded)
{
	if (e->ir)
		return ir_exec_run_batch(e->ir, d, n, live, discarded);
	for (uint32_t l = 0; discarded && l < n; l++)
		discarded[l] = 0;
	return e->prog->host(e->prog->user, e, n, live, discarded);
}

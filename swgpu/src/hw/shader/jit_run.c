/* SPDX-License-Identifier: MIT */
/*
 * Running a block with compiled code (jit.h): its compiled segments
 * natively, the instructions between them (and the terminator) in the
 * interpreter, all on the one register file. Also the SWGPU_SHADER knob
 * (compile once: jit_queue.c); this file builds without LLVM
 * (jit_compile then always declines, jit/jit_none.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "interp_mask.h"
#include "interp_util.h"
#include "jit.h"
#include "jit_run.h"
#include "util/util.h"

static bool jit_env_value;
static pthread_once_t jit_env_once = PTHREAD_ONCE_INIT;

/* The compiler is the default (issue 19: it passes the test suite and
 * the CTS tiers as the interpreter does); SWGPU_SHADER=interp keeps
 * every shader on the interpreter, the reference. */
static void
jit_env_init(void)
{
	const char *s = getenv("SWGPU_SHADER");

	if (s && !strcmp(s, "interp"))
		return;
	if (s && *s && strcmp(s, "jit") != 0)
		swgpu_log("ignoring SWGPU_SHADER=\"%s\" (interp or jit); "
		          "compiling shaders", s);
	if (!jit_available()) {
		/* said once, and only when asked for by name: a build
		 * without LLVM interprets, as documented */
		if (s && !strcmp(s, "jit"))
			swgpu_log("SWGPU_SHADER=jit: this build has no LLVM "
			          "(no llvm-config-15 at configure time, or "
			          "SWGPU_LLVM=OFF); interpreting shaders");
		return;
	}
	jit_env_value = true;
}

bool
jit_requested(void)
{
	pthread_once(&jit_env_once, jit_env_init);
	return jit_env_value;
}

void
ir_exec_set_jit(struct ir_exec *e, const struct jit_program *jp)
{
	e->jit = jp;
	e->jit_pinned = true;   /* no switch to the program's code later */
}

void
jit_program_free(struct jit_program *jp)
{
	if (!jp)
		return;
	jit_engine_free(jp->engine);
	for (uint32_t b = 0; b < jp->nblocks; b++)
		free(jp->blocks[b].seg);
	free(jp->blocks);
	free(jp);
}

/* The mask buffer stores use: the block's without helper lanes (they
 * write no memory, interp.c's writes_memory), recomputed before each
 * segment since an interpreted IR_DEMOTE may have made new helpers. */
static const uint8_t *
store_mask(struct ir_exec *e)
{
	if (!e->helpers)
		return e->mask;
	interp_mask_and(e->live_mask, e->mask, e->live, e->width);
	return e->live_mask;
}

uint32_t
jit_exec_block(struct ir_exec *e, const struct ir_dispatch *d, uint32_t blk,
               bool full)
{
	const struct jit_block *jb = &e->jit->blocks[blk];
	const uint32_t count = e->p->blocks[blk].count;
	struct jit_frame f = {
		.regs = e->regs, .mask = e->mask, .d = d, .shared = e->shared,
		.pc = e->pc, .prev = e->prev, .width = e->width,
		.e = e, .full = full,
	};
	uint32_t ii = 0;

	if (jb->loop) {
		/* the loop's lanes, chunk by chunk, until they leave it,
		 * the budget is spent or the dispatch must stop; the
		 * scheduler rescans after (and stops there) */
		f.store_mask = store_mask(e);
		f.steps = 0;
		f.stopped = 0;
		jb->loop(&f);
		e->blocks_run += f.steps;
		e->jit_stopped = f.stopped != 0;
		return INTERP_HINT_NONE;
	}
	for (uint32_t s = 0; s < jb->nseg; s++) {
		const struct jit_seg *sg = &jb->seg[s];
		uint32_t hint;

		if (ii < sg->first)
			interp_exec_range(e, d, blk, full, ii, sg->first);
		f.store_mask = store_mask(e);
		hint = sg->fn(&f);
		if (sg->end == count)
			return hint;     /* the segment ran the terminator */
		ii = sg->end;
	}
	return interp_exec_range(e, d, blk, full, ii, count);
}

/* SPDX-License-Identifier: MIT */
/*
 * The calls compiled code makes into the engine (jit_ext.h): the lane
 * call, the frame call and a compiled loop's stop poll.
 *
 * The lane call: the interpreter's own instruction loop run on one
 * vector of lanes. Compiled code stores the source vectors into a small
 * buffer laid out as a register file of `lanes` lanes (rows a, b, c, d,
 * dst, dst + 1), calls here, and loads the results: the lane loop is
 * interp.c's (or interp_int64.c's, interp_f64.c's, interp_rtz.c's), so
 * there is nothing to keep in step.
 */
#include <string.h>

#include "hw/shader/interp_mask.h"
#include "hw/shader/interp_util.h"
#include "hw/shader/jit.h"
#include "jit_ext.h"
#include "jit_frame_op.h"

void
swgpu_jit_lanes(uint32_t *io, uint32_t lanes, uint32_t op, uint32_t aux2,
                uint32_t imm)
{
	struct ir_instr in = {
		.op = (uint16_t)op, .aux2 = (uint8_t)aux2, .dst = 4, .a = 0,
		.b = 1, .c = 2, .d = 3, .imm = imm,
	};
	struct ir_block blk = { .first = 0, .count = 1 };
	uint8_t mask[16];
	/* interp_exec_range reads code and blocks only (the per-lane
	 * instructions called here reach neither memory nor other
	 * lanes: jit_ext_sources admits no other) */
	struct ir_program prog;
	struct ir_exec e;

	memset(mask, 1, sizeof(mask));
	prog.code = &in;
	prog.ninstr = 1;
	prog.blocks = &blk;
	prog.nblocks = 1;
	prog.nregs = 6;
	memset(&e, 0, sizeof(e));
	e.p = &prog;
	e.width = e.lanes = lanes;
	e.regs = (lane_t *)(void *)io;
	e.mask = mask;
	interp_exec_range(&e, NULL, 0, true, 0, 1);
}

/*
 * The frame call (jit_frame_op.h): instruction ii of block blk over the
 * whole frame, by the interpreter, exactly as interp_exec_block would
 * run it at this point of the block (the segment stored every register
 * before the call and reloads after it).
 */
uint32_t
swgpu_jit_frame_op(struct jit_frame *f, uint32_t blk, uint32_t ii)
{
	struct ir_exec *e = f->e;
	uint32_t hint = interp_exec_range(e, f->d, blk, f->full != 0, ii,
	                                  ii + 1);

	/* jit_run.c's store_mask: helper lanes (made by IR_DEMOTE, here
	 * or before) write no memory */
	if (e->helpers) {
		interp_mask_and(e->live_mask, e->mask, e->live, e->width);
		f->store_mask = e->live_mask;
	}
	return hint;
}

/*
 * The stop poll of compiled loops (jit_ext.h): what interp_run.c's
 * stop_requested asks at a back-edge, the flag first (another thread
 * may have set it), then the engine's question; the loop calls it every
 * JIT_LOOP_POLL blocks, so it needs no counter of its own.
 */
uint32_t
swgpu_jit_loop_stop(struct jit_frame *f)
{
	const struct ir_dispatch *d = f->d;

	return d->stop_poll &&
	       (__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE) ||
	        d->stop_poll(d->stop_cookie));
}

/* SPDX-License-Identifier: MIT */
/*
 * Register liveness (ir_live.h): per block, gen (read before written in
 * the block) and kill (surely written), then in = gen | (out & ~kill),
 * out = the union of the successors' in (and after IR_RET / IR_KILL
 * the exit-observable set and block 0's in), iterated backwards to the
 * fixed point.
 * Blocks come in structured order (ir.h), so a pass from the last block
 * to the first settles all but loop-carried registers; each loop level
 * costs one more pass.
 */
#include "hw/shader/ir_live.h"

#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_opt.h"

/* ---- register sets ---- */

static void
set_add(uint64_t *s, uint32_t r)
{
	s[r >> 6] |= 1ull << (r & 63);
}

static void
set_del(uint64_t *s, uint32_t r)
{
	s[r >> 6] &= ~(1ull << (r & 63));
}

static bool
set_has(const uint64_t *s, uint32_t r)
{
	return s[r >> 6] >> (r & 63) & 1;
}

/* Registers [first, first + count) of the nregs into s. */
static void
set_add_range(uint64_t *s, uint32_t nregs, uint32_t first, uint64_t count)
{
	for (uint64_t r = first; r < nregs && r < first + count; r++)
		set_add(s, (uint32_t)r);
}

static void
set_fill(uint64_t *s, uint32_t words, uint32_t nregs)
{
	memset(s, 0, (size_t)words * 8);
	set_add_range(s, nregs, 0, nregs);
}

/* ---- what an instruction reads and writes ---- */

/* Operations reading (at most) the single registers named by a, b, c
 * and d on their own lane, checked against interp.c and its helpers:
 * the per-lane ranges of ir_opt_simple, 64-bit integer and double
 * arithmetic on register pairs named lo and hi (a, b) / (c, d),
 * IR_RTZ, and the buffer, push constant and shared memory accesses
 * whose address, value and index are single registers. */
static bool
reads_fields(uint32_t op)
{
	if (ir_opt_simple(op))
		return true;
	if (op >= IR_ADD64 && op <= IR_F2U64)
		return true;
	switch ((enum ir_op)op) {
	case IR_F64: case IR_RTZ:
	case IR_LDBUF: case IR_STBUF: case IR_LDPUSH: case IR_LDSH:
	case IR_STSH: case IR_ATOMBUF: case IR_ATOMSH: case IR_ARRLEN:
	case IR_LDBUFX: case IR_STBUFX: case IR_ATOMBUFX:
	case IR_LDBUFN: case IR_STBUFN: case IR_LDPUSHN: case IR_LDSHN:
	case IR_STSHN:
		return true;
	default:
		return false;
	}
}

/* Does in surely write dst on every lane that runs it? Only those the
 * analysis kills (a narrower list than reads_fields: the others may
 * skip dst, write a pair, or leave dst 0 for "no result"). */
static bool
kills_dst(const struct ir_instr *in)
{
	switch ((enum ir_op)in->op) {
	case IR_LDBUF: case IR_LDPUSH: case IR_LDSH: case IR_LDBUFX:
	case IR_ARRLEN:
		return true;
	default:
		return ir_opt_simple(in->op);
	}
}

/* The registers in reads into use; the ones the analysis cannot place
 * exactly (ranges, other lanes, unknown operands) also into pin. */
static void
add_reads(const struct ir_program *p, const struct ir_instr *in,
          uint64_t *use, uint64_t *pin)
{
	const uint32_t n = p->nregs;
	const uint32_t fields[5] = { in->dst, in->a, in->b, in->c, in->d };

	switch ((enum ir_op)in->op) {
	case IR_NOP: case IR_BR: case IR_RET: case IR_KILL: case IR_FENCE:
	case IR_DEMOTE:
		return;
	case IR_BRC: case IR_SWITCH:
		set_add_range(use, n, in->a, 1);
		return;
	case IR_PHI:
		/* a lane whose previous block is in no pair keeps dst */
		set_add_range(use, n, in->dst, 1);
		for (uint64_t t = in->b; t + 1 < p->ntable &&
		     t < (uint64_t)in->b + 2ull * in->c; t += 2)
			set_add_range(use, n, p->table[t + 1], 1);
		return;
	default:
		break;
	}
	if (reads_fields(in->op)) {
		for (int k = 1; k < 5; k++)
			set_add_range(use, n, fields[k], 1);
		return;
	}
	/* images, sampling (operand ranges, quad neighbours), subgroup
	 * operations and derivatives (other lanes), physical pointers,
	 * indexed registers, and whatever comes new: as ir_opt.c counts
	 * them, and live everywhere */
	for (int k = 0; k < 5; k++) {
		set_add_range(use, n, fields[k], IR_SMP_REGS);
		set_add_range(pin, n, fields[k], IR_SMP_REGS);
	}
	if (in->op == IR_LDX || in->op == IR_STX) {
		set_add_range(use, n, in->b, in->c);
		set_add_range(pin, n, in->b, in->c);
	}
}

static bool
is_terminator(uint32_t op)
{
	return op == IR_BR || op == IR_BRC || op == IR_SWITCH ||
	       op == IR_RET || op == IR_KILL;
}

/* A block the analysis can follow: one terminator, at its end, with
 * successors in range. */
static bool
block_ok(const struct ir_program *p, uint32_t b)
{
	const struct ir_block *bl = &p->blocks[b];
	const struct ir_instr *term;

	if (!bl->count || (uint64_t)bl->first + bl->count > p->ninstr)
		return false;
	for (uint32_t i = 0; i + 1 < bl->count; i++)
		if (is_terminator(p->code[bl->first + i].op))
			return false;
	term = &p->code[bl->first + bl->count - 1];
	switch ((enum ir_op)term->op) {
	case IR_BR:
		return term->imm < p->nblocks;
	case IR_BRC:
		return term->imm < p->nblocks && term->b < p->nblocks;
	case IR_SWITCH:
		if (term->imm >= p->nblocks ||
		    (uint64_t)term->b + 2ull * term->c > p->ntable)
			return false;
		for (uint32_t k = 0; k < term->c; k++)
			if (p->table[term->b + 2 * k + 1] >= p->nblocks)
				return false;
		return true;
	case IR_RET: case IR_KILL:
		return true;
	default:
		return false;
	}
}

/* ---- public ---- */

/* flag[r] = 1 for r in [first, first + count) of the nregs. */
static void
flag_range(uint8_t *flag, uint32_t nregs, uint32_t first, uint64_t count)
{
	for (uint64_t r = first; r < nregs && r < first + count; r++)
		flag[r] = 1;
}

void
ir_live_engine_regs(const struct ir_program *p, uint8_t *flag)
{
	const struct ir_io *io = &p->io;
	const uint32_t n = p->nregs;

	memset(flag, 0, n);
	flag_range(flag, n, 0, IR_REG_FIRST_FREE);
	for (uint32_t l = 0; l < IR_MAX_LOCATIONS; l++)
		for (uint32_t c = 0; c < 4; c++) {
			flag_range(flag, n, io->in_reg[l][c], 1);
			flag_range(flag, n, io->out_reg[l][c], 1);
		}
	for (uint32_t c = 0; c < 4; c++)
		flag_range(flag, n, io->out_index1_reg[c], 1);
	flag_range(flag, n, io->position_reg, 4);
	flag_range(flag, n, io->point_size_reg, 1);
	flag_range(flag, n, io->clip_reg, io->clip_count);
	flag_range(flag, n, io->cull_reg, io->cull_count);
	flag_range(flag, n, io->layer_reg, 1);
	flag_range(flag, n, io->viewport_index_reg, 1);
	flag_range(flag, n, io->frag_depth_reg, 1);
	flag_range(flag, n, io->sample_mask_reg, 1);
	flag_range(flag, n, io->clip_in_reg, io->clip_in_count);
	flag_range(flag, n, io->cull_in_reg, io->cull_in_count);
	for (uint32_t i = 0; i < p->nconsts; i++)
		flag_range(flag, n, p->const_regs[i], 1);
}

void
ir_live_exit_regs(const struct ir_program *p, uint8_t *flag)
{
	if (p->outputs_only)
		ir_live_engine_regs(p, flag);
	else
		memset(flag, 1, p->nregs);
}

bool
ir_live_in(const struct ir_live *lv, uint32_t b, uint32_t r)
{
	return set_has(lv->in + (size_t)b * lv->words, r);
}

bool
ir_live_out(const struct ir_live *lv, uint32_t b, uint32_t r)
{
	return set_has(lv->out + (size_t)b * lv->words, r);
}

void
ir_live_free(struct ir_live *lv)
{
	free(lv->in);
	free(lv->out);
	memset(lv, 0, sizeof(*lv));
}

/* gen and kill of block b (block_ok), reads that must be pinned into
 * pin: backwards, live = (live - written) | read. */
static void
block_gen_kill(const struct ir_program *p, uint32_t b, uint64_t *gen,
               uint64_t *kill, uint64_t *pin, uint64_t *use, uint32_t words)
{
	const struct ir_block *bl = &p->blocks[b];

	for (uint32_t i = bl->count; i-- > 0;) {
		const struct ir_instr *in = &p->code[bl->first + i];

		if (kills_dst(in) && in->dst < p->nregs) {
			set_add(kill, in->dst);
			set_del(gen, in->dst);
		}
		memset(use, 0, (size_t)words * 8);
		add_reads(p, in, use, pin);
		for (uint32_t w = 0; w < words; w++)
			gen[w] |= use[w];
	}
}

/* One backward pass; true when a set changed. */
static bool
flow_pass(const struct ir_program *p, struct ir_live *lv, const uint64_t *gen,
          const uint64_t *kill, const uint8_t *ok, const uint64_t *exit_set)
{
	const uint32_t W = lv->words;
	bool changed = false;

	for (uint32_t b = p->nblocks; b-- > 0;) {
		uint64_t *out = lv->out + (size_t)b * W;
		uint64_t *in = lv->in + (size_t)b * W;
		const struct ir_instr *term;
		uint32_t succ[2], nsucc = 0;

		if (!ok[b])
			continue;          /* all live, set once */
		term = &p->code[p->blocks[b].first + p->blocks[b].count - 1];
		switch ((enum ir_op)term->op) {
		case IR_BR:
			succ[nsucc++] = term->imm;
			break;
		case IR_BRC:
			succ[nsucc++] = term->imm;
			succ[nsucc++] = term->b;
			break;
		case IR_SWITCH:
			succ[nsucc++] = term->imm;
			break;
		default:
			break;
		}
		for (uint32_t w = 0; w < W; w++) {
			uint64_t o = out[w];

			/* a lane done: what is seen after the program, and
			 * what block 0 reads before writing it (the next
			 * workgroup or batch on this execution state starts
			 * there on the same register file) */
			if (term->op == IR_RET || term->op == IR_KILL)
				o |= exit_set[w] | lv->in[w];
			for (uint32_t k = 0; k < nsucc; k++)
				o |= lv->in[(size_t)succ[k] * W + w];
			if (term->op == IR_SWITCH)
				for (uint32_t k = 0; k < term->c; k++)
					o |= lv->in[(size_t)p->table[term->b +
					            2 * k + 1] * W + w];
			uint64_t i2 = gen[(size_t)b * W + w] |
			              (o & ~kill[(size_t)b * W + w]);

			changed |= o != out[w] || i2 != in[w];
			out[w] = o;
			in[w] = i2 | in[w];
		}
	}
	return changed;
}

bool
ir_live_compute(const struct ir_program *p, struct ir_live *lv)
{
	const uint32_t W = (p->nregs + 63) / 64;
	const size_t set_bytes = (size_t)W * 8;
	const size_t nb = p->nblocks ? p->nblocks : 1;
	uint64_t *gen = NULL, *kill = NULL, *pin = NULL, *use = NULL;
	uint64_t *exit_set = NULL;
	uint8_t *ok = NULL, *flag = NULL;
	bool done = false;

	memset(lv, 0, sizeof(*lv));
	if (!W || nb * set_bytes * 4 > IR_LIVE_MAX_BYTES)
		return false;
	lv->nblocks = p->nblocks;
	lv->words = W;
	lv->in = calloc(nb, set_bytes);
	lv->out = calloc(nb, set_bytes);
	gen = calloc(nb, set_bytes);
	kill = calloc(nb, set_bytes);
	pin = calloc(1, set_bytes);
	use = calloc(1, set_bytes);
	exit_set = calloc(1, set_bytes);
	ok = calloc(nb, 1);
	flag = calloc(p->nregs, 1);
	if (!lv->in || !lv->out || !gen || !kill || !pin || !use ||
	    !exit_set || !ok || !flag)
		goto out;

	ir_live_exit_regs(p, flag);
	for (uint32_t r = 0; r < p->nregs; r++)
		if (flag[r])
			set_add(exit_set, r);
	ir_live_engine_regs(p, flag);
	for (uint32_t r = 0; r < p->nregs; r++)
		if (flag[r])
			set_add(pin, r);
	for (uint32_t b = 0; b < p->nblocks; b++) {
		ok[b] = block_ok(p, b);
		if (ok[b]) {
			block_gen_kill(p, b, gen + (size_t)b * W,
			               kill + (size_t)b * W, pin, use, W);
		} else {
			/* a block the analysis cannot follow: all live */
			set_fill(lv->in + (size_t)b * W, W, p->nregs);
			set_fill(lv->out + (size_t)b * W, W, p->nregs);
		}
	}
	/* the sets only grow, each bounded: a fixed point is reached */
	while (flow_pass(p, lv, gen, kill, ok, exit_set))
		;
	for (uint32_t b = 0; b < p->nblocks; b++)
		for (uint32_t w = 0; w < W; w++) {
			lv->in[(size_t)b * W + w] |= pin[w];
			lv->out[(size_t)b * W + w] |= pin[w];
		}
	done = true;
out:
	free(gen);
	free(kill);
	free(pin);
	free(use);
	free(exit_set);
	free(ok);
	free(flag);
	if (!done)
		ir_live_free(lv);
	return done;
}

/* SPDX-License-Identifier: MIT */
/*
 * Copy propagation and dead copy removal on a translated program.
 *
 * The translator maps SPIR-V's Function variables, composites and
 * function returns to registers with IR_MOVs (a load is a copy of the
 * variable's register, a store a copy into it), so half of a small
 * fragment shader's instructions can be copies; each costs a dispatch
 * and a pass over the lanes. This pass
 *  1. inside each block, rewrites the operands of simple per-lane
 *     instructions (ir_opt_simple) that read the destination of an
 *     earlier IR_MOV of the same block to the MOV's source, as long as
 *     neither was written in between. A block runs with one lane mask
 *     from its first instruction to its terminator, so on every lane it
 *     runs for, dst == src there, and a per-lane instruction computes
 *     the same values from either. Anything else (memory, images,
 *     derivatives and subgroup operations, which read other lanes,
 *     register pairs and ranges, phis) keeps its operands and forgets
 *     every copy known so far;
 *  2. MOV r, t right after t's computation in the same block, t read
 *     by nothing else: the computation writes r (retarget_block);
 *  3. removes IR_MOVs whose destination nothing reads anywhere in the
 *     program, and MOVs of a register to itself. Reads are counted
 *     conservatively: an instruction outside ir_opt_simple reads the
 *     IR_SMP_REGS registers from each of its fields, IR_LDX/IR_STX their
 *     whole slot range, phis and switches the registers named in their
 *     tables. Registers the engine reads or fills (built-ins, stage I/O,
 *     constants) are never removed.
 *  4. fuses FMULs into the FADD / FSUB that reads them (fuse_block).
 * Results stay bit for bit the same: no arithmetic changes, only which
 * register holds an equal value and how many instructions compute it.
 */
#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_live.h"
#include "hw/shader/ir_opt.h"
#include "util/util.h"

#define OPT_MAX_LIVE_COPIES 256u

bool
ir_opt_simple(uint32_t op)
{
	/* ir.h keeps these ranges to one-register-per-lane operations
	 * (interp.c's BIN / UN cases): dst and the registers a, b, c, d
	 * (unused fields 0), nothing read from other lanes. */
	return op == IR_MOV ||
	       (op >= IR_IADD && op <= IR_UMULSAT) ||
	       (op >= IR_IEQ && op <= IR_SELIDX) ||
	       (op >= IR_FADD && op <= IR_FADDMUL) ||
	       (op >= IR_F2S && op <= IR_UNPACKSN2);
}

/* What the pass knows of an instruction's registers. */
enum opt_class {
	OPT_NONE,                  /* IR_NOP: nothing */
	OPT_SIMPLE,                /* ir_opt_simple: operands rewritable */
	OPT_DERIV,                 /* reads a on other lanes, writes dst */
	OPT_SAMPLE,                /* IR_IMGSAMPLE: reads a .. a + 23, b,
	                              c, d; writes dst .. dst + 3 */
	OPT_OTHER,                 /* unknown: may touch anything */
};

static enum opt_class
op_class(uint32_t op)
{
	if (op == IR_NOP)
		return OPT_NONE;
	if (ir_opt_simple(op))
		return OPT_SIMPLE;
	if (op == IR_DERIV)
		return OPT_DERIV;
	if (op == IR_IMGSAMPLE)
		return OPT_SAMPLE;
	return OPT_OTHER;
}

static bool
in_range(uint32_t r, uint32_t first, uint32_t count)
{
	return r >= first && (uint64_t)r < (uint64_t)first + count;
}

/* Does in (not OPT_OTHER) read register r? */
static bool
reads_reg(const struct ir_instr *in, uint32_t r)
{
	switch (op_class(in->op)) {
	case OPT_SIMPLE:
		return in->a == r || in->b == r || in->c == r || in->d == r;
	case OPT_DERIV:
		return in->a == r;
	case OPT_SAMPLE:
		return in_range(r, in->a, IR_SMP_REGS) || in->b == r ||
		       in->c == r || in->d == r;
	default:
		return false;
	}
}

/* Does in (not OPT_OTHER) write register r? */
static bool
writes_reg(const struct ir_instr *in, uint32_t r)
{
	switch (op_class(in->op)) {
	case OPT_SIMPLE:
	case OPT_DERIV:
		return in->dst == r;
	case OPT_SAMPLE:
		return in_range(r, in->dst, 4);
	default:
		return false;
	}
}

struct copies {
	uint32_t *src;             /* src[r]: r == src[r] here; 0: unknown */
	uint32_t nregs;
	uint32_t live[OPT_MAX_LIVE_COPIES];
	uint32_t nlive;
};

static void
copies_clear(struct copies *cp)
{
	for (uint32_t i = 0; i < cp->nlive; i++)
		cp->src[cp->live[i]] = 0;
	cp->nlive = 0;
}

/* Register r is written: copies into it or out of it no longer hold. */
static void
copies_kill(struct copies *cp, uint32_t r)
{
	for (uint32_t i = 0; i < cp->nlive;) {
		uint32_t k = cp->live[i];

		if (k == r || cp->src[k] == r) {
			cp->src[k] = 0;
			cp->live[i] = cp->live[--cp->nlive];
		} else {
			i++;
		}
	}
}

static uint32_t
copies_lookup(const struct copies *cp, uint32_t r)
{
	return r < cp->nregs && cp->src[r] ? cp->src[r] : r;
}

static void
propagate_block(struct ir_program *p, const struct ir_block *b,
                struct copies *cp)
{
	copies_clear(cp);
	for (uint32_t i = b->first; i < b->first + b->count; i++) {
		struct ir_instr *in = &p->code[i];

		switch (op_class(in->op)) {
		case OPT_NONE:
			continue;
		case OPT_SIMPLE:
			break;
		case OPT_DERIV:
			copies_kill(cp, in->dst);
			continue;
		case OPT_SAMPLE:
			for (uint32_t k = 0; k < 4; k++)
				copies_kill(cp, in->dst + k);
			continue;
		case OPT_OTHER:
			copies_clear(cp);
			continue;
		}
		in->a = copies_lookup(cp, in->a);
		in->b = copies_lookup(cp, in->b);
		in->c = copies_lookup(cp, in->c);
		in->d = copies_lookup(cp, in->d);
		copies_kill(cp, in->dst);
		if (in->op != IR_MOV || in->dst == in->a ||
		    in->dst < IR_REG_FIRST_FREE || in->dst >= p->nregs ||
		    in->a == IR_REG_ZERO)
			continue;
		if (cp->nlive == OPT_MAX_LIVE_COPIES)
			copies_clear(cp);
		cp->src[in->dst] = in->a;
		cp->live[cp->nlive++] = in->dst;
	}
}

/* flag[r] for r in [first, first + count): set to 1, or (count_up)
 * incremented up to 255. */
static void
mark(uint8_t *flag, uint32_t nregs, uint32_t first, uint64_t count,
     bool count_up)
{
	for (uint64_t r = first; r < nregs && r < first + count; r++)
		flag[r] = count_up ? (uint8_t)(flag[r] + (flag[r] < 255)) : 1;
}

static void
count_range(uint8_t *flag, uint32_t nregs, uint32_t first, uint64_t count)
{
	mark(flag, nregs, first, count, true);
}

/* read[r]: how many instructions may read register r (conservatively;
 * 255: 255 or more). */
static void
mark_reads(const struct ir_program *p, uint8_t *read)
{
	const uint32_t n = p->nregs;

	memset(read, 0, n);
	for (uint32_t i = 0; i < p->ninstr; i++) {
		const struct ir_instr *in = &p->code[i];

		switch (op_class(in->op)) {
		case OPT_NONE:
			continue;
		case OPT_SIMPLE:
			count_range(read, n, in->a, 1);
			count_range(read, n, in->b, 1);
			count_range(read, n, in->c, 1);
			count_range(read, n, in->d, 1);
			continue;
		case OPT_DERIV:
			count_range(read, n, in->a, 1);
			continue;
		case OPT_SAMPLE:
			count_range(read, n, in->a, IR_SMP_REGS);
			count_range(read, n, in->b, 1);
			count_range(read, n, in->c, 1);
			count_range(read, n, in->d, 1);
			continue;
		case OPT_OTHER:
			break;
		}
		count_range(read, n, in->dst, IR_SMP_REGS);
		count_range(read, n, in->a, IR_SMP_REGS);
		count_range(read, n, in->b, IR_SMP_REGS);
		count_range(read, n, in->c, IR_SMP_REGS);
		count_range(read, n, in->d, IR_SMP_REGS);
		if (in->op == IR_LDX || in->op == IR_STX)
			count_range(read, n, in->b, in->c);
		if (in->op == IR_PHI || in->op == IR_SWITCH)
			for (uint64_t t = in->b; t < p->ntable &&
			     t < (uint64_t)in->b + 2ull * in->c; t++)
				count_range(read, n, p->table[t], 1);
	}
}

/* MOV r, t where t is read by nothing else and was computed earlier in
 * the block by a simple instruction, with nothing in between touching
 * r: that instruction writes r itself and the MOV goes (an output or a
 * variable's register written straight from its computation). Every
 * instruction in between must be one the pass knows. */
static void
retarget_block(struct ir_program *p, const struct ir_block *b,
               const uint8_t *read, const uint8_t *pin)
{
	for (uint32_t i = b->first; i < b->first + b->count; i++) {
		struct ir_instr *mv = &p->code[i];
		const uint32_t r = mv->dst, t = mv->a;

		if (mv->op != IR_MOV || t == r || t < IR_REG_FIRST_FREE ||
		    t >= p->nregs || pin[t] || read[t] != 1)
			continue;
		for (uint32_t j = i; j-- > b->first;) {
			struct ir_instr *in = &p->code[j];
			const enum opt_class k = op_class(in->op);

			if (k == OPT_OTHER)
				break;
			if (writes_reg(in, t)) {
				if (k == OPT_SIMPLE && in->dst == t) {
					in->dst = r;
					mv->op = IR_NOP;
				}
				break;
			}
			if (reads_reg(in, r) || writes_reg(in, r))
				break;
		}
	}
}

/* Turns dead MOVs into NOPs; true when one was. */
static bool
kill_dead_moves(struct ir_program *p, const uint8_t *read,
                const uint8_t *pin)
{
	bool changed = false;

	for (uint32_t i = 0; i < p->ninstr; i++) {
		struct ir_instr *in = &p->code[i];

		if (in->op != IR_MOV)
			continue;
		if (in->dst == in->a ||
		    (in->dst < p->nregs && !read[in->dst] && !pin[in->dst])) {
			in->op = IR_NOP;
			changed = true;
		}
	}
	return changed;
}

/* How far back fuse_block looks for a product (bounds the pass's cost
 * on long blocks). */
#define OPT_FUSE_WINDOW 64u

/*
 * The FMUL of the same block that last wrote t before instruction i,
 * when t is a plain temporary (read once, by instruction i, not pinned)
 * and neither t nor the FMUL's operands are written between the two:
 * then at i, t == a * b for every lane the block runs. NULL otherwise.
 */
static struct ir_instr *
product_of(struct ir_program *p, const struct ir_block *b, uint32_t i,
           uint32_t t, const uint8_t *read, const uint8_t *pin)
{
	if (t < IR_REG_FIRST_FREE || t >= p->nregs || pin[t] || read[t] != 1)
		return NULL;
	for (uint32_t j = i; j-- > b->first && i - j <= OPT_FUSE_WINDOW;) {
		struct ir_instr *mul = &p->code[j];

		if (op_class(mul->op) == OPT_OTHER)
			return NULL;
		if (!writes_reg(mul, t))
			continue;
		if (mul->op != IR_FMUL || mul->dst != t)
			return NULL;
		for (uint32_t k = j + 1; k < i; k++) {
			const struct ir_instr *in = &p->code[k];

			if (writes_reg(in, mul->a) || writes_reg(in, mul->b))
				return NULL;
		}
		return mul;
	}
	return NULL;
}

/*
 * 4. FADD / FSUB of products computed earlier in the block become one
 * instruction (IR_FMULADD2, IR_FMULSUB2, IR_FMULADD, IR_FADDMUL) and
 * the FMULs go: dot products, cross products and lerps of small
 * shaders are mostly that, and each instruction saved is a pass over
 * the lanes' registers. The fused instruction does the same float
 * operations in the same order (two roundings, never an FMA).
 */
static void
fuse_block(struct ir_program *p, const struct ir_block *b,
           const uint8_t *read, const uint8_t *pin)
{
	for (uint32_t i = b->first; i < b->first + b->count; i++) {
		struct ir_instr *in = &p->code[i];

		if (in->op != IR_FADD && in->op != IR_FSUB)
			continue;
		if (in->a == in->b)
			continue;
		struct ir_instr *ma = product_of(p, b, i, in->a, read, pin);
		struct ir_instr *mb = product_of(p, b, i, in->b, read, pin);
		struct ir_instr f = *in;

		if (ma && mb) {
			f.op = in->op == IR_FADD ? IR_FMULADD2 : IR_FMULSUB2;
			f.a = ma->a;
			f.b = ma->b;
			f.c = mb->a;
			f.d = mb->b;
		} else if (ma && in->op == IR_FADD) {
			f.op = IR_FMULADD;
			f.a = ma->a;
			f.b = ma->b;
			f.c = in->b;
			f.d = 0;
		} else if (mb && in->op == IR_FADD) {
			f.op = IR_FADDMUL;
			f.a = in->a;
			f.b = mb->a;
			f.c = mb->b;
			f.d = 0;
		} else {
			continue;
		}
		/* one product alone: the other of ma, mb is NULL here */
		*in = f;
		if (ma)
			ma->op = IR_NOP;
		if (mb)
			mb->op = IR_NOP;
	}
}

/* Drops the NOPs, fixing the blocks' instruction ranges (branches name
 * blocks, not instructions). A block keeps its terminator. */
static void
compact(struct ir_program *p)
{
	uint32_t out = 0;

	for (uint32_t bi = 0; bi < p->nblocks; bi++) {
		struct ir_block *b = &p->blocks[bi];
		uint32_t first = out;

		for (uint32_t i = b->first; i < b->first + b->count; i++)
			if (p->code[i].op != IR_NOP)
				p->code[out++] = p->code[i];
		b->first = first;
		b->count = out - first;
	}
	p->ninstr = out;
}

static bool
opt_enabled(void)
{
	uint64_t v;

	return !swgpu_env_u64("SWGPU_SHADER_OPT", &v) || v != 0;
}

void
ir_opt_program(struct ir_program *p)
{
	struct copies cp = { 0 };
	uint8_t *read, *pin;

	if (!opt_enabled() || !p->nregs)
		return;
	/* Blocks must tile the code in order for compact(). */
	for (uint32_t bi = 0, at = 0; bi < p->nblocks; bi++) {
		if (p->blocks[bi].first != at)
			return;
		at += p->blocks[bi].count;
		if (bi + 1 == p->nblocks && at != p->ninstr)
			return;
	}
	cp.src = calloc(p->nregs, sizeof(*cp.src));
	cp.nregs = p->nregs;
	read = malloc(p->nregs);
	pin = malloc(p->nregs);
	if (!cp.src || !read || !pin)
		goto done;     /* the program runs as translated */
	for (uint32_t bi = 0; bi < p->nblocks; bi++)
		propagate_block(p, &p->blocks[bi], &cp);
	ir_live_engine_regs(p, pin);
	mark_reads(p, read);
	for (uint32_t bi = 0; bi < p->nblocks; bi++)
		retarget_block(p, &p->blocks[bi], read, pin);
	for (int pass = 0; pass < 16; pass++) {
		mark_reads(p, read);
		if (!kill_dead_moves(p, read, pin))
			break;
	}
	mark_reads(p, read);
	for (uint32_t bi = 0; bi < p->nblocks; bi++)
		fuse_block(p, &p->blocks[bi], read, pin);
	compact(p);
done:
	free(cp.src);
	free(read);
	free(pin);
}

/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler (hw/shader/jit.h) against the interpreter on
 * random programs with memory instructions and control flow: the same
 * program, inputs, buffers and push constants under both back ends must
 * leave every register, every buffer byte and the shared memory bit for
 * bit the same.
 *
 * Each program has a loop whose lanes leave at different iterations
 * (1 to 4: divergent exits, the lowest-block-first scheduling; in some,
 * the same for each 16 lanes, so that whole chunks of a compiled loop
 * run its blocks together), a divergent if inside it, phis at the loop
 * head, the latch and the join, and a switch to three blocks. Random
 * bodies mix integer ALU ops (64-bit ones on register pairs too) with
 * loads and stores on buffers (one whole, one with a range shorter
 * than its memory and not a multiple of 8, a null descriptor; constant
 * offsets, per-lane offsets, consecutive words, out-of-range ones,
 * 64-bit low words, descriptor arrays with out-of-range indices, 8- and
 * 16-bit forms), push constants, shared memory, dynamically indexed
 * registers, IR_ARRLEN and fences. Addresses collide across lanes, so
 * the order of stores and loads between lanes is checked too. Each
 * program runs again marked as translated (p->outputs_only: compiled
 * loops keep only live registers, hw/shader/ir_live.h), its buffers and
 * shared memory and the registers the engine reads compared.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/shader/interp_util.h"
#include "hw/shader/ir_live.h"
#include "hw/shader/jit.h"

static uint64_t rng_state;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Register layout: value registers (integers), constants, then the
 * loop's own registers that random code never writes. */
#define NVAL 16u
#define NCONSTS 6u
#define NARR 6u
enum {
	VAL = IR_REG_FIRST_FREE,
	K_MASK_BUF = VAL + NVAL,    /* 0x3fc: words of buffer 0 */
	K_MASK_ANY,                 /* 0x7ff: any byte, past the ends too */
	K_ONE, K_TWO, K_THREE, K_SEVEN,
	CTR, LIM, LID4, ADDR, IDX, COND,
	ARR,                        /* NARR registers for IR_LDX / IR_STX */
	NREGS = ARR + NARR,
};
static const uint32_t const_vals[NCONSTS] = { 0x3fc, 0x7ff, 1, 2, 3, 7 };

#define BUF0 1024u
#define BUF1 512u                   /* memory; range 202 */
#define BUF1_RANGE 202u
#define SHARED 512u

struct gen {
	struct ir_instr *code;
	uint32_t n, cap;
};

static struct ir_instr *
emit(struct gen *g, uint16_t op, uint32_t dst, uint32_t a, uint32_t b)
{
	struct ir_instr *in;

	assert_true(g->n < g->cap);
	in = &g->code[g->n++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->dst = dst;
	in->a = a;
	in->b = b;
	return in;
}

static uint32_t
val(void)
{
	return VAL + rnd() % NVAL;
}

static uint32_t
any_src(void)
{
	switch (rnd() % 8) {
	case 0: return IR_REG_LOCAL_INDEX;
	case 1: return K_MASK_BUF + rnd() % NCONSTS;
	default: return val();
	}
}

/* A per-lane byte offset in ADDR: inside buffer 0, anywhere (out of
 * range of every binding at times), or the lane's consecutive word. */
static uint32_t
address(struct gen *g)
{
	switch (rnd() % 3) {
	case 0:
		emit(g, IR_AND, ADDR, any_src(), K_MASK_BUF);
		return ADDR;
	case 1:
		emit(g, IR_AND, ADDR, any_src(), K_MASK_ANY);
		return ADDR;
	default:
		return LID4;
	}
}

static const uint32_t imms[] = { 0, 4, 8, 200, 1020, 0xfffffffcu };

/* Loop bodies of loads only (and no interpreted op): the loop runs as
 * one compiled function (jit/jit_loop.c). */
static bool loads_only;

static void
mem_instr(struct gen *g)
{
	static const uint32_t loads[] = { 0, 1, 4, 5, 9, 10, 12, 13 };
	struct ir_instr *in;
	uint32_t a;
	uint32_t kind = loads_only ? loads[rnd() % 8] : rnd() % 15;

	switch (kind) {
	case 0: case 1:           /* buffer load, uniform or per lane */
		a = rnd() % 4 ? address(g) : IR_REG_ZERO;
		in = emit(g, IR_LDBUF, val(), a, 0);
		in->aux = rnd() % 3;
		in->aux2 = rnd() % 5 ? 0 : 8;
		in->imm = imms[rnd() % 6];
		break;
	case 2: case 3:
		in = emit(g, IR_STBUF, 0, address(g), val());
		in->aux = rnd() % 3;
		in->aux2 = rnd() % 5 ? 0 : 8;
		in->imm = imms[rnd() % 5];
		break;
	case 4:
		a = rnd() % 2 ? address(g) : IR_REG_ZERO;
		in = emit(g, rnd() % 3 ? IR_LDPUSH : IR_LDPUSHN, val(), a, 0);
		in->imm = imms[rnd() % 6] & 0xff;
		in->aux2 = in->op == IR_LDPUSHN ? 1 + rnd() % 2 : 0;
		break;
	case 5:
		in = emit(g, IR_LDSH, val(), address(g), 0);
		in->imm = imms[rnd() % 6];
		break;
	case 6:
		in = emit(g, IR_STSH, 0, address(g), val());
		in->imm = imms[rnd() % 5];
		break;
	case 7:
		emit(g, IR_AND, IDX, any_src(), K_SEVEN);
		in = emit(g, IR_LDX, val(), IDX, ARR);
		in->c = NARR;
		in->imm = rnd() % 2;
		break;
	case 8:
		emit(g, IR_AND, IDX, any_src(), K_SEVEN);
		in = emit(g, IR_STX, 0, IDX, ARR);
		in->c = NARR;
		in->d = val();
		break;
	case 9:
		in = emit(g, IR_ARRLEN, val(), 0, 4 + 4 * (rnd() % 3));
		in->aux = rnd() % 3;
		in->imm = rnd() % 2 ? 0 : 16;
		break;
	case 10: case 11:         /* descriptor array of 3, index 0..3 */
		emit(g, IR_AND, IDX, any_src(), K_THREE);
		a = address(g);
		if (rnd() % 2 || loads_only) {
			in = emit(g, IR_LDBUFX, val(), a, 0);
		} else {
			in = emit(g, IR_STBUFX, 0, a, val());
		}
		in->c = 3;
		in->d = IDX;
		in->imm = imms[rnd() % 5];
		in->aux2 = rnd() % 5 ? 0 : 8;
		break;
	case 12: {                /* 8/16-bit buffer access */
		bool indexed = rnd() % 2;

		if (indexed)
			emit(g, IR_AND, IDX, any_src(), K_THREE);
		a = address(g);
		in = rnd() % 2 || loads_only ? emit(g, IR_LDBUFN, val(), a, 0)
		               : emit(g, IR_STBUFN, 0, a, val());
		in->aux = indexed ? 0 : rnd() % 3;
		in->aux2 = 1 + rnd() % 2;
		in->imm = imms[rnd() % 5] + rnd() % 3;
		if (indexed) {
			in->c = 3;
			in->d = IDX;
		}
		break;
	}
	case 13:
		a = address(g);
		in = rnd() % 2 || loads_only ? emit(g, IR_LDSHN, val(), a, 0)
		               : emit(g, IR_STSHN, 0, a, val());
		in->aux2 = 1 + rnd() % 2;
		in->imm = imms[rnd() % 5] + rnd() % 2;
		break;
	default:
		emit(g, IR_FENCE, 0, 0, 0);
		break;
	}
}

static const uint16_t alu_ops[] = {
	IR_IADD, IR_ISUB, IR_IMUL, IR_XOR, IR_AND, IR_OR, IR_SHL, IR_SHR,
	IR_UMIN, IR_SMAX, IR_ULT, IR_MOV, IR_UDIV, IR_SELECT,
	IR_ADD64,     /* a register pair: dst, dst + 1 */
};

static void
body(struct gen *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (rnd() % 3 == 0) {
			mem_instr(g);
			continue;
		}
		uint16_t op = alu_ops[rnd() % (sizeof(alu_ops) /
		                               sizeof(alu_ops[0]))];
		struct ir_instr *in = emit(g, op, val(), any_src(), any_src());

		if (op == IR_SELECT)
			in->c = any_src();
		if (op == IR_ADD64) {
			in->dst = VAL + rnd() % (NVAL - 1);
			in->c = any_src();
			in->d = any_src();
		}
		if (rnd() % 24 == 0 && !loads_only)   /* interpreted */
			in->op = IR_SIN;
	}
}

/* Blocks: 0 entry; 1 loop head (phi); 2 the if's side; 3 latch (phi,
 * exit test); 4 switch; 5, 6 cases; 7 join (phi), return. */
enum { NBLK = 8 };

static struct ir_program *
flow_program(uint32_t n, uint32_t local_size, bool pure_loop,
             bool uniform_trips)
{
	struct ir_program *p = calloc(1, sizeof(*p));
	struct gen g = { .cap = NBLK * (n * 3 + 12) };
	uint32_t *t;

	assert_non_null(p);
	g.code = calloc(g.cap, sizeof(*g.code));
	p->blocks = calloc(NBLK, sizeof(*p->blocks));
	p->const_regs = calloc(NCONSTS, 4);
	p->const_vals = calloc(NCONSTS, 4);
	p->table = t = calloc(18, 4);
	assert_non_null(g.code);
	assert_non_null(p->blocks);
	assert_non_null(p->const_regs);
	assert_non_null(p->const_vals);
	assert_non_null(t);
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[0] = local_size;
	p->local_size[1] = p->local_size[2] = 1;
	p->shared_bytes = SHARED;
	p->nblocks = NBLK;
	p->nconsts = NCONSTS;
	for (uint32_t i = 0; i < NCONSTS; i++) {
		p->const_regs[i] = K_MASK_BUF + i;
		p->const_vals[i] = const_vals[i];
	}
	/* phi and switch tables */
	uint32_t tv[18] = {
		0, val(), 3, val(),            /* 0: head, from 0 / 3 */
		1, val(), 2, val(),            /* 4: latch, from 1 / 2 */
		4, val(), 5, val(), 6, val(),  /* 8: join, from 4 / 5 / 6 */
		0, 5, 1, 6,                    /* 14: switch 0 -> 5, 1 -> 6 */
	};
	memcpy(t, tv, sizeof(tv));
	p->ntable = 18;
	for (uint32_t b = 0; b < NBLK; b++) {
		struct ir_instr *in;

		p->blocks[b].first = g.n;
		loads_only = pure_loop && b >= 1 && b <= 3;
		switch (b) {
		case 0:
			emit(&g, IR_SHL, LID4, IR_REG_LOCAL_INDEX, K_TWO);
			emit(&g, IR_MOV, CTR, IR_REG_ZERO, 0);
			/* 1 to 4 iterations: by lane, or (uniform) by
			 * groups of 16 lanes, whole chunks leaving together */
			if (uniform_trips) {
				emit(&g, IR_SHR, LIM, IR_REG_LOCAL_INDEX, K_TWO);
				emit(&g, IR_SHR, LIM, LIM, K_TWO);
				emit(&g, IR_AND, LIM, LIM, K_THREE);
			} else {
				emit(&g, IR_AND, LIM, IR_REG_LOCAL_INDEX,
				     K_THREE);
			}
			emit(&g, IR_IADD, LIM, LIM, K_ONE);
			body(&g, n);
			emit(&g, IR_BR, 0, 0, 0)->imm = 1;
			break;
		case 1: case 3: case 7:
			in = emit(&g, IR_PHI, val(), 0, b == 1 ? 0 : b == 3 ? 4 : 8);
			in->c = b == 7 ? 3 : 2;
			body(&g, n);
			if (b == 1 && uniform_trips) {
				/* never to block 2: lanes of a chunk stay
				 * together (the loop's copy for whole
				 * chunks, jit_loop.c) */
				emit(&g, IR_MOV, COND, K_ONE, 0);
				in = emit(&g, IR_BRC, 0, COND, 2);
				in->imm = 3;
			} else if (b == 1) {
				emit(&g, IR_AND, COND, any_src(), K_ONE);
				in = emit(&g, IR_BRC, 0, COND, 2);
				in->imm = 3;    /* odd: skip block 2 */
			} else if (b == 3) {
				emit(&g, IR_IADD, CTR, CTR, K_ONE);
				emit(&g, IR_ULT, COND, CTR, LIM);
				in = emit(&g, IR_BRC, 0, COND, 4);
				in->imm = 1;
			} else {
				emit(&g, IR_RET, 0, 0, 0);
			}
			break;
		case 4:
			body(&g, n);
			emit(&g, IR_AND, COND, any_src(), K_THREE);
			in = emit(&g, IR_SWITCH, 0, COND, 14);
			in->c = 2;
			in->imm = rnd() % 2 ? 6 : 7;   /* default */
			break;
		default:     /* 2, 5, 6 */
			body(&g, n);
			emit(&g, IR_BR, 0, 0, 0)->imm = b == 2 ? 3 : 7;
			break;
		}
		p->blocks[b].count = g.n - p->blocks[b].first;
	}
	p->code = g.code;
	p->ninstr = g.n;
	return p;
}

struct run {
	uint8_t buf0[BUF0], buf1[BUF1];
	struct ir_exec *e;
};

static void
run_one(struct ir_program *p, const struct jit_program *jp, uint64_t seed,
        struct run *r)
{
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	const uint32_t width = (p->local_size[0] + 31) / 32 * 32;

	assert_non_null(d);
	r->e = ir_exec_create(p);
	assert_non_null(r->e);
	ir_exec_set_jit(r->e, jp);
	rng_state = seed;
	for (uint32_t i = 0; i < BUF0; i++)
		r->buf0[i] = (uint8_t)rnd();
	for (uint32_t i = 0; i < BUF1; i++)
		r->buf1[i] = (uint8_t)rnd();
	for (uint32_t i = 0; i < sizeof(d->push); i++)
		d->push[i] = (uint8_t)rnd();
	for (uint32_t reg = VAL; reg < VAL + NVAL; reg++)
		for (uint32_t l = 0; l < width; l++)
			ir_exec_reg(r->e, reg)[l].u = rnd() % 4 ? rnd() % 64
			                                         : rnd();
	for (uint32_t reg = ARR; reg < ARR + NARR; reg++)
		for (uint32_t l = 0; l < width; l++)
			ir_exec_reg(r->e, reg)[l].u = rnd();
	d->prog = p;
	d->buffers[0].ptr = r->buf0;
	d->buffers[0].range = BUF0;
	d->buffers[1].ptr = r->buf1;
	d->buffers[1].range = BUF1_RANGE;
	/* buffers[2]: a null descriptor */
	d->groups[0] = 2;
	d->groups[1] = d->groups[2] = 1;
	d->total_groups = 2;
	d->hang_timeout_ns = 60ull * 1000000000ull;
	d->progress_ns = swgpu_now_ns();
	assert_true(ir_exec_run(r->e, d));
	free(d);
}

/* The same buffers, shared memory and registers after p on both back
 * ends; observed: the registers compared (NULL: every one). */
static void
same_results(struct ir_program *p, const struct jit_program *jp,
             uint64_t seed, const uint8_t *observed)
{
	struct run *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	const uint32_t width = (p->local_size[0] + 31) / 32 * 32;

	assert_non_null(a);
	assert_non_null(b);
	run_one(p, NULL, seed, a);
	run_one(p, jp, seed, b);
	for (uint32_t r = 0; r < p->nregs; r++)
		for (uint32_t l = 0; l < width; l++)
			if ((!observed || observed[r]) &&
			    ir_exec_reg(a->e, r)[l].u != ir_exec_reg(b->e, r)[l].u)
				fail_msg("seed %#llx: register %u lane %u: "
				         "interpreter %#x, compiled %#x",
				         (unsigned long long)seed, r, l,
				         ir_exec_reg(a->e, r)[l].u,
				         ir_exec_reg(b->e, r)[l].u);
	for (uint32_t i = 0; i < BUF0; i++)
		if (a->buf0[i] != b->buf0[i])
			fail_msg("seed %#llx: buffer 0 byte %u: %#x vs %#x",
			         (unsigned long long)seed, i, a->buf0[i],
			         b->buf0[i]);
	assert_memory_equal(a->buf1, b->buf1, BUF1);
	assert_memory_equal(a->e->shared, b->e->shared, SHARED);
	ir_exec_destroy(a->e);
	ir_exec_destroy(b->e);
	free(a);
	free(b);
}

static void
test_flow_programs(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };
	uint32_t compiled = 0, total = 0, loops = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 90; seed++) {
		uint64_t s = seed * 0x9e3779b97f4a7c15ull;

		rng_state = s;
		struct ir_program *p = flow_program(2 + rnd() % 10,
		                                    seed % 3 ? 64 : 40,
		                                    seed % 2, seed % 4 == 1);
		struct jit_program *jp = jit_compile(p, lanes[seed % 3]);

		if (!jit_available()) {
			assert_null(jp);
			ir_program_free(p);
			continue;
		}
		assert_non_null(jp);
		compiled += jp->compiled;
		total += jp->total;
		/* blocks 1..3, the loop: one function when pure (and when
		 * the random bodies happen to store nothing) */
		if (seed % 2)
			assert_non_null(jp->blocks[1].loop);
		loops += jp->blocks[1].loop != NULL;
		for (uint32_t run = 0; run < 3; run++)
			same_results(p, jp, s + run, NULL);
		jit_program_free(jp);

		/* as a translated program: only what the engine reads is
		 * seen after it (ir_live.h), so compiled loops keep the
		 * registers live past them, and the buffers and shared
		 * memory written after the loop from its values must still
		 * match (the loops read registers set before them) */
		uint8_t observed[NREGS];

		p->outputs_only = true;
		ir_live_exit_regs(p, observed);
		jp = jit_compile(p, lanes[seed % 3]);
		assert_non_null(jp);
		if (seed % 2)
			assert_non_null(jp->blocks[1].loop);
		for (uint32_t run = 0; run < 2; run++)
			same_results(p, jp, s + run, observed);
		jit_program_free(jp);
		ir_program_free(p);
	}
	if (jit_available()) {
		printf("flow programs: %u of %u instructions compiled, %u "
		       "loops as one function\n", compiled, total, loops);
		assert_true(compiled * 10 >= total * 9);
	}
}

/*
 * A compiled loop longer than JIT_LOOP_BUDGET blocks (lane l runs l *
 * 3000 iterations: the function returns to the scheduler many times,
 * each time at block boundaries) ends as the interpreter does; an
 * endless one is stopped by the watchdog on both back ends.
 */
static struct ir_program *
counting_loop(uint32_t mult)
{
	struct ir_program *p = calloc(1, sizeof(*p));
	struct gen g = { .cap = 16 };
	struct ir_instr *in;

	assert_non_null(p);
	g.code = calloc(g.cap, sizeof(*g.code));
	p->blocks = calloc(3, sizeof(*p->blocks));
	p->const_regs = calloc(2, 4);
	p->const_vals = calloc(2, 4);
	assert_non_null(g.code);
	assert_non_null(p->blocks);
	assert_non_null(p->const_regs);
	assert_non_null(p->const_vals);
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[0] = 64;
	p->local_size[1] = p->local_size[2] = 1;
	p->nblocks = 3;
	p->nconsts = 2;
	p->const_regs[0] = K_ONE;
	p->const_vals[0] = 1;
	p->const_regs[1] = K_MASK_ANY;       /* the multiplier */
	p->const_vals[1] = mult;
	emit(&g, IR_MOV, CTR, IR_REG_ZERO, 0);
	emit(&g, IR_IMUL, LIM, IR_REG_LOCAL_INDEX, K_MASK_ANY);
	emit(&g, IR_BR, 0, 0, 0)->imm = 1;
	p->blocks[0].count = g.n;
	p->blocks[1].first = g.n;
	emit(&g, IR_IADD, CTR, CTR, K_ONE);
	emit(&g, IR_XOR, VAL, VAL, CTR);
	emit(&g, IR_ULT, COND, CTR, LIM);
	in = emit(&g, IR_BRC, 0, COND, 2);
	in->imm = 1;
	p->blocks[1].count = g.n - p->blocks[1].first;
	p->blocks[2].first = g.n;
	emit(&g, IR_RET, 0, 0, 0);
	p->blocks[2].count = 1;
	p->code = g.code;
	p->ninstr = g.n;
	return p;
}

static bool
run_loop(struct ir_program *p, const struct jit_program *jp,
         uint64_t timeout_ns, struct ir_exec **out)
{
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	struct ir_exec *e = ir_exec_create(p);
	bool ok;

	assert_non_null(d);
	assert_non_null(e);
	ir_exec_set_jit(e, jp);
	d->prog = p;
	d->groups[0] = d->groups[1] = d->groups[2] = 1;
	d->total_groups = 1;
	d->hang_timeout_ns = timeout_ns;
	d->progress_ns = swgpu_now_ns();
	ok = ir_exec_run(e, d);
	free(d);
	*out = e;
	return ok;
}

static void
test_loop_budget(void **state)
{
	(void)state;
	if (!jit_available())
		return;
	struct ir_program *p = counting_loop(3000);
	struct jit_program *jp = jit_compile(p, 8);
	struct ir_exec *ei, *ej;

	assert_non_null(jp);
	assert_non_null(jp->blocks[1].loop);
	assert_true(run_loop(p, NULL, 60ull * 1000000000ull, &ei));
	assert_true(run_loop(p, jp, 60ull * 1000000000ull, &ej));
	/* 63 * 3000 iterations of the last lane: many budgets */
	assert_true(ir_exec_reg(ej, CTR)[63].u == 63 * 3000);
	for (uint32_t r = 0; r < p->nregs; r++)
		assert_memory_equal(ir_exec_reg(ei, r), ir_exec_reg(ej, r),
		                    64 * 4);
	ir_exec_destroy(ei);
	ir_exec_destroy(ej);
	jit_program_free(jp);
	ir_program_free(p);

	/* ~2^32 iterations of lane 1: the watchdog stops it */
	p = counting_loop(0xffffffffu);
	jp = jit_compile(p, 8);
	assert_non_null(jp);
	uint64_t t0 = swgpu_now_ns();

	assert_false(run_loop(p, jp, 200ull * 1000000ull, &ej));
	printf("endless compiled loop stopped after %.0f ms\n",
	       (double)(swgpu_now_ns() - t0) / 1e6);
	ir_exec_destroy(ej);
	jit_program_free(jp);
	ir_program_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_programs),
		cmocka_unit_test(test_loop_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

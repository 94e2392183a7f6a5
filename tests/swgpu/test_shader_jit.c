/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler (hw/shader/jit.h) against the interpreter, its
 * reference: the same program on the same inputs under both back ends
 * must leave every register of every lane bit for bit the same.
 *
 *  - Random programs of the compiled subset (fixed seeds): integer and
 *    float ALU, comparisons, selects, moves, constants, with special
 *    values among the inputs (NaN, infinities, signed zeros, denormals,
 *    INT_MIN, -1, 0, 1), divergent branches (masked writes), a
 *    workgroup with idle lanes, and instructions the compiler leaves to
 *    the interpreter in the middle of blocks (segments around them);
 *    at each vector length, 4, 8 and 16 lanes.
 *  - Real shaders of the test suite (vkcube's lit fragment shader, a
 *    control-flow one, the derivative test's) translated and run as
 *    fragment batches on random inputs with helper lanes: the registers
 *    the engine reads the same as translated (compiled loops keep only
 *    live registers, hw/shader/ir_live.h), every register marked as a
 *    hand-built program.
 *  - SWGPU_SHADER=jit makes execution states use compiled code; a
 *    program with nothing compilable is declined (NULL), not an error.
 * In a build without LLVM the compiler declines everything and the
 * interpreter-only checks still run.
 */
#include "shader_stage_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_live.h"
#include "hw/shader/jit.h"
#include "sh_fs_cube_light.spv.h"
#include "sh_fs_deriv.spv.h"
#include "sh_fs_opt_flow.spv.h"

static uint64_t rng_state;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Ops of the compiled subset with the types they read and write
 * ('i' integer bits, 'f' a float): programs are typed, so a float's NaN
 * never reaches an integer op — SPIR-V leaves NaN signs and payloads
 * open, and neither C compilers nor LLVM keep them (both swap the
 * operands of commutative float ops), so two NaNs count as equal. */
static const struct {
	uint16_t op;
	char res;
	const char *src;
} subset[] = {
	{ IR_MOV, 'i', "i" }, { IR_MOV, 'f', "f" },
	{ IR_IADD, 'i', "ii" }, { IR_ISUB, 'i', "ii" }, { IR_IMUL, 'i', "ii" },
	{ IR_UDIV, 'i', "ii" }, { IR_SDIV, 'i', "ii" }, { IR_UMOD, 'i', "ii" },
	{ IR_SREM, 'i', "ii" }, { IR_SMOD, 'i', "ii" }, { IR_INEG, 'i', "i" },
	{ IR_UMULHI, 'i', "ii" }, { IR_SMULHI, 'i', "ii" },
	{ IR_ADDCARRY, 'i', "ii" }, { IR_SUBBORROW, 'i', "ii" },
	{ IR_SHL, 'i', "ii" }, { IR_SHR, 'i', "ii" }, { IR_SAR, 'i', "ii" },
	{ IR_AND, 'i', "ii" }, { IR_OR, 'i', "ii" }, { IR_XOR, 'i', "ii" },
	{ IR_NOT, 'i', "i" }, { IR_BFI, 'i', "iiii" }, { IR_BFE_U, 'i', "iii" },
	{ IR_BFE_S, 'i', "iii" }, { IR_BITREV, 'i', "i" },
	{ IR_BITCOUNT, 'i', "i" }, { IR_FINDLSB, 'i', "i" },
	{ IR_FINDSMSB, 'i', "i" }, { IR_FINDUMSB, 'i', "i" },
	{ IR_SMIN, 'i', "ii" }, { IR_SMAX, 'i', "ii" }, { IR_UMIN, 'i', "ii" },
	{ IR_UMAX, 'i', "ii" }, { IR_SCLAMP, 'i', "iii" },
	{ IR_UCLAMP, 'i', "iii" }, { IR_SABS, 'i', "i" }, { IR_SSIGN, 'i', "i" },
	{ IR_ADDSAT_S, 'i', "ii" }, { IR_ADDSAT_U, 'i', "ii" },
	{ IR_UMULSAT, 'i', "ii" },
	{ IR_IEQ, 'i', "ii" }, { IR_INE, 'i', "ii" }, { IR_ULT, 'i', "ii" },
	{ IR_ULE, 'i', "ii" }, { IR_UGT, 'i', "ii" }, { IR_UGE, 'i', "ii" },
	{ IR_SLT, 'i', "ii" }, { IR_SLE, 'i', "ii" }, { IR_SGT, 'i', "ii" },
	{ IR_SGE, 'i', "ii" },
	{ IR_FOEQ, 'i', "ff" }, { IR_FONE, 'i', "ff" }, { IR_FOLT, 'i', "ff" },
	{ IR_FOLE, 'i', "ff" }, { IR_FOGT, 'i', "ff" }, { IR_FOGE, 'i', "ff" },
	{ IR_FUEQ, 'i', "ff" }, { IR_FUNE, 'i', "ff" }, { IR_FULT, 'i', "ff" },
	{ IR_FULE, 'i', "ff" }, { IR_FUGT, 'i', "ff" }, { IR_FUGE, 'i', "ff" },
	{ IR_FORD, 'i', "ff" }, { IR_FUNORD, 'i', "ff" },
	{ IR_ISNAN, 'i', "f" }, { IR_ISINF, 'i', "f" }, { IR_LNOT, 'i', "i" },
	{ IR_SELECT, 'i', "iii" }, { IR_SELECT, 'f', "iff" },
	{ IR_SELIDX, 'i', "iii" }, { IR_SELIDX, 'f', "iff" },
	{ IR_FADD, 'f', "ff" }, { IR_FSUB, 'f', "ff" }, { IR_FMUL, 'f', "ff" },
	{ IR_FDIV, 'f', "ff" }, { IR_FMOD, 'f', "ff" }, { IR_FNEG, 'f', "f" },
	{ IR_FMIN, 'f', "ff" }, { IR_FMAX, 'f', "ff" },
	{ IR_FCLAMP, 'f', "fff" }, { IR_FMIX, 'f', "fff" },
	{ IR_FMA, 'f', "fff" }, { IR_STEP, 'f', "ff" },
	{ IR_SSTEP, 'f', "fff" }, { IR_FABS, 'f', "f" }, { IR_FSIGN, 'f', "f" },
	{ IR_FLOOR, 'f', "f" }, { IR_CEIL, 'f', "f" }, { IR_FRACT, 'f', "f" },
	{ IR_ROUND, 'f', "f" }, { IR_ROUNDEVEN, 'f', "f" },
	{ IR_TRUNC, 'f', "f" }, { IR_SQRT, 'f', "f" }, { IR_RSQRT, 'f', "f" },
	{ IR_RADIANS, 'f', "f" }, { IR_DEGREES, 'f', "f" },
	{ IR_FMULADD2, 'f', "ffff" }, { IR_FMULSUB2, 'f', "ffff" },
	{ IR_FMULADD, 'f', "fff" }, { IR_FADDMUL, 'f', "fff" },
	{ IR_F2S, 'i', "f" }, { IR_F2U, 'i', "f" }, { IR_S2F, 'f', "i" },
	{ IR_U2F, 'f', "i" }, { IR_FTZ, 'f', "f" },
};
#define NSUBSET (sizeof(subset) / sizeof(subset[0]))

/* Values that find the edges of every op. */
static uint32_t
special(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 31, 32, 33, ~0u, 0x80000000u, 0x7fffffffu,
		0x7fc00000u /* NaN */, 0xffc00001u, 0x7fa00000u /* sNaN */,
		0x7f800000u, 0xff800000u, 0x80000000u /* -0 */,
		0x00000001u, 0x807fffffu /* denormals */, 0x3f800000u,
		0xbf800000u, 0x3f000000u, 0x3fc00000u /* 1.5 */,
		0x40200000u /* 2.5 */, 0x4f000000u /* 2^31 */,
		0xcf000000u, 0x4f800000u /* 2^32 */, 0x38800000u,
		0x4b000001u /* 2^23 + 1 */, 0xbfc00000u /* -1.5 */,
	};

	return v[rnd() % (sizeof(v) / sizeof(v[0]))];
}

static uint32_t
random_value(void)
{
	switch (rnd() % 4) {
	case 0: return special();
	case 1: { float f = ((float)(rnd() % 20001) - 10000.0f) / 128.0f;
	          uint32_t u; memcpy(&u, &f, 4); return u; }
	case 2: return rnd() % 64;
	default: return rnd();
	}
}

#define NVAL 24u                       /* value registers */
#define NCONST 6u
#define FIRST_VAL IR_REG_FIRST_FREE
#define FIRST_CONST (FIRST_VAL + NVAL)
#define NREGS (FIRST_CONST + NCONST)

/* Value and constant registers alternate integer, float; built-ins are
 * integers. */
static bool
is_float_reg(uint32_t r)
{
	return r >= FIRST_VAL && ((r - FIRST_VAL) & 1);
}

/* A register of type t ('i', 'f') to read. */
static uint32_t
src_reg(char t)
{
	uint32_t k = rnd() % 16, odd = t == 'f';

	if (k == 0 && !odd)
		return IR_REG_ZERO;
	if (k == 1 && !odd)
		return IR_REG_LOCAL_ID;
	if (k < 4)
		return FIRST_CONST + (rnd() % (NCONST / 2)) * 2 + odd;
	return FIRST_VAL + (rnd() % (NVAL / 2)) * 2 + odd;
}

static uint32_t
dst_reg(char t)
{
	return FIRST_VAL + (rnd() % (NVAL / 2)) * 2 + (t == 'f');
}

static void
random_instr(struct ir_instr *in)
{
	uint32_t k = rnd() % NSUBSET;
	const char *src = subset[k].src;

	memset(in, 0, sizeof(*in));
	in->op = subset[k].op;
	in->dst = dst_reg(subset[k].res);
	in->a = src_reg(src[0]);
	if (src[1])
		in->b = src_reg(src[1]);
	if (src[1] && src[2])
		in->c = src_reg(src[2]);
	if (src[1] && src[2] && src[3])
		in->d = src_reg(src[3]);
	if (in->op == IR_SELIDX)
		in->imm = rnd() % 4;
	if (in->op == IR_FTZ) {
		static const uint8_t w[] = { 32, 16, IR_FTZ_HALF_IN_F32 };

		in->aux2 = w[rnd() % 3];
	}
	/* now and then one the interpreter keeps (a subgroup op):
	 * segments around it */
	if (rnd() % 16 == 0) {
		in->op = rnd() % 2 ? IR_BCASTFIRST : IR_SHUFXOR;
		in->dst = dst_reg('f');
		in->a = src_reg('f');
		in->b = in->c = in->d = 0;
		in->aux2 = 0;
	}
}

/*
 * A random compute program: blocks 0 (entry), 1 and 2 (the two sides
 * of a divergent branch on a register's low bit), 3 (the join, then a
 * loop-free tail), each of n random instructions plus a terminator.
 */
static struct ir_program *
random_program(uint32_t n, uint32_t local_size)
{
	struct ir_program *p = calloc(1, sizeof(*p));
	uint32_t pos = 0;

	assert_non_null(p);
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[0] = local_size;
	p->local_size[1] = p->local_size[2] = 1;
	p->nblocks = 4;
	p->blocks = calloc(4, sizeof(*p->blocks));
	p->code = calloc(4 * (n + 2), sizeof(*p->code));
	p->const_regs = calloc(NCONST, 4);
	p->const_vals = calloc(NCONST, 4);
	assert_non_null(p->blocks);
	assert_non_null(p->code);
	assert_non_null(p->const_regs);
	assert_non_null(p->const_vals);
	p->nconsts = NCONST;
	for (uint32_t i = 0; i < NCONST; i++) {
		p->const_regs[i] = FIRST_CONST + i;
		p->const_vals[i] = random_value();
	}
	for (uint32_t b = 0; b < 4; b++) {
		p->blocks[b].first = pos;
		for (uint32_t i = 0; i < n; i++)
			random_instr(&p->code[pos++]);
		struct ir_instr *t = &p->code[pos++];

		memset(t, 0, sizeof(*t));
		if (b == 0) {
			/* cond = value & 1 into a scratch register, then
			 * branch: lanes split between blocks 1 and 2 */
			struct ir_instr *c = t;

			c->op = IR_AND;
			c->dst = dst_reg('i');
			c->a = src_reg('i');
			c->b = FIRST_CONST;           /* constant 1 */
			p->const_vals[0] = 1;
			t = &p->code[pos++];
			memset(t, 0, sizeof(*t));
			t->op = IR_BRC;
			t->a = c->dst;
			t->imm = 1;
			t->b = 2;
		} else if (b < 3) {
			t->op = IR_BR;
			t->imm = 3;
		} else {
			t->op = IR_RET;
		}
		p->blocks[b].count = pos - p->blocks[b].first;
	}
	p->ninstr = pos;
	return p;
}

static void
fill_inputs(struct ir_exec *e, uint64_t seed, uint32_t width)
{
	rng_state = seed;
	for (uint32_t r = FIRST_VAL; r < FIRST_VAL + NVAL; r++)
		for (uint32_t l = 0; l < width; l++)
			ir_exec_reg(e, r)[l].u = random_value();
}

static void
compare_regs(struct ir_exec *ei, struct ir_exec *ej, uint32_t nregs,
             uint32_t width, const char *what, uint64_t seed,
             bool (*float_regs)(uint32_t r))
{
	for (uint32_t r = 0; r < nregs; r++)
		for (uint32_t l = 0; l < width; l++) {
			uint32_t a = ir_exec_reg(ei, r)[l].u;
			uint32_t b = ir_exec_reg(ej, r)[l].u;

			float fa, fb;

			memcpy(&fa, &a, 4);
			memcpy(&fb, &b, 4);
			if (a != b && !(float_regs && float_regs(r) &&
			                fa != fa && fb != fb))
				fail_msg("%s seed %#llx: register %u lane %u: "
				         "interpreter %#x, compiled %#x", what,
				         (unsigned long long)seed, r, l, a, b);
		}
}

/* SHOW_IR=1: print p (op numbers from ir.h's enum). */
static void
show(const struct ir_program *p)
{
	if (!getenv("SHOW_IR"))
		return;
	for (uint32_t b = 0; b < p->nblocks; b++) {
		printf(" block %u\n", b);
		for (uint32_t i = p->blocks[b].first;
		     i < p->blocks[b].first + p->blocks[b].count; i++) {
			const struct ir_instr *in = &p->code[i];

			printf("  %3u op %3u dst %u a %u b %u c %u d %u imm %#x "
			       "aux2 %u\n", i, in->op, in->dst, in->a, in->b,
			       in->c, in->d, in->imm, in->aux2);
		}
	}
}

/* Run p once on each back end from the same inputs; compare. */
static void
run_both(struct ir_program *p, const struct jit_program *jp, uint64_t seed,
         const char *what)
{
	struct ir_exec *ei = ir_exec_create(p), *ej = ir_exec_create(p);
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	const uint32_t width = (p->local_size[0] + 31) / 32 * 32;

	assert_non_null(ei);
	assert_non_null(ej);
	assert_non_null(d);
	ir_exec_set_jit(ei, NULL);
	ir_exec_set_jit(ej, jp);
	d->prog = p;
	d->groups[0] = d->groups[1] = d->groups[2] = 1;
	d->total_groups = 1;
	d->hang_timeout_ns = 60ull * 1000000000ull;
	fill_inputs(ei, seed, width);
	fill_inputs(ej, seed, width);
	d->progress_ns = swgpu_now_ns();
	assert_true(ir_exec_run(ei, d));
	d->next_group = 0;
	d->progress_ns = swgpu_now_ns();
	assert_true(ir_exec_run(ej, d));
	show(p);
	compare_regs(ei, ej, p->nregs, width, what, seed, is_float_reg);
	ir_exec_destroy(ei);
	ir_exec_destroy(ej);
	free(d);
}

/* Each op of the subset alone, on many inputs (special values among
 * them): a difference names the op. */
static void
test_each_op(void **state)
{
	(void)state;
	if (!jit_available())
		return;
	for (uint32_t k = 0; k < NSUBSET; k++)
		/* imm and aux2 matter to SELIDX and FTZ only */
		for (uint32_t variant = 0; variant < (subset[k].op == IR_SELIDX ||
		     subset[k].op == IR_FTZ ? 3u : 1u); variant++) {
			rng_state = 0x1234567ull + k * 77 + variant;
			struct ir_program *p = random_program(0, 64);
			struct ir_instr *in = &p->code[0];
			const char *src = subset[k].src;
			uint32_t *ops[4] = { &in->a, &in->b, &in->c, &in->d };

			/* block 0: op, BR; the others: BR / RET */
			memset(in, 0, sizeof(*in));
			in->op = subset[k].op;
			in->dst = FIRST_VAL + (subset[k].res == 'f');
			/* distinct registers of the right types */
			for (uint32_t q = 0; src[q]; q++)
				*ops[q] = FIRST_VAL + 2 + 2 * q + (src[q] == 'f');
			in->imm = variant;
			in->aux2 = in->op == IR_FTZ ? (variant == 0 ? 32 :
			           variant == 1 ? 16 : IR_FTZ_HALF_IN_F32) : 0;
			p->code[1].op = IR_BR;
			p->code[1].imm = 3;
			struct jit_program *jp = jit_compile(p, 8);

			assert_non_null(jp);
			assert_int_equal(jp->compiled, jp->total);
			for (uint64_t seed = 1; seed <= 24; seed++) {
				char what[32];

				snprintf(what, sizeof(what), "op %u (%c)", in->op,
				         subset[k].res);
				run_both(p, jp, seed * 0x9e3779b97f4a7c15ull +
				         k, what);
			}
			jit_program_free(jp);
			ir_program_free(p);
		}
}

static void
test_random_programs(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };
	uint32_t programs = 0, compiled = 0, total = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 60; seed++) {
		uint64_t s = seed * 0x9e3779b97f4a7c15ull;

		rng_state = s;
		/* 40 lanes: a width of 64 with 24 idle lanes */
		struct ir_program *p = random_program(4 + rnd() % 24,
		                                      seed % 3 ? 64 : 40);
		struct jit_program *jp = jit_compile(p, lanes[seed % 3]);

		if (!jit_available()) {
			assert_null(jp);
			ir_program_free(p);
			continue;
		}
		assert_non_null(jp);
		assert_int_equal(jp->lanes, lanes[seed % 3]);
		programs++;
		compiled += jp->compiled;
		total += jp->total;
		for (uint32_t run = 0; run < 3; run++)
			run_both(p, jp, s + run, "random program");
		jit_program_free(jp);
		ir_program_free(p);
	}
	if (jit_available()) {
		printf("random programs: %u, %u of %u instructions "
		       "compiled\n", programs, compiled, total);
		/* terminators and the odd subgroup op stay interpreted */
		assert_true(compiled * 10 >= total * 7);
	}
}

/* A real fragment shader: random inputs, helper lanes, 32 lanes. */
#define W 32u

static void
run_fragment(const struct ir_program *p, const struct jit_program *jp,
             uint64_t seed, struct ir_exec **out)
{
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint8_t live[W];

	assert_non_null(e);
	ir_exec_set_jit(e, jp);
	ss_random_fragment_inputs(e, p, W, seed, live);
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	free(d);
	*out = e;
}

/* The registers seen[r] of every lane bit for bit the same. */
static void
compare_seen_regs(struct ir_exec *ei, struct ir_exec *ej, uint32_t nregs,
                  const uint8_t *seen, const char *what, uint64_t seed)
{
	for (uint32_t r = 0; r < nregs; r++)
		for (uint32_t l = 0; seen[r] && l < W; l++)
			if (ir_exec_reg(ei, r)[l].u != ir_exec_reg(ej, r)[l].u)
				fail_msg("%s, seed %#llx: register %u lane %u: "
				         "interpreter %#x, compiled %#x", what,
				         (unsigned long long)seed, r, l,
				         ir_exec_reg(ei, r)[l].u,
				         ir_exec_reg(ej, r)[l].u);
}

static void
same_fragment_results(const char *name, const uint32_t *code, size_t size,
                      uint32_t ntex)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p = ss_translate(code, size,
	                                    SWGPU_SHADER_STAGE_FRAGMENT, &t,
	                                    ntex, 0);
	struct jit_program *jp = jit_compile(p, 0);

	if (!jit_available()) {
		assert_null(jp);
		ir_program_free(p);
		return;
	}
	assert_non_null(jp);
	printf("%s: %u of %u instructions compiled, %u lanes a vector\n",
	       name, jp->compiled, jp->total, jp->lanes);
	assert_true(jp->compiled > 0);
	/* as translated, what the engine reads (compiled loops keep only
	 * live registers, hw/shader/ir_live.h); then, marked as a
	 * hand-built program, every register */
	uint8_t *seen = malloc(p->nregs);

	assert_non_null(seen);
	assert_true(p->outputs_only);
	ir_live_exit_regs(p, seen);
	for (int whole = 0; whole < 2; whole++) {
		if (whole) {
			jit_program_free(jp);
			p->outputs_only = false;
			memset(seen, 1, p->nregs);
			jp = jit_compile(p, 0);
			assert_non_null(jp);
		}
		for (uint64_t seed = 1; seed <= 32; seed++) {
			struct ir_exec *ei, *ej;
			uint64_t s = seed * 0x9e3779b97f4a7c15ull;

			run_fragment(p, NULL, s, &ei);
			run_fragment(p, jp, s, &ej);
			compare_seen_regs(ei, ej, p->nregs, seen, name, s);
			ir_exec_destroy(ei);
			ir_exec_destroy(ej);
		}
	}
	free(seen);
	jit_program_free(jp);
	ir_program_free(p);
}

static void
test_real_shaders(void **state)
{
	(void)state;
	/* the texture stays unbound: sampling reads the null descriptor's
	 * zeros on both back ends */
	same_fragment_results("vkcube cube.frag", sh_fs_cube_light_spv,
	                      sizeof(sh_fs_cube_light_spv), 1);
	same_fragment_results("sh_fs_opt_flow", sh_fs_opt_flow_spv,
	                      sizeof(sh_fs_opt_flow_spv), 0);
	same_fragment_results("sh_fs_deriv", sh_fs_deriv_spv,
	                      sizeof(sh_fs_deriv_spv), 0);
}

/* SWGPU_SHADER=jit (set in main): execution states get compiled code,
 * made once per program; a program with nothing to compile gets none. */
static void
test_knob(void **state)
{
	(void)state;
	rng_state = 77;
	struct ir_program *p = random_program(8, 64);
	struct ir_exec *e = ir_exec_create(p);

	assert_non_null(e);
	assert_int_equal(jit_requested(), jit_available());
	assert_int_equal(p->jit_tried, jit_available());
	if (jit_available()) {
		const struct jit_program *first = p->jit;

		assert_non_null(first);
		ir_exec_destroy(e);
		e = ir_exec_create(p);
		assert_ptr_equal(p->jit, first);   /* compiled once */
	} else {
		assert_null(p->jit);
	}
	ir_exec_destroy(e);
	ir_program_free(p);

	/* nothing compilable (phis whose tables are out of range; every
	 * other op is compiled since jitops2's frame calls): declined */
	p = random_program(0, 32);
	for (uint32_t i = 0; i < p->ninstr; i++) {
		p->code[i].op = IR_PHI;
		p->code[i].b = p->ntable + 1;
		p->code[i].c = 1;
	}
	assert_null(jit_compile(p, 8));
	ir_program_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_op),
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_real_shaders),
		cmocka_unit_test(test_knob),
	};

	setenv("SWGPU_SHADER", "jit", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

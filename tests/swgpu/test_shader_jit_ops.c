/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's wider op coverage (jit/jit_ext.c) against the
 * interpreter: transcendentals and libm's other float functions, frexp
 * and ldexp, half and norm packing, byte dot products, 64-bit integers
 * and doubles on register pairs, rounding toward zero. Each op alone,
 * at every variant of its aux2 / imm, on inputs full of edges (NaNs,
 * infinities, signed zeros, denormals, integer extremes, double
 * patterns in register pairs) and random ones, at vector lengths 4, 8
 * and 16; then random programs of these ops over divergent branches
 * and idle lanes. Every register of every lane must be bit for bit the
 * interpreter's: these ops run the interpreter's own lane code or
 * integer LLVM IR, so not even a NaN's payload may differ.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The ops, with how many variants of aux2 (or imm) they have and which
 * field the variant goes to. */
enum var_field { V_NONE, V_AUX2, V_IMM };
static const struct {
	uint16_t op;
	uint8_t nsrc;       /* a, b, c, d used */
	uint8_t nvar;
	uint8_t field;      /* enum var_field */
} ops[] = {
	{ IR_EXP, 1, 1, V_NONE }, { IR_EXP2, 1, 1, V_NONE },
	{ IR_LOG, 1, 1, V_NONE }, { IR_LOG2, 1, 1, V_NONE },
	{ IR_POW, 2, 1, V_NONE }, { IR_SIN, 1, 1, V_NONE },
	{ IR_COS, 1, 1, V_NONE }, { IR_TAN, 1, 1, V_NONE },
	{ IR_ASIN, 1, 1, V_NONE }, { IR_ACOS, 1, 1, V_NONE },
	{ IR_ATAN, 1, 1, V_NONE }, { IR_ATAN2, 2, 1, V_NONE },
	{ IR_SINH, 1, 1, V_NONE }, { IR_COSH, 1, 1, V_NONE },
	{ IR_TANH, 1, 1, V_NONE }, { IR_ASINH, 1, 1, V_NONE },
	{ IR_ACOSH, 1, 1, V_NONE }, { IR_ATANH, 1, 1, V_NONE },
	{ IR_FREM, 2, 1, V_NONE }, { IR_LDEXP, 2, 1, V_NONE },
	{ IR_FREXPM, 1, 1, V_NONE }, { IR_FREXPE, 1, 1, V_NONE },
	{ IR_QUANT16, 1, 1, V_NONE }, { IR_FTZ, 1, 1, V_NONE },
	{ IR_PACKH2, 2, 2, V_AUX2 }, { IR_UNPACKH_LO, 1, 1, V_NONE },
	{ IR_UNPACKH_HI, 1, 1, V_NONE }, { IR_PACKUN4, 4, 1, V_NONE },
	{ IR_PACKSN4, 4, 1, V_NONE }, { IR_PACKUN2, 2, 1, V_NONE },
	{ IR_PACKSN2, 2, 1, V_NONE }, { IR_UNPACKUN4, 1, 4, V_IMM },
	{ IR_UNPACKSN4, 1, 4, V_IMM }, { IR_UNPACKUN2, 1, 2, V_IMM },
	{ IR_UNPACKSN2, 1, 2, V_IMM }, { IR_DOT4X8, 2, 3, V_AUX2 },
	{ IR_ADD64, 4, 1, V_NONE }, { IR_SUB64, 4, 1, V_NONE },
	{ IR_MUL64, 4, 1, V_NONE }, { IR_UDIV64, 4, 1, V_NONE },
	{ IR_SDIV64, 4, 1, V_NONE }, { IR_UMOD64, 4, 1, V_NONE },
	{ IR_SREM64, 4, 1, V_NONE }, { IR_SMOD64, 4, 1, V_NONE },
	{ IR_SHL64, 3, 1, V_NONE }, { IR_SHR64, 3, 1, V_NONE },
	{ IR_SAR64, 3, 1, V_NONE }, { IR_IEQ64, 4, 1, V_NONE },
	{ IR_INE64, 4, 1, V_NONE }, { IR_ULT64, 4, 1, V_NONE },
	{ IR_ULE64, 4, 1, V_NONE }, { IR_UGT64, 4, 1, V_NONE },
	{ IR_UGE64, 4, 1, V_NONE }, { IR_SLT64, 4, 1, V_NONE },
	{ IR_SLE64, 4, 1, V_NONE }, { IR_SGT64, 4, 1, V_NONE },
	{ IR_SGE64, 4, 1, V_NONE }, { IR_S64TOF, 2, 1, V_NONE },
	{ IR_U64TOF, 2, 1, V_NONE }, { IR_F2S64, 1, 1, V_NONE },
	{ IR_F2U64, 1, 1, V_NONE },
	/* every double operation, then each with RoundingModeRTZ */
	{ IR_F64, 4, 2 * (IR_D_TO_U64 + 1), V_AUX2 },
	{ IR_RTZ, 3, 9, V_IMM },
	{ IR_NOP, 0, 1, V_NONE },   /* writes nothing, segments go on */
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

static const uint16_t rtz_ops[9] = {
	IR_FADD, IR_FSUB, IR_FMUL, IR_FDIV, IR_FMA, IR_S2F, IR_U2F,
	IR_S64TOF, IR_U64TOF,
};

/* One 32-bit word at an edge of some op: float specials, denormals,
 * integer extremes, half-float edges, exponent fields of doubles (a
 * high word) and small shift / ldexp amounts. */
static uint32_t
special(void)
{
	static const uint32_t v[] = {
		0, 1, 2, 7, 31, 32, 33, 63, 64, ~0u, 0x80000000u, 0x7fffffffu,
		0xfffffed4u /* -300 */, 0x12cu /* 300 */, 0xffffff81u,
		0x7fc00000u, 0xffc00001u, 0x7fa00000u /* sNaN */,
		0x7f800000u, 0xff800000u, 0x00000001u, 0x807fffffu,
		0x00800000u, 0x3f800000u, 0xbf800000u, 0x3f000000u,
		0x3fc00000u, 0x40200000u, 0x4f000000u, 0xcf000000u,
		0x5f000000u /* 2^63 */, 0xdf000000u, 0x5f800000u /* 2^64 */,
		0x477fe000u /* 65504 */, 0x477ff000u, 0x38800000u,
		0x33800000u /* 2^-24 */, 0x7c00u, 0xfc00u, 0x7e00u, 0x7c01u,
		0x3c00u, 0x0001u, 0x8001u, 0x03ffu,
		0x7ff00000u, 0xfff00000u, 0x7ff80000u, 0x000fffffu,
		0x3ff00000u, 0xbff00000u, 0x43e00000u, 0xc3e00000u,
		0x41e00000u, 0x41f00000u, 0x47efffffu /* near FLT_MAX */,
		0x36a00000u /* near FLT_MIN */, 0x40490fdbu /* pi */,
		0x3fc90fdbu, 0x42b20000u /* 89 */, 0xc2b40000u,
	};

	return v[rnd() % (sizeof(v) / sizeof(v[0]))];
}

static uint32_t
random_value(void)
{
	switch (rnd() % 5) {
	case 0: case 1: return special();
	case 2: { float f = ((float)(rnd() % 20001) - 10000.0f) / 256.0f;
	          uint32_t u; memcpy(&u, &f, 4); return u; }
	case 3: return rnd() % 128;
	default: return rnd();
	}
}

#define FIRST_VAL IR_REG_FIRST_FREE
#define NVAL 20u
#define NREGS (FIRST_VAL + NVAL)

static void
set_variant(struct ir_instr *in, uint32_t k, uint32_t v)
{
	if (ops[k].op == IR_RTZ) {
		in->imm = rtz_ops[v];
		return;
	}
	if (ops[k].field == V_AUX2)
		in->aux2 = (uint8_t)v;
	else if (ops[k].field == V_IMM)
		in->imm = v;
	if (ops[k].op == IR_F64) {
		in->aux2 = (uint8_t)(v % (IR_D_TO_U64 + 1));
		in->imm = v > IR_D_TO_U64 ? IR_RND_RTZ : 0;
	}
	if (ops[k].op == IR_FTZ)
		in->aux2 = 64;   /* not a width jit_alu.c knows: the lane call */
}

/* Blocks: 0 (body0, branch on a register's low bit), 1 and 2 (bodies,
 * to 3), 3 (body3, RET); n[b] instructions of body b from gen. */
static struct ir_program *
program(const uint32_t n[4], uint32_t local_size,
        void (*gen)(struct ir_instr *in, void *arg), void *arg)
{
	struct ir_program *p = calloc(1, sizeof(*p));
	uint32_t pos = 0, total = n[0] + n[1] + n[2] + n[3] + 6;

	assert_non_null(p);
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[0] = local_size;
	p->local_size[1] = p->local_size[2] = 1;
	p->nblocks = 4;
	p->blocks = calloc(4, sizeof(*p->blocks));
	p->code = calloc(total, sizeof(*p->code));
	assert_non_null(p->blocks);
	assert_non_null(p->code);
	for (uint32_t b = 0; b < 4; b++) {
		p->blocks[b].first = pos;
		for (uint32_t i = 0; i < n[b]; i++)
			gen(&p->code[pos++], arg);
		struct ir_instr *t = &p->code[pos++];

		if (b == 0) {
			/* bit 0 of the last value register, kept apart */
			t->op = IR_AND;
			t->dst = NREGS - 1;
			t->a = FIRST_VAL + rnd() % (NVAL - 2);
			t->b = IR_REG_LOCAL_ID;
			t = &p->code[pos++];
			t->op = IR_BRC;
			t->a = NREGS - 1;
			t->imm = 1;
			t->b = 2;
		} else {
			t->op = b < 3 ? IR_BR : IR_RET;
			t->imm = 3;
		}
		p->blocks[b].count = pos - p->blocks[b].first;
	}
	p->ninstr = pos;
	return p;
}

static void
run_both(struct ir_program *p, const struct jit_program *jp, uint64_t seed,
         const char *what)
{
	struct ir_exec *ex[2] = { ir_exec_create(p), ir_exec_create(p) };
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	const uint32_t width = (p->local_size[0] + 31) / 32 * 32;

	assert_non_null(ex[0]);
	assert_non_null(ex[1]);
	assert_non_null(d);
	ir_exec_set_jit(ex[0], NULL);
	ir_exec_set_jit(ex[1], jp);
	d->prog = p;
	d->groups[0] = d->groups[1] = d->groups[2] = 1;
	d->total_groups = 1;
	d->hang_timeout_ns = 60ull * 1000000000ull;
	for (uint32_t k = 0; k < 2; k++) {
		rng_state = seed;
		for (uint32_t r = FIRST_VAL; r < NREGS; r++)
			for (uint32_t l = 0; l < width; l++)
				ir_exec_reg(ex[k], r)[l].u = random_value();
		d->next_group = 0;
		d->progress_ns = swgpu_now_ns();
		assert_true(ir_exec_run(ex[k], d));
	}
	for (uint32_t r = 0; r < p->nregs; r++)
		for (uint32_t l = 0; l < width; l++) {
			uint32_t a = ir_exec_reg(ex[0], r)[l].u;
			uint32_t b = ir_exec_reg(ex[1], r)[l].u;

			if (a != b)
				fail_msg("%s seed %#llx: register %u lane %u: "
				         "interpreter %#x, compiled %#x", what,
				         (unsigned long long)seed, r, l, a, b);
		}
	ir_exec_destroy(ex[0]);
	ir_exec_destroy(ex[1]);
	free(d);
}

/* gen for test_each_op: the one instruction, in block 0 only. */
static void
gen_one(struct ir_instr *in, void *arg)
{
	*in = *(const struct ir_instr *)arg;
}

/* Each op and variant alone: operands distinct registers, dst pair
 * apart from them (4, 8, 16 lanes), then the same with the dst pair
 * over two sources (8 lanes: the compiled code reads every source
 * before it writes, as each interpreter lane does). */
static void
test_each_op(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };
	uint32_t checked = 0;

	(void)state;
	if (!jit_available())
		return;
	for (uint32_t k = 0; k < NOPS; k++)
		for (uint32_t v = 0; v < ops[k].nvar; v++)
			for (uint32_t alias = 0; alias < 2; alias++) {
				struct ir_instr in;
				uint32_t *src[4] = { &in.a, &in.b, &in.c, &in.d };
				const uint32_t n[4] = { 1, 0, 0, 0 };

				memset(&in, 0, sizeof(in));
				in.op = ops[k].op;
				set_variant(&in, k, v);
				for (uint32_t q = 0; q < ops[k].nsrc; q++)
					*src[q] = FIRST_VAL + 2 + q;
				in.dst = alias ? FIRST_VAL + 3 : FIRST_VAL + 8;
				rng_state = 0x5eed0000ull + k * 131 + v;
				struct ir_program *p = program(n, 64, gen_one,
				                               &in);

				/* the alias case at 8 lanes only */
				for (uint32_t li = alias; li < 3 - alias;
				     li++) {
					struct jit_program *jp =
						jit_compile(p, lanes[li]);
					char what[64];

					assert_non_null(jp);
					/* everything: the op, the AND before
					 * the branch, the terminators */
					if (jp->compiled != jp->total)
						fail_msg("op %u variant %u: not "
						         "compiled", in.op, v);
					snprintf(what, sizeof(what),
					         "op %u variant %u, %u lanes",
					         in.op, v, lanes[li]);
					for (uint64_t s = 1; s <= 6; s++)
						run_both(p, jp, s *
						         0x9e3779b97f4a7c15ull +
						         k * 7 + v, what);
					jit_program_free(jp);
					checked++;
				}
				ir_program_free(p);
			}
	printf("%u op variants compared at 4, 8 and 16 lanes\n",
	       checked / 4);
}

/* A random instruction of the ops above over the value registers. */
static void
gen_random(struct ir_instr *in, void *arg)
{
	uint32_t k = rnd() % NOPS;
	uint32_t *src[4] = { &in->a, &in->b, &in->c, &in->d };

	(void)arg;
	memset(in, 0, sizeof(*in));
	in->op = ops[k].op;
	set_variant(in, k, rnd() % ops[k].nvar);
	for (uint32_t q = 0; q < ops[k].nsrc; q++)
		*src[q] = FIRST_VAL + rnd() % (NVAL - 1);
	/* a pair fits below the branch register */
	in->dst = FIRST_VAL + rnd() % (NVAL - 2);
}

static void
test_random_programs(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };
	uint32_t compiled = 0, total = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 45; seed++) {
		uint32_t n[4];

		rng_state = seed * 0x9e3779b97f4a7c15ull;
		for (uint32_t b = 0; b < 4; b++)
			n[b] = 2 + rnd() % 12;
		/* 40 lanes: a width of 64, 24 of them idle */
		struct ir_program *p = program(n, seed % 3 ? 64 : 40,
		                               gen_random, NULL);
		struct jit_program *jp = jit_compile(p, lanes[seed % 3]);

		if (!jit_available()) {
			assert_null(jp);
			ir_program_free(p);
			continue;
		}
		assert_non_null(jp);
		compiled += jp->compiled;
		total += jp->total;
		for (uint32_t run = 0; run < 3; run++)
			run_both(p, jp, seed * 1000 + run, "random program");
		jit_program_free(jp);
		ir_program_free(p);
	}
	if (jit_available()) {
		printf("random programs: %u of %u instructions compiled\n",
		       compiled, total);
		/* every instruction, terminators included */
		assert_int_equal(compiled, total);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_op),
		cmocka_unit_test(test_random_programs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The copy clean-up of translated programs (hw/shader/ir_opt.c).
 *
 * Hand-built fragment programs check what must and must not happen:
 * copies used in their own block are propagated and removed; a copy is
 * kept, and its uses not rewritten, when its source is redefined before
 * the use, when the use is in another block reached by divergent lanes,
 * when an instruction writes through a dynamic index between them, when
 * the reader takes other lanes' values (derivatives) or a register
 * range (IR_LDX); copies into output registers stay. Products fuse
 * into the add or subtraction reading them (IR_FMULADD2, IR_FMULSUB2,
 * IR_FMULADD, IR_FADDMUL) only when nothing else reads them and their
 * operands still hold at the add, in the same block. Each program also
 * runs before and after the pass with its hand-computed results.
 *
 * Then real shaders (vkcube's fragment shader, a control-flow and array
 * one, the derivative test's) are translated with the pass
 * (default) and without it (SWGPU_SHADER_OPT=0) and run on the same
 * random inputs: every output bit must match, and vkcube's shader must
 * get shorter, with its cross and dot products fused.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_opt.h"
#include "sh_fs_cube_light.spv.h"
#include "sh_fs_deriv.spv.h"
#include "sh_fs_opt_flow.spv.h"

#define W 32u

/* A hand-built fragment program: code appended block by block. */
struct hb {
	struct ir_program *p;
	uint32_t cap;
};

static void
hb_init(struct hb *h, uint32_t nregs)
{
	h->p = calloc(1, sizeof(*h->p));
	assert_non_null(h->p);
	h->p->stage = SWGPU_SHADER_STAGE_FRAGMENT;
	h->p->nregs = nregs;
	h->cap = 64;
	h->p->code = calloc(h->cap, sizeof(*h->p->code));
	h->p->blocks = calloc(16, sizeof(*h->p->blocks));
	assert_non_null(h->p->code);
	assert_non_null(h->p->blocks);
}

static void
hb_block(struct hb *h)
{
	struct ir_program *p = h->p;

	assert_true(p->nblocks < 16);
	p->blocks[p->nblocks].first = p->ninstr;
	p->blocks[p->nblocks].count = 0;
	p->nblocks++;
}

static struct ir_instr *
hb_emit(struct hb *h, uint32_t op, uint32_t dst, uint32_t a, uint32_t b,
        uint32_t c)
{
	struct ir_program *p = h->p;
	struct ir_instr *in;

	assert_true(p->ninstr < h->cap);
	in = &p->code[p->ninstr++];
	memset(in, 0, sizeof(*in));
	in->op = (uint16_t)op;
	in->dst = dst;
	in->a = a;
	in->b = b;
	in->c = c;
	p->blocks[p->nblocks - 1].count++;
	return in;
}

static struct ir_program *
clone(const struct ir_program *p)
{
	struct ir_program *q = malloc(sizeof(*q));

	assert_non_null(q);
	*q = *p;
	q->code = malloc(p->ninstr * sizeof(*p->code));
	q->blocks = malloc(p->nblocks * sizeof(*p->blocks));
	assert_non_null(q->code);
	assert_non_null(q->blocks);
	memcpy(q->code, p->code, p->ninstr * sizeof(*p->code));
	memcpy(q->blocks, p->blocks, p->nblocks * sizeof(*p->blocks));
	q->table = NULL;
	q->const_regs = q->const_vals = NULL;
	q->buffers = NULL;
	return q;
}

static uint32_t
count_op(const struct ir_program *p, uint32_t op)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->ninstr; i++)
		n += p->code[i].op == op;
	return n;
}

/* The instruction with op in p (the only one). */
static const struct ir_instr *
find_op(const struct ir_program *p, uint32_t op)
{
	const struct ir_instr *hit = NULL;

	for (uint32_t i = 0; i < p->ninstr; i++)
		if (p->code[i].op == op) {
			assert_null(hit);
			hit = &p->code[i];
		}
	assert_non_null(hit);
	return hit;
}

/* Registers of the hand-built programs. */
enum { R_IN = IR_REG_FIRST_FREE, R_K, R_ONE, R_T, R_S, R_U, R_ARR,
       R_OUT = R_ARR + 4, R_NREGS = R_OUT + 4 };

/* Run p for W lanes with in = lane + 0.5, k = lane & 3, one = 1.0 and
 * the registers between R_T and R_OUT seeded with 100 + lane (so a
 * register an instruction should not have read shows); outputs to
 * out[c * W + l]. */
static void
run(const struct ir_program *p, float *out)
{
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);

	assert_non_null(e);
	ss_frag_coords(e, W, 0.5f, 1.0f);
	for (uint32_t l = 0; l < W; l++) {
		ss_lane(e, R_IN, l)->f = (float)l + 0.5f;
		ss_lane(e, R_K, l)->u = l & 3;
		ss_lane(e, R_ONE, l)->f = 1.0f;
		for (uint32_t r = R_T; r < R_OUT; r++)
			ss_lane(e, r, l)->f = 100.0f + (float)l;
		for (uint32_t c = 0; c < 4; c++)
			ss_lane(e, R_OUT + c, l)->f = -1.0f;
	}
	assert_true(ir_exec_run_batch(e, d, W, NULL, NULL));
	for (uint32_t c = 0; c < 4; c++)
		for (uint32_t l = 0; l < W; l++)
			out[c * W + l] = ss_lane(e, R_OUT + c, l)->f;
	ir_exec_destroy(e);
	free(d);
}

static void
finish(struct hb *h)
{
	for (uint32_t c = 0; c < 4; c++)
		h->p->io.out_reg[0][c] = R_OUT + c;
	h->p->io.in_reg[0][0] = R_IN;
	h->p->io.in_reg[0][1] = R_K;
	h->p->io.in_reg[0][2] = R_ONE;
}

/* Optimizes a clone of h's program; checks both give want[c * W + l]
 * (NULL: only that they agree). Returns the optimized one. */
static struct ir_program *
opt_and_check(struct hb *h, const float *want)
{
	struct ir_program *q = clone(h->p);
	float before[4 * W], after[4 * W];

	ir_opt_program(q);
	run(h->p, before);
	run(q, after);
	for (uint32_t k = 0; k < 4 * W; k++) {
		if (want && memcmp(&before[k], &want[k], 4))
			fail_msg("unoptimized: out %u lane %u = %g, want %g",
			         k / W, k % W, before[k], want[k]);
		if (memcmp(&before[k], &after[k], 4))
			fail_msg("optimized: out %u lane %u = %g, unoptimized "
			         "%g", k / W, k % W, after[k], before[k]);
	}
	return q;
}

/* MOV t, in; MOV s, t; FADD out0, s, t; MOV out1, s: the adds read in,
 * both temporaries go; the MOV into the output stays (reading in). */
static void
test_propagates_in_block(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_MOV, R_T, R_IN, 0, 0);
	hb_emit(&h, IR_MOV, R_S, R_T, 0, 0);
	hb_emit(&h, IR_FADD, R_OUT, R_S, R_T, 0);
	hb_emit(&h, IR_MOV, R_OUT + 1, R_S, 0, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		want[l] = 2.0f * ((float)l + 0.5f);
		want[W + l] = (float)l + 0.5f;
		want[2 * W + l] = want[3 * W + l] = -1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(q->ninstr, 3);
	assert_int_equal(q->blocks[0].count, 3);
	assert_int_equal(find_op(q, IR_FADD)->a, R_IN);
	assert_int_equal(find_op(q, IR_FADD)->b, R_IN);
	assert_int_equal(find_op(q, IR_MOV)->dst, R_OUT + 1);
	assert_int_equal(find_op(q, IR_MOV)->a, R_IN);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* MOV t, s; FADD s, s, one; FMUL out0, t, one: s changed after the
 * copy, so the multiply must keep reading t (the old s). Also
 * MOV t, in; MOV t, one (t redefined): FADD out1, t, t reads one. */
static void
test_source_redefined(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_S, R_IN, R_IN, 0);
	hb_emit(&h, IR_MOV, R_T, R_S, 0, 0);
	hb_emit(&h, IR_FADD, R_S, R_S, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_OUT, R_T, R_ONE, 0);
	hb_emit(&h, IR_MOV, R_U, R_IN, 0, 0);
	hb_emit(&h, IR_MOV, R_U, R_ONE, 0, 0);
	hb_emit(&h, IR_FADD, R_OUT + 1, R_U, R_U, 0);
	hb_emit(&h, IR_MOV, R_OUT + 2, R_S, 0, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		want[l] = 2.0f * ((float)l + 0.5f);
		want[W + l] = 2.0f;
		want[2 * W + l] = want[l] + 1.0f;
		want[3 * W + l] = -1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(find_op(q, IR_FMUL)->a, R_T);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* Products into adds: FMUL t, in, in; FMUL s, in, one; FSUB out0, t, s
 * becomes FMULSUB2; FMUL u, in, in; FADD out1, u, one becomes FMULADD;
 * FMUL a, in, one; FADD out2, one, a becomes FADDMUL; FMUL a+1, in, in;
 * FMUL a+2, one, one; FADD out3, a+1, a+2 becomes FMULADD2. Every FMUL
 * goes; the results are the unfused ones bit for bit (opt_and_check). */
static void
test_fuse_products(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_FMUL, R_T, R_IN, R_IN, 0);
	hb_emit(&h, IR_FMUL, R_S, R_IN, R_ONE, 0);
	hb_emit(&h, IR_FSUB, R_OUT, R_T, R_S, 0);
	hb_emit(&h, IR_FMUL, R_U, R_IN, R_IN, 0);
	hb_emit(&h, IR_FADD, R_OUT + 1, R_U, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_ARR, R_IN, R_ONE, 0);
	hb_emit(&h, IR_FADD, R_OUT + 2, R_ONE, R_ARR, 0);
	hb_emit(&h, IR_FMUL, R_ARR + 1, R_IN, R_IN, 0);
	hb_emit(&h, IR_FMUL, R_ARR + 2, R_ONE, R_ONE, 0);
	hb_emit(&h, IR_FADD, R_OUT + 3, R_ARR + 1, R_ARR + 2, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		const float x = (float)l + 0.5f;

		want[l] = x * x - x;
		want[W + l] = x * x + 1.0f;
		want[2 * W + l] = 1.0f + x;
		want[3 * W + l] = x * x + 1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(count_op(q, IR_FMUL), 0);
	assert_int_equal(q->ninstr, 5);
	const struct ir_instr *f = find_op(q, IR_FMULSUB2);
	assert_int_equal(f->dst, R_OUT);
	assert_int_equal(f->a, R_IN);
	assert_int_equal(f->b, R_IN);
	assert_int_equal(f->c, R_IN);
	assert_int_equal(f->d, R_ONE);
	f = find_op(q, IR_FMULADD);
	assert_int_equal(f->dst, R_OUT + 1);
	assert_int_equal(f->c, R_ONE);
	f = find_op(q, IR_FADDMUL);
	assert_int_equal(f->dst, R_OUT + 2);
	assert_int_equal(f->a, R_ONE);
	assert_int_equal(f->b, R_IN);
	assert_int_equal(f->c, R_ONE);
	f = find_op(q, IR_FMULADD2);
	assert_int_equal(f->dst, R_OUT + 3);
	assert_int_equal(f->c, R_ONE);
	assert_int_equal(f->d, R_ONE);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* Products that must stay: an operand of the FMUL rewritten before the
 * add (FMUL t, s, s; FADD s, one, one; FADD out0, t, one: the add wants
 * the old s), a product read twice (u), a subtraction with one product
 * (a), and a product from another block (a+1, computed in block 0,
 * added in block 1). */
static void
test_fuse_kept(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_S, R_IN, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_T, R_S, R_S, 0);
	hb_emit(&h, IR_FADD, R_S, R_ONE, R_ONE, 0);
	hb_emit(&h, IR_FADD, R_OUT, R_T, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_U, R_IN, R_IN, 0);
	hb_emit(&h, IR_FADD, R_OUT + 1, R_U, R_ONE, 0);
	hb_emit(&h, IR_FADD, R_ARR + 3, R_U, R_IN, 0);
	hb_emit(&h, IR_FMUL, R_ARR, R_IN, R_IN, 0);
	hb_emit(&h, IR_FSUB, R_OUT + 2, R_ARR, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_ARR + 1, R_IN, R_ONE, 0);
	hb_emit(&h, IR_BR, 0, 0, 0, 0)->imm = 1;
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_OUT + 3, R_ARR + 1, R_ARR + 3, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		const float x = (float)l + 0.5f;

		want[l] = (x + 1.0f) * (x + 1.0f) + 1.0f;
		want[W + l] = x * x + 1.0f;
		want[2 * W + l] = x * x - 1.0f;
		want[3 * W + l] = x + (x * x + x);
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(count_op(q, IR_FMUL), 4);
	assert_int_equal(count_op(q, IR_FMULADD2) + count_op(q, IR_FMULSUB2) +
	                 count_op(q, IR_FMULADD) + count_op(q, IR_FADDMUL), 0);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* Block 0: MOV t, s (s = 2 in); odd lanes go to block 1, which changes
 * s, then all meet in block 2, which reads t: the copy is used in
 * another block after divergent lanes redefined its source, so block 2
 * keeps reading t and the MOV stays. */
static void
test_other_block(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_S, R_IN, R_IN, 0);
	hb_emit(&h, IR_MOV, R_T, R_S, 0, 0);
	hb_emit(&h, IR_F2U, R_U, R_ONE, 0, 0);     /* 1 */
	hb_emit(&h, IR_AND, R_U, R_K, R_U, 0);     /* lane odd */
	hb_emit(&h, IR_BRC, 0, R_U, 2, 0)->imm = 1;
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_S, R_S, R_ONE, 0);
	hb_emit(&h, IR_BR, 0, 0, 0, 0)->imm = 2;
	hb_block(&h);
	hb_emit(&h, IR_FMUL, R_OUT, R_T, R_ONE, 0);
	hb_emit(&h, IR_MOV, R_OUT + 1, R_S, 0, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		want[l] = 2.0f * ((float)l + 0.5f);
		want[W + l] = want[l] + (l & 1 ? 1.0f : 0.0f);
		want[2 * W + l] = want[3 * W + l] = -1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(find_op(q, IR_FMUL)->a, R_T);
	assert_int_equal(count_op(q, IR_MOV), 2);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* MOV t, arr[1]; STX arr[k] = in (a dynamic write, lanes with k == 1
 * change arr[1]); FADD out0, t, t must keep reading t. MOV arr[2], one
 * is read only through LDX out1 = arr[k]: it must stay. */
static void
test_dynamic_index(void **state)
{
	struct hb h;
	float want[4 * W];
	struct ir_instr *in;

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_MOV, R_T, R_ARR + 1, 0, 0);
	in = hb_emit(&h, IR_STX, 0, R_K, R_ARR, 4);
	in->d = R_IN;
	hb_emit(&h, IR_FADD, R_OUT, R_T, R_T, 0);
	hb_emit(&h, IR_MOV, R_ARR + 2, R_ONE, 0, 0);
	hb_emit(&h, IR_LDX, R_OUT + 1, R_K, R_ARR, 4);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		want[l] = 2.0f * (100.0f + (float)l);
		want[W + l] = (l & 3) == 2 ? 1.0f : (float)l + 0.5f;
		want[2 * W + l] = want[3 * W + l] = -1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(find_op(q, IR_FADD)->a, R_T);
	assert_int_equal(count_op(q, IR_MOV), 2);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* Even lanes of each quad skip block 1, which sets s = 3 in and
 * MOV t, s, then takes a derivative of t: the even lanes' t is still
 * in (block 0), their s is 100 + lane. The derivative must read t. */
static void
test_derivative_keeps_copy(void **state)
{
	struct hb h;
	float want[4 * W];
	struct ir_instr *in;

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_MOV, R_T, R_IN, 0, 0);
	hb_emit(&h, IR_F2U, R_U, R_ONE, 0, 0);
	hb_emit(&h, IR_AND, R_U, R_K, R_U, 0);
	hb_emit(&h, IR_BRC, 0, R_U, 2, 0)->imm = 1;
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_S, R_IN, R_IN, 0);
	hb_emit(&h, IR_FADD, R_S, R_S, R_IN, 0);
	hb_emit(&h, IR_MOV, R_T, R_S, 0, 0);
	in = hb_emit(&h, IR_DERIV, R_OUT, R_T, 0, 0);
	in->aux2 = IR_DX_FINE;
	hb_emit(&h, IR_BR, 0, 0, 0, 0)->imm = 2;
	hb_block(&h);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	struct ir_program *q = opt_and_check(&h, NULL);
	float out[4 * W];
	run(q, out);
	for (uint32_t l = 1; l < W; l += 2) {
		/* odd lane: 3 in; its even neighbour: in (one less) */
		float odd = (float)l + 0.5f, even = odd - 1.0f;
		want[l] = (odd + odd) + odd - even;
		assert_memory_equal(&out[l], &want[l], 4);
	}
	assert_int_equal(find_op(q, IR_DERIV)->a, R_T);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* FADD t, in, one; FMUL out1, out0, one; MOV out0, t: out0 is read
 * between t's computation and the copy, so the FADD must not write out0
 * itself. FADD u, in, in; MOV out2, u: nothing in between, the FADD
 * writes out2 and the MOV goes. */
static void
test_retarget(void **state)
{
	struct hb h;
	float want[4 * W];

	(void)state;
	hb_init(&h, R_NREGS);
	hb_block(&h);
	hb_emit(&h, IR_FADD, R_T, R_IN, R_ONE, 0);
	hb_emit(&h, IR_FMUL, R_OUT + 1, R_OUT, R_ONE, 0);
	hb_emit(&h, IR_MOV, R_OUT, R_T, 0, 0);
	hb_emit(&h, IR_FADD, R_U, R_IN, R_IN, 0);
	hb_emit(&h, IR_MOV, R_OUT + 2, R_U, 0, 0);
	hb_emit(&h, IR_RET, 0, 0, 0, 0);
	finish(&h);
	for (uint32_t l = 0; l < W; l++) {
		want[l] = (float)l + 1.5f;
		want[W + l] = -1.0f;
		want[2 * W + l] = 2.0f * ((float)l + 0.5f);
		want[3 * W + l] = -1.0f;
	}
	struct ir_program *q = opt_and_check(&h, want);
	assert_int_equal(q->ninstr, 5);
	assert_int_equal(q->code[0].dst, R_T);
	assert_int_equal(q->code[3].op, IR_FADD);
	assert_int_equal(q->code[3].dst, R_OUT + 2);
	ir_program_free(q);
	ir_program_free(h.p);
}

/* ------------------------------------------------------------------ */
/* Translated shaders, with and without the pass                       */
/* ------------------------------------------------------------------ */

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static struct ir_program *
translate(const uint32_t *code, size_t size, bool opt, uint32_t ntex)
{
	const swgpu_descriptor_type t =
		SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
	struct ir_program *p;

	setenv("SWGPU_SHADER_OPT", opt ? "1" : "0", 1);
	p = ss_translate(code, size, SWGPU_SHADER_STAGE_FRAGMENT, &t, ntex,
	                 0);
	unsetenv("SWGPU_SHADER_OPT");
	return p;
}

/* Run p on inputs from seed (floats in [-4, 4), integers 0..7, some
 * helper lanes); outputs to out[(loc * 4 + c) * W + l], 0 for none. */
static void
run_shader(const struct ir_program *p, uint64_t seed, uint32_t *out,
           void *tex, uint64_t tex_size, const struct ir_image_binding *im)
{
	const struct ir_io *io = &p->io;
	struct ir_dispatch *d = ss_dispatch(p);
	struct ir_exec *e = ir_exec_create_batch(p, W);
	uint8_t live[W];

	assert_non_null(e);
	if (tex)
		ss_bind_image(d, p, 0, tex, tex_size, im);
	ss_random_fragment_inputs(e, p, W, seed, live);
	assert_true(ir_exec_run_batch(e, d, W, live, NULL));
	memset(out, 0, IR_MAX_LOCATIONS * 4 * W * 4);
	for (uint32_t loc = 0; loc < IR_MAX_LOCATIONS; loc++)
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t l = 0; l < W; l++)
				if (io->out_reg[loc][c] && live[l])
					out[(loc * 4 + c) * W + l] =
						ss_lane(e, io->out_reg[loc][c],
						        l)->u;
	ir_exec_destroy(e);
	free(d);
}

/* SHOW_IR=1: print p (op numbers from ir.h's enum). */
static void
show(const char *name, const struct ir_program *p)
{
	if (!getenv("SHOW_IR"))
		return;
	printf("%s: %u regs\n", name, p->nregs);
	for (uint32_t b = 0; b < p->nblocks; b++) {
		printf(" block %u\n", b);
		for (uint32_t i = p->blocks[b].first;
		     i < p->blocks[b].first + p->blocks[b].count; i++) {
			const struct ir_instr *in = &p->code[i];

			printf("  %3u op %3u dst %u a %u b %u c %u d %u imm %#x "
			       "aux %u/%u\n", i, in->op, in->dst, in->a,
			       in->b, in->c, in->d, in->imm, in->aux,
			       in->aux2);
		}
	}
}

static void
same_results(const char *name, const uint32_t *code, size_t size,
             uint32_t ntex, uint32_t *ninstr)
{
	struct ir_program *a = translate(code, size, false, ntex);
	struct ir_program *b = translate(code, size, true, ntex);
	const size_t n = IR_MAX_LOCATIONS * 4 * W;
	uint32_t *ra = malloc(n * 4), *rb = malloc(n * 4);
	struct ir_image_binding im;
	uint64_t tex_size = 0;
	uint8_t *tex = NULL;

	assert_non_null(ra);
	assert_non_null(rb);
	assert_memory_equal(&a->io.out_reg, &b->io.out_reg,
	                    sizeof(a->io.out_reg));
	if (ntex) {
		tex_size = ss_image(&im, 1, SWGPU_FORMAT_R8G8B8A8_UNORM, 16,
		                    16, 1, 5);
		tex = malloc(tex_size);
		assert_non_null(tex);
		for (uint64_t i = 0; i < tex_size; i++)
			tex[i] = (uint8_t)rnd();
		im.has_sampler = true;
		im.sampler = (struct swgpu_sampler_state){
			.filter = SWGPU_SAMPLER_MAG_LINEAR |
			          SWGPU_SAMPLER_MIN_LINEAR |
			          SWGPU_SAMPLER_MIP_LINEAR,
			.lod = 255u * 256u << 16,
		};
	}
	for (uint64_t seed = 1; seed <= 64; seed++) {
		run_shader(a, seed * 0x9e3779b97f4a7c15ull, ra, tex, tex_size,
		           &im);
		run_shader(b, seed * 0x9e3779b97f4a7c15ull, rb, tex, tex_size,
		           &im);
		for (size_t k = 0; k < n; k++)
			if (ra[k] != rb[k])
				fail_msg("%s seed %llu: out %zu.%zu lane %zu: "
				         "%#x with the pass, %#x without",
				         name, (unsigned long long)seed,
				         k / W / 4, k / W % 4, k % W, rb[k],
				         ra[k]);
	}
	printf("%s: %u instructions without the pass, %u with (%u MOVs "
	       "-> %u)\n", name, a->ninstr, b->ninstr, count_op(a, IR_MOV),
	       count_op(b, IR_MOV));
	show(name, a);
	show(name, b);
	assert_true(b->ninstr <= a->ninstr);
	ninstr[0] = a->ninstr;
	ninstr[1] = b->ninstr;
	free(tex);
	free(ra);
	free(rb);
	ir_program_free(a);
	ir_program_free(b);
}

static void
test_vkcube_shader(void **state)
{
	uint32_t n[2];

	(void)state;
	same_results("vkcube cube.frag", sh_fs_cube_light_spv,
	             sizeof(sh_fs_cube_light_spv), 1, n);
	/* at least a quarter of its instructions were copies */
	assert_true(n[1] * 4 <= n[0] * 3);
	/* its cross product (3 FMULSUB2) and two dot products (FMULADD2
	 * then FADDMUL each) are fused */
	struct ir_program *b = translate(sh_fs_cube_light_spv,
	                                 sizeof(sh_fs_cube_light_spv), true,
	                                 1);
	assert_int_equal(count_op(b, IR_FMULSUB2), 3);
	assert_int_equal(count_op(b, IR_FMULADD2), 2);
	assert_int_equal(count_op(b, IR_FADDMUL), 2);
	ir_program_free(b);
}

static void
test_flow_shader(void **state)
{
	uint32_t n[2];

	(void)state;
	same_results("sh_fs_opt_flow", sh_fs_opt_flow_spv,
	             sizeof(sh_fs_opt_flow_spv), 0, n);
	same_results("sh_fs_deriv", sh_fs_deriv_spv, sizeof(sh_fs_deriv_spv),
	             0, n);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_propagates_in_block),
		cmocka_unit_test(test_source_redefined),
		cmocka_unit_test(test_other_block),
		cmocka_unit_test(test_dynamic_index),
		cmocka_unit_test(test_derivative_keeps_copy),
		cmocka_unit_test(test_retarget),
		cmocka_unit_test(test_fuse_products),
		cmocka_unit_test(test_fuse_kept),
		cmocka_unit_test(test_vkcube_shader),
		cmocka_unit_test(test_flow_shader),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

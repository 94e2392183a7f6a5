/* SPDX-License-Identifier: MIT */
/*
 * Register liveness (hw/shader/ir_live.h) on hand-built programs, and
 * what the shader compiler makes of it (hw/shader/jit/jit_loop.c).
 *
 * A counting loop (x = x * a + b through a temporary t):
 *   - as a translated program (outputs_only): the temporary is live at
 *     no block boundary, the loop's counter, value, limit and the
 *     address read after it are live through the loop, nothing but
 *     the engine's registers after the return;
 *   - as a hand-built one (every register seen after the program): t
 *     is live where it reaches the return;
 *   - a subgroup operation reading t after the loop pins it (live
 *     everywhere: other lanes read it);
 *   - a phi reads the registers of its pairs and its own destination.
 * A register block 0 reads before writing it is live after the return
 * (the next workgroup reads it). A block that does not end with its one
 * terminator makes everything live. Then the compiled loop (when LLVM is there) against the
 * interpreter: the stored results the same; as a hand-built program
 * every register the same, as a translated one the registers the engine
 * reads, and the temporary never stored by the compiled loop.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_live.h"
#include "hw/shader/jit.h"

enum {
	X = IR_REG_FIRST_FREE, T, CTR, LIM, COND, ADDR, PHI_OUT, K_ONE, K_TWO,
	K_THREE, K_FOUR, K_A, K_B, NREGS,
};

#define LOCAL 64u

struct gen {
	struct ir_program *p;
	uint32_t cap;
};

static struct ir_instr *
emit(struct gen *g, uint16_t op, uint32_t dst, uint32_t a, uint32_t b)
{
	struct ir_program *p = g->p;
	struct ir_instr *in;

	assert_true(p->ninstr < g->cap);
	in = &p->code[p->ninstr++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->dst = dst;
	in->a = a;
	in->b = b;
	return in;
}

static void
block(struct gen *g)
{
	struct ir_program *p = g->p;

	if (p->nblocks)
		p->blocks[p->nblocks - 1].count = p->ninstr -
			p->blocks[p->nblocks - 1].first;
	p->blocks[p->nblocks++].first = p->ninstr;
}

static void
end(struct gen *g)
{
	struct ir_program *p = g->p;

	p->blocks[p->nblocks - 1].count = p->ninstr -
		p->blocks[p->nblocks - 1].first;
}

/*
 * 0: x = local index as float; ctr = 0; lim = 4 + local index % 4;
 *    addr = local index * 4
 * 1: cond = ctr < lim; brc cond ? 2 : 3          (loop header)
 * 2: t = x * a; x = t + b; ctr += 1; br 1        (body, back-edge)
 * 3: [shuffle t]; buf[addr] = x; ret
 */
static struct ir_program *
loop_program(bool shuffle)
{
	struct gen g = { .cap = 32 };
	struct ir_program *p = calloc(1, sizeof(*p));
	static const uint32_t kregs[6] = { K_ONE, K_TWO, K_THREE, K_FOUR,
	                                   K_A, K_B };
	static const uint32_t kvals[6] = { 1, 2, 3, 4,
	                                   0x3f7fbe77 /* 0.999 */,
	                                   0x3c23d70a /* 0.01 */ };

	assert_non_null(p);
	g.p = p;
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[0] = LOCAL;
	p->local_size[1] = p->local_size[2] = 1;
	p->subgroup_size = 32;
	p->code = calloc(g.cap, sizeof(*p->code));
	p->blocks = calloc(4, sizeof(*p->blocks));
	p->const_regs = malloc(sizeof(kregs));
	p->const_vals = malloc(sizeof(kvals));
	assert_non_null(p->code);
	assert_non_null(p->blocks);
	assert_non_null(p->const_regs);
	assert_non_null(p->const_vals);
	memcpy(p->const_regs, kregs, sizeof(kregs));
	memcpy(p->const_vals, kvals, sizeof(kvals));
	p->nconsts = 6;
	p->nbuffers = 1;
	p->builtins_used = 1ull << IR_REG_LOCAL_INDEX;

	block(&g);
	emit(&g, IR_U2F, X, IR_REG_LOCAL_INDEX, 0);
	emit(&g, IR_MOV, CTR, IR_REG_ZERO, 0);
	emit(&g, IR_AND, LIM, IR_REG_LOCAL_INDEX, K_THREE);
	emit(&g, IR_IADD, LIM, LIM, K_FOUR);
	emit(&g, IR_SHL, ADDR, IR_REG_LOCAL_INDEX, K_TWO);
	emit(&g, IR_BR, 0, 0, 0)->imm = 1;
	block(&g);
	emit(&g, IR_ULT, COND, CTR, LIM);
	emit(&g, IR_BRC, 0, COND, 3)->imm = 2;
	block(&g);
	emit(&g, IR_FMUL, T, X, K_A);
	emit(&g, IR_FADD, X, T, K_B);
	emit(&g, IR_IADD, CTR, CTR, K_ONE);
	emit(&g, IR_BR, 0, 0, 0)->imm = 1;
	block(&g);
	if (shuffle)
		emit(&g, IR_SHUFXOR, T, T, K_ONE);
	emit(&g, IR_STBUF, 0, ADDR, X);
	emit(&g, IR_RET, 0, 0, 0);
	end(&g);
	return p;
}

static void
test_loop_liveness(void **state)
{
	struct ir_program *p = loop_program(false);
	struct ir_live lv;

	(void)state;
	p->outputs_only = true;
	assert_true(ir_live_compute(p, &lv));
	/* the temporary lives inside block 2 only */
	for (uint32_t b = 0; b < 4; b++) {
		assert_false(ir_live_in(&lv, b, T));
		assert_false(ir_live_out(&lv, b, T));
	}
	/* carried around the loop, and read after it */
	for (uint32_t b = 1; b <= 2; b++) {
		assert_true(ir_live_in(&lv, b, X));
		assert_true(ir_live_in(&lv, b, CTR));
		assert_true(ir_live_in(&lv, b, LIM));
		assert_true(ir_live_in(&lv, b, ADDR));
		assert_false(ir_live_in(&lv, b, COND));
	}
	assert_true(ir_live_out(&lv, 1, X));
	/* written in block 0 before any read */
	assert_false(ir_live_in(&lv, 0, X));
	assert_false(ir_live_in(&lv, 0, CTR));
	assert_false(ir_live_in(&lv, 0, ADDR));
	/* after the return: the engine's registers only */
	assert_false(ir_live_out(&lv, 3, X));
	assert_false(ir_live_in(&lv, 3, CTR));
	assert_true(ir_live_out(&lv, 3, IR_REG_LOCAL_INDEX));
	assert_true(ir_live_out(&lv, 3, K_A));
	ir_live_free(&lv);

	/* hand-built: every register is seen after the return, so t is
	 * live from its last write to the return (block 3 and the header's
	 * way out to it), but not at the body's entry, which writes it */
	p->outputs_only = false;
	assert_true(ir_live_compute(p, &lv));
	assert_true(ir_live_out(&lv, 3, T));
	assert_true(ir_live_in(&lv, 3, T));
	assert_true(ir_live_in(&lv, 1, T));
	assert_false(ir_live_in(&lv, 2, T));
	assert_true(ir_live_in(&lv, 0, T));   /* a lane may skip the loop */
	ir_live_free(&lv);
	ir_program_free(p);

	/* another lane's t is read after the loop: live everywhere */
	p = loop_program(true);
	p->outputs_only = true;
	assert_true(ir_live_compute(p, &lv));
	for (uint32_t b = 0; b < 4; b++) {
		assert_true(ir_live_in(&lv, b, T));
		assert_true(ir_live_out(&lv, b, T));
	}
	ir_live_free(&lv);
	ir_program_free(p);
}

/* A phi reads its pairs' registers and its destination (a lane coming
 * from no listed block keeps it); a block with a terminator in its
 * middle is not followed: everything is live there. */
static void
test_phi_and_malformed(void **state)
{
	struct ir_program *p = loop_program(false);
	uint32_t *table = calloc(4, sizeof(*table));
	struct ir_live lv;

	(void)state;
	assert_non_null(table);
	/* block 3 starts with phi_out = (from 1: t, from 2: ctr) */
	table[0] = 1;
	table[1] = T;
	table[2] = 2;
	table[3] = CTR;
	p->table = table;
	p->ntable = 4;
	p->code[p->blocks[3].first].op = IR_PHI;
	p->code[p->blocks[3].first].dst = PHI_OUT;
	p->code[p->blocks[3].first].b = 0;
	p->code[p->blocks[3].first].c = 2;
	p->outputs_only = true;
	assert_true(ir_live_compute(p, &lv));
	assert_true(ir_live_in(&lv, 3, T));
	assert_true(ir_live_in(&lv, 3, CTR));
	assert_true(ir_live_in(&lv, 3, PHI_OUT));
	assert_true(ir_live_out(&lv, 1, T));
	assert_false(ir_live_in(&lv, 2, T));      /* written first there */
	ir_live_free(&lv);

	/* block 2's back-edge moved before its last instruction */
	struct ir_instr *body = &p->code[p->blocks[2].first];
	struct ir_instr tmp = body[2];

	body[2] = body[3];
	body[3] = tmp;
	assert_true(ir_live_compute(p, &lv));
	for (uint32_t r = 0; r < NREGS; r++) {
		assert_true(ir_live_in(&lv, 2, r));
		assert_true(ir_live_out(&lv, 2, r));
	}
	assert_true(ir_live_out(&lv, 1, COND));   /* block 2's in: all */
	ir_live_free(&lv);
	ir_program_free(p);
}

/* A register block 0 reads before writing it is what the last
 * workgroup on the execution state left there: live after the return
 * (and so wherever it is not written), even in a translated program. */
static void
test_entry_reads(void **state)
{
	struct ir_program *p = loop_program(false);
	struct ir_live lv;

	(void)state;
	/* block 0 starts with x = phi_out, which nothing writes */
	p->code[0].op = IR_MOV;
	p->code[0].a = PHI_OUT;
	p->outputs_only = true;
	assert_true(ir_live_compute(p, &lv));
	for (uint32_t b = 0; b < 4; b++) {
		assert_true(ir_live_in(&lv, b, PHI_OUT));
		assert_true(ir_live_out(&lv, b, PHI_OUT));
	}
	/* x is written there first: still dead after the return */
	assert_false(ir_live_out(&lv, 3, X));
	ir_live_free(&lv);
	ir_program_free(p);
}

/* Run p on one workgroup with compiled code jp (NULL: interpreted);
 * the output buffer into buf. */
static struct ir_exec *
run(struct ir_program *p, const struct jit_program *jp, uint32_t *buf)
{
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	struct ir_exec *e = ir_exec_create(p);

	assert_non_null(d);
	assert_non_null(e);
	ir_exec_set_jit(e, jp);
	memset(buf, 0, LOCAL * 4);
	d->prog = p;
	d->buffers[0].ptr = (uint8_t *)buf;
	d->buffers[0].range = LOCAL * 4;
	d->groups[0] = d->groups[1] = d->groups[2] = 1;
	d->total_groups = 1;
	d->hang_timeout_ns = 60ull * 1000000000ull;
	d->progress_ns = swgpu_now_ns();
	assert_true(ir_exec_run(e, d));
	free(d);
	return e;
}

static void
compiled_loop(bool outputs_only)
{
	struct ir_program *p = loop_program(false);
	uint32_t want[LOCAL], got[LOCAL];
	uint8_t seen[NREGS];

	p->outputs_only = outputs_only;
	ir_live_exit_regs(p, seen);
	assert_int_equal(seen[T], !outputs_only);
	assert_int_equal(seen[K_A], 1);
	struct jit_program *jp = jit_compile(p, 8);

	if (!jit_available()) {
		assert_null(jp);
		ir_program_free(p);
		return;
	}
	assert_non_null(jp);
	assert_non_null(jp->blocks[1].loop);      /* blocks 1-2: one loop */
	struct ir_exec *ei = run(p, NULL, want), *ej = run(p, jp, got);

	assert_memory_equal(want, got, sizeof(want));
	/* the loop ran: lane 0's value moved from 0 */
	assert_int_not_equal(want[0], 0);
	const uint32_t width = (LOCAL + 31) / 32 * 32;

	for (uint32_t r = 0; r < NREGS; r++)
		for (uint32_t l = 0; l < width; l++)
			if (seen[r] && ir_exec_reg(ei, r)[l].u !=
			               ir_exec_reg(ej, r)[l].u)
				fail_msg("register %u lane %u: interpreter %#x, "
				         "compiled %#x", r, l,
				         ir_exec_reg(ei, r)[l].u,
				         ir_exec_reg(ej, r)[l].u);
	/* as translated, the loop keeps its temporary in the block's
	 * values: the compiled run never stored it (registers start at 0),
	 * the interpreter did */
	if (outputs_only)
		for (uint32_t l = 0; l < LOCAL; l++) {
			assert_int_equal(ir_exec_reg(ej, T)[l].u, 0);
			assert_int_not_equal(ir_exec_reg(ei, T)[l].u, 0);
		}
	ir_exec_destroy(ei);
	ir_exec_destroy(ej);
	jit_program_free(jp);
	ir_program_free(p);
}

static void
test_compiled_loop(void **state)
{
	(void)state;
	compiled_loop(false);
	compiled_loop(true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_liveness),
		cmocka_unit_test(test_phi_and_malformed),
		cmocka_unit_test(test_entry_reads),
		cmocka_unit_test(test_compiled_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Which fragment programs have lane-invariant outputs (ir_uniform.h).
 *
 * Proof by construction, deliberately narrow: the program is one block
 * ending in IR_RET (no branches: every lane runs every instruction),
 * each instruction before it is a per-lane operation (ir_opt_simple: its
 * result depends only on its own lane's operand registers) or a load of
 * push constants or of a bound buffer at an address from uniform
 * registers, and all its operand registers are uniform at that point.
 * Uniform registers are register 0, the constant registers (set once at
 * creation, the same on every lane) and the destinations of such
 * instructions; everything else (inputs, built-ins, registers read
 * before they are written in this run) may differ between lanes. Equal
 * operands through the same deterministic operation give equal bits, so
 * every uniform register holds the same bits on every lane, helpers
 * included. Anything else (derivatives, subgroup operations, images,
 * samplers, memory writes, indexed register files, 64-bit pairs)
 * makes the answer false: it costs only the general path.
 *
 * A buffer load reads memory that nothing in the draw writes (p has no
 * stores; other writers in flight would be a data race in Vulkan's
 * terms), so every lane would read the same word.
 */
#include "hw/shader/ir_uniform.h"

#include <stdlib.h>
#include <string.h>

#include "hw/shader/ir_opt.h"
#include <swgpu/swgpu.h>

static bool
load_of_uniform_data(uint32_t op)
{
	return op == IR_LDPUSH || op == IR_LDPUSHN || op == IR_LDBUF;
}

static bool
reg_uniform(const uint8_t *uni, uint32_t nregs, uint32_t r)
{
	return r < nregs && uni[r];
}

static bool
outputs_read_uniform(const struct ir_program *p, const uint8_t *uni)
{
	const struct ir_io *io = &p->io;

	for (uint32_t l = 0; l < IR_MAX_LOCATIONS; l++)
		for (uint32_t c = 0; c < 4; c++)
			if (io->out_reg[l][c] &&
			    !reg_uniform(uni, p->nregs, io->out_reg[l][c]))
				return false;
	for (uint32_t c = 0; c < 4; c++)
		if (io->out_index1_reg[c] &&
		    !reg_uniform(uni, p->nregs, io->out_index1_reg[c]))
			return false;
	if (io->frag_depth_reg &&
	    !reg_uniform(uni, p->nregs, io->frag_depth_reg))
		return false;
	if (io->sample_mask_reg &&
	    !reg_uniform(uni, p->nregs, io->sample_mask_reg))
		return false;
	return true;
}

bool
ir_fs_outputs_uniform(const struct ir_program *p)
{
	const char *env = getenv("SWGPU_FS_UNIFORM");

	if (env && !strcmp(env, "0"))
		return false;
	if (p->stage != SWGPU_SHADER_STAGE_FRAGMENT || p->nblocks != 1 ||
	    p->io.discards || p->io.side_effects ||
	    p->io.reads_input_attachment || p->io.uses_derivatives ||
	    p->uses_barrier || p->uses_subgroup || p->uses_atomics)
		return false;
	const struct ir_block *b = &p->blocks[0];
	if (!b->count || b->first + b->count > p->ninstr ||
	    p->code[b->first + b->count - 1].op != IR_RET)
		return false;

	uint8_t *uni = calloc(p->nregs ? p->nregs : 1, 1);
	bool ok = uni != NULL;

	if (!ok)
		return false;
	uni[IR_REG_ZERO] = 1;
	for (uint32_t i = 0; i < p->nconsts; i++)
		if (p->const_regs[i] < p->nregs)
			uni[p->const_regs[i]] = 1;
	for (uint32_t i = b->first; ok && i + 1 < b->first + b->count; i++) {
		const struct ir_instr *in = &p->code[i];

		if (in->op == IR_NOP)
			continue;
		if (in->dst == IR_REG_ZERO || in->dst >= p->nregs ||
		    (!ir_opt_simple(in->op) && !load_of_uniform_data(in->op))) {
			ok = false;
			break;
		}
		/* Per-lane operations leave unused operand fields 0 and the
		 * loads read only a; a field naming a varying register makes
		 * the result varying (conservative: never wrongly uniform). */
		const bool operands_uniform =
			reg_uniform(uni, p->nregs, in->a) &&
			(load_of_uniform_data(in->op) ||
			 (reg_uniform(uni, p->nregs, in->b) &&
			  reg_uniform(uni, p->nregs, in->c) &&
			  reg_uniform(uni, p->nregs, in->d)));
		uni[in->dst] = operands_uniform;
	}
	ok = ok && outputs_read_uniform(p, uni);
	free(uni);
	return ok;
}

bool
ir_fs_outputs_push_only(const struct ir_program *p)
{
	if (!ir_fs_outputs_uniform(p))
		return false;
	for (uint32_t i = 0; i < p->ninstr; i++)
		if (p->code[i].op == IR_LDBUF)
			return false;
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator: derivatives (OpDPdx, OpDPdy, OpFwidth and
 * their Fine and Coarse forms; fragment shaders only). Each component
 * is one IR_DERIV (interp.c takes the difference inside the lane's 2x2
 * quad); fwidth is |dx| + |dy|. The plain forms are the coarse ones, as
 * the spec allows (and as implicit-LOD sampling does). Half floats come
 * here widened to float and leave rounded back (xlate_narrow.c).
 */
#include "xlate.h"
#include "xlate_vals.h"

#include <spirv/unified1/spirv.h>

bool
xl_deriv_op(struct xl *x, const uint32_t *in, uint32_t wc)
{
	const uint32_t op = in[0] & 0xffff;
	bool fine = op == SpvOpDPdxFine || op == SpvOpDPdyFine ||
	            op == SpvOpFwidthFine;
	bool dx = op == SpvOpDPdx || op == SpvOpDPdxFine ||
	          op == SpvOpDPdxCoarse;
	bool dy = op == SpvOpDPdy || op == SpvOpDPdyFine ||
	          op == SpvOpDPdyCoarse;
	uint32_t r[MAXV];
	struct vals v;

	if (op < SpvOpDPdx || op > SpvOpFwidthCoarse)
		return false;
	if (wc < 4)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "short derivative");
	if (x->info->stage != SWGPU_SHADER_STAGE_FRAGMENT)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "derivative (opcode %u) "
		        "outside a fragment shader", op);
	if (xl_type(x, xl_scalar_type(x, in[1]))->op != SpvOpTypeFloat ||
	    xl_type(x, xl_scalar_type(x, in[1]))->width > 32)
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "derivative of other than "
		        "a 16/32-bit float");
	xl_getv(x, in[3], &v);
	if (v.n != xl_result_n(x, in))
		xl_fail(x, SWGPU_ERR_INVALID_ARG, "derivative type mismatch");
	for (uint32_t i = 0; i < v.n; i++) {
		uint32_t rx = 0, ry = 0, k;

		if (!dy) {
			rx = xl_new_regs(x, 1);
			k = xl_emit(x, IR_DERIV, rx, v.r[i], 0, 0);
			xl_instr(x, k)->aux2 = fine ? IR_DX_FINE : IR_DX_COARSE;
		}
		if (!dx) {
			ry = xl_new_regs(x, 1);
			k = xl_emit(x, IR_DERIV, ry, v.r[i], 0, 0);
			xl_instr(x, k)->aux2 = fine ? IR_DY_FINE : IR_DY_COARSE;
		}
		r[i] = dx ? rx : dy ? ry
		     : xl_emit1(x, IR_FADD, xl_emit1(x, IR_FABS, rx, 0, 0),
		                xl_emit1(x, IR_FABS, ry, 0, 0), 0);
	}
	xl_set_regs(x, in, r, v.n);
	return true;
}

/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: 8- and 16-bit storage accesses (buffers, push
 * constants, explicitly laid out shared memory; internal, called
 * from interp.c). Values are zero-extended into their 32-bit register;
 * stores write only their own bytes. Out-of-range accesses (robust
 * buffer access) read 0 and write nothing, as for 32-bit ones.
 */
#include <stddef.h>
#include <string.h>

#include "interp_util.h"

static inline uint32_t
load_n(const uint8_t *p, uint32_t bytes)
{
	return bytes == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

void
interp_narrow(struct ir_exec *e, const struct ir_dispatch *d,
              const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width, bytes = in->aux2 == 1 ? 1 : 2;
	const uint8_t *m = e->mask;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *A = e->regs + (size_t)in->a * W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const lane_t *Dd = e->regs + (size_t)in->d * W;

	switch ((enum ir_op)in->op) {
	case IR_LDPUSHN:
		LANES({
			uint64_t off = (uint64_t)A[l].u + in->imm;

			D[l].u = off + bytes <= sizeof(d->push)
			         ? load_n(d->push + off, bytes) : 0;
		});
		break;
	case IR_LDBUFN:
	case IR_STBUFN:
		LANES({
			uint64_t k = in->d ? Dd[l].u : 0;
			uint64_t off = (uint64_t)A[l].u + in->imm;
			const struct ir_buffer_binding *bb = NULL;
			uint32_t v = 0;

			if ((!in->d || k < in->c) &&
			    k < IR_MAX_BUFFERS - in->aux)
				bb = &d->buffers[in->aux + k];
			if (bb && off + bytes <= bb->range) {
				if (in->op == IR_STBUFN) {
					uint8_t *p = bb->ptr + off;

					p[0] = (uint8_t)B[l].u;
					if (bytes == 2)
						p[1] = (uint8_t)(B[l].u >> 8);
				} else {
					v = load_n(bb->ptr + off, bytes);
				}
			}
			if (in->op == IR_LDBUFN)
				D[l].u = v;
		});
		break;
	case IR_LDSHN:
	case IR_STSHN:
		/* Workgroup memory in an explicit layout
		 * (VK_KHR_workgroup_memory_explicit_layout). */
		LANES({
			uint64_t off = (uint64_t)A[l].u + in->imm;
			uint8_t *p = e->shared + off;

			if (off + bytes > e->p->shared_bytes) {
				if (in->op == IR_LDSHN)
					D[l].u = 0;
			} else if (in->op == IR_STSHN) {
				p[0] = (uint8_t)B[l].u;
				if (bytes == 2)
					p[1] = (uint8_t)(B[l].u >> 8);
			} else {
				D[l].u = load_n(p, bytes);
			}
		});
		break;
	default:
		break;
	}
}

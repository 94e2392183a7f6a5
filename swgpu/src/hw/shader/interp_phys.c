/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: accesses through buffer device addresses (IR_LDPHYS,
 * IR_STPHYS, IR_ATOMPHYS; internal, called from interp.c).
 *
 * Each lane's 64-bit address is translated in the context's VA space;
 * each instruction is a read section of its own (nested in the
 * dispatch's on the engine thread), which holds the mappings it
 * translated into until the instruction is done, so an unmap meanwhile
 * cannot free them under it. The mapping the last address fell in is
 * kept, so lanes walking one buffer cost a range check each. An address that is not
 * mapped (or not writable for a store) reads 0, writes nothing and is
 * recorded in the dispatch: the DISPATCH packet then faults the context
 * (VK_ERROR_DEVICE_LOST), as a bad address does on a GPU.
 */
#include <string.h>

#include <swgpu/swgpu.h>

#include "interp_util.h"
#include "kmd/vaspace.h"

struct span {
	uint64_t va, size;
	uint8_t *host;
	uint32_t access;
};

/* Host pointer of [va, va + bytes), or NULL (recorded as a fault). */
static uint8_t *
resolve(struct ir_dispatch *d, struct span *c, uint64_t va, uint32_t bytes,
        uint32_t access)
{
	if (!c->host || c->access != access || va < c->va ||
	    va - c->va > c->size || bytes > c->size - (va - c->va)) {
		uint64_t sva, ssize;
		uint8_t *h = d->vs ? vaspace_translate_span(d->vs, va, access,
		                                            &sva, &ssize)
		                   : NULL;

		if (!h || bytes > ssize - (va - sva)) {
			uint64_t none = 0;

			__atomic_compare_exchange_n(&d->fault_va, &none,
			                            va ? va : 1, false,
			                            __ATOMIC_RELAXED,
			                            __ATOMIC_RELAXED);
			__atomic_store_n(&d->fault_access, access,
			                 __ATOMIC_RELAXED);
			return NULL;
		}
		c->va = sva;
		c->size = ssize;
		c->host = h - (va - sva);
		c->access = access;
	}
	return c->host + (va - c->va);
}

void
interp_phys(struct ir_exec *e, struct ir_dispatch *d,
            const struct ir_instr *in, bool full)
{
	const uint32_t W = e->width;
	const uint8_t *m = e->mask;
	lane_t *D = e->regs + (size_t)in->dst * W;
	const lane_t *LO = e->regs + (size_t)in->a * W, *HI = LO + W;
	const lane_t *B = e->regs + (size_t)in->b * W;
	const lane_t *C = e->regs + (size_t)in->c * W;
	struct span c = { 0 };

	if (d->vs)
		vaspace_read_lock(d->vs);
	switch (in->op) {
	case IR_LDPHYS: {
		const uint32_t bytes = in->aux2 ? in->aux2 : 4;

		LANES({
			uint64_t va = (uint64_t)HI[l].u << 32 | LO[l].u;
			const uint8_t *p = resolve(d, &c, va, bytes,
			                           SWGPU_VA_READ);
			uint32_t v = 0;

			if (p)
				memcpy(&v, p, bytes);
			D[l].u = v;
		});
		break;
	}
	case IR_STPHYS: {
		const uint32_t bytes = in->aux2 ? in->aux2 : 4;

		LANES({
			uint64_t va = (uint64_t)HI[l].u << 32 | LO[l].u;
			uint8_t *p = resolve(d, &c, va, bytes,
			                     SWGPU_VA_WRITE);

			if (p)
				memcpy(p, &B[l].u, bytes);
		});
		break;
	}
	case IR_ATOMPHYS:
		LANES({
			uint64_t va = (uint64_t)HI[l].u << 32 | LO[l].u;
			uint8_t *p = (va & 3) ? NULL :
			             resolve(d, &c, va, 4, SWGPU_VA_READ |
			                                   SWGPU_VA_WRITE);
			uint32_t r = 0;

			if (p)
				r = atomic_op((uint32_t *)(void *)p, in->aux2,
				              B[l].u, C[l].u);
			if (in->dst)
				D[l].u = r;
		});
		break;
	case IR_ATOMPHYS64: {
		/* b, c and dst are register pairs (64-bit and double
		 * atomics through a buffer device address). */
		const lane_t *BH = B + W, *CH = C + W;
		lane_t *DH = D + W;

		LANES({
			uint64_t va = (uint64_t)HI[l].u << 32 | LO[l].u;
			uint8_t *p = (va & 7) ? NULL :
			             resolve(d, &c, va, 8, SWGPU_VA_READ |
			                                   SWGPU_VA_WRITE);
			uint64_t r = 0;

			if (p)
				r = atomic_op64((uint64_t *)(void *)p, in->aux2,
				                (uint64_t)BH[l].u << 32 | B[l].u,
				                (uint64_t)CH[l].u << 32 | C[l].u);
			if (in->dst) {
				D[l].u = (uint32_t)r;
				DH[l].u = (uint32_t)(r >> 32);
			}
		});
		break;
	}
	default:
		break;
	}
	if (d->vs)
		vaspace_read_unlock(d->vs);
}

/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the SIMT interpreter (internal to src/hw/shader): the
 * per-thread execution state and the lane loop macro.
 */
#ifndef SWGPU_SHADER_INTERP_UTIL_H
#define SWGPU_SHADER_INTERP_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ir.h"

struct ir_exec {
	const struct ir_program *p;
	uint32_t width;            /* lanes, a multiple of SG */
	uint32_t lanes;            /* real invocations of a workgroup */
	lane_t *regs;              /* nregs * width */
	uint32_t *pc, *prev;       /* per lane block index / previous */
	uint8_t *mask;             /* lanes running the current block */
	uint8_t *shared;           /* Workgroup memory */
	uint64_t blocks_run;       /* for the periodic hang check */
	/* Where run_lanes stopped (preempted) or resumes: the block it is
	 * about to run and its scheduling state (wg_save.h). */
	uint32_t at_blk;
	bool at_uniform, at_full;
	uint32_t backedges;        /* loop back-edges run (stop polls) */
	/* A compiled loop (jit.h) returned for a stop request: run_lanes
	 * stops at the block boundary it left, a back-edge or not. */
	bool jit_stopped;
	/* Graphics batches (stage.h; NULL/false for compute): */
	uint8_t *live;             /* 0: a helper lane, whose stores,
	                              atomics and image writes do nothing */
	uint8_t *live_mask;        /* mask & live, for those instructions */
	uint8_t *disc;             /* lanes discarded in this batch */
	bool helpers;              /* some lane of the batch is a helper */
	/* Compiled code of the program (jit.h), NULL: interpret. */
	const struct jit_program *jit;
	/* jit set by ir_exec_set_jit (tests): no switch to code compiled
	 * in the background (jit_program_ready) */
	bool jit_pinned;
};

/* The largest subgroup size: execution widths are multiples of it, so
 * of every smaller (power-of-two) size a program may have. */
#define SG 32u

/* A program's subgroup size; 0 (a program built without the translator,
 * as white-box tests do) is the default SG. */
static inline uint32_t
interp_subgroup_size(const struct ir_program *p)
{
	return p->subgroup_size ? p->subgroup_size : SG;
}

/* Run body for every active lane: a plain loop when all lanes are active
 * (the compiler vectorizes it), else a masked one. */
#define LANES(...)                                                      \
	do {                                                            \
		if (full) {                                             \
			for (uint32_t l = 0; l < W; l++) { __VA_ARGS__; } \
		} else {                                                \
			for (uint32_t l = 0; l < W; l++)                \
				if (m[l]) { __VA_ARGS__; }              \
		}                                                       \
	} while (0)

/* Runs block blk for the lanes in e->mask (all lanes when full_block)
 * (interp.c). Returns the block every active lane branches to when they
 * all take the same branch, IR_PC_DONE when they all return, else
 * INTERP_HINT_NONE. */
#define INTERP_HINT_NONE (IR_PC_DONE - 1)
/* Instructions [from, to) of block blk only (the JIT runs the others,
 * jit.h); INTERP_HINT_NONE unless the range ends with the terminator. */
uint32_t interp_exec_range(struct ir_exec *e, const struct ir_dispatch *d,
                           uint32_t blk, bool full_block, uint32_t from,
                           uint32_t to);
static inline uint32_t
interp_exec_block(struct ir_exec *e, const struct ir_dispatch *d,
                  uint32_t blk, bool full_block)
{
	return interp_exec_range(e, d, blk, full_block, 0,
	                         e->p->blocks[blk].count);
}

/* Subgroup instructions (interp_group.c). */
void interp_group(struct ir_exec *e, const struct ir_instr *in, bool full);
/* 8/16-bit storage accesses (interp_narrow.c). */
void interp_narrow(struct ir_exec *e, const struct ir_dispatch *d,
                   const struct ir_instr *in, bool full);
/* IR_RTZ: its instruction rounding toward zero (interp_rtz.c). */
void interp_rtz(struct ir_exec *e, const struct ir_instr *in, bool full);
/* Double-precision instructions (interp_f64.c). */
void interp_f64(struct ir_exec *e, const struct ir_instr *in, bool full);
/* 64-bit integer instructions (interp_int64.c). */
void interp_int64(struct ir_exec *e, const struct ir_dispatch *d,
                  const struct ir_instr *in, bool full);

/* Buffer device addresses (interp_phys.c). */
void interp_phys(struct ir_exec *e, struct ir_dispatch *d,
                 const struct ir_instr *in, bool full);

/* Images and texel buffers (interp_image.c). */
void interp_image(struct ir_exec *e, const struct ir_dispatch *d,
                  const struct ir_instr *in, bool full);

/* Resource slot + idx of a descriptor array of count (0: 1) slots, or
 * NULL (index out of range, null descriptor). */
const struct ir_buffer_binding *image_resource(const struct ir_dispatch *d,
                                               uint32_t slot, uint32_t idx,
                                               uint32_t count);
/* Texel (x, y, slice) of level lv decoded into v in the image's domain;
 * false (v untouched) outside the level or the bound range. */
bool image_fetch(const struct ir_buffer_binding *bb,
                 const struct img_level *lv, uint32_t x, uint32_t y,
                 uint32_t slice, lane_t v[4]);
/* The view's component swizzle applied to v. */
void image_swizzle(const struct ir_image_binding *im, lane_t v[4]);

/* Sampled images (interp_sample.c). */
void interp_sample(struct ir_exec *e, const struct ir_dispatch *d,
                   const struct ir_instr *in, bool full);

/* The float atomics on a word's bits: float for 32-bit words, double for
 * 64-bit ones (host IEEE arithmetic, round to nearest even; min/max as
 * fmin/fmax, a NaN operand gives the other). */
static inline uint64_t
float_atomic_bits(uint32_t kind, uint64_t old, uint64_t v, unsigned bytes)
{
	if (bytes == 4) {
		float a, b;
		uint32_t o = (uint32_t)old, w = (uint32_t)v;

		memcpy(&a, &o, 4);
		memcpy(&b, &w, 4);
		a = kind == IR_AT_FADD ? a + b :
		    kind == IR_AT_FMIN ? fminf(a, b) : fmaxf(a, b);
		memcpy(&o, &a, 4);
		return o;
	}
	double a, b;

	memcpy(&a, &old, 8);
	memcpy(&b, &v, 8);
	a = kind == IR_AT_FADD ? a + b :
	    kind == IR_AT_FMIN ? fmin(a, b) : fmax(a, b);
	memcpy(&old, &a, 8);
	return old;
}

/*
 * An atomic on device memory (storage buffers: other engines and the host
 * may touch the word concurrently), one definition for 32- and 64-bit
 * words. Returns the old value (0 for a store).
 */
#define DEFINE_DEVICE_ATOMIC(name, T, ST)                                    \
	static inline T                                                      \
	name(T *p, uint32_t kind, T v, T cmp)                                \
	{                                                                    \
		T old, nv;                                                   \
                                                                             \
		switch (kind) {                                              \
		case IR_AT_LOAD:                                             \
			return __atomic_load_n(p, __ATOMIC_ACQUIRE);         \
		case IR_AT_STORE:                                            \
			__atomic_store_n(p, v, __ATOMIC_RELEASE);            \
			return 0;                                            \
		case IR_AT_XCHG:                                             \
			return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL);  \
		case IR_AT_CMPXCHG:                                          \
			old = cmp;                                           \
			__atomic_compare_exchange_n(p, &old, v, false,       \
			                            __ATOMIC_ACQ_REL,        \
			                            __ATOMIC_ACQUIRE);       \
			return old;                                          \
		case IR_AT_ADD:                                              \
			return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);   \
		case IR_AT_SUB:                                              \
			return __atomic_fetch_sub(p, v, __ATOMIC_ACQ_REL);   \
		case IR_AT_AND:                                              \
			return __atomic_fetch_and(p, v, __ATOMIC_ACQ_REL);   \
		case IR_AT_OR:                                               \
			return __atomic_fetch_or(p, v, __ATOMIC_ACQ_REL);    \
		case IR_AT_XOR:                                              \
			return __atomic_fetch_xor(p, v, __ATOMIC_ACQ_REL);   \
		default:                                                     \
			break;                                               \
		}                                                            \
		/* min/max: compare-and-swap loop */                         \
		old = __atomic_load_n(p, __ATOMIC_RELAXED);                  \
		do {                                                         \
			switch (kind) {                                      \
			case IR_AT_SMIN:                                     \
				nv = (ST)v < (ST)old ? v : old;              \
				break;                                       \
			case IR_AT_SMAX:                                     \
				nv = (ST)v > (ST)old ? v : old;              \
				break;                                       \
			case IR_AT_UMIN:                                     \
				nv = v < old ? v : old;                      \
				break;                                       \
			case IR_AT_FADD:                                     \
			case IR_AT_FMIN:                                     \
			case IR_AT_FMAX:                                     \
				nv = (T)float_atomic_bits(kind, old, v,      \
				                          sizeof(T));        \
				break;                                       \
			default:                                             \
				nv = v > old ? v : old;                      \
				break;                                       \
			}                                                    \
		} while (!__atomic_compare_exchange_n(p, &old, nv, true,     \
		                                      __ATOMIC_ACQ_REL,      \
		                                      __ATOMIC_RELAXED));    \
		return old;                                                  \
	}

DEFINE_DEVICE_ATOMIC(atomic_op, uint32_t, int32_t)
DEFINE_DEVICE_ATOMIC(atomic_op64, uint64_t, int64_t)

/* Float/double to 64-bit integers as SPIR-V conversions here are
 * defined: NaN gives 0, out-of-range values saturate. A float argument
 * converts to double exactly, so one definition serves both. */
static inline int64_t
d2s64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775808.0)
		return INT64_MAX;
	if (v < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static inline uint64_t
d2u64(double v)
{
	if (!(v > 0.0))
		return 0;
	if (v >= 18446744073709551616.0)
		return UINT64_MAX;
	return (uint64_t)v;
}

#endif

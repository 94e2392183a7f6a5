/* SPDX-License-Identifier: MIT */
/*
 * Emission pieces of the shader compiler beyond the ALU (jit_alu.h):
 * memory instructions (jit_mem.c) and phis and terminators (jit_cf.c),
 * used by jit_llvm.c inside a segment's loop over chunks of `lanes`
 * lanes. Everything they touch of the engine comes through the
 * struct jit_frame (jit.h) the segment function receives.
 */
#ifndef SWGPU_SHADER_JIT_EMIT_H
#define SWGPU_SHADER_JIT_EMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/shader/ir.h"
#include "hw/shader/ir_live.h"
#include "jit_alu.h"

/* The chunk of lanes being emitted: lanes [i, i + lanes). */
struct jit_chunk {
	LLVMValueRef frame;        /* struct jit_frame * */
	LLVMValueRef regs;         /* frame->regs */
	LLVMValueRef pc, prev;     /* frame->pc, frame->prev */
	LLVMValueRef i;            /* i64: first lane of the chunk */
	LLVMValueRef width;        /* i64: frame->width */
	LLVMBasicBlockRef entry;   /* the function's entry (hoisted loads) */
	LLVMValueRef active;       /* vi1: frame->mask of the chunk */
	LLVMValueRef store_active; /* vi1: frame->store_mask of the chunk */
	const struct ir_program *p;
};

/* A field of the frame (offset from offsetof) of type t. */
LLVMValueRef jit_frame_load(struct jit_ctx *c, LLVMValueRef frame,
                            uint32_t offset, LLVMTypeRef t);

/* Memory access classes of an instruction, for ordering (jit_llvm.c
 * cuts a segment's chunk loop where the interpreter's instruction-by-
 * instruction order could be seen by another lane). */
enum {
	JIT_MEM_BUF_R = 1, JIT_MEM_BUF_W = 2,   /* any storage buffer */
	JIT_MEM_SH_R = 4, JIT_MEM_SH_W = 8,     /* shared memory */
	JIT_MEM_REGS = 16,                      /* IR_LDX / IR_STX */
	JIT_MEM_FENCE = 32,                     /* IR_FENCE: a phase alone */
	JIT_MEM_FRAME = 64,                     /* a call of the interpreter
	                                           (jit_frame_op.h), with
	                                           JIT_MEM_FENCE */
};

/* The operands a memory instruction reads as register values, bit 0 a,
 * 1 b, 2 c, 3 d (the others are immediates or register numbers); -1:
 * not compiled. *cls: its JIT_MEM_* classes. */
int jit_mem_sources(const struct ir_program *p, const struct ir_instr *in,
                    unsigned *cls);

/* Emit in (a memory instruction jit_mem_sources accepts) for chunk k;
 * returns dst's new value, NULL for stores. src: its sources' values. */
LLVMValueRef jit_mem_emit(struct jit_ctx *c, const struct jit_chunk *k,
                          const struct ir_instr *in,
                          LLVMValueRef const src[4]);
/* The registers [*first, *first + *n) IR_LDX / IR_STX reach. */
void jit_mem_reg_range(const struct ir_instr *in, uint32_t *first,
                       uint32_t *n);

/* Phis and terminators (jit_cf.c). */
bool jit_cf_is_phi(const struct ir_instr *in);
bool jit_cf_is_terminator(const struct ir_instr *in);
/* Pairs of the phis compiled (more stay in the interpreter). */
#define JIT_PHI_MAX 64u
/* Registers a phi reads: its table's value registers (*n of them,
 * pointers into p->table, stride 2); false when the table is out of
 * range. */
bool jit_cf_phi_table(const struct ir_program *p, const struct ir_instr *in,
                      const uint32_t **pairs, uint32_t *n);
/* The chunk's lanes of frame->prev. */
LLVMValueRef jit_cf_prev(struct jit_ctx *c, const struct jit_chunk *k);
/* The phi's new dst value from the lanes' previous blocks (prev), the
 * old value and vals[k], the value of pair k's register. */
LLVMValueRef jit_cf_phi(struct jit_ctx *c, LLVMValueRef prev,
                        const uint32_t *pairs, uint32_t n, LLVMValueRef old,
                        LLVMValueRef const *vals);
/* Each lane's next block under terminator in (IR_PC_DONE for IR_RET);
 * a: the value of in->a (BRC, SWITCH), else NULL. */
LLVMValueRef jit_cf_target(struct jit_ctx *c, const struct ir_program *p,
                           const struct ir_instr *in, LLVMValueRef a);

/* Terminator state carried across the chunk loop: whether some active
 * lane took / did not take a conditional branch. */
struct jit_cf_acc {
	LLVMValueRef taken, not_taken;   /* i1 */
};
/* Emit terminator in of block blk for chunk k: store pc/prev of the
 * active lanes; fold its condition into acc (in: the values so far,
 * out: this chunk's). a: the value of in->a (BRC, SWITCH), else NULL. */
void jit_cf_terminator(struct jit_ctx *c, const struct jit_chunk *k,
                       const struct ir_program *p, const struct ir_instr *in,
                       uint32_t blk, LLVMValueRef a, struct jit_cf_acc *acc);
/* The hint the terminator returns after the loop (interp.c's). */
LLVMValueRef jit_cf_hint(struct jit_ctx *c, const struct ir_instr *in,
                         const struct jit_cf_acc *acc);

/* The segment emitter's state (jit_llvm.c), shared with the loop
 * emitter (jit_loop.c). */
/* Per-compile state: the program, the register values of the segment
 * being emitted and which registers are constants. */
struct seg_state {
	struct jit_ctx c;
	const struct ir_program *p;
	LLVMValueRef *val;         /* nregs: value in this chunk */
	uint8_t *dirty;            /* nregs: written, not yet stored */
	uint8_t *is_const;         /* nregs: constant, never written */
	uint32_t *const_val;       /* nregs */
	uint32_t *touched;         /* registers with val set */
	uint32_t ntouched;
	uint32_t *dirty_list;      /* registers made dirty, in order */
	uint32_t ndirty;
	struct jit_chunk k;        /* the chunk being emitted */
	LLVMValueRef mask_ptr, store_mask_ptr;
	LLVMValueRef prev_val;     /* lanes' previous blocks (loops), or
	                              NULL: read frame->prev */
	/* register liveness (hw/shader/ir_live.h), NULL: every register
	 * live; compiled loops carry and store only live registers */
	const struct ir_live *live;
};

/* jit_llvm.c: the operands in reads as values (bit 0 a .. 3 d), -1 when
 * not compiled, *cls its memory classes; whether in is compiled; a
 * register's value in the chunk (loaded or folded on first use); a
 * register's new value (stored at the end of the phase); one non-
 * terminator instruction. */
int jit_instr_uses(const struct ir_program *p, const struct ir_instr *in,
                   unsigned *cls);
bool jit_compilable(const struct ir_program *p, const struct ir_instr *in);
LLVMValueRef jit_read_reg(struct seg_state *s, uint32_t r);
void jit_write_reg(struct seg_state *s, uint32_t r, LLVMValueRef v);
void jit_emit_instr(struct seg_state *s, const struct ir_instr *in);

/* Compiled loops (jit_loop.c): mark the blocks of each loop that can
 * run as one function (jp->blocks[].loop_head, loop_end); emit the
 * function of loop [h, t] as name (false: too big, left to segments). */
struct jit_program;
void jit_loop_plan(const struct ir_program *p, struct jit_program *jp);
bool jit_loop_emit(struct seg_state *s, const char *name, uint32_t h,
                   uint32_t t);

#endif

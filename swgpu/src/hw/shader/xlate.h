/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V -> IR translator (internal to src/hw/shader).
 *
 * One pass over the module collects capabilities, decorations, types,
 * constants (specialized) and global variables; then the entry point is
 * translated block by block, inlining every function call. Errors unwind
 * with longjmp to xlate_module(), which frees everything, so helpers can
 * fail anywhere without error plumbing.
 */
#ifndef SWGPU_SHADER_XLATE_H
#define SWGPU_SHADER_XLATE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "ir.h"

enum xkind {
	XK_NONE = 0, XK_TYPE, XK_CONST, XK_VALUE, XK_PTR, XK_FUNC, XK_LABEL,
	XK_EXTINST, XK_STRING, XK_IGNORED,
	XK_IMAGE,                /* a loaded image: ptr names its slot(s) */
};

/* Where a pointer points. Units: bytes for BUF/PUSH/SHARED, registers
 * (slots) for PRIV/INPUT. IMAGE: an image variable (slot, nslots,
 * desc_array, desc_idx as for BUF); TEXEL: a texel of one
 * (OpImageTexelPointer), off = first of 3 coordinate registers; PHYS: a
 * physical storage buffer address held in registers addr_lo/addr_hi,
 * plus off/dyn, in bytes (xlate_phys.c). */
enum xspace { XS_BUF, XS_PUSH, XS_SHARED, XS_PRIV, XS_INPUT, XS_IMAGE,
              XS_TEXEL, XS_PHYS };

struct xtype {
	uint32_t op;             /* SpvOpType* */
	uint32_t width;
	bool is_signed;
	uint32_t elem;           /* component / element / pointee / column */
	uint32_t count;          /* components, columns, length */
	uint32_t storage;        /* pointer storage class */
	uint32_t members;        /* struct: offset of member ids in pool */
	uint32_t nmembers;
	/* Registers of a value, saturated at XL_HUGE: an array in a
	 * buffer may be as large as the buffer (4 GiB), but only values
	 * of at most XL_MAX_VALUE_SCALARS scalars live in registers. */
	uint32_t scalars;
};

#define XL_HUGE UINT32_MAX
/* Largest value held in registers: a Function/Private variable, a
 * whole-composite load or store, a constant. */
#define XL_MAX_VALUE_SCALARS (1u << 20)

struct xptr {
	uint8_t space;
	bool explicit_layout;    /* BUF/PUSH: Offset/ArrayStride layout */
	bool desc_array;         /* BUF: root still an array of blocks */
	bool row_major;          /* pointee is (in) a row-major matrix */
	uint32_t type;           /* pointee type id */
	uint32_t slot;           /* BUF: buffer slot; PRIV/INPUT: base reg */
	uint32_t nslots;         /* BUF desc_array: count; PRIV: limit */
	uint32_t off;            /* constant part of the offset */
	uint32_t dyn;            /* register with the dynamic part, 0 none */
	uint32_t comp_stride;    /* between vector components */
	uint32_t mstride;        /* matrix stride */
	bool writable;
	bool unbound;            /* BUF: (set, binding) not in the layout */
	bool vptr;               /* a variable pointer (xlate_vptr.c): BUF
	                            slot per lane in desc_idx, slots marked
	                            used when its sources were made */
	uint32_t desc_idx;       /* BUF: register indexing the descriptor
	                            array (slot..slot+nslots-1), 0: none */
	uint32_t set, binding;   /* BUF: for messages */
	uint32_t addr_lo, addr_hi; /* PHYS: the base address's registers */
	/* IMAGE of a sampled image: its sampler's slot, index register
	 * and array length (as slot, desc_idx, nslots) */
	bool has_smp;
	uint32_t smp_slot, smp_idx, smp_nslots;
};

struct xid {
	uint8_t kind;
	uint32_t type;           /* type of the result (or the type itself) */
	uint32_t def;            /* word offset of the defining instruction */
	uint32_t nregs, regs;    /* value: registers (offset in rpool) */
	uint32_t cval;           /* constant: words in cpool (type scalars) */
	uint32_t ptr;            /* pointer: index in ptrs */
	uint32_t block, exit_block; /* label */
	/* decorations */
	uint32_t builtin;        /* BuiltIn + 1, 0: none */
	uint32_t set, binding, spec_id, array_stride;
	uint32_t name;           /* word offset of its OpName string, 0 */
	bool has_set, has_binding, has_spec, is_block, is_buffer_block;
	bool is_spec;            /* constant came from a spec constant */
	/* stage interface decorations (xlate_io.c) */
	bool has_location, has_component, patch;
	uint32_t location, component, index;
	uint8_t interp;          /* IR_INTERP_FLAT/NOPERSPECTIVE/CENTROID/
	                            SAMPLE bits */
	/* FPRoundingMode decoration of a conversion: true for RTZ (RTE is
	 * the engine's rounding anyway) */
	bool round_rtz;
};

struct xmdeco {
	uint32_t id, member, deco, value;
};

struct xfixup {
	uint8_t kind;            /* XF_* */
	uint32_t at;             /* instruction or table index */
	uint32_t id;             /* label or value id */
	uint32_t comp;           /* value component */
};

enum { XF_BR_IMM, XF_BR_B, XF_TABLE_BLOCK, XF_TABLE_EXIT, XF_TABLE_VAL };

#define XL_MAX_INLINE_DEPTH 32

struct xphi_move {
	uint32_t dst, src;
};

/* One function instance being translated (inlining stack entry). */
struct xfstate {
	uint32_t ret_regs;          /* first register of the return value */
	uint32_t nret;
	uint32_t serial;            /* tags this instance's return fixups */
	struct xphi_move moves[64]; /* phi results to copy after the phis */
	uint32_t nmoves;
};

struct xl {
	jmp_buf fail;
	swgpu_result err;
	char msg[256];
	uint32_t cur_at;         /* word of the instruction being translated
	                            (for messages), 0: none */
	const uint32_t *w;
	uint32_t nw;
	uint32_t bound;
	struct xid *ids;
	struct xtype *types;     /* indexed by id, valid for XK_TYPE */
	const swgpu_shader_info *info;
	/* growable pools */
	uint32_t *pool; uint32_t npool, cappool;     /* misc words */
	uint32_t *rpool; uint32_t nrpool, caprpool;  /* value registers */
	uint32_t *cpool; uint32_t ncpool, capcpool;  /* constant words */
	struct xptr *ptrs; uint32_t nptrs, capptrs;
	struct xmdeco *mdecos; uint32_t nmdecos, capmdecos;
	struct xfixup *fix; uint32_t nfix, capfix;
	/* output */
	struct ir_program *p;
	uint32_t capcode, capblocks, captable, capconsts, capconstvals;
	uint32_t cur_block;      /* block being filled */
	/* constant dedup: open addressing value -> reg */
	uint32_t *cmap_val, *cmap_reg; uint32_t cmap_cap;
	/* module facts */
	uint32_t entry_func;     /* id */
	uint32_t other_model;    /* an entry point of that name with another
	                            execution model (+ 1), for messages */
	const uint32_t *iface;   /* the entry point's interface ids */
	uint32_t niface;
	uint8_t *io_read;        /* by register: an input component loaded */
	uint32_t cap_io_read;
	uint32_t glsl_set;       /* ext inst set id of GLSL.std.450 */
	uint32_t local_size_ids[3];
	bool local_size_from_id;
	uint32_t wgsize_const;   /* constant id decorated WorkgroupSize */
	bool var_ptrs;           /* VariablePointers(StorageBuffer) declared */
	uint8_t ftz_widths;      /* DenormFlushToZero: XL_FTZ* bits */
	uint8_t rtz_widths;      /* RoundingModeRTZ: XL_FTZ* bits */
	uint32_t wg_block_base;  /* shared offset of the aliased Block
	                            Workgroup variables, UINT32_MAX: none */
	uint32_t *globals;       /* Private vars with initializers: id */
	uint32_t nglobals, capglobals;
	uint32_t big_var;        /* largest Function/Private variable */
	uint32_t big_var_scalars;
	uint32_t depth;          /* inlining depth */
	uint32_t call_serial;
	struct xfstate fstack[XL_MAX_INLINE_DEPTH + 1];
	/* scratch arrays of the memory helpers */
	uint32_t *s_offs, *s_regs, *s_copy;
	uint32_t cap_offs, cap_regs, cap_copy;
};

_Noreturn void xl_fail(struct xl *x, swgpu_result r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A valid shader over one of the engine's own limits (registers,
 * value and composite sizes, inlining depth): not invalid input but a
 * resource the engine lacks, so SWGPU_ERR_NO_HOST_MEMORY, which the ICD
 * returns as VK_ERROR_OUT_OF_HOST_MEMORY (an error pipeline creation
 * may return). SWGPU_ERR_INVALID_ARG is invalid SPIR-V or a layout that
 * does not match it; SWGPU_ERR_UNSUPPORTED a construct the engine does
 * not run, which only a shader using a feature the device does not
 * report can contain. */
#define xl_limit(x, ...) xl_fail((x), SWGPU_ERR_NO_HOST_MEMORY, __VA_ARGS__)
void *xl_grow(struct xl *x, void *arr, uint32_t *cap, uint32_t need,
              size_t elem);

const struct xtype *xl_type(struct xl *x, uint32_t id);
struct xid *xl_id(struct xl *x, uint32_t id);
uint32_t xl_new_regs(struct xl *x, uint32_t n);
/* Registers of a value (constants are materialized): *n gets the count. */
const uint32_t *xl_val(struct xl *x, uint32_t id, uint32_t *n);
uint32_t xl_val1(struct xl *x, uint32_t id);   /* scalar value */
void xl_set_val(struct xl *x, uint32_t id, uint32_t type,
                const uint32_t *regs, uint32_t n);
uint32_t xl_const_reg(struct xl *x, uint32_t value);
bool xl_const_u32(struct xl *x, uint32_t id, uint32_t *out);
uint32_t xl_emit(struct xl *x, uint32_t op, uint32_t dst, uint32_t a,
                 uint32_t b, uint32_t c);
struct ir_instr *xl_instr(struct xl *x, uint32_t index);
uint32_t xl_table_add(struct xl *x, uint32_t v);
void xl_fixup(struct xl *x, uint8_t kind, uint32_t at, uint32_t id,
              uint32_t comp);
void xl_start_block(struct xl *x);
void xl_end_block(struct xl *x);
uint32_t xl_scalar_type(struct xl *x, uint32_t type);
/* The id's OpName in quotes, or %id: for messages (a static buffer
 * per call slot: at most XL_NAME_SLOTS names in one message). */
#define XL_NAME_SLOTS 2
const char *xl_name(struct xl *x, uint32_t id, uint32_t slot);
/* a + b, saturated at UINT32_MAX: byte offsets past 4 GiB are out of
 * every buffer's range and must not wrap onto one inside it. */
static inline uint32_t
xl_off_add(uint64_t a, uint64_t b)
{
	return a + b > UINT32_MAX ? UINT32_MAX : (uint32_t)(a + b);
}

/* xlate.c: fails unless the instruction (opcode op) has n words */
void xl_need(struct xl *x, uint32_t wc, uint32_t n, uint32_t op);
/* xlate_type.c: OpDecorate, OpMemberDecorate and OpType* */
void xl_decorate(struct xl *x, const uint32_t *in, uint32_t wc);
void xl_member_decorate(struct xl *x, const uint32_t *in, uint32_t wc);
/* OpGroupDecorate / OpGroupMemberDecorate at word at of the module */
void xl_group_decorate(struct xl *x, const uint32_t *in, uint32_t wc,
                       uint32_t at);
void xl_type_decl(struct xl *x, const uint32_t *in, uint32_t wc);
/* A struct without members, or arrays and structs of only those: a
 * value of no registers (loads, stores and constants of it are empty),
 * unlike the opaque types, which have no registers either. */
bool xl_is_empty_composite(struct xl *x, uint32_t type);

/* xlate_const.c: a new constant of type (zeroed words to fill), and the
 * OpConstant* / OpSpecConstant* declarations. */
uint32_t *xl_new_const(struct xl *x, uint32_t type, uint32_t id);
void xl_constant_decl(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_spec_op.c: OpSpecConstantOp conversions, VectorShuffle and
 * CompositeInsert (false if in is none of them) */
bool xl_spec_op_special(struct xl *x, const uint32_t *in, uint32_t wc);

/* xlate_mem.c: an Offset / MatrixStride / RowMajor ... decoration of
 * member of struct sid (value: its operand) */
bool xl_mdeco(struct xl *x, uint32_t sid, uint32_t member, uint32_t deco,
              uint32_t *value);
/* xlate_var.c: variables; the register file's size once translated */
void xl_check_register_file(struct xl *x);
void xl_global_var(struct xl *x, const uint32_t *in, uint32_t wc);
void xl_function_var(struct xl *x, const uint32_t *in, uint32_t wc);
void xl_access_chain(struct xl *x, const uint32_t *in, uint32_t wc);
void xl_load(struct xl *x, uint32_t type, uint32_t result, uint32_t ptr);
void xl_store(struct xl *x, uint32_t ptr, uint32_t value);
void xl_store_regs(struct xl *x, const struct xptr *p, const uint32_t *regs,
                   uint32_t n);
void xl_array_length(struct xl *x, const uint32_t *in, uint32_t wc);
struct xptr *xl_ptr(struct xl *x, uint32_t id);
void xl_mark_used(struct xl *x, const struct xptr *p);
/* id becomes a pointer (kind XK_PTR) or a loaded image (XK_IMAGE). */
void xl_set_ptr(struct xl *x, uint32_t id, uint32_t type,
                const struct xptr *p, uint8_t kind);
/* Resource slots for count descriptors of binding b (set, binding:
 * for messages); returns the first. */
const swgpu_shader_binding *xl_find_binding(struct xl *x, uint32_t set,
                                            uint32_t binding);
uint32_t xl_add_slots(struct xl *x, const swgpu_shader_binding *b,
                      uint32_t count, uint8_t kind, bool writable);
/* xlate_image.c: image, sampler and sampled image types, image
 * variables (UniformConstant), loads of them, and the image
 * instructions (false if in is not one) */
void xl_image_type(struct xl *x, const uint32_t *in, uint32_t wc,
                   struct xtype *t);
void xl_image_var(struct xl *x, uint32_t id, uint32_t ptr_type,
                  uint32_t pointee);
void xl_image_load(struct xl *x, uint32_t type, uint32_t result,
                   const struct xptr *p);
bool xl_image_op(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_phys.c: physical storage buffer pointers (buffer device
 * addresses): a pointer value as an xptr, the address of a PHYS xptr
 * (plus byte offset extra) in a fresh register pair, and the value
 * instructions on pointers (false if in is not one). */
bool xl_phys_ptr(struct xl *x, uint32_t id, struct xptr *out);
/* Images (xlate_image.c, xlate_sample.c). */
const struct xptr *xl_image_of(struct xl *x, uint32_t id);
/* An IR_IMG* instruction on image p; returns its index. */
uint32_t xl_emit_img(struct xl *x, uint32_t op, const struct xptr *p,
                     uint32_t dst, uint32_t a, uint32_t b, uint32_t c);
/* Fails unless type is 1-max 32-bit components. */
void xl_image_result(struct xl *x, uint32_t type, uint32_t max,
                     const char *what);
/* The image operands from in[first] (the mask) on: the ids of each
 * (0: absent); the memory-model ones are ignored; Sample fails. The
 * caller refuses what its instruction does not take (mask). */
struct xl_img_operands {
	uint32_t mask;
	uint32_t bias, lod, grad_x, grad_y, offset, offsets, min_lod;
	uint32_t sample;           /* the Sample operand (multisampled) */
};
void xl_image_operands(struct xl *x, const uint32_t *in, uint32_t wc,
                       uint32_t first, struct xl_img_operands *o);
/* xlate_group.c: subgroup instructions (false: not one); the
 * ClusterSize of a ClusteredReduce group operation */
bool xl_group_op(struct xl *x, const uint32_t *in, uint32_t wc);
uint32_t xl_cluster_size(struct xl *x, const uint32_t *in, uint32_t wc);
/* OpSampledImage, OpImageSample*, OpImage*Gather, OpImageQueryLod. */
void xl_sample_op(struct xl *x, const uint32_t *in, uint32_t wc);
uint32_t xl_phys_addr(struct xl *x, const struct xptr *p, uint32_t extra);
/* A physical pointer made by an access chain (XK_PTR) is a value too
 * (OpPhi, OpSelect, calls, stores): its address registers, computed
 * where the chain is, since a phi may name it from a later block. */
void xl_phys_regs(struct xl *x, uint32_t id);
bool xl_phys_op(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_mem.c: index * stride added to p's dynamic offset; the register
 * of a scalar index (the low word of a 64-bit one) */
void xl_add_dyn(struct xl *x, struct xptr *p, uint32_t idx_reg,
                uint32_t stride);
uint32_t xl_index_reg(struct xl *x, uint32_t id);
/* xlate_vptr.c: variable pointers. Whether type is a pointer that is a
 * two-register value (StorageBuffer / Workgroup with the capability);
 * give pointer id its slot and offset registers (xl_val reads them); a
 * value of such a type as a canonical xptr (false if it is not one);
 * the element step of OpPtrAccessChain; OpPtrEqual/NotEqual/Diff (false
 * if in is none of them); the slot of a null pointer. */
bool xl_is_vptr_type(struct xl *x, uint32_t type);
void xl_vptr_regs(struct xl *x, uint32_t id);
bool xl_vptr_ptr(struct xl *x, uint32_t id, struct xptr *out);
void xl_ptr_element(struct xl *x, struct xptr *p, uint32_t ptr_type,
                    uint32_t index_id);
bool xl_vptr_op(struct xl *x, const uint32_t *in, uint32_t wc);
uint32_t xl_vptr_null_slot(void);
/* xlate_atomic.c */
void xl_atomic(struct xl *x, const uint32_t *in, uint32_t wc);
void xl_init_privates(struct xl *x);

/* xlate_ops.c: value instructions; false if in[0] is not one of them */
bool xl_value_op(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_ops.c: the value instructions without the 8/16-bit
 * adjustments */
bool xl_value_op_wide(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_narrow.c: an instruction with 8/16-bit integer operands or
 * result; false if none (else *done: the instruction was translated) */
bool xl_narrow_op(struct xl *x, const uint32_t *in, uint32_t wc,
                  bool *done);
/* xlate_f64.c: float arithmetic, comparisons and conversions on
 * doubles; false if in is none of them (word moves go on to int64) */
bool xl_f64_op(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_f64_geom.c: GLSL.std.450 Length, Distance, Cross, Normalize,
 * FaceForward, Reflect, SmoothStep, Modf(Struct), Determinant,
 * MatrixInverse on doubles; false if
 * in is none of them */
bool xl_f64_geom(struct xl *x, const uint32_t *in, uint32_t wc);
/* xlate_int64.c: instructions on 64-bit integers; false if in is not
 * one (or needs nothing special) */
bool xl_int64_op(struct xl *x, const uint32_t *in, uint32_t wc);

/* xlate_idot.c: OpSDot/UDot/SUDot and their AccSat forms on every
 * operand width */
void xl_int_dot(struct xl *x, const uint32_t *in, uint32_t wc);

/* xlate_fpmode.c: the DenormFlushToZero execution mode, applied to
 * the result of the value instruction in just translated */
#define XL_FTZ16 1u
#define XL_FTZ32 2u
#define XL_FTZ64 4u
#define XL_FTZ_MAX_OPS 4
struct xl_saved_id {
	uint32_t id;
	struct xid d;
};
void xl_denorm_flush(struct xl *x, const uint32_t *in, uint32_t wc);
/* its operands: their ids point at flushed copies (returns how many,
 * saved[] holds the originals for xl_denorm_restore) */
uint32_t xl_denorm_flush_inputs(struct xl *x, const uint32_t *in,
                                uint32_t wc, struct xl_saved_id *saved);
void xl_denorm_restore(struct xl *x, const struct xl_saved_id *saved,
                       uint32_t n);
/* RoundingModeRTZ: mark the rounding instructions emitted for in since
 * instruction index start to round toward zero */
void xl_rtz_mark(struct xl *x, const uint32_t *in, uint32_t wc,
                 uint32_t start);

/* xlate_deriv.c: derivatives; false if in is not one */
bool xl_deriv_op(struct xl *x, const uint32_t *in, uint32_t wc);

/* xlate_func.c */
void xl_translate_entry(struct xl *x);

/* xlate_io.c: Input and Output variables (the stage interface and
 * built-ins) into ptr; the loads of an input pointer (offs: the n
 * loaded registers' offsets from p->slot); after translation, the
 * ir_io facts. */
void xl_io_var(struct xl *x, uint32_t id, uint32_t pointee,
               uint32_t storage, struct xptr *ptr);
void xl_io_mark_read(struct xl *x, const struct xptr *p,
                     const uint32_t *offs, uint32_t n);
void xl_io_finish(struct xl *x);

/* xlate.c */
swgpu_result xlate_module(const swgpu_shader_info *info,
                          struct ir_program **out, char *msg,
                          size_t msg_size);

#endif

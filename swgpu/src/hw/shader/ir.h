/* SPDX-License-Identifier: MIT */
/*
 * The shader engine's internal form (IR), produced once per shader by the
 * SPIR-V translator and executed by the SIMT interpreter.
 *
 * Everything is scalar: a SPIR-V vector, matrix, array or struct value is
 * a list of 32-bit registers (one per scalar), so one IR instruction does
 * one scalar operation for every lane of a workgroup. A 64-bit scalar
 * is two registers, low word first; an 8- or 16-bit integer is one
 * register holding its value zero-extended (xlate_narrow.c). Registers hold all
 * lanes of the workgroup side by side (structure of arrays):
 * regs[reg * width + lane]. Register 0 always reads 0.
 *
 * Control flow is per lane: every lane has a block index (pc). The
 * interpreter runs the block with the lowest pc among live lanes, with
 * the mask of lanes sitting at it. Blocks are laid out in SPIR-V's
 * structured order (dominators first, merge blocks after their
 * construct), so lanes that diverge reconverge at the merge block before
 * it runs: barriers and subgroup operations see the whole group.
 */
#ifndef SWGPU_SHADER_IR_H
#define SWGPU_SHADER_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/format/format.h"   /* texel conversions */
#include <swgpu/swgpu.h>
#include <swgpu/swgpu_packet.h>

typedef union lane {
	uint32_t u;
	int32_t i;
	float f;
} lane_t;

/* Operand conventions: dst, a, b, c, d are registers unless stated.
 * ir_opt.c rewrites the operands of IR_MOV and of the ranges IR_IADD ..
 * IR_UMULSAT, IR_IEQ .. IR_SELIDX, IR_FADD .. IR_FADDMUL and IR_F2S ..
 * IR_UNPACKSN2 as per-lane operations on single registers: an op that
 * reads register ranges, pairs or other lanes goes outside them. */
enum ir_op {
	IR_NOP = 0,
	IR_MOV,          /* dst = a */
	/* integer */
	IR_IADD, IR_ISUB, IR_IMUL, IR_UDIV, IR_SDIV, IR_UMOD, IR_SREM,
	IR_SMOD, IR_INEG, IR_UMULHI, IR_SMULHI, IR_ADDCARRY, IR_SUBBORROW,
	IR_SHL, IR_SHR, IR_SAR, IR_AND, IR_OR, IR_XOR, IR_NOT,
	IR_BFI,          /* dst = insert(a base, b insert, c off, d count) */
	IR_BFE_U, IR_BFE_S, /* dst = extract(a, b off, c count) */
	IR_BITREV, IR_BITCOUNT, IR_FINDLSB, IR_FINDSMSB, IR_FINDUMSB,
	IR_SMIN, IR_SMAX, IR_UMIN, IR_UMAX, IR_SCLAMP, IR_UCLAMP,
	IR_SABS, IR_SSIGN,
	IR_DOT4X8,       /* packed 4x8 dot; aux2: 0 s*s, 1 u*u, 2 s*u */
	IR_ADDSAT_S, IR_ADDSAT_U,
	IR_UMULSAT,      /* dst = min(a * b, UINT32_MAX): buffer offsets */
	/* 64-bit integers as register pairs: operands (a lo, b hi) and
	 * (c lo, d hi); results dst (lo), dst + 1 (hi); shifts use c only */
	IR_ADD64, IR_SUB64, IR_MUL64, IR_UDIV64, IR_SDIV64, IR_UMOD64,
	IR_SREM64, IR_SMOD64, IR_SHL64, IR_SHR64, IR_SAR64,
	IR_IEQ64, IR_INE64, IR_ULT64, IR_ULE64, IR_UGT64, IR_UGE64,
	IR_SLT64, IR_SLE64, IR_SGT64, IR_SGE64, /* -> 0/1 in dst */
	IR_S64TOF, IR_U64TOF,  /* dst float = (a, b) */
	IR_F2S64, IR_F2U64,    /* dst pair = float a, saturated */
	/* 64-bit atomics: like IR_ATOMBUF(X) / IR_ATOMSH, but b and c name
	 * consecutive register pairs, dst a pair; d: descriptor array
	 * index register (0: none) */
	IR_ATOMBUF64, IR_ATOMSH64,
	/* double precision (Float64): aux2 = enum ir_f64; operands (a lo,
	 * b hi) and (c lo, d hi); 32-bit sources in a (and c); a double
	 * result in dst, dst + 1, a 32-bit one in dst */
	IR_F64,
	/* comparisons -> 0/1 */
	IR_IEQ, IR_INE, IR_ULT, IR_ULE, IR_UGT, IR_UGE, IR_SLT, IR_SLE,
	IR_SGT, IR_SGE,
	IR_FOEQ, IR_FONE, IR_FOLT, IR_FOLE, IR_FOGT, IR_FOGE,
	IR_FUEQ, IR_FUNE, IR_FULT, IR_FULE, IR_FUGT, IR_FUGE,
	IR_FORD, IR_FUNORD, IR_ISNAN, IR_ISINF,
	IR_LNOT,         /* dst = !a (0/1) */
	IR_SELECT,       /* dst = a ? b : c */
	IR_SELIDX,       /* dst = a == imm ? b : c */
	/* float */
	IR_FADD, IR_FSUB, IR_FMUL, IR_FDIV, IR_FREM, IR_FMOD, IR_FNEG,
	IR_FMIN, IR_FMAX, IR_FCLAMP, IR_FMIX, IR_FMA, IR_STEP, IR_SSTEP,
	IR_FABS, IR_FSIGN, IR_FLOOR, IR_CEIL, IR_FRACT, IR_ROUND,
	IR_ROUNDEVEN, IR_TRUNC, IR_SQRT, IR_RSQRT, IR_EXP, IR_EXP2, IR_LOG,
	IR_LOG2, IR_POW, IR_SIN, IR_COS, IR_TAN, IR_ASIN, IR_ACOS, IR_ATAN,
	IR_ATAN2, IR_SINH, IR_COSH, IR_TANH, IR_ASINH, IR_ACOSH, IR_ATANH,
	IR_RADIANS, IR_DEGREES, IR_LDEXP, IR_QUANT16,
	IR_FTZ,          /* dst = a, a denormal flushed to a zero of its
	                    sign; aux2: 32 (float), 16 (half bits) or
	                    IR_FTZ_HALF_IN_F32 (a float below 2^-14) */
	IR_FREXPM, IR_FREXPE,
	/* products fused by ir_opt.c (each product and the sum rounded on
	 * its own, as the FMULs and the FADD/FSUB they replace) */
	IR_FMULADD2,     /* dst = a * b + c * d */
	IR_FMULSUB2,     /* dst = a * b - c * d */
	IR_FMULADD,      /* dst = a * b + c */
	IR_FADDMUL,      /* dst = a + b * c */
	/* conversions */
	IR_F2S, IR_F2U, IR_S2F, IR_U2F,
	IR_PACKH2,       /* dst = half(a) | half(b) << 16; aux2 1: round
	                    toward zero (FPRoundingMode RTZ), else RTE */
	IR_UNPACKH_LO, IR_UNPACKH_HI,
	IR_PACKUN4, IR_PACKSN4, IR_PACKUN2, IR_PACKSN2,
	IR_UNPACKUN4,    /* dst = component imm of unpackUnorm4x8(a) */
	IR_UNPACKSN4, IR_UNPACKUN2, IR_UNPACKSN2,
	/* memory: imm = constant offset (bytes; slots for IR_LDX/IR_STX) */
	IR_LDBUF,        /* dst = buf[aux][a + imm] */
	IR_STBUF,        /* buf[aux][a + imm] = b */
	IR_LDPUSH,       /* dst = push[a + imm] */
	IR_LDSH,         /* dst = shared[a + imm] */
	IR_STSH,         /* shared[a + imm] = b */
	IR_LDX,          /* dst = reg(b + a + imm), a + imm < c (slots) */
	IR_STX,          /* reg(b + a + imm) = d, a + imm < c */
	IR_ATOMBUF,      /* dst = atomic aux2(buf[aux][a + imm], b, c) */
	IR_ATOMSH,       /* same on shared memory */
	IR_ARRLEN,       /* dst = (range(buf[aux]) - imm) / b (b const) */
	/* dynamically indexed descriptor arrays: buffer aux + d, d < c */
	IR_LDBUFX,       /* dst = buf[aux + d][a + imm] */
	IR_STBUFX,       /* buf[aux + d][a + imm] = b */
	IR_ATOMBUFX,     /* IR_ATOMBUF on buf[aux + d] (aux + d < MAX) */
	/* 8/16-bit storage (aux2 = 1 or 2 bytes, zero-extended on load):
	 * buffer aux + (d ? reg d : 0), d < c when d is set */
	IR_LDBUFN,       /* dst = buf[..][a + imm] */
	IR_STBUFN,       /* buf[..][a + imm] = low bytes of b */
	IR_LDPUSHN,      /* dst = push[a + imm] */
	IR_LDSHN,        /* dst = shared[a + imm] (explicit layout) */
	IR_STSHN,        /* shared[a + imm] = low bytes of b */
	/* images and texel buffers (interp_image.c): resource aux + reg d
	 * (d < imm & 0xffff, the descriptor array's length; 0 means 1),
	 * texel at the coordinates in the 3 consecutive registers from a */
	IR_IMGLD,        /* dst..dst+3 = texel of level reg b, sample
	                    reg c (multisampled images; else ignored) */
	IR_IMGST,        /* texel = b..b+3, sample reg c */
	IR_IMGATOM,      /* dst = atomic aux2(texel word, b, c); the
	                    sample in register a + 3 */
	IR_IMGSIZE,      /* dst = size component aux2 of level reg b;
	                    aux2 3: the level count, 4: the sample count */
	/* sampled images (interp_sample.c): dst..dst+3 = sample at the
	 * float coordinates a..a+2 (s, t, r), array layer a+3, integer
	 * texel offsets a+4..a+6, more operands from a+7 on (IR_SMP_*),
	 * explicit LOD reg b (float); the sampler is resource (imm >> 16 &
	 * 0xff) + reg c, c < imm >> 24 (0: 1); aux2 = IR_SMP_* flags */
	IR_IMGSAMPLE,
	/* buffer device addresses (interp_phys.c): the register pair a holds
	 * a GPU VA of the context; aux2: access size in bytes (1, 2, 4) */
	IR_LDPHYS,       /* dst = *va */
	IR_STPHYS,       /* *va = low bytes of b */
	IR_ATOMPHYS,     /* dst = atomic aux2(*va, b, c), 32-bit */
	IR_ATOMPHYS64,   /* the same on 64 bits: b, c, dst register pairs */
	IR_CLOCK,        /* dst pair = the device clock (ns, CLOCK_MONOTONIC) */
	IR_FENCE,        /* memory barrier */
	/* subgroups (32 lanes); aux2 = group operation for reductions */
	IR_ELECT, IR_VALL, IR_VANY, IR_VALLEQ, IR_BCAST, IR_BCASTFIRST,
	IR_BALLOT,       /* dst = word imm of ballot(a) */
	IR_INVBALLOT,    /* dst = bit (lane % 32) of ballot word a */
	IR_BALLOTEXT,    /* dst = bit b of ballot word a (0 if b >= 32) */
	IR_BALLOTCOUNT,  /* dst = popcount of word a (aux2: group op) */
	IR_BALLOTLSB, IR_BALLOTMSB,
	IR_SHUFFLE, IR_SHUFXOR, IR_SHUFUP, IR_SHUFDOWN,
	IR_GIADD, IR_GFADD, IR_GIMUL, IR_GFMUL, IR_GSMIN, IR_GUMIN,
	IR_GFMIN, IR_GSMAX, IR_GUMAX, IR_GFMAX, IR_GAND, IR_GOR, IR_GXOR,
	IR_G64,          /* 64-bit reduction/scan: value (a lo, b hi),
	                    result dst pair, imm = the IR_G* op (the float
	                    ones on doubles), aux2 = group op (clustered:
	                    cluster size d) */
	/* fragment stage (stage.h) */
	IR_DEMOTE,       /* the lane becomes a helper (discarded) */
	IR_DERIV,        /* dst = derivative of float a across the lane's
	                    2x2 quad; aux2 = enum ir_deriv */
	/* RoundingModeRTZ (interp_rtz.c): the instruction imm (IR_FADD,
	 * IR_FSUB, IR_FMUL, IR_FDIV, IR_FMA, IR_S2F, IR_U2F, IR_S64TOF,
	 * IR_U64TOF) with its operands, rounding toward zero */
	IR_RTZ,
	/* terminators */
	IR_BR,           /* pc = imm */
	IR_BRC,          /* pc = a ? imm : b (b: block index) */
	IR_SWITCH,       /* pc = table lookup: b = table start, c = pairs,
	                    imm = default block */
	IR_RET,          /* lane done */
	IR_KILL,         /* lane done, discarded (OpKill,
	                    OpTerminateInvocation) */
	IR_PHI,          /* dst = value of pred: table b, c pairs */
	IR_OP_COUNT
};

#define IR_FTZ_HALF_IN_F32 1u
/* aux2 of IR_PACKH2, imm of IR_F64: round toward zero (the
 * RoundingModeRTZ execution mode; other instructions become IR_RTZ) */
#define IR_RND_RTZ 1u

/* Atomic kinds (aux2 of IR_ATOMBUF / IR_ATOMSH). */
enum ir_atomic {
	IR_AT_LOAD, IR_AT_STORE, IR_AT_XCHG, IR_AT_CMPXCHG, IR_AT_ADD,
	IR_AT_SUB, IR_AT_SMIN, IR_AT_UMIN, IR_AT_SMAX, IR_AT_UMAX, IR_AT_AND,
	IR_AT_OR, IR_AT_XOR,
	/* on float / double words (VK_EXT_shader_atomic_float(2)) */
	IR_AT_FADD, IR_AT_FMIN, IR_AT_FMAX,
};

/* Double-precision operations (aux2 of IR_F64). */
enum ir_f64 {
	/* double (a,b) op double (c,d) -> double */
	IR_D_ADD, IR_D_SUB, IR_D_MUL, IR_D_DIV, IR_D_MIN, IR_D_MAX,
	IR_D_MOD,        /* x - y * floor(x / y) (OpFMod) */
	IR_D_REM,        /* C fmod (OpFRem) */
	IR_D_STEP,       /* (c,d) < (a,b) ? 0 : 1 */
	/* double (a,b) -> double */
	IR_D_NEG, IR_D_ABS, IR_D_FLOOR, IR_D_CEIL, IR_D_TRUNC, IR_D_FRACT,
	IR_D_SQRT, IR_D_RSQRT, IR_D_ROUND, IR_D_ROUNDEVEN, IR_D_SIGN,
	IR_D_FTZ,        /* a denormal flushed to a zero of its sign */
	/* comparisons -> 0/1 */
	IR_D_OEQ, IR_D_ONE, IR_D_OLT, IR_D_OLE, IR_D_OGT, IR_D_OGE,
	IR_D_UEQ, IR_D_UNE, IR_D_ULT, IR_D_ULE, IR_D_UGT, IR_D_UGE,
	IR_D_ISNAN, IR_D_ISINF,
	/* conversions */
	IR_D_FROM_F, IR_D_FROM_S, IR_D_FROM_U,  /* 32-bit a -> double */
	IR_D_FROM_S64, IR_D_FROM_U64,           /* (a,b) -> double */
	IR_D_TO_F, IR_D_TO_S, IR_D_TO_U,        /* -> 32-bit dst */
	IR_D_TO_F_RTZ,   /* IR_D_TO_F rounding toward zero (FPRoundingMode) */
	IR_D_TO_F_ODD,   /* rounding to odd: a float that rounds to the
	                    nearest half as the double itself would */
	IR_D_TO_S64, IR_D_TO_U64,               /* -> dst pair */
};

/* Derivatives (aux2 of IR_DERIV): fine ones differ along the lane's own
 * row (x) or column (y) of the quad, coarse ones along the quad's first
 * row or column (the same value for the whole quad). */
enum ir_deriv { IR_DX_FINE, IR_DY_FINE, IR_DX_COARSE, IR_DY_COARSE };

/* IR_IMGSAMPLE: aux2 = how the LOD comes (IR_SMP_LOD_MASK) | flags;
 * operand registers after the coordinates and offsets, a register
 * absent from the instruction reading 0 (it is never written):
 * a+7 Bias, a+8 MinLod, a+9 Dref (compared with each texel), a+10..12
 * and a+13..15 the Grad derivatives dP/dx and dP/dy, a+16..23 the four
 * (x, y) ConstOffsets of a gather. */
#define IR_SMP_LOD_MASK 0x3u
enum ir_smp_lod {
	IR_SMP_LOD_EXPLICIT = 0,   /* Lod operand in b (0 when absent) */
	IR_SMP_LOD_IMPLICIT = 1,   /* from the lane's quad (fragment) */
	IR_SMP_LOD_GRAD = 2,       /* from the Grad operands */
	IR_SMP_LOD_QUERY = 3,      /* OpImageQueryLod: dst, dst+1 = the
	                              implicit LOD's (lambda', d_l) */
};
#define IR_SMP_DREF 0x4u           /* depth comparison */
#define IR_SMP_GATHER 0x8u         /* gather component (aux2 >> 5) & 3 */
#define IR_SMP_OFFSETS 0x10u       /* gather with ConstOffsets */
#define IR_SMP_COMP_SHIFT 5u
#define IR_SMP_REGS 24u            /* operand registers from a */

/* Group operations (aux2 of subgroup arithmetic). */
/* SPIR-V's GroupOperation values; CLUSTERED reduces clusters of d lanes
 * (instruction field d holds the cluster size, a power of two <= 32). */
enum ir_group_op { IR_GROUP_REDUCE, IR_GROUP_INCLUSIVE, IR_GROUP_EXCLUSIVE,
                   IR_GROUP_CLUSTERED };

struct ir_instr {
	uint16_t op;
	uint8_t aux;     /* buffer slot */
	uint8_t aux2;    /* atomic / group op */
	uint32_t dst, a, b, c, d;
	uint32_t imm;
};

struct ir_block {
	uint32_t first;  /* index of the first instruction */
	uint32_t count;  /* the last one is a terminator */
};

/* Built-in registers: fixed register numbers, filled by the interpreter. */
enum ir_builtin_reg {
	IR_REG_ZERO = 0,
	IR_REG_LOCAL_ID = 1,       /* 3 registers */
	IR_REG_GLOBAL_ID = 4,      /* 3 */
	IR_REG_WORKGROUP_ID = 7,   /* 3 */
	IR_REG_NUM_WORKGROUPS = 10,/* 3 */
	IR_REG_WORKGROUP_SIZE = 13,/* 3 */
	IR_REG_LOCAL_INDEX = 16,
	IR_REG_SUBGROUP_SIZE = 17,
	IR_REG_SUBGROUP_LOCAL_ID = 18,
	IR_REG_SUBGROUP_ID = 19,
	IR_REG_NUM_SUBGROUPS = 20,
	IR_REG_EQ_MASK = 21,       /* 4 registers each */
	IR_REG_GE_MASK = 25,
	IR_REG_GT_MASK = 29,
	IR_REG_LE_MASK = 33,
	IR_REG_LT_MASK = 37,
	/* Graphics stages (filled by the graphics pipeline, hw/gfx, through
	 * ir_exec_reg before a batch runs; see stage.h). */
	IR_REG_VERTEX_INDEX = 41,
	IR_REG_INSTANCE_INDEX = 42,
	IR_REG_BASE_VERTEX = 43,
	IR_REG_BASE_INSTANCE = 44,
	IR_REG_DRAW_INDEX = 45,
	IR_REG_FRAG_COORD = 46,    /* 4 registers: x, y, z, 1/w */
	IR_REG_FRONT_FACING = 50,  /* 0/1 */
	IR_REG_POINT_COORD = 51,   /* 2 */
	IR_REG_HELPER = 53,        /* HelperInvocation, 0/1 (set by
	                              ir_exec_run_batch from live) */
	IR_REG_SAMPLE_ID = 54,
	IR_REG_SAMPLE_MASK_IN = 55,
	IR_REG_SAMPLE_POSITION = 56, /* 2 */
	IR_REG_PRIMITIVE_ID = 58,
	IR_REG_VIEW_INDEX = 59,
	IR_REG_LAYER = 60,         /* fragment input Layer */
	IR_REG_VIEWPORT_INDEX = 61,/* fragment input ViewportIndex */
	IR_REG_SAMPLE_COUNT = 62,  /* fragment: the draw's rasterization
	                              samples (interpolateAtSample) */
	IR_REG_CENTROID_SAMPLE = 63, /* fragment: the sample whose location
	                              is the invocation's centroid (the
	                              lowest covered one of a partly covered
	                              pixel), ~0u: its evaluation point is
	                              (interpolateAtCentroid) */
	IR_REG_FIRST_FREE = 64,    /* builtins_used is a 64-bit mask: the
	                              built-ins are full */
};

/*
 * Stage inputs and outputs of a vertex or fragment program (what the
 * graphics pipeline fills and reads; compute programs leave it zero).
 * User variables are addressed by (Location, Component): the register
 * holding that 32-bit component, 0 when the program does not use it. A
 * 64-bit component takes two component slots, low word first (a dvec3
 * or dvec4 continues at the next location). Registers of inputs are
 * filled before a batch runs; registers of outputs read after it.
 */
#define IR_MAX_LOCATIONS 32u

enum ir_interp {
	IR_INTERP_SMOOTH = 0,      /* perspective-correct */
	IR_INTERP_FLAT = 1,        /* the provoking vertex's value */
	IR_INTERP_NOPERSPECTIVE = 2,
};
#define IR_INTERP_MODE_MASK 0x3u
#define IR_INTERP_CENTROID 0x4u   /* or-ed on the mode */
#define IR_INTERP_SAMPLE 0x8u

/* Type of a fragment colour output (what the attachment conversion
 * needs to know) and of an input component. */
enum ir_io_type { IR_IO_FLOAT = 0, IR_IO_SINT = 1, IR_IO_UINT = 2 };

/* SPIR-V depth execution modes of a fragment program. */
enum ir_depth_mode { IR_DEPTH_NONE = 0, IR_DEPTH_ANY, IR_DEPTH_GREATER,
                     IR_DEPTH_LESS, IR_DEPTH_UNCHANGED };

struct ir_io {
	uint32_t in_reg[IR_MAX_LOCATIONS][4];
	uint8_t in_interp[IR_MAX_LOCATIONS][4];  /* fragment: ir_interp */
	uint8_t in_type[IR_MAX_LOCATIONS][4];    /* enum ir_io_type */
	uint32_t out_reg[IR_MAX_LOCATIONS][4];
	uint8_t out_type[IR_MAX_LOCATIONS];      /* fragment: enum ir_io_type */
	uint32_t out_index1_reg[4]; /* fragment: Location 0 Index 1 (dual-
	                               source blending), 0: none */
	/* vertex outputs (built-ins), 0: not written */
	uint32_t position_reg;     /* 4 registers: x, y, z, w (clip space) */
	uint32_t point_size_reg;
	uint32_t clip_reg, clip_count;  /* ClipDistance[clip_count] */
	uint32_t cull_reg, cull_count;  /* CullDistance[cull_count] */
	uint32_t layer_reg;        /* Layer (shaderOutputLayer) */
	uint32_t viewport_index_reg;
	/* fragment outputs (built-ins), 0: not written */
	uint32_t frag_depth_reg;
	uint32_t sample_mask_reg;  /* SampleMask[0] */
	/* fragment inputs (built-ins), 0: not read: the vertex stage's
	 * distances, interpolated */
	uint32_t clip_in_reg, clip_in_count;  /* ClipDistance[] */
	uint32_t cull_in_reg, cull_in_count;  /* CullDistance[] */
	/* fragment facts */
	bool early_fragment_tests; /* EarlyFragmentTests execution mode */
	bool discards;             /* OpKill / OpTerminateInvocation /
	                              OpDemoteToHelperInvocation reachable */
	bool side_effects;         /* stores, atomics or image writes */
	bool reads_input_attachment;  /* subpassLoad: may read the depth/
	                                 stencil attachment it renders to */
	bool uses_derivatives;     /* derivatives or implicit-LOD sampling:
	                              needs whole quads (helper lanes) */
	uint8_t depth_mode;        /* enum ir_depth_mode */
};

/* What a resource slot holds. */
enum ir_resource {
	IR_RES_BUFFER = 0,         /* uniform or storage buffer */
	IR_RES_IMAGE,              /* storage image */
	IR_RES_TEXEL_BUFFER,       /* uniform or storage texel buffer */
	IR_RES_SAMPLED,            /* sampled image or combined sampler */
	IR_RES_SAMPLER,            /* sampler */
};

/* A resource the shader reaches (one descriptor): a storage or uniform
 * buffer, a storage image or a texel buffer. */
struct ir_buffer {
	uint32_t set;
	uint32_t desc_offset;      /* bytes into the set's memory */
	uint32_t dynamic_index;    /* UINT32_MAX: not dynamic */
	bool writable;             /* storage buffer, image, texel buffer */
	bool used;
	uint8_t kind;              /* enum ir_resource */
	uint8_t desc_type;         /* swgpu_descriptor_type expected */
};

#define IR_MAX_BUFFERS 255u
/* Bytes of one thread's register file (registers x lanes x 4). */
#define IR_MAX_REGFILE_BYTES (256ull << 20)
#define IR_PC_DONE UINT32_MAX

struct ir_program {
	uint32_t stage;            /* swgpu_shader_stage */
	struct ir_io io;           /* vertex and fragment stages */
	struct ir_instr *code;
	uint32_t ninstr;
	struct ir_block *blocks;
	uint32_t nblocks;
	uint32_t *table;           /* phi / switch pairs */
	uint32_t ntable;
	uint32_t nregs;
	uint32_t *const_regs;      /* registers holding constants */
	uint32_t *const_vals;
	uint32_t nconsts;
	struct ir_buffer *buffers;
	uint32_t nbuffers;
	uint32_t local_size[3];
	uint32_t subgroup_size;    /* lanes per subgroup, power of two */
	uint32_t shared_bytes;
	uint32_t push_bytes;       /* highest push constant byte read + 1 */
	bool uses_barrier, uses_subgroup, uses_atomics;
	uint64_t builtins_used;    /* bit r: built-in register r is read */
	/* What is read of the register file once a lane is done
	 * (ir_live.h): true (translated SPIR-V) only what the engine reads
	 * (io, built-ins, constants); false (programs built by hand: tests
	 * that compare whole register files) every register. Compiled code
	 * keeps a register up to date in the file only where it is live. */
	bool outputs_only;
	/* Fragment: every output the pipeline reads has the same bits on
	 * every lane and running has no other effect (ir_uniform.h), so
	 * one quad's run stands for a whole batch. Set by the translator;
	 * false for programs built by hand. */
	bool uniform_outputs;
	bool uniform_push_only;    /* ... and read only push constants */
	/* Compiled code (jit.h), made on first use when SWGPU_SHADER=jit,
	 * freed with the program; jit_tried (__atomic) says it was tried. */
	struct jit_program *jit;
	bool jit_tried;
	/* A background compile of the program queued or running (jit_run.c,
	 * under its queue lock), and the key of its code (jit_cache.h) once
	 * known (jit_keyed). */
	struct jit_job *jit_job;
	uint8_t jit_key[16];
	bool jit_keyed;
	uint8_t jit_source;        /* at creation: swgpu_shader_code_source */
};

void ir_program_free(struct ir_program *p);
/* p's memory only (ir_program_free did the rest, or the compile thread
 * frees a program whose owner let go of it mid-compile: jit_queue.c). */
void ir_program_free_memory(struct ir_program *p);

/* Resources of one dispatch, resolved by the DISPATCH packet. */
struct ir_image_binding;
struct swgpu_vaspace;
struct ir_buffer_binding {
	uint8_t *ptr;              /* NULL: null descriptor */
	uint64_t range;            /* bytes */
	/* Images and texel buffers: their shape and format. */
	const struct ir_image_binding *img;
};

/* An image (texel buffer: height, depth, layers 1) as the interpreter
 * addresses it, its base level's shape (the mip chain of a sampled image
 * follows from it, see swgpu_descriptor_image); format conversions from
 * format.h. A sampler or combined image sampler also has its state. */
struct ir_image_binding {
	uint32_t view_type;        /* VkImageViewType; texel buffer: ~0 */
	uint32_t width, height, depth, layers;
	uint32_t levels;           /* >= 1 */
	uint32_t samples;          /* >= 1; > 1: layers counts slices, sample
	                              s of layer L is slice L * samples + s */
	uint8_t swizzle[4];        /* VkComponentSwizzle; 0: identity */
	bool has_sampler;
	struct swgpu_sampler_state sampler;
	uint32_t row_pitch, elem;
	uint64_t slice_pitch;      /* between 3D slices or layers */
	uint32_t domain;           /* swgpu_blit_class: FLOAT, UINT, SINT */
	const swgpu_format_info *fmt;
	format_decode_fn decode;
	format_encode_fn encode;
	/* What a load outside the view returns (image_oob_texel). */
	lane_t oob[4];
};

/* One mip level of an image binding (interp_image.c): where it starts (bytes from the
 * base level's first texel), its extent and pitches. */
struct img_level {
	uint64_t off;
	uint32_t w, h, d;          /* d: 3D depth, else 1 */
	uint32_t cols, rows;       /* blocks per row, block rows (compressed
	                            * formats: 4x4 texels a block) */
	uint32_t row_pitch;
	uint64_t slice_pitch;      /* between 3D slices or layers */
};
void image_level(const struct ir_image_binding *im, uint32_t level,
                 struct img_level *lv);
/* Levels 0 .. n - 1 at once (what image_level gives for each). */
void image_levels(const struct ir_image_binding *im, uint32_t n,
                  struct img_level *lv);
/* Fill im->oob, the texel an out-of-bounds load returns: zero in the
 * format's components, 0, 0, 1 for a missing G, B, A, then the view's
 * swizzle (the spec's texel replacement: robustImageAccess2, and
 * robustBufferAccess2 for texel buffers). */
void image_oob_texel(struct ir_image_binding *im);

struct ir_dispatch {
	const struct ir_program *prog;
	struct ir_buffer_binding buffers[IR_MAX_BUFFERS];
	struct ir_image_binding images[IR_MAX_BUFFERS];
	uint8_t push[256];
	uint32_t groups[3];        /* group counts */
	uint32_t base[3];          /* base group */
	/* Watchdog: hung when no workgroup completed for hang_timeout_ns.
	 * progress_ns (__atomic) is when a workgroup last completed (or
	 * the dispatch started): a long dispatch whose groups keep
	 * finishing is not hung; one group in an endless loop is. */
	uint64_t hang_timeout_ns;
	uint64_t progress_ns;
	/* Buffer device addresses: the context's VA space (the dispatch
	 * runs in one of its read sections) and the first address that
	 * did not translate (__atomic; 0: none) — a page fault. */
	struct swgpu_vaspace *vs;
	uint64_t fault_va;
	uint32_t fault_access;
	/* Next flattened group index to run (shared by the threads). */
	uint64_t next_group;
	uint64_t total_groups;
	bool hung;                 /* __atomic: a thread hit the deadline */
	/*
	 * Preemption inside a workgroup (wg_save.h). stop_poll NULL: every
	 * workgroup runs to its end. Else at each loop back-edge a thread
	 * asks stop_poll(stop_cookie) unless stop (__atomic) is already
	 * set; stop_poll sets save_area and then stop (release) when the
	 * dispatch must stop. Every thread then saves the workgroup it runs
	 * into a slot of save_area and claims no other one.
	 */
	bool (*stop_poll)(void *cookie);
	void *stop_cookie;
	bool stop;
	void *save_area;
};

/* A workgroup or a batch of d completed: progress_ns = now, stored at
 * most once per IR_PROGRESS_STEP_NS (a millisecond: the watchdog
 * counts seconds). Every thread of a dispatch or a draw reports after
 * each of its workgroups or batches, and a store takes the line from
 * the other threads' cores, where the dispatch's other fields are
 * read. */
#define IR_PROGRESS_STEP_NS 1000000ll
static inline void
ir_dispatch_progress(struct ir_dispatch *d)
{
	const uint64_t now = swgpu_now_ns();
	const uint64_t last = __atomic_load_n(&d->progress_ns,
	                                      __ATOMIC_RELAXED);

	/* signed: another thread may have stored a later reading */
	if ((int64_t)(now - last) >= IR_PROGRESS_STEP_NS)
		__atomic_store_n(&d->progress_ns, now, __ATOMIC_RELAXED);
}

/* One thread's execution state (register file, lane state). */
struct ir_exec;

struct ir_exec *ir_exec_create(const struct ir_program *p);
void ir_exec_destroy(struct ir_exec *e);

/* Run workgroups of d until none is left (several threads may call this
 * on the same d, each with its own ir_exec). Returns false on a hang. */
bool ir_exec_run(struct ir_exec *e, struct ir_dispatch *d);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's frame calls (jit/jit_frame_op.h) against the
 * interpreter: atomics (storage buffers, descriptor arrays, shared
 * memory, 32 and 64 bits, every kind), storage images (load, store,
 * atomics, size queries), sampling, subgroup operations (32- and 64-bit,
 * every group operation, subgroups of 32 and 16 lanes), derivatives,
 * IR_DEMOTE and IR_KILL, mixed with compiled ALU and memory instructions
 * over divergent blocks, idle lanes, helper lanes, and addresses and
 * coordinates in range, out of range and misaligned. Registers, buffers,
 * shared memory, images and the discard flags of every lane must be bit
 * for bit the interpreter's.
 */
#include "shader_stage_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>

#include "hw/shader/interp_mask.h"
#include "hw/shader/interp_util.h"
#include "hw/shader/jit.h"

static uint64_t rng_state;

static uint32_t
rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

#define NVAL 16u
#define NCONSTS 6u
enum {
	VAL = IR_REG_FIRST_FREE,
	K_MASK_BUF = VAL + NVAL,    /* 0x3fc: words of buffer 0 */
	K_MASK_ANY,                 /* 0x7ff: any byte, past the ends too */
	K_ONE, K_THREE, K_FIFTEEN, K_63,
	ADDR, IDX, COND,
	COORD,                      /* 3: image coordinates */
	SMP = COORD + 3,            /* IR_SMP_REGS sampling operands */
	NREGS = SMP + IR_SMP_REGS,
};
static const uint32_t const_vals[NCONSTS] = { 0x3fc, 0x7ff, 1, 3, 15, 63 };

#define BUF0 1024u
#define BUF1 512u                   /* memory; range 202 */
#define BUF1_RANGE 202u
#define SHARED 512u
/* resource slots: 0, 1 buffers, 2 null, 3 storage image, 4 sampled */
#define SLOT_IMG 3u
#define SLOT_TEX 4u

static uint32_t
val(void)
{
	return VAL + rnd() % NVAL;
}

/* A value register with room for n consecutive results. */
static uint32_t
val_n(uint32_t n)
{
	return VAL + rnd() % (NVAL - n + 1);
}

static uint32_t
random_value(void)
{
	switch (rnd() % 5) {
	case 0: { float f = ((float)(rnd() % 2001) - 1000.0f) / 64.0f;
	          uint32_t u; memcpy(&u, &f, 4); return u; }
	case 1: return rnd();
	case 2: return 0;
	default: return rnd() % 64;
	}
}

struct gen {
	struct ir_instr *code;
	uint32_t n, cap;
	bool fragment;
};

static struct ir_instr *
emit(struct gen *g, uint16_t op, uint32_t dst, uint32_t a, uint32_t b)
{
	struct ir_instr *in;

	assert_true(g->n < g->cap);
	in = &g->code[g->n++];
	memset(in, 0, sizeof(*in));
	in->op = op;
	in->dst = dst;
	in->a = a;
	in->b = b;
	return in;
}

/* A per-lane byte offset: a word of buffer 0, any byte (misaligned,
 * past every range), or a value as it is. */
static uint32_t
address(struct gen *g)
{
	switch (rnd() % 3) {
	case 0:
		emit(g, IR_AND, ADDR, val(), K_MASK_BUF);
		return ADDR;
	case 1:
		emit(g, IR_AND, ADDR, val(), K_MASK_ANY);
		return ADDR;
	default:
		return val();
	}
}

static const uint16_t group_ops[] = {
	IR_ELECT, IR_VALL, IR_VANY, IR_VALLEQ, IR_BCAST, IR_BCASTFIRST,
	IR_BALLOT, IR_INVBALLOT, IR_BALLOTEXT, IR_BALLOTCOUNT, IR_BALLOTLSB,
	IR_BALLOTMSB, IR_SHUFFLE, IR_SHUFXOR, IR_SHUFUP, IR_SHUFDOWN,
	IR_GIADD, IR_GFADD, IR_GIMUL, IR_GFMUL, IR_GSMIN, IR_GUMIN,
	IR_GFMIN, IR_GSMAX, IR_GUMAX, IR_GFMAX, IR_GAND, IR_GOR, IR_GXOR,
};
#define NGROUP (sizeof(group_ops) / sizeof(group_ops[0]))

/* Which ops the random programs drew (each must come up). */
static uint32_t drawn[IR_OP_COUNT];

static void
random_instr(struct gen *g)
{
	struct ir_instr *in;
	uint32_t kind = rnd() % (g->fragment ? 22 : 18);
	const uint32_t first = g->n;

	/* no shared memory in fragment programs */
	if (g->fragment && (kind == 2 || kind == 4))
		kind = 0;

	switch (kind) {
	case 0:            /* buffer atomics: 0, 1 (short), 2 (null) */
		in = emit(g, IR_ATOMBUF, rnd() % 3 ? val() : 0, address(g),
		          val());
		in->c = val();
		in->aux = (uint8_t)(rnd() % 3);
		in->aux2 = (uint8_t)(rnd() % (IR_AT_FMAX + 1));
		in->imm = rnd() % 4 ? 0 : 200;
		break;
	case 1:            /* descriptor array: buffers 0 .. 3 */
		emit(g, IR_AND, IDX, val(), K_THREE);
		in = emit(g, IR_ATOMBUFX, val(), address(g), val());
		in->c = val();
		in->d = IDX;
		in->aux2 = (uint8_t)(rnd() % (IR_AT_FMAX + 1));
		break;
	case 2:
		in = emit(g, IR_ATOMSH, rnd() % 3 ? val() : 0, address(g),
		          val());
		in->c = val();
		in->aux2 = (uint8_t)(rnd() % (IR_AT_FMAX + 1));
		break;
	case 3: case 4:    /* 64-bit: b, c and dst register pairs */
		in = emit(g, kind == 3 ? IR_ATOMBUF64 : IR_ATOMSH64,
		          rnd() % 4 ? val_n(2) : 0, address(g), val_n(2));
		in->c = val_n(2);
		in->aux2 = (uint8_t)(rnd() % (IR_AT_FMAX + 1));
		if (kind == 3 && rnd() % 2) {
			emit(g, IR_AND, IDX, val(), K_THREE);
			in->d = IDX;
		}
		break;
	case 5: case 6: case 7: {
		uint16_t op = group_ops[rnd() % NGROUP];

		/* shuffles: a lane distance, at times past the subgroup */
		if (op >= IR_SHUFFLE && op <= IR_SHUFDOWN)
			emit(g, IR_AND, IDX, val(), K_63);
		in = emit(g, op, val(), val(), val());
		if (op >= IR_SHUFFLE && op <= IR_SHUFDOWN)
			in->b = IDX;
		if (op == IR_BALLOT)
			in->imm = rnd() % 4;
		if (op >= IR_GIADD) {
			in->aux2 = (uint8_t)(rnd() % 4);
			in->d = 1u << (rnd() % 6);  /* cluster size */
		}
		break;
	}
	case 8:
		in = emit(g, IR_G64, val_n(2), val(), val());
		in->imm = IR_GIADD + rnd() % (IR_GXOR - IR_GIADD + 1);
		in->aux2 = (uint8_t)(rnd() % 4);
		in->d = 1u << (rnd() % 6);
		break;
	case 9: case 10:   /* compiled memory instructions between them */
		switch (rnd() % (g->fragment ? 2 : 4)) {
		case 0:
			emit(g, IR_LDBUF, val(), address(g), 0);
			break;
		case 1:
			emit(g, IR_STBUF, 0, address(g), val());
			break;
		case 2:
			emit(g, IR_LDSH, val(), address(g), 0);
			break;
		default:
			emit(g, IR_STSH, 0, address(g), val());
			break;
		}
		break;
	case 11: case 12: {   /* compiled ALU */
		static const uint16_t alu[] = { IR_IADD, IR_XOR, IR_FADD,
		                                IR_FMUL, IR_UMIN };

		emit(g, alu[rnd() % 5], val(), val(), val());
		break;
	}
	case 13: case 14: case 15: case 16: {
		/* storage image: coordinates 0..15 in an 8x8 image of
		 * 2 levels (out of range at times), level 0..3 */
		static const uint16_t img[] = { IR_IMGLD, IR_IMGST,
		                                IR_IMGATOM, IR_IMGSIZE };
		uint16_t op = img[kind - 13];

		for (uint32_t k = 0; k < 3; k++)
			emit(g, IR_AND, COORD + k, val(),
			     k == 2 ? K_ONE : K_FIFTEEN);
		emit(g, IR_AND, IDX, val(), K_THREE);
		in = emit(g, op, op == IR_IMGLD ? val_n(4) : val(), COORD,
		          op == IR_IMGST ? val_n(4) : op == IR_IMGATOM ? val()
		                                                       : IDX);
		in->aux = SLOT_IMG;
		in->imm = 1;
		if (op == IR_IMGATOM) {
			in->c = val();
			in->aux2 = (uint8_t)(rnd() % (IR_AT_XOR + 1));
		}
		if (op == IR_IMGSIZE) {
			in->aux = rnd() % 2 ? SLOT_IMG : SLOT_TEX;
			in->aux2 = (uint8_t)(rnd() % 4);
		}
		if (op == IR_IMGLD && rnd() % 4 == 0) {
			/* a descriptor array of 2 indexed 0..3: past it */
			in->d = IDX;
			in->imm = 2;
		}
		break;
	}
	case 17: {         /* sampling, explicit LOD (or gather) */
		in = emit(g, IR_IMGSAMPLE, val_n(4), SMP, val());
		in->aux = SLOT_TEX;
		in->imm = SLOT_TEX << 16 | 1;
		in->aux2 = rnd() % 3 ? IR_SMP_LOD_EXPLICIT
		                     : IR_SMP_GATHER |
		                       (rnd() % 4) << IR_SMP_COMP_SHIFT;
		break;
	}
	case 18: case 19:  /* fragment: derivatives */
		in = emit(g, IR_DERIV, val(), val(), 0);
		in->aux2 = (uint8_t)(rnd() % 4);
		break;
	case 20:           /* implicit LOD sampling and its query */
		in = emit(g, IR_IMGSAMPLE, val_n(4), SMP, 0);
		in->aux = SLOT_TEX;
		in->imm = SLOT_TEX << 16 | 1;
		in->aux2 = rnd() % 2 ? IR_SMP_LOD_IMPLICIT : IR_SMP_LOD_QUERY;
		break;
	default:           /* IR_DEMOTE: a lane of a branch, at times */
		if (rnd() % 3 == 0)
			emit(g, IR_DEMOTE, 0, 0, 0);
		break;
	}
	if (g->n > first)
		drawn[g->code[g->n - 1].op]++;
}

/* Blocks: 0 (body, branch on a value's low bit), 1 and 2 (bodies, to
 * 3; block 2 ends with IR_KILL at times in fragment programs), 3
 * (body, RET). */
/* An empty program of nblocks blocks with the generator's constants,
 * and g set up to emit up to g->cap instructions. */
static struct ir_program *
new_program(struct gen *g, uint32_t nblocks, bool fragment)
{
	struct ir_program *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	g->code = calloc(g->cap, sizeof(*g->code));
	p->blocks = calloc(nblocks, sizeof(*p->blocks));
	p->const_regs = calloc(NCONSTS, 4);
	p->const_vals = calloc(NCONSTS, 4);
	assert_non_null(g->code);
	assert_non_null(p->blocks);
	assert_non_null(p->const_regs);
	assert_non_null(p->const_vals);
	p->stage = fragment ? SWGPU_SHADER_STAGE_FRAGMENT
	                    : SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = NREGS;
	p->local_size[1] = p->local_size[2] = 1;
	p->nblocks = nblocks;
	p->nconsts = NCONSTS;
	for (uint32_t i = 0; i < NCONSTS; i++) {
		p->const_regs[i] = K_MASK_BUF + i;
		p->const_vals[i] = const_vals[i];
	}
	return p;
}

static struct ir_program *
random_program(uint32_t n, uint32_t local_size, bool fragment)
{
	struct gen g = { .cap = 4 * (n * 8 + 8), .fragment = fragment };
	struct ir_program *p = new_program(&g, 4, fragment);

	p->local_size[0] = local_size;
	p->shared_bytes = SHARED;
	p->subgroup_size = rnd() % 3 ? 32 : 16;
	for (uint32_t b = 0; b < 4; b++) {
		p->blocks[b].first = g.n;
		for (uint32_t i = 0; i < n; i++)
			random_instr(&g);
		if (b == 0) {
			emit(&g, IR_AND, COND, val(), K_ONE);
			emit(&g, IR_BRC, 0, COND, 2)->imm = 1;
		} else if (b == 3) {
			emit(&g, IR_RET, 0, 0, 0);
		} else if (b == 2 && fragment && rnd() % 2) {
			emit(&g, IR_KILL, 0, 0, 0);
			drawn[IR_KILL]++;
		} else {
			emit(&g, IR_BR, 0, 0, 0)->imm = 3;
		}
		p->blocks[b].count = g.n - p->blocks[b].first;
	}
	p->code = g.code;
	p->ninstr = g.n;
	return p;
}

/* One run's memory: buffers, a storage image (R32_UINT 8x8, 2 levels)
 * and a sampled one (RGBA8 8x8, 2 levels, linear filtering). */
struct run {
	uint8_t buf0[BUF0], buf1[BUF1];
	uint8_t img[1024], tex[1024];
	uint8_t disc[64];
	struct ir_exec *e;
};

static void
bind(struct ir_dispatch *d, struct run *r)
{
	struct ir_image_binding im;
	uint64_t bytes;

	d->buffers[0].ptr = r->buf0;
	d->buffers[0].range = BUF0;
	d->buffers[1].ptr = r->buf1;
	d->buffers[1].range = BUF1_RANGE;
	/* buffers[2]: a null descriptor */
	bytes = ss_image(&im, 1 /* 2D */, SWGPU_FORMAT_R32_UINT, 8, 8, 1, 2);
	assert_true(bytes <= sizeof(r->img));
	image_oob_texel(&im);
	d->images[SLOT_IMG] = im;
	d->buffers[SLOT_IMG].ptr = r->img;
	d->buffers[SLOT_IMG].range = bytes;
	d->buffers[SLOT_IMG].img = &d->images[SLOT_IMG];
	bytes = ss_image(&im, 1, SWGPU_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 2);
	assert_true(bytes <= sizeof(r->tex));
	image_oob_texel(&im);
	im.has_sampler = true;
	im.sampler.filter = SWGPU_SAMPLER_MAG_LINEAR |
	                    SWGPU_SAMPLER_MIN_LINEAR | SWGPU_SAMPLER_MIP_LINEAR;
	im.sampler.address = 0;          /* REPEAT */
	im.sampler.lod = 0 | (4u << 8) << 16;
	d->images[SLOT_TEX] = im;
	d->buffers[SLOT_TEX].ptr = r->tex;
	d->buffers[SLOT_TEX].range = bytes;
	d->buffers[SLOT_TEX].img = &d->images[SLOT_TEX];
}

/* Fill the run's memory and the value and sampling registers. */
static void
fill(struct run *r, uint32_t width, uint64_t seed)
{
	rng_state = seed;
	for (uint32_t i = 0; i < BUF0; i++)
		r->buf0[i] = (uint8_t)rnd();
	for (uint32_t i = 0; i < BUF1; i++)
		r->buf1[i] = (uint8_t)rnd();
	for (uint32_t i = 0; i < sizeof(r->img); i++)
		r->img[i] = (uint8_t)rnd();
	for (uint32_t i = 0; i < sizeof(r->tex); i++)
		r->tex[i] = (uint8_t)rnd();
	for (uint32_t reg = VAL; reg < VAL + NVAL; reg++)
		for (uint32_t l = 0; l < width; l++)
			ir_exec_reg(r->e, reg)[l].u = random_value();
	for (uint32_t k = 0; k < IR_SMP_REGS; k++)
		for (uint32_t l = 0; l < width; l++) {
			lane_t v;

			if (k >= 4 && k < 7)       /* texel offsets */
				v.i = (int32_t)(rnd() % 3) - 1;
			else if (k == 3 || k >= 16)
				v.u = rnd() % 2;
			else
				v.f = ((float)(rnd() % 400) - 100.0f) / 200.0f;
			ir_exec_reg(r->e, SMP + k)[l] = v;
		}
}

static void
run_compute(struct ir_program *p, const struct jit_program *jp,
            uint64_t seed, struct run *r)
{
	struct ir_dispatch *d = calloc(1, sizeof(*d));
	const uint32_t width = (p->local_size[0] + 31) / 32 * 32;

	assert_non_null(d);
	r->e = ir_exec_create(p);
	assert_non_null(r->e);
	ir_exec_set_jit(r->e, jp);
	fill(r, width, seed);
	d->prog = p;
	bind(d, r);
	d->groups[0] = 2;
	d->groups[1] = d->groups[2] = 1;
	d->total_groups = 2;
	d->hang_timeout_ns = 60ull * 1000000000ull;
	d->progress_ns = swgpu_now_ns();
	assert_true(ir_exec_run(r->e, d));
	free(d);
}

/* A fragment batch of n <= 64 lanes of 64, some of them helpers. */
static void
run_fragment(struct ir_program *p, const struct jit_program *jp,
             uint64_t seed, uint32_t n, struct run *r)
{
	struct ir_dispatch *d = ss_dispatch(p);
	uint8_t live[64];

	r->e = ir_exec_create_batch(p, 64);
	assert_non_null(r->e);
	ir_exec_set_jit(r->e, jp);
	fill(r, 64, seed);
	for (uint32_t l = 0; l < 64; l++)
		live[l] = rnd() % 4 != 0;
	bind(d, r);
	assert_true(ir_exec_run_batch(r->e, d, n, live, r->disc));
	free(d);
}

static void
compare(const struct ir_program *p, struct run *a, struct run *b,
        uint32_t width, uint64_t seed, const char *what)
{
	for (uint32_t r = 0; r < p->nregs; r++)
		for (uint32_t l = 0; l < width; l++)
			if (ir_exec_reg(a->e, r)[l].u !=
			    ir_exec_reg(b->e, r)[l].u)
				fail_msg("%s seed %#llx: register %u lane %u: "
				         "interpreter %#x, compiled %#x", what,
				         (unsigned long long)seed, r, l,
				         ir_exec_reg(a->e, r)[l].u,
				         ir_exec_reg(b->e, r)[l].u);
	for (uint32_t i = 0; i < BUF0; i++)
		if (a->buf0[i] != b->buf0[i])
			fail_msg("%s seed %#llx: buffer 0 byte %u: %#x vs %#x",
			         what, (unsigned long long)seed, i, a->buf0[i],
			         b->buf0[i]);
	assert_memory_equal(a->buf1, b->buf1, BUF1);
	assert_memory_equal(a->img, b->img, sizeof(a->img));
	assert_memory_equal(a->disc, b->disc, sizeof(a->disc));
	if (p->stage == SWGPU_SHADER_STAGE_COMPUTE)
		assert_memory_equal(a->e->shared, b->e->shared, SHARED);
}

/* Every frame-call op of the program is compiled, none interpreted. */
static void
all_compiled(const struct ir_program *p, const struct jit_program *jp)
{
	assert_non_null(jp);
	if (jp->compiled != jp->total)
		fail_msg("%u of %u instructions compiled", jp->compiled,
		         jp->total);
	for (uint32_t b = 0; b < p->nblocks; b++)
		assert_int_equal(jp->blocks[b].nseg, 1);
}

/* Compile p for `lanes` lanes (every instruction must be), run it
 * `runs` times on both back ends from seeds seed * 1000 + run, compare
 * everything, free p. n: the fragment batch's lanes, 0 for compute. */
static void
both_back_ends(struct ir_program *p, uint32_t lanes, uint64_t seed,
               uint32_t runs, uint32_t n, const char *what)
{
	struct jit_program *jp = jit_compile(p, lanes);
	struct run *a = calloc(1, sizeof(*a));
	struct run *b = calloc(1, sizeof(*b));

	assert_non_null(a);
	assert_non_null(b);
	all_compiled(p, jp);
	for (uint32_t run = 0; run < runs; run++) {
		uint64_t s = seed * 1000 + run;

		if (n) {
			run_fragment(p, NULL, s, n, a);
			run_fragment(p, jp, s, n, b);
		} else {
			run_compute(p, NULL, s, a);
			run_compute(p, jp, s, b);
		}
		compare(p, a, b, 64, s, what);
		ir_exec_destroy(a->e);
		ir_exec_destroy(b->e);
	}
	free(a);
	free(b);
	jit_program_free(jp);
	ir_program_free(p);
}

static void
test_compute_programs(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };

	(void)state;
	if (!jit_available())
		return;
	memset(drawn, 0, sizeof(drawn));
	for (uint64_t seed = 1; seed <= 60; seed++) {
		rng_state = seed * 0x9e3779b97f4a7c15ull;
		/* 40 lanes: a width of 64, 24 of them idle */
		struct ir_program *p = random_program(2 + rnd() % 10,
		                                      seed % 3 ? 64 : 40,
		                                      false);

		both_back_ends(p, lanes[seed % 3], seed, 3, 0, "compute");
	}
	/* every op of the generator came up */
	static const uint16_t want[] = {
		IR_ATOMBUF, IR_ATOMBUFX, IR_ATOMSH, IR_ATOMBUF64,
		IR_ATOMSH64, IR_G64, IR_IMGLD, IR_IMGST, IR_IMGATOM,
		IR_IMGSIZE, IR_IMGSAMPLE,
	};
	for (uint32_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		assert_true(drawn[want[k]] > 0);
	for (uint32_t k = 0; k < NGROUP; k++)
		assert_true(drawn[group_ops[k]] > 0);
}

static void
test_fragment_programs(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };

	(void)state;
	if (!jit_available())
		return;
	memset(drawn, 0, sizeof(drawn));
	for (uint64_t seed = 1; seed <= 60; seed++) {
		rng_state = seed * 0x2545f4914f6cdd1dull;
		struct ir_program *p = random_program(2 + rnd() % 10, 0,
		                                      true);

		/* whole quads, some lanes past the batch */
		both_back_ends(p, lanes[seed % 3], seed, 3,
		               seed % 4 ? 64 : 36, "fragment");
	}
	assert_true(drawn[IR_DERIV] > 0);
	assert_true(drawn[IR_DEMOTE] > 0);
	assert_true(drawn[IR_KILL] > 0);
}

/*
 * Derivatives inside a loop whose trip count differs between the lanes
 * of a quad (0..3 extra iterations from a value's low bits): each pass
 * of the loop's block runs on the lanes still in it, so a derivative
 * reads its finished quad mates' last values from the registers, as the
 * interpreter does (the compiled chunk's value of the source is
 * recomputed on every lane). Every kind, 4, 8 and 16 lanes, helpers.
 */
static void
test_fragment_loop_deriv(void **state)
{
	static const uint32_t lanes[] = { 4, 8, 16 };

	(void)state;
	if (!jit_available())
		return;
	for (uint64_t seed = 1; seed <= 24; seed++) {
		struct gen g = { .cap = 32, .fragment = true };
		struct ir_program *p = new_program(&g, 3, true);
		const uint32_t v0 = VAL, v1 = VAL + 1, v2 = VAL + 2;

		p->subgroup_size = 16;
		/* 0: the lane's count, 1 + (v3 & 3) passes */
		p->blocks[0].first = 0;
		emit(&g, IR_AND, ADDR, VAL + 3, K_THREE);
		emit(&g, IR_BR, 0, 0, 0)->imm = 1;
		/* 1: v0 += v1; v2 += d(v0); v1 = d(v2) in place; loop */
		p->blocks[1].first = g.n;
		emit(&g, IR_FADD, v0, v0, v1);
		emit(&g, IR_DERIV, VAL + 4, v0, 0)->aux2 = (uint8_t)(seed % 4);
		emit(&g, IR_FADD, v2, v2, VAL + 4);
		emit(&g, IR_DERIV, v1, v2, 0)->aux2 = (uint8_t)(seed / 4 % 4);
		emit(&g, IR_INE, COND, ADDR, 0);
		emit(&g, IR_ISUB, ADDR, ADDR, K_ONE);
		emit(&g, IR_BRC, 0, COND, 2)->imm = 1;
		/* 2 */
		p->blocks[2].first = g.n;
		emit(&g, IR_RET, 0, 0, 0);
		p->blocks[0].count = 2;
		p->blocks[1].count = p->blocks[2].first - p->blocks[1].first;
		p->blocks[2].count = 1;
		p->code = g.code;
		p->ninstr = g.n;
		both_back_ends(p, lanes[seed % 3], seed, 2, 64, "loop");
	}
}

/* interp_mask_and (the store mask of every segment and frame call)
 * against the byte loop it replaced: any non-zero byte is true, every
 * width and start (the vector body and the tail), dst apart or equal to
 * a or b. */
static void
test_mask_and(void **state)
{
	uint8_t a[80], b[80], want[80], got[80];

	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (uint32_t iter = 0; iter < 2000; iter++) {
		const uint32_t n = rnd() % 65, off = rnd() % 16;

		for (uint32_t l = 0; l < 80; l++) {
			const uint32_t r = rnd();
			/* mostly 0 and 1, some other bytes (0x80, 0xff) */
			a[l] = (uint8_t)(r & 8 ? r >> 8 : r & 1);
			b[l] = (uint8_t)(r & 16 ? r >> 16 : (r >> 1) & 1);
		}
		for (uint32_t l = 0; l < n; l++)
			want[l] = a[off + l] && b[off + l];
		memset(got, 0xee, sizeof(got));
		interp_mask_and(got, a + off, b + off, n);
		assert_memory_equal(got, want, n);
		assert_int_equal(got[n], 0xee);   /* nothing past n */
		/* in place, as live_lanes and the frame call may run */
		uint8_t c[80];
		memcpy(c, a, sizeof(c));
		interp_mask_and(c + off, c + off, b + off, n);
		assert_memory_equal(c + off, want, n);
		memcpy(c, b, sizeof(c));
		interp_mask_and(c + off, a + off, c + off, n);
		assert_memory_equal(c + off, want, n);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mask_and),
		cmocka_unit_test(test_compute_programs),
		cmocka_unit_test(test_fragment_programs),
		cmocka_unit_test(test_fragment_loop_deriv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

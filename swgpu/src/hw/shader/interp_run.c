/* SPDX-License-Identifier: MIT */
/*
 * SIMT interpreter: execution states and the lane scheduler — compute
 * workgroups (ir.h: ir_exec_create, ir_exec_run) and graphics batches
 * (stage.h: ir_exec_create_batch, ir_exec_run_batch).
 *
 * Both run a set of lanes from block 0 until every lane has returned,
 * always stepping the lowest block any lane sits at (interp.c). A
 * batch differs from a workgroup only in who fills the lanes: the
 * graphics pipeline writes the input registers, and in fragment batches
 * some lanes are helpers (live[l] == 0), which run every instruction for
 * their quad's derivatives but skip memory writes (interp.c,
 * writes_memory), and a lane may end discarded (IR_KILL) or demote
 * itself to a helper (IR_DEMOTE). Constant registers and the per-lane
 * subgroup registers are written once at creation, never per batch.
 */
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>

#include "interp_util.h"
#include "util/util.h"
#include "jit.h"
#include "jit_run.h"
#include "stage.h"
#include "wg_save.h"

/* Where divergent lanes go next: the lowest block any lane sits at
 * (IR_PC_DONE: none left), mask[l] set for the lanes there (*count of
 * them), *live the lanes not done. Run before every block of a
 * divergent stretch, over the whole width: in barrier loops that the
 * compiler runs block by block (prefix_sum) it is a fifth of the time,
 * so x86-64 builds also carry an AVX2 clone (unsigned min and compares
 * 8 lanes at once; the baseline has no unsigned 32-bit min). Plain
 * pointers, not e's: a byte store through e->mask may alias e and kept
 * the loop scalar. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define LANE_SCAN_NO_IFUNC /* resolvers run before the sanitizer's start */
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define LANE_SCAN_NO_IFUNC
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(LANE_SCAN_NO_IFUNC)
#define LANE_SCAN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LANE_SCAN_CLONES
#endif
LANE_SCAN_CLONES static uint32_t
lanes_at_lowest_block(const uint32_t *restrict pc, uint8_t *restrict mask,
                      uint32_t W, uint32_t *count, uint32_t *live)
{
	uint32_t blk = IR_PC_DONE, n = 0, on_count = 0;

	for (uint32_t l = 0; l < W; l++) {
		blk = pc[l] < blk ? pc[l] : blk;
		n += pc[l] != IR_PC_DONE;
	}
	*live = n;
	if (blk != IR_PC_DONE)
		for (uint32_t l = 0; l < W; l++) {
			const uint8_t on = pc[l] == blk;

			mask[l] = on;
			on_count += on;
		}
	*count = on_count;
	return blk;
}

/* An execution state of width lanes with the constant and subgroup
 * registers set. */
static struct ir_exec *
exec_alloc(const struct ir_program *p, uint32_t lanes, uint32_t width)
{
	struct ir_exec *e = swgpu_calloc_private(1, sizeof(*e));

	if (!e)
		return NULL;
	e->p = p;
	e->lanes = lanes;
	e->width = width;
	/* lines of its own: the threads of a dispatch or a draw each
	 * write their own state */
	e->regs = swgpu_calloc_private((size_t)p->nregs * width,
	                               sizeof(lane_t));
	e->pc = swgpu_calloc_private(width, 4);
	e->prev = swgpu_calloc_private(width, 4);
	e->mask = swgpu_calloc_private(width, 1);
	e->shared = swgpu_calloc_private(p->shared_bytes ? p->shared_bytes
	                                                 : 4, 1);
	if (!e->regs || !e->pc || !e->prev || !e->mask || !e->shared) {
		ir_exec_destroy(e);
		return NULL;
	}
	/* SWGPU_SHADER=jit: compiled once per program, on first use */
	e->jit = jit_program_get((struct ir_program *)p);
	for (uint32_t i = 0; i < p->nconsts; i++) {
		lane_t *r = e->regs + (size_t)p->const_regs[i] * width;

		for (uint32_t l = 0; l < width; l++)
			r[l].u = p->const_vals[i];
	}
	/* Subgroups of sg lanes; a workgroup's count is that of its real
	 * invocations, a batch's that of its width. Masks have no bit for
	 * a lane beyond the subgroup. */
	const uint32_t sg = interp_subgroup_size(p);
	const uint32_t all = sg == 32 ? ~0u : (1u << sg) - 1;
	const uint32_t nsub = lanes ? (lanes + sg - 1) / sg : width / sg;

	for (uint32_t l = 0; l < width; l++) {
		lane_t *R = e->regs;
		uint32_t sl = l % sg;

#define SET(reg, v) (R[(size_t)(reg) * width + l].u = (v))
		SET(IR_REG_SUBGROUP_SIZE, sg);
		SET(IR_REG_SUBGROUP_LOCAL_ID, sl);
		SET(IR_REG_SUBGROUP_ID, l / sg);
		SET(IR_REG_NUM_SUBGROUPS, nsub);
		SET(IR_REG_EQ_MASK, 1u << sl);
		SET(IR_REG_GE_MASK, (~0u << sl) & all);
		SET(IR_REG_GT_MASK, sl == 31 ? 0 : (~0u << (sl + 1)) & all);
		SET(IR_REG_LE_MASK, sl == 31 ? ~0u : (2u << sl) - 1);
		SET(IR_REG_LT_MASK, (1u << sl) - 1);
#undef SET
	}
	return e;
}

struct ir_exec *
ir_exec_create(const struct ir_program *p)
{
	uint32_t lx = p->local_size[0], ly = p->local_size[1];
	uint32_t lanes = lx * ly * p->local_size[2];
	struct ir_exec *e;

	if (p->stage != SWGPU_SHADER_STAGE_COMPUTE || !lanes)
		return NULL;
	/* a multiple of every subgroup size */
	e = exec_alloc(p, lanes, (lanes + SG - 1) / SG * SG);
	if (!e)
		return NULL;
	for (uint32_t l = 0; l < e->width; l++) {
		lane_t *R = e->regs;
		uint32_t W = e->width;

#define SET(reg, v) (R[(size_t)(reg) * W + l].u = (v))
		SET(IR_REG_LOCAL_ID + 0, l % lx);
		SET(IR_REG_LOCAL_ID + 1, l / lx % ly);
		SET(IR_REG_LOCAL_ID + 2, l / (lx * ly));
		SET(IR_REG_WORKGROUP_SIZE + 0, lx);
		SET(IR_REG_WORKGROUP_SIZE + 1, ly);
		SET(IR_REG_WORKGROUP_SIZE + 2, p->local_size[2]);
		SET(IR_REG_LOCAL_INDEX, l);
#undef SET
	}
	return e;
}

struct ir_exec *
ir_exec_create_batch(const struct ir_program *p, uint32_t width)
{
	struct ir_exec *e;

	/* SG: a multiple of every subgroup size */
	if (p->stage == SWGPU_SHADER_STAGE_COMPUTE || !width || width % SG)
		return NULL;
	e = exec_alloc(p, 0, width);
	if (!e)
		return NULL;
	e->live = swgpu_calloc_private(width, 1);
	e->live_mask = swgpu_calloc_private(width, 1);
	e->disc = swgpu_calloc_private(width, 1);
	if (!e->live || !e->live_mask || !e->disc) {
		ir_exec_destroy(e);
		return NULL;
	}
	return e;
}

void
ir_exec_destroy(struct ir_exec *e)
{
	if (!e)
		return;
	free(e->regs);
	free(e->pc);
	free(e->prev);
	free(e->mask);
	free(e->shared);
	free(e->live);
	free(e->live_mask);
	free(e->disc);
	free(e);
}

lane_t *
ir_exec_reg(struct ir_exec *e, uint32_t reg)
{
	return e->regs + (size_t)reg * e->width;
}

/*
 * Watchdog (see ir_dispatch): no workgroup of the dispatch completed for
 * the hang timeout, or another thread found that already. Signed: another
 * thread may store a progress time later than our clock reading.
 */
static bool
stalled(struct ir_dispatch *d)
{
	uint64_t last = __atomic_load_n(&d->progress_ns, __ATOMIC_RELAXED);
	int64_t idle = (int64_t)(swgpu_now_ns() - last);

	return idle > (int64_t)d->hang_timeout_ns ||
	       __atomic_load_n(&d->hung, __ATOMIC_RELAXED);
}

/* Preemption inside the workgroup (wg_save.h): at a loop back-edge,
 * does the dispatch stop? The flag at each one, the engine's question
 * (a few atomic loads and a call) at every 8th of this thread. */
static bool
stop_requested(struct ir_exec *e, struct ir_dispatch *d)
{
	return d->stop_poll &&
	       (__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE) ||
	        (!(++e->backedges & 7) && d->stop_poll(d->stop_cookie)));
}

enum lanes_end { LANES_DONE, LANES_HUNG, LANES_STOPPED };

/* Lanes [0, e->lanes) from block 0 until all are done, or (resume) from
 * where a preemption stopped them (e->at_*). LANES_STOPPED: stopped
 * before running e->at_blk, the whole state in e for wg_save. */
static enum lanes_end
run_lanes(struct ir_exec *e, struct ir_dispatch *d, bool resume)
{
	const uint32_t W = e->width, lanes = e->lanes;
	uint32_t *pc = e->pc, *prev = e->prev;
	uint8_t *mask = e->mask;
	/* Block 0 starts with every live lane; as long as the whole live
	 * set branches together the mask stays and no scan is needed. */
	uint32_t blk = 0, hint, last = IR_PC_DONE;
	bool uniform = true, full = lanes == W;
	/* a compiled loop counts the blocks it ran (jit.h) */
	uint64_t check_at = (e->blocks_run | 0xfff) + 1;

	e->jit_stopped = false;
	if (resume) {
		blk = e->at_blk;
		uniform = e->at_uniform;
		full = e->at_full;
		/* pc, prev, mask are the saved ones: go straight to the
		 * block; a first block runs before any new stop. */
		goto run;
	}
	for (uint32_t l = 0; l < W; l++) {
		pc[l] = l < lanes ? 0 : IR_PC_DONE;
		prev[l] = IR_PC_DONE;
	}
	for (uint32_t l = 0; l < W; l++)
		mask[l] = l < lanes;
	for (;;) {
		if (!uniform) {
			uint32_t count, live;

			blk = lanes_at_lowest_block(pc, mask, W, &count,
			                            &live);
			if (blk == IR_PC_DONE)
				return LANES_DONE;
			full = count == W;
			uniform = count == live;
		}
		/* A loop back-edge (or a return to an earlier block) is the
		 * preemption point: the state is complete between blocks.
		 * So is the boundary a compiled loop left at for a stop
		 * request (jit_stopped; d->stop is set then). */
		if (((blk <= last && last != IR_PC_DONE) || e->jit_stopped) &&
		    stop_requested(e, d)) {
			e->jit_stopped = false;
			e->at_blk = blk;
			e->at_uniform = uniform;
			e->at_full = full;
			return LANES_STOPPED;
		}
run:
		last = blk;
		hint = e->jit ? jit_exec_block(e, d, blk, full)
		              : interp_exec_block(e, d, blk, full);
		if (uniform && hint == IR_PC_DONE)
			return LANES_DONE;
		if (uniform && hint != INTERP_HINT_NONE)
			blk = hint;
		else
			uniform = false;
		if (++e->blocks_run >= check_at) {
			check_at = e->blocks_run + 0x1000;
			if (stalled(d))
				return LANES_HUNG;
		}
	}
}

/* The builtins of workgroup g (flattened index) in e's registers. */
static void
set_group_ids(struct ir_exec *e, const struct ir_dispatch *d, uint64_t g)
{
	const uint32_t W = e->width;
	lane_t *R = e->regs;
	uint32_t id[3];

	id[0] = (uint32_t)(g % d->groups[0]);
	id[1] = (uint32_t)(g / d->groups[0] % d->groups[1]);
	id[2] = (uint32_t)(g / ((uint64_t)d->groups[0] * d->groups[1]));
	for (uint32_t k = 0; k < 3; k++) {
		uint64_t used = e->p->builtins_used;
		uint32_t wg = d->base[k] + id[k];
		uint32_t gbase = wg * e->p->local_size[k];
		lane_t *wr = R + (size_t)(IR_REG_WORKGROUP_ID + k) * W;
		lane_t *gr = R + (size_t)(IR_REG_GLOBAL_ID + k) * W;
		const lane_t *lr = R + (size_t)(IR_REG_LOCAL_ID + k) * W;

		if (used >> (IR_REG_WORKGROUP_ID + k) & 1)
			for (uint32_t l = 0; l < W; l++)
				wr[l].u = wg;
		if (used >> (IR_REG_GLOBAL_ID + k) & 1)
			for (uint32_t l = 0; l < W; l++)
				gr[l].u = gbase + lr[l].u;
	}
}

bool
ir_exec_run(struct ir_exec *e, struct ir_dispatch *d)
{
	const uint32_t W = e->width;
	lane_t *R = e->regs;

	for (uint32_t k = 0; k < 3; k++)
		for (uint32_t l = 0; l < W; l++)
			R[(size_t)(IR_REG_NUM_WORKGROUPS + k) * W + l].u =
				d->groups[k];
	for (;;) {
		uint64_t g;
		int slot = -1;
		bool resume = false;

		/* Stopping: no new group. Else first the workgroups a
		 * preemption saved (wg_save.h), then new ones in order. */
		if (d->stop_poll && __atomic_load_n(&d->stop, __ATOMIC_ACQUIRE))
			return true;
		void *area = __atomic_load_n(&d->save_area, __ATOMIC_ACQUIRE);
		if (area && d->stop_poll && ir_save_take(area, e, &slot, &g)) {
			resume = true;
		} else {
			g = __atomic_fetch_add(&d->next_group, 1,
			                       __ATOMIC_RELAXED);
			if (g >= d->total_groups)
				return true;
			set_group_ids(e, d, g);
			if (e->p->shared_bytes)
				memset(e->shared, 0, e->p->shared_bytes);
		}
		/* pcache: code a background compile finished since */
		if (!e->jit && !e->jit_pinned)
			e->jit = jit_program_ready(e->p);
		enum lanes_end r = run_lanes(e, d, resume);
		if (r == LANES_HUNG) {
			__atomic_store_n(&d->hung, true, __ATOMIC_RELAXED);
			return false;
		}
		if (r == LANES_STOPPED) {
			/* stop (acquire) came after save_area was set */
			ir_save_store(__atomic_load_n(&d->save_area,
			                              __ATOMIC_ACQUIRE),
			              slot, e, g);
			return true;
		}
		/* A restored register file held that group's builtins; a
		 * new group sets its own (set_group_ids), and no other
		 * register's value carries from one group to the next. */
		if (resume)
			ir_save_release(area, slot);
		/* Progress for the watchdog (see ir_dispatch). */
		ir_dispatch_progress(d);
	}
}

bool
ir_exec_run_batch(struct ir_exec *e, struct ir_dispatch *d, uint32_t n,
                  const uint8_t *live, uint8_t *discarded)
{
	const struct ir_program *p = e->p;
	const uint32_t W = e->width;
	uint8_t *const el = e->live;
	uint32_t helpers = 0;

	if (n > W)
		n = W;
	e->lanes = n;
	/* Local pointers and an integer accumulator: a loop the compiler
	 * can keep in registers (through e-> it reloaded e->live per
	 * lane, as live may alias it). */
	for (uint32_t l = 0; l < n; l++) {
		const uint8_t v = !live || live[l];

		el[l] = v;
		helpers |= v ^ 1u;
	}
	memset(el + n, 0, W - n);
	e->helpers = helpers != 0;
	if ((p->builtins_used >> IR_REG_HELPER & 1) || p->io.discards) {
		lane_t *H = ir_exec_reg(e, IR_REG_HELPER);

		for (uint32_t l = 0; l < W; l++)
			H[l].u = !el[l];
	}
	if (p->io.discards)
		memset(e->disc, 0, W);
	/* Batches have no stop_poll: they run to their end (draws stop
	 * between batches, draw.c). */
	if (!e->jit && !e->jit_pinned)   /* pcache: as ir_exec_run */
		e->jit = jit_program_ready(p);
	if (run_lanes(e, d, false) != LANES_DONE) {
		__atomic_store_n(&d->hung, true, __ATOMIC_RELAXED);
		return false;
	}
	if (discarded)
		memcpy(discarded, e->disc, n);
	/* Progress for the watchdog: a batch is the unit. */
	ir_dispatch_progress(d);
	return true;
}

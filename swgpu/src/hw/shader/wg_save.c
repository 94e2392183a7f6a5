/* SPDX-License-Identifier: MIT */
/*
 * Workgroup save areas (wg_save.h): layout, store and restore of one
 * workgroup's state. The register file is copied whole (constants and
 * builtins included), so a resumed workgroup runs on bit for bit the
 * state it stopped with, on whichever thread or engine takes it.
 */
#include "wg_save.h"

#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>

#include "interp_util.h"
#include "util/util.h"

static uint32_t
compute_width(const struct ir_program *p)
{
	uint32_t lanes = p->local_size[0] * p->local_size[1] *
	                 p->local_size[2];

	return (lanes + SG - 1) / SG * SG; /* as ir_exec_create */
}

static size_t
slot_bytes(const struct ir_program *p)
{
	const size_t w = compute_width(p);
	size_t n = sizeof(struct ir_save_slot) +
	           (size_t)p->nregs * w * sizeof(lane_t) + w * 4 * 2 + w +
	           p->shared_bytes;

	return (n + 15) & ~(size_t)15;
}

size_t
ir_save_area_size(const struct ir_program *p)
{
	if (p->stage != SWGPU_SHADER_STAGE_COMPUTE || !compute_width(p))
		return 0;
	return sizeof(struct ir_save_header) + IR_SAVE_SLOTS * slot_bytes(p);
}

void
ir_save_area_init(void *area, const struct ir_program *p)
{
	struct ir_save_header *h = area;

	memset(h, 0, sizeof(*h));
	h->magic = IR_SAVE_MAGIC;
	h->nregs = p->nregs;
	h->width = compute_width(p);
	h->shared_bytes = p->shared_bytes;
	h->slot_bytes = (uint32_t)slot_bytes(p);
}

bool
ir_save_area_matches(const void *area, const struct ir_program *p)
{
	const struct ir_save_header *h = area;

	return h->magic == IR_SAVE_MAGIC && h->nregs == p->nregs &&
	       h->width == compute_width(p) &&
	       h->shared_bytes == p->shared_bytes &&
	       h->slot_bytes == slot_bytes(p);
}

uint32_t
ir_save_area_saved(const void *area)
{
	const struct ir_save_header *h = area;
	uint32_t n = 0;

	for (uint32_t s = 0; s < IR_SAVE_SLOTS; s++)
		n += __atomic_load_n(&h->slot_state[s], __ATOMIC_ACQUIRE) ==
		     IR_SLOT_SAVED;
	return n;
}

static uint8_t *
slot_at(void *area, int slot)
{
	struct ir_save_header *h = area;

	return (uint8_t *)area + sizeof(*h) + (size_t)slot * h->slot_bytes;
}

void
ir_save_store(void *area, int slot, const struct ir_exec *e, uint64_t group)
{
	struct ir_save_header *h = area;
	const uint32_t W = e->width;

	/* A group resumed from no slot takes an empty one: there is one,
	 * as each of the IR_SAVE_SLOTS threads holds at most one slot. */
	for (uint32_t s = 0; slot < 0 && s < IR_SAVE_SLOTS; s++) {
		uint32_t want = IR_SLOT_EMPTY;

		if (__atomic_compare_exchange_n(&h->slot_state[s], &want,
		                                IR_SLOT_RUNNING, false,
		                                __ATOMIC_ACQ_REL,
		                                __ATOMIC_RELAXED))
			slot = (int)s;
	}
	if (slot < 0) {
		/* Cannot happen (one thread per slot): a driver bug. */
		swgpu_log("wg_save: no free slot for workgroup %llu",
		          (unsigned long long)group);
		abort();
	}
	uint8_t *b = slot_at(area, slot);
	struct ir_save_slot st = {
		.group = group,
		.blocks_run = e->blocks_run,
		.blk = e->at_blk,
		.uniform = e->at_uniform,
		.full = e->at_full,
	};

	memcpy(b, &st, sizeof(st));
	b += sizeof(st);
	memcpy(b, e->regs, (size_t)e->p->nregs * W * sizeof(lane_t));
	b += (size_t)e->p->nregs * W * sizeof(lane_t);
	memcpy(b, e->pc, (size_t)W * 4);
	b += (size_t)W * 4;
	memcpy(b, e->prev, (size_t)W * 4);
	b += (size_t)W * 4;
	memcpy(b, e->mask, W);
	b += W;
	memcpy(b, e->shared, e->p->shared_bytes);
	__atomic_store_n(&h->slot_state[slot], IR_SLOT_SAVED,
	                 __ATOMIC_RELEASE);
}

bool
ir_save_take(void *area, struct ir_exec *e, int *slot, uint64_t *group)
{
	struct ir_save_header *h = area;
	const uint32_t W = e->width;

	for (uint32_t s = 0; s < IR_SAVE_SLOTS; s++) {
		uint32_t want = IR_SLOT_SAVED;

		if (!__atomic_compare_exchange_n(&h->slot_state[s], &want,
		                                 IR_SLOT_RUNNING, false,
		                                 __ATOMIC_ACQ_REL,
		                                 __ATOMIC_RELAXED))
			continue;
		const uint8_t *b = slot_at(area, (int)s);
		struct ir_save_slot st;

		memcpy(&st, b, sizeof(st));
		b += sizeof(st);
		memcpy(e->regs, b, (size_t)e->p->nregs * W * sizeof(lane_t));
		b += (size_t)e->p->nregs * W * sizeof(lane_t);
		memcpy(e->pc, b, (size_t)W * 4);
		b += (size_t)W * 4;
		memcpy(e->prev, b, (size_t)W * 4);
		b += (size_t)W * 4;
		memcpy(e->mask, b, W);
		b += W;
		memcpy(e->shared, b, e->p->shared_bytes);
		e->blocks_run = st.blocks_run;
		e->at_blk = st.blk;
		e->at_uniform = st.uniform;
		e->at_full = st.full;
		*slot = (int)s;
		*group = st.group;
		return true;
	}
	return false;
}

void
ir_save_release(void *area, int slot)
{
	struct ir_save_header *h = area;

	__atomic_store_n(&h->slot_state[slot], IR_SLOT_EMPTY,
	                 __ATOMIC_RELEASE);
}

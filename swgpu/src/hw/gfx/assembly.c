/* SPDX-License-Identifier: MIT */
/*
 * Primitive assembly: the element stream of one instance (indices, or
 * consecutive vertex numbers) into points, lines and triangles, as the
 * spec's "Primitive Topologies" define them with the provoking vertex
 * first:
 *   point list      v_i
 *   line list       v_2i, v_2i+1          line strip  v_i, v_i+1
 *   triangle list   v_3i, v_3i+1, v_3i+2
 *   triangle strip  v_i, v_i+1+i%2, v_i+2-i%2
 *   triangle fan    v_i+1, v_i+2, v_0
 *   with adjacency  the main vertices only (lines 4i+1, 4i+2 / i+1, i+2;
 *                   triangles 6i, 6i+2, 6i+4; strips 2i, 2i+2, 2i+4, odd
 *                   ones 2i+2, 2i, 2i+4)
 * Primitive restart (indexed draws): an index equal to the all-ones
 * value of its size ends the strip or fan (and drops an incomplete list
 * primitive); the next index starts over.
 *
 * Vertices are deduplicated per batch (a vertex id of an instance maps
 * to one slot), so an indexed mesh shades each vertex once per batch; a
 * batch goes on with the next instance when one ends.
 */
#include "hw/gfx/gfx_internal.h"

#include <string.h>

/* The vertex id of stream element pos; *restart when it is the restart
 * index. Indices past the end of the index buffer read as 0. */
static uint32_t
element(const struct gfx_draw *d, uint64_t pos, bool *restart)
{
	*restart = false;
	if (!d->indexed)
		return d->first + (uint32_t)pos;
	uint64_t at = (uint64_t)d->first + pos;
	uint32_t idx = 0;
	if (d->indices && at < d->index_avail) {
		switch (d->index_size) {
		case 1:
			idx = d->indices[at];
			break;
		case 2: {
			uint16_t v;
			memcpy(&v, d->indices + 2 * at, 2);
			idx = v;
			break;
		}
		default:
			memcpy(&idx, d->indices + 4 * at, 4);
			break;
		}
	}
	if (d->restart && idx == d->restart_index) {
		*restart = true;
		return 0;
	}
	return (uint32_t)((int64_t)idx + d->vertex_offset);
}

/* The slot of vertex id of the instance being assembled (b->cur_inst);
 * a vertex met again in the batch reuses its slot. */
static uint32_t
slot_of(struct gfx_batch *b, uint32_t id)
{
	const uint32_t inst = b->cur_inst;
	uint32_t h = ((id ^ inst * 0x9e3779b9u) * 2654435761u) >> 17;

	for (;; h = (h + 1) & (GFX_HASH_SIZE - 1)) {
		if (b->hash[h].stamp != b->stamp) {
			b->hash[h].stamp = b->stamp;
			b->hash[h].id = id;
			b->hash[h].inst = inst;
			b->hash[h].slot = b->nverts;
			b->vert_id[b->nverts] = id;
			b->vert_inst[b->nverts] = inst;
			return b->nverts++;
		}
		if (b->hash[h].id == id && b->hash[h].inst == inst)
			return b->hash[h].slot;
	}
}

static void
emit(struct gfx_asm *as, struct gfx_batch *b, uint64_t skip, uint32_t n,
     uint32_t a, uint32_t c, uint32_t e)
{
	uint64_t id = as->prim_id++;

	if (id < skip)
		return;
	struct gfx_aprim *p = &b->prims[b->nprims++];
	p->id = (uint32_t)id;
	p->v[0] = slot_of(b, a);
	p->v[1] = n > 1 ? slot_of(b, c) : p->v[0];
	p->v[2] = n > 2 ? slot_of(b, e) : p->v[1];
}

/* Feed one vertex id to the topology's state machine. */
static void
feed(const struct gfx_draw *d, struct gfx_asm *as, struct gfx_batch *b,
     uint64_t skip, uint32_t v)
{
	uint32_t *w = as->win;
	uint32_t n = as->nwin++;

	switch (d->topology) {
	case SWGPU_TOPOLOGY_POINT_LIST:
		emit(as, b, skip, 1, v, 0, 0);
		as->nwin = 0;
		break;
	case SWGPU_TOPOLOGY_LINE_LIST:
		w[n] = v;
		if (n == 1) {
			emit(as, b, skip, 2, w[0], w[1], 0);
			as->nwin = 0;
		}
		break;
	case SWGPU_TOPOLOGY_LINE_STRIP:
		if (n)
			emit(as, b, skip, 2, w[0], v, 0);
		w[0] = v;
		break;
	case SWGPU_TOPOLOGY_TRIANGLE_LIST:
		w[n] = v;
		if (n == 2) {
			emit(as, b, skip, 3, w[0], w[1], w[2]);
			as->nwin = 0;
		}
		break;
	case SWGPU_TOPOLOGY_TRIANGLE_STRIP:
		if (n >= 2) {
			if ((n - 2) & 1)
				emit(as, b, skip, 3, w[0], v, w[1]);
			else
				emit(as, b, skip, 3, w[0], w[1], v);
			w[0] = w[1];
			w[1] = v;
		} else {
			w[n] = v;
		}
		break;
	case SWGPU_TOPOLOGY_TRIANGLE_FAN:
		if (n == 0)
			as->first = v;
		else if (n >= 2)
			emit(as, b, skip, 3, w[0], v, as->first);
		w[0] = v;
		break;
	case SWGPU_TOPOLOGY_LINE_LIST_ADJ:
		w[n] = v;
		if (n == 3) {
			emit(as, b, skip, 2, w[1], w[2], 0);
			as->nwin = 0;
		}
		break;
	case SWGPU_TOPOLOGY_LINE_STRIP_ADJ:
		/* window of the last four: lines between its middle two */
		if (n < 4) {
			w[n] = v;
		} else {
			memmove(w, w + 1, 3 * sizeof(*w));
			w[3] = v;
		}
		if (n >= 3)
			emit(as, b, skip, 2, w[1], w[2], 0);
		break;
	case SWGPU_TOPOLOGY_TRIANGLE_LIST_ADJ:
		w[n] = v;
		if (n == 5) {
			emit(as, b, skip, 3, w[0], w[2], w[4]);
			as->nwin = 0;
		}
		break;
	case SWGPU_TOPOLOGY_TRIANGLE_STRIP_ADJ:
		/* primitive i is complete with element 2i + 5; the window
		 * keeps its last six elements */
		w[n] = v;
		if (n == 5) {
			if (as->strip_i & 1)
				emit(as, b, skip, 3, w[2], w[0], w[4]);
			else
				emit(as, b, skip, 3, w[0], w[2], w[4]);
			as->strip_i++;
			memmove(w, w + 2, 4 * sizeof(*w));
			as->nwin = 4;
		}
		break;
	default:
		break;
	}
}

void
gfx_batch_reset(struct gfx_batch *b)
{
	b->nverts = 0;
	b->nprims = 0;
	if (++b->stamp == 0) {
		memset(b->hash, 0, GFX_HASH_SIZE * sizeof(*b->hash));
		b->stamp = 1;
	}
}

bool
gfx_batch_full(const struct gfx_batch *b)
{
	/* Room for the largest step: one primitive, three new vertices. */
	return b->nprims >= GFX_BATCH_PRIMS ||
	       b->nverts + 3 > GFX_BATCH_VERTS;
}

void
gfx_assemble(const struct gfx_draw *d, struct gfx_asm *as,
             struct gfx_batch *b, uint64_t skip, uint32_t instance)
{
	b->cur_inst = instance;
	while (as->pos < d->count) {
		if (gfx_batch_full(b))
			return;
		bool restart;
		uint32_t v = element(d, as->pos, &restart);
		as->pos++;
		if (restart) {
			as->nwin = 0;
			as->strip_i = 0;
			continue;
		}
		feed(d, as, b, skip, v);
	}
	as->done = true;
}

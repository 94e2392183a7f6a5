/* SPDX-License-Identifier: MIT */
/*
 * test_vk_stress_dag: the seeded PRNG, the random DAG of jobs (queues,
 * dependencies of each kind, copy/fill/update segments) and the host
 * model of what every slot must hold.
 */
#include "test_vk_stress_dag.h"

/* ------------------------------------------------------------------ */
/* PRNG and values                                                     */
/* ------------------------------------------------------------------ */

uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint32_t
rnd(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(splitmix64(s) % n) : 0;
}

uint32_t
mix32(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t s = a ^ (b * 0xc2b2ae3d27d4eb4full) ^
	             (c * 0x165667b19e3779f9ull);
	uint32_t v = (uint32_t)splitmix64(&s);

	return v == POISON ? v ^ 1 : v;
}

/* Word w of job j's header or update segments. */
uint32_t
update_word(const struct sdev *c, uint32_t j, uint32_t w)
{
	return mix32(c->seed, j, w);
}

/* ------------------------------------------------------------------ */
/* The DAG                                                             */
/* ------------------------------------------------------------------ */

uint32_t
pick_weighted(uint64_t *s, const uint32_t *w, uint32_t n)
{
	uint32_t total = 0, r;

	for (uint32_t i = 0; i < n; i++)
		total += w[i];
	r = rnd(s, total);
	for (uint32_t i = 0; i < n; i++) {
		if (r < w[i])
			return i;
		r -= w[i];
	}
	return n - 1;
}

void
gen_segments(struct sdev *c, uint64_t *s, uint32_t j)
{
	struct job *J = &c->jobs[j];
	uint32_t cuts[MAX_SEGS + 1];
	uint32_t nseg = J->ndeps + rnd(s, 3);
	uint32_t perm[MAX_SEGS];

	if (nseg == 0)
		nseg = 1 + rnd(s, 2);
	if (nseg > MAX_SEGS)
		nseg = MAX_SEGS;
	/* nseg - 1 distinct cut words in (HDR_WORDS, SLOT_WORDS), sorted. */
	cuts[0] = HDR_WORDS;
	for (uint32_t i = 1; i < nseg; i++) {
		uint32_t v;
		bool dup;

		do {
			v = HDR_WORDS + 1 + rnd(s, SLOT_WORDS - HDR_WORDS - 1);
			dup = false;
			for (uint32_t k = 1; k < i; k++)
				dup |= cuts[k] == v;
		} while (dup);
		cuts[i] = v;
	}
	cuts[nseg] = SLOT_WORDS;
	for (uint32_t a = 1; a < nseg; a++)
		for (uint32_t b = a + 1; b < nseg; b++)
			if (cuts[b] < cuts[a]) {
				uint32_t t = cuts[a];
				cuts[a] = cuts[b];
				cuts[b] = t;
			}
	/* Segment perm[k] copies from dep k (each dep feeds the slot). */
	for (uint32_t i = 0; i < nseg; i++)
		perm[i] = i;
	for (uint32_t i = nseg; i > 1; i--) {
		uint32_t k = rnd(s, i), t = perm[i - 1];
		perm[i - 1] = perm[k];
		perm[k] = t;
	}
	J->nseg = (uint8_t)nseg;
	for (uint32_t i = 0; i < nseg; i++) {
		struct seg *g = &J->segs[perm[i]];
		uint32_t kind;

		g->word0 = (uint16_t)cuts[perm[i]];
		g->nwords = (uint16_t)(cuts[perm[i] + 1] - cuts[perm[i]]);
		if (i < J->ndeps) {
			kind = SEG_COPY;
			g->src = J->deps[i].src;
		} else {
			kind = J->ndeps ? rnd(s, 3) : 1 + rnd(s, 2);
			if (kind == SEG_COPY)
				g->src = J->deps[rnd(s, J->ndeps)].src;
		}
		g->kind = (uint8_t)kind;
		if (kind == SEG_COPY)
			g->src_byte = rnd(s, SLOT_BYTES - g->nwords * 4u + 1);
		else if (kind == SEG_FILL)
			g->value = mix32(c->seed ^ 0xf111, j, i);
	}
}

void
gen_dag(struct sdev *c)
{
	static const uint32_t ndep_w[] = { 15, 35, 30, 20 };
	/* DEP_TIMELINE, DEP_BINARY, DEP_FENCE, DEP_HOST_TL */
	static const uint32_t kind_w[] = { 45, 30, 15, 10 };
	uint64_t s = c->seed;

	c->jobs = calloc(c->njobs, sizeof(*c->jobs));
	for (uint32_t q = 0; q < c->nq; q++)
		c->qjobs[q] = calloc(c->njobs, sizeof(uint32_t));
	for (uint32_t j = 0; j < c->njobs; j++) {
		struct job *J = &c->jobs[j];
		uint32_t want = pick_weighted(&s, ndep_w, 4);

		J->q = rnd(&s, c->nq);
		J->pos = ++c->qcount[J->q];
		c->qjobs[J->q][J->pos - 1] = j;
		J->buf = (uint8_t)rnd(&s, NBUF);
		if (want > j)
			want = j;
		for (uint32_t k = 0; k < want; k++) {
			struct dep *d = &J->deps[J->ndeps];
			uint32_t src = 0;
			bool ok = false;

			for (int tries = 0; tries < 8 && !ok; tries++) {
				uint32_t win = j < 12 ? j : 12;

				src = rnd(&s, 4) == 0 ? rnd(&s, j) :
				      j - 1 - rnd(&s, win);
				ok = true;
				for (uint32_t m = 0; m < J->ndeps; m++)
					ok &= J->deps[m].src != src;
			}
			if (!ok)
				continue;
			struct job *S = &c->jobs[src];
			d->src = src;
			d->eff = src;
			d->value = S->pos;
			if (S->q == J->q && rnd(&s, 100) < 30)
				d->kind = DEP_ORDER;
			else
				d->kind = (uint8_t)(DEP_TIMELINE +
				                    pick_weighted(&s, kind_w, 4));
			if (d->kind == DEP_BINARY &&
			    S->nbin_out == MAX_BIN_OUT)
				d->kind = DEP_TIMELINE;
			if ((d->kind == DEP_TIMELINE ||
			     d->kind == DEP_HOST_TL) && rnd(&s, 4) == 0) {
				/* Wait for a later job of that queue (still
				 * before j): a stronger dependency. */
				uint32_t maxpos = c->qcount[S->q] -
				                  (S->q == J->q ? 1 : 0);
				uint32_t p = S->pos +
				             rnd(&s, maxpos - S->pos + 1);

				d->eff = c->qjobs[S->q][p - 1];
				d->value = p;
			}
			if (d->kind == DEP_BINARY)
				S->nbin_out++;
			if (d->kind == DEP_FENCE)
				S->fence_src = true;
			if (d->kind == DEP_FENCE || d->kind == DEP_HOST_TL)
				J->host_dep = true;
			c->ndep[d->kind]++;
			J->ndeps++;
		}
		gen_segments(c, &s, j);
		/* Now and then a long job: queues back up behind it. */
		if (rnd(&s, BALLAST_ONE_IN) == 0) {
			J->ballast = true;
			J->ballast_value = mix32(c->seed ^ 0xba11, j, 0);
			c->nballast++;
		}
	}
	for (uint32_t j = 0; j < c->njobs; j++)
		c->jobs[j].nbin_out = 0; /* refilled with the semaphores */
}

/* The expected contents: the jobs' operations replayed in job order. */
void
gen_model(struct sdev *c)
{
	size_t size = (size_t)c->njobs * SLOT_BYTES;

	for (int b = 0; b < NBUF; b++) {
		uint32_t *w;

		c->model[b] = malloc(size);
		w = (uint32_t *)c->model[b];
		for (size_t i = 0; i < size / 4; i++)
			w[i] = POISON;
	}
	for (uint32_t q = 0; q < c->nq; q++)
		c->ballast_want[q] = POISON;
	for (uint32_t j = 0; j < c->njobs; j++) {
		const struct job *J = &c->jobs[j];
		uint8_t *slot = c->model[J->buf] + (size_t)j * SLOT_BYTES;
		uint32_t *w = (uint32_t *)slot;

		/* Jobs of a queue run in order: the last fill stays. */
		if (J->ballast)
			c->ballast_want[J->q] = J->ballast_value;

		for (uint32_t i = 0; i < HDR_WORDS; i++)
			w[i] = update_word(c, j, i);
		for (uint32_t k = 0; k < J->nseg; k++) {
			const struct seg *g = &J->segs[k];

			if (g->kind == SEG_COPY) {
				const struct job *S = &c->jobs[g->src];
				memcpy(slot + g->word0 * 4u,
				       c->model[S->buf] +
				       (size_t)g->src * SLOT_BYTES + g->src_byte,
				       g->nwords * 4u);
			} else {
				for (uint32_t i = g->word0;
				     i < g->word0 + g->nwords; i++)
					w[i] = g->kind == SEG_FILL ?
					       g->value : update_word(c, j, i);
			}
		}
	}
}

void
free_dag(struct sdev *c)
{
	free(c->jobs);
	c->jobs = NULL;
	for (uint32_t q = 0; q < VKH_MAX_QUEUES; q++) {
		free(c->qjobs[q]);
		c->qjobs[q] = NULL;
	}
	for (int b = 0; b < NBUF; b++) {
		free(c->model[b]);
		c->model[b] = NULL;
	}
}

void
describe_job(const struct sdev *c, uint32_t j, char *out, size_t n)
{
	const struct job *J = &c->jobs[j];
	size_t o;

	o = (size_t)snprintf(out, n, "job %u (queue %u pos %u, buf %u) deps:",
	                     j, J->q, J->pos, J->buf);
	for (uint32_t k = 0; k < J->ndeps && o < n; k++) {
		const struct dep *d = &J->deps[k];
		o += (size_t)snprintf(out + o, n - o, " %u[q%u %s",
		                      d->src, c->jobs[d->src].q,
		                      dep_names[d->kind]);
		if (o < n && d->eff != d->src)
			o += (size_t)snprintf(out + o, n - o, " via %u",
			                      d->eff);
		if (o < n)
			o += (size_t)snprintf(out + o, n - o, "]");
	}
}


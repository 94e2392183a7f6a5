/* SPDX-License-Identifier: MIT */
/*
 * Shader engine: atomics under contention (exact totals, unique tickets)
 * and subgroup operations -- only those the device reports in
 * VkPhysicalDeviceSubgroupProperties, checked without assuming how
 * invocations map to subgroups: lanes are grouped by the (workgroup,
 * gl_SubgroupID) they report (clustered and quad operations work on
 * aligned runs of gl_SubgroupInvocationID). Skips (77) without a COMPUTE
 * queue.
 */
#include "vkh_compute.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_contention.spv.h"
#include "sg_arith.spv.h"
#include "sg_arb.spv.h"
#include "sg_ballot.spv.h"
#include "sg_basic.spv.h"
#include "sg_clustered.spv.h"
#include "sg_quad.spv.h"
#include "sg_relative.spv.h"
#include "sg_shuffle.spv.h"
#include "sg_vote.spv.h"

#define GROUPS 256u
#define N (GROUPS * 64u)

struct counters {
	uint32_t add, sum;
	int32_t smin, smax;
	uint32_t umin, umax, and_, or_, xor_, cas, exch, shared_total;
	uint32_t hist[16], shared_hist[16];
};

static uint32_t
hash(uint32_t x)
{
	x *= 2654435761u;
	return x ^ (x >> 16);
}

static void
test_atomics(struct vkh *h, struct vkh_device *d)
{
	struct vkh_buffer b[3] = { 0 };
	struct counters *c, w;
	uint32_t *t, *e;
	uint8_t *seen;
	unsigned bad = 0;

	VKH_CHECK_VK(h, vkh_host_buffer(h, d, sizeof(*c), 0, &b[0]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, N * 4, 0, &b[1]));
	VKH_CHECK_VK(h, vkh_host_buffer(h, d, N * 4, 0, &b[2]));
	c = b[0].map;
	t = b[1].map;
	e = b[2].map;
	memset(c, 0, sizeof(*c));
	c->smin = 0x7fffffff;
	c->smax = (int32_t)0x80000000u;
	c->umin = 0xffffffffu;
	c->and_ = 0xffffffffu;
	c->cas = 5;

	memset(&w, 0, sizeof(w));
	w.add = N;
	w.smin = -8000;
	w.smax = (int32_t)N - 1 - 8000;
	w.umin = 0xffffffffu;
	w.and_ = 0xe0000000u; /* bits 0..28 cleared */
	w.cas = 5 + 3 * N;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t hv = hash(i);
		w.sum += i;
		w.umin = hv < w.umin ? hv : w.umin;
		w.umax = hv > w.umax ? hv : w.umax;
		w.or_ |= 1u << (hv % 32);
		w.xor_ ^= hv;
		w.hist[hv % 16]++;
		w.shared_total += i & 0xff;
		w.shared_hist[i % 16]++;
	}
	VKH_CHECK_VK(h, vkh_compute_run(h, d, atomic_contention_spv,
	                                sizeof(atomic_contention_spv), b, 3,
	                                NULL, 0, GROUPS, 1, 1));
	/* exch: the last exchange's value; checked via the chain below. */
	w.exch = c->exch;
	if (memcmp(c, &w, sizeof(w))) {
		const uint32_t *g = (const uint32_t *)c, *m = (uint32_t *)&w;
		for (unsigned k = 0; k < sizeof(w) / 4; k++)
			if (g[k] != m[k] && bad++ < 8)
				fprintf(stderr, "  counter word %u: got 0x%x "
				        "want 0x%x\n", k, g[k], m[k]);
	}
	/* Tickets of atomicAdd(add, 1): a permutation of 0..N-1. The
	 * exchange returns form one chain: every value 0 (initial) and
	 * 1..N appears exactly once among returns + final value. */
	seen = calloc(N + 1, 1);
	VKH_CHECK(h, seen);
	for (uint32_t i = 0; i < N; i++) {
		if (t[i] >= N || (seen[t[i]] & 1)) {
			if (bad++ < 8)
				fprintf(stderr, "  ticket %u of inv %u "
				        "repeated or out of range\n", t[i], i);
		} else {
			seen[t[i]] |= 1;
		}
		if (e[i] > N || (seen[e[i]] & 2)) {
			if (bad++ < 8)
				fprintf(stderr, "  exchange return %u of inv "
				        "%u repeated or out of range\n", e[i],
				        i);
		} else {
			seen[e[i]] |= 2;
		}
	}
	if (c->exch == 0 || c->exch > N || (seen[c->exch] & 2))
		bad++;
	free(seen);
	for (int k = 0; k < 3; k++)
		vkh_buffer_destroy(d, &b[k]);
	VKH_CHECK_MSG(h, bad == 0, "%u atomic result(s) wrong (%u "
	              "invocations)", bad, N);
}

/* ---- subgroups ---- */

#define SG_GROUPS 8u
#define SG_N (SG_GROUPS * 64u)

struct sg_lane {
	uint32_t x;
	const uint32_t *o; /* 16 words */
};

/* Lanes of one (workgroup, subgroup): indices into the lane array by
 * subgroup invocation id (-1 when absent). */
struct sg_group {
	int by_id[128];
	uint32_t count;
};

static void
sg_inputs(uint32_t *a)
{
	uint32_t s = 0x31415926u;

	for (uint32_t i = 0; i < SG_N; i++) {
		uint32_t wg = i / 64;
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		/* wg 0: all equal; wg 1: all < 1000 with some 7s; others
		 * random with a large range. */
		if (wg == 0)
			a[i] = 4242u;
		else if (wg == 1)
			a[i] = (i * 37u % 1000u) | (i % 9 ? 0u : 7u);
		else
			a[i] = (wg & 1) ? s % 1000u : s % 100000u;
	}
	a[64 + 5] = 7;
}

/* Group the lanes; checks the ids are consistent. Returns false (with a
 * message) if they are not. */
static bool
sg_group_lanes(const uint32_t *o, struct sg_group *grp, unsigned *bad)
{
	memset(grp, 0, sizeof(struct sg_group) * SG_GROUPS * 64);
	for (uint32_t g = 0; g < SG_GROUPS * 64; g++)
		for (int k = 0; k < 128; k++)
			grp[g].by_id[k] = -1;
	for (uint32_t i = 0; i < SG_N; i++) {
		const uint32_t *l = o + i * 16;
		uint32_t sid = l[0], inv = l[1], size = l[2];
		struct sg_group *gp;
		if (sid >= 64 || inv >= size || size > 128 || !size ||
		    (size & (size - 1))) {
			if ((*bad)++ < 8)
				fprintf(stderr, "  lane %u: subgroup %u id %u "
				        "size %u invalid\n", i, sid, inv, size);
			return false;
		}
		gp = &grp[(i / 64) * 64 + sid];
		if (gp->by_id[inv] >= 0) {
			if ((*bad)++ < 8)
				fprintf(stderr, "  lane %u: subgroup id %u "
				        "used twice in subgroup %u\n", i, inv,
				        sid);
			return false;
		}
		gp->by_id[inv] = (int)i;
		gp->count++;
	}
	return true;
}

typedef unsigned (*sg_check_fn)(const uint32_t *a, const uint32_t *o,
                                const struct sg_group *gp);

#define SG_EXPECT(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond) && bad++ < 8)                                      \
			fprintf(stderr, "  " __VA_ARGS__);                     \
	} while (0)

static unsigned
check_basic(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0, elected = 0;
	int lowest = -1;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		if (lowest < 0)
			lowest = i;
		elected += o[i * 16 + 4];
		SG_EXPECT(o[i * 16 + 5] == 1, "lane %d: no write after "
		          "subgroupBarrier\n", i);
		SG_EXPECT(o[i * 16 + 0] < o[i * 16 + 3], "lane %d: "
		          "gl_SubgroupID %u >= gl_NumSubgroups %u\n", i,
		          o[i * 16], o[i * 16 + 3]);
	}
	SG_EXPECT(elected == 1 && o[lowest * 16 + 4] == 1,
	          "subgroup of lane %d: %u elected, not the lowest id\n",
	          lowest, elected);
	(void)a;
	return bad;
}

static unsigned
check_vote(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;
	bool all = true, any = false, eq = true;
	int first = -1;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		if (first < 0)
			first = i;
		all &= a[i] < 1000;
		any |= a[i] == 7;
		eq &= a[i] / 4096 == a[first] / 4096;
	}
	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		SG_EXPECT(o[i * 16 + 4] == all && o[i * 16 + 5] == any &&
		          o[i * 16 + 6] == eq, "lane %d: all/any/eq %u %u %u "
		          "want %u %u %u\n", i, o[i * 16 + 4], o[i * 16 + 5],
		          o[i * 16 + 6], all, any, eq);
	}
	return bad;
}

static unsigned
check_arith(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;
	uint32_t sum = 0, mn = ~0u, mx = 0, and_ = ~0u, or_ = 0, xor_ = 0;
	uint32_t incl = 0, exand = 1;
	int32_t smin = 0x7fffffff;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		sum += a[i];
		mn = a[i] < mn ? a[i] : mn;
		mx = a[i] > mx ? a[i] : mx;
		and_ &= a[i] | 0xf0u;
		or_ |= a[i];
		xor_ ^= a[i];
		smin = (int32_t)a[i] - 500 < smin ? (int32_t)a[i] - 500 : smin;
	}
	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		const uint32_t *l;
		uint32_t w[9];
		if (i < 0)
			continue;
		l = o + i * 16;
		w[0] = sum;
		w[1] = incl + a[i];
		w[2] = incl;
		w[3] = mn;
		w[4] = mx;
		w[5] = and_;
		w[6] = or_;
		w[7] = xor_;
		w[8] = (uint32_t)smin;
		incl += a[i];
		SG_EXPECT(l[14] == exand, "lane %d: exclusive AND of bools "
		          "%u want %u\n", i, l[14], exand);
		exand &= a[i] & 1;
		SG_EXPECT(!memcmp(l + 4, w, sizeof(w)), "lane %d (id %d): "
		          "add %u incl %u excl %u min %u max %u and %x or %x "
		          "xor %x smin %d; want %u %u %u %u %u %x %x %x %d\n",
		          i, k, l[4], l[5], l[6], l[7], l[8], l[9], l[10],
		          l[11], (int)l[12], w[0], w[1], w[2], w[3], w[4],
		          w[5], w[6], w[7], (int)w[8]);
	}
	/* The add inside `if (x odd)`: over the invocations active with
	 * it. Whatever tangles the implementation forms, lanes reporting
	 * the same value must add up to it... checked per value class,
	 * and every even lane kept its marker. */
	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		uint32_t v, cls = 0;
		if (i < 0)
			continue;
		v = o[i * 16 + 13];
		if (!(a[i] & 1)) {
			SG_EXPECT(v == 0xffffffffu, "lane %d: even lane ran "
			          "the divergent add\n", i);
			continue;
		}
		for (int j = 0; j < 128; j++) {
			int m = gp->by_id[j];
			if (m >= 0 && (a[m] & 1) && o[m * 16 + 13] == v)
				cls += a[m];
		}
		SG_EXPECT(cls == v, "lane %d: divergent subgroupAdd %u, its "
		          "tangle adds to %u\n", i, v, cls);
	}
	return bad;
}

static unsigned
check_ballot(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;
	uint32_t odd = 0, excl = 0;
	int first = -1;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		if (first < 0)
			first = i;
		odd += a[i] & 1;
	}
	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		const uint32_t *l;
		if (i < 0)
			continue;
		l = o + i * 16;
		SG_EXPECT(l[4] == odd && l[5] == (a[i] & 1) &&
		          l[6] == a[first] && l[8] == excl &&
		          l[9] == (a[i] & 1), "lane %d: count %u bit %u first "
		          "%u excl %u inv %u; want %u %u %u %u\n", i, l[4],
		          l[5], l[6], l[8], l[9], odd, a[i] & 1, a[first],
		          excl);
		if (gp->by_id[0] >= 0)
			SG_EXPECT(l[7] == a[gp->by_id[0]], "lane %d: "
			          "broadcast(x, 0) = %u\n", i, l[7]);
		excl += a[i] & 1;
	}
	return bad;
}

static unsigned
check_shuffle(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k], j;
		const uint32_t *l;
		if (i < 0)
			continue;
		l = o + i * 16;
		/* Only reads from invocations that exist are defined. */
		if ((j = gp->by_id[0]) >= 0)
			SG_EXPECT(l[4] == a[j], "lane %d: shuffle(x, 0)\n", i);
		if ((j = gp->by_id[k ^ 1]) >= 0)
			SG_EXPECT(l[5] == a[j], "lane %d: shuffleXor(x, 1) = "
			          "%u want %u\n", i, l[5], a[j]);
		if ((j = gp->by_id[l[2] - 1 - (uint32_t)k]) >= 0)
			SG_EXPECT(l[6] == a[j], "lane %d: shuffle(x, size-1-"
			          "id)\n", i);
	}
	return bad;
}

static unsigned
check_relative(const uint32_t *a, const uint32_t *o,
               const struct sg_group *gp)
{
	unsigned bad = 0;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k], j;
		if (i < 0)
			continue;
		if (k > 0 && (j = gp->by_id[k - 1]) >= 0)
			SG_EXPECT(o[i * 16 + 7] == a[j], "lane %d: shuffleUp "
			          "= %u want %u\n", i, o[i * 16 + 7], a[j]);
		if (k < 127 && (j = gp->by_id[k + 1]) >= 0)
			SG_EXPECT(o[i * 16 + 8] == a[j], "lane %d: shuffleDown "
			          "= %u want %u\n", i, o[i * 16 + 8], a[j]);
	}
	return bad;
}

/* Quad lanes are subgroup invocations 4q .. 4q + 3. */
static unsigned
check_quad(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k], j;
		const int q = k & ~3;
		const uint32_t *l;
		if (i < 0)
			continue;
		l = o + i * 16;
		/* only reads of invocations that exist are defined */
		if ((j = gp->by_id[q]) >= 0)
			SG_EXPECT(l[4] == a[j], "lane %d: quadBroadcast(x, 0) "
			          "= %u want %u\n", i, l[4], a[j]);
		if ((j = gp->by_id[q + 3]) >= 0)
			SG_EXPECT(l[5] == a[j], "lane %d: quadBroadcast(x, 3) "
			          "= %u want %u\n", i, l[5], a[j]);
		for (int d = 0; d < 3; d++)
			if ((j = gp->by_id[k ^ (d + 1)]) >= 0)
				SG_EXPECT(l[6 + d] == a[j], "lane %d: quad "
				          "swap %d = %u want %u\n", i, d,
				          l[6 + d], a[j]);
		if ((j = gp->by_id[q + (int)((uint32_t)i / 64 & 3)]) >= 0)
			SG_EXPECT(l[9] == a[j], "lane %d: quadBroadcast(x, "
			          "wg & 3) = %u want %u\n", i, l[9], a[j]);
	}
	return bad;
}

/* An operation over the cluster of n lanes lane k is in. */
static uint32_t
cluster_of(const uint32_t *a, const struct sg_group *gp, int k, int n,
           int op, bool odd_only)
{
	uint32_t acc = op == 1 ? UINT32_MAX : op == 3 ? UINT32_MAX :
	               op == 6 ? 1 : op == 7 ? (uint32_t)INT32_MAX : 0;

	for (int c = k & ~(n - 1); c < (k & ~(n - 1)) + n; c++) {
		int j = gp->by_id[c];
		uint32_t v;
		if (j < 0 || (odd_only && !(a[j] & 1)))
			continue;
		v = a[j];
		switch (op) {
		case 0: acc += v; break;
		case 1: acc = v < acc ? v : acc; break;
		case 2: acc = v > acc ? v : acc; break;
		case 3: acc &= v | 0xf0u; break;
		case 4: acc |= v; break;
		case 5: acc ^= v; break;
		case 6: acc *= v; break;
		default:
			if ((int32_t)v - 500 < (int32_t)acc)
				acc = (uint32_t)((int32_t)v - 500);
			break;
		}
	}
	return acc;
}

static unsigned
check_clustered(const uint32_t *a, const uint32_t *o,
                const struct sg_group *gp)
{
	static const char *const name[] = { "add", "min", "max", "and", "or",
	                                    "xor", "mul", "smin" };
	unsigned bad = 0;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		const uint32_t *l;
		uint32_t w;
		if (i < 0)
			continue;
		l = o + i * 16;
		SG_EXPECT(l[4] == a[i], "lane %d: clusteredAdd(x, 1) = %u\n",
		          i, l[4]);
		w = cluster_of(a, gp, k, 4, 0, false);
		SG_EXPECT(l[5] == w, "lane %d: clusteredAdd(x, 4) = %u want "
		          "%u\n", i, l[5], w);
		for (int op = 1; op < 8; op++) {
			w = cluster_of(a, gp, k, 8, op, false);
			SG_EXPECT(l[5 + op] == w, "lane %d: clustered %s of 8 "
			          "= %u want %u\n", i, name[op], l[5 + op],
			          w);
		}
		w = cluster_of(a, gp, k, 4, 0, true);
		SG_EXPECT((a[i] & 1) ? l[13] == w : l[13] == 0xffffffffu,
		          "lane %d: divergent clusteredAdd(x, 4) = %u want "
		          "%u\n", i, l[13], (a[i] & 1) ? w : 0xffffffffu);
	}
	return bad;
}

static const struct {
	VkSubgroupFeatureFlagBits bit;
	const char *name;
	const uint32_t *spv;
	size_t size;
	sg_check_fn check;
} sg_ops[] = {
	{ VK_SUBGROUP_FEATURE_BASIC_BIT, "basic", sg_basic_spv,
	  sizeof(sg_basic_spv), check_basic },
	{ VK_SUBGROUP_FEATURE_VOTE_BIT, "vote", sg_vote_spv,
	  sizeof(sg_vote_spv), check_vote },
	{ VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic", sg_arith_spv,
	  sizeof(sg_arith_spv), check_arith },
	{ VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot", sg_ballot_spv,
	  sizeof(sg_ballot_spv), check_ballot },
	{ VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle", sg_shuffle_spv,
	  sizeof(sg_shuffle_spv), check_shuffle },
	{ VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative",
	  sg_relative_spv, sizeof(sg_relative_spv), check_relative },
	{ VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered", sg_clustered_spv,
	  sizeof(sg_clustered_spv), check_clustered },
	{ VK_SUBGROUP_FEATURE_QUAD_BIT, "quad", sg_quad_spv,
	  sizeof(sg_quad_spv), check_quad },
};

/* GL_ARB_shader_ballot / _group_vote through the EXT extensions. */
static unsigned
check_arb(const uint32_t *a, const uint32_t *o, const struct sg_group *gp)
{
	unsigned bad = 0;
	uint32_t ballot = 0, all = 1, any = 0, eq = 1;
	int first = -1;

	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k];
		if (i < 0)
			continue;
		if (first < 0)
			first = i;
		if (k < 32 && (a[i] & 1))
			ballot |= 1u << k;
		all &= a[i] < 1000;
		any |= a[i] == 7;
		eq &= (a[i] < 500) == (a[first] < 500);
	}
	for (int k = 0; k < 128; k++) {
		int i = gp->by_id[k], j;
		const uint32_t *l;
		if (i < 0)
			continue;
		l = o + i * 16;
		SG_EXPECT(l[4] == ballot, "lane %d: ballotARB = 0x%x want "
		          "0x%x\n", i, l[4], ballot);
		if ((j = gp->by_id[0]) >= 0)
			SG_EXPECT(l[5] == a[j], "lane %d: readInvocationARB(x, "
			          "0) = %u want %u\n", i, l[5], a[j]);
		SG_EXPECT(l[6] == a[first], "lane %d: readFirstInvocationARB "
		          "= %u want %u\n", i, l[6], a[first]);
		SG_EXPECT(l[7] == any && l[8] == all && l[9] == eq, "lane %d: "
		          "any/all/equal %u %u %u want %u %u %u\n", i, l[7],
		          l[8], l[9], any, all, eq);
		SG_EXPECT(l[10] == l[2] && l[11] == (uint32_t)k &&
		          l[12] == (k < 32 ? (1u << k) - 1 : UINT32_MAX),
		          "lane %d: gl_SubGroupSizeARB %u, invocation %u, lt "
		          "mask 0x%x\n", i, l[10], l[11], l[12]);
	}
	return bad;
}

/* Runs shader spv over the subgroup inputs and checks every subgroup;
 * the number of wrong results. */
static unsigned
sg_run(struct vkh *h, struct vkh_device *d, const uint32_t *spv,
       size_t size, sg_check_fn check, uint32_t *sg_size)
{
	struct vkh_buffer b[2] = { 0 };
	struct sg_group *grp = malloc(sizeof(*grp) * SG_GROUPS * 64);
	unsigned nb = 0;

	if (!grp || vkh_host_buffer(h, d, SG_N * 4, 0, &b[0]) != VK_SUCCESS ||
	    vkh_host_buffer(h, d, SG_N * 64, 0, &b[1]) != VK_SUCCESS ||
	    (sg_inputs(b[0].map), vkh_compute_run(h, d, spv, size, b, 2,
	                                          NULL, 0, SG_GROUPS, 1, 1))
	    != VK_SUCCESS) {
		fprintf(stderr, "  run failed\n");
		nb = 1;
	} else {
		if (sg_group_lanes(b[1].map, grp, &nb))
			for (uint32_t g = 0; g < SG_GROUPS * 64; g++)
				if (grp[g].count)
					nb += check(b[0].map, b[1].map,
					            &grp[g]);
		*sg_size = ((const uint32_t *)b[1].map)[2];
	}
	vkh_buffer_destroy(d, &b[0]);
	vkh_buffer_destroy(d, &b[1]);
	free(grp);
	return nb;
}

static void
test_subgroup_ext(struct vkh *h, struct vkh_device *unused)
{
	static const char *const exts[] = { "VK_EXT_shader_subgroup_ballot",
	                                    "VK_EXT_shader_subgroup_vote" };
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.maintenance4 = VK_TRUE,   /* glslang's LocalSizeId */
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
		.features.shaderInt64 = VK_TRUE,   /* ballotARB's uint64_t */
	};
	struct vkh_device d;
	uint32_t n = 0, size = 0;
	unsigned bad;

	(void)unused;
	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, NULL);
	VkExtensionProperties *e = calloc(n ? n : 1, sizeof(*e));
	VKH_CHECK(h, e);
	vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, e);
	unsigned have = 0;
	for (uint32_t i = 0; i < n; i++)
		for (unsigned k = 0; k < 2; k++)
			have += !strcmp(e[i].extensionName, exts[k]);
	free(e);
	if (have != 2) {
		vkh_skip(h, "VK_EXT_shader_subgroup_ballot/_vote");
		return;
	}
	VKH_CHECK_VK(h, vkh_device_create_features_ext(h, VK_QUEUE_COMPUTE_BIT,
	                                               &f2, exts, 2, &d));
	bad = sg_run(h, &d, sg_arb_spv, sizeof(sg_arb_spv), check_arb, &size);
	printf("  ARB ballot and vote: gl_SubgroupSize %u, %s\n", size,
	       bad ? "WRONG" : "ok");
	vkh_device_destroy(h, &d);
	VKH_CHECK_MSG(h, bad == 0, "%u subgroup result(s) wrong", bad);
}

static void
test_subgroups(struct vkh *h, struct vkh_device *d)
{
	VkPhysicalDeviceSubgroupProperties sp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &sp,
	};
	struct sg_group *grp;
	unsigned ran = 0, bad = 0;

	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	printf("  subgroupSize %u, stages 0x%x, operations 0x%x\n",
	       sp.subgroupSize, sp.supportedStages, sp.supportedOperations);
	if (!(sp.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT)) {
		vkh_skip(h, "no subgroup operations in compute shaders");
		return;
	}
	VKH_CHECK_MSG(h, sp.subgroupSize >= 1 && sp.subgroupSize <= 128 &&
	              !(sp.subgroupSize & (sp.subgroupSize - 1)),
	              "subgroupSize %u is not a power of two in 1..128",
	              sp.subgroupSize);
	/* Vulkan 1.1+: BASIC in compute whenever subgroups are reported. */
	VKH_CHECK(h, sp.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
	grp = malloc(sizeof(*grp) * SG_GROUPS * 64);
	VKH_CHECK(h, grp);
	for (unsigned k = 0; k < sizeof(sg_ops) / sizeof(sg_ops[0]); k++) {
		struct vkh_buffer b[2] = { 0 };
		unsigned nb = 0;
		if (!(sp.supportedOperations & sg_ops[k].bit)) {
			printf("  %s: not reported, not tested\n",
			       sg_ops[k].name);
			continue;
		}
		if (vkh_host_buffer(h, d, SG_N * 4, 0, &b[0]) != VK_SUCCESS ||
		    vkh_host_buffer(h, d, SG_N * 64, 0, &b[1]) != VK_SUCCESS ||
		    (sg_inputs(b[0].map), vkh_compute_run(h, d, sg_ops[k].spv,
		                          sg_ops[k].size, b, 2, NULL, 0,
		                          SG_GROUPS, 1, 1)) != VK_SUCCESS) {
			vkh_buffer_destroy(d, &b[0]);
			vkh_buffer_destroy(d, &b[1]);
			free(grp);
			VKH_CHECK_MSG(h, false, "%s: run failed",
			              sg_ops[k].name);
		}
		if (sg_group_lanes(b[1].map, grp, &nb)) {
			for (uint32_t g = 0; g < SG_GROUPS * 64; g++)
				if (grp[g].count)
					nb += sg_ops[k].check(b[0].map,
					                      b[1].map, &grp[g]);
		}
		printf("  %s: gl_SubgroupSize %u, %s\n", sg_ops[k].name,
		       ((const uint32_t *)b[1].map)[2], nb ? "WRONG" : "ok");
		bad += nb;
		ran++;
		vkh_buffer_destroy(d, &b[0]);
		vkh_buffer_destroy(d, &b[1]);
	}
	free(grp);
	VKH_CHECK_MSG(h, bad == 0, "%u subgroup result(s) wrong", bad);
	VKH_CHECK(h, ran > 0);
}

static const struct vkh_test tests[] = {
	{ "atomics_contention", test_atomics, 1, VK_QUEUE_COMPUTE_BIT },
	{ "subgroup_operations", test_subgroups, 1, VK_QUEUE_COMPUTE_BIT },
	{ "subgroup_ext_ballot_vote", test_subgroup_ext, 0, 0 },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_compute_atomic", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

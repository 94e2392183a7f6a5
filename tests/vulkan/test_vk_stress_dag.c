/* SPDX-License-Identifier: MIT */
/*
 * Randomized DAG stress across every queue, three VkDevices at once, with
 * optional fault or hang injection into the middle one.
 *
 * Three VkDevices are created on the physical device, each with every
 * queue of every queue family that can run transfer commands (random
 * priorities: on swgpu LOW or NORMAL, so NORMAL work of one device
 * preempts long LOW jobs of another on the same engine), and one host
 * thread per device runs its own stress concurrently with the others:
 *
 * - A seeded PRNG builds a random DAG of jobs (STRESS_JOBS, default 200).
 *   Each job is one command buffer on a random queue that writes its own
 *   1 KiB slot in one of three buffers (device-local, host-visible
 *   readback memory, device-local host-visible memory where the driver
 *   has it): a header by vkCmdUpdateBuffer, then segments that are
 *   vkCmdFillBuffer / vkCmdUpdateBuffer values of its own or
 *   vkCmdCopyBuffer copies (byte offsets, several regions per call) of
 *   parts of the slots of the jobs it depends on. Every slot is written by
 *   its job only and everything starts as a poison value, so a job that
 *   runs before one of its inputs is complete (or not at all) leaves
 *   poison or a wrong value in its slot, which the host model (the same
 *   operations replayed in job order) catches. One job in 8 also fills
 *   its queue's 2 MiB ballast buffer (the last fill must stay), so queues
 *   back up behind long jobs.
 * - Each dependency is, at random: submission order on the same queue
 *   (plus the pipeline barrier every job starts with), a timeline
 *   semaphore wait (each queue has a timeline that every job signals with
 *   its position on the queue; the wait is sometimes for a later job of
 *   that queue), a binary semaphore (one per edge: signalled once, waited
 *   once), a fence the host waits for before it submits the dependent job,
 *   or a host vkWaitSemaphores on the timeline (host waits: all at once or
 *   "any" until done). Jobs are submitted in random order from a sliding
 *   window (STRESS_WINDOW, 1..8) as far as the rules allow (queue order,
 *   binary signal before its wait, a host wait only for submitted work),
 *   so timeline waits are often submitted before their signal
 *   (wait-before-signal); consecutive jobs of a queue are sometimes
 *   batched into one call; vkQueueSubmit2 is used for about half the
 *   calls when synchronization2 is available.
 * - At the end the host waits for every queue's timeline (bounded),
 *   vkDeviceWaitIdle, reads every buffer back and checks every slot and
 *   ballast word.
 *
 * The 1.3.239 validation layer's timeline tracking stalls and reports
 * UNASSIGNED-VkSemaphore-state-timeout ("most likely a validation bug";
 * the tracking was reworked upstream later, e.g. KhronosGroup/
 * Vulkan-ValidationLayers PR #8519) when a timeline wait is submitted
 * before its signal and the host then waits; so with the layer on, signals are
 * submitted first, and without it (VKH_NO_VALIDATION=1, sanitizer builds)
 * wait-before-signal is on. STRESS_WBS=0/1 overrides.
 *
 * Every wait of the test is bounded (vkDeviceWaitIdle has no timeout: it
 * comes only after bounded waits for all the work, and alarm() bounds the
 * process).
 *
 * Modes (argv[1]): "none" (default), "pagefault", "hang". The fault modes
 * need swgpu (skipped, exit 77, elsewhere): main() first looks at the
 * physical device through a throw-away instance, builds the DAGs, picks a
 * queue of device 1 and the job in the middle of that queue's stream, and
 * sets SWGPU_FAULT=<kind>:queue=<Q>:job=<N> before the real instance opens
 * the swgpu device. swgpu queue ids are device-wide, in creation order:
 * VkDevice k gets ids k*n .. k*n+n-1 for its n queues, created family by
 * family, queue index by queue index (icd/device.c); N counts the swgpu
 * jobs of that queue (one per VkSubmitInfo; queue 0 of each device also
 * ran the poison fill first). Then:
 * - device 1 must see VK_ERROR_DEVICE_LOST (from a submit or a wait) after
 *   the injected job was submitted and within 30 s; for a hang not before
 *   the hang timeout SWGPU_TIMEOUT_MS (ctest sets 500). The time from the
 *   injected submission to the loss is printed. Its timeline wait for the
 *   injected job and vkDeviceWaitIdle then return DEVICE_LOST;
 *   VK_EXT_device_fault names the injected queue, job and kind; recording
 *   a command buffer still gives only return codes the spec allows for
 *   those commands, and vkQueueSubmit refuses it with DEVICE_LOST; the
 *   slots of jobs the host saw complete before the loss are intact; it
 *   stops submitting and destroys everything, in bounded time;
 * - devices 0 and 2 never see DEVICE_LOST, report no fault, and all their
 *   data is correct.
 *
 * Validation: after the loss the layer never sees device 1's work
 * complete, so destroying its fences, semaphores and command buffers is
 * reported as "in use". Messages naming device 1's device, queues, pools,
 * timelines, buffers and memory are tolerated (vkh_tolerate_object), and
 * the in-use VUIDs of fences, semaphores, command buffers and pools are
 * expected from device 1's teardown on (too many objects to tolerate one
 * by one; the healthy devices tear down only after a successful
 * vkDeviceWaitIdle, so they cannot produce them, and mode "none"
 * tolerates nothing).
 *
 * Environment: STRESS_SEED (decimal or 0x-hex; default from time and pid,
 * always printed with the per-device seeds), STRESS_JOBS (jobs per
 * device), STRESS_WINDOW, STRESS_WBS.
 */
#include "vk_harness.h"

#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* About 0.1-0.7 s per mode, with the validation layer or under TSan;
 * STRESS_JOBS scales it up (3000: about 0.5 s without the layer). */
#define DEFAULT_JOBS 200

#define XFER (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | \
              VK_BUFFER_USAGE_TRANSFER_DST_BIT)
#define NDEV 3
#define INJECT_DEV 1
#define SLOT_WORDS 256u
#define SLOT_BYTES (SLOT_WORDS * 4u)
#define HDR_WORDS 4u
#define MAX_DEPS 3
#define MAX_SEGS 6
#define MAX_BIN_OUT 8
#define NBUF 3
#define SUBMIT_WINDOW 8
#define MAX_BATCH 4
#define POISON 0xa5a5a5a5u
#define BALLAST_BYTES (2u << 20) /* per queue */
#define BALLAST_ONE_IN 8
#define MS (1000ull * 1000)
#define WAIT_NS (20000 * MS)
#define LOST_BOUND_NS (30000 * MS)
#define MAX_JOBS 20000u /* 3 x 20 MiB of slots per device */

/* swgpu_fault_kind values reported as vendorFaultCode by
 * VK_EXT_device_fault (swgpu/include/swgpu/swgpu.h). */
#define SWGPU_KIND_HANG 5
#define SWGPU_KIND_INJECTED 7

enum mode { MODE_NONE, MODE_PAGEFAULT, MODE_HANG };
static const char *const mode_names[] = { "none", "pagefault", "hang" };

enum dep_kind {
	DEP_ORDER,    /* same queue: submission order + barrier */
	DEP_TIMELINE, /* GPU wait on the source queue's timeline */
	DEP_BINARY,   /* binary semaphore of this edge */
	DEP_FENCE,    /* host waits for the source's fence */
	DEP_HOST_TL,  /* host vkWaitSemaphores on the timeline */
	DEP_KINDS
};
static const char *const dep_names[] = { "order", "timeline", "binary",
	                                 "fence", "host-timeline" };

enum seg_kind { SEG_COPY, SEG_FILL, SEG_UPDATE };

struct dep {
	uint32_t src;   /* the job whose data is read */
	uint32_t eff;   /* the job whose completion is awaited (>= src,
	                   same queue): src except for later timeline values */
	uint64_t value; /* timeline value waited (position of eff) */
	uint8_t kind;
	VkSemaphore bin;
};

struct seg {
	uint8_t kind;
	uint16_t word0, nwords;  /* destination words in the slot */
	uint32_t src;            /* SEG_COPY: source job */
	uint32_t src_byte;       /* SEG_COPY: byte offset in its slot */
	uint32_t value;          /* SEG_FILL */
};

struct job {
	uint32_t q, pos;  /* queue index, 1-based position on it */
	uint8_t buf;
	uint8_t ndeps, nseg;
	bool fence_src;   /* some job waits for its fence */
	bool host_dep;    /* has a fence or host-timeline dependency */
	bool submitted;
	bool ballast;     /* also fills its queue's ballast buffer */
	uint32_t ballast_value;
	struct dep deps[MAX_DEPS];
	struct seg segs[MAX_SEGS];
	uint32_t nbin_out;
	VkSemaphore bin_out[MAX_BIN_OUT];
	VkFence fence;
	VkCommandBuffer cb;
};

/* What main() learned from the throw-away instance. */
static struct {
	bool swgpu;
	uint32_t nfam;
	uint32_t fam_queues[16]; /* queues created per family (0: none) */
	uint32_t nq;             /* queues per VkDevice */
	char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
} probe;

static enum mode g_mode;
static uint64_t g_seed;
static uint32_t g_jobs;
static uint32_t g_window = SUBMIT_WINDOW;
static bool g_wbs = true; /* timeline waits may precede their signal */

/* The injection target (fault modes, device INJECT_DEV). */
static struct {
	uint32_t q;      /* queue index in the device */
	uint32_t pos;    /* DAG position on that queue */
	uint32_t job;    /* DAG job index */
	uint32_t qid;    /* swgpu queue id */
	uint64_t swjob;  /* swgpu job number on that queue */
	char spec[96];
} inj;

struct sdev {
	uint32_t index;
	struct vkh *h;
	struct vkh_device d;
	bool fault_ext;
	bool inject;
	uint64_t seed;
	uint32_t njobs, nq;
	struct job *jobs;
	uint32_t qcount[VKH_MAX_QUEUES];
	uint32_t *qjobs[VKH_MAX_QUEUES]; /* job index by position - 1 */
	float prio[VKH_MAX_QUEUES];
	uint8_t *model[NBUF];

	struct vkh_buffer buf[NBUF];
	struct vkh_buffer rb;
	struct vkh_buffer ballast[VKH_MAX_QUEUES];
	uint32_t ballast_want[VKH_MAX_QUEUES];
	VkSemaphore tl[VKH_MAX_QUEUES];

	/* progress */
	uint32_t qnext[VKH_MAX_QUEUES]; /* next position to submit */
	uint32_t qdone[VKH_MAX_QUEUES]; /* positions seen complete */
	uint32_t nsubmitted;

	/* loss */
	bool lost;
	uint64_t t_inject, t_lost;
	char lost_where[128];

	/* stats */
	uint32_t ndep[DEP_KINDS];
	uint32_t calls, calls2, batched, wbs, host_waits, nballast;
	uint64_t t_start, t_end;

	/* failures */
	int failures;
	bool timed_out;
	char first_error[512];
};

static struct sdev devs[NDEV];
static pthread_barrier_t start_barrier;

static uint64_t env_u64(const char *name, uint64_t dflt);

/* ------------------------------------------------------------------ */
/* PRNG and values                                                     */
/* ------------------------------------------------------------------ */

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t
rnd(uint64_t *s, uint32_t n)
{
	return n ? (uint32_t)(splitmix64(s) % n) : 0;
}

static uint32_t
mix32(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t s = a ^ (b * 0xc2b2ae3d27d4eb4full) ^
	             (c * 0x165667b19e3779f9ull);
	uint32_t v = (uint32_t)splitmix64(&s);

	return v == POISON ? v ^ 1 : v;
}

/* Word w of job j's header or update segments. */
static uint32_t
update_word(const struct sdev *c, uint32_t j, uint32_t w)
{
	return mix32(c->seed, j, w);
}

/* ------------------------------------------------------------------ */
/* Failures (per device thread)                                        */
/* ------------------------------------------------------------------ */

static void
dev_fail(struct sdev *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
dev_fail(struct sdev *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "  [dev %u] FAIL (seed %" PRIu64 ", mode %s): %s\n",
	        c->index, g_seed, mode_names[g_mode], msg);
	if (!c->failures++)
		snprintf(c->first_error, sizeof(c->first_error), "%s", msg);
}

static uint64_t
handle(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* ------------------------------------------------------------------ */
/* The DAG                                                             */
/* ------------------------------------------------------------------ */

static uint32_t
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

static void
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

static void
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
static void
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

static void
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

static void
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

/* ------------------------------------------------------------------ */
/* Devices and objects                                                 */
/* ------------------------------------------------------------------ */

static bool
fault_ext_supported(struct vkh *h)
{
	VkPhysicalDeviceFaultFeaturesEXT ff = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &ff,
	};
	VkExtensionProperties ext[256];
	uint32_t n = 256;
	bool found = false;

	if (vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, ext) < 0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		found |= !strcmp(ext[i].extensionName,
		                 VK_EXT_DEVICE_FAULT_EXTENSION_NAME);
	if (!found)
		return false;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	return ff.deviceFault;
}

/* Every queue of every family in probe order (family by family, index by
 * index: the order in which swgpu assigns queue ids). */
static VkResult
create_device(struct vkh *h, bool fault_ext, const float *prio,
              struct vkh_device *d)
{
	VkDeviceQueueCreateInfo qci[16];
	uint32_t nqci = 0, n = 0;
	VkPhysicalDeviceFaultFeaturesEXT ff = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FAULT_FEATURES_EXT,
		.deviceFault = VK_TRUE,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.pNext = fault_ext ? &ff : NULL,
		.timelineSemaphore = VK_TRUE,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
		.synchronization2 = h->synchronization2,
	};
	const char *ext = VK_EXT_DEVICE_FAULT_EXTENSION_NAME;
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f13,
		.pQueueCreateInfos = qci,
		.enabledExtensionCount = fault_ext ? 1 : 0,
		.ppEnabledExtensionNames = &ext,
	};
	VkResult r;

	memset(d, 0, sizeof(*d));
	for (uint32_t f = 0; f < probe.nfam; f++) {
		if (!probe.fam_queues[f])
			continue;
		qci[nqci++] = (VkDeviceQueueCreateInfo){
			.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			.queueFamilyIndex = f,
			.queueCount = probe.fam_queues[f],
			.pQueuePriorities = prio + n,
		};
		for (uint32_t i = 0; i < probe.fam_queues[f]; i++) {
			d->queues[n].family = f;
			d->queues[n].index = i;
			n++;
		}
	}
	dci.queueCreateInfoCount = nqci;
	d->distinct_families = nqci;
	r = vkCreateDevice(h->phys, &dci, NULL, &d->device);
	if (r != VK_SUCCESS) {
		d->device = VK_NULL_HANDLE;
		return r;
	}
	d->queue_count = n;
	for (uint32_t i = 0; i < n; i++) {
		struct vkh_queue *q = &d->queues[i];
		VkCommandPoolCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
			.queueFamilyIndex = q->family,
		};

		vkGetDeviceQueue(d->device, q->family, q->index, &q->queue);
		q->flags = h->families[q->family].queueFlags;
		r = vkCreateCommandPool(d->device, &pci, NULL, &q->pool);
		if (r != VK_SUCCESS) {
			vkh_device_destroy(h, d);
			return r;
		}
		d->distinct_queues++;
	}
	return VK_SUCCESS;
}

static VkSemaphore
make_semaphore(struct sdev *c, bool timeline)
{
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = timeline ? VK_SEMAPHORE_TYPE_TIMELINE :
		                            VK_SEMAPHORE_TYPE_BINARY,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VkSemaphore s = VK_NULL_HANDLE;

	if (vkCreateSemaphore(c->d.device, &sci, NULL, &s) != VK_SUCCESS)
		return VK_NULL_HANDLE;
	return s;
}

static bool
create_objects(struct sdev *c)
{
	struct vkh *h = c->h;
	VkDeviceSize size = (VkDeviceSize)c->njobs * SLOT_BYTES;
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	int bar = vkh_find_memory_type(h, ~0u,
	                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
	                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
	                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
	                               0);
	VkResult r;

	r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_DEVICE_LOCAL, -1,
	                      &c->buf[0]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_READBACK,
		                      -1, &c->buf[1]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER,
		                      VKH_MEM_UPLOAD, bar, &c->buf[2]);
	if (r == VK_SUCCESS)
		r = vkh_buffer_create(h, &c->d, size, XFER, VKH_MEM_READBACK,
		                      -1, &c->rb);
	for (uint32_t q = 0; q < c->nq && r == VK_SUCCESS; q++)
		r = vkh_buffer_create(h, &c->d, BALLAST_BYTES, XFER,
		                      VKH_MEM_READBACK, -1, &c->ballast[q]);
	if (r != VK_SUCCESS) {
		dev_fail(c, "buffers: %s", vkh_result_str(r));
		return false;
	}
	for (uint32_t q = 0; q < c->nq; q++) {
		c->tl[q] = make_semaphore(c, true);
		if (!c->tl[q]) {
			dev_fail(c, "timeline semaphore");
			return false;
		}
	}
	for (uint32_t j = 0; j < c->njobs; j++) {
		struct job *J = &c->jobs[j];

		for (uint32_t k = 0; k < J->ndeps; k++) {
			struct dep *d = &J->deps[k];
			struct job *S = &c->jobs[d->src];

			if (d->kind != DEP_BINARY)
				continue;
			d->bin = make_semaphore(c, false);
			if (!d->bin) {
				dev_fail(c, "binary semaphore");
				return false;
			}
			S->bin_out[S->nbin_out++] = d->bin;
		}
		if (J->fence_src &&
		    vkCreateFence(c->d.device, &fci, NULL, &J->fence) !=
		    VK_SUCCESS) {
			dev_fail(c, "fence");
			return false;
		}
	}
	return true;
}

/* Poison every buffer: swgpu job 1 of queue 0 (prepare() counts it). */
static bool
poison_buffers(struct sdev *c)
{
	VkCommandBuffer cb = vkh_cmd_begin(&c->d, 0);
	VkResult r;

	if (!cb) {
		dev_fail(c, "command buffer for the poison fill");
		return false;
	}
	for (int b = 0; b < NBUF; b++)
		vkCmdFillBuffer(cb, c->buf[b].buffer, 0, VK_WHOLE_SIZE,
		                POISON);
	for (uint32_t q = 0; q < c->nq; q++)
		vkCmdFillBuffer(cb, c->ballast[q].buffer, 0, VK_WHOLE_SIZE,
		                POISON);
	vkh_cmd_host_barrier(cb);
	r = vkh_cmd_submit_wait(&c->d, 0, cb);
	if (r != VK_SUCCESS) {
		dev_fail(c, "poison fill: %s", vkh_result_str(r));
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Recording and submission                                            */
/* ------------------------------------------------------------------ */

/* Record job j into J->cb; the failing call's name in *what. */
static VkResult
record_job(struct sdev *c, uint64_t *s, uint32_t j, const char **what)
{
	struct job *J = &c->jobs[j];
	VkBuffer dst = c->buf[J->buf].buffer;
	VkDeviceSize base = (VkDeviceSize)j * SLOT_BYTES;
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->d.queues[J->q].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;
	VkResult r;
	/* ops: 0 = header, 1 + k = segment k (copies grouped by source
	 * buffer at their first segment) */
	uint32_t ops[MAX_SEGS + 2], nops = 0;
	bool done_src[NBUF] = { false };
	uint32_t words[SLOT_WORDS];

	*what = "vkAllocateCommandBuffers";
	r = vkAllocateCommandBuffers(c->d.device, &ai, &cb);
	if (r != VK_SUCCESS)
		return r;
	J->cb = cb;
	*what = "vkBeginCommandBuffer";
	r = vkBeginCommandBuffer(cb, &bi);
	if (r != VK_SUCCESS)
		return r;
	/* Makes earlier jobs of this queue (submission order) visible. */
	vkh_cmd_transfer_barrier(cb);
	ops[nops++] = 0;
	for (uint32_t k = 0; k < J->nseg; k++)
		ops[nops++] = 1 + k;
	if (J->ballast)
		ops[nops++] = MAX_SEGS + 1;
	for (uint32_t i = nops; i > 1; i--) {
		uint32_t k = rnd(s, i), t = ops[i - 1];
		ops[i - 1] = ops[k];
		ops[k] = t;
	}
	for (uint32_t o = 0; o < nops; o++) {
		const struct seg *g;

		if (ops[o] == 0) {
			for (uint32_t i = 0; i < HDR_WORDS; i++)
				words[i] = update_word(c, j, i);
			vkCmdUpdateBuffer(cb, dst, base, HDR_WORDS * 4u,
			                  words);
			continue;
		}
		if (ops[o] == MAX_SEGS + 1) {
			vkCmdFillBuffer(cb, c->ballast[J->q].buffer, 0,
			                VK_WHOLE_SIZE, J->ballast_value);
			continue;
		}
		g = &J->segs[ops[o] - 1];
		switch (g->kind) {
		case SEG_FILL:
			vkCmdFillBuffer(cb, dst, base + g->word0 * 4u,
			                g->nwords * 4u, g->value);
			break;
		case SEG_UPDATE:
			for (uint32_t i = 0; i < g->nwords; i++)
				words[i] = update_word(c, j, g->word0 + i);
			vkCmdUpdateBuffer(cb, dst, base + g->word0 * 4u,
			                  g->nwords * 4u, words);
			break;
		case SEG_COPY: {
			uint32_t sb = c->jobs[g->src].buf;
			VkBufferCopy reg[MAX_SEGS];
			uint32_t nreg = 0;

			if (done_src[sb])
				break;
			done_src[sb] = true;
			for (uint32_t k = 0; k < J->nseg; k++) {
				const struct seg *x = &J->segs[k];

				if (x->kind != SEG_COPY ||
				    c->jobs[x->src].buf != sb)
					continue;
				reg[nreg++] = (VkBufferCopy){
					.srcOffset = (VkDeviceSize)x->src *
					             SLOT_BYTES + x->src_byte,
					.dstOffset = base + x->word0 * 4u,
					.size = x->nwords * 4u,
				};
			}
			vkCmdCopyBuffer(cb, c->buf[sb].buffer, dst, nreg, reg);
			break;
		}
		}
	}
	vkh_cmd_host_barrier(cb);
	*what = "vkEndCommandBuffer";
	return vkEndCommandBuffer(cb);
}

/* Lowest index not yet submitted. */
static uint32_t
lowest_unsubmitted(const struct sdev *c)
{
	uint32_t lo = 0;

	while (lo < c->njobs && c->jobs[lo].submitted)
		lo++;
	return lo;
}

/*
 * May job j be submitted now? Its queue's order is job order; a binary
 * wait needs its signal submitted first (Vulkan rule); a host wait for a
 * job needs every job up to it submitted, so the awaited job can
 * complete. Timeline waits need nothing: wait-before-signal. The lowest
 * unsubmitted job is always ready, and no queue ever waits for work
 * behind itself (every wait names an earlier job), so nothing deadlocks.
 */
static bool
ready(const struct sdev *c, uint32_t j, uint32_t lo, bool in_batch)
{
	const struct job *J = &c->jobs[j];

	if (J->submitted || c->qnext[J->q] != J->pos)
		return false;
	if (in_batch && J->host_dep)
		return false;
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];

		if (d->kind == DEP_BINARY && !c->jobs[d->src].submitted)
			return false;
		if (d->kind == DEP_TIMELINE && !g_wbs &&
		    !c->jobs[d->eff].submitted)
			return false;
		if ((d->kind == DEP_FENCE || d->kind == DEP_HOST_TL) &&
		    lo <= d->eff)
			return false;
	}
	return true;
}

/* Record a loss (first one wins); true if r is DEVICE_LOST. */
static bool
note_lost(struct sdev *c, VkResult r, const char *what, uint32_t j)
{
	if (r != VK_ERROR_DEVICE_LOST)
		return false;
	if (!c->lost) {
		c->lost = true;
		c->t_lost = vkh_now_ns();
		snprintf(c->lost_where, sizeof(c->lost_where),
		         "%s (job %u)", what, j);
	}
	return true;
}

static void
dump_progress(struct sdev *c, const char *why)
{
	fprintf(stderr, "  [dev %u] %s; seed %" PRIu64 "; timelines:", c->index,
	        why, g_seed);
	for (uint32_t q = 0; q < c->nq; q++) {
		uint64_t v = ~0ull;

		vkGetSemaphoreCounterValue(c->d.device, c->tl[q], &v);
		fprintf(stderr, " q%u %llu/%u (submitted %u)", q,
		        (unsigned long long)v, c->qcount[q], c->qnext[q] - 1);
	}
	fputc('\n', stderr);
}

/* The result of a host wait: true to go on. */
static bool
host_wait_ok(struct sdev *c, VkResult r, const char *what, uint32_t j)
{
	if (r == VK_SUCCESS)
		return true;
	if (note_lost(c, r, what, j))
		return false;
	dev_fail(c, "job %u: %s: %s", j, what, vkh_result_str(r));
	if (r == VK_TIMEOUT) {
		c->timed_out = true;
		dump_progress(c, "host wait timed out");
	}
	return false;
}

/* Wait for fences: all at once, or "any" until none is left. */
static bool
wait_fences(struct sdev *c, uint64_t *s, uint32_t j, VkFence *f, uint32_t n)
{
	VkResult r;

	if (n == 1 || rnd(s, 2)) {
		r = vkWaitForFences(c->d.device, n, f, VK_TRUE, WAIT_NS);
		if (!host_wait_ok(c, r, "vkWaitForFences(all)", j))
			return false;
		n = 0;
	}
	while (n) {
		uint32_t left = 0;

		r = vkWaitForFences(c->d.device, n, f, VK_FALSE, WAIT_NS);
		if (!host_wait_ok(c, r, "vkWaitForFences(any)", j))
			return false;
		for (uint32_t m = 0; m < n; m++) {
			r = vkGetFenceStatus(c->d.device, f[m]);
			if (r == VK_NOT_READY)
				f[left++] = f[m];
			else if (!host_wait_ok(c, r, "vkGetFenceStatus", j))
				return false;
		}
		if (left == n) {
			dev_fail(c, "job %u: vkWaitForFences(any) returned "
			         "with none of %u fences signalled", j, n);
			return false;
		}
		n = left;
	}
	return true;
}

/* Wait for timeline values: all at once, or "any" until none is left;
 * then every counter must have reached its value. */
static bool
wait_timelines(struct sdev *c, uint64_t *s, uint32_t j, VkSemaphore *sem,
               uint64_t *val, uint32_t n)
{
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.semaphoreCount = n,
		.pSemaphores = sem,
		.pValues = val,
	};
	bool any = n > 1 && rnd(s, 2);
	VkResult r;

	wi.flags = any ? VK_SEMAPHORE_WAIT_ANY_BIT : 0;
	while (wi.semaphoreCount) {
		uint32_t left = 0;

		r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
		if (!host_wait_ok(c, r, any ? "vkWaitSemaphores(any)" :
		                             "vkWaitSemaphores(all)", j))
			return false;
		for (uint32_t m = 0; m < wi.semaphoreCount; m++) {
			uint64_t v = 0;

			r = vkGetSemaphoreCounterValue(c->d.device, sem[m], &v);
			if (!host_wait_ok(c, r, "vkGetSemaphoreCounterValue",
			                  j))
				return false;
			if (v < val[m]) {
				sem[left] = sem[m];
				val[left++] = val[m];
			}
		}
		if (left == wi.semaphoreCount || (left && !any)) {
			dev_fail(c, "job %u: vkWaitSemaphores(%s) returned "
			         "with %u of %u values not reached", j,
			         any ? "any" : "all", left, wi.semaphoreCount);
			return false;
		}
		wi.semaphoreCount = left;
	}
	return true;
}

/* Host-side dependencies of job j; false to stop. */
static bool
host_waits(struct sdev *c, uint64_t *s, uint32_t j)
{
	struct job *J = &c->jobs[j];
	VkFence fences[MAX_DEPS];
	VkSemaphore sems[MAX_DEPS];
	uint64_t vals[MAX_DEPS];
	uint32_t nf = 0, ns = 0;

	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		bool merged = false;

		if (d->kind == DEP_FENCE) {
			for (uint32_t m = 0; m < nf; m++)
				merged |= fences[m] == c->jobs[d->src].fence;
			if (!merged)
				fences[nf++] = c->jobs[d->src].fence;
		} else if (d->kind == DEP_HOST_TL) {
			VkSemaphore sem = c->tl[c->jobs[d->eff].q];

			/* Same semaphore twice: the larger value. */
			for (uint32_t m = 0; m < ns; m++) {
				if (sems[m] == sem) {
					if (d->value > vals[m])
						vals[m] = d->value;
					merged = true;
				}
			}
			if (!merged) {
				sems[ns] = sem;
				vals[ns++] = d->value;
			}
		}
	}
	if (nf) {
		c->host_waits++;
		if (!wait_fences(c, s, j, fences, nf))
			return false;
	}
	if (ns) {
		c->host_waits++;
		if (!wait_timelines(c, s, j, sems, vals, ns))
			return false;
	}
	/* Completed for sure: what the waits covered. */
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		const struct job *E = &c->jobs[d->eff];

		if ((d->kind == DEP_FENCE || d->kind == DEP_HOST_TL) &&
		    c->qdone[E->q] < E->pos)
			c->qdone[E->q] = E->pos;
	}
	return true;
}

struct sub {
	VkSemaphore ws[MAX_DEPS];
	uint64_t wv[MAX_DEPS];
	VkPipelineStageFlags wst[MAX_DEPS];
	uint32_t nw;
	VkSemaphore ss[1 + MAX_BIN_OUT];
	uint64_t sv[1 + MAX_BIN_OUT];
	uint32_t ns;
	VkTimelineSemaphoreSubmitInfo tsi;
	VkSemaphoreSubmitInfo w2[MAX_DEPS], s2[1 + MAX_BIN_OUT];
	VkCommandBufferSubmitInfo cbi;
};

static void
build_sub(struct sdev *c, uint32_t j, struct sub *b)
{
	const struct job *J = &c->jobs[j];

	b->nw = 0;
	for (uint32_t k = 0; k < J->ndeps; k++) {
		const struct dep *d = &J->deps[k];
		VkSemaphore sem;
		uint64_t v = 0;
		bool merged = false;

		if (d->kind == DEP_TIMELINE) {
			sem = c->tl[c->jobs[d->eff].q];
			v = d->value;
			/* Wait-before-signal: the signal comes later. */
			c->wbs += !c->jobs[d->eff].submitted;
		} else if (d->kind == DEP_BINARY) {
			sem = d->bin;
		} else {
			continue;
		}
		for (uint32_t m = 0; m < b->nw; m++) {
			if (b->ws[m] == sem) {
				if (v > b->wv[m])
					b->wv[m] = v;
				merged = true;
			}
		}
		if (merged)
			continue;
		b->ws[b->nw] = sem;
		b->wv[b->nw] = v;
		b->wst[b->nw] = VK_PIPELINE_STAGE_TRANSFER_BIT;
		b->nw++;
	}
	b->ns = 0;
	b->ss[b->ns] = c->tl[J->q];
	b->sv[b->ns++] = J->pos;
	for (uint32_t k = 0; k < J->nbin_out; k++) {
		b->ss[b->ns] = J->bin_out[k];
		b->sv[b->ns++] = 0;
	}
	b->tsi = (VkTimelineSemaphoreSubmitInfo){
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = b->nw,
		.pWaitSemaphoreValues = b->wv,
		.signalSemaphoreValueCount = b->ns,
		.pSignalSemaphoreValues = b->sv,
	};
	for (uint32_t m = 0; m < b->nw; m++)
		b->w2[m] = (VkSemaphoreSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			.semaphore = b->ws[m],
			.value = b->wv[m],
			.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
		};
	for (uint32_t m = 0; m < b->ns; m++)
		b->s2[m] = (VkSemaphoreSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
			.semaphore = b->ss[m],
			.value = b->sv[m],
			.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
		};
	b->cbi = (VkCommandBufferSubmitInfo){
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
		.commandBuffer = J->cb,
	};
}

/* Submit jobs batch[0..n) (consecutive jobs of one queue) in one call. */
static VkResult
submit_batch(struct sdev *c, uint64_t *s, const uint32_t *batch, uint32_t n)
{
	struct sub sb[MAX_BATCH];
	VkSubmitInfo si[MAX_BATCH];
	VkSubmitInfo2 si2[MAX_BATCH];
	const struct job *last = &c->jobs[batch[n - 1]];
	VkQueue queue = c->d.queues[last->q].queue;
	bool use2 = c->h->synchronization2 && rnd(s, 2);

	for (uint32_t i = 0; i < n; i++) {
		const struct job *J = &c->jobs[batch[i]];

		build_sub(c, batch[i], &sb[i]);
		si[i] = (VkSubmitInfo){
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &sb[i].tsi,
			.waitSemaphoreCount = sb[i].nw,
			.pWaitSemaphores = sb[i].ws,
			.pWaitDstStageMask = sb[i].wst,
			.commandBufferCount = 1,
			.pCommandBuffers = &J->cb,
			.signalSemaphoreCount = sb[i].ns,
			.pSignalSemaphores = sb[i].ss,
		};
		si2[i] = (VkSubmitInfo2){
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			.waitSemaphoreInfoCount = sb[i].nw,
			.pWaitSemaphoreInfos = sb[i].w2,
			.commandBufferInfoCount = 1,
			.pCommandBufferInfos = &sb[i].cbi,
			.signalSemaphoreInfoCount = sb[i].ns,
			.pSignalSemaphoreInfos = sb[i].s2,
		};
	}
	c->calls++;
	c->calls2 += use2;
	c->batched += n > 1;
	return use2 ? vkQueueSubmit2(queue, n, si2, last->fence) :
	              vkQueueSubmit(queue, n, si, last->fence);
}

static void
run_dag(struct sdev *c)
{
	uint64_t s = c->seed ^ 0x5b5b5b5bull;

	while (c->nsubmitted < c->njobs && !c->lost && !c->failures) {
		uint32_t lo = lowest_unsubmitted(c);
		uint32_t cand[SUBMIT_WINDOW], ncand = 0;
		uint32_t batch[MAX_BATCH], n = 0;
		uint32_t j;
		VkResult r;

		for (uint32_t k = lo; k < c->njobs && k < lo + g_window; k++)
			if (ready(c, k, lo, false))
				cand[ncand++] = k;
		if (!ncand) {
			dev_fail(c, "no job ready (test bug)");
			return;
		}
		j = cand[rnd(&s, ncand)];
		if (!host_waits(c, &s, j))
			return;
		batch[n++] = j;
		c->jobs[j].submitted = true;
		c->qnext[c->jobs[j].q]++;
		/* Batch the next jobs of the queue now and then; a fence
		 * rides on the last job of a call, so it ends a batch. */
		if (!c->jobs[j].fence_src && rnd(&s, 100) < 30) {
			uint32_t q = c->jobs[j].q;

			while (n < MAX_BATCH && c->qnext[q] <= c->qcount[q]) {
				uint32_t k = c->qjobs[q][c->qnext[q] - 1];

				if (k >= lo + 2 * g_window ||
				    !ready(c, k, lowest_unsubmitted(c), true))
					break;
				batch[n++] = k;
				c->jobs[k].submitted = true;
				c->qnext[q]++;
				if (c->jobs[k].fence_src)
					break;
			}
		}
		for (uint32_t i = 0; i < n; i++) {
			const char *what = "";

			r = record_job(c, &s, batch[i], &what);
			if (note_lost(c, r, what, batch[i])) {
				dev_fail(c, "%s (job %u) returned "
				         "VK_ERROR_DEVICE_LOST, a code the spec "
				         "does not allow for it", what,
				         batch[i]);
				return;
			}
			if (r != VK_SUCCESS) {
				dev_fail(c, "recording job %u: %s: %s",
				         batch[i], what, vkh_result_str(r));
				return;
			}
		}
		for (uint32_t i = 0; i < n; i++) {
			if (c->inject && batch[i] == inj.job) {
				c->t_inject = vkh_now_ns();
				printf("  [dev %u] submitting the injected job "
				       "(DAG job %u = swgpu queue %u job %llu)"
				       " after %u jobs\n", c->index, inj.job,
				       inj.qid, (unsigned long long)inj.swjob,
				       c->nsubmitted + i);
			}
		}
		r = submit_batch(c, &s, batch, n);
		c->nsubmitted += n;
		if (note_lost(c, r, "vkQueueSubmit", j))
			return;
		if (r != VK_SUCCESS) {
			dev_fail(c, "vkQueueSubmit(%u jobs from %u): %s", n, j,
			         vkh_result_str(r));
			return;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

/* Compare slots with the model; only_done: just the host-visible slots
 * of jobs the host saw complete. Returns the slots checked. */
static uint32_t
verify(struct sdev *c, uint8_t *const got[NBUF], bool only_done)
{
	uint32_t bad = 0, checked = 0;

	for (uint32_t j = 0; j < c->njobs; j++) {
		const struct job *J = &c->jobs[j];
		size_t off = (size_t)j * SLOT_BYTES;
		const uint32_t *e = (const uint32_t *)(c->model[J->buf] + off);
		const uint32_t *g;
		char desc[256];
		uint32_t w;

		if (!got[J->buf])
			continue;
		if (only_done && J->pos > c->qdone[J->q])
			continue;
		checked++;
		g = (const uint32_t *)(got[J->buf] + off);
		if (!memcmp(e, g, SLOT_BYTES))
			continue;
		for (w = 0; w < SLOT_WORDS && e[w] == g[w]; w++)
			;
		if (bad++ < 8) {
			const char *what = "header";

			for (uint32_t k = 0; k < J->nseg && w >= HDR_WORDS;
			     k++) {
				const struct seg *x = &J->segs[k];
				static const char *const kn[] = {
					"copy", "fill", "update" };
				if (w >= x->word0 && w < x->word0 + x->nwords)
					what = kn[x->kind];
			}
			describe_job(c, j, desc, sizeof(desc));
			dev_fail(c, "%s: word %u (%s) = 0x%08x, want 0x%08x%s",
			         desc, w, what, g[w], e[w],
			         g[w] == POISON ? " (poison: not written)" :
			                          "");
		}
	}
	if (bad)
		dev_fail(c, "%u of %u slots wrong", bad, c->njobs);
	return checked;
}

/* Read every buffer back and check it (healthy device). */
static void
verify_all(struct sdev *c)
{
	uint8_t *got[NBUF] = { NULL };
	uint8_t *copy = NULL;
	VkDeviceSize size = (VkDeviceSize)c->njobs * SLOT_BYTES;

	for (int b = 0; b < NBUF; b++) {
		if (c->buf[b].map) {
			vkh_buffer_invalidate(c->h, &c->d, &c->buf[b]);
			got[b] = c->buf[b].map;
			continue;
		}
		/* One device-local buffer at most: through rb. */
		VkResult r = vkh_copy_sync(&c->d, 0, c->buf[b].buffer, 0,
		                           c->rb.buffer, 0, size);
		if (r != VK_SUCCESS) {
			dev_fail(c, "readback copy: %s", vkh_result_str(r));
			return;
		}
		vkh_buffer_invalidate(c->h, &c->d, &c->rb);
		copy = malloc(size);
		memcpy(copy, c->rb.map, size);
		got[b] = copy;
	}
	verify(c, got, false);
	free(copy);
	for (uint32_t q = 0; q < c->nq; q++) {
		const uint32_t *w = c->ballast[q].map;

		vkh_buffer_invalidate(c->h, &c->d, &c->ballast[q]);
		for (uint32_t i = 0; i < BALLAST_BYTES / 4; i++) {
			if (w[i] != c->ballast_want[q]) {
				dev_fail(c, "queue %u ballast word %u = 0x%08x, "
				         "want 0x%08x (its last ballast job's)",
				         q, i, w[i], c->ballast_want[q]);
				break;
			}
		}
	}
}

/* VK_EXT_device_fault: the injected queue and job, or no fault. */
static void
check_fault_info(struct sdev *c, bool want_fault)
{
	PFN_vkGetDeviceFaultInfoEXT get = (PFN_vkGetDeviceFaultInfoEXT)
		vkGetDeviceProcAddr(c->d.device, "vkGetDeviceFaultInfoEXT");
	VkDeviceFaultCountsEXT counts = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_COUNTS_EXT,
	};
	VkDeviceFaultAddressInfoEXT addr[4];
	VkDeviceFaultVendorInfoEXT vendor[2];
	VkDeviceFaultInfoEXT info = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_FAULT_INFO_EXT,
		.pAddressInfos = addr,
		.pVendorInfos = vendor,
	};
	char want[64];
	VkResult r;

	if (!c->fault_ext)
		return;
	if (!get) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT missing");
		return;
	}
	r = get(c->d.device, &counts, NULL);
	if (r != VK_SUCCESS) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT counts: %s",
		         vkh_result_str(r));
		return;
	}
	if (!want_fault) {
		if (counts.vendorInfoCount || counts.addressInfoCount)
			dev_fail(c, "healthy device reports a fault (%u "
			         "address, %u vendor infos)",
			         counts.addressInfoCount,
			         counts.vendorInfoCount);
		return;
	}
	if (counts.vendorInfoCount != 1 || counts.addressInfoCount > 4) {
		dev_fail(c, "fault counts: %u address, %u vendor infos",
		         counts.addressInfoCount, counts.vendorInfoCount);
		return;
	}
	memset(addr, 0, sizeof(addr));
	memset(vendor, 0, sizeof(vendor));
	r = get(c->d.device, &counts, &info);
	if (r != VK_SUCCESS) {
		dev_fail(c, "vkGetDeviceFaultInfoEXT: %s", vkh_result_str(r));
		return;
	}
	printf("  [dev %u] fault info: \"%s\" (code %llu, data 0x%llx)\n",
	       c->index, info.description,
	       (unsigned long long)vendor[0].vendorFaultCode,
	       (unsigned long long)vendor[0].vendorFaultData);
	snprintf(want, sizeof(want), "queue %u job %llu:", inj.qid,
	         (unsigned long long)inj.swjob);
	if (!strstr(info.description, want))
		dev_fail(c, "fault description \"%s\" does not name \"%s\"",
		         info.description, want);
	if ((uint32_t)vendor[0].vendorFaultData != inj.qid)
		dev_fail(c, "fault on swgpu queue %u, injected into %u",
		         (uint32_t)vendor[0].vendorFaultData, inj.qid);
	if (vendor[0].vendorFaultCode != (g_mode == MODE_HANG ?
	                                  SWGPU_KIND_HANG :
	                                  SWGPU_KIND_INJECTED))
		dev_fail(c, "fault kind %llu for mode %s",
		         (unsigned long long)vendor[0].vendorFaultCode,
		         mode_names[g_mode]);
}

/* After the last submission: wait (bounded) for every queue's last
 * job, then vkDeviceWaitIdle. A loss is noted, not failed here. */
static void
final_wait(struct sdev *c)
{
	VkSemaphore sems[VKH_MAX_QUEUES];
	uint64_t vals[VKH_MAX_QUEUES];
	uint32_t n = 0;
	VkSemaphoreWaitInfo wi = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
		.pSemaphores = sems,
		.pValues = vals,
	};
	VkResult r;

	for (uint32_t q = 0; q < c->nq; q++) {
		if (!c->qcount[q])
			continue;
		sems[n] = c->tl[q];
		vals[n++] = c->qcount[q];
	}
	wi.semaphoreCount = n;
	r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
	if (note_lost(c, r, "final vkWaitSemaphores", c->njobs))
		return;
	if (r != VK_SUCCESS) {
		dev_fail(c, "final timeline wait: %s", vkh_result_str(r));
		if (r == VK_TIMEOUT) {
			c->timed_out = true;
			dump_progress(c, "final wait timed out");
		}
		return;
	}
	c->t_end = vkh_now_ns();
	for (uint32_t q = 0; q < c->nq; q++) {
		uint64_t v = 0;

		r = vkGetSemaphoreCounterValue(c->d.device, c->tl[q], &v);
		if (r != VK_SUCCESS || v != c->qcount[q])
			dev_fail(c, "queue %u timeline %llu, want %u (%s)", q,
			         (unsigned long long)v, c->qcount[q],
			         vkh_result_str(r));
	}
	r = vkDeviceWaitIdle(c->d.device);
	if (!note_lost(c, r, "vkDeviceWaitIdle", c->njobs) && r != VK_SUCCESS)
		dev_fail(c, "vkDeviceWaitIdle: %s", vkh_result_str(r));
}

/* After a healthy run: all work done and right, no fault. */
static void
finish_healthy(struct sdev *c)
{
	VkResult r;

	for (uint32_t j = 0; j < c->njobs; j++) {
		if (!c->jobs[j].fence)
			continue;
		r = vkGetFenceStatus(c->d.device, c->jobs[j].fence);
		if (r != VK_SUCCESS) {
			dev_fail(c, "job %u fence: %s", j, vkh_result_str(r));
			return;
		}
	}
	verify_all(c);
	check_fault_info(c, false);
}

/*
 * Recording on a lost device: vkAllocateCommandBuffers,
 * vkBeginCommandBuffer and vkEndCommandBuffer may fail only with
 * VK_ERROR_OUT_OF_HOST_MEMORY / VK_ERROR_OUT_OF_DEVICE_MEMORY (their
 * return codes in the spec; "certain commands" return DEVICE_LOST, these
 * are not among them). A recorded one is then refused by vkQueueSubmit
 * with DEVICE_LOST.
 */
static void
record_after_loss(struct sdev *c)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = c->d.queues[inj.q].pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
		.commandBufferCount = 1,
	};
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = 1,
	};
	VkCommandBuffer cb = VK_NULL_HANDLE;
	const char *what = "vkAllocateCommandBuffers";
	VkResult r;

	r = vkAllocateCommandBuffers(c->d.device, &ai, &cb);
	if (r == VK_SUCCESS) {
		what = "vkBeginCommandBuffer";
		r = vkBeginCommandBuffer(cb, &bi);
	}
	if (r == VK_SUCCESS) {
		vkCmdFillBuffer(cb, c->ballast[inj.q].buffer, 0, 4096, 0);
		what = "vkEndCommandBuffer";
		r = vkEndCommandBuffer(cb);
	}
	printf("  [dev %u] recording after the loss: %s -> %s\n", c->index,
	       what, vkh_result_str(r));
	if (r != VK_SUCCESS && r != VK_ERROR_OUT_OF_HOST_MEMORY &&
	    r != VK_ERROR_OUT_OF_DEVICE_MEMORY)
		dev_fail(c, "%s on the lost device returned %s, a code the "
		         "spec does not allow for it", what,
		         vkh_result_str(r));
	if (r == VK_SUCCESS) {
		si.pCommandBuffers = &cb;
		r = vkQueueSubmit(c->d.queues[inj.q].queue, 1, &si,
		                  VK_NULL_HANDLE);
		if (r != VK_ERROR_DEVICE_LOST)
			dev_fail(c, "vkQueueSubmit on the lost device: %s",
			         vkh_result_str(r));
	}
	/* The layer counts a submit that returned DEVICE_LOST as pending
	 * work: freeing the buffer is an error to it, not to the driver. */
	if (cb) {
		vkh_tolerate_object(handle(cb));
		vkFreeCommandBuffers(c->d.device, ai.commandPool, 1, &cb);
	}
}

/* After the loss of the injected device. */
static void
finish_lost(struct sdev *c)
{
	uint64_t t0, dt, bound = LOST_BOUND_NS;
	const char *tmo = getenv("SWGPU_TIMEOUT_MS");
	uint64_t hang_ns = (tmo ? strtoull(tmo, NULL, 10) : 5000) * MS;
	uint8_t *got[NBUF] = { NULL };
	VkResult r;

	if (!c->t_inject) {
		dev_fail(c, "DEVICE_LOST from %s before the injected job was "
		         "submitted", c->lost_where);
		return;
	}
	dt = c->t_lost - c->t_inject;
	printf("  [dev %u] DEVICE_LOST %.1f ms after the injected job was "
	       "submitted, seen by %s\n", c->index, (double)dt / 1e6,
	       c->lost_where);
	if (dt > bound)
		dev_fail(c, "DEVICE_LOST after %.1f ms (bound %.0f ms)",
		         (double)dt / 1e6, (double)bound / 1e6);
	if (g_mode == MODE_HANG && dt < hang_ns * 8 / 10)
		dev_fail(c, "hang declared after %.1f ms, before the hang "
		         "timeout of %.0f ms", (double)dt / 1e6,
		         (double)hang_ns / 1e6);

	/* The injected job's own signal never comes. */
	{
		uint64_t v = inj.pos;
		VkSemaphoreWaitInfo wi = {
			.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
			.semaphoreCount = 1,
			.pSemaphores = &c->tl[inj.q],
			.pValues = &v,
		};

		t0 = vkh_now_ns();
		r = vkWaitSemaphores(c->d.device, &wi, WAIT_NS);
		dt = vkh_now_ns() - t0;
		if (r != VK_ERROR_DEVICE_LOST)
			dev_fail(c, "wait for the injected job's timeline "
			         "value: %s after %.1f ms", vkh_result_str(r),
			         (double)dt / 1e6);
	}
	t0 = vkh_now_ns();
	r = vkDeviceWaitIdle(c->d.device);
	dt = vkh_now_ns() - t0;
	printf("  [dev %u] vkDeviceWaitIdle -> %s in %.1f ms\n", c->index,
	       vkh_result_str(r), (double)dt / 1e6);
	if (r != VK_ERROR_DEVICE_LOST)
		dev_fail(c, "vkDeviceWaitIdle on the lost device: %s",
		         vkh_result_str(r));
	if (dt > bound)
		dev_fail(c, "vkDeviceWaitIdle on the lost device took %.1f ms",
		         (double)dt / 1e6);
	check_fault_info(c, true);
	record_after_loss(c);

	/* Work the host saw complete before the loss is still there (the
	 * host-visible buffers; device-local ones cannot be copied out of
	 * a lost device). */
	for (int b = 0; b < NBUF; b++)
		got[b] = c->buf[b].map;
	printf("  [dev %u] %u slots of jobs seen complete before the loss "
	       "checked\n", c->index, verify(c, got, true));
}

/* Tolerate the validation layer's view of device 1's unfinished work. */
static void
tolerate_lost(struct sdev *c)
{
	vkh_tolerate_object(handle(c->d.device));
	for (uint32_t q = 0; q < c->nq; q++) {
		vkh_tolerate_object(handle(c->d.queues[q].queue));
		vkh_tolerate_object((uint64_t)c->d.queues[q].pool);
		vkh_tolerate_object((uint64_t)c->tl[q]);
	}
	for (int b = 0; b < NBUF; b++) {
		vkh_tolerate_object((uint64_t)c->buf[b].buffer);
		vkh_tolerate_object((uint64_t)c->buf[b].memory);
	}
	for (uint32_t q = 0; q < c->nq; q++) {
		vkh_tolerate_object((uint64_t)c->ballast[q].buffer);
		vkh_tolerate_object((uint64_t)c->ballast[q].memory);
	}
	vkh_expect_message("VUID-vkDestroyFence-fence-01120");
	vkh_expect_message("VUID-vkDestroySemaphore-semaphore-01137");
	vkh_expect_message("VUID-vkFreeCommandBuffers-pCommandBuffers-00047");
	vkh_expect_message("VUID-vkDestroyCommandPool-commandPool-00041");
}

static void
destroy_objects(struct sdev *c)
{
	VkDevice dev = c->d.device;

	if (!dev)
		return;
	for (uint32_t j = 0; c->jobs && j < c->njobs; j++) {
		struct job *J = &c->jobs[j];

		if (J->cb)
			vkFreeCommandBuffers(dev, c->d.queues[J->q].pool, 1,
			                     &J->cb);
		J->cb = VK_NULL_HANDLE;
		for (uint32_t k = 0; k < J->ndeps; k++)
			if (J->deps[k].bin)
				vkDestroySemaphore(dev, J->deps[k].bin, NULL);
		if (J->fence)
			vkDestroyFence(dev, J->fence, NULL);
	}
	for (uint32_t q = 0; q < c->nq; q++)
		if (c->tl[q])
			vkDestroySemaphore(dev, c->tl[q], NULL);
	for (int b = 0; b < NBUF; b++)
		vkh_buffer_destroy(&c->d, &c->buf[b]);
	vkh_buffer_destroy(&c->d, &c->rb);
	for (uint32_t q = 0; q < c->nq; q++)
		vkh_buffer_destroy(&c->d, &c->ballast[q]);
	vkh_device_destroy(c->h, &c->d);
}

static void *
stress_thread(void *arg)
{
	struct sdev *c = arg;
	bool ok;

	ok = create_objects(c) && poison_buffers(c);
	pthread_barrier_wait(&start_barrier);
	if (!ok)
		goto out;
	c->t_start = vkh_now_ns();
	run_dag(c);
	if (!c->lost && !c->failures)
		final_wait(c);
	if (c->lost && c->inject)
		finish_lost(c);
	else if (c->lost)
		dev_fail(c, "VK_ERROR_DEVICE_LOST on a device without "
		         "injection, from %s", c->lost_where);
	else if (c->inject && !c->failures)
		dev_fail(c, "no VK_ERROR_DEVICE_LOST although swgpu queue %u "
		         "job %llu was injected with %s", inj.qid,
		         (unsigned long long)inj.swjob, mode_names[g_mode]);
	else if (!c->failures)
		finish_healthy(c);
	if (!c->t_end)
		c->t_end = vkh_now_ns();
out:
	if (c->timed_out) {
		/* Work may still be pending: leave the device alone (the
		 * test fails anyway). */
		fprintf(stderr, "  [dev %u] timed out: objects leaked\n",
		        c->index);
		return NULL;
	}
	{
		uint64_t t0 = vkh_now_ns(), dt;

		if (c->lost && c->inject)
			tolerate_lost(c);
		destroy_objects(c);
		dt = vkh_now_ns() - t0;
		if (c->lost && c->inject) {
			printf("  [dev %u] lost device destroyed in %.1f ms\n",
			       c->index, (double)dt / 1e6);
			if (dt > LOST_BOUND_NS)
				dev_fail(c, "destroying the lost device took "
				         "%.1f ms", (double)dt / 1e6);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The test                                                            */
/* ------------------------------------------------------------------ */

static void
print_dev(const struct sdev *c)
{
	printf("  [dev %u] seed %" PRIu64 ": %u jobs on %u queues (", c->index,
	       c->seed, c->njobs, c->nq);
	for (uint32_t q = 0; q < c->nq; q++)
		printf("%s%u%s", q ? " " : "", c->qcount[q],
		       c->prio[q] < 0.5f ? " low-prio" : "");
	printf("), deps:");
	for (int k = 0; k < DEP_KINDS; k++)
		printf(" %s %u", dep_names[k], c->ndep[k]);
	printf(", %u long jobs\n", c->nballast);
}

static void
test_stress(struct vkh *h, enum mode mode)
{
	pthread_t th[NDEV];
	bool fault_ext;
	uint32_t nq = 0;
	uint64_t t0;

	if (mode != MODE_NONE && !h->is_swgpu) {
		vkh_skip(h, "driver \"%s\" is not swgpu: fault injection is "
		         "swgpu's", h->driver.driverName);
		return;
	}
	VKH_CHECK_MSG(h, h->timeline_semaphore, "no timelineSemaphore");
	/* The real instance sees what the probe saw. */
	VKH_CHECK(h, h->family_count == probe.nfam);
	for (uint32_t f = 0; f < probe.nfam; f++)
		nq += probe.fam_queues[f];
	VKH_CHECK(h, nq == probe.nq && nq > 0);
	fault_ext = fault_ext_supported(h);
	/* The 1.3.239 layer's timeline tracking stalls (its own
	 * UNASSIGNED-VkSemaphore-state-timeout / VkFence-state-timeout,
	 * "most likely a validation bug", 10 s each) once a timeline wait
	 * is submitted before its signal and the host then waits: with the
	 * layer, signals go first; without it, waits often do. */
	g_wbs = env_u64("STRESS_WBS", !h->validation) != 0;
	printf("  %u devices x %u queues, %u jobs each, seed %" PRIu64
	       " (STRESS_SEED), mode %s, synchronization2 %s, "
	       "VK_EXT_device_fault %s, wait-before-signal %s\n", NDEV, nq,
	       g_jobs, g_seed, mode_names[mode],
	       h->synchronization2 ? "yes" : "no", fault_ext ? "yes" : "no",
	       g_wbs ? "on" : "off (validation layer)");
	if (mode != MODE_NONE)
		printf("  SWGPU_FAULT=%s: device %u queue %u, DAG job %u (its "
		       "position %u of %u on that queue)\n", inj.spec,
		       INJECT_DEV, inj.q, inj.job, inj.pos,
		       devs[INJECT_DEV].qcount[inj.q]);

	/* In order: swgpu queue ids follow device creation. */
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		c->h = h;
		c->fault_ext = fault_ext;
		VKH_CHECK_VK(h, create_device(h, fault_ext, c->prio, &c->d));
		for (uint32_t q = 0; q < nq; q++)
			c->qnext[q] = 1;
		print_dev(c);
	}
	VKH_CHECK(h, !pthread_barrier_init(&start_barrier, NULL, NDEV));
	t0 = vkh_now_ns();
	for (uint32_t i = 0; i < NDEV; i++)
		VKH_CHECK(h, !pthread_create(&th[i], NULL, stress_thread,
		                             &devs[i]));
	for (uint32_t i = 0; i < NDEV; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start_barrier);
	printf("  all devices done in %.1f ms\n",
	       (double)(vkh_now_ns() - t0) / 1e6);
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		printf("  [dev %u] %s: %u/%u jobs submitted in %u calls (%u "
		       "vkQueueSubmit2, %u batched), %u wait-before-signal, "
		       "%u host waits, %.1f ms\n", i,
		       c->failures ? "FAILED" :
		       c->lost ? "lost as injected" : "all data correct",
		       c->nsubmitted, c->njobs, c->calls, c->calls2,
		       c->batched, c->wbs, c->host_waits,
		       (double)(c->t_end - c->t_start) / 1e6);
	}
	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];
		int failures = c->failures;
		char err[512];

		snprintf(err, sizeof(err), "%s", c->first_error);
		free_dag(c);
		VKH_CHECK_MSG(h, failures == 0,
		              "device %u: %d failure(s), first: %s (reproduce: "
		              "STRESS_SEED=%" PRIu64 " STRESS_JOBS=%u, mode %s)",
		              i, failures, err, g_seed, g_jobs,
		              mode_names[mode]);
	}
}

static void
t_none(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_NONE);
}

static void
t_pagefault(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_PAGEFAULT);
}

static void
t_hang(struct vkh *h, struct vkh_device *d)
{
	(void)d;
	test_stress(h, MODE_HANG);
}

static const struct vkh_test tests[] = {
	{ "none", t_none, 0, 0 },
	{ "pagefault", t_pagefault, 0, 0 },
	{ "hang", t_hang, 0, 0 },
};

/* ------------------------------------------------------------------ */
/* main: probe, DAGs, fault spec, then the real instance               */
/* ------------------------------------------------------------------ */

/* The physical device through a bare instance (no layer), destroyed
 * before the fault knob is set: swgpu reads it when the next instance
 * opens the device. */
static bool
do_probe(void)
{
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "test_vk_stress_dag probe",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &drv,
	};
	VkQueueFamilyProperties fam[16];
	VkPhysicalDevice phys[8];
	uint32_t n = 8, idx;
	const char *idx_env = getenv("VKH_DEVICE_INDEX");
	VkInstance inst;

	if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
		return false;
	idx = idx_env ? (uint32_t)atoi(idx_env) : 0;
	if (vkEnumeratePhysicalDevices(inst, &n, phys) < 0 || idx >= n) {
		vkDestroyInstance(inst, NULL);
		return false;
	}
	vkGetPhysicalDeviceProperties2(phys[idx], &p2);
	snprintf(probe.name, sizeof(probe.name), "%s",
	         p2.properties.deviceName);
	probe.swgpu = strstr(drv.driverName, "swgpu") ||
	              !strncmp(p2.properties.deviceName, "swgpu", 5);
	probe.nfam = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(phys[idx], &probe.nfam, fam);
	for (uint32_t f = 0; f < probe.nfam; f++) {
		uint32_t k = fam[f].queueCount;

		/* Transfer commands: TRANSFER, or implied by GRAPHICS or
		 * COMPUTE. */
		if (!(fam[f].queueFlags & (VK_QUEUE_GRAPHICS_BIT |
		                           VK_QUEUE_COMPUTE_BIT |
		                           VK_QUEUE_TRANSFER_BIT)))
			k = 0;
		if (k > VKH_MAX_QUEUES - probe.nq)
			k = VKH_MAX_QUEUES - probe.nq;
		probe.fam_queues[f] = k;
		probe.nq += k;
	}
	vkDestroyInstance(inst, NULL);
	return probe.nq > 0;
}

/* Per-device seeds, DAGs and models, and the injection target: all
 * depend on the seed and the queue count only, so the same seed gives
 * the same DAGs in every mode. */
static void
prepare(void)
{
	uint64_t s = g_seed;

	for (uint32_t i = 0; i < NDEV; i++) {
		struct sdev *c = &devs[i];

		c->index = i;
		c->seed = splitmix64(&s);
		c->njobs = g_jobs;
		c->nq = probe.nq;
		/* swgpu: < 0.5 is LOW, else NORMAL; LOW jobs get preempted
		 * by NORMAL ones of other devices on the same engine. */
		for (uint32_t q = 0; q < c->nq; q++)
			c->prio[q] = rnd(&s, 3) ? 1.0f : 0.25f;
		gen_dag(c);
		gen_model(c);
	}
	if (g_mode != MODE_NONE) {
		struct sdev *c = &devs[INJECT_DEV];
		uint64_t r = g_seed ^ 0x1a2b3c4d5e6f7788ull;
		uint32_t q;

		c->inject = true;
		/* A queue with work, preferably more than one job. */
		do {
			q = rnd(&r, c->nq);
		} while (c->qcount[q] == 0);
		for (uint32_t k = 0; k < 4 * c->nq && c->qcount[q] < 2; k++) {
			uint32_t x = rnd(&r, c->nq);
			if (c->qcount[x] > c->qcount[q])
				q = x;
		}
		inj.q = q;
		inj.pos = (c->qcount[q] + 1) / 2;
		inj.job = c->qjobs[q][inj.pos - 1];
		inj.qid = INJECT_DEV * c->nq + q;
		/* queue 0 also ran the poison fill (poison_buffers). */
		inj.swjob = inj.pos + (q == 0 ? 1 : 0);
		snprintf(inj.spec, sizeof(inj.spec), "%s:queue=%u:job=%llu",
		         g_mode == MODE_HANG ? "hang" : "pagefault", inj.qid,
		         (unsigned long long)inj.swjob);
	}
}

static uint64_t
env_u64(const char *name, uint64_t dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : dflt;
}

int
main(int argc, char **argv)
{
	char *args[3] = { argv[0], "none", NULL };
	uint64_t jobs, window;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		args[1] = argv[1];
	for (g_mode = MODE_NONE; g_mode <= MODE_HANG; g_mode++)
		if (!strcmp(args[1], mode_names[g_mode]))
			break;
	if (g_mode > MODE_HANG || argc > 2) {
		fprintf(stderr, "usage: %s [none|pagefault|hang]\n", argv[0]);
		return 2;
	}
	/* A hard bound on the whole run, in case a call hangs. */
	alarm(170);
	g_seed = env_u64("STRESS_SEED",
	                 (uint64_t)time(NULL) * 1000003u ^
	                 (uint64_t)getpid());
	jobs = env_u64("STRESS_JOBS", DEFAULT_JOBS);
	window = env_u64("STRESS_WINDOW", SUBMIT_WINDOW);
	if (jobs < 1 || jobs > MAX_JOBS || window < 1 ||
	    window > SUBMIT_WINDOW) {
		fprintf(stderr, "STRESS_JOBS must be 1..%u, STRESS_WINDOW "
		        "1..%u\n", MAX_JOBS, SUBMIT_WINDOW);
		return 2;
	}
	g_jobs = (uint32_t)jobs;
	g_window = (uint32_t)window;
	printf("test_vk_stress_dag: STRESS_SEED=%" PRIu64 " STRESS_JOBS=%u "
	       "mode %s\n", g_seed, g_jobs, mode_names[g_mode]);
	if (!do_probe()) {
		fprintf(stderr, "test_vk_stress_dag: no usable physical "
		        "device\n");
		return 1;
	}
	printf("  device \"%s\": %u queues per VkDevice\n", probe.name,
	       probe.nq);

	prepare();
	if (g_mode == MODE_NONE) {
		unsetenv("SWGPU_FAULT");
	} else if (probe.swgpu) {
		setenv("SWGPU_FAULT", inj.spec, 1);
	}
	status = vkh_run_tests(2, args, "test_vk_stress_dag", tests,
	                       sizeof(tests) / sizeof(tests[0]));
	for (uint32_t i = 0; i < NDEV; i++)
		free_dag(&devs[i]); /* also after a skip or an early return */
	return status;
}

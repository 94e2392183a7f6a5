/* SPDX-License-Identifier: MIT */
/*
 * State dump keyed by ctx:queue:seqno: rings near their read pointers,
 * emitted vs signalled fence seqnos, contexts and their faults, queues
 * with their jobs and what each waits for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kmd/context.h"
#include "kmd/dump_save.h"
#include "hw/engine.h"
#include "kmd/job.h"
#include "hw/gfx/describe.h"
#include "hw/packet/packet_exec.h"
#include "kmd/syncobj.h"
#include "remote/remote.h"

#define DUMP_PACKETS 12u

static const char *const ctx_state_name[] = {
	[SWGPU_CONTEXT_OK] = "OK",
	[SWGPU_CONTEXT_GUILTY] = "GUILTY",
	[SWGPU_CONTEXT_LOST] = "LOST",
};

static void
dump_ring(struct swgpu_engine *eng, uint32_t hq, FILE *out)
{
	struct engine_hwq *hw = &eng->hwq[hq];
	struct swgpu_ring *ring = &hw->ring;
	uint64_t r = atomic_load(&ring->rptr);
	uint64_t w = atomic_load(&ring->wptr);

	/* Mapped main HWQs are listed only while they hold jobs. */
	if (hq > ENGINE_HWQ_PRIO && r == w && hw->emitted == hw->processed)
		return;
	fprintf(out, "engine %u %s hwq %u (%s%s): ring %u dw rptr %llu wptr "
	        "%llu (%llu dw queued), fence emitted %llu signalled %llu "
	        "processed %llu, %u queues\n", eng->index,
	        eng->dev->info.engines[eng->index].name, hq,
	        hq == ENGINE_HWQ_PRIO ? (atomic_load(&eng->prio_demoted)
	                                 ? "preempting, demoted: takes "
	                                   "turns"
	                                 : "preempting") : "main",
	        atomic_load(&eng->main_cur) == hq &&
	        (hwq_is_main(hq) || atomic_load(&eng->prio_demoted))
	        ? ", its turn" : "", ring->size_dw,
	        (unsigned long long)r, (unsigned long long)w,
	        (unsigned long long)(w - r), (unsigned long long)hw->emitted,
	        (unsigned long long)engine_hwq_fence_read(eng, hq),
	        (unsigned long long)hw->processed, eng->queue_count);
	/* The engine may advance rptr meanwhile; the dwords between the
	 * snapshot and wptr are not rewritten while we hold dev->lock. */
	for (uint32_t n = 0; r != w && n < DUMP_PACKETS; n++) {
		uint32_t pk[8] = { 0 };
		uint32_t h = ring_dw(ring, r);
		uint32_t op = swgpu_pkt_opcode(h), len = swgpu_pkt_len(h);
		if (!len || len > 8 || len > w - r) {
			fprintf(out, "    [%llu] bad header 0x%08x\n",
			        (unsigned long long)r, h);
			break;
		}
		ring_read(ring, r, pk, len);
		fprintf(out, "    [%llu] %-15s", (unsigned long long)r,
		        ring_op_name(op));
		switch (op) {
		case SWGPU_OP_SEM_WAIT:
		case SWGPU_OP_SEM_SIGNAL: {
			uint64_t kva = swgpu_pkt_get64(pk + 1);
			fprintf(out, " fence[%llu] %s %llu",
			        (unsigned long long)((kva - RING_KVA_FENCE_BASE)
			                             / 8u),
			        op == SWGPU_OP_SEM_WAIT ? ">=" : "=",
			        (unsigned long long)swgpu_pkt_get64(pk + 3));
			break;
		}
		case RING_OP_JOB_BEGIN: {
			uint64_t s = swgpu_pkt_get64(pk + 1);
			struct swgpu_job *j =
				hw->inflight[s & hw->inflight_mask];
			fprintf(out, " seqno %llu", (unsigned long long)s);
			if (j && j->engine_seqno == s)
				fprintf(out, " job %u:%u:%llu %s", j->ctx_id,
				        j->queue_id,
				        (unsigned long long)j->seqno,
				        job_state_name(j->state));
			break;
		}
		case SWGPU_OP_INDIRECT_BUFFER:
			fprintf(out, " va 0x%llx size %u dw",
			        (unsigned long long)swgpu_pkt_get64(pk + 1),
			        pk[3]);
			break;
		default:
			break;
		}
		fputc('\n', out);
		r += len;
	}
}

/* The guilty job's last packets as the engine read them, decoded. */
static void
dump_fault_packets(const swgpu_fault_info *f, FILE *out)
{
	uint32_t n = f->packet_dw_count;

	if (n > SWGPU_FAULT_PACKET_DW_MAX)
		n = SWGPU_FAULT_PACKET_DW_MAX;
	for (uint32_t pos = 0; pos < n;) {
		uint32_t h = f->packet_dw[pos];
		uint32_t len = swgpu_pkt_len(h);
		fprintf(out, "      %s 0x%llx %-16s", pos == f->packet_dw_fault
		                                      ? "=>" : "  ",
		        (unsigned long long)(f->packet_dw_va + pos * 4u),
		        exec_op_name(swgpu_pkt_opcode(h)));
		if (!len)
			len = 1;
		for (uint32_t i = 0; i < len && pos + i < n; i++)
			fprintf(out, " %08x", f->packet_dw[pos + i]);
		if (pos + len > n)
			fprintf(out, " ...");
		fputc('\n', out);
		char text[256];
		if (pos + len <= n &&
		    gfx_packet_describe(f->packet_dw + pos, len, text,
		                        sizeof(text)))
			fprintf(out, "         %s\n", text);
		pos += len;
	}
}

static void
dump_job(const struct swgpu_job *j, FILE *out)
{
	fprintf(out, "    job %u:%u:%llu %s", j->ctx_id, j->queue_id,
	        (unsigned long long)j->seqno, job_state_name(j->state));
	if (j->engine_seqno)
		fprintf(out, " engine seqno %llu",
		        (unsigned long long)j->engine_seqno);
	if (j->state == JOB_QUEUED || j->state == JOB_RUNNING)
		fprintf(out, " on %s hwq %u",
		        j->dev->info.engines[j->engine].name, j->hwq);
	fprintf(out, " ibs %u\n", j->ib_count);
	if (j->preempted) {
		/* The save area: where the engine resumes it. */
		const struct exec_save *s = &j->resume_at;
		fprintf(out, "      preempted (%u times), resumes on %s at IB "
		        "%u", j->preemptions,
		        j->dev->info.engines[j->engine].name, s->ib_index);
		if (s->valid)
			fprintf(out, " depth %u dword %u, packet progress "
			        "%llu", s->depth, s->pos[s->depth],
			        (unsigned long long)s->offset);
		else
			fprintf(out, " (at a packet boundary)");
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < j->wait_count; i++) {
		const struct job_wait *w = &j->waits[i];
		const struct swgpu_syncobj *o = w->obj;
		if (o->type == SWGPU_SYNCOBJ_TIMELINE)
			fprintf(out, "      waits timeline syncobj %u >= %llu "
			        "(current %llu%s)", o->id,
			        (unsigned long long)w->value,
			        (unsigned long long)o->value,
			        o->error ? ", error" : "");
		else
			fprintf(out, "      waits binary syncobj %u payload",
			        o->id);
		if (w->dep)
			fprintf(out, " signalled by %u:%u:%llu %s",
			        w->dep->ctx_id, w->dep->queue_id,
			        (unsigned long long)w->dep->seqno,
			        job_state_name(w->dep->state));
		else if (!w->ready)
			fprintf(out, " (no signal submitted yet)");
		fputc('\n', out);
	}
	for (uint32_t i = 0; i < j->signal_count; i++)
		fprintf(out, "      signals syncobj %u value %llu\n",
		        j->signals[i].obj->id,
		        (unsigned long long)j->signals[i].value);
}

static void
device_dump_locked(struct swgpu_device *dev, FILE *out)
{
	struct dlist *it, *tmp;

	fprintf(out, "swgpu device %u: %u engines, %llu pending jobs%s\n",
	        dev->index, dev->engine_count,
	        (unsigned long long)dev->pending_jobs,
	        atomic_load(&dev->closing) ? ", closing" : "");
	fprintf(out, "time slice %u ms, %llu slices ended, next slice end "
	        "%s\n", dev->cfg.slice_ms,
	        (unsigned long long)dev->slices_ended,
	        dev->slice_deadline_ns ? "armed" : "none");
	for (uint32_t e = 0; e < dev->engine_count; e++)
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
			dump_ring(dev->engines[e], h, out);
	dump_preempted_locked(dev, out); /* save areas (dump_save.c) */

	dlist_for_each_safe(it, tmp, &dev->contexts) {
		struct swgpu_context *c =
			dlist_entry(it, struct swgpu_context, link);
		fprintf(out, "context %u: %s, %u jobs in rings\n", c->id,
		        ctx_state_name[c->state], c->inflight);
		if (c->state != SWGPU_CONTEXT_OK)
			fprintf(out, "    fault kind %d engine %u queue %u job "
			        "%llu address 0x%llx packet 0x%llx: %s\n",
			        (int)c->fault.kind, c->fault.engine,
			        c->fault.queue_id,
			        (unsigned long long)c->fault.job_seqno,
			        (unsigned long long)c->fault.address,
			        (unsigned long long)c->fault.packet_va,
			        c->fault.message);
		if (c->state != SWGPU_CONTEXT_OK && c->fault.packet_dw_count) {
			fprintf(out, "    guilty job %u:%u:%llu, its last "
			        "packets (=> faulted):\n", c->id,
			        c->fault.queue_id,
			        (unsigned long long)c->fault.job_seqno);
			dump_fault_packets(&c->fault, out);
		}
		if (c->state != SWGPU_CONTEXT_OK && c->fault_gfx_regs[0])
			fprintf(out, "    graphics state of the guilty job's "
			        "hardware queue at the fault:\n%s",
			        c->fault_gfx_regs);
	}
	dlist_for_each_safe(it, tmp, &dev->queues) {
		struct swgpu_queue *q =
			dlist_entry(it, struct swgpu_queue, dev_link);
		fprintf(out, "queue %u: context %u engine %s priority %d, "
		        "submitted %llu completed %llu, %u in ring, moved "
		        "engines %llu times%s%s\n",
		        q->id, q->ctx->id, dev->info.engines[q->engine].name,
		        (int)q->priority, (unsigned long long)q->submitted,
		        (unsigned long long)atomic_load(&q->completed),
		        q->inflight, (unsigned long long)q->engine_moves,
		        q->slice_held ? ", head job held for a time slice" : "",
		        q->cancelled ? ", cancelled" : "");
		/* Ring jobs first (they are older), then the FIFO. */
		struct swgpu_engine *eng = dev->engines[q->engine];
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++) {
			struct engine_hwq *hw = &eng->hwq[h];
			for (uint64_t s = hw->processed + 1;
			     seqno_passed(hw->emitted, s); s++) {
				struct swgpu_job *j =
					hw->inflight[s & hw->inflight_mask];
				if (j && j->q == q)
					dump_job(j, out);
			}
		}
		struct dlist *jt, *jtmp;
		dlist_for_each_safe(jt, jtmp, &q->fifo)
			dump_job(dlist_entry(jt, struct swgpu_job, link), out);
	}
	dlist_for_each_safe(it, tmp, &dev->syncobjs) {
		struct swgpu_syncobj *o =
			dlist_entry(it, struct swgpu_syncobj, link);
		if (o->type == SWGPU_SYNCOBJ_TIMELINE)
			fprintf(out, "syncobj %u: timeline value %llu%s%s\n",
			        o->id, (unsigned long long)o->value,
			        o->error ? " error" : "",
			        o->user_handles ? "" : " (destroyed, in use)");
		else
			fprintf(out, "syncobj %u: binary %s%s%s\n", o->id,
			        o->payload == PAYLOAD_SIGNALED ? "signalled" :
			        o->payload == PAYLOAD_PENDING ? "pending" :
			                                        "unsignalled",
			        o->error ? " error" : "",
			        o->user_handles ? "" : " (destroyed, in use)");
	}
	fflush(out);
}

void
swgpu_device_dump(swgpu_device *dev, FILE *out)
{
	if (remote_is(dev)) {
		rc_device_dump(dev, out);
		return;
	}
	if (!dev || !out)
		return;
	pthread_mutex_lock(&dev->lock);
	device_dump_locked(dev, out);
	pthread_mutex_unlock(&dev->lock);
}

/* A context became guilty (context_mark_guilty): write the state dump
 * once, under dev->lock, to a new file in SWGPU_DUMP_DIR or, if
 * that is unset, to stderr. Called by engine threads and device close. */
void
device_fault_dump_locked(struct swgpu_device *dev)
{
	if (!atomic_exchange(&dev->dump_pending, false))
		return;
	FILE *out = stderr;
	char path[512];
	if (dev->cfg.dump_dir && *dev->cfg.dump_dir) {
		unsigned n = atomic_fetch_add(&dev->dumps_written, 1u);
		snprintf(path, sizeof(path), "%s/swgpu-dump-%ld-dev%u-%u.txt",
		         dev->cfg.dump_dir, (long)getpid(), dev->index, n);
		out = fopen(path, "w");
		if (!out) {
			swgpu_log("cannot write the state dump to %s: %s",
			          path, strerror(errno));
			out = stderr;
		} else {
			swgpu_log("device lost: state dump in %s", path);
		}
	}
	fprintf(out, "swgpu: a context was lost (GPU fault); state dump "
	        "follows\n");
	device_dump_locked(dev, out);
	if (out != stderr)
		fclose(out);
}

void
device_fault_dump(struct swgpu_device *dev)
{
	if (!atomic_load(&dev->dump_pending))
		return;
	pthread_mutex_lock(&dev->lock);
	device_fault_dump_locked(dev);
	pthread_mutex_unlock(&dev->lock);
}

/* SPDX-License-Identifier: MIT */
/*
 * Preempted jobs in the state dump (dump_save.h). The engine thread owns
 * a job's exec_save; what the dump shows is a copy (exec_save.view) it
 * makes under dev->lock at each stop, so the dump never reads state an
 * engine is changing.
 */
#include "kmd/dump_save.h"

#include <string.h>

#include "hw/engine.h"
#include "hw/packet/packet_exec.h"
#include "hw/shader/wg_save.h"
#include "kmd/device.h"
#include "kmd/job.h"
#include "kmd/mem.h"

void
dump_save_publish(struct swgpu_device *dev, struct exec_save *sv)
{
	struct exec_save_view v;

	memset(&v, 0, sizeof(v));
	v.valid = true;
	v.ib_index = sv->ib_index;
	v.depth = sv->depth;
	v.pos = sv->pos[sv->depth <= EXEC_SAVE_MAX_DEPTH ? sv->depth : 0];
	v.offset = sv->offset;
	if (sv->area) {
		const struct ir_save_header *h = (const void *)sv->area->cpu;

		v.area_bytes = sv->area->size;
		for (uint32_t s = 0; s < IR_SAVE_SLOTS && v.saved < 2; s++) {
			struct ir_save_slot st;

			if (h->slot_state[s] != IR_SLOT_SAVED)
				continue;
			memcpy(&st, sv->area->cpu + sizeof(*h) +
			            (size_t)s * h->slot_bytes, sizeof(st));
			v.group[v.saved] = st.group;
			v.blk[v.saved++] = st.blk;
		}
	}
	pthread_mutex_lock(&dev->lock);
	sv->view = v;
	pthread_mutex_unlock(&dev->lock);
}

void
dump_save_clear(struct swgpu_device *dev, struct exec_save *sv)
{
	pthread_mutex_lock(&dev->lock);
	sv->view.valid = false;
	pthread_mutex_unlock(&dev->lock);
}

/* The preempted jobs of one main HWQ of eng (engine index e). */
static void
dump_preempted_hwq(struct swgpu_device *dev, uint32_t e,
                   struct engine_hwq *hw, FILE *out)
{
	struct swgpu_engine *eng = dev->engines[e];

	for (uint64_t s = hw->processed + 1;
	     seqno_passed(hw->emitted, s); s++) {
		const struct swgpu_job *j =
			hw->inflight[s & hw->inflight_mask];
		const struct exec_save_view *v;

		if (!j || !j->save.view.valid)
			continue;
		v = &j->save.view;
		fprintf(out, "preempted job %u:%u:%llu on %s: resumes "
		        "in IB %u at depth %u dword %u, %llu units "
		        "of that packet done; save area %llu bytes, "
		        "%u workgroups saved inside\n", j->ctx_id,
		        j->queue_id, (unsigned long long)j->seqno,
		        dev->info.engines[e].name, v->ib_index,
		        v->depth, v->pos,
		        (unsigned long long)v->offset,
		        (unsigned long long)v->area_bytes, v->saved);
		fprintf(out, "    last ran on %s; resumes on %s%s\n",
		        dev->info.engines[j->run_engine].name,
		        dev->info.engines[e].name,
		        dev->cfg.no_migrate || eng->gfx_pool ||
		        dev->info.engine_class_count[eng->engine_class] < 2
		        ? ""
		        : " or on an idle engine of its class");
		for (uint32_t w = 0; w < v->saved && w < 2; w++)
			fprintf(out, "    workgroup %llu resumes at "
			        "block %u\n",
			        (unsigned long long)v->group[w],
			        v->blk[w]);
	}
}

void
dump_preempted_locked(struct swgpu_device *dev, FILE *out)
{
	for (uint32_t e = 0; e < dev->engine_count; e++)
		for (uint32_t h = 0; h < ENGINE_HWQ_COUNT; h++)
			if (hwq_is_main(h))
				dump_preempted_hwq(dev, e, &dev->engines[e]->hwq[h],
				                   out);
}

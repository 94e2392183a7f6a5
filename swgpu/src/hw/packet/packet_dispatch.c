/* SPDX-License-Identifier: MIT */
/*
 * DISPATCH / DISPATCH_INDIRECT: run a compute shader's workgroups.
 *
 * The whole packet runs in one VA space read section, which holds every
 * mapping it translated into (bind table, descriptors, buffer ranges),
 * so those host pointers stay valid while the shader runs; an unmap
 * meanwhile returns at once and the memory goes when the dispatch ends.
 * Every descriptor range is translated once, with the access the shader
 * needs; the interpreter then only checks offsets against the range
 * (robust buffer access), never touching memory outside it.
 *
 * Workgroups are shared by the engine thread and, for larger dispatches,
 * one helper thread (the machine model has two cores), each with its own
 * register file; they take group indices from an atomic counter.
 */
#include "hw/packet/packet_dispatch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu_format.h>
#include <swgpu/swgpu_packet.h>

#include "hw/packet/dispatch_save.h"
#include "hw/shader/shader.h"
#include "hw/shader/wg_save.h"
#include "kmd/vaspace.h"

/* Below this many workgroups a helper thread costs more than it saves. */
#define HELPER_MIN_GROUPS 8u

struct helper {
	pthread_t thread;
	struct ir_exec *exec;
	struct ir_dispatch *d;
};

static void *
helper_main(void *arg)
{
	struct helper *h = arg;

	ir_exec_run(h->exec, h->d);
	return NULL;
}

/* Bytes from an image binding's first texel to the end of its last one:
 * the last layer's last level (3D: the last level's last slice). */
static uint64_t
image_span(const struct ir_image_binding *im)
{
	struct img_level lv;
	uint64_t slices, layers_before;

	image_level(im, im->levels - 1, &lv);
	slices = im->view_type == 2 ? lv.d : 1;
	layers_before = im->view_type == 2 || im->levels == 1 ? 0 :
	                (uint64_t)(im->layers ? im->layers - 1 : 0);
	if (im->levels == 1 && im->view_type != 2)
		slices = im->layers;    /* storage views: slices or layers */
	if (!lv.w || !lv.h || !slices || !im->layers)
		return 0;
	return lv.off + layers_before * im->slice_pitch +
	       (slices - 1) * lv.slice_pitch +
	       (uint64_t)(lv.rows - 1) * lv.row_pitch +
	       (uint64_t)lv.cols * im->elem;
}

/* An image or texel buffer descriptor (raw: SWGPU_DESCRIPTOR_SIZE
 * bytes at dva) into binding slot i: shape, format and the memory it
 * spans. Read lock held. */
static bool
bind_image(struct exec_env *env, const struct pkt *p,
           const struct ir_buffer *b, const uint8_t *raw, uint64_t dva,
           struct ir_dispatch *d, uint32_t i)
{
	struct ir_image_binding *im = &d->images[i];
	uint32_t access = SWGPU_VA_READ | (b->writable ? SWGPU_VA_WRITE : 0);
	uint32_t type, format;
	uint64_t va, span = 0;

	memcpy(&type, raw, 4);
	memcpy(&format, raw + 4, 4);
	memset(im, 0, sizeof(*im));
	im->levels = 1;
	im->samples = 1;
	if (b->kind == IR_RES_SAMPLER) {
		struct swgpu_descriptor_sampler t;

		memcpy(&t, raw, sizeof(t));
		if (type == SWGPU_DESCRIPTOR_NONE)
			return true;   /* null descriptor */
		/* A combined image sampler binding serves a separate
		 * sampler too: its last three words. */
		if (type == SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER &&
		    b->desc_type == type) {
			struct swgpu_descriptor_image c;

			memcpy(&c, raw, sizeof(c));
			t.state = c.sampler;
		} else if (type != SWGPU_DESCRIPTOR_SAMPLER)
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dva,
			                   "descriptor at 0x%llx: type %u where "
			                   "the shader needs a sampler",
			                   (unsigned long long)dva, type);
		im->has_sampler = true;
		im->sampler = t.state;
		d->buffers[i].img = im;
		return true;
	}
	if (b->kind == IR_RES_TEXEL_BUFFER) {
		struct swgpu_descriptor_texel_buffer t;

		memcpy(&t, raw, sizeof(t));
		if (!t.va || !t.range || !t.element_size)
			return true;   /* null descriptor */
		im->view_type = UINT32_MAX;
		im->elem = t.element_size;
		im->width = (uint32_t)(t.range / t.element_size < UINT32_MAX
		                       ? t.range / t.element_size : UINT32_MAX);
		im->height = im->depth = im->layers = 1;
		va = t.va;
		span = t.range;
	} else {
		struct swgpu_descriptor_image t;
		const bool sampled = b->kind == IR_RES_SAMPLED;

		memcpy(&t, raw, sizeof(t));
		if (!t.va)
			return true;
		/* Multisampled: log2 of the sample count (swgpu_packet.h). */
		uint32_t log2_samples = (t.view_type &
		                         SWGPU_DESCRIPTOR_SAMPLES_MASK) >>
		                        SWGPU_DESCRIPTOR_SAMPLES_SHIFT;
		t.view_type &= ~SWGPU_DESCRIPTOR_SAMPLES_MASK;
		if (sampled) {
			/* Level count and swizzle (swgpu_packet.h). */
			im->levels = (t.view_type >> 8) & 0xff;
			im->levels += !im->levels;
			for (uint32_t c = 0; c < 4; c++)
				im->swizzle[c] = (format >> (16 + 3 * c)) & 7;
			format &= 0xffff;
			t.view_type &= 0xff;
			im->has_sampler = type ==
				SWGPU_DESCRIPTOR_COMBINED_IMAGE_SAMPLER;
			im->sampler = t.sampler;
		}
		im->view_type = t.view_type;
		im->width = t.width;
		im->height = t.height;
		im->depth = t.depth;
		im->layers = t.layers;
		if (log2_samples) {
			if (log2_samples > 3 || im->levels != 1 ||
			    (t.view_type != 1 && t.view_type != 5))
				return raise_fault(env, p,
					SWGPU_FAULT_BAD_PACKET, dva,
					"image descriptor at 0x%llx: %u "
					"samples on view type %u with %u "
					"levels (1, 2, 4 or 8 samples of a "
					"2D (array) view with one level)",
					(unsigned long long)dva,
					1u << log2_samples, t.view_type,
					im->levels);
			im->samples = 1u << log2_samples;
			/* every sample is a slice (swgpu_packet.h) */
			im->layers = t.layers * im->samples;
		}
		im->row_pitch = t.row_pitch;
		im->slice_pitch = t.slice_pitch;
		im->elem = t.element_size;
		va = t.va;
		if (t.view_type > 6 || t.width > SWGPU_SHADER_MAX_IMAGE_DIM ||
		    t.height > SWGPU_SHADER_MAX_IMAGE_DIM ||
		    t.depth > SWGPU_SHADER_MAX_IMAGE_DIM ||
		    t.layers > SWGPU_SHADER_MAX_IMAGE_DIM ||
		    im->levels > SWGPU_SHADER_MAX_IMAGE_LEVELS)
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dva,
			                   "image descriptor at 0x%llx: bad "
			                   "view type %u or size %ux%ux%u, "
			                   "%u layers, %u levels",
			                   (unsigned long long)dva, t.view_type,
			                   t.width, t.height, t.depth, t.layers,
			                   im->levels);
	}
	im->fmt = swgpu_format_get_info(format);
	if (type != b->desc_type ||
	    !(b->kind == IR_RES_SAMPLED ? swgpu_format_shader_sampled(format)
	                                : swgpu_format_shader_storage(format)) ||
	    im->fmt->block_bytes != im->elem)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dva,
		                   "descriptor at 0x%llx: type %u format %u "
		                   "(%u-byte texels) where the shader needs a "
		                   "type %u descriptor of a %s format",
		                   (unsigned long long)dva, type, format,
		                   im->elem, b->desc_type,
		                   b->kind == IR_RES_SAMPLED ? "sampled"
		                                             : "storage");
	if (im->view_type != UINT32_MAX)
		span = image_span(im);  /* block rows need the format */
	im->domain = im->fmt->blit_class;
	im->decode = format_decoder(im->fmt);
	im->encode = format_encoder(im->fmt);
	image_oob_texel(im);
	if (!span)
		return true;
	d->buffers[i].ptr = vaspace_translate(env->vs, va, span, access);
	if (!d->buffers[i].ptr)
		return page_fault(env, p, va, span, access);
	d->buffers[i].range = span;
	d->buffers[i].img = im;
	return true;
}

/* Resolve every buffer, image and texel buffer the shader uses. Read
 * lock held. */
static bool
bind_buffers(struct exec_env *env, const struct pkt *p,
             const struct ir_program *prog, const struct swgpu_bind_table *bt,
             struct ir_dispatch *d)
{
	for (uint32_t i = 0; i < prog->nbuffers; i++) {
		const struct ir_buffer *b = &prog->buffers[i];
		struct swgpu_descriptor_buffer desc;
		uint64_t set_va = bt->set_va[b->set], va, dva;
		const void *src;
		uint32_t access = SWGPU_VA_READ |
		                  (b->writable ? SWGPU_VA_WRITE : 0);

		d->buffers[i].ptr = NULL;
		d->buffers[i].range = 0;
		d->buffers[i].img = NULL;
		if (!b->used || !set_va)
			continue;
		dva = set_va + b->desc_offset;
		src = vaspace_translate(env->vs, dva, SWGPU_DESCRIPTOR_SIZE,
		                        SWGPU_VA_READ);
		if (!src)
			return page_fault(env, p, dva, SWGPU_DESCRIPTOR_SIZE,
			                  SWGPU_VA_READ);
		if (b->kind != IR_RES_BUFFER) {
			uint8_t raw[SWGPU_DESCRIPTOR_SIZE];

			memcpy(raw, src, sizeof(raw));
			if (!bind_image(env, p, b, raw, dva, d, i))
				return false;
			continue;
		}
		memcpy(&desc, src, sizeof(desc));
		if (desc.type == SWGPU_DESCRIPTOR_NONE || !desc.va ||
		    !desc.range)
			continue;
		if (desc.type < SWGPU_DESCRIPTOR_UNIFORM_BUFFER ||
		    desc.type > SWGPU_DESCRIPTOR_STORAGE_BUFFER_DYNAMIC)
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, dva,
			                   "descriptor at 0x%llx has type %u, "
			                   "not a buffer",
			                   (unsigned long long)dva, desc.type);
		va = desc.va;
		if (b->dynamic_index != UINT32_MAX)
			va += bt->dynamic_offsets[b->dynamic_index];
		d->buffers[i].ptr = vaspace_translate(env->vs, va, desc.range,
		                                      access);
		if (!d->buffers[i].ptr)
			return page_fault(env, p, va, desc.range, access);
		d->buffers[i].range = desc.range;
	}
	return true;
}

bool
dispatch_bind_resources(struct exec_env *env, const struct pkt *p,
                        const struct ir_program *prog,
                        const struct swgpu_bind_table *bt,
                        struct ir_dispatch *d)
{
	d->prog = prog;
	memcpy(d->push, bt->push_constants, sizeof(d->push));
	memset(d->groups, 0, sizeof(d->groups));
	memset(d->base, 0, sizeof(d->base));
	d->total_groups = 0;
	d->next_group = 0;
	d->hang_timeout_ns = env->hang_timeout_ns;
	d->progress_ns = swgpu_now_ns();
	d->vs = env->vs;
	d->fault_va = 0;
	d->fault_access = 0;
	d->hung = false;
	d->stop_poll = NULL; /* graphics batches are not stopped inside */
	d->stop_cookie = NULL;
	d->stop = false;
	d->save_area = NULL;
	return bind_buffers(env, p, prog, bt, d);
}

/*
 * Preemption: a preemptible stream (env->save) runs the workgroups in
 * slices of about DISPATCH_SLICE_NS (the first slice has
 * DISPATCH_MIN_SLICE groups, each next one is sized from the time the
 * last took, growing at most 4x); between two slices the stream may
 * stop, so a dispatch is preempted within about a slice or one
 * workgroup's run time, whichever is longer; the save area
 * holding the groups done. Groups are claimed in index order and a slice
 * ends only when every claimed group has finished, so the groups done
 * are exactly [0, offset). Workgroups of a dispatch are independent, so
 * running them in slices changes nothing a shader can rely on.
 * Inside a slice, a workgroup that loops stops at a loop back-edge
 * (dispatch_save.h): then [0, offset) are done except the workgroups
 * saved in the save area, which a resume runs first, from where they
 * stopped.
 */
/* A slice costs a helper thread start (tens of microseconds): 4 ms keeps
 * that near 1% (measured: 2-3% at 2 ms on saxpy/reduce). */
#define DISPATCH_SLICE_NS 4000000u
#define DISPATCH_MIN_SLICE 2u     /* one group per thread */

/* Run groups [d->next_group, end), and the workgroups a preemption
 * saved (d->save_area), on this thread and, for two or more, a helper
 * thread (helper_exec: the dispatch has enough groups for it). */
static void
run_slice(struct ir_exec *main_exec, struct ir_exec *helper_exec,
          struct ir_dispatch *d, uint64_t end)
{
	struct helper h = { .exec = helper_exec, .d = d };
	bool helper = false;
	uint64_t work = end - d->next_group +
	                (d->save_area ? ir_save_area_saved(d->save_area) : 0);

	d->total_groups = end;
	if (helper_exec && work >= 2 &&
	    !pthread_create(&h.thread, NULL, helper_main, &h))
		helper = true;
	ir_exec_run(main_exec, d);
	if (helper)
		pthread_join(h.thread, NULL);
}

/* Returns false when out of host memory; *preempted when it stopped
 * between two slices or inside workgroups (ds, dispatch_save.h): the
 * groups claimed in the save area. */
static bool
run_dispatch(struct exec_env *env, struct dispatch_save *ds,
             const struct ir_program *prog, struct ir_dispatch *d,
             uint64_t done, bool *preempted)
{
	const uint64_t total = d->total_groups;
	struct ir_exec *main_exec = ir_exec_create(prog);
	struct ir_exec *helper_exec = NULL;
	uint64_t slice = env->save ? DISPATCH_MIN_SLICE : total;
	const uint32_t saved = d->save_area ? ir_save_area_saved(d->save_area)
	                                    : 0;

	*preempted = false;
	if (!main_exec)
		return false;
	if (total - done + saved >= HELPER_MIN_GROUPS || saved >= 2)
		helper_exec = ir_exec_create(prog);
	d->next_group = done;
	while (done < total || (d->save_area &&
	                        ir_save_area_saved(d->save_area))) {
		uint64_t end = total - done < slice ? total : done + slice;
		uint64_t t0 = swgpu_now_ns();

		run_slice(main_exec, helper_exec, d, end);
		if (__atomic_load_n(&d->hung, __ATOMIC_RELAXED))
			break;
		if (__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
			/* Stopped inside: the groups claimed are done or
			 * saved. All done: nothing to resume. */
			done = dispatch_save_stop(ds, end);
			*preempted = done < total ||
			             ir_save_area_saved(d->save_area);
			if (*preempted)
				exec_preempt_record(env, done);
			break;
		}
		done = end;
		d->next_group = done;
		if (done < total && exec_preempt_point(env, done)) {
			env->save->stalled_ns = 0; /* a group just ended */
			*preempted = true;
			break;
		}
		/* Next slice: about DISPATCH_SLICE_NS, at most 4x this one. */
		uint64_t dt = swgpu_now_ns() - t0;
		uint64_t next = dt ? slice * DISPATCH_SLICE_NS / dt
		                   : 4 * slice;
		slice = next < DISPATCH_MIN_SLICE ? DISPATCH_MIN_SLICE
		        : next > 4 * slice ? 4 * slice : next;
	}
	d->total_groups = total;
	ir_exec_destroy(helper_exec);
	ir_exec_destroy(main_exec);
	return true;
}

static bool
dispatch(struct exec_env *env, const struct pkt *p, uint64_t shader_va,
         uint64_t bt_va, bool indirect, uint64_t args_va,
         const uint32_t *counts, const uint32_t *base)
{
	struct swgpu_shader *s = NULL;
	struct ir_dispatch *d = NULL;
	struct swgpu_bind_table bt;
	const struct ir_program *prog;
	uint32_t groups[3];
	bool ok = false;
	const bool resuming = env->save && env->save->resuming;
	const uint64_t resume_groups = exec_resume_offset(env);
	struct dispatch_save ds;
	bool ds_init = false;

	memset(&bt, 0, sizeof(bt));
	vaspace_read_lock(env->vs);
	s = shader_lookup(env->vs, shader_va);
	if (!s || !vaspace_translate(env->vs, shader_va, 4, SWGPU_VA_READ)) {
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, shader_va,
		            "no shader at code VA 0x%llx",
		            (unsigned long long)shader_va);
		goto out;
	}
	prog = shader_program(s);
	if (prog->stage != SWGPU_SHADER_STAGE_COMPUTE) {
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, shader_va,
		            "shader at code VA 0x%llx is not a compute shader",
		            (unsigned long long)shader_va);
		goto out;
	}
	if (indirect) {
		const void *a;

		if (args_va & 3) {
			raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, args_va,
			            "indirect args VA not 4-aligned");
			goto out;
		}
		a = vaspace_translate(env->vs, args_va, 12, SWGPU_VA_READ);
		if (!a) {
			page_fault(env, p, args_va, 12, SWGPU_VA_READ);
			goto out;
		}
		memcpy(groups, a, sizeof(groups));
	} else {
		memcpy(groups, counts, sizeof(groups));
	}
	static const uint32_t max_groups[3] = {
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_X,
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_Y,
		SWGPU_SHADER_MAX_WORKGROUP_COUNT_Z,
	};
	for (int k = 0; k < 3; k++)
		if (groups[k] > max_groups[k] ||
		    (uint64_t)base[k] + groups[k] > (uint64_t)UINT32_MAX + 1) {
			raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
			            "group count %u in %c (base %u) over the "
			            "engine's limit %u", groups[k], "xyz"[k],
			            base[k], max_groups[k]);
			goto out;
		}
	if (bt_va) {
		const void *t;

		if (bt_va & 7) {
			raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, bt_va,
			            "bind table VA not 8-aligned");
			goto out;
		}
		t = vaspace_translate(env->vs, bt_va, SWGPU_BIND_TABLE_SIZE,
		                      SWGPU_VA_READ);
		if (!t) {
			page_fault(env, p, bt_va, SWGPU_BIND_TABLE_SIZE,
			           SWGPU_VA_READ);
			goto out;
		}
		memcpy(&bt, t, sizeof(bt));
	}
	if (!groups[0] || !groups[1] || !groups[2]) {
		ok = true;
		goto out;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		            "out of host memory");
		goto out;
	}
	d->prog = prog;
	memcpy(d->push, bt.push_constants, sizeof(d->push));
	memcpy(d->groups, groups, sizeof(groups));
	memcpy(d->base, base, sizeof(d->base));
	d->total_groups = (uint64_t)groups[0] * groups[1] * groups[2];
	d->hang_timeout_ns = env->hang_timeout_ns;
	d->progress_ns = swgpu_now_ns();
	d->vs = env->vs;
	if (!bind_buffers(env, p, prog, &bt, d))
		goto out;
	/* Resumed: the groups before done ran before the preemption (an
	 * indirect count that shrank meanwhile ends the packet). */
	uint64_t done = resume_groups < d->total_groups ? resume_groups
	                                                : d->total_groups;
	bool preempted;
	ds_init = true;
	if (!dispatch_save_begin(&ds, env, p, d, resuming))
		goto out;
	if (!run_dispatch(env, &ds, prog, d, done, &preempted)) {
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, shader_va,
		            "out of host memory for the register file");
		goto out;
	}
	if (d->fault_va) {
		/* A buffer device address that does not translate: the
		 * shader's page fault (interp_phys.c). */
		page_fault(env, p, d->fault_va, 1, d->fault_access);
		goto out;
	}
	if (d->hung) {
		raise_fault(env, p, SWGPU_FAULT_HANG, shader_va,
		            "shader: no workgroup completed for %llu ms",
		            (unsigned long long)(env->hang_timeout_ns /
		                                 1000000u));
		goto out;
	}
	ok = !preempted;
out:
	if (ds_init)
		dispatch_save_end(&ds);
	vaspace_read_unlock(env->vs);
	shader_put(s);
	free(d);
	return ok;
}

bool
exec_dispatch(struct exec_env *env, const uint32_t *pk, uint32_t len,
              const struct pkt *p, uint32_t depth)
{
	(void)len;
	(void)depth;
	return dispatch(env, p, swgpu_pkt_get64(pk + 1),
	                swgpu_pkt_get64(pk + 3), false, 0, pk + 5, pk + 8);
}

bool
exec_dispatch_indirect(struct exec_env *env, const uint32_t *pk,
                       uint32_t len, const struct pkt *p, uint32_t depth)
{
	(void)len;
	(void)depth;
	return dispatch(env, p, swgpu_pkt_get64(pk + 1),
	                swgpu_pkt_get64(pk + 3), true, swgpu_pkt_get64(pk + 5),
	                NULL, pk + 7);
}

/* SPDX-License-Identifier: MIT */
/*
 * Graphics packets (swgpu_packet.h, "Graphics packets", opcodes
 * 0x30..0x3b): passes, state, draws and occlusion queries, executed by
 * graphics engines only (env->gfx, the graphics state of the hardware
 * queue the stream runs on; NULL elsewhere: BAD_PACKET).
 *
 * State packets copy what they name from GPU memory when they execute
 * (the ICD may reuse that memory afterwards); draws translate every
 * range they touch when they run. Like every packet, each one is
 * validated before it changes state or touches memory, so a faulting
 * packet has no effect.
 */
#include "hw/packet/packet_gfx.h"

#include <string.h>

#include "hw/gfx/draw.h"
#include "hw/gfx/pass.h"
#include "hw/shader/shader.h"
#include "kmd/vaspace.h"

static struct gfx_state *
gfx_of(struct exec_env *env, const struct pkt *p)
{
	if (!env->gfx)
		raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		            "graphics packet on an engine without a 3D "
		            "pipeline");
	return env->gfx;
}

/* Copy size bytes at va (align-aligned, readable) into dst. */
static bool
read_struct(struct exec_env *env, const struct pkt *p, uint64_t va,
            uint32_t align, void *dst, size_t size, const char *what)
{
	if (!va || (va & (align - 1)))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "%s VA 0x%llx not %u-aligned", what,
		                   (unsigned long long)va, align);
	vaspace_read_lock(env->vs);
	const void *src = vaspace_translate(env->vs, va, size, SWGPU_VA_READ);
	if (!src) {
		page_fault(env, p, va, size, SWGPU_VA_READ);
		vaspace_read_unlock(env->vs);
		return false;
	}
	memcpy(dst, src, size);
	vaspace_read_unlock(env->vs);
	return true;
}

/* ------------------------------------------------------------------ */
/* Passes                                                              */
/* ------------------------------------------------------------------ */

/* The pass a BEGIN_PASS or RESOLVE packet points at, read and checked. */
static bool
read_pass(struct exec_env *env, const uint32_t *pk, const struct pkt *p,
          struct swgpu_pass *ps, const char *what)
{
	char why[96];

	if (!read_struct(env, p, swgpu_pkt_get64(pk + 1), 8, ps, sizeof(*ps),
	                 what))
		return false;
	if (!gfx_pass_validate(ps, why, sizeof(why)))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET,
		                   swgpu_pkt_get64(pk + 1), "%s", why);
	return true;
}

bool
exec_begin_pass(struct exec_env *env, const uint32_t *pk, uint32_t len,
                const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct swgpu_pass ps;

	if (!g)
		return false;
	if (g->pass_open)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "a pass is already open");
	if (!read_pass(env, pk, p, &ps, "pass"))
		return false;
	vaspace_read_lock(env->vs);
	bool ok = gfx_pass_begin(env, p, &ps, g->pool);
	vaspace_read_unlock(env->vs);
	if (!ok)
		return false;
	g->pass = ps;
	g->pass_open = true;
	return true;
}

bool
exec_end_pass(struct exec_env *env, const uint32_t *pk, uint32_t len,
              const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);

	if (!g)
		return false;
	if (!g->pass_open)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "no pass open");
	g->pass_open = false;
	vaspace_read_lock(env->vs);
	bool ok = gfx_pass_resolve(env, p, &g->pass, g->pool);
	vaspace_read_unlock(env->vs);
	return ok;
}

/* RESOLVE: a pass's resolves alone (vkCmdResolveImage). */
bool
exec_resolve(struct exec_env *env, const uint32_t *pk, uint32_t len,
             const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct swgpu_pass ps;

	if (!g)
		return false;
	if (g->pass_open)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "resolve inside a pass");
	if (!read_pass(env, pk, p, &ps, "resolve pass"))
		return false;
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_COLOR_ATTACHMENTS + 2; i++) {
		const struct swgpu_attachment *a = gfx_pass_attachment(&ps, i);
		if (a && a->load_op != SWGPU_LOAD_LOAD)
			return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET,
			                   swgpu_pkt_get64(pk + 1),
			                   "resolve with a load op not LOAD");
	}
	vaspace_read_lock(env->vs);
	bool ok = gfx_pass_resolve(env, p, &ps, g->pool);
	vaspace_read_unlock(env->vs);
	return ok;
}

bool
exec_clear_attachments(struct exec_env *env, const uint32_t *pk,
                       uint32_t len, const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	uint32_t n = pk[6];

	if (!g)
		return false;
	if (!n || len != SWGPU_LEN_CLEAR_ATTACHMENTS(n) ||
	    pk[1] > SWGPU_ATTACHMENT_STENCIL)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "clear attachments: attachment %u, %u rects "
		                   "in %u dwords", pk[1], n, len);
	if (!g->pass_open)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "clear attachments outside a pass");
	vaspace_read_lock(env->vs);
	bool ok = gfx_clear_attachments(env, p, &g->pass, pk[1], pk + 2, n,
	                                pk + 7);
	vaspace_read_unlock(env->vs);
	return ok;
}

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

/* The shader of stage at code VA va, or NULL (reported at the draw). */
static struct swgpu_shader *
lookup_shader(struct exec_env *env, uint64_t va, uint32_t stage,
              struct gfx_program *prog)
{
	struct swgpu_shader *s;

	memset(prog, 0, sizeof(*prog));
	if (!va)
		return NULL;
	vaspace_read_lock(env->vs);
	s = shader_lookup(env->vs, va);
	bool mapped = vaspace_translate(env->vs, va, 4, SWGPU_VA_READ);
	vaspace_read_unlock(env->vs);
	if (s && (!mapped || shader_program(s)->stage != stage)) {
		shader_put(s);
		s = NULL;
	}
	if (s) {
		const struct ir_program *ir = shader_program(s);
		prog->ir = ir;
		prog->io = &ir->io;
		prog->builtins_used = ir->builtins_used;
		prog->uniform_outputs = ir->uniform_outputs;
		prog->uniform_push_only = ir->uniform_push_only;
	}
	return s;
}

bool
exec_set_pipeline(struct exec_env *env, const uint32_t *pk, uint32_t len,
                  const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct swgpu_pipeline_state ps;
	const uint64_t va = swgpu_pkt_get64(pk + 1);

	if (!g)
		return false;
	if (!read_struct(env, p, va, 8, &ps, sizeof(ps), "pipeline"))
		return false;
	if (ps.size != sizeof(ps) || ps.flags ||
	    ps.binding_count > SWGPU_GFX_MAX_VERTEX_BINDINGS ||
	    ps.attrib_count > SWGPU_GFX_MAX_VERTEX_ATTRIBS)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "pipeline at 0x%llx: size %u, flags 0x%x, "
		                   "%u bindings, %u attributes",
		                   (unsigned long long)va, ps.size, ps.flags,
		                   ps.binding_count, ps.attrib_count);
	bool same = g->has_pipeline && ps.vs_code_va == g->pipe.vs_code_va &&
	            ps.fs_code_va == g->pipe.fs_code_va &&
	            (g->vs_shader || !ps.vs_code_va) &&
	            (g->fs_shader || !ps.fs_code_va);
	if (!same) {
		struct gfx_program vp, fp;
		struct swgpu_shader *vs = lookup_shader(
			env, ps.vs_code_va, SWGPU_SHADER_STAGE_VERTEX, &vp);
		struct swgpu_shader *fs = lookup_shader(
			env, ps.fs_code_va, SWGPU_SHADER_STAGE_FRAGMENT, &fp);
		gfx_state_set_programs(g, vs, &vp, fs, &fp);
	}
	g->pipe = ps;
	g->pipe_va = va;
	g->has_pipeline = true;
	return true;
}

bool
exec_set_dynamic(struct exec_env *env, const uint32_t *pk, uint32_t len,
                 const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct swgpu_raster_state rs;

	if (!g)
		return false;
	if (!read_struct(env, p, swgpu_pkt_get64(pk + 1), 8, &rs, sizeof(rs),
	                 "dynamic state"))
		return false;
	g->dyn = rs;
	g->has_dynamic = true;
	return true;
}

bool
exec_set_vertex_buffers(struct exec_env *env, const uint32_t *pk,
                        uint32_t len, const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	uint32_t first = pk[1], n = pk[2];

	if (!g)
		return false;
	if (n > SWGPU_GFX_MAX_VERTEX_BINDINGS ||
	    first > SWGPU_GFX_MAX_VERTEX_BINDINGS - n ||
	    len != SWGPU_LEN_SET_VERTEX_BUFFERS(n))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, 0,
		                   "vertex buffers %u..%u+%u in %u dwords",
		                   first, first, n, len);
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *b = pk + 3 + 5 * i;
		g->vb[first + i].va = swgpu_pkt_get64(b);
		g->vb[first + i].size = swgpu_pkt_get64(b + 2);
		g->vb[first + i].stride = b[4];
	}
	return true;
}

bool
exec_set_index_buffer(struct exec_env *env, const uint32_t *pk, uint32_t len,
                      const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	uint64_t va = swgpu_pkt_get64(pk + 1);
	uint32_t size = pk[5];

	if (!g)
		return false;
	if ((size != 1 && size != 2 && size != 4) || (va & (size - 1)))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "index buffer 0x%llx with %u-byte indices",
		                   (unsigned long long)va, size);
	g->ib_va = va;
	g->ib_size = swgpu_pkt_get64(pk + 3);
	g->index_size = size;
	return true;
}

/* ------------------------------------------------------------------ */
/* Draws                                                               */
/* ------------------------------------------------------------------ */

static bool
read_bind_table(struct exec_env *env, const struct pkt *p, uint64_t va,
                struct swgpu_bind_table *bt)
{
	memset(bt, 0, sizeof(*bt));
	if (!va)
		return true;
	return read_struct(env, p, va, 8, bt, sizeof(*bt), "bind table");
}

static void
trace_draw(struct exec_env *env, const struct pkt *p, uint64_t t0,
           const struct gfx_state *g)
{
	if (env->draw_hook)
		env->draw_hook(env->wait_cookie, p->opcode, t0, swgpu_now_ns(),
		               &g->last);
}

/* Where the commands of an indirect draw are. */
struct indirect_src {
	uint64_t va;
	uint32_t stride;
	uint64_t span;
	uint32_t first_draw_index;  /* DrawIndex of command 0 */
};

/* The draws of one packet: the inline command, or n commands of src. */
static bool
run_draws(struct exec_env *env, const struct pkt *p, struct gfx_state *g,
          uint64_t bt_va, const struct gfx_draw_cmd *inline_cmd,
          const struct indirect_src *src, uint32_t n, bool indexed)
{
	struct swgpu_bind_table bt;
	const bool resuming = exec_resume_offset(env) != 0;
	uint32_t first = resuming ? g->resume.draw : 0;
	const uint64_t t0 = swgpu_now_ns();
	const uint8_t *base = NULL;
	bool ok = true;

	memset(&g->last, 0, sizeof(g->last));
	if (!read_bind_table(env, p, bt_va, &bt))
		return false;
	vaspace_read_lock(env->vs);
	if (src) {
		/* Read while the draws run, inside their read section, so
		 * the mapping cannot go away meanwhile. */
		base = vaspace_translate(env->vs, src->va, src->span,
		                         SWGPU_VA_READ);
		if (!base) {
			page_fault(env, p, src->va, src->span, SWGPU_VA_READ);
			vaspace_read_unlock(env->vs);
			return false;
		}
	}
	for (uint32_t i = first; i < n; i++) {
		struct gfx_draw_cmd cmd;
		if (inline_cmd) {
			cmd = *inline_cmd;
		} else {
			uint32_t w[5];
			memcpy(w, base + (uint64_t)i * src->stride,
			       indexed ? 20 : 16);
			memset(&cmd, 0, sizeof(cmd));
			cmd.indexed = indexed;
			cmd.count = w[0];
			cmd.instance_count = w[1];
			cmd.first = w[2];
			if (indexed) {
				cmd.vertex_offset = (int32_t)w[3];
				cmd.first_instance = w[4];
			} else {
				cmd.first_instance = w[3];
			}
		}
		cmd.draw_index = i;
		cmd.draw_id = i + (src ? src->first_draw_index : 0);
		if (i != first && exec_preempt_point(env, 1)) {
			g->resume.draw = i;
			g->resume.instance = 0;
			g->resume.prims = 0;
			ok = false;
			break;
		}
		if (!cmd.count || !cmd.instance_count)
			continue;
		if (!gfx_draw_prepare(env, p, g, &bt, g->draw)) {
			ok = false;
			break;
		}
		enum gfx_draw_result r = gfx_draw_run(env, p, g->draw, &cmd,
		                                      resuming && i == first);
		if (r != GFX_DRAW_DONE) {
			ok = false;
			break;
		}
	}
	vaspace_read_unlock(env->vs);
	trace_draw(env, p, t0, g);
	return ok;
}

bool
exec_draw(struct exec_env *env, const uint32_t *pk, uint32_t len,
          const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct gfx_draw_cmd cmd = {
		.indexed = false, .count = pk[3], .instance_count = pk[4],
		.first = pk[5], .first_instance = pk[6],
	};

	if (!g)
		return false;
	return run_draws(env, p, g, swgpu_pkt_get64(pk + 1), &cmd, NULL, 1,
	                 false);
}

bool
exec_draw_indexed(struct exec_env *env, const uint32_t *pk, uint32_t len,
                  const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	struct gfx_draw_cmd cmd = {
		.indexed = true, .count = pk[3], .instance_count = pk[4],
		.first = pk[5], .vertex_offset = (int32_t)pk[6],
		.first_instance = pk[7],
	};

	if (!g)
		return false;
	return run_draws(env, p, g, swgpu_pkt_get64(pk + 1), &cmd, NULL, 1,
	                 true);
}

bool
exec_draw_indirect(struct exec_env *env, const uint32_t *pk, uint32_t len,
                   const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	const uint32_t flags = swgpu_pkt_flags(pk[0]);
	const bool indexed = flags & SWGPU_DRAW_INDEXED;
	const uint64_t args = swgpu_pkt_get64(pk + 3);
	const uint64_t count_va = swgpu_pkt_get64(pk + 7);
	const uint32_t cmd_bytes = indexed ? 20u : 16u;
	uint32_t n = pk[5], stride = pk[6];

	if (!g)
		return false;
	if ((args & 3) || (n > 1 && (stride < cmd_bytes ||
	                                      (stride & 3))) ||
	    ((flags & SWGPU_DRAW_COUNT) && (count_va & 3)) ||
	    (!(flags & SWGPU_DRAW_COUNT) && count_va))
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, args,
		                   "indirect draw: args 0x%llx, stride %u, "
		                   "count VA 0x%llx",
		                   (unsigned long long)args, stride,
		                   (unsigned long long)count_va);
	if (flags & SWGPU_DRAW_COUNT) {
		uint32_t c;
		if (!read_struct(env, p, count_va, 4, &c, 4, "draw count"))
			return false;
		if (c < n)
			n = c;
	}
	if (!n)
		return true;
	struct indirect_src src = {
		.va = args, .stride = stride,
		.span = (uint64_t)(n - 1) * stride + cmd_bytes,
		.first_draw_index = pk[9],
	};
	return run_draws(env, p, g, swgpu_pkt_get64(pk + 1), NULL, &src, n,
	                 indexed);
}

/* ------------------------------------------------------------------ */
/* Occlusion queries                                                   */
/* ------------------------------------------------------------------ */

static bool
query_va(struct exec_env *env, const struct pkt *p, uint64_t va,
         uint64_t **w)
{
	if (va & 7)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "query VA 0x%llx not 8-aligned",
		                   (unsigned long long)va);
	*w = vaspace_translate(env->vs, va, 8, SWGPU_VA_WRITE);
	if (!*w)
		return page_fault(env, p, va, 8, SWGPU_VA_WRITE);
	return true;
}

bool
exec_query_begin(struct exec_env *env, const uint32_t *pk, uint32_t len,
                 const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	const uint64_t va = swgpu_pkt_get64(pk + 1);
	uint64_t *w;

	if (!g)
		return false;
	if (g->query_open)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "a query is already open");
	vaspace_read_lock(env->vs);
	bool ok = query_va(env, p, va, &w);
	vaspace_read_unlock(env->vs);
	if (!ok)
		return false;
	g->query_open = true;
	g->query_va = va;
	g->query_count = 0;
	return true;
}

bool
exec_query_end(struct exec_env *env, const uint32_t *pk, uint32_t len,
               const struct pkt *p, uint32_t depth)
{
	struct gfx_state *g = gfx_of(env, p);
	const uint64_t va = swgpu_pkt_get64(pk + 1);
	uint64_t *w;

	if (!g)
		return false;
	if (!g->query_open || va != g->query_va)
		return raise_fault(env, p, SWGPU_FAULT_BAD_PACKET, va,
		                   "query end at 0x%llx without its begin",
		                   (unsigned long long)va);
	vaspace_read_lock(env->vs);
	bool ok = query_va(env, p, va, &w);
	if (ok)
		__atomic_store_n(w, g->query_count, __ATOMIC_RELEASE);
	vaspace_read_unlock(env->vs);
	if (ok)
		g->query_open = false;
	return ok;
}

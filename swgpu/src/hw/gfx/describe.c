/* SPDX-License-Identifier: MIT */
/*
 * Text for state dumps: the graphics state registers of a hardware queue
 * (captured by the engine thread when a job faults) and graphics packets
 * decoded from their dwords.
 */
#include "hw/gfx/describe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hw/gfx/gfx_internal.h"

struct out {
	char *buf;
	size_t size, len;
};

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->len + 1 >= o->size)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len = o->len + (size_t)n < o->size ? o->len + (size_t)n
		                                      : o->size - 1;
}

static const char *
fmt_name(uint32_t format)
{
	const swgpu_format_info *fi = swgpu_format_get_info(format);

	return fi ? fi->name : "?";
}

static const char *
topology_name(uint32_t t)
{
	static const char *const n[] = {
		"POINT_LIST", "LINE_LIST", "LINE_STRIP", "TRIANGLE_LIST",
		"TRIANGLE_STRIP", "TRIANGLE_FAN", "LINE_LIST_ADJ",
		"LINE_STRIP_ADJ", "TRIANGLE_LIST_ADJ", "TRIANGLE_STRIP_ADJ",
	};
	return t < sizeof(n) / sizeof(n[0]) ? n[t] : "?";
}

static const char *
compare_name(uint32_t op)
{
	static const char *const n[] = {
		"NEVER", "LESS", "EQUAL", "LESS_OR_EQUAL", "GREATER",
		"NOT_EQUAL", "GREATER_OR_EQUAL", "ALWAYS",
	};
	return op < 8 ? n[op] : "?";
}

static void
attachment(struct out *o, const char *what, const struct swgpu_attachment *a)
{
	static const char *const load[] = { "LOAD", "CLEAR", "DONT_CARE" };
	static const char *const resolve[] = {
		"NONE", "SAMPLE_ZERO", "AVERAGE", "MIN", "MAX",
	};

	if (!a->va)
		return;
	put(o, "; %s: va 0x%llx %s %ux%u pitch %llu load %s", what,
	    (unsigned long long)a->va, fmt_name(a->format), a->width,
	    a->height, (unsigned long long)a->row_pitch,
	    a->load_op < 3 ? load[a->load_op] : "?");
	if (a->samples > 1)
		put(o, " %u samples", a->samples);
	if (a->resolve_va)
		put(o, " resolve %s to va 0x%llx pitch %llu",
		    a->resolve_mode < 5 ? resolve[a->resolve_mode] : "?",
		    (unsigned long long)a->resolve_va,
		    (unsigned long long)a->resolve_row_pitch);
}

void
gfx_state_describe(const struct gfx_state *g, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!size)
		return;
	buf[0] = '\0';
	if (g->pass_open) {
		const struct swgpu_pass *ps = &g->pass;
		put(&o, "      pass: area %d,%d %ux%u, %u layer(s)", ps->area_x,
		    ps->area_y, ps->area_width, ps->area_height,
		    ps->layer_count);
		if (ps->view_mask)
			put(&o, ", view mask 0x%x", ps->view_mask);
		for (uint32_t i = 0; i < ps->color_count && i < 8; i++) {
			char what[16];
			snprintf(what, sizeof(what), "colour %u", i);
			attachment(&o, what, &ps->color[i]);
		}
		attachment(&o, "depth", &ps->depth);
		attachment(&o, "stencil", &ps->stencil);
		put(&o, "\n");
	} else {
		put(&o, "      pass: none open\n");
	}
	if (g->has_pipeline) {
		const struct swgpu_pipeline_state *p = &g->pipe;
		const struct swgpu_raster_state *rs = &p->state;
		put(&o, "      pipeline 0x%llx: vs 0x%llx%s fs 0x%llx%s, %s, "
		    "polygon mode %u, cull %u, front %s, depth test %u %s "
		    "write %u, stencil %u, blend[0] %u, dynamic 0x%llx\n",
		    (unsigned long long)g->pipe_va,
		    (unsigned long long)p->vs_code_va,
		    g->vs_shader ? "" : " (unknown)",
		    (unsigned long long)p->fs_code_va,
		    g->fs_shader || !p->fs_code_va ? "" : " (unknown)",
		    topology_name(rs->topology), rs->polygon_mode,
		    rs->cull_mode, rs->front_face ? "CW" : "CCW",
		    rs->depth_test, compare_name(rs->depth_compare),
		    rs->depth_write, rs->stencil_test, rs->blend[0].enable,
		    (unsigned long long)p->dynamic_mask);
		if (rs->rasterization_samples > 1)
			put(&o, "      multisample: %u samples, mask 0x%x, sample "
			    "shading %u (min %g), alpha to coverage %u, alpha "
			    "to one %u\n", rs->rasterization_samples,
			    rs->sample_mask, rs->sample_shading,
			    (double)rs->min_sample_shading,
			    rs->alpha_to_coverage, rs->alpha_to_one);
	} else {
		put(&o, "      pipeline: none\n");
	}
	bool any = false;
	for (uint32_t i = 0; i < SWGPU_GFX_MAX_VERTEX_BINDINGS; i++) {
		const struct gfx_vbuf *v = &g->vb[i];
		if (!v->va)
			continue;
		put(&o, "%s %u: va 0x%llx size %llu stride %u",
		    any ? ";" : "      vertex buffers:", i,
		    (unsigned long long)v->va, (unsigned long long)v->size,
		    v->stride);
		any = true;
	}
	if (any)
		put(&o, "\n");
	if (g->index_size)
		put(&o, "      index buffer: va 0x%llx size %llu, %u-byte "
		    "indices\n", (unsigned long long)g->ib_va,
		    (unsigned long long)g->ib_size, g->index_size);
	if (g->query_open)
		put(&o, "      occlusion query open at 0x%llx: %llu samples\n",
		    (unsigned long long)g->query_va,
		    (unsigned long long)g->query_count);
}

bool
gfx_packet_describe(const uint32_t *pk, uint32_t len, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	const uint32_t op = swgpu_pkt_opcode(pk[0]);

	if (!size)
		return false;
	buf[0] = '\0';
#define NEED(n) do { if (len < (n)) return false; } while (0)
	switch (op) {
	case SWGPU_OP_BEGIN_PASS:
		NEED(3);
		put(&o, "pass 0x%llx",
		    (unsigned long long)swgpu_pkt_get64(pk + 1));
		break;
	case SWGPU_OP_END_PASS:
		put(&o, "end of pass");
		break;
	case SWGPU_OP_RESOLVE:
		NEED(3);
		put(&o, "resolve pass 0x%llx",
		    (unsigned long long)swgpu_pkt_get64(pk + 1));
		break;
	case SWGPU_OP_CLEAR_ATTACHMENTS:
		NEED(13);
		put(&o, "attachment %u value %08x %08x %08x %08x, %u rect(s), "
		    "first %d,%d %ux%u layers %u+%u", pk[1], pk[2], pk[3],
		    pk[4], pk[5], pk[6], (int32_t)pk[7], (int32_t)pk[8], pk[9],
		    pk[10], pk[11], pk[12]);
		break;
	case SWGPU_OP_SET_PIPELINE:
	case SWGPU_OP_SET_DYNAMIC:
		NEED(3);
		put(&o, "%s 0x%llx", op == SWGPU_OP_SET_PIPELINE ? "pipeline"
		                                                 : "state",
		    (unsigned long long)swgpu_pkt_get64(pk + 1));
		break;
	case SWGPU_OP_SET_VERTEX_BUFFERS:
		NEED(3);
		put(&o, "bindings %u..%u", pk[1], pk[1] + pk[2]);
		for (uint32_t i = 0; i < pk[2] && 3 + 5 * i + 5 <= len && i < 4;
		     i++) {
			const uint32_t *b = pk + 3 + 5 * i;
			put(&o, "; va 0x%llx size %llu stride %u",
			    (unsigned long long)swgpu_pkt_get64(b),
			    (unsigned long long)swgpu_pkt_get64(b + 2), b[4]);
		}
		break;
	case SWGPU_OP_SET_INDEX_BUFFER:
		NEED(6);
		put(&o, "va 0x%llx size %llu, %u-byte indices",
		    (unsigned long long)swgpu_pkt_get64(pk + 1),
		    (unsigned long long)swgpu_pkt_get64(pk + 3), pk[5]);
		break;
	case SWGPU_OP_DRAW:
		NEED(7);
		put(&o, "bind table 0x%llx, %u vertices x %u instances from "
		    "vertex %u instance %u",
		    (unsigned long long)swgpu_pkt_get64(pk + 1), pk[3], pk[4],
		    pk[5], pk[6]);
		break;
	case SWGPU_OP_DRAW_INDEXED:
		NEED(8);
		put(&o, "bind table 0x%llx, %u indices x %u instances from "
		    "index %u, vertex offset %d, instance %u",
		    (unsigned long long)swgpu_pkt_get64(pk + 1), pk[3], pk[4],
		    pk[5], (int32_t)pk[6], pk[7]);
		break;
	case SWGPU_OP_DRAW_INDIRECT:
		NEED(10);
		put(&o, "%s%s: bind table 0x%llx, commands at 0x%llx, %u "
		    "draw(s), stride %u, count at 0x%llx, first DrawIndex %u",
		    swgpu_pkt_flags(pk[0]) & SWGPU_DRAW_INDEXED ? "indexed"
		                                                : "vertices",
		    swgpu_pkt_flags(pk[0]) & SWGPU_DRAW_COUNT ? " with count"
		                                              : "",
		    (unsigned long long)swgpu_pkt_get64(pk + 1),
		    (unsigned long long)swgpu_pkt_get64(pk + 3), pk[5], pk[6],
		    (unsigned long long)swgpu_pkt_get64(pk + 7), pk[9]);
		break;
	case SWGPU_OP_QUERY_BEGIN:
	case SWGPU_OP_QUERY_END:
		NEED(3);
		put(&o, "counter 0x%llx%s",
		    (unsigned long long)swgpu_pkt_get64(pk + 1),
		    swgpu_pkt_flags(pk[0]) & SWGPU_QUERY_PRECISE ? " precise"
		                                                 : "");
		break;
	default:
		return false;
	}
#undef NEED
	return true;
}

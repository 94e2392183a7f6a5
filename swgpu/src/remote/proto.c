/* SPDX-License-Identifier: MIT */
/* What both ends of the daemon socket share (proto.h). */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h> /* environ */
#include <stdio.h>
#include <string.h>

#include <swgpu/swgpu_status.h>

#include "remote/proto.h"

static const char *const op_names[PROTO_OP_COUNT] = {
	[PROTO_OP_NONE] = "NONE",
#define PROTO_NAME(n) [PROTO_##n] = #n,
	PROTO_OPS(PROTO_NAME)
#undef PROTO_NAME
};

#ifndef SWGPU_PROTO_HASH
#define SWGPU_PROTO_HASH "unknown"
#endif

const char *
proto_hash(void)
{
	return SWGPU_PROTO_HASH;
}

const char *
proto_op_name(uint32_t op)
{
	return op < PROTO_OP_COUNT ? op_names[op] : "UNKNOWN";
}

void
proto_put_config(struct wire_wr *w, const swgpu_config *cfg)
{
	for (unsigned i = 0; i < SWGPU_ENGINE_CLASS_COUNT; i++)
		wire_put_u32(w, cfg->engine_count[i]);
	wire_put_u64(w, cfg->vram_size);
	wire_put_u64(w, cfg->bar_size);
	wire_put_u64(w, cfg->system_size);
	wire_put_u64(w, cfg->vram_budget);
	wire_put_u32(w, cfg->ring_size);
	wire_put_u32(w, cfg->hang_timeout_ms);
	wire_put_u32(w, cfg->spin_us);
	wire_put_u32(w, cfg->gfx_threads);
	wire_put_u32(w, cfg->preempt_chaos);
	wire_put_u32(w, cfg->slice_ms);
	wire_put_u32(w, cfg->publish_ms);
	wire_put_u32(w, (uint32_t)cfg->debug | (uint32_t)cfg->no_preempt << 1 |
	                (uint32_t)cfg->no_migrate << 2 |
	                (uint32_t)cfg->no_publish << 3);
	wire_put_str(w, cfg->fault);
	wire_put_str(w, cfg->trace);
	wire_put_str(w, cfg->dump_dir);
}

bool
proto_get_config(struct wire_rd *r, swgpu_config *cfg)
{
	uint32_t flags;

	memset(cfg, 0, sizeof(*cfg));
	for (unsigned i = 0; i < SWGPU_ENGINE_CLASS_COUNT; i++)
		cfg->engine_count[i] = wire_get_u32(r);
	cfg->vram_size = wire_get_u64(r);
	cfg->bar_size = wire_get_u64(r);
	cfg->system_size = wire_get_u64(r);
	cfg->vram_budget = wire_get_u64(r);
	cfg->ring_size = wire_get_u32(r);
	cfg->hang_timeout_ms = wire_get_u32(r);
	cfg->spin_us = wire_get_u32(r);
	cfg->gfx_threads = wire_get_u32(r);
	cfg->preempt_chaos = wire_get_u32(r);
	cfg->slice_ms = wire_get_u32(r);
	cfg->publish_ms = wire_get_u32(r);
	flags = wire_get_u32(r);
	cfg->debug = flags & 1;
	cfg->no_preempt = flags & 2;
	cfg->no_migrate = flags & 4;
	cfg->no_publish = flags & 8;
	cfg->fault = wire_get_str(r);
	cfg->trace = wire_get_str(r);
	cfg->dump_dir = wire_get_str(r);
	return !r->bad;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A hash of this process's SWGPU_* variables but SWGPU_MODE, 0 when it
 * has none. Knobs read outside swgpu_config (SWGPU_SHADER, the shader
 * caches, SIMD paths, spinning) are process-wide in the daemon: clients
 * that set them differently need a daemon of their own. */
static uint64_t
env_hash(void)
{
	const char *vars[256];
	unsigned n = 0;
	uint64_t h = 0xcbf29ce484222325ull;

	for (char **e = environ; *e && n < 256; e++)
		if (!strncmp(*e, "SWGPU_", 6) && strncmp(*e, "SWGPU_MODE=", 11))
			vars[n++] = *e;
	if (!n)
		return 0;
	qsort(vars, n, sizeof(vars[0]), cmp_str);
	for (unsigned i = 0; i < n; i++)
		for (const char *c = vars[i]; ; c++) {
			h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
			if (!*c)
				break;
		}
	return h;
}

bool
proto_socket_path(char *buf, size_t size)
{
	char dir[PATH_MAX - 64];
	uint64_t env = env_hash();
	int n;

	if (!swgpu_status_dir(dir, sizeof(dir)) || !swgpu_status_dir_make(dir))
		return false;
	if (env)
		n = snprintf(buf, size, "%s/swgpud-%.12s-%08x.sock", dir,
		             proto_hash(), (unsigned)(env >> 32));
	else
		n = snprintf(buf, size, "%s/swgpud-%.12s.sock", dir,
		             proto_hash());
	return n > 0 && (size_t)n < size;
}

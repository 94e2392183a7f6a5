/* SPDX-License-Identifier: MIT */
/* swgpud's GPUs, one per device configuration (gpu_table.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/gpu_table.h"
#include "daemon/ring_server.h"
#include "remote/proto.h"
#include "util/util.h"

struct gpu {
	void *key;                   /* the configuration's bytes; the
	                                parsed config's strings point here */
	size_t key_size;
	swgpu_device *dev;
	struct ring_server rings;
	bool rings_on;
	unsigned sessions;
	struct gpu *next;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gpu *gpus;
static unsigned sessions_total;

swgpu_result
gpu_table_get(const void *cfg_bytes, size_t size, struct gpu **gpu_out,
              swgpu_device **dev_out)
{
	struct gpu *g;
	swgpu_result r = SWGPU_OK;

	pthread_mutex_lock(&table_lock);
	for (g = gpus; g; g = g->next)
		if (g->key_size == size && !memcmp(g->key, cfg_bytes, size))
			break;
	if (!g) {
		struct wire_rd rd;
		swgpu_config cfg;

		g = calloc(1, sizeof(*g));
		if (g)
			g->key = malloc(size ? size : 1);
		if (!g || !g->key) {
			r = SWGPU_ERR_NO_HOST_MEMORY;
			goto fail;
		}
		memcpy(g->key, cfg_bytes, size);
		g->key_size = size;
		wire_rd_init(&rd, g->key, size);
		if (!proto_get_config(&rd, &cfg)) {
			r = SWGPU_ERR_INVALID_ARG;
			goto fail;
		}
		r = swgpu_device_open(&cfg, &g->dev);
		if (r != SWGPU_OK)
			goto fail;
		g->rings_on = ring_server_init(&g->rings, g->dev);
		g->next = gpus;
		gpus = g;
		swgpu_log("swgpud: GPU opened (%u graphics, %u compute, %u copy "
		          "engines)", cfg.engine_count[SWGPU_ENGINE_GRAPHICS],
		          cfg.engine_count[SWGPU_ENGINE_COMPUTE],
		          cfg.engine_count[SWGPU_ENGINE_COPY]);
	}
	g->sessions++;
	sessions_total++;
	pthread_mutex_unlock(&table_lock);
	*gpu_out = g;
	*dev_out = g->dev;
	return SWGPU_OK;
fail:
	pthread_mutex_unlock(&table_lock);
	if (g)
		free(g->key);
	free(g);
	return r;
}

void
gpu_table_put(struct gpu *g)
{
	pthread_mutex_lock(&table_lock);
	sessions_total--;
	if (--g->sessions) {
		pthread_mutex_unlock(&table_lock);
		return;
	}
	for (struct gpu **p = &gpus; *p; p = &(*p)->next)
		if (*p == g) {
			*p = g->next;
			break;
		}
	pthread_mutex_unlock(&table_lock);
	swgpu_device_close(g->dev);
	if (g->rings_on)
		ring_server_fini(&g->rings);
	free(g->key);
	free(g);
}

struct ring_server *
gpu_table_ring_server(struct gpu *g)
{
	return g && g->rings_on ? &g->rings : NULL;
}

unsigned
gpu_table_sessions(void)
{
	unsigned n;

	pthread_mutex_lock(&table_lock);
	n = sessions_total;
	pthread_mutex_unlock(&table_lock);
	return n;
}

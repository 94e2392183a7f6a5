/* SPDX-License-Identifier: MIT */
/* Per-process memory accounting (mem_owner.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include "kmd/mem_owner.h"

#include <errno.h> /* program_invocation_short_name */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmd/mem.h"

static struct mem_owner *
find_locked(struct swgpu_mem *mem, int pid)
{
	for (struct mem_owner *o = mem->owners; o; o = o->next)
		if (o->pid == pid)
			return o;
	return NULL;
}

struct mem_owner *
mem_owner_get_locked(struct swgpu_mem *mem)
{
	int pid = kmd_owner_pid_now();
	struct mem_owner *o = find_locked(mem, pid);

	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return NULL;
		o->pid = pid;
		snprintf(o->program, sizeof(o->program), "%s",
		         kmd_owner_pid() ? kmd_owner_program()
		                         : program_invocation_short_name);
		o->next = mem->owners;
		mem->owners = o;
	}
	o->bos++;
	return o;
}

void
mem_owner_put_locked(struct swgpu_mem *mem, struct mem_owner *owner)
{
	if (!owner || --owner->bos)
		return;
	for (struct mem_owner **p = &mem->owners; *p; p = &(*p)->next)
		if (*p == owner) {
			*p = owner->next;
			break;
		}
	free(owner);
}

void
mem_owner_fini(struct swgpu_mem *mem)
{
	while (mem->owners) {
		struct mem_owner *o = mem->owners;

		mem->owners = o->next;
		free(o);
	}
}

void
mem_owner_budget(struct swgpu_mem *mem, swgpu_heap heap, uint64_t *usage,
                 uint64_t *budget)
{
	const struct mem_owner *o;
	uint64_t mine, free_bytes;

	pthread_mutex_lock(&mem->lock);
	o = find_locked(mem, kmd_owner_pid_now());
	mine = o ? o->used[heap] : 0;
	free_bytes = mem->heap_used[heap] < mem->heap_budget[heap]
	             ? mem->heap_budget[heap] - mem->heap_used[heap] : 0;
	pthread_mutex_unlock(&mem->lock);
	if (usage)
		*usage = mine;
	if (budget)
		*budget = mine + free_bytes;
}

void
mem_owner_bar_budget(struct swgpu_mem *mem, uint64_t *usage,
                     uint64_t *budget)
{
	const struct mem_owner *o;
	uint64_t mine, free_bytes;

	pthread_mutex_lock(&mem->lock);
	o = find_locked(mem, kmd_owner_pid_now());
	mine = o ? o->bar_used : 0;
	free_bytes = mem->bar_used < mem->bar_size
	             ? mem->bar_size - mem->bar_used : 0;
	pthread_mutex_unlock(&mem->lock);
	if (usage)
		*usage = mine;
	if (budget)
		*budget = mine + free_bytes;
}

uint32_t
mem_owner_snapshot(struct swgpu_mem *mem, struct mem_owner *out, uint32_t max)
{
	uint32_t n = 0, total = 0;

	pthread_mutex_lock(&mem->lock);
	for (const struct mem_owner *o = mem->owners; o; o = o->next) {
		total++;
		/* Keep the largest VRAM users when there are too many. */
		uint32_t i = n < max ? n++ : max;
		if (i == max) {
			uint32_t least = 0;

			for (uint32_t k = 1; k < max; k++)
				if (out[k].used[SWGPU_HEAP_VRAM] <
				    out[least].used[SWGPU_HEAP_VRAM])
					least = k;
			if (!max || out[least].used[SWGPU_HEAP_VRAM] >=
			            o->used[SWGPU_HEAP_VRAM])
				continue;
			i = least;
		}
		out[i] = *o;
		out[i].next = NULL;
	}
	pthread_mutex_unlock(&mem->lock);
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t k = i; k > 0 && out[k].used[SWGPU_HEAP_VRAM] >
		                     out[k - 1].used[SWGPU_HEAP_VRAM]; k--) {
			struct mem_owner t = out[k];

			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return total;
}

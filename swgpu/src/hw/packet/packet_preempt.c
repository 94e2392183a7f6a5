/* SPDX-License-Identifier: MIT */
/*
 * Preemption points of packet streams (packet_exec.h): the question the
 * handlers ask at each point (the engine's hook, or the
 * SWGPU_PREEMPT_CHAOS testing knob), the resume point they record, and
 * the save area's release when the job ends.
 */
#include <stdint.h>

#include "hw/packet/packet_exec.h"
#include "kmd/mem.h"

/* One draw of SWGPU_PREEMPT_CHAOS: true about once in env->chaos calls
 * (a hash of the job's draw counter and its save area's address). */
static bool
chaos_stop(struct exec_env *env)
{
	uint64_t x = __atomic_fetch_add(&env->save->chaos_ctr, 1,
	                                __ATOMIC_RELAXED) +
	             (uint64_t)(uintptr_t)env->save * 0x9e3779b97f4a7c15ull;

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x % env->chaos == 0;
}

bool
exec_preempt_wanted(struct exec_env *env)
{
	if (!env->save || !env->preempt_hook)
		return false;
	return env->preempt_hook(env->wait_cookie) ||
	       (env->chaos && chaos_stop(env));
}

void
exec_preempt_record(struct exec_env *env, uint64_t done)
{
	/* The innermost exec_stream records its depth and position, the
	 * outer ones their positions, on the way out. */
	env->save->valid = false;
	env->save->offset = done;
	env->preempted = true;
}

bool
exec_preempt_point(struct exec_env *env, uint64_t done)
{
	if (!exec_preempt_wanted(env))
		return false;
	exec_preempt_record(env, done);
	return true;
}

void
exec_save_release(struct exec_save *sv)
{
	bo_unref(sv->area);
	sv->area = NULL;
}

uint64_t
exec_resume_offset(struct exec_env *env)
{
	struct exec_save *sv = env->save;

	if (!sv || !sv->resuming)
		return 0;
	sv->resuming = false;
	sv->valid = false;
	return sv->offset;
}


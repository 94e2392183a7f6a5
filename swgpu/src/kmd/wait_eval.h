/* SPDX-License-Identifier: MIT */
/*
 * One rule for a host wait on several sync objects, whoever looks at
 * them: the kmd at its objects (syncobj.c), a shared-mode client at
 * their mirrors (remote/client_fast.c).
 */
#ifndef SWGPU_KMD_WAIT_EVAL_H
#define SWGPU_KMD_WAIT_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

enum wait_state { WS_NOT_YET, WS_OK, WS_FAILED, WS_NOT_SUBMITTED };

/* The state of object i of the wait. */
typedef enum wait_state (*wait_state_fn)(const void *arg, uint32_t i);

/* ANY: the first satisfied object (index in *first) decides; ALL: every
 * one. A missing payload (NOT_SUBMITTED) or a failed signaller
 * (CONTEXT_LOST) ends the wait too. *done false: keep waiting. */
static inline swgpu_result
wait_eval_states(wait_state_fn state, const void *arg, uint32_t count,
                 uint32_t flags, uint32_t *first, bool *done)
{
	bool all = flags & SWGPU_WAIT_ALL;
	uint32_t ok = 0, failed = 0, not_submitted = 0;

	*done = true;
	for (uint32_t i = 0; i < count; i++) {
		switch (state(arg, i)) {
		case WS_OK:
			if (!all) {
				if (first)
					*first = i;
				return SWGPU_OK;
			}
			ok++;
			break;
		case WS_FAILED:
			failed++;
			break;
		case WS_NOT_SUBMITTED:
			not_submitted++;
			break;
		case WS_NOT_YET:
			break;
		}
	}
	if (not_submitted)
		return SWGPU_ERR_NOT_SUBMITTED;
	if (failed)
		return SWGPU_ERR_CONTEXT_LOST;
	if (all && ok == count) {
		if (first)
			*first = 0;
		return SWGPU_OK;
	}
	*done = false;
	return SWGPU_TIMEOUT;
}

#endif

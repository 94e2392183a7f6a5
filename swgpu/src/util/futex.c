/* SPDX-License-Identifier: MIT */
#include "util/futex.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void
futex_wake_all_shared(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL,
	        0);
}

void
futex_wait_shared(_Atomic uint32_t *word, uint32_t expected,
                  uint64_t deadline_ns)
{
	/* WAIT_BITSET takes an absolute CLOCK_MONOTONIC time, the clock of
	 * swgpu_now_ns. */
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000u),
		.tv_nsec = (long)(deadline_ns % 1000000000u),
	};

	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET, expected,
	        deadline_ns == UINT64_MAX ? NULL : &ts, NULL,
	        FUTEX_BITSET_MATCH_ANY);
}

/* SPDX-License-Identifier: MIT */
#include "util/futex.h"

#include <errno.h>
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

void
futex_wake_one(_Atomic uint32_t *word, bool private_word)
{
	syscall(SYS_futex, (uint32_t *)word,
	        private_word ? FUTEX_WAKE_PRIVATE : FUTEX_WAKE, 1, NULL, NULL,
	        0);
}

bool
futex_wait_many(const struct futex_word *words, unsigned n)
{
	struct futex_waitv w[FUTEX_WAIT_MANY_MAX];

	if (n > FUTEX_WAIT_MANY_MAX)
		n = FUTEX_WAIT_MANY_MAX;
	for (unsigned i = 0; i < n; i++) {
		w[i] = (struct futex_waitv){
			.val = words[i].expected,
			.uaddr = (uint64_t)(uintptr_t)words[i].word,
			.flags = FUTEX_32 | (words[i].private_word
			                     ? FUTEX_PRIVATE_FLAG : 0),
		};
	}
#ifdef SYS_futex_waitv
	return syscall(SYS_futex_waitv, w, n, 0, NULL, 0) >= 0 ||
	       errno != ENOSYS;
#else
	return false;
#endif
}

/* SPDX-License-Identifier: MIT */
/*
 * Futexes on words that other processes map too (memfd pages): never the
 * PRIVATE variants, which key the word by this address space only.
 */
#ifndef SWGPU_FUTEX_H
#define SWGPU_FUTEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Wake every thread (of any process) asleep on word. */
void futex_wake_all_shared(_Atomic uint32_t *word);
/* Sleep while *word == expected, at most until deadline_ns
 * (swgpu_now_ns() clock; UINT64_MAX: no limit). Returns at once if the
 * word already differs; spurious returns happen: callers look again. */
void futex_wait_shared(_Atomic uint32_t *word, uint32_t expected,
                       uint64_t deadline_ns);

/* Wake at most one thread asleep on word (any process; private: only
 * this process's, for words no other process maps). */
void futex_wake_one(_Atomic uint32_t *word, bool private_word);

/* One word of futex_wait_many: sleep while *word == expected. */
struct futex_word {
	_Atomic uint32_t *word;
	uint32_t expected;
	bool private_word;
};

/* Sleep until one of the n words (at most FUTEX_WAIT_MANY_MAX) is woken
 * or differs from its expected value (futex_waitv). Spurious returns
 * happen; a word that is not mapped any more returns at once. false:
 * the kernel has no futex_waitv (ENOSYS), nothing slept. */
#define FUTEX_WAIT_MANY_MAX 128u
bool futex_wait_many(const struct futex_word *words, unsigned n);

#endif

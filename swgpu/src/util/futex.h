/* SPDX-License-Identifier: MIT */
/*
 * Futexes on words that other processes map too (memfd pages): never the
 * PRIVATE variants, which key the word by this address space only.
 */
#ifndef SWGPU_FUTEX_H
#define SWGPU_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/* Wake every thread (of any process) asleep on word. */
void futex_wake_all_shared(_Atomic uint32_t *word);
/* Sleep while *word == expected, at most until deadline_ns
 * (swgpu_now_ns() clock; UINT64_MAX: no limit). Returns at once if the
 * word already differs; spurious returns happen: callers look again. */
void futex_wait_shared(_Atomic uint32_t *word, uint32_t expected,
                       uint64_t deadline_ns);

#endif

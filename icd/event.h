/* SPDX-License-Identifier: MIT */
/*
 * event.h — 64-bit words in GPU memory shared by the host and the engines
 * (events, query results and availability), and the event object.
 *
 * Words come from a per-VkDevice suballocator (event.c): blocks of a
 * SYSTEM-heap, CPU-cached BO, mapped on the host and READ|WRITE in the
 * device's context. The host reads and writes a word with single atomic
 * 64-bit accesses (acquire/release); the engines write it with SEM_SIGNAL,
 * TIMESTAMP, COPY or FILL packets and read it with SEM_WAIT and COPY.
 */
#ifndef ICD_EVENT_H
#define ICD_EVENT_H

#include "icd.h"

struct icd_word_block;

/* A run of count consecutive 64-bit words. */
struct icd_words {
	struct icd_word_block *block;
	uint32_t first;         /* index in the block */
	uint32_t count;
	uint64_t *cpu;          /* host pointer of the first word */
	uint64_t va;            /* GPU VA of the first word */
};

/* Allocate count zeroed words of dev. VK_ERROR_OUT_OF_HOST_MEMORY or
 * VK_ERROR_OUT_OF_DEVICE_MEMORY on failure. */
VkResult icd_words_alloc(struct icd_device *dev, uint32_t count,
                         struct icd_words *out);
/* Give the words back (the GPU must be done with them). */
void icd_words_free(struct icd_device *dev, struct icd_words *w);

static inline uint64_t
icd_word_load(const uint64_t *word)
{
	return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

static inline void
icd_word_store(uint64_t *word, uint64_t value)
{
	__atomic_store_n(word, value, __ATOMIC_RELEASE);
}

struct icd_event {
	struct icd_object base;
	struct icd_words word;  /* 0: reset, 1: set */
};

ICD_DEFINE_HANDLE_CASTS(icd_event, VkEvent, VK_OBJECT_TYPE_EVENT)

#endif /* ICD_EVENT_H */

/* SPDX-License-Identifier: MIT */
/*
 * Bulk memory operations of the engines (internal): the data movement of
 * COPY, FILL and the image packets.
 *
 * Large operations use non-temporal (streaming) stores. An ordinary store
 * first reads the destination line into the cache, so a big copy moves
 * three bytes over the memory bus for every two it writes and evicts
 * whatever the host had cached; a GPU's copy engine writes around the
 * cache, and so do we. Measured on the project's 2-core VM (256 MiB
 * copies): 1 MiB memmove chunks 7.9 GB/s, one glibc memcpy 9.3 GB/s,
 * streaming stores in 1 MiB chunks 14.4 GB/s.
 *
 * Streaming stores are weakly ordered: whoever wrote with stream = true
 * calls memops_stream_done() before the packet completes, so the fence
 * write that publishes the job (a release store) cannot pass them.
 */
#ifndef SWGPU_MEMOPS_H
#define SWGPU_MEMOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Operations at least this large stream (smaller ones stay cached: the
 * next packet likely reads them). */
#define MEMOPS_STREAM_MIN (256u * 1024u)

/* Copy n bytes. The ranges must not overlap when stream is true. */
void memops_copy(void *dst, const void *src, size_t n, bool stream);

/* Fill n bytes (multiple of 4, dst 4-aligned) with a 32-bit pattern. */
void memops_fill32(void *dst, size_t n, uint32_t pattern, bool stream);

/* Order every streaming store before later stores (sfence). */
void memops_stream_done(void);

#endif

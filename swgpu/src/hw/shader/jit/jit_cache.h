/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's caches of native code (jit_cache.c): the key of
 * a compile and the on-disk cache of object files, like Mesa's shader
 * cache (docs/ARCHITECTURE.md, "Shader compiler").
 *
 * Key: a 128-bit FNV-1a hash over JIT_COMPILER_VERSION, the vector
 * length, LLVM's version, the host CPU's name and features, the driver
 * build (the GNU build id of the binary holding this code) and every
 * field of the IR program the compiled code can depend on (with the
 * registers read after it, ir_live_exit_regs). Two compiles
 * with the same key produce the same object bytes.
 *
 * Disk: one file per key, <dir>/<32 hex digits>.o, holding a header
 * (magic, format version, key, payload size, FNV-1a 64 checksum of the
 * payload) then the object file. Written to a temporary file and renamed
 * (a reader never sees half a file); a read checks everything and
 * ignores (logs, deletes) an entry that does not match. Past the size
 * cap the least recently used entries (mtime, refreshed on each hit) go.
 *
 * Knobs (read once per process):
 *   SWGPU_SHADER_CACHE=0          no disk cache
 *   SWGPU_SHADER_CACHE_DIR=dir    else $XDG_CACHE_HOME/swgpu, else
 *                                 $HOME/.cache/swgpu
 *   SWGPU_SHADER_CACHE_MAX_MB=n   size cap (default 256)
 */
#ifndef SWGPU_SHADER_JIT_CACHE_H
#define SWGPU_SHADER_JIT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/shader/ir.h"

/* Bump whenever the code generated for a given IR program changes (new
 * ops compiled, a different segment plan, calling convention, passes):
 * old cache entries must then miss. jitcore and jitops engineers: this
 * constant is yours too. */
#define JIT_COMPILER_VERSION 9u   /* 3: loops in passes (jitloop), frame calls (jitops2); 4: both; 5: IR_REG_FIRST_FREE 63 (SAMPLE_COUNT); 6: loops carry live registers only (ir_live); 7: IR_REG_FIRST_FREE 64 (CENTROID_SAMPLE); 8: loops check stop requests (jitstop19); 9: stop polls every 1024 blocks */

struct jit_cache_key {
	uint8_t b[16];
};

/* The key of compiling p with vector length lanes on this host. */
void jit_cache_key_make(const struct ir_program *p, uint32_t lanes,
                        struct jit_cache_key *key);

/* The key as 32 lowercase hex digits and a NUL. */
void jit_cache_key_hex(const struct jit_cache_key *key, char out[33]);

/* The disk cache directory the knobs select, or NULL when it is off
 * (SWGPU_SHADER_CACHE=0, or no directory could be found: logged once). */
const char *jit_cache_dir(void);

/* The size cap in bytes (SWGPU_SHADER_CACHE_MAX_MB). */
uint64_t jit_cache_max_bytes(void);

/* The object stored under key in dir: malloc'ed bytes (*size set), or
 * NULL on a miss, or on an entry found corrupt or truncated (logged and
 * deleted). A hit marks the entry recently used. */
void *jit_cache_load(const char *dir, const struct jit_cache_key *key,
                     size_t *size);
/* Whether dir has an entry file for key (not read: jit_cache_load
 * checks it). */
bool jit_cache_has(const char *dir, const struct jit_cache_key *key);

/* Store size bytes under key in dir (atomically: temporary file +
 * rename), then evict least recently used entries until the directory's
 * entries total at most max_bytes. false (logged) on an I/O error. */
bool jit_cache_store(const char *dir, const struct jit_cache_key *key,
                     const void *data, size_t size, uint64_t max_bytes);

/* An entry: this header, then size bytes of object file. The disk
 * cache's files and the blobs of application caches (VkPipelineCache,
 * swgpu_shader_binary_get) have this one format. */
#define JIT_ENTRY_MAGIC 0x434a5753u  /* "SWJC" */
#define JIT_ENTRY_VERSION 1u
struct jit_entry_header {
	uint32_t magic, version;
	uint8_t key[16];
	uint64_t size;               /* payload bytes */
	uint64_t checksum;           /* jit_cache_checksum of the payload */
};

/* FNV-1a 64 of n bytes. */
uint64_t jit_cache_checksum(const void *data, size_t n);

/* A malloc'ed entry (header + obj) for key, *blob_size set; NULL when
 * out of memory. */
void *jit_entry_wrap(const struct jit_cache_key *key, const void *obj,
                     size_t size, size_t *blob_size);

/* NULL if blob is a sound entry for key (*obj, *obj_size: its payload,
 * inside blob), else why not. */
const char *jit_entry_check(const struct jit_cache_key *key,
                            const void *blob, size_t blob_size,
                            const void **obj, size_t *obj_size);

/* ---- the process's in-memory cache (jit_cache_mem.c) ----
 * Every object compiled or loaded in this process, by key, least
 * recently used ones dropped past SWGPU_SHADER_MEM_CACHE_MB (default
 * 64): a program compiled twice in one process (two pipelines of one
 * shader) compiles once, and swgpu_shader_binary_get finds the code of
 * any live or recent shader. */
void jit_mem_put(const struct jit_cache_key *key, const void *obj,
                 size_t size);
/* A malloc'ed copy of key's object (*size set), or NULL. */
void *jit_mem_get(const struct jit_cache_key *key, size_t *size);
/* Whether the memory cache has key's object (nothing copied). */
bool jit_mem_has(const struct jit_cache_key *key);
/* Free the memory cache (driver unload, jit_unload). */
void jit_mem_fini(void);
/* Free the knobs' strings (driver unload, jit_unload). */
void jit_cache_fini(void);

/* pipelineCacheUUID: the compiler version, entry format, LLVM version
 * and driver build, hashed. */
void jit_cache_build_uuid(uint8_t uuid[16]);

/* Counters of this process (atomic), for tests and debugging. */
struct jit_cache_stats {
	uint64_t compiles;       /* LLVM emissions + optimizations */
	uint64_t disk_hits;      /* programs loaded from the disk cache */
	uint64_t disk_misses;    /* lookups that found nothing usable */
	uint64_t disk_corrupt;   /* entries ignored as corrupt */
	uint64_t disk_stores;
	uint64_t evictions;
	uint64_t mem_hits;       /* programs loaded from the memory cache */
	uint64_t app_hits;       /* ... from an application's blob */
	uint64_t app_rejects;    /* application blobs that failed a check
	                            or did not load */
	uint64_t async_queued;   /* compiles sent to the background */
	uint64_t async_cancelled;  /* ... dropped: program freed first */
};
void jit_cache_stats_get(struct jit_cache_stats *out);

/* Internal: count one event (a field of jit_cache_stats). */
void jit_cache_stat_add(uint64_t *field);
extern struct jit_cache_stats jit_cache_counters;

#endif

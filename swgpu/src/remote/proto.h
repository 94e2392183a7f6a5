/* SPDX-License-Identifier: MIT */
/*
 * The swgpud protocol (docs/ARCHITECTURE.md, "Shared mode"): one request
 * per swgpu.h call that needs the GPU, answered by one reply with the same
 * tag. Objects are named by 64-bit ids that mean something only inside the
 * session (one connection = one client device): a client can name nothing
 * of another client's.
 *
 * Both ends must be the same protocol: HELLO carries SWGPU_PROTO_HASH, a
 * hash of swgpu.h and this file computed by the build, because some
 * replies are swgpu.h structs copied as bytes.
 */
#ifndef SWGPU_REMOTE_PROTO_H
#define SWGPU_REMOTE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "remote/wire.h"


#define PROTO_OPS(X) \
	X(HELLO) X(DEV_CLOSE) \
	X(DEV_ENGINE_STATS) X(DEV_MEM_STATS) X(DEV_HEAP_BUDGET) \
	X(DEV_BAR_BUDGET) X(DEV_DUMP) X(DEV_TRIM) \
	X(DEV_TRACE_TRACK) X(DEV_TRACE_EVENT) \
	X(CTX_CREATE) X(CTX_DESTROY) X(CTX_STATE) X(VA_MAP) X(VA_UNMAP) \
	X(BO_CREATE) X(BO_IMPORT_FD) X(BO_DESTROY) X(BO_MAP) X(BO_UNMAP) \
	X(BO_OFFER) X(BO_RECLAIM) X(BO_SET_PRIORITY) X(BO_LOCATION) \
	X(SYNC_CREATE) X(SYNC_DESTROY) X(SYNC_SIGNAL) X(SYNC_RESET) \
	X(SYNC_QUERY) X(SYNC_EXPORT_FD) X(SYNC_IMPORT_FD) X(SYNC_WAIT) \
	X(QUEUE_CREATE) X(QUEUE_DESTROY) X(QUEUE_SUBMIT) \
	X(QUEUE_COMPLETED) X(QUEUE_ENGINE) X(QUEUE_WAIT) X(QUEUE_FAULT) \
	X(SHADER_CREATE) X(SHADER_DESTROY) X(SHADER_BINARY_GET) \
	X(SHADER_LOOKUP)

enum proto_op {
	PROTO_OP_NONE = 0,
#define PROTO_ENUM(n) PROTO_##n,
	PROTO_OPS(PROTO_ENUM)
#undef PROTO_ENUM
	PROTO_OP_COUNT
};

/* SHADER_LOOKUP is the daemon's question within a SHADER_CREATE whose
 * client has an application cache (swgpu_shader_info.binary_lookup):
 * payload the 16-byte key, same tag as the request; the client answers
 * with a SHADER_LOOKUP message of that tag whose payload is the blob
 * (empty: none). */

/* Kinds of session objects. */
enum proto_kind {
	PROTO_KIND_CTX = 1,
	PROTO_KIND_BO,
	PROTO_KIND_SYNC,
	PROTO_KIND_QUEUE,
	PROTO_KIND_SHADER,
};

/* Sync objects one wait or one submit's waits (or signals) may name. */
#define PROTO_MAX_SYNC_POINTS 256u

/* Sync object waits in the daemon run in slices of this many ns, so a
 * session that closes or an object destroyed under a wait is noticed. */
#define PROTO_WAIT_SLICE_NS 50000000ull

const char *proto_op_name(uint32_t op);
/* The protocol's identity: a hash the build computes over swgpu.h and the
 * sources of both ends (swgpu/CMakeLists.txt). */
const char *proto_hash(void);

/* A device configuration on the wire; the strings read point into the
 * payload. The daemon keys its GPUs by these bytes. */
void proto_put_config(struct wire_wr *w, const swgpu_config *cfg);
bool proto_get_config(struct wire_rd *r, swgpu_config *cfg);
/* The daemon's socket for this user and protocol:
 * <status dir>/swgpud-<hash>.sock (the directory made and checked). */
bool proto_socket_path(char *buf, size_t size);

#endif

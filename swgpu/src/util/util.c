/* SPDX-License-Identifier: MIT */
#include "util/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *
swgpu_result_str(swgpu_result r)
{
	switch (r) {
#define CASE(x) case x: return #x
	CASE(SWGPU_OK);
	CASE(SWGPU_TIMEOUT);
	CASE(SWGPU_NOT_READY);
	CASE(SWGPU_DISCARDED);
	CASE(SWGPU_ERR_INVALID_ARG);
	CASE(SWGPU_ERR_NO_HOST_MEMORY);
	CASE(SWGPU_ERR_NO_DEVICE_MEMORY);
	CASE(SWGPU_ERR_NO_VA_SPACE);
	CASE(SWGPU_ERR_NOT_MAPPABLE);
	CASE(SWGPU_ERR_NOT_MAPPED);
	CASE(SWGPU_ERR_CONTEXT_LOST);
	CASE(SWGPU_ERR_TIMELINE_REWIND);
	CASE(SWGPU_ERR_NOT_SUBMITTED);
	CASE(SWGPU_ERR_UNSUPPORTED);
	CASE(SWGPU_ERR_DEVICE_BUSY);
	CASE(SWGPU_ERR_BAD_HANDLE);
	CASE(SWGPU_ERR_NOT_PERMITTED);
#undef CASE
	}
	return "SWGPU_RESULT_UNKNOWN";
}

/* CLOCK_MONOTONIC because deadlines are absolute and must not jump with
 * wall-clock changes. */
uint64_t
swgpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t
swgpu_deadline_from_timeout(uint64_t timeout_ns)
{
	if (timeout_ns == SWGPU_DEADLINE_INFINITE)
		return SWGPU_DEADLINE_INFINITE;
	return swgpu_add_sat(swgpu_now_ns(), timeout_ns);
}

/* Format into one buffer and write it with a single fputs so lines from
 * concurrent threads do not interleave. */
static void
log_v(const char *prefix, const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "swgpu: %s", prefix);

	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	size_t len = m < 0 ? (size_t)n : (size_t)n + (size_t)m;

	if (len >= sizeof(buf) - 1)
		len = sizeof(buf) - 2;
	if (len == 0 || buf[len - 1] != '\n') {
		buf[len] = '\n';
		buf[len + 1] = '\0';
	}
	fputs(buf, stderr);
}

void
swgpu_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v("", fmt, ap);
	va_end(ap);
}

swgpu_result
swgpu_err_at(bool debug, swgpu_result r, const char *file, int line,
             const char *func, const char *fmt, ...)
{
	if (!debug)
		return r;

	char prefix[192];
	const char *base = strrchr(file, '/');
	va_list ap;

	snprintf(prefix, sizeof(prefix), "%s:%d %s: %s: ",
	         base ? base + 1 : file, line, func, swgpu_result_str(r));
	va_start(ap, fmt);
	log_v(prefix, fmt, ap);
	va_end(ap);
	return r;
}

static bool debug_env_value;
static pthread_once_t debug_env_once = PTHREAD_ONCE_INIT;

static void
debug_env_init(void)
{
	const char *s = getenv("SWGPU_DEBUG");

	debug_env_value = s && *s && strcmp(s, "0") != 0;
}

bool
swgpu_debug_env(void)
{
	pthread_once(&debug_env_once, debug_env_init);
	return debug_env_value;
}

bool
swgpu_env_u64(const char *name, uint64_t *out)
{
	const char *s = getenv(name);
	char *end = NULL;

	if (!s)
		return false;
	/* strtoull accepts "-1" and leading blanks; a size never does. */
	const char *p = s;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '-' || *p == '+') {
		swgpu_log("ignoring malformed %s=\"%s\" (expected an unsigned "
		          "number)", name, s);
		return false;
	}
	/* Decimal or 0x hex; base 0 would read "010" as octal. */
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	errno = 0;
	unsigned long long v = strtoull(p, &end, base);
	if (errno != 0 || end == p || *p == '-' || *p == '+' || *p == ' ') {
		swgpu_log("ignoring malformed %s=\"%s\" (expected an unsigned "
		          "number)", name, s);
		return false;
	}
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end != '\0') {
		swgpu_log("ignoring malformed %s=\"%s\" (trailing characters)",
		          name, s);
		return false;
	}
	*out = (uint64_t)v;
	return true;
}

void *
swgpu_calloc_private(size_t n, size_t size)
{
	const size_t a = SWGPU_PRIVATE_ALIGN;
	size_t bytes;
	void *m;

	if (__builtin_mul_overflow(n, size, &bytes) || bytes > SIZE_MAX - a)
		return NULL;
	bytes = bytes ? (bytes + a - 1) & ~(a - 1) : a;
	m = aligned_alloc(a, bytes);
	if (m)
		memset(m, 0, bytes);
	return m;
}

/* SPDX-License-Identifier: MIT */
/* What the swgpud test clients (shared_client.c, one_gpu_client.c) share:
 * a check that prints the failing line and exits 1, and a BO mapped at a
 * VA. */
#ifndef DAEMON_CLIENT_UTIL_H
#define DAEMON_CLIENT_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <swgpu/swgpu.h>

#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)
#define CHECK(c) \
	do { \
		if (!(c)) { \
			printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #c); \
			fflush(stdout); \
			exit(1); \
		} \
	} while (0)
#define OK(x) CHECK((x) == SWGPU_OK)

struct buf {
	swgpu_bo *bo;
	uint64_t va;
	uint8_t *cpu;   /* SYSTEM BOs only */
};

#endif

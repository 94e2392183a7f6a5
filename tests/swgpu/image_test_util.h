/* SPDX-License-Identifier: MIT */
/*
 * Shared fixture of the image packet tests: a memory manager and a VA
 * space without engines, GPU buffers filled with PAD, an IB to emit
 * packets into and run with exec_ib().
 */
#ifndef IMAGE_TEST_UTIL_H
#define IMAGE_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <swgpu/swgpu.h>

#include "kmd/mem.h"
#include "hw/packet/packet_exec.h"
#include "kmd/vaspace.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)
#define PAD 0xcd

struct gbuf {
	uint64_t va;
	uint8_t *cpu;
	uint64_t size;
};

struct fixture {
	struct swgpu_mem mem;
	struct swgpu_vaspace *vs;
	struct exec_env env;
	swgpu_fault_info fault;
	swgpu_engine_stats stats;
	struct gbuf ib;
	uint32_t n;
};

/* A mapped GPU buffer filled with PAD. */
struct gbuf gbuf_new(struct fixture *f, uint64_t size, uint32_t va_flags);
int img_setup(void **state);
int img_teardown(void **state);
/* Where the next packet goes. */
uint32_t *emit(struct fixture *f);
/* Run the packets emitted so far (then start a new IB). */
bool run(struct fixture *f);
void expect_fault(struct fixture *f, swgpu_fault_kind kind, uint32_t opcode);
bool all_bytes(const uint8_t *p, uint64_t n, uint8_t v);
uint32_t rnd(void);
void fill_random(uint8_t *p, uint64_t n);
/* Check a pitched dst box (at byte doff of d) against the src box, and
 * every other byte of d against PAD. */
void check_box(const struct gbuf *d, uint64_t doff, uint64_t drp,
               uint64_t dsp, const uint8_t *s, uint64_t srp, uint64_t ssp,
               uint64_t rb, uint32_t rows, uint32_t slices);
uint32_t fbits(float v);

#endif

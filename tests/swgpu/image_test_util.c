/* SPDX-License-Identifier: MIT */
/* Shared fixture of the image packet tests (see image_test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "image_test_util.h"

struct gbuf
gbuf_new(struct fixture *f, uint64_t size, uint32_t va_flags)
{
	struct gbuf b = { .size = size };
	struct swgpu_bo *bo;

	assert_int_equal(bo_create_in(&f->mem, NULL, size, SWGPU_HEAP_SYSTEM,
	                              0, &bo), SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, size, va_flags, &b.va),
	                 SWGPU_OK);
	b.cpu = bo->cpu;
	swgpu_bo_destroy(bo);   /* the mapping holds it */
	memset(b.cpu, PAD, size);
	return b;
}

int
img_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	cfg.vram_size = 64 * MIB;
	cfg.bar_size = 16 * MIB;
	cfg.system_size = 1024 * MIB;
	mem_init(&f->mem, &cfg);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096,
	                                &f->vs), SWGPU_OK);
	f->env = (struct exec_env){
		.vs = f->vs, .engine = 1, .max_ib_depth = 4,
		.max_ib_size_dw = 1u << 16,
		.hang_timeout_ns = 10ull * 1000000000ull,
		.fault = &f->fault, .stats = &f->stats,
	};
	f->ib = gbuf_new(f, 64 * KIB, RW);
	*state = f;
	return 0;
}

int
img_teardown(void **state)
{
	struct fixture *f = *state;

	vaspace_destroy(f->vs);
	assert_int_equal(f->mem.bo_count, 0);
	mem_fini(&f->mem);
	free(f);
	return 0;
}

uint32_t *
emit(struct fixture *f)
{
	return (uint32_t *)(void *)f->ib.cpu + f->n;
}

bool
run(struct fixture *f)
{
	memset(&f->fault, 0, sizeof(f->fault));
	bool ok = exec_ib(&f->env, f->ib.va, f->n, 1);
	if (!ok && getenv("TEST_VERBOSE"))
		print_message("fault: %s\n", f->fault.message);
	f->n = 0;
	return ok;
}

void
expect_fault(struct fixture *f, swgpu_fault_kind kind, uint32_t opcode)
{
	assert_int_equal(f->fault.kind, kind);
	assert_int_equal(f->fault.opcode, opcode);
	assert_true(f->fault.message[0] != '\0');
}

bool
all_bytes(const uint8_t *p, uint64_t n, uint8_t v)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static uint32_t rng = 12345;

uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

void
fill_random(uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

void
check_box(const struct gbuf *d, uint64_t doff, uint64_t drp, uint64_t dsp,
          const uint8_t *s, uint64_t srp, uint64_t ssp, uint64_t rb,
          uint32_t rows, uint32_t slices)
{
	uint8_t *inside = calloc(1, d->size);

	for (uint32_t z = 0; z < slices; z++)
		for (uint32_t y = 0; y < rows; y++) {
			uint64_t o = doff + z * dsp + y * drp;

			assert_memory_equal(d->cpu + o, s + z * ssp + y * srp,
			                    rb);
			memset(inside + o, 1, rb);
		}
	for (uint64_t i = 0; i < d->size; i++)
		if (!inside[i] && d->cpu[i] != PAD)
			fail_msg("byte %llu outside the box changed",
			         (unsigned long long)i);
	free(inside);
}

uint32_t
fbits(float v)
{
	uint32_t u;

	memcpy(&u, &v, 4);
	return u;
}

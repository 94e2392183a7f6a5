/* SPDX-License-Identifier: MIT */
/* Internal tests of the GPU VA space (vaspace.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <cmocka.h>

#include "kmd/mem.h"
#include "kmd/vaspace.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)
#define RW (SWGPU_VA_READ | SWGPU_VA_WRITE)

struct fixture {
	struct swgpu_mem mem;
	struct swgpu_vaspace *vs;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	swgpu_config cfg;

	swgpu_config_init(&cfg);
	cfg.vram_size = 256 * MIB;
	cfg.bar_size = 16 * MIB;
	cfg.system_size = 256 * MIB;
	mem_init(&f->mem, &cfg);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, SWGPU_VA_SIZE, 4096,
	                                &f->vs), SWGPU_OK);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	vaspace_destroy(f->vs);
	/* Everything must have been released by the test itself. */
	assert_int_equal(f->mem.bo_count, 0);
	mem_fini(&f->mem);
	free(f);
	return 0;
}

static struct swgpu_bo *
new_bo(struct fixture *f, uint64_t size)
{
	struct swgpu_bo *bo;

	assert_int_equal(bo_create_in(&f->mem, NULL, size, SWGPU_HEAP_SYSTEM,
	                              0, &bo), SWGPU_OK);
	return bo;
}

static void *
tr(struct swgpu_vaspace *vs, uint64_t va, uint64_t size, uint32_t access)
{
	void *p;

	vaspace_read_lock(vs);
	p = vaspace_translate(vs, va, size, access);
	vaspace_read_unlock(vs);
	return p;
}

static void
test_create_args(void **state)
{
	struct swgpu_vaspace *vs = (void *)1;

	assert_int_equal(vaspace_create(0, 1ull << 30, 4096, &vs),
	                 SWGPU_ERR_INVALID_ARG);
	assert_null(vs);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE + 4096, 1ull << 30, 4096,
	                                &vs), SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, 0, 4096, &vs),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, UINT64_MAX, 4096, &vs),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, 1ull << 30, 3000, &vs),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_create(SWGPU_VA_BASE, 1ull << 30, 4096, NULL),
	                 SWGPU_ERR_INVALID_ARG);
	vaspace_destroy(NULL);
}

static void
test_map_translate(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 256 * KIB);
	uint64_t va = 0;
	uint8_t *p;

	/* Map the middle 128 KiB + 100 bytes of the BO. */
	assert_int_equal(vaspace_map(f->vs, bo, 64 * KIB, 128 * KIB + 100, RW,
	                             &va), SWGPU_OK);
	assert_true(va >= SWGPU_VA_BASE);
	assert_true(va + 128 * KIB + 100 <= SWGPU_VA_BASE + SWGPU_VA_SIZE);
	assert_int_equal(va % SWGPU_VA_ALIGNMENT, 0);
	assert_int_equal(vaspace_mapping_count(f->vs), 1);

	assert_ptr_equal(tr(f->vs, va, 1, SWGPU_VA_READ), bo->cpu + 64 * KIB);
	assert_ptr_equal(tr(f->vs, va, 0, SWGPU_VA_WRITE), bo->cpu + 64 * KIB);
	p = tr(f->vs, va + 1000, 8, RW);
	assert_ptr_equal(p, bo->cpu + 64 * KIB + 1000);
	/* The whole range, and its last byte, but not one byte more. */
	assert_non_null(tr(f->vs, va, 128 * KIB + 100, RW));
	assert_null(tr(f->vs, va, 128 * KIB + 101, RW));
	assert_non_null(tr(f->vs, va + 128 * KIB + 99, 1, RW));
	assert_null(tr(f->vs, va + 128 * KIB + 100, 1, RW));
	assert_null(tr(f->vs, va + 128 * KIB + 99, 2, RW));
	assert_null(tr(f->vs, va - 1, 1, RW));
	assert_null(tr(f->vs, va - 1, 2, RW));
	assert_null(tr(f->vs, 0, 1, SWGPU_VA_READ));

	assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_OK);
	assert_int_equal(vaspace_mapping_count(f->vs), 0);
	assert_null(tr(f->vs, va, 1, SWGPU_VA_READ));
	swgpu_bo_destroy(bo);
}

static void
test_guard_gap(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 64 * KIB);
	uint64_t a, b, c;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 64 * KIB, RW, &a),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, RW, &b), SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 1, RW, &c), SWGPU_OK);
	assert_true(b >= a + 64 * KIB + SWGPU_VA_GUARD);
	assert_true(c >= b + 4096 + SWGPU_VA_GUARD);
	/* Every byte between a's end and b is unmapped. */
	for (uint64_t va = a + 64 * KIB; va < b; va += 4096)
		assert_null(tr(f->vs, va, 1, SWGPU_VA_READ));
	assert_null(tr(f->vs, b - 1, 1, SWGPU_VA_READ));
	/* A range that starts in a and runs into b faults. */
	assert_null(tr(f->vs, a, b - a + 1, SWGPU_VA_READ));
	assert_int_equal(vaspace_unmap(f->vs, a), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, b), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, c), SWGPU_OK);
	swgpu_bo_destroy(bo);
}

static void
test_permissions(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 4096);
	uint64_t ro, wo, rw, at = 0;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, SWGPU_VA_READ, &ro),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, SWGPU_VA_WRITE, &wo),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, RW, &rw), SWGPU_OK);
	assert_non_null(tr(f->vs, ro, 4, SWGPU_VA_READ));
	assert_null(tr(f->vs, ro, 4, SWGPU_VA_WRITE));
	assert_null(tr(f->vs, ro, 4, RW));
	assert_non_null(tr(f->vs, wo, 4, SWGPU_VA_WRITE));
	assert_null(tr(f->vs, wo, 4, SWGPU_VA_READ));
	/* Aliases share the backing. */
	assert_ptr_equal(tr(f->vs, rw, 4, RW), tr(f->vs, ro, 4, SWGPU_VA_READ));

	vaspace_read_lock(f->vs);
	assert_string_equal(vaspace_fault_reason(f->vs, ro + 8, 4,
	                                         SWGPU_VA_WRITE, &at),
	                    "read-only");
	assert_int_equal(at, ro + 8);
	assert_string_equal(vaspace_fault_reason(f->vs, wo, 4, SWGPU_VA_READ,
	                                         &at), "write-only");
	assert_string_equal(vaspace_fault_reason(f->vs, rw + 4000, 200, RW,
	                                         &at), "out-of-range");
	assert_int_equal(at, rw + 4096);
	assert_string_equal(vaspace_fault_reason(f->vs, rw + 4096, 1, RW,
	                                         &at), "unmapped");
	assert_int_equal(at, rw + 4096);
	assert_string_equal(vaspace_fault_reason(f->vs, 12, 1, RW, NULL),
	                    "unmapped");
	vaspace_read_unlock(f->vs);

	assert_int_equal(vaspace_unmap(f->vs, ro), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, wo), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, rw), SWGPU_OK);
	swgpu_bo_destroy(bo);
}

static void
test_map_args(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 8192);
	uint64_t va = 1;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 0, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(va, 0);
	assert_int_equal(vaspace_map(f->vs, bo, 100, 16, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 4096, 4097, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 8192, 1, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 4096, UINT64_MAX, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, UINT64_MAX - 4095, 4096, RW,
	                             &va), SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, 0, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, 4, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, NULL, 0, 4096, RW, &va),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, RW, NULL),
	                 SWGPU_ERR_INVALID_ARG);
	assert_int_equal(vaspace_mapping_count(f->vs), 0);
	/* Failed maps took no BO reference. */
	assert_int_equal(atomic_load(&bo->refcount), 1);

	assert_int_equal(vaspace_map(f->vs, bo, 4096, 4096, RW, &va),
	                 SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, va + 4096), SWGPU_ERR_NOT_MAPPED);
	assert_int_equal(vaspace_unmap(f->vs, va + 1), SWGPU_ERR_NOT_MAPPED);
	assert_int_equal(vaspace_unmap(f->vs, va - SWGPU_VA_ALIGNMENT),
	                 SWGPU_ERR_NOT_MAPPED);
	assert_int_equal(vaspace_unmap(f->vs, 0), SWGPU_ERR_NOT_MAPPED);
	assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_ERR_NOT_MAPPED);
	swgpu_bo_destroy(bo);
}

static void
test_reuse_freed_range(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 1 * MIB);
	uint64_t a, b, c, d, e;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 256 * KIB, RW, &a),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 256 * KIB, RW, &b),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, bo, 0, 256 * KIB, RW, &c),
	                 SWGPU_OK);
	assert_true(a < b && b < c);
	assert_int_equal(vaspace_unmap(f->vs, b), SWGPU_OK);
	/* First fit: a smaller mapping lands in b's hole... */
	assert_int_equal(vaspace_map(f->vs, bo, 0, 100 * KIB, RW, &d),
	                 SWGPU_OK);
	assert_int_equal(d, b);
	/* ...a bigger one cannot and goes after c. */
	assert_int_equal(vaspace_map(f->vs, bo, 0, 512 * KIB, RW, &e),
	                 SWGPU_OK);
	assert_true(e > c);
	assert_ptr_equal(tr(f->vs, d + 5, 1, RW), bo->cpu + 5);
	assert_ptr_equal(tr(f->vs, c + 7, 1, RW), bo->cpu + 7);
	assert_int_equal(vaspace_mapping_count(f->vs), 4);
	/* BO refs: creator + 4 mappings. */
	assert_int_equal(atomic_load(&bo->refcount), 5);
	vaspace_unmap(f->vs, a);
	vaspace_unmap(f->vs, c);
	vaspace_unmap(f->vs, d);
	vaspace_unmap(f->vs, e);
	assert_int_equal(atomic_load(&bo->refcount), 1);
	swgpu_bo_destroy(bo);
}

static void
test_no_va_space(void **state)
{
	struct fixture *f = *state;
	struct swgpu_vaspace *vs;
	struct swgpu_bo *bo = new_bo(f, 256 * KIB);
	uint64_t a, b, c;

	/* Room for exactly two 64 KiB mappings with their guards. */
	assert_int_equal(vaspace_create(1 * MIB, 256 * KIB, 4096, &vs),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(vs, bo, 0, 64 * KIB, RW, &a), SWGPU_OK);
	assert_int_equal(vaspace_map(vs, bo, 0, 1, RW, &b), SWGPU_OK);
	assert_int_equal(vaspace_map(vs, bo, 0, 1, RW, &c),
	                 SWGPU_ERR_NO_VA_SPACE);
	assert_int_equal(c, 0);
	assert_true(a >= 1 * MIB && b + 1 + SWGPU_VA_GUARD <= 1 * MIB +
	            256 * KIB);
	assert_int_equal(vaspace_unmap(vs, a), SWGPU_OK);
	assert_int_equal(vaspace_map(vs, bo, 0, 128 * KIB, RW, &c),
	                 SWGPU_ERR_NO_VA_SPACE);
	assert_int_equal(vaspace_map(vs, bo, 0, 64 * KIB, RW, &c), SWGPU_OK);
	assert_int_equal(c, a);
	/* vaspace_destroy drops the remaining mappings' references. */
	assert_int_equal(atomic_load(&bo->refcount), 3);
	vaspace_destroy(vs);
	assert_int_equal(atomic_load(&bo->refcount), 1);
	swgpu_bo_destroy(bo);
}

static void
test_mapping_keeps_bo_alive(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 64 * KIB);
	struct swgpu_bo *ref = NULL;
	uint64_t va;
	uint8_t *p;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 64 * KIB, RW, &va),
	                 SWGPU_OK);
	swgpu_bo_destroy(bo); /* creator gone, mapping holds it */
	assert_int_equal(mem_heap_usage(&f->mem, SWGPU_HEAP_SYSTEM), 64 * KIB);
	p = tr(f->vs, va + 100, 4, RW);
	assert_non_null(p);
	memset(p, 0x5a, 4);

	vaspace_read_lock(f->vs);
	p = vaspace_translate_ref(f->vs, va + 100, 4, SWGPU_VA_READ, &ref);
	vaspace_read_unlock(f->vs);
	assert_ptr_equal(ref, bo);
	assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_OK);
	/* The translate reference still keeps the memory (ASan checks). */
	assert_int_equal(p[0], 0x5a);
	assert_int_equal(p[3], 0x5a);
	assert_int_equal(mem_heap_usage(&f->mem, SWGPU_HEAP_SYSTEM), 64 * KIB);
	bo_unref(ref);
	assert_int_equal(mem_heap_usage(&f->mem, SWGPU_HEAP_SYSTEM), 0);

	vaspace_read_lock(f->vs);
	assert_null(vaspace_translate_ref(f->vs, va, 4, SWGPU_VA_READ, &ref));
	vaspace_read_unlock(f->vs);
}

static void
test_overflow_ranges(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 64 * KIB);
	uint64_t va;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 64 * KIB, RW, &va),
	                 SWGPU_OK);
	assert_null(tr(f->vs, UINT64_MAX, 1, RW));
	assert_null(tr(f->vs, UINT64_MAX - 10, 100, RW));
	assert_null(tr(f->vs, UINT64_MAX, UINT64_MAX, RW));
	assert_null(tr(f->vs, va, UINT64_MAX, RW));
	/* va + size wraps around to land inside the mapping again. */
	assert_null(tr(f->vs, va + 16, UINT64_MAX - 7, RW));
	assert_null(tr(f->vs, va + 16, (uint64_t)0 - 16, RW));
	assert_null(tr(f->vs, va + 64 * KIB - 1, UINT64_MAX, RW));
	assert_non_null(tr(f->vs, va + 64 * KIB - 1, 1, RW));
	vaspace_unmap(f->vs, va);
	swgpu_bo_destroy(bo);
}

/* Many mappings in shuffled order: binary search must find each. */
static void
test_many_mappings(void **state)
{
	struct fixture *f = *state;
	enum { N = 1500 };
	struct swgpu_bo *bo = new_bo(f, 16 * 4096);
	uint64_t *va = calloc(N, sizeof(*va));
	uint64_t *off = calloc(N, sizeof(*off));
	uint32_t seed = 12345;

	for (uint32_t i = 0; i < N; i++) {
		off[i] = (uint64_t)(i % 16) * 4096;
		assert_int_equal(vaspace_map(f->vs, bo, off[i], 4096 - i % 7,
		                             RW, &va[i]), SWGPU_OK);
	}
	/* Unmap a pseudo-random half, then remap into the holes. */
	for (uint32_t i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		if ((seed >> 16) & 1) {
			assert_int_equal(vaspace_unmap(f->vs, va[i]), SWGPU_OK);
			assert_int_equal(vaspace_map(f->vs, bo, off[i], 4096 -
			                             i % 7, RW, &va[i]),
			                 SWGPU_OK);
		}
	}
	assert_int_equal(vaspace_mapping_count(f->vs), N);
	for (uint32_t i = 0; i < N; i++) {
		uint64_t size = 4096 - i % 7;

		assert_ptr_equal(tr(f->vs, va[i], 1, RW), bo->cpu + off[i]);
		assert_ptr_equal(tr(f->vs, va[i] + size - 1, 1, RW),
		                 bo->cpu + off[i] + size - 1);
		assert_null(tr(f->vs, va[i] + size, 1, RW));
		assert_null(tr(f->vs, va[i] - 1, 1, RW));
		for (uint32_t j = i + 1; j < N && j < i + 4; j++)
			assert_int_not_equal(va[i], va[j]);
	}
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(vaspace_unmap(f->vs, va[i]), SWGPU_OK);
	free(va);
	free(off);
	swgpu_bo_destroy(bo);
}

/* Engines translating under the read lock while the host maps and
 * unmaps: translations of a stable mapping never fail (TSan checks the
 * locking). */
struct reader_arg {
	struct swgpu_vaspace *vs;
	uint64_t va;
	uint8_t *expect;
	atomic_bool stop;
	uint64_t iterations;
	bool ok;
};

static void *
reader(void *p)
{
	struct reader_arg *a = p;

	a->ok = true;
	while (!atomic_load(&a->stop) || a->iterations < 1000) {
		vaspace_read_lock(a->vs);
		uint8_t *h = vaspace_translate(a->vs, a->va + 64, 64, RW);
		/* Readers only read: they share the read lock. */
		if (h != a->expect + 64 || h[0] != 0x77)
			a->ok = false;
		vaspace_read_unlock(a->vs);
		a->iterations++;
	}
	return NULL;
}

static void
test_concurrent_translate(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *bo = new_bo(f, 64 * KIB);
	struct reader_arg arg[2];
	pthread_t t[2];
	uint64_t stable;

	assert_int_equal(vaspace_map(f->vs, bo, 0, 64 * KIB, RW, &stable),
	                 SWGPU_OK);
	bo->cpu[64] = 0x77;
	for (int i = 0; i < 2; i++) {
		arg[i] = (struct reader_arg){ .vs = f->vs, .va = stable,
		                              .expect = bo->cpu };
		atomic_init(&arg[i].stop, false);
		pthread_create(&t[i], NULL, reader, &arg[i]);
	}
	for (int i = 0; i < 2000; i++) {
		uint64_t va;

		assert_int_equal(vaspace_map(f->vs, bo, 0, 4096, RW, &va),
		                 SWGPU_OK);
		assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_OK);
	}
	for (int i = 0; i < 2; i++) {
		atomic_store(&arg[i].stop, true);
		pthread_join(t[i], NULL);
		assert_true(arg[i].ok);
		assert_true(arg[i].iterations >= 1000);
	}
	assert_int_equal(vaspace_unmap(f->vs, stable), SWGPU_OK);
	swgpu_bo_destroy(bo);
}

/* A read section holds what it translated into: an unmap meanwhile
 * returns at once and the BO goes when the section (or the nested one
 * that translated) ends; untouched mappings go at once. */
static void
test_section_holds_mapping(void **state)
{
	struct fixture *f = *state;
	struct swgpu_bo *a = new_bo(f, 64 * KIB), *b = new_bo(f, 64 * KIB);
	struct swgpu_bo *c = new_bo(f, 64 * KIB);
	uint64_t va, vb, vc;

	assert_int_equal(vaspace_map(f->vs, a, 0, 64 * KIB, RW, &va),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, b, 0, 64 * KIB, RW, &vb),
	                 SWGPU_OK);
	assert_int_equal(vaspace_map(f->vs, c, 0, 64 * KIB, RW, &vc),
	                 SWGPU_OK);
	/* Only the mappings keep the BOs now. */
	swgpu_bo_destroy(a);
	swgpu_bo_destroy(b);
	swgpu_bo_destroy(c);
	assert_int_equal(f->mem.bo_count, 3);

	vaspace_read_lock(f->vs);
	uint8_t *pa = vaspace_translate(f->vs, va, 16, RW);
	assert_non_null(pa);
	/* Nested section: b is held only by it. */
	vaspace_read_lock(f->vs);
	uint8_t *pb = vaspace_translate(f->vs, vb, 16, RW);
	assert_non_null(pb);
	assert_int_equal(vaspace_unmap(f->vs, va), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, vb), SWGPU_OK);
	assert_int_equal(vaspace_unmap(f->vs, vc), SWGPU_OK);
	/* c was not used by the section: gone. a and b are held. */
	assert_int_equal(f->mem.bo_count, 2);
	memset(pb, 0xb, 16);      /* still ours (ASan would say otherwise) */
	assert_null(vaspace_translate(f->vs, vb, 16, RW));
	vaspace_read_unlock(f->vs);
	assert_int_equal(f->mem.bo_count, 1);  /* b went with the nested */
	memset(pa, 0xa, 16);
	vaspace_read_unlock(f->vs);
	assert_int_equal(f->mem.bo_count, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_args),
		cmocka_unit_test_setup_teardown(test_map_translate, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_guard_gap, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_permissions, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_map_args, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_reuse_freed_range, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_no_va_space, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_mapping_keeps_bo_alive,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow_ranges, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_many_mappings, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_translate,
		                                setup, teardown),
		cmocka_unit_test_setup_teardown(test_section_holds_mapping,
		                                setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

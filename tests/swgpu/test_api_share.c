/* SPDX-License-Identifier: MIT */
/*
 * Shareable BOs and exported sync objects through the public API (issue
 * 22 item 5): an exported BO's fd imported as a second BO sees the same
 * bytes both ways, counts in the exporter's heap only, never offers;
 * a sync object imported from its fd is the same payload, kept alive by
 * the export after its handles are gone; a timeline linked into another
 * device (as into another process) follows it both ways; bad fds, wrong
 * sizes and another device's binary objects are BAD_HANDLE.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#endif
#include "api_util.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIZE (256u * 1024u)

static void
test_bo_share(void **state)
{
	swgpu_device *dev = api_open(NULL);
	swgpu_bo *a = NULL, *b = NULL, *plain = NULL;
	uint8_t *pa = NULL, *pb = NULL;
	uint64_t before, after;
	int fd = -1, other;

	(void)state;
	before = swgpu_heap_usage(dev, SWGPU_HEAP_SYSTEM);
	api_ok(swgpu_bo_create(dev, SIZE, SWGPU_HEAP_SYSTEM,
	                       SWGPU_BO_SHAREABLE, &a));
	api_ok(swgpu_bo_export_fd(a, &fd));
	assert_true(fd >= 0);
	/* Wrong sizes and foreign fds first: the fd stays usable. */
	api_check(SWGPU_ERR_BAD_HANDLE,
	          swgpu_bo_import_fd(dev, fd, 2 * SIZE, SWGPU_HEAP_SYSTEM, 0,
	                             &b));
	api_check(SWGPU_ERR_BAD_HANDLE,
	          swgpu_bo_import_fd(dev, -1, SIZE, SWGPU_HEAP_SYSTEM, 0, &b));
	other = memfd_create("unsealed", MFD_CLOEXEC);
	assert_int_equal(ftruncate(other, SIZE), 0);
	api_check(SWGPU_ERR_BAD_HANDLE,
	          swgpu_bo_import_fd(dev, other, SIZE, SWGPU_HEAP_SYSTEM, 0,
	                             &b));
	close(other);
	assert_null(b);
	api_ok(swgpu_bo_import_fd(dev, fd, SIZE, SWGPU_HEAP_SYSTEM, 0, &b));
	close(fd);
	after = swgpu_heap_usage(dev, SWGPU_HEAP_SYSTEM);
	/* The exporter's pages only. */
	assert_int_equal(after - before, SIZE);

	api_ok(swgpu_bo_map(a, (void **)&pa));
	api_ok(swgpu_bo_map(b, (void **)&pb));
	assert_ptr_not_equal(pa, pb);
	api_fill_pattern(pa, SIZE, 0, 7);
	assert_int_equal(api_find_pattern_mismatch(pb, SIZE, 0, 7), SIZE);
	memset(pb, 0x3c, 4096);
	assert_int_equal(api_find_byte_mismatch(pa, 4096, 0x3c), 4096);
	swgpu_bo_unmap(a);
	swgpu_bo_unmap(b);

	/* Shared memory can be offered; discarding it would drop the pages
	 * for every mapping, so the test only checks it comes back. Plain
	 * BOs have no fd (in shared mode every BO is a memfd). */
	api_ok(swgpu_bo_offer(a, SWGPU_OFFER_LOW));
	{
		swgpu_result r = swgpu_bo_reclaim(a);

		assert_true(r == SWGPU_OK || r == SWGPU_DISCARDED);
		if (r == SWGPU_DISCARDED) {
			api_ok(swgpu_bo_map(a, (void **)&pa));
			memset(pa, 0x3c, 4096);
			swgpu_bo_unmap(a);
		}
	}
	api_ok(swgpu_bo_create(dev, SIZE, SWGPU_HEAP_SYSTEM, 0, &plain));
	if (api_shared_mode()) {
		api_ok(swgpu_bo_export_fd(plain, &fd));
		close(fd);
	} else {
		api_check(SWGPU_ERR_INVALID_ARG, swgpu_bo_export_fd(plain, &fd));
		assert_int_equal(fd, -1);
	}

	/* The importer outlives the exporter: the memfd keeps the pages. */
	swgpu_bo_destroy(a);
	api_ok(swgpu_bo_map(b, (void **)&pb));
	assert_int_equal(api_find_byte_mismatch(pb, 4096, 0x3c), 4096);
	swgpu_bo_unmap(b);
	swgpu_bo_destroy(b);
	swgpu_bo_destroy(plain);
	assert_int_equal(swgpu_heap_usage(dev, SWGPU_HEAP_SYSTEM), before);
	swgpu_device_close(dev);
}

static void
test_syncobj_share(void **state)
{
	swgpu_device *dev = api_open(NULL), *dev2 = api_open(NULL);
	swgpu_syncobj *t = NULL, *t2 = NULL, *bin = NULL, *bin2 = NULL;
	swgpu_syncobj *x = NULL;
	swgpu_bo *bo = NULL;
	uint64_t v = 0;
	int fd = -1, mfd = -1;

	(void)state;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 3, &t));
	api_ok(swgpu_syncobj_export_fd(t, &fd));
	api_ok(swgpu_syncobj_import_fd(dev, fd, &t2));
	/* By reference: the one object (in shared mode through a handle
	 * of its own, checked by the values below). */
	if (!api_shared_mode())
		assert_ptr_equal(t2, t);
	/* Another device (another GPU, as another process's is) links a
	 * timeline of its own to the shared page: changes cross both
	 * ways, waits included. */
	api_ok(swgpu_syncobj_import_fd(dev2, fd, &x));
	assert_ptr_not_equal(x, t);
	api_ok(swgpu_syncobj_query(x, &v));
	assert_int_equal(v, 3);
	close(fd);
	api_ok(swgpu_syncobj_signal(t2, 9));
	v = 9;
	api_ok(swgpu_syncobj_wait(&x, &v, 1, 0, api_deadline_ms(5000), NULL));
	api_ok(swgpu_syncobj_signal(x, 12));
	v = 12;
	api_ok(swgpu_syncobj_wait(&t, &v, 1, 0, api_deadline_ms(5000), NULL));
	swgpu_syncobj_destroy(t);
	api_ok(swgpu_syncobj_query(t2, &v));
	assert_int_equal(v, 12);
	swgpu_syncobj_destroy(t2);
	swgpu_syncobj_destroy(x);
	x = NULL;

	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_BINARY, 0, &bin));
	api_ok(swgpu_syncobj_export_fd(bin, &fd));
	api_ok(swgpu_syncobj_import_fd(dev, fd, &bin2));
	/* A binary payload is its device's scheduler state. */
	api_check(SWGPU_ERR_BAD_HANDLE, swgpu_syncobj_import_fd(dev2, fd, &x));
	close(fd);
	api_ok(swgpu_syncobj_signal(bin, 0));
	api_ok(swgpu_syncobj_wait(&bin2, NULL, 1, 0, api_deadline_ms(1000),
	                          NULL));
	api_ok(swgpu_syncobj_reset(bin2));
	api_ok(swgpu_syncobj_query(bin, &v));
	assert_int_equal(v, 0);

	/* Not sync objects: a BO's fd, /dev/null, a closed fd. */
	api_ok(swgpu_bo_create(dev, SIZE, SWGPU_HEAP_SYSTEM,
	                       SWGPU_BO_SHAREABLE, &bo));
	api_ok(swgpu_bo_export_fd(bo, &mfd));
	api_check(SWGPU_ERR_BAD_HANDLE, swgpu_syncobj_import_fd(dev, mfd, &x));
	close(mfd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	api_check(SWGPU_ERR_BAD_HANDLE, swgpu_syncobj_import_fd(dev, fd, &x));
	close(fd);
	api_check(SWGPU_ERR_BAD_HANDLE, swgpu_syncobj_import_fd(dev, fd, &x));
	assert_null(x);
	swgpu_bo_destroy(bo);

	/* The fd keeps the payload: every handle gone, the import still
	 * finds it, signalled as it was left. */
	api_ok(swgpu_syncobj_signal(bin, 0));
	api_ok(swgpu_syncobj_export_fd(bin, &fd));
	swgpu_syncobj_destroy(bin);
	swgpu_syncobj_destroy(bin2);
	api_ok(swgpu_syncobj_import_fd(dev, fd, &x));
	close(fd);
	api_ok(swgpu_syncobj_query(x, &v));
	assert_int_equal(v, 1);
	swgpu_syncobj_destroy(x);
	swgpu_device_close(dev2);
	swgpu_device_close(dev);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bo_share),
		cmocka_unit_test(test_syncobj_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

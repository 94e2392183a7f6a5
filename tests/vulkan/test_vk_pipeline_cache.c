/* SPDX-License-Identifier: MIT */
/*
 * VkPipelineCache data that carries compiled code (issue 19 item 2):
 *  - fresh_process: a pipeline is created with an empty cache and run,
 *    the cache's data is written to a file, and a second process (this
 *    program again, test "load_data", with the same environment) creates
 *    its cache from that data; there the pipeline's creation feedback
 *    must say APPLICATION_PIPELINE_CACHE_HIT on swgpu with
 *    SWGPU_SHADER=jit (ctest sets it and SWGPU_SHADER_CACHE=0: nothing
 *    but the data can supply the code, and a hit means nothing was
 *    compiled), and the kernel's results must be right. The data read
 *    back from that cache is the data it was made from (swgpu).
 *  - corrupt_data: the same data with one byte flipped in its last
 *    quarter (the compiled code or the checksum), with another
 *    pipelineCacheUUID, or truncated: the cache is created, no hit is
 *    claimed, and the pipeline computes the right values (compiled
 *    again).
 * On lavapipe the same steps check the test: the data round trip and the
 * results (its hit bits are not required).
 */
#include "vkh_compute.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "feat_cache.spv.h"

#define N 256u
#define DATA_ENV "VKH_PIPELINE_CACHE_DATA"

extern char **environ;

/* swgpu compiling shaders: the data must carry the code. */
static bool
expect_code(const struct vkh *h)
{
	return vkh_swgpu_jit(h);
}

/* Build feat_cache.comp with cache c, run it, check its output; *hit:
 * the creation feedback's cache-hit bit (false where there is no 1.3). */
static bool
run_kernel(struct vkh *h, struct vkh_device *d, VkPipelineCache c, bool *hit)
{
	VkPipelineCreationFeedback fb = { 0 }, stage_fb = { 0 };
	VkPipelineCreationFeedbackCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
		.pPipelineCreationFeedback = &fb,
		.pipelineStageCreationFeedbackCount = 1,
		.pPipelineStageCreationFeedbacks = &stage_fb,
	};
	const bool has_fb = h->props.apiVersion >= VK_API_VERSION_1_3;
	struct vkh_pipe_desc desc = {
		.spv = feat_cache_spv,
		.spv_size = sizeof(feat_cache_spv),
		.set_count = 1,
		.binding_count = { 1 },
		.types = { { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER } },
		.cache = c,
		.pipeline_next = has_fb ? &fci : NULL,
	};
	const VkPipelineCreationFeedbackFlags hit_bit =
		VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
	struct vkh_pipe p;
	struct vkh_buffer b = { 0 };
	bool ok = true;

	*hit = false;
	if (vkh_host_buffer(h, d, N * 4, 0, &b) != VK_SUCCESS)
		return false;
	if (vkh_pipe_create(d, &desc, &p) != VK_SUCCESS) {
		vkh_buffer_destroy(d, &b);
		return false;
	}
	*hit = has_fb && (fb.flags & hit_bit) && (stage_fb.flags & hit_bit);
	vkh_pipe_set_buffer(d, &p, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                    b.buffer, 0, VK_WHOLE_SIZE);
	if (vkh_dispatch_sync(d, 0, &p, NULL, N / 64, 1, 1) != VK_SUCCESS)
		ok = false;
	vkh_buffer_invalidate(h, d, &b);
	for (uint32_t i = 0; ok && i < N; i++)
		ok = ((uint32_t *)b.map)[i] == i * i + 17;
	vkh_pipe_destroy(d, &p);
	vkh_buffer_destroy(d, &b);
	return ok;
}

static VkResult
cache_create(struct vkh_device *d, const void *data, size_t size,
             VkPipelineCache *out)
{
	VkPipelineCacheCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
		.initialDataSize = size,
		.pInitialData = data,
	};

	return vkCreatePipelineCache(d->device, &ci, NULL, out);
}

static void *
cache_data(struct vkh_device *d, VkPipelineCache c, size_t *size)
{
	void *data;

	*size = 0;
	if (vkGetPipelineCacheData(d->device, c, size, NULL) != VK_SUCCESS)
		return NULL;
	data = malloc(*size ? *size : 1);
	if (data && vkGetPipelineCacheData(d->device, c, size, data) !=
	            VK_SUCCESS) {
		free(data);
		return NULL;
	}
	return data;
}

/* Data of a cache that built and ran the kernel once. */
static void *
make_data(struct vkh *h, struct vkh_device *d, size_t *size)
{
	VkPipelineCache c;
	bool hit;
	void *data = NULL;

	if (cache_create(d, NULL, 0, &c) != VK_SUCCESS)
		return NULL;
	if (run_kernel(h, d, c, &hit) && !hit)
		data = cache_data(d, c, size);
	vkDestroyPipelineCache(d->device, c, NULL);
	return data;
}

static void *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (data = malloc((size_t)n)) &&
	    fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	if (data)
		*size = (size_t)n;
	fclose(f);
	return data;
}

static void
test_fresh_process(struct vkh *h, struct vkh_device *d)
{
	char path[] = "/tmp/vkh_pipeline_cache_XXXXXX";
	char *argv[] = { "/proc/self/exe", "load_data", NULL };
	size_t size = 0;
	void *data;
	int fd, status;
	pid_t pid;

	data = make_data(h, d, &size);
	VKH_CHECK(h, data != NULL);
	printf("  cache data: %zu bytes\n", size);
	fd = mkstemp(path);
	VKH_CHECK(h, fd >= 0);
	VKH_CHECK(h, write(fd, data, size) == (ssize_t)size);
	close(fd);
	free(data);
	/* the other process: same environment, plus where the data is */
	setenv(DATA_ENV, path, 1);
	status = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv,
	                     environ);
	unsetenv(DATA_ENV);
	if (status) {
		unlink(path);
		VKH_CHECK_MSG(h, false, "posix_spawn: %s", strerror(status));
	}
	VKH_CHECK(h, waitpid(pid, &status, 0) == pid);
	unlink(path);
	VKH_CHECK_MSG(h, WIFEXITED(status) && WEXITSTATUS(status) == 0,
	              "the second process failed (status 0x%x)", status);
}

/* The second process of fresh_process. */
static void
test_load_data(struct vkh *h, struct vkh_device *d)
{
	const char *path = getenv(DATA_ENV);
	size_t size = 0, size2 = 0;
	VkPipelineCache c;
	void *data, *data2;
	bool hit;

	if (!path) {
		vkh_skip(h, "run by fresh_process only (" DATA_ENV ")");
		return;
	}
	data = read_file(path, &size);
	VKH_CHECK(h, data != NULL);
	VKH_CHECK_VK(h, cache_create(d, data, size, &c));
	/* the same data back, before any pipeline used it */
	data2 = cache_data(d, c, &size2);
	VKH_CHECK(h, data2 != NULL);
	if (h->is_swgpu)
		VKH_CHECK_MSG(h, size2 == size && !memcmp(data, data2, size),
		              "round trip: %zu bytes back from %zu", size2,
		              size);
	free(data2);
	VKH_CHECK(h, run_kernel(h, d, c, &hit));
	if (expect_code(h))
		VKH_CHECK_MSG(h, hit, "no pipeline-cache hit: the code was "
		              "compiled again");
	printf("  cache hit: %s\n", hit ? "yes" : "no");
	vkDestroyPipelineCache(d->device, c, NULL);
	free(data);
}

static void
test_corrupt_data(struct vkh *h, struct vkh_device *d)
{
	size_t size = 0;
	uint8_t *data = make_data(h, d, &size), *bad;
	VkPipelineCache c;
	bool hit;

	VKH_CHECK(h, data != NULL);
	bad = malloc(size);
	VKH_CHECK(h, bad != NULL);
	for (int k = 0; k < 4; k++) {
		size_t n = size;

		memcpy(bad, data, size);
		if (k == 0)
			bad[size - size / 4] ^= 0x20;  /* code or checksum */
		else if (k == 1)
			bad[size - 1] ^= 0x01;        /* the checksum */
		else if (k == 2)
			bad[16] ^= 0xff;              /* pipelineCacheUUID */
		else
			n = size - size / 3;          /* truncated */
		VKH_CHECK_VK(h, cache_create(d, bad, n, &c));
		VKH_CHECK_MSG(h, run_kernel(h, d, c, &hit), "case %d: wrong "
		              "results", k);
		if (h->is_swgpu)
			VKH_CHECK_MSG(h, !hit, "case %d: a hit claimed from "
			              "bad data", k);
		vkDestroyPipelineCache(d->device, c, NULL);
	}
	/* and the intact data still hits (same process: swgpu's own
	 * memory would also have the code, so only the bit is checked) */
	VKH_CHECK_VK(h, cache_create(d, data, size, &c));
	VKH_CHECK(h, run_kernel(h, d, c, &hit));
	if (expect_code(h))
		VKH_CHECK(h, hit);
	vkDestroyPipelineCache(d->device, c, NULL);
	free(bad);
	free(data);
}

static const struct vkh_test tests[] = {
	{ "fresh_process", test_fresh_process, 1, VK_QUEUE_COMPUTE_BIT },
	{ "load_data", test_load_data, 1, VK_QUEUE_COMPUTE_BIT },
	{ "corrupt_data", test_corrupt_data, 1, VK_QUEUE_COMPUTE_BIT },
};

int
main(int argc, char **argv)
{
	return vkh_run_tests(argc, argv, "test_vk_pipeline_cache", tests,
	                     sizeof(tests) / sizeof(tests[0]));
}

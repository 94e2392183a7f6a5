/* SPDX-License-Identifier: MIT */
/*
 * bench_pipeline: pipeline creation time (issue 19 item 2 / item 5),
 * vkCreateShaderModule + vkCreate{Compute,Graphics}Pipelines wall time
 * for the bench shaders, in one run on:
 *   lavapipe              Mesa's driver, empty pipeline cache
 *   lavapipe-pcache       ... its cache created from its own earlier data
 *   swgpu-interp          SWGPU_SHADER=interp
 *   swgpu-jit             SWGPU_SHADER=jit, disk cache off, compile in
 *                         the background (the default)
 *   swgpu-jit-sync        ... SWGPU_JIT_ASYNC=0: the compile itself
 *   swgpu-jit-disk        ... the disk cache warm (one earlier process)
 *   swgpu-jit-pcache      ... disk cache off, VkPipelineCache created from
 *                         an earlier process's data
 * Every measurement is the first pipeline of its shader in a fresh
 * process (after one warm-up pipeline of another shader, so that process
 * set-up — LLVM's, the loader's — is not in it); each pipeline gets a
 * VkPipelineCache, as most applications pass one. "ready" adds
 * vkGetPipelineCacheData, which on swgpu waits for a background compile:
 * creation + time until the compiled code exists. Each round runs every
 * configuration once (alternating, so load drifts touch all); the table
 * has the median over rounds and [min..max], and each column divided by
 * lavapipe's. The load average is printed before and after.
 *
 *   bench_pipeline [--runs N] [--swgpu MANIFEST] [--lavapipe MANIFEST]
 *
 * Defaults: 5 rounds, <this binary's dir>/../manifests/swgpu_icd.json,
 * /usr/share/vulkan/icd.d/lvp_icd.x86_64.json. --quick: one round, the
 * swgpu configurations only (what ctest runs: every pipeline must be
 * created, a VkPipelineCache round trip must hit).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vulkan/vulkan.h>

#include "alu_madd.spv.h"
#include "gfx_scene_fs.spv.h"
#include "gfx_scene_vs.spv.h"
#include "mandelbrot.spv.h"
#include "reduce.spv.h"
#include "saxpy.spv.h"
#include "scan_add.spv.h"
#include "scan_block.spv.h"

extern char **environ;

/* ---- the shaders ---- */

struct shader {
	const char *name;
	const uint32_t *cs, *vs, *fs;    /* cs: compute, else vs + fs */
	size_t cs_size, vs_size, fs_size;
	uint32_t nbuf;                   /* storage buffers, set 0 */
};

#define CS(n, b) { #n, n##_spv, NULL, NULL, sizeof(n##_spv), 0, 0, b }
static const struct shader shaders[] = {
	CS(saxpy, 3), CS(reduce, 2), CS(scan_block, 2), CS(mandelbrot, 1),
	CS(alu_madd, 1),
	{ "gfx_scene", NULL, gfx_scene_vs_spv, gfx_scene_fs_spv, 0,
	  sizeof(gfx_scene_vs_spv), sizeof(gfx_scene_fs_spv), 0 },
};
#define NSHADERS (sizeof(shaders) / sizeof(shaders[0]))
/* the warm-up: not measured */
static const struct shader warmup = CS(scan_add, 2);

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* ---- the child: one process, one configuration ---- */

struct vk {
	VkInstance instance;
	VkPhysicalDevice pdev;
	VkDevice device;
	VkDescriptorSetLayout set[4];    /* nbuf SSBOs; [0]: the sampler */
	VkPipelineLayout layout[4];
};

#define VK_OK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { \
	fprintf(stderr, "bench_pipeline: %s: %d\n", #x, r_); exit(1); } \
	} while (0)

static void
vk_open(struct vk *vk)
{
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
	};
	uint32_t n = 1;
	float prio = 1;
	VkDeviceQueueCreateInfo q = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = 0, .queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.dynamicRendering = VK_TRUE,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f13,
		.queueCreateInfoCount = 1, .pQueueCreateInfos = &q,
	};

	VK_OK(vkCreateInstance(&ici, NULL, &vk->instance));
	VK_OK(vkEnumeratePhysicalDevices(vk->instance, &n, &vk->pdev));
	VK_OK(vkCreateDevice(vk->pdev, &dci, NULL, &vk->device));
	for (uint32_t b = 0; b < 4; b++) {
		VkDescriptorSetLayoutBinding lb[3];
		VkPushConstantRange pcr = {
			VK_SHADER_STAGE_ALL, 0, 128 };

		for (uint32_t i = 0; i < 3; i++)
			lb[i] = (VkDescriptorSetLayoutBinding){
				i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
				VK_SHADER_STAGE_COMPUTE_BIT, NULL };
		if (b == 0)
			lb[0] = (VkDescriptorSetLayoutBinding){
				0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
				1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
		VkDescriptorSetLayoutCreateInfo sci = {
			.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
			.bindingCount = b ? b : 1, .pBindings = lb,
		};
		VK_OK(vkCreateDescriptorSetLayout(vk->device, &sci, NULL,
		                                  &vk->set[b]));
		VkPipelineLayoutCreateInfo pci = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
			.setLayoutCount = 1, .pSetLayouts = &vk->set[b],
			.pushConstantRangeCount = 1, .pPushConstantRanges = &pcr,
		};
		VK_OK(vkCreatePipelineLayout(vk->device, &pci, NULL,
		                             &vk->layout[b]));
	}
}

static void
vk_close(struct vk *vk)
{
	for (uint32_t b = 0; b < 4; b++) {
		vkDestroyPipelineLayout(vk->device, vk->layout[b], NULL);
		vkDestroyDescriptorSetLayout(vk->device, vk->set[b], NULL);
	}
	vkDestroyDevice(vk->device, NULL);
	vkDestroyInstance(vk->instance, NULL);
}

static VkShaderModule
module(struct vk *vk, const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size, .pCode = code,
	};
	VkShaderModule m;

	VK_OK(vkCreateShaderModule(vk->device, &ci, NULL, &m));
	return m;
}

/* Timed: modules + pipeline. *hit: the cache-hit feedback bit. */
static VkPipeline
create(struct vk *vk, const struct shader *s, VkPipelineCache cache,
       double *ms, bool *hit)
{
	VkPipelineCreationFeedback fb = { 0 };
	VkPipelineCreationFeedbackCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
		.pPipelineCreationFeedback = &fb,
	};
	VkPipeline p;
	double t0 = now_ms();

	if (s->cs) {
		VkShaderModule m = module(vk, s->cs, s->cs_size);
		VkComputePipelineCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
			.pNext = &fci,
			.stage = {
				.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
				.stage = VK_SHADER_STAGE_COMPUTE_BIT,
				.module = m, .pName = "main",
			},
			.layout = vk->layout[s->nbuf],
		};

		VK_OK(vkCreateComputePipelines(vk->device, cache, 1, &ci,
		                               NULL, &p));
		*ms = now_ms() - t0;
		vkDestroyShaderModule(vk->device, m, NULL);
	} else {
		VkShaderModule vs = module(vk, s->vs, s->vs_size);
		VkShaderModule fs = module(vk, s->fs, s->fs_size);
		VkPipelineShaderStageCreateInfo st[2] = {
			{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			  .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs,
			  .pName = "main" },
			{ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			  .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs,
			  .pName = "main" },
		};
		VkVertexInputBindingDescription bd = { 0, 20, 0 };
		VkVertexInputAttributeDescription ad[2] = {
			{ 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
			{ 1, 0, VK_FORMAT_R32G32_SFLOAT, 12 },
		};
		VkPipelineVertexInputStateCreateInfo vi = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
			.vertexBindingDescriptionCount = 1,
			.pVertexBindingDescriptions = &bd,
			.vertexAttributeDescriptionCount = 2,
			.pVertexAttributeDescriptions = ad,
		};
		VkPipelineInputAssemblyStateCreateInfo ia = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
			.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		};
		VkViewport viewport = { 0, 0, 1280, 720, 0, 1 };
		VkRect2D scissor = { { 0, 0 }, { 1280, 720 } };
		VkPipelineViewportStateCreateInfo vp = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
			.viewportCount = 1, .pViewports = &viewport,
			.scissorCount = 1, .pScissors = &scissor,
		};
		VkPipelineRasterizationStateCreateInfo rs = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
			.polygonMode = VK_POLYGON_MODE_FILL, .lineWidth = 1,
		};
		VkPipelineMultisampleStateCreateInfo msi = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
			.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
		};
		VkPipelineDepthStencilStateCreateInfo ds = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
			.depthTestEnable = VK_TRUE, .depthWriteEnable = VK_TRUE,
			.depthCompareOp = VK_COMPARE_OP_LESS,
		};
		VkPipelineColorBlendAttachmentState ba = {
			.colorWriteMask = 0xf };
		VkPipelineColorBlendStateCreateInfo cb = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
			.attachmentCount = 1, .pAttachments = &ba,
		};
		VkFormat cf = VK_FORMAT_R8G8B8A8_UNORM;
		VkPipelineRenderingCreateInfo ri = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
			.pNext = &fci,
			.colorAttachmentCount = 1, .pColorAttachmentFormats = &cf,
			.depthAttachmentFormat = VK_FORMAT_D32_SFLOAT,
		};
		VkGraphicsPipelineCreateInfo ci = {
			.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
			.pNext = &ri, .stageCount = 2, .pStages = st,
			.pVertexInputState = &vi, .pInputAssemblyState = &ia,
			.pViewportState = &vp, .pRasterizationState = &rs,
			.pMultisampleState = &msi, .pDepthStencilState = &ds,
			.pColorBlendState = &cb, .layout = vk->layout[0],
		};

		VK_OK(vkCreateGraphicsPipelines(vk->device, cache, 1, &ci,
		                                NULL, &p));
		*ms = now_ms() - t0;
		vkDestroyShaderModule(vk->device, vs, NULL);
		vkDestroyShaderModule(vk->device, fs, NULL);
	}
	*hit = fb.flags &
	       VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
	return p;
}

static void *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *d = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (d = malloc((size_t)n))) {
		if (fread(d, 1, (size_t)n, f) == (size_t)n) {
			*size = (size_t)n;
		} else {
			free(d);
			d = NULL;
		}
	}
	fclose(f);
	return d;
}

/* Measure every shader; print "pipe <name> <create ms> <ready ms>
 * <hit>". cache_in: initial data file (or NULL); cache_out: write the
 * data there at the end. */
static int
child(const char *cache_in, const char *cache_out)
{
	struct vk vk = { 0 };
	VkPipelineCacheCreateInfo cci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
	};
	VkPipelineCache cache;
	void *data = NULL;
	size_t size = 0;
	double ms;
	bool hit;

	vk_open(&vk);
	if (cache_in) {
		data = read_file(cache_in, &size);
		if (!data) {
			fprintf(stderr, "bench_pipeline: cannot read %s\n",
			        cache_in);
			return 1;
		}
		cci.initialDataSize = size;
		cci.pInitialData = data;
	}
	VK_OK(vkCreatePipelineCache(vk.device, &cci, NULL, &cache));
	free(data);
	/* warm-up: loader, driver and compiler set-up of the process */
	vkDestroyPipeline(vk.device, create(&vk, &warmup, VK_NULL_HANDLE,
	                                    &ms, &hit), NULL);
	for (size_t i = 0; i < NSHADERS; i++) {
		VkPipeline p = create(&vk, &shaders[i], cache, &ms, &hit);
		double t0 = now_ms() - ms, ready;

		/* swgpu waits here for a compile still running */
		VK_OK(vkGetPipelineCacheData(vk.device, cache, &size, NULL));
		ready = now_ms() - t0;
		printf("pipe %s %.4f %.4f %d\n", shaders[i].name, ms, ready,
		       hit);
		/* destroyed outside the timing (swgpu: waits for nothing
		 * now, the code exists) */
		vkDestroyPipeline(vk.device, p, NULL);
	}
	if (cache_out) {
		FILE *f;

		VK_OK(vkGetPipelineCacheData(vk.device, cache, &size, NULL));
		data = malloc(size);
		VK_OK(vkGetPipelineCacheData(vk.device, cache, &size, data));
		f = fopen(cache_out, "wb");
		if (!f || fwrite(data, 1, size, f) != size) {
			fprintf(stderr, "bench_pipeline: cannot write %s\n",
			        cache_out);
			return 1;
		}
		fclose(f);
		free(data);
	}
	vkDestroyPipelineCache(vk.device, cache, NULL);
	vk_close(&vk);
	fflush(stdout);
	return 0;
}

/* ---- the parent ---- */

enum { CFG_LVP, CFG_LVP_PCACHE, CFG_INTERP, CFG_JIT, CFG_JIT_SYNC,
       CFG_JIT_DISK, CFG_JIT_PCACHE, NCFG };

struct cfg {
	const char *name;
	bool lavapipe;
	const char *env[4];          /* NAME=VALUE, NULL-ended */
	bool pcache;                 /* initial data from a make run */
	bool disk;                   /* SWGPU_SHADER_CACHE_DIR, warmed */
};

static const struct cfg cfgs[NCFG] = {
	[CFG_LVP] = { "lavapipe", true, { NULL }, false, false },
	[CFG_LVP_PCACHE] = { "lavapipe-pcache", true, { NULL }, true, false },
	[CFG_INTERP] = { "swgpu-interp", false, { "SWGPU_SHADER=interp",
	                 NULL }, false, false },
	[CFG_JIT] = { "swgpu-jit", false, { "SWGPU_SHADER=jit",
	              "SWGPU_SHADER_CACHE=0", NULL }, false, false },
	[CFG_JIT_SYNC] = { "swgpu-jit-sync", false, { "SWGPU_SHADER=jit",
	                   "SWGPU_SHADER_CACHE=0", "SWGPU_JIT_ASYNC=0",
	                   NULL }, false, false },
	[CFG_JIT_DISK] = { "swgpu-jit-disk", false, { "SWGPU_SHADER=jit",
	                   NULL }, false, true },
	[CFG_JIT_PCACHE] = { "swgpu-jit-pcache", false, { "SWGPU_SHADER=jit",
	                     "SWGPU_SHADER_CACHE=0", NULL }, true, false },
};

#define MAX_RUNS 64
struct result {
	double create[MAX_RUNS], ready[MAX_RUNS];
	int hits;
	int n;
};
static struct result results[NCFG][NSHADERS];

static char self[PATH_MAX], swgpu_manifest[PATH_MAX], lvp_manifest[PATH_MAX];
static char tmpdir[] = "/tmp/bench_pipeline_XXXXXX";

/* Run one child of cfg c; its lines parsed into results (when record).
 * false on a failure. */
static bool
spawn_child(int c, const char *cache_in, const char *cache_out, bool record)
{
	const struct cfg *cf = &cfgs[c];
	char *argv[8], envbuf[8][PATH_MAX + 64];
	char **env;
	size_t nenv = 0, k = 0;
	int fds[2], status;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	FILE *f;
	char line[256];
	bool ok = true;

	while (environ[nenv])
		nenv++;
	env = calloc(nenv + 10, sizeof(*env));
	for (size_t i = 0; i < nenv; i++)
		if (strncmp(environ[i], "VK_DRIVER_FILES=", 16) &&
		    strncmp(environ[i], "VK_ICD_FILENAMES=", 17) &&
		    strncmp(environ[i], "SWGPU_SHADER", 12) &&
		    strncmp(environ[i], "SWGPU_JIT_ASYNC=", 16))
			env[k++] = environ[i];
	snprintf(envbuf[0], sizeof(envbuf[0]), "VK_DRIVER_FILES=%s",
	         cf->lavapipe ? lvp_manifest : swgpu_manifest);
	env[k++] = envbuf[0];
	for (int i = 0; cf->env[i]; i++)
		env[k++] = (char *)cf->env[i];
	if (cf->disk) {
		snprintf(envbuf[1], sizeof(envbuf[1]),
		         "SWGPU_SHADER_CACHE_DIR=%s/disk", tmpdir);
		env[k++] = envbuf[1];
	}
	env[k] = NULL;
	argv[0] = self;
	argv[1] = "--child";
	k = 2;
	if (cache_in) {
		argv[k++] = "--cache-in";
		argv[k++] = (char *)cache_in;
	}
	if (cache_out) {
		argv[k++] = "--cache-out";
		argv[k++] = (char *)cache_out;
	}
	argv[k] = NULL;
	if (pipe(fds)) {
		free(env);
		return false;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	if (posix_spawn(&pid, self, &fa, NULL, argv, env)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		free(env);
		return false;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		double ms, ready;
		int hit;

		if (sscanf(line, "pipe %63s %lf %lf %d", name, &ms, &ready,
		           &hit) != 4)
			continue;
		for (size_t s = 0; record && s < NSHADERS; s++) {
			struct result *r = &results[c][s];

			if (strcmp(name, shaders[s].name) || r->n >= MAX_RUNS)
				continue;
			r->create[r->n] = ms;
			r->ready[r->n] = ready;
			r->hits += hit;
			r->n++;
		}
	}
	fclose(f);
	free(env);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bench_pipeline: %s child failed\n", cf->name);
		ok = false;
	}
	return ok;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

static void
print_load(const char *when)
{
	double l[3];

	if (getloadavg(l, 3) == 3)
		printf("# load average %s: %.2f %.2f %.2f\n", when, l[0],
		       l[1], l[2]);
}

int
main(int argc, char **argv)
{
	int runs = 5;
	bool quick = false, ok = true;
	const char *cache_in = NULL, *cache_out = NULL;
	char lvp_data[PATH_MAX], jit_data[PATH_MAX], disk[PATH_MAX];
	bool have[NCFG];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--child")) {
			for (int k = i + 1; k + 1 < argc; k += 2) {
				if (!strcmp(argv[k], "--cache-in"))
					cache_in = argv[k + 1];
				else if (!strcmp(argv[k], "--cache-out"))
					cache_out = argv[k + 1];
			}
			return child(cache_in, cache_out);
		}
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--swgpu") && i + 1 < argc)
			snprintf(swgpu_manifest, sizeof(swgpu_manifest), "%s",
			         argv[++i]);
		else if (!strcmp(argv[i], "--lavapipe") && i + 1 < argc)
			snprintf(lvp_manifest, sizeof(lvp_manifest), "%s",
			         argv[++i]);
		else {
			fprintf(stderr, "usage: bench_pipeline [--runs N] "
			        "[--quick] [--swgpu MANIFEST] "
			        "[--lavapipe MANIFEST]\n");
			return 2;
		}
	}
	if (quick)
		runs = 1;
	if (runs < 1 || runs > MAX_RUNS)
		runs = 5;
	if (!realpath("/proc/self/exe", self))
		return 1;
	if (!swgpu_manifest[0]) {
		static const char rel[] = "/../manifests/swgpu_icd.json";
		const char *slash = strrchr(self, '/');
		size_t len = slash ? (size_t)(slash - self) : 0;

		if (len + sizeof(rel) > sizeof(swgpu_manifest))
			return 1;
		memcpy(swgpu_manifest, self, len);
		memcpy(swgpu_manifest + len, rel, sizeof(rel));
	}
	if (!lvp_manifest[0])
		snprintf(lvp_manifest, sizeof(lvp_manifest),
		         "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json");
	if (!mkdtemp(tmpdir))
		return 1;
	snprintf(lvp_data, sizeof(lvp_data), "%s/lvp.data", tmpdir);
	snprintf(jit_data, sizeof(jit_data), "%s/jit.data", tmpdir);
	snprintf(disk, sizeof(disk), "%s/disk", tmpdir);
	mkdir(disk, 0700);
	for (int c = 0; c < NCFG; c++)
		have[c] = !(cfgs[c].lavapipe &&
		            (quick || access(lvp_manifest, R_OK)));
	print_load("before");
	/* the data and the warm disk cache, from processes not measured */
	if (have[CFG_LVP_PCACHE])
		have[CFG_LVP_PCACHE] = spawn_child(CFG_LVP, NULL, lvp_data,
		                                   false);
	ok &= spawn_child(CFG_JIT, NULL, jit_data, false);
	ok &= spawn_child(CFG_JIT_DISK, NULL, NULL, false);
	for (int r = 0; r < runs && ok; r++)
		for (int c = 0; c < NCFG; c++)
			if (have[c])
				ok &= spawn_child(c, cfgs[c].pcache ?
				                  (cfgs[c].lavapipe ? lvp_data
				                                    : jit_data)
				                  : NULL, NULL, true);
	print_load("after");
	unlink(lvp_data);
	unlink(jit_data);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "bench_pipeline: cannot remove %s\n",
			        tmpdir);
	}
	if (!ok)
		return 1;

	/* lines, then the table: create ms (ready ms) per configuration */
	double ref[NSHADERS] = { 0 };

	for (size_t s = 0; s < NSHADERS; s++)
		if (have[CFG_LVP] && results[CFG_LVP][s].n)
			ref[s] = median(results[CFG_LVP][s].create,
			                results[CFG_LVP][s].n);
	for (int c = 0; c < NCFG; c++) {
		if (!have[c])
			continue;
		for (size_t s = 0; s < NSHADERS; s++) {
			struct result *r = &results[c][s];
			double med = median(r->create, r->n);
			double rdy = median(r->ready, r->n);

			printf("figure=pipeline_%s driver=%s value=%.3f unit=ms "
			       "runs=%d min=%.3f max=%.3f ready=%.3f hits=%d",
			       shaders[s].name, cfgs[c].name, med, r->n,
			       r->create[0], r->create[r->n - 1], rdy,
			       r->hits);
			if (ref[s] > 0)
				printf(" vs_lavapipe=%.2f", med / ref[s]);
			printf("\n");
			/* the pipeline cache must hit every time on swgpu */
			if (c == CFG_JIT_PCACHE && r->hits != r->n) {
				fprintf(stderr, "bench_pipeline: %s %s: %d "
				        "hits of %d\n", cfgs[c].name,
				        shaders[s].name, r->hits, r->n);
				ok = false;
			}
		}
	}
	printf("\n| shader |");
	for (int c = 0; c < NCFG; c++)
		if (have[c])
			printf(" %s |", cfgs[c].name);
	printf("\n|---|");
	for (int c = 0; c < NCFG; c++)
		if (have[c])
			printf("---|");
	printf("\n");
	for (size_t s = 0; s < NSHADERS; s++) {
		printf("| %s |", shaders[s].name);
		for (int c = 0; c < NCFG; c++) {
			struct result *r = &results[c][s];
			double med;

			if (!have[c])
				continue;
			med = median(r->create, r->n);
			printf(" %.2f", med);
			if (ref[s] > 0 && c != CFG_LVP)
				printf(" (%.2fx)", med / ref[s]);
			if (median(r->ready, r->n) > med * 1.5 + 0.05)
				printf(" ready %.1f", median(r->ready, r->n));
			printf(" |");
		}
		printf("\n");
	}
	printf("\nms, median of %d fresh processes each; (x): / lavapipe; "
	       "ready: + waiting for the background compile\n", runs);
	return ok ? 0 : 1;
}

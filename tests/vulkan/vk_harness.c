/* SPDX-License-Identifier: MIT */
/*
 * vk_harness: instance, validation messenger and a tiny test runner.
 * Devices, memory and command helpers are in vk_harness_device.c.
 * See vk_harness.h.
 */
#include "vk_harness.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * AddressSanitizer builds run without the validation layer by default: the
 * layer (not instrumented) leaks allocations that LeakSanitizer reports
 * from an "<unknown module>" once the loader has unloaded it, and every
 * driver call passes through the layer, so no suppression could tell its
 * leaks from the driver's. The plain build runs the layer; the ASan build
 * checks the driver's memory. VKH_ASAN_VALIDATION=1 turns the layer on
 * anyway: it is then kept mapped (RTLD_NODELETE) and every leak with a
 * layer frame -- i.e. all of them -- is suppressed, leaving memory errors.
 */
#if defined(__SANITIZE_ADDRESS__)
#define VKH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VKH_ASAN 1
#endif
#endif

/* ThreadSanitizer: the layer's internal threads race with the caller in
 * ways TSan cannot see through uninstrumented code (false reports inside
 * libVkLayer_khronos_validation.so), so TSan builds run without it too. */
#if defined(__SANITIZE_THREAD__)
#define VKH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VKH_TSAN 1
#endif
#endif

#ifdef VKH_ASAN
#include <dlfcn.h>

const char *__lsan_default_suppressions(void);

const char *
__lsan_default_suppressions(void)
{
	return getenv("VKH_ASAN_VALIDATION") ?
	       "leak:libVkLayer_khronos_validation.so\n" : "";
}

static void
pin_validation_layer(void)
{
	if (!dlopen("libVkLayer_khronos_validation.so",
	            RTLD_NOW | RTLD_NODELETE))
		fprintf(stderr, "[vkh] cannot pin the validation layer: %s\n",
		        dlerror());
}
#else
static void
pin_validation_layer(void)
{
}
#endif

volatile int vkh_validation_errors;
volatile int vkh_validation_warnings;
volatile int vkh_expected_errors;

static const char *expected[VKH_MAX_EXPECTED];
static unsigned expected_count;

void
vkh_expect_message(const char *substr)
{
	if (expected_count < VKH_MAX_EXPECTED)
		expected[expected_count++] = substr;
}

void
vkh_expect_clear(void)
{
	expected_count = 0;
}

#define VKH_MAX_TOLERATED 64
static uint64_t tolerated[VKH_MAX_TOLERATED];
static unsigned tolerated_count;

void
vkh_tolerate_object(uint64_t handle)
{
	if (handle && tolerated_count < VKH_MAX_TOLERATED)
		tolerated[tolerated_count++] = handle;
}

void
vkh_tolerate_clear(void)
{
	tolerated_count = 0;
}

static bool
is_tolerated(const VkDebugUtilsMessengerCallbackDataEXT *data)
{
	for (uint32_t i = 0; i < data->objectCount; i++)
		for (unsigned j = 0; j < tolerated_count; j++)
			if (data->pObjects[i].objectHandle == tolerated[j])
				return true;
	return false;
}

bool
vkh_swgpu_jit(const struct vkh *h)
{
	const char *s = getenv("SWGPU_SHADER");

	return h->is_swgpu && (s ? !strcmp(s, "jit") : SWGPU_TEST_JIT_DEFAULT);
}

const char *
vkh_result_str(VkResult r)
{
	switch (r) {
#define R(x) case x: return #x
	R(VK_SUCCESS);
	R(VK_NOT_READY);
	R(VK_TIMEOUT);
	R(VK_EVENT_SET);
	R(VK_EVENT_RESET);
	R(VK_INCOMPLETE);
	R(VK_ERROR_OUT_OF_HOST_MEMORY);
	R(VK_ERROR_OUT_OF_DEVICE_MEMORY);
	R(VK_ERROR_INITIALIZATION_FAILED);
	R(VK_ERROR_DEVICE_LOST);
	R(VK_ERROR_MEMORY_MAP_FAILED);
	R(VK_ERROR_LAYER_NOT_PRESENT);
	R(VK_ERROR_EXTENSION_NOT_PRESENT);
	R(VK_ERROR_FEATURE_NOT_PRESENT);
	R(VK_ERROR_INCOMPATIBLE_DRIVER);
	R(VK_ERROR_TOO_MANY_OBJECTS);
	R(VK_ERROR_FORMAT_NOT_SUPPORTED);
	R(VK_ERROR_UNKNOWN);
	R(VK_SUBOPTIMAL_KHR);
	R(VK_ERROR_OUT_OF_DATE_KHR);
	R(VK_ERROR_SURFACE_LOST_KHR);
	R(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR);
#undef R
	default:
		return "VK_RESULT_?";
	}
}

uint64_t
vkh_now_ns(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC: timings and bounds must not jump with wall time. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Messenger                                                           */
/* ------------------------------------------------------------------ */

static VKAPI_ATTR VkBool32 VKAPI_CALL
messenger_cb(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
             VkDebugUtilsMessageTypeFlagsEXT types,
             const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
	const char *msg = data->pMessage ? data->pMessage : "";
	const char *id = data->pMessageIdName ? data->pMessageIdName : "";
	bool is_error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;

	if (is_error) {
		for (unsigned i = 0; i < expected_count; i++) {
			if (strstr(msg, expected[i]) || strstr(id, expected[i])) {
				__atomic_add_fetch(&vkh_expected_errors, 1,
				                   __ATOMIC_RELAXED);
				fprintf(stderr, "[vkh] expected error: %s\n", id);
				return VK_FALSE;
			}
		}
		if (is_tolerated(data)) {
			__atomic_add_fetch(&vkh_expected_errors, 1,
			                   __ATOMIC_RELAXED);
			fprintf(stderr, "[vkh] tolerated error (lost device "
			        "object): %s\n", msg);
			return VK_FALSE;
		}
		__atomic_add_fetch(&vkh_validation_errors, 1, __ATOMIC_RELAXED);
	} else {
		__atomic_add_fetch(&vkh_validation_warnings, 1,
		                   __ATOMIC_RELAXED);
	}
	fprintf(stderr, "[vkh] %s%s: %s\n",
	        is_error ? "VALIDATION ERROR" : "warning",
	        (types & VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT) ?
	                " (performance)" : "",
	        msg);
	/* VK_FALSE: the layer must still call down into the driver. */
	return VK_FALSE;
}

static bool
layer_present(const char *name)
{
	uint32_t n = 0;
	VkLayerProperties *props;
	bool found = false;

	if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
		return false;
	props = calloc(n ? n : 1, sizeof(*props));
	if (!props)
		return false;
	if (vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS) {
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(props[i].layerName, name))
				found = true;
	}
	free(props);
	return found;
}

static bool
env_is_1(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

/* ------------------------------------------------------------------ */
/* Instance                                                            */
/* ------------------------------------------------------------------ */

VkResult
vkh_init(struct vkh *h, const char *app_name, uint32_t api)
{
	return vkh_init_alloc(h, app_name, api, NULL);
}

/* The instance configuration vkh_configure_instance sets (the runner's
 * default otherwise: Vulkan 1.3, no extension beyond debug utils). */
static uint32_t cfg_api;
static const char *const *cfg_exts;
static uint32_t cfg_ext_count;

void
vkh_configure_instance(uint32_t api, const char *const *exts, uint32_t n)
{
	cfg_api = api;
	cfg_exts = exts;
	cfg_ext_count = n;
}

/* A Vulkan 1.0 instance (an application written against 1.0 +
 * extensions) may call only the 1.0 queries, or the KHR ones of
 * VK_KHR_get_physical_device_properties2 when it enabled it. */
static void
query_physical_device_10(struct vkh *h)
{
	bool props2 = false;

	for (uint32_t i = 0; i < cfg_ext_count; i++)
		if (!strcmp(cfg_exts[i],
		            VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME))
			props2 = true;
	vkGetPhysicalDeviceProperties(h->phys, &h->props);
	h->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
	if (props2) {
		PFN_vkGetPhysicalDeviceProperties2KHR gpdp2 =
			(PFN_vkGetPhysicalDeviceProperties2KHR)
			vkGetInstanceProcAddr(h->instance,
			        "vkGetPhysicalDeviceProperties2KHR");
		VkPhysicalDeviceProperties2 p2 = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
			.pNext = &h->driver,
		};
		/* VkPhysicalDeviceDriverProperties belongs to an extension
		 * a 1.0 application may not know: only when listed. */
		uint32_t n = 0;
		VkExtensionProperties e[256];
		bool drv = false;

		n = 256;
		vkEnumerateDeviceExtensionProperties(h->phys, NULL, &n, e);
		for (uint32_t i = 0; i < n; i++)
			if (!strcmp(e[i].extensionName,
			            VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME))
				drv = true;
		if (gpdp2 && drv)
			gpdp2(h->phys, &p2);
	}
	vkGetPhysicalDeviceMemoryProperties(h->phys, &h->mem);
	h->family_count = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &h->family_count,
	                                         h->families);
	h->is_swgpu = strstr(h->driver.driverName, "swgpu") ||
	              !strncmp(h->props.deviceName, "swgpu", 5);
}

static void
query_physical_device(struct vkh *h)
{
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
	};
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
	};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &h->driver,
	};

	h->driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
	vkGetPhysicalDeviceProperties2(h->phys, &p2);
	h->props = p2.properties;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	h->timeline_semaphore = f12.timelineSemaphore;
	h->host_query_reset = f12.hostQueryReset;
	h->synchronization2 = f13.synchronization2;
	h->maintenance4 = f13.maintenance4;
	h->private_data = f13.privateData;
	h->dynamic_rendering = f13.dynamicRendering;
	h->draw_indirect_count = f12.drawIndirectCount;
	h->imageless_framebuffer = f12.imagelessFramebuffer;
	h->features = f2.features;
	VkPhysicalDeviceVulkan11Features f11 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
	};
	f2.pNext = &f11;
	vkGetPhysicalDeviceFeatures2(h->phys, &f2);
	h->shader_draw_parameters = f11.shaderDrawParameters;
	vkGetPhysicalDeviceMemoryProperties(h->phys, &h->mem);
	h->family_count = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &h->family_count,
	                                         h->families);
	h->is_swgpu = strstr(h->driver.driverName, "swgpu") ||
	              !strncmp(h->props.deviceName, "swgpu", 5);
}

/* A Vulkan 1.0 instance has no *2 queries (without the extension). */
static void
query_physical_device_api(struct vkh *h, uint32_t api)
{
	if (VK_API_VERSION_MINOR(api) == 0 && VK_API_VERSION_MAJOR(api) == 1)
		query_physical_device_10(h);
	else
		query_physical_device(h);
}

void (*vkh_instance_hook)(VkInstanceCreateInfo *ici);

VkResult
vkh_init_alloc(struct vkh *h, const char *app_name, uint32_t api,
               const VkAllocationCallbacks *alloc)
{
	static const char *validation = "VK_LAYER_KHRONOS_validation";
	const char *exts[1 + 32] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
	VkValidationFeatureEnableEXT sync_val =
		VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
	VkValidationFeaturesEXT features = {
		.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
		.enabledValidationFeatureCount = 1,
		.pEnabledValidationFeatures = &sync_val,
	};
	VkDebugUtilsMessengerCreateInfoEXT mci = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity =
			VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
			VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = messenger_cb,
	};
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = app_name,
		.pEngineName = "vk_harness",
		.apiVersion = api,
	};
	VkInstanceCreateInfo ici = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pApplicationInfo = &app,
		.enabledExtensionCount = 1,
		.ppEnabledExtensionNames = exts,
	};
	PFN_vkCreateDebugUtilsMessengerEXT create_messenger;
	uint32_t count = 0;
	VkPhysicalDevice phys[8];
	const char *idx_env = getenv("VKH_DEVICE_INDEX");
	uint32_t idx = idx_env ? (uint32_t)atoi(idx_env) : 0;
	VkResult r;

	memset(h, 0, sizeof(*h));
	if (cfg_api)
		api = cfg_api;
	app.apiVersion = api;
	for (uint32_t i = 0; i < cfg_ext_count && i < 32; i++)
		exts[ici.enabledExtensionCount++] = cfg_exts[i];
	h->api_version = api;
	h->validation = !env_is_1("VKH_NO_VALIDATION");
#if defined(VKH_ASAN) || defined(VKH_TSAN)
	if (h->validation && !env_is_1("VKH_ASAN_VALIDATION")) {
		fprintf(stderr, "[vkh] sanitizer build: validation layer off "
		        "(VKH_ASAN_VALIDATION=1 to enable)\n");
		h->validation = false;
	}
#endif
	if (h->validation) {
		if (!layer_present(validation)) {
			fprintf(stderr,
			        "[vkh] FATAL: %s not found; install "
			        "vulkan-validationlayers or set "
			        "VKH_NO_VALIDATION=1\n", validation);
			return VK_ERROR_LAYER_NOT_PRESENT;
		}
		ici.enabledLayerCount = 1;
		ici.ppEnabledLayerNames = &validation;
		pin_validation_layer();
	}
	/* Chaining the messenger info into the instance info also reports
	 * messages from vkCreateInstance/vkDestroyInstance themselves. */
	ici.pNext = &mci;
	/* Synchronization validation catches a missing barrier in a test
	 * that a fast driver would forgive; it is on unless asked not to. */
	if (h->validation && !env_is_1("VKH_NO_SYNC_VALIDATION"))
		mci.pNext = &features;

	if (vkh_instance_hook)
		vkh_instance_hook(&ici);
	r = vkCreateInstance(&ici, alloc, &h->instance);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "[vkh] vkCreateInstance: %s\n",
		        vkh_result_str(r));
		return r;
	}
	create_messenger = (PFN_vkCreateDebugUtilsMessengerEXT)
		vkGetInstanceProcAddr(h->instance,
		                      "vkCreateDebugUtilsMessengerEXT");
	if (!create_messenger) {
		fprintf(stderr, "[vkh] vkCreateDebugUtilsMessengerEXT missing\n");
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	}
	mci.pNext = NULL;
	r = create_messenger(h->instance, &mci, NULL, &h->messenger);
	if (r != VK_SUCCESS)
		return r;

	count = 8;
	r = vkEnumeratePhysicalDevices(h->instance, &count, phys);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || count == 0) {
		fprintf(stderr, "[vkh] no physical device (%s)\n",
		        vkh_result_str(r));
		return r == VK_SUCCESS ? VK_ERROR_INITIALIZATION_FAILED : r;
	}
	if (idx >= count) {
		fprintf(stderr, "[vkh] VKH_DEVICE_INDEX=%u but %u devices\n",
		        idx, count);
		return VK_ERROR_INITIALIZATION_FAILED;
	}
	h->phys = phys[idx];
	query_physical_device_api(h, api);
	/* VKH_DRIVER_NAME: the first device of that driver instead (when
	 * VK_DRIVER_FILES names several and the order is the loader's). */
	const char *want = getenv("VKH_DRIVER_NAME");
	if (!want || idx_env || strstr(h->driver.driverName, want))
		return VK_SUCCESS;
	for (uint32_t i = 1; i < count; i++) {
		h->phys = phys[i];
		query_physical_device_api(h, api);
		if (strstr(h->driver.driverName, want))
			return VK_SUCCESS;
	}
	h->phys = phys[idx];
	query_physical_device_api(h, api);
	return VK_SUCCESS;
}

int
vkh_finish(struct vkh *h)
{
	for (unsigned i = 0; i < VKH_MAX_DEVICES; i++)
		if (h->devices[i])
			vkh_device_destroy(h, h->devices[i]);
	if (h->messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy =
			(PFN_vkDestroyDebugUtilsMessengerEXT)
			vkGetInstanceProcAddr(h->instance,
			                      "vkDestroyDebugUtilsMessengerEXT");
		if (destroy)
			destroy(h->instance, h->messenger, NULL);
		h->messenger = VK_NULL_HANDLE;
	}
	if (h->instance) {
		vkDestroyInstance(h->instance, NULL);
		h->instance = VK_NULL_HANDLE;
	}
	if (vkh_validation_errors) {
		fprintf(stderr, "[vkh] %d validation error(s)\n",
		        vkh_validation_errors);
		return 1;
	}
	return h->failures ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Runner                                                              */
/* ------------------------------------------------------------------ */

void
vkh_fail(struct vkh *h, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: [%s] check failed: ", file, line,
	        h->current_test ? h->current_test : "?");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	h->failures++;
}

void
vkh_skip(struct vkh *h, const char *fmt, ...)
{
	va_list ap;

	printf("[ SKIP ] %s: ", h->current_test ? h->current_test : "?");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	h->skipped = true;
}

static bool
family_with(const struct vkh *h, VkQueueFlags flags)
{
	for (uint32_t f = 0; f < h->family_count; f++)
		if ((h->families[f].queueFlags & flags) == flags)
			return true;
	return false;
}

static const char *
family_list(const struct vkh *h)
{
	static char buf[256];
	size_t n = 0;

	buf[0] = 0;
	for (uint32_t f = 0; f < h->family_count && n < sizeof(buf) - 64;
	     f++) {
		VkQueueFlags q = h->families[f].queueFlags;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
		                      " [family %u:%s%s%s x%u]", f,
		                      q & VK_QUEUE_GRAPHICS_BIT ? " GRAPHICS" :
		                                                  "",
		                      q & VK_QUEUE_COMPUTE_BIT ? " COMPUTE" : "",
		                      q & VK_QUEUE_TRANSFER_BIT ? " TRANSFER" :
		                                                  "",
		                      h->families[f].queueCount);
	}
	return buf;
}

static bool
selected(int argc, char **argv, const char *name)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

int
vkh_run_tests(int argc, char **argv, const char *prog,
              const struct vkh_test *tests, unsigned count)
{
	struct vkh h;
	unsigned ran = 0, failed = 0, skipped = 0;
	VkResult r;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	r = vkh_init(&h, prog, VK_API_VERSION_1_3);
	if (r != VK_SUCCESS) {
		fprintf(stderr, "%s: harness init failed: %s\n", prog,
		        vkh_result_str(r));
		vkh_finish(&h);
		return 1;
	}
	printf("%s: device \"%s\", driver \"%s\" (%s), API %u.%u.%u, "
	       "validation %s%s\n", prog, h.props.deviceName,
	       h.driver.driverName, h.driver.driverInfo,
	       VK_API_VERSION_MAJOR(h.props.apiVersion),
	       VK_API_VERSION_MINOR(h.props.apiVersion),
	       VK_API_VERSION_PATCH(h.props.apiVersion),
	       h.validation ? "on" : "OFF",
	       h.validation && !env_is_1("VKH_NO_SYNC_VALIDATION") ?
	       " (+ synchronization)" : "");

	for (unsigned i = 0; i < count; i++) {
		const struct vkh_test *t = &tests[i];
		struct vkh_device dev = { 0 };
		int fail_before = h.failures;
		VkQueueFlags flags;
		int val_before = vkh_validation_errors;
		bool ok;

		if (!selected(argc, argv, t->name))
			continue;
		ran++;
		h.current_test = t->name;
		h.skipped = false;
		printf("[ RUN  ] %s\n", t->name);
		flags = t->queue_flags ? t->queue_flags :
		                         VK_QUEUE_TRANSFER_BIT;
		if (t->want_queues && !family_with(&h, flags) &&
		    env_is_1("VKH_RELAXED_QUEUE_TYPES")) {
			/* Run on TRANSFER queues anyway to exercise the
			 * driver's implementation; the layer's queue-type
			 * VUIDs (...-commandBuffer-cmdpool) are expected. */
			printf("  (relaxed: on a TRANSFER queue, beyond the "
			       "spec's supported queue types)\n");
			flags = VK_QUEUE_TRANSFER_BIT;
		}
		if (t->want_queues && !family_with(&h, flags)) {
			vkh_skip(&h, "no queue family has flags 0x%x "
			         "(driver offers%s)", flags,
			         family_list(&h));
			skipped++;
			continue;
		}
		if (t->want_queues) {
			r = vkh_device_create(&h, flags, t->want_queues, NULL,
			                      &dev);
			if (r != VK_SUCCESS) {
				vkh_fail(&h, __FILE__, __LINE__,
				         "vkh_device_create: %s",
				         vkh_result_str(r));
			}
		}
		if (flags != (t->queue_flags ? t->queue_flags :
		                                VK_QUEUE_TRANSFER_BIT))
			vkh_expect_message("-commandBuffer-cmdpool");
		if (h.failures == fail_before)
			t->fn(&h, t->want_queues ? &dev : NULL);
		/* A check that failed returned early and leaked its objects;
		 * the layer's leak report would only repeat the failure. */
		if (h.failures != fail_before)
			vkh_expect_message("VUID-vkDestroyDevice-device-00378");
		vkh_device_destroy(&h, &dev);
		for (unsigned k = 0; k < VKH_MAX_DEVICES; k++)
			if (h.devices[k])
				vkh_device_destroy(&h, h.devices[k]);
		vkh_expect_clear();
		vkh_tolerate_clear();
		if (vkh_validation_errors != val_before) {
			fprintf(stderr, "[%s] %d validation error(s)\n",
			        t->name, vkh_validation_errors - val_before);
		}
		ok = h.failures == fail_before &&
		     vkh_validation_errors == val_before;
		if (!ok) {
			failed++;
			printf("[ FAIL ] %s\n", t->name);
		} else if (h.skipped) {
			skipped++;
		} else {
			printf("[  OK  ] %s\n", t->name);
		}
	}
	h.current_test = NULL;
	status = vkh_finish(&h);
	printf("%s: %u ran, %u failed, %u skipped\n", prog, ran, failed,
	       skipped);
	if (ran == 0) {
		fprintf(stderr, "%s: no test selected\n", prog);
		return 1;
	}
	if (status || failed)
		return 1;
	return skipped == ran ? VKH_EXIT_SKIP : 0;
}

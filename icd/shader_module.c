/* SPDX-License-Identifier: MIT */
/*
 * shader_module.c — VkShaderModule: a private copy of the SPIR-V words.
 *
 * Translation into the engine's IR happens once per pipeline (it needs the
 * entry point, the specialization constants and the pipeline layout), so a
 * module only checks the SPIR-V header here and keeps the words.
 *
 * What the spec lets us do with an invalid module (Vulkan 1.3):
 *
 *   VUID-VkShaderModuleCreateInfo-codeSize-08735 "If pCode is a pointer to
 *   SPIR-V code, codeSize must be a multiple of 4"
 *   VUID-VkShaderModuleCreateInfo-pCode-08736 "If pCode is a pointer to
 *   SPIR-V code, pCode must point to valid SPIR-V code, formatted and packed
 *   as described by the Khronos SPIR-V Specification"
 *   "The first few words of the SPIR-V module must be a magic number and a
 *   SPIR-V version number, as described in section 2.3 of the SPIR-V
 *   Specification."
 *
 * vkCreateShaderModule's error codes (vk.xml) are OUT_OF_HOST_MEMORY,
 * OUT_OF_DEVICE_MEMORY and INVALID_SHADER_NV; the last one belongs to
 * VK_NV_glsl_shader, which we do not offer, so we may not return it. An
 * invalid module is a valid-usage violation, i.e. undefined behaviour, so
 * any outcome is allowed; the most honest one that is still a defined
 * VkResult is
 *
 *   VK_ERROR_UNKNOWN "An unknown error has occurred; either the
 *   application has provided invalid input, or an implementation failure
 *   has occurred."
 *
 * returned with a log line naming what is wrong, never a module that
 * would crash later. A header that looks right but a body the engine
 * cannot translate fails the same way at vkCreateComputePipelines.
 */
#include <stdio.h>

#include "icd.h"
#include "pipeline.h"

#define SPIRV_MAGIC 0x07230203u
#define SPIRV_HEADER_WORDS 5u
/* Vulkan 1.3 consumes SPIR-V 1.0 .. 1.6. */
#define SPIRV_VERSION_MAX 0x00010600u

/* Why the header is not one we accept, or NULL. */
static const char *
spirv_header_problem(const uint32_t *code, size_t size, char *buf,
                     size_t len)
{
	uint32_t version;

	if (!code || size % 4 != 0) {
		snprintf(buf, len, "size %zu is not a multiple of 4", size);
		return buf;
	}
	if (size < SPIRV_HEADER_WORDS * 4) {
		snprintf(buf, len, "%zu bytes: no room for the header", size);
		return buf;
	}
	if (code[0] != SPIRV_MAGIC) {
		snprintf(buf, len, "magic 0x%08x%s", code[0],
		         code[0] == 0x03022307u ? " (other endianness)" : "");
		return buf;
	}
	version = code[1];
	/* Version word: 0 | major | minor | 0. */
	if ((version & 0xff0000ffu) != 0 || version < 0x00010000u ||
	    version > SPIRV_VERSION_MAX) {
		snprintf(buf, len, "version 0x%08x is not 1.0 .. 1.6",
		         version);
		return buf;
	}
	/* Word 3 is the id bound: every id is below it, so 0 is invalid.
	 * Word 4 is reserved and must be 0. */
	if (code[3] == 0 || code[4] != 0) {
		snprintf(buf, len, "id bound %u, reserved word %u", code[3],
		         code[4]);
		return buf;
	}
	return NULL;
}

VkResult
icd_spirv_check_header(const uint32_t *code, size_t size)
{
	char buf[96];
	const char *why = spirv_header_problem(code, size, buf, sizeof(buf));

	if (!why)
		return VK_SUCCESS;
	icd_log("invalid SPIR-V rejected (VK_ERROR_UNKNOWN): %s", why);
	return VK_ERROR_UNKNOWN;
}

VkResult
icd_CreateShaderModule(VkDevice device,
                       const VkShaderModuleCreateInfo *pCreateInfo,
                       const VkAllocationCallbacks *pAllocator,
                       VkShaderModule *pShaderModule)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_shader_module *m;
	VkResult r;

	r = icd_spirv_check_header(pCreateInfo->pCode, pCreateInfo->codeSize);
	if (r != VK_SUCCESS)
		return r;
	m = icd_alloc(pAllocator, &dev->alloc,
	              sizeof(*m) + pCreateInfo->codeSize, 8,
	              VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!m)
		return icd_error(VK_ERROR_OUT_OF_HOST_MEMORY, "shader module");
	memset(m, 0, sizeof(*m));
	icd_object_init(&m->base, VK_OBJECT_TYPE_SHADER_MODULE);
	m->code_size = pCreateInfo->codeSize;
	memcpy(m->code, pCreateInfo->pCode, pCreateInfo->codeSize);
	m->hash = icd_hash64(m->code, m->code_size, 0);
	*pShaderModule = icd_shader_module_to_handle(m);
	return VK_SUCCESS;
}

void
icd_DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                        const VkAllocationCallbacks *pAllocator)
{
	struct icd_device *dev = icd_device_from_handle(device);
	struct icd_shader_module *m = icd_shader_module_from_handle(shaderModule);

	if (!m)
		return;
	icd_free(pAllocator, &dev->alloc, m);
}

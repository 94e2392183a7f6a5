/* SPDX-License-Identifier: MIT */
/*
 * C declarations of the registry entries in vk_supplement.xml: extensions
 * the ICD offers that the system's Vulkan headers (1.3.239) predate.
 * Each block stands aside when the headers have the extension.
 */
#ifndef ICD_VK_SUPPLEMENT_H
#define ICD_VK_SUPPLEMENT_H

#include <vulkan/vulkan.h>

/* VK_KHR_shader_subgroup_rotate (extension 417; spec version 2 adds the
 * clustered rotate): OpGroupNonUniformRotateKHR. */
#ifndef VK_KHR_shader_subgroup_rotate
#define VK_KHR_shader_subgroup_rotate 1
/* set when these declarations stand in for the system headers' */
#define ICD_VK_SUPPLEMENT_SUBGROUP_ROTATE 1
#define VK_KHR_SHADER_SUBGROUP_ROTATE_SPEC_VERSION 2
/* VkSubgroupFeatureFlagBits the extension adds (bit positions 9, 10) */
#define VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR 0x00000200u
#define VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR 0x00000400u
#define VK_KHR_SHADER_SUBGROUP_ROTATE_EXTENSION_NAME \
	"VK_KHR_shader_subgroup_rotate"
/* 1000000000 + (417 - 1) * 1000: not a VkStructureType enumerator of
 * these headers, so switch statements test it with an if. */
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR \
	((VkStructureType)1000416000)
typedef struct VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR {
	VkStructureType sType;
	void *pNext;
	VkBool32 shaderSubgroupRotate;
	VkBool32 shaderSubgroupRotateClustered;
} VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR;
#endif

#endif

/* SPDX-License-Identifier: MIT */
/*
 * calibrated_time.c — VK_EXT_calibrated_timestamps: the device's
 * timestamps (TIMESTAMP packets: vkCmdWriteTimestamp, queries) are
 * CLOCK_MONOTONIC nanoseconds (swgpu_now_ns, timestampPeriod 1), so the
 * device time domain and CLOCK_MONOTONIC are the same clock; the spec's
 * maxDeviation is bounded by reading CLOCK_MONOTONIC_RAW around the
 * samples.
 */
#include <time.h>

#include "icd.h"

static const VkTimeDomainEXT icd_time_domains[] = {
	VK_TIME_DOMAIN_DEVICE_EXT,
	VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
	VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT,
};

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetPhysicalDeviceCalibrateableTimeDomainsEXT(
	VkPhysicalDevice physicalDevice, uint32_t *pTimeDomainCount,
	VkTimeDomainEXT *pTimeDomains)
{
	(void)physicalDevice;
	return icd_fill_array(pTimeDomains, pTimeDomainCount, icd_time_domains,
	                      sizeof(icd_time_domains) /
	                      sizeof(icd_time_domains[0]),
	                      sizeof(icd_time_domains[0]));
}

static uint64_t
icd_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

VKAPI_ATTR VkResult VKAPI_CALL
icd_GetCalibratedTimestampsEXT(VkDevice device, uint32_t timestampCount,
                               const VkCalibratedTimestampInfoEXT *pInfos,
                               uint64_t *pTimestamps,
                               uint64_t *pMaxDeviation)
{
	uint64_t begin, end;

	(void)device;
	begin = icd_clock_ns(CLOCK_MONOTONIC_RAW);
	for (uint32_t i = 0; i < timestampCount; i++) {
		switch (pInfos[i].timeDomain) {
		case VK_TIME_DOMAIN_DEVICE_EXT:
			/* What a TIMESTAMP packet writes. */
			pTimestamps[i] = swgpu_now_ns();
			break;
		case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT:
			pTimestamps[i] = icd_clock_ns(CLOCK_MONOTONIC);
			break;
		case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT:
			pTimestamps[i] = icd_clock_ns(CLOCK_MONOTONIC_RAW);
			break;
		default:
			/* Not a domain we listed: invalid usage. */
			pTimestamps[i] = 0;
			break;
		}
	}
	end = icd_clock_ns(CLOCK_MONOTONIC_RAW);
	/* Every sample was taken between begin and end, and each clock
	 * ticks in nanoseconds: the samples are at most that far apart. */
	*pMaxDeviation = end - begin + 1;
	return VK_SUCCESS;
}

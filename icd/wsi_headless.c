/* SPDX-License-Identifier: MIT */
/*
 * wsi_headless.c — VK_EXT_headless_surface: a surface with no window.
 * Swapchains on it go through the whole life cycle (acquire, present as
 * queue work, pacing by present mode, trace) and the presenter shows the
 * image to nobody. The swapchain decides the extent; it never goes out
 * of date and is never lost.
 */
#include "wsi.h"

static VkResult
headless_query(struct icd_surface *surface, struct wsi_window *out)
{
	out->current_extent = (VkExtent2D){ UINT32_MAX, UINT32_MAX };
	out->composite_alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR |
	                       VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR |
	                       VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR |
	                       VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
	return VK_SUCCESS;
}

static VkResult
headless_init(struct wsi_swapchain *sc)
{
	return VK_SUCCESS;
}

static void
headless_finish(struct wsi_swapchain *sc)
{
}

static VkResult
headless_show(struct wsi_swapchain *sc, const struct wsi_frame *f)
{
	return VK_SUCCESS;
}

const struct wsi_platform_ops wsi_headless_ops = {
	.name = "headless",
	.query = headless_query,
	.init = headless_init,
	.finish = headless_finish,
	.show = headless_show,
};

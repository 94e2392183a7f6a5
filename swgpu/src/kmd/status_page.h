/* SPDX-License-Identifier: MIT */
/*
 * The device's status page for swgpu-smi (swgpu/swgpu_status.h):
 * started at device open, stopped (the file removed) at close.
 */
#ifndef SWGPU_KMD_STATUS_PAGE_H
#define SWGPU_KMD_STATUS_PAGE_H

#include <stdint.h>

struct swgpu_device;
struct status_pub;

/* Creates the page and its thread unless cfg.no_publish; a failure is
 * logged once and leaves dev->status NULL. */
void status_publish_start(struct swgpu_device *dev);
void status_publish_stop(struct swgpu_device *dev);
void status_publish_stop_pub(struct status_pub *sp);

#endif

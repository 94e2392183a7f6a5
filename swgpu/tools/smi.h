/* SPDX-License-Identifier: MIT */
/* swgpu-smi's parts: reading the status pages (swgpu_smi.c) and printing
 * them (smi_print.c). */
#ifndef SWGPU_SMI_H
#define SWGPU_SMI_H

#include <stdbool.h>
#include <stdio.h>

#include <swgpu/swgpu_status.h>

#define SMI_MAX_GPUS 64
#define SMI_MAX_SKIPPED 32

/* What one scan of the directory found: consistent copies of the live
 * pages, and the files it could not use with the reason. */
struct smi_scan {
	char dir[4096];
	unsigned gpu_count;
	struct swgpu_status_page gpu[SMI_MAX_GPUS];
	unsigned skipped_count;
	struct {
		char file[256];
		char reason[128];
	} skipped[SMI_MAX_SKIPPED];
	unsigned stale_removed;
	unsigned long long now_unix_ns;
};

void smi_print_table(FILE *out, const struct smi_scan *s);
void smi_print_json(FILE *out, const struct smi_scan *s);

#endif

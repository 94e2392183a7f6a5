/* SPDX-License-Identifier: MIT */
/* Who may use global priority on the shared GPU (priority_rule.h). */
#include "daemon/priority_rule.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#define CAP_SYS_NICE_BIT 23  /* linux/capability.h's CAP_SYS_NICE */

static char *realtime_list;

void
priority_rule_init(const char *list)
{
	if (!list)
		list = getenv("SWGPUD_REALTIME");
	free(realtime_list);
	realtime_list = list && *list ? strdup(list) : NULL;
	if (realtime_list)
		swgpu_log("swgpud: REALTIME priority also for: %s",
		          realtime_list);
}

/* Whether pid's effective capabilities hold CAP_SYS_NICE. */
static bool
has_sys_nice(pid_t pid)
{
	char path[64], line[256];
	unsigned long long caps = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			found = true;
			break;
		}
	fclose(f);
	return found && (caps >> CAP_SYS_NICE_BIT & 1);
}

/* Whether pid's executable is on the list (by path or by name). */
static bool
listed(pid_t pid)
{
	char path[64], exe[PATH_MAX];
	const char *name, *p;
	ssize_t n;

	if (!realtime_list)
		return false;
	if (!strcmp(realtime_list, "*"))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = 0;
	name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	for (p = realtime_list; *p;) {
		size_t len = strcspn(p, ",");

		if ((len == strlen(exe) && !strncmp(p, exe, len)) ||
		    (len == strlen(name) && !strncmp(p, name, len)))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

swgpu_priority
priority_rule_max(pid_t pid)
{
	if (has_sys_nice(pid) || listed(pid))
		return SWGPU_PRIORITY_REALTIME;
	return SWGPU_PRIORITY_HIGH;
}

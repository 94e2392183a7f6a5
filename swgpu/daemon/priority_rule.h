/* SPDX-License-Identifier: MIT */
/*
 * Who may use global priority on the shared GPU (README, "One GPU for
 * the machine", global priority; as Linux DRM drivers and
 * VK_KHR_global_priority do it):
 *
 *  - LOW, NORMAL and HIGH: every client. The daemon serves one user
 *    only (SO_PEERCRED), and HIGH is still fair-shared: the scheduler
 *    gives a saturated HIGH queue 16 times a LOW one's share, never all
 *    of the engine (kmd/sched.c).
 *  - REALTIME (weight 64, 4x HIGH's share; preempts lower levels within
 *    it): a client whose process has CAP_SYS_NICE in its effective set,
 *    as for a negative nice value, or whose executable is listed in the
 *    daemon's SWGPUD_REALTIME (names or paths, comma separated; "*":
 *    everyone) or --realtime. The executable is /proc/<pid>/exe, not the
 *    name the client claims in HELLO.
 *
 * Another level is refused at queue creation with SWGPU_ERR_NOT_PERMITTED
 * (VK_ERROR_NOT_PERMITTED_KHR from vkCreateDevice) and a log line. In
 * process there is nobody to protect: every level is allowed.
 */
#ifndef SWGPUD_PRIORITY_RULE_H
#define SWGPUD_PRIORITY_RULE_H

#include <sys/types.h>

#include <swgpu/swgpu.h>

/* The REALTIME list: from --realtime, else SWGPUD_REALTIME (list NULL). */
void priority_rule_init(const char *list);
/* The highest level client pid may use. */
swgpu_priority priority_rule_max(pid_t pid);

#endif

/* SPDX-License-Identifier: MIT */
/* For whom the calling thread works (owner.h). */
#include "kmd/owner.h"

#include <stdio.h>
#include <unistd.h>

/* Thread-local: a swgpud session thread serves one client for its whole
 * life; every other thread keeps the zero state (this process). */
static _Thread_local struct {
	int pid;
	char program[KMD_OWNER_PROGRAM];
	swgpu_priority max_priority;
} current;

void
kmd_owner_set(int pid, const char *program, swgpu_priority max_priority)
{
	current.pid = pid;
	snprintf(current.program, sizeof(current.program), "%s",
	         pid && program ? program : "");
	current.max_priority = pid ? max_priority : SWGPU_PRIORITY_REALTIME;
}

int
kmd_owner_pid(void)
{
	return current.pid;
}

const char *
kmd_owner_program(void)
{
	return current.program;
}

int
kmd_owner_pid_now(void)
{
	return current.pid ? current.pid : (int)getpid();
}

swgpu_priority
kmd_owner_max_priority(void)
{
	return current.pid ? current.max_priority : SWGPU_PRIORITY_REALTIME;
}

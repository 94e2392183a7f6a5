/* SPDX-License-Identifier: MIT */
/*
 * For whom the calling thread works. In process, every thread works for
 * the process itself. In swgpud a session thread works for its client
 * process from HELLO on (kmd_owner_set): what it creates in the kmd is
 * that client's — a BO's memory is accounted to it (mem_owner.h), a
 * context shows it in swgpu-smi — and a queue it creates may not be of a
 * higher priority than the daemon's rule gives that client.
 */
#ifndef SWGPU_KMD_OWNER_H
#define SWGPU_KMD_OWNER_H

#include <swgpu/swgpu.h>

#define KMD_OWNER_PROGRAM 16   /* like /proc/<pid>/comm */

/* The calling thread now works for process pid (program: its name),
 * which may create queues up to max_priority, until the next call. pid
 * 0: for this process again, every priority allowed. */
void kmd_owner_set(int pid, const char *program, swgpu_priority max_priority);
/* The calling thread's owner: pid 0 and "" for this process. */
int kmd_owner_pid(void);
const char *kmd_owner_program(void);
/* kmd_owner_pid(), or this process's pid when that is 0. */
int kmd_owner_pid_now(void);
/* The highest queue priority the owner may use. */
swgpu_priority kmd_owner_max_priority(void);

#endif

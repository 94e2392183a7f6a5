/* SPDX-License-Identifier: MIT */
/* What writers and readers of status pages share (swgpu/swgpu_status.h):
 * where the pages live and a process's start time. Its own file so that
 * swgpu-smi links only this. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <swgpu/swgpu_status.h>

const char *
swgpu_status_dir(char *buf, size_t size)
{
	const char *run = getenv("XDG_RUNTIME_DIR");
	int n;

	if (run && run[0] == '/')
		n = snprintf(buf, size, "%s/swgpu", run);
	else
		n = snprintf(buf, size, "/tmp/swgpu-%u", (unsigned)getuid());
	return n > 0 && (size_t)n < size ? buf : NULL;
}

bool
swgpu_status_dir_make(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return false;
	/* ours, a real directory, nobody else's way in */
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != getuid() || (st.st_mode & 077))
		return false;
	return true;
}

uint64_t
swgpu_status_pid_start(int pid)
{
	char path[64], buf[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* the name (field 2) may hold spaces: count from its ')' */
	const char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (int field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

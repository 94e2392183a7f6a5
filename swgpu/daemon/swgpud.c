/* SPDX-License-Identifier: MIT */
/*
 * swgpud: the per-user daemon that owns the software GPU in shared mode
 * (docs/ARCHITECTURE.md, "Shared mode"; README, "One GPU for the
 * machine"). Clients start it on demand; it can also be run by hand or
 * by a systemd user unit (--idle-exit 0: never exit).
 *
 *   swgpud [--socket PATH] [--idle-exit SECONDS] [--realtime LIST]
 *
 * The socket lives in the user's private directory (0700, checked), and
 * every connection's peer credentials are checked: only this user's
 * processes are served. A lock file next to the socket makes sure one
 * daemon serves it; a second one exits at once.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* struct ucred */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/gpu_table.h"
#include "daemon/priority_rule.h"
#include "daemon/session.h"
#include "kmd/device.h"
#include "remote/proto.h"
#include "util/util.h"

static pthread_mutex_t conn_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned connections;

struct conn_arg {
	int sock;
	pid_t pid;
};

static void *
conn_thread(void *p)
{
	struct conn_arg a = *(struct conn_arg *)p;

	free(p);
	session_run(a.sock, a.pid);
	pthread_mutex_lock(&conn_lock);
	connections--;
	pthread_mutex_unlock(&conn_lock);
	return NULL;
}

static void
accept_one(int listen_fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	struct conn_arg *a;
	pthread_attr_t attr;
	pthread_t t;
	int s = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (s < 0)
		return;
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
	    cred.uid != getuid()) {
		swgpu_log("swgpud: refused a connection from uid %d (pid %d): "
		          "not this user", len ? (int)cred.uid : -1,
		          len ? (int)cred.pid : -1);
		close(s);
		return;
	}
	a = malloc(sizeof(*a));
	if (!a) {
		close(s);
		return;
	}
	a->sock = s;
	a->pid = cred.pid;
	pthread_mutex_lock(&conn_lock);
	connections++;
	pthread_mutex_unlock(&conn_lock);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, conn_thread, a) != 0) {
		pthread_mutex_lock(&conn_lock);
		connections--;
		pthread_mutex_unlock(&conn_lock);
		close(s);
		free(a);
	}
	pthread_attr_destroy(&attr);
}

static int
listen_on(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	if (strlen(path) >= sizeof(a.sun_path)) {
		swgpu_log("swgpud: socket path too long: %s", path);
		return -1;
	}
	strcpy(a.sun_path, path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	/* We hold the lock: a socket file left is a dead daemon's. */
	unlink(path);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    chmod(path, 0600) != 0 || listen(s, 64) != 0) {
		swgpu_log("swgpud: cannot listen on %s: %s", path,
		          strerror(errno));
		close(s);
		return -1;
	}
	return s;
}

static void
usage(void)
{
	fprintf(stderr, "usage: swgpud [--socket PATH] [--idle-exit SECONDS] "
	        "[--realtime LIST]\n"
	        "  --socket     where to listen (default: the user's "
	        "private swgpu directory)\n"
	        "  --idle-exit  exit after this long without clients "
	        "(default 5; 0: never)\n"
	        "  --realtime   executables (names or paths, comma "
	        "separated; *: all) that may use\n"
	        "               REALTIME priority without CAP_SYS_NICE "
	        "(default: $SWGPUD_REALTIME)\n");
}

int
main(int argc, char **argv)
{
	char path[PATH_MAX], lock_path[PATH_MAX + 8];
	long idle_exit_s = 5;
	const char *realtime = NULL;
	uint64_t idle_since;
	int lock_fd, listen_fd;

	path[0] = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--socket") && i + 1 < argc) {
			snprintf(path, sizeof(path), "%s", argv[++i]);
		} else if (!strcmp(argv[i], "--realtime") && i + 1 < argc) {
			realtime = argv[++i];
		} else if (!strcmp(argv[i], "--idle-exit") && i + 1 < argc) {
			char *end;

			idle_exit_s = strtol(argv[++i], &end, 10);
			if (*end || idle_exit_s < 0) {
				usage();
				return 2;
			}
		} else {
			usage();
			return 2;
		}
	}
	/* The daemon's own devices are in process, whatever the client
	 * that started it had in its environment. */
	setenv("SWGPU_MODE", "inproc", 1);
	kmd_in_daemon = true;
	priority_rule_init(realtime);
	signal(SIGPIPE, SIG_IGN);
	if (!path[0] && !proto_socket_path(path, sizeof(path))) {
		swgpu_log("swgpud: no private directory for the socket");
		return 1;
	}
	snprintf(lock_path, sizeof(lock_path), "%s.lock", path);
	lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) != 0) {
		/* Another daemon serves this socket (a start race). */
		return 0;
	}
	listen_fd = listen_on(path);
	if (listen_fd < 0)
		return 1;
	swgpu_log("swgpud %d: listening on %s (protocol %.12s)", (int)getpid(),
	          path, proto_hash());
	idle_since = swgpu_now_ns();
	for (;;) {
		struct pollfd p = { .fd = listen_fd, .events = POLLIN };
		unsigned n;

		if (poll(&p, 1, 200) > 0 && (p.revents & POLLIN))
			accept_one(listen_fd);
		pthread_mutex_lock(&conn_lock);
		n = connections;
		pthread_mutex_unlock(&conn_lock);
		if (n)
			idle_since = swgpu_now_ns();
		else if (idle_exit_s &&
		         swgpu_now_ns() - idle_since >
		                 (uint64_t)idle_exit_s * 1000000000ull)
			break;
	}
	/* Idle: nothing to close. Unlink before the lock goes, so a new
	 * client starts a new daemon rather than reaching a closed one. */
	unlink(path);
	close(listen_fd);
	swgpu_log("swgpud %d: idle for %ld s, exiting", (int)getpid(),
	          idle_exit_s);
	return 0;
}

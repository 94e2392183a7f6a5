/* SPDX-License-Identifier: MIT */
/*
 * Shared mode: the connection to swgpud. rc_connect finds the daemon's
 * socket (starting the daemon when nothing answers: it is the user's, so
 * any client may start it; a lock in the daemon makes a race harmless),
 * says HELLO with this process's identity and device configuration and
 * gets the device's info back. rc_call is one request and its reply.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "remote/client.h"
#include "util/util.h"

struct rc_pending {
	uint64_t tag;
	bool done;
	struct rc_reply *rep;
	/* A question from the daemon within this call (PROTO_SHADER_LOOKUP),
	 * for the caller to answer before the reply comes. */
	bool asked;
	struct rc_reply question;
	struct rc_pending *next;
};

static pthread_mutex_t devs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rc_dev *devs;

bool
remote_mode_shared(void)
{
	const char *m = getenv("SWGPU_MODE");

	if (!m || !*m || !strcmp(m, "inproc"))
		return false;
	if (!strcmp(m, "shared"))
		return true;
	swgpu_log("SWGPU_MODE=%s: not inproc or shared; using inproc", m);
	return false;
}

void
rc_register(struct rc_dev *d)
{
	pthread_mutex_lock(&devs_lock);
	d->next = devs;
	devs = d;
	pthread_mutex_unlock(&devs_lock);
}

void
rc_unregister(struct rc_dev *d)
{
	pthread_mutex_lock(&devs_lock);
	for (struct rc_dev **p = &devs; *p; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			break;
		}
	pthread_mutex_unlock(&devs_lock);
}

uint32_t
rc_open_count(void)
{
	uint32_t n = 0;

	pthread_mutex_lock(&devs_lock);
	for (struct rc_dev *d = devs; d; d = d->next)
		n++;
	pthread_mutex_unlock(&devs_lock);
	return n;
}

struct rc_dev *
rc_any_device(void)
{
	struct rc_dev *d;

	pthread_mutex_lock(&devs_lock);
	d = devs;
	pthread_mutex_unlock(&devs_lock);
	return d;
}

void
rc_reply_fini(struct rc_reply *rep)
{
	free(rep->payload);
	rep->payload = NULL;
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++) {
		if (rep->fds[i] >= 0)
			close(rep->fds[i]);
		rep->fds[i] = -1;
	}
}

swgpu_result
rc_reply_check(struct rc_dev *d, struct rc_reply *rep, swgpu_result r)
{
	if (r == SWGPU_ERR_CONTEXT_LOST && d->dead)
		return r;
	if (!wire_rd_done(&rep->rd)) {
		swgpu_log("swgpud sent a malformed reply (%u bytes) to %s: "
		          "treating the device as lost", rep->h.size,
		          proto_op_name(rep->h.op));
		pthread_mutex_lock(&d->lock);
		d->dead = true;
		pthread_mutex_unlock(&d->lock);
		return SWGPU_ERR_CONTEXT_LOST;
	}
	return r;
}

/* d->lock held; one message read with the lock dropped. */
static void
read_one(struct rc_dev *d)
{
	struct rc_reply rep;
	bool ok;

	d->reading = true;
	pthread_mutex_unlock(&d->lock);
	ok = wire_recv(d->sock, &rep.h, &rep.payload, rep.fds);
	pthread_mutex_lock(&d->lock);
	d->reading = false;
	if (!ok) {
		if (!d->dead)
			swgpu_log("connection to swgpud lost (%s): the device "
			          "is lost", errno ? strerror(errno) : "closed");
		d->dead = true;
	} else {
		struct rc_pending *p = d->pending;

		while (p && p->tag != rep.h.tag)
			p = p->next;
		if (p && rep.h.op == PROTO_SHADER_LOOKUP && !p->asked) {
			p->question = rep;
			wire_rd_init(&p->question.rd, rep.payload, rep.h.size);
			p->asked = true;
		} else if (p && rep.h.op != PROTO_SHADER_LOOKUP) {
			*p->rep = rep;
			wire_rd_init(&p->rep->rd, rep.payload, rep.h.size);
			p->done = true;
		} else {
			rc_reply_fini(&rep);
		}
	}
	pthread_cond_broadcast(&d->cond);
}

swgpu_result
rc_call(struct rc_dev *d, uint32_t op, struct wire_wr *req, const int *fds,
        unsigned nfds, struct rc_reply *rep)
{
	return rc_call_answering(d, op, req, fds, nfds, rep, NULL, NULL);
}

/* The caller's answer to a question of the daemon (same tag). */
static void
answer(struct rc_dev *d, uint64_t tag, struct rc_reply *question,
       rc_answer_fn fn, void *user)
{
	struct wire_wr w;
	struct wire_hdr h = { .op = PROTO_SHADER_LOOKUP, .tag = tag };
	bool sent;

	wire_wr_init(&w);
	if (fn)
		fn(user, &question->rd, &w);
	rc_reply_fini(question);
	if (w.oom)
		w.len = 0;
	h.size = (uint32_t)w.len;
	pthread_mutex_lock(&d->send_lock);
	sent = wire_send(d->sock, &h, w.buf, NULL, 0);
	pthread_mutex_unlock(&d->send_lock);
	wire_wr_fini(&w);
	if (!sent) {
		pthread_mutex_lock(&d->lock);
		d->dead = true;
		pthread_cond_broadcast(&d->cond);
		pthread_mutex_unlock(&d->lock);
	}
}

swgpu_result
rc_call_answering(struct rc_dev *d, uint32_t op, struct wire_wr *req,
                  const int *fds, unsigned nfds, struct rc_reply *rep,
                  rc_answer_fn fn, void *user)
{
	struct rc_pending p = { .rep = rep };
	struct wire_hdr h = { .op = (uint16_t)op, .nfds = (uint16_t)nfds };
	bool sent;

	memset(rep, 0, sizeof(*rep));
	for (unsigned i = 0; i < WIRE_MAX_FDS; i++)
		rep->fds[i] = -1;
	wire_rd_init(&rep->rd, NULL, 0);
	if (op < PROTO_OP_COUNT)
		atomic_fetch_add_explicit(&d->requests[op], 1,
		                          memory_order_relaxed);
	if (req && req->oom)
		return SWGPU_ERR(d->debug, SWGPU_ERR_NO_HOST_MEMORY,
		                 "request %s too large", proto_op_name(op));
	h.size = req ? (uint32_t)req->len : 0;
	/* A bad descriptor would fail the whole send: it is the caller's
	 * error, not a lost connection. */
	for (unsigned i = 0; i < nfds; i++)
		if (fds[i] < 0 || fcntl(fds[i], F_GETFD) < 0)
			return SWGPU_ERR(d->debug, SWGPU_ERR_BAD_HANDLE,
			                 "fd %d is not an open descriptor",
			                 fds[i]);

	pthread_mutex_lock(&d->lock);
	if (d->dead) {
		pthread_mutex_unlock(&d->lock);
		return SWGPU_ERR_CONTEXT_LOST;
	}
	p.tag = h.tag = ++d->next_tag;
	p.next = d->pending;
	d->pending = &p;
	pthread_mutex_unlock(&d->lock);

	pthread_mutex_lock(&d->send_lock);
	sent = wire_send(d->sock, &h, req ? req->buf : NULL, fds, nfds);
	pthread_mutex_unlock(&d->send_lock);

	pthread_mutex_lock(&d->lock);
	if (!sent && !d->dead) {
		swgpu_log("send to swgpud failed (%s): the device is lost",
		          strerror(errno));
		d->dead = true;
		pthread_cond_broadcast(&d->cond);
	}
	while (!p.done && !d->dead) {
		if (p.asked) {
			/* Ready for another question before this answer
			 * goes: the daemon asks again only after it. */
			struct rc_reply q = p.question;

			p.asked = false;
			pthread_mutex_unlock(&d->lock);
			answer(d, p.tag, &q, fn, user);
			pthread_mutex_lock(&d->lock);
			continue;
		}
		if (!d->reading)
			read_one(d);
		else
			pthread_cond_wait(&d->cond, &d->lock);
	}
	if (p.asked)
		rc_reply_fini(&p.question);
	for (struct rc_pending **pp = &d->pending; *pp; pp = &(*pp)->next)
		if (*pp == &p) {
			*pp = p.next;
			break;
		}
	/* Someone else may be waiting for a reader. */
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	if (!p.done)
		return SWGPU_ERR_CONTEXT_LOST;
	return (swgpu_result)rep->h.result;
}

/* ---- finding or starting the daemon ---- */

static int
try_connect(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	if (strlen(path) >= sizeof(a.sun_path))
		return -1;
	strcpy(a.sun_path, path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(s);
		return -1;
	}
	return s;
}

/* The daemon of this build first (tests), then the installed one;
 * SWGPUD_PATH overrides both. */
static const char *
daemon_path(void)
{
	const char *env = getenv("SWGPUD_PATH");
	static const char *const paths[] = {
#ifdef SWGPUD_BUILD_PATH
		SWGPUD_BUILD_PATH,
#endif
#ifdef SWGPUD_INSTALL_PATH
		SWGPUD_INSTALL_PATH,
#endif
	};

	if (env && *env)
		return env;
	for (size_t i = 0; i < SWGPU_ARRAY_SIZE(paths); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	return NULL;
}

/* Start swgpud detached (double fork: not our child, not our session),
 * its output appended to <socket>.log. Only async-signal-safe calls
 * between fork and exec. */
static bool
spawn_daemon(const char *exe, const char *sock_path)
{
	char log_path[PATH_MAX + 8];
	char *const argv[] = { (char *)"swgpud", (char *)"--socket",
	                       (char *)sock_path, NULL };
	pid_t pid;
	int status;

	snprintf(log_path, sizeof(log_path), "%s.log", sock_path);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int null_fd, log_fd;

		setsid();
		if (fork() != 0)
			_exit(0);
		null_fd = open("/dev/null", O_RDONLY);
		log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
		if (null_fd >= 0)
			dup2(null_fd, 0);
		if (log_fd >= 0) {
			dup2(log_fd, 1);
			dup2(log_fd, 2);
		}
		/* Nothing of the application's leaks into the daemon. */
		syscall(SYS_close_range, 3u, ~0u, 0u);
		execv(exe, argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return true;
}

static swgpu_result
hello(struct rc_dev *d, const swgpu_config *cfg)
{
	struct wire_wr w;
	struct rc_reply rep;
	swgpu_result r;

	wire_wr_init(&w);
	wire_put_str(&w, proto_hash());
	wire_put_u32(&w, (uint32_t)getpid());
	wire_put_str(&w, program_invocation_short_name);
	proto_put_config(&w, cfg);
	/* The n-th device a process has open is the daemon's n-th GPU of
	 * that configuration: two devices of one process are two GPUs, as
	 * in process (distinct UUIDs), and every process's first device
	 * shares the first. */
	wire_put_u32(&w, rc_open_count());
	r = rc_call(d, PROTO_HELLO, &w, NULL, 0, &rep);
	wire_wr_fini(&w);
	if (r == SWGPU_OK) {
		wire_get(&rep.rd, &d->info, sizeof(d->info));
		d->daemon_pid = (int)wire_get_u32(&rep.rd);
		if (rep.h.nfds >= 2 && rep.fds[0] >= 0 && rep.fds[1] >= 0) {
			/* The third: the GPU's page (engines serve rings) */
			int gpu_fd = rep.h.nfds == 3 ? rep.fds[2] : -1;

			rc_fast_open(d, rep.fds[0], rep.fds[1], gpu_fd);
			rep.fds[0] = rep.fds[1] = -1;
			if (rep.h.nfds == 3)
				rep.fds[2] = -1;
		}
	} else if (rep.h.size) {
		const char *msg = wire_get_str(&rep.rd);

		swgpu_log("swgpud refused this client: %s",
		          msg ? msg : "no reason given");
	}
	r = rc_reply_check(d, &rep, r);
	rc_reply_fini(&rep);
	return r;
}

swgpu_result
rc_connect(struct rc_dev *d, const swgpu_config *cfg)
{
	char path[PATH_MAX];
	const char *exe;
	uint64_t until;
	swgpu_result r;

	if (!proto_socket_path(path, sizeof(path))) {
		swgpu_log("shared mode: no private directory for swgpud's "
		          "socket (XDG_RUNTIME_DIR)");
		return SWGPU_ERR_UNSUPPORTED;
	}
	d->sock = try_connect(path);
	if (d->sock < 0) {
		exe = daemon_path();
		if (!exe) {
			swgpu_log("shared mode: swgpud not found (set "
			          "SWGPUD_PATH)");
			return SWGPU_ERR_UNSUPPORTED;
		}
		if (!spawn_daemon(exe, path)) {
			swgpu_log("shared mode: cannot start %s: %s", exe,
			          strerror(errno));
			return SWGPU_ERR_UNSUPPORTED;
		}
		/* Wait for it to listen (it may also lose the start race to
		 * another client's daemon, which then answers). */
		until = swgpu_now_ns() + 5000000000ull;
		while ((d->sock = try_connect(path)) < 0 &&
		       swgpu_now_ns() < until) {
			struct timespec ts = { 0, 2000000 };

			nanosleep(&ts, NULL);
		}
		if (d->sock < 0) {
			swgpu_log("shared mode: %s did not answer on %s within "
			          "5 s", exe, path);
			return SWGPU_ERR_UNSUPPORTED;
		}
	}
	r = hello(d, cfg);
	if (r != SWGPU_OK) {
		close(d->sock);
		d->sock = -1;
		return SWGPU_ERR_UNSUPPORTED;
	}
	return SWGPU_OK;
}

void
rc_disconnect(struct rc_dev *d)
{
	if (d->sock >= 0) {
		/* The daemon frees everything of this session on EOF. */
		shutdown(d->sock, SHUT_RDWR);
		close(d->sock);
		d->sock = -1;
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * Compile once, and in the background (jit.h; docs/ARCHITECTURE.md,
 * "Shader compiler", "Compile once"). A program's code is requested
 * when its shader is created (jit_program_request): creation only finds
 * which cache has the code (this process's memory, the application's
 * VkPipelineCache blob, the disk) and queues a load at the front of the
 * compile thread's queue (loading links the object: LLJIT's set-up made
 * a process's first cached pipeline 2-4 ms, several times lavapipe's
 * whole creation); a program no cache has is queued for a compile at the
 * back. Either way the program is interpreted until its code is ready
 * (a load: a millisecond or two): an execution state picks it up
 * at its next workgroup (ir_exec_run, jit_program_ready) — the two back
 * ends share the register file at every block boundary. With
 * SWGPU_JIT_ASYNC=0 the compile runs in jit_program_request instead
 * (tests use it: they must run the compiled code).
 *
 * One compile thread, started when a job is queued and ending when the
 * queue is empty; it compiles under jit_compile_lock, as the lazy path
 * of jit_program_get does (programs made without swgpu_shader_create).
 * Freeing a program takes its job off the queue (unless an application
 * cache wants its code: then the job moves to the front and is waited
 * for); a compile in flight is not waited for (a program made and
 * destroyed at once would pay its whole compile): the job is orphaned,
 * its code dropped and the program's memory freed by the compile thread
 * when the compile ends (jit_program_release);
 * unloading the driver drops the queue and joins the thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <swgpu/swgpu.h>

#include "jit.h"
#include "util/util.h"

struct jit_job {
	struct ir_program *p;
	struct jit_job *prev, *next;
	struct job_list *list;       /* the one it is in; NULL: running */
	bool running;
	/* an application cache wants the code (the shader had a
	 * binary_lookup): freeing the program compiles it first, so that
	 * the cache's data still gets it */
	bool keep;
	/* a cache has the code: a load, ahead of the compiles */
	bool load;
	/* running, and its program was freed meanwhile: the compile
	 * thread drops the code and frees the program's memory */
	bool orphan;
	/* the application's blob it is in (a copy: the application's
	 * memory is only valid during creation), checked at load again */
	void *blob;
	size_t blob_size;
};

/* The job's copy of the application's blob, as io->lookup. */
static const void *
job_blob(void *user, const uint8_t key[16], size_t *size)
{
	const struct jit_job *j = user;

	(void)key;
	*size = j->blob_size;
	return j->blob;
}

/* One lock for the lazy compiles (and the compile thread's). */
static pthread_mutex_t jit_compile_lock = PTHREAD_MUTEX_INITIALIZER;

/* The queue, in order: the running job, then the jobs moved to the
 * front (a freed program whose code a cache wants), the loads, the
 * compiles: three FIFO lists, so that queuing and cancelling are O(1)
 * (an application creating thousands of pipelines of one shader before
 * the first compile ends queues thousands of jobs; walking them made
 * each creation linear). */
struct job_list {
	struct jit_job *head, *tail;
};

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_done = PTHREAD_COND_INITIALIZER;
static struct jit_job *running_job;
static struct job_list urgent, loads, compiles;
static struct job_list *const lists[] = { &urgent, &loads, &compiles };
static bool thread_running;     /* the compile thread has work */
static bool thread_joinable;    /* a thread was started, not joined */
static pthread_t thread;
static bool unloading;
/* Process exit has begun (jit_exit_guard): no LLVM call from now on. */
static bool llvm_closed;

/* jit_cache_stats counters live with the LLVM side; these two are this
 * file's, read through jit_queue_stats. */
static uint64_t queued_count, cancelled_count, orphaned_count;

/* queue_lock held for all of these. */
static void
list_push(struct job_list *l, struct jit_job *j)
{
	j->list = l;
	j->next = NULL;
	j->prev = l->tail;
	if (l->tail)
		l->tail->next = j;
	else
		l->head = j;
	l->tail = j;
}

static void
list_unlink(struct jit_job *j)
{
	struct job_list *l = j->list;

	if (j->prev)
		j->prev->next = j->next;
	else
		l->head = j->next;
	if (j->next)
		j->next->prev = j->prev;
	else
		l->tail = j->prev;
	j->prev = j->next = NULL;
	j->list = NULL;
}

/* Off the queue, whether running or waiting. */
static void
job_unlink(struct jit_job *j)
{
	if (j->running) {
		if (running_job == j)
			running_job = NULL;
	} else if (j->list) {
		list_unlink(j);
	}
}

/* The next job to run, or NULL. */
static struct jit_job *
next_job(void)
{
	for (size_t i = 0; i < SWGPU_ARRAY_SIZE(lists); i++)
		if (lists[i]->head)
			return lists[i]->head;
	return NULL;
}

static bool async_value = true;
static pthread_once_t async_once = PTHREAD_ONCE_INIT;

static void
async_init(void)
{
	const char *s = getenv("SWGPU_JIT_ASYNC");

	if (s && !strcmp(s, "0"))
		async_value = false;
}

bool
jit_async(void)
{
	pthread_once(&async_once, async_init);
	return async_value;
}

void
jit_queue_stats(uint64_t *queued, uint64_t *cancelled)
{
	pthread_mutex_lock(&queue_lock);
	*queued = queued_count;
	*cancelled = cancelled_count;
	pthread_mutex_unlock(&queue_lock);
}

uint64_t
jit_queue_orphaned(void)
{
	pthread_mutex_lock(&queue_lock);
	uint64_t n = orphaned_count;
	pthread_mutex_unlock(&queue_lock);
	return n;
}

bool
jit_queue_busy(void)
{
	pthread_mutex_lock(&queue_lock);
	bool busy = running_job != NULL;
	pthread_mutex_unlock(&queue_lock);
	return busy;
}

/* Publish p's code: jit before jit_tried (readers load jit_tried with
 * acquire, then jit). */
static void
publish(struct ir_program *p, struct jit_program *jp,
        const struct jit_compile_io *io)
{
	if (io && io->have_key && !p->jit_keyed) {
		memcpy(p->jit_key, io->key, sizeof(p->jit_key));
		p->jit_keyed = true;
	}
	p->jit = jp;
	__atomic_store_n(&p->jit_tried, true, __ATOMIC_RELEASE);
}

static void *
compile_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&queue_lock);
	for (;;) {
		struct jit_job *j = next_job();

		if (!j || unloading)
			break;
		list_unlink(j);
		j->running = true;
		running_job = j;
		pthread_mutex_unlock(&queue_lock);

		struct jit_compile_io io = {
			.lookup = j->blob ? job_blob : NULL, .user = j,
			.defer_store = true,
		};
		struct jit_program *jp;

		pthread_mutex_lock(&jit_compile_lock);
		jp = jit_compile_io(j->p, 0, &io);
		pthread_mutex_unlock(&jit_compile_lock);

		pthread_mutex_lock(&queue_lock);
		if (!j->orphan)
			publish(j->p, jp, &io);
		pthread_mutex_unlock(&queue_lock);
		/* The code is in use already; now the disk cache write
		 * (and its eviction scan, when due). The job stays queued
		 * (running) meanwhile, so that whoever waits for it
		 * (jit_wait_key, a device close) finds the entry written. */
		jit_compile_io_store(&io);

		pthread_mutex_lock(&queue_lock);
		struct ir_program *orphan = j->orphan ? j->p : NULL;

		j->p->jit_job = NULL;
		job_unlink(j);
		free(j->blob);
		free(j);
		pthread_cond_broadcast(&job_done);
		if (orphan) {
			/* nobody can reach it now: off the queue, its
			 * owner gone (its code was published if the owner
			 * let go during the write: jp is p->jit then) */
			pthread_mutex_unlock(&queue_lock);
			jit_program_free(jp);
			ir_program_free_memory(orphan);
			pthread_mutex_lock(&queue_lock);
		}
	}
	thread_running = false;
	pthread_mutex_unlock(&queue_lock);
	return NULL;
}

/* Caller holds queue_lock: make sure the compile thread runs. */
static void
thread_kick(void)
{
	if (thread_running)
		return;
	if (thread_joinable) {
		/* the last thread left its loop (thread_running false):
		 * it only has to return */
		pthread_join(thread, NULL);
		thread_joinable = false;
	}
	/* registered again with each new compile thread: the handler
	 * then runs before the exit handlers and statics another LLVM user
	 * (lavapipe) made since, so they are all there while it waits for
	 * the compile in flight (an entry of glibc's exit list, 32 bytes,
	 * per burst of compiles) */
	jit_exit_guard();
	if (pthread_create(&thread, NULL, compile_thread, NULL)) {
		swgpu_log("jit: cannot start the compile thread; queued "
		          "shaders are compiled on first use");
		return;
	}
	thread_running = thread_joinable = true;
}

void
jit_program_request(struct ir_program *p,
                    const void *(*lookup)(void *, const uint8_t *,
                                          size_t *),
                    void *user)
{
	bool async = jit_async();
	struct jit_compile_io io = {
		.cache_only = async, .probe = async, .lookup = lookup,
		.user = user,
	};
	static const uint8_t source[] = {
		[JIT_SRC_NONE] = SWGPU_SHADER_CODE_NONE,
		[JIT_SRC_COMPILED] = SWGPU_SHADER_CODE_COMPILED,
		[JIT_SRC_MEMORY] = SWGPU_SHADER_CODE_PROCESS_CACHE,
		[JIT_SRC_APP] = SWGPU_SHADER_CODE_APP_CACHE,
		[JIT_SRC_DISK] = SWGPU_SHADER_CODE_DISK_CACHE,
	};
	struct jit_program *jp;
	struct jit_job *j;

	if (!jit_requested() || jit_llvm_closed())
		return;
	/* p is not shared yet: nobody else reads its fields */
	if (!async)
		pthread_mutex_lock(&jit_compile_lock);
	if (!async && jit_llvm_closed()) {
		pthread_mutex_unlock(&jit_compile_lock);
		return;                /* interpreted */
	}
	jp = jit_compile_io(p, 0, &io);
	if (!async)
		pthread_mutex_unlock(&jit_compile_lock);
	if (jp || (!io.missed && !io.found)) {
		/* loaded, compiled, or declined */
		p->jit_source = jp ? source[io.source] : SWGPU_SHADER_CODE_NONE;
		publish(p, jp, &io);
		return;
	}
	if (io.have_key) {
		memcpy(p->jit_key, io.key, sizeof(p->jit_key));
		p->jit_keyed = true;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return;                /* compiled on first use instead */
	j->p = p;
	j->keep = lookup != NULL;
	j->load = io.found;
	if (io.blob) {
		j->blob = malloc(io.blob_size);
		if (!j->blob) {
			free(j);
			return;        /* compiled on first use instead */
		}
		memcpy(j->blob, io.blob, io.blob_size);
		j->blob_size = io.blob_size;
	}
	pthread_mutex_lock(&queue_lock);
	if (unloading) {
		pthread_mutex_unlock(&queue_lock);
		free(j->blob);
		free(j);
		return;
	}
	/* a load goes after the running job and the loads queued before
	 * it, a compile at the back */
	list_push(j->load ? &loads : &compiles, j);
	p->jit_job = j;
	/* where the code comes from is known now (creation feedback: an
	 * application cache hit), a load failing is logged and compiles */
	p->jit_source = j->load ? source[io.source]
	                        : SWGPU_SHADER_CODE_COMPILING;
	queued_count++;
	thread_kick();
	pthread_mutex_unlock(&queue_lock);
}

const struct jit_program *
jit_program_ready(const struct ir_program *p)
{
	if (!__atomic_load_n(&p->jit_tried, __ATOMIC_ACQUIRE))
		return NULL;
	return p->jit;
}

const struct jit_program *
jit_program_get(struct ir_program *p)
{
	bool queued;

	if (!jit_requested())
		return NULL;
	if (__atomic_load_n(&p->jit_tried, __ATOMIC_ACQUIRE))
		return p->jit;
	/* compiling in the background: interpret until it is done */
	pthread_mutex_lock(&queue_lock);
	queued = p->jit_job != NULL;
	pthread_mutex_unlock(&queue_lock);
	if (queued)
		return NULL;
	pthread_mutex_lock(&jit_compile_lock);
	if (!p->jit_tried && !jit_llvm_closed()) {
		struct jit_compile_io io = { 0 };
		struct jit_program *jp = jit_compile_io(p, 0, &io);

		publish(p, jp, &io);
	}
	pthread_mutex_unlock(&jit_compile_lock);
	return p->jit;
}

bool
jit_program_release(struct ir_program *p)
{
	pthread_mutex_lock(&queue_lock);
	if (p->jit_job && p->jit_job->keep && !p->jit_job->running &&
	    thread_running && !unloading) {
		/* wanted by a cache: to the front of the queue, waited for */
		struct jit_job *j = p->jit_job;

		list_unlink(j);
		list_push(&urgent, j);
		while (p->jit_job)
			pthread_cond_wait(&job_done, &queue_lock);
	}
	/* its compile in flight, wanted by an application cache: the
	 * code must reach jit_mem (jit_binary_get) */
	while (p->jit_job && p->jit_job->running && p->jit_job->keep)
		pthread_cond_wait(&job_done, &queue_lock);
	if (p->jit_job && p->jit_job->running) {
		/* its compile in flight (or its disk write): the compile
		 * thread frees p, and its code if published, when it ends */
		p->jit_job->orphan = true;
		orphaned_count++;
		pthread_mutex_unlock(&queue_lock);
		return true;
	}
	if (p->jit_job) {
		/* still queued: never compiled */
		list_unlink(p->jit_job);
		free(p->jit_job->blob);
		free(p->jit_job);
		p->jit_job = NULL;
		cancelled_count++;
		pthread_cond_broadcast(&job_done);
	}
	pthread_mutex_unlock(&queue_lock);
	jit_program_free(p->jit);
	p->jit = NULL;
	return false;
}

void
jit_wait_key(const uint8_t key[16])
{
	pthread_mutex_lock(&queue_lock);
	for (;;) {
		bool found = running_job && running_job->p->jit_keyed &&
		             !memcmp(running_job->p->jit_key, key, 16);

		for (size_t i = 0; i < SWGPU_ARRAY_SIZE(lists) && !found; i++)
			for (const struct jit_job *j = lists[i]->head;
			     j && !found; j = j->next)
				found = j->p->jit_keyed &&
				        !memcmp(j->p->jit_key, key, 16);
		if (!found)
			break;
		if (!thread_running) {
			/* no thread (it could not start): nobody would
			 * wake us */
			break;
		}
		pthread_cond_wait(&job_done, &queue_lock);
	}
	pthread_mutex_unlock(&queue_lock);
}

/* The driver is unloaded (vkDestroyInstance's dlclose, process exit;
 * queue_fini below): the compile thread must not run on in unmapped
 * code. Queued jobs are dropped (their programs, if ever used again,
 * compile lazily), the compile in flight finishes and the thread is
 * joined. */
/* Drop the queued jobs (their programs, if used again, compile lazily)
 * and join the compile thread once its running job ends; unload: for
 * good. The thread's handle is copied under the lock: a compile queued
 * meanwhile starts a thread of its own. */
static void
queue_drain(bool unload)
{
	pthread_mutex_lock(&queue_lock);
	if (unload)
		unloading = true;
	for (size_t i = 0; i < SWGPU_ARRAY_SIZE(lists); i++)
		while (lists[i]->head) {
			struct jit_job *j = lists[i]->head;

			list_unlink(j);
			j->p->jit_job = NULL;
			free(j->blob);
			free(j);
			cancelled_count++;
		}
	pthread_cond_broadcast(&job_done);
	bool join = thread_joinable;
	pthread_t t = thread;

	thread_joinable = false;
	pthread_mutex_unlock(&queue_lock);
	if (join)
		pthread_join(t, NULL);
}

void
jit_queue_quiesce(void)
{
	queue_drain(false);
}

void
jit_queue_shutdown(void)
{
	queue_drain(true);
	/* no compile can run now: what the LLVM side keeps for the
	 * process goes too (leak checkers see it once unmapped) */
	jit_unload();
}

bool
jit_llvm_closed(void)
{
	return __atomic_load_n(&llvm_closed, __ATOMIC_ACQUIRE);
}

/* At exit (exit() or a return from main), before the static objects
 * LLVM registered earlier are destroyed: no compile may run on into
 * them. The compile thread stops after its job, then a compile of the
 * lazy path in flight ends (jit_compile_lock); later ones see
 * llvm_closed and interpret. The engines keep running compiled code:
 * it lives in our LLJIT, which no static destructor frees. */
static void
exit_guard(void)
{
	if (__atomic_exchange_n(&llvm_closed, true, __ATOMIC_ACQ_REL))
		return;        /* an earlier registration ran */
	queue_drain(true);
	pthread_mutex_lock(&jit_compile_lock);
	pthread_mutex_unlock(&jit_compile_lock);
}

void
jit_exit_guard(void)
{
	/* glibc runs exit handlers newest first: each registration runs
	 * before every static object LLVM made until then (a function's
	 * static, registered on first use: the pass registry, say). A
	 * handler that runs again finds nothing to do. */
	if (atexit(exit_guard))
		swgpu_log("jit: cannot register the exit handler");
}

__attribute__((destructor)) static void
queue_fini(void)
{
	jit_queue_shutdown();
}

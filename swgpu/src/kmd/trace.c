/* SPDX-License-Identifier: MIT */
/*
 * Job trace, SWGPU_TRACE=path|stderr, in the Chrome trace event format
 * (JSON array form), which ui.perfetto.dev and chrome://tracing open.
 * docs/TRACING.md describes what is in it; tests/scripts/check_trace.py
 * checks it.
 *
 *   pid   one per device (1 + its process-wide index)
 *   tid   1 + engine index: what the engine ran, one "X" slice per run
 *         segment (a preempted job has several); TRACE_QUEUE_TID + queue
 *         id: each job of the queue from start to end
 *   flows "s"/"f" from a job to the job that waited for it (syncobj
 *         waits the scheduler resolved to a signalling job)
 *   "i"   signals, preemptions, faults, skipped jobs
 *   tid   TRACE_USER_TID + n: tracks of the driver above (presents),
 *         swgpu_trace_track / _slice / _instant
 *
 * Devices of a process that name the same path share one file (and a
 * mutex); each event is one line. The closing "]" is written when the
 * last device closes; the format allows it to be missing (a crash).
 * Costs one branch per job transition when off.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kmd/context.h"
#include "kmd/job.h"
#include "kmd/syncobj.h"
#include "hw/gfx/gfx.h"
#include "remote/remote.h"

#define TRACE_QUEUE_TID 1000u
#define TRACE_USER_TID 100000u

struct trace_file {
	char *path;                  /* NULL: stderr */
	FILE *f;
	uint32_t refs;
	bool first;                  /* no event written yet */
	pthread_mutex_t lock;
	struct trace_file *next;
};

static pthread_mutex_t trace_files_lock = PTHREAD_MUTEX_INITIALIZER;
static struct trace_file *trace_files;

const char *
job_state_name(enum job_state s)
{
	switch (s) {
	case JOB_PENDING: return "PENDING";
	case JOB_QUEUED: return "QUEUED";
	case JOB_RUNNING: return "RUNNING";
	case JOB_DONE: return "DONE";
	case JOB_ERROR: return "ERROR";
	}
	return "?";
}

static const char *
priority_name(swgpu_priority p)
{
	static const char *const names[SWGPU_PRIORITY_COUNT] = {
		"low", "normal", "high", "realtime",
	};
	return (unsigned)p < SWGPU_PRIORITY_COUNT ? names[p] : "?";
}

static const char *
fault_kind_name(swgpu_fault_kind k)
{
	static const char *const names[] = {
		[SWGPU_FAULT_NONE] = "none",
		[SWGPU_FAULT_PAGE_READ] = "page_read",
		[SWGPU_FAULT_PAGE_WRITE] = "page_write",
		[SWGPU_FAULT_BAD_PACKET] = "bad_packet",
		[SWGPU_FAULT_IB_DEPTH] = "ib_depth",
		[SWGPU_FAULT_HANG] = "hang",
		[SWGPU_FAULT_TIMELINE] = "timeline",
		[SWGPU_FAULT_INJECTED] = "injected",
	};
	return (unsigned)k < SWGPU_ARRAY_SIZE(names) && names[k] ? names[k]
	                                                        : "?";
}

/* One event: the text between the braces. */
static void
trace_emit(struct swgpu_device *dev, const char *fmt, ...)
{
	struct trace_file *tf = dev->trace;
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		return; /* cannot happen: strings are escaped and bounded */
	pthread_mutex_lock(&tf->lock);
	fprintf(tf->f, "%s{%s}", tf->first ? "[\n" : ",\n", buf);
	tf->first = false;
	pthread_mutex_unlock(&tf->lock);
}

/* JSON string body of s (quotes, backslashes, controls escaped), cut to
 * fit out. */
static const char *
json_str(char *out, size_t size, const char *s)
{
	size_t o = 0;

	for (; *s && o + 7 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c < 0x20) {
			o += (size_t)snprintf(out + o, size - o, "\\u%04x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

/* Microseconds with nanosecond digits. */
#define US_FMT "%" PRIu64 ".%03" PRIu64
#define US(ns) (uint64_t)(ns) / 1000u, (uint64_t)(ns) % 1000u

static uint32_t
pid_of(const struct swgpu_device *dev)
{
	return dev->index + 1u;
}

static void
trace_track_name(struct swgpu_device *dev, uint32_t tid, const char *name)
{
	char esc[256];

	trace_emit(dev, "\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,"
	           "\"tid\":%u,\"args\":{\"name\":\"%s\"}", pid_of(dev), tid,
	           json_str(esc, sizeof(esc), name));
	trace_emit(dev, "\"ph\":\"M\",\"name\":\"thread_sort_index\","
	           "\"pid\":%u,\"tid\":%u,\"args\":{\"sort_index\":%u}",
	           pid_of(dev), tid, tid);
}

static struct trace_file *
trace_file_get(const char *path)
{
	bool to_stderr = !strcmp(path, "stderr");
	struct trace_file *tf;

	pthread_mutex_lock(&trace_files_lock);
	for (tf = trace_files; tf; tf = tf->next) {
		if (to_stderr ? !tf->path
		              : tf->path && !strcmp(tf->path, path)) {
			tf->refs++;
			goto out;
		}
	}
	tf = calloc(1, sizeof(*tf));
	if (!tf)
		goto out;
	tf->f = stderr;
	if (!to_stderr) {
		tf->path = strdup(path);
		tf->f = tf->path ? fopen(path, "w") : NULL;
		if (!tf->f) {
			swgpu_log("SWGPU_TRACE: cannot open '%s': tracing "
			          "off", path);
			free(tf->path);
			free(tf);
			tf = NULL;
			goto out;
		}
		setvbuf(tf->f, NULL, _IOLBF, 0);
	}
	tf->refs = 1;
	tf->first = true;
	pthread_mutex_init(&tf->lock, NULL);
	tf->next = trace_files;
	trace_files = tf;
out:
	pthread_mutex_unlock(&trace_files_lock);
	return tf;
}

void
trace_open(struct swgpu_device *dev)
{
	const char *t = dev->cfg.trace;
	char name[128], esc[256];

	if (!t || !*t)
		return;
	dev->trace = trace_file_get(t);
	if (!dev->trace)
		return;
	trace_emit(dev, "\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,"
	           "\"args\":{\"name\":\"swgpu device %u (%s)\"}",
	           pid_of(dev), dev->index,
	           json_str(esc, sizeof(esc), dev->info.name));
	trace_emit(dev, "\"ph\":\"M\",\"name\":\"process_sort_index\","
	           "\"pid\":%u,\"args\":{\"sort_index\":%u}", pid_of(dev),
	           pid_of(dev));
	for (uint32_t e = 0; e < dev->info.engine_count; e++) {
		snprintf(name, sizeof(name), "engine %u %s", e,
		         dev->info.engines[e].name);
		trace_track_name(dev, 1u + e, name);
	}
}

void
trace_close(struct swgpu_device *dev)
{
	struct trace_file *tf = dev->trace, **pp;

	if (!tf)
		return;
	dev->trace = NULL;
	pthread_mutex_lock(&trace_files_lock);
	if (--tf->refs == 0) {
		for (pp = &trace_files; *pp != tf; pp = &(*pp)->next)
			;
		*pp = tf->next;
		fputs(tf->first ? "[]\n" : "\n]\n", tf->f);
		if (tf->path)
			fclose(tf->f);
		else
			fflush(tf->f);
		pthread_mutex_destroy(&tf->lock);
		free(tf->path);
		free(tf);
	}
	pthread_mutex_unlock(&trace_files_lock);
}

void
trace_queue_created(struct swgpu_queue *q)
{
	struct swgpu_device *dev = q->dev;
	char name[128];

	if (!dev->trace)
		return;
	snprintf(name, sizeof(name), "queue %u (ctx %u, %s, %s)", q->id,
	         q->ctx->id, dev->info.engines[q->engine].name,
	         priority_name(q->priority));
	trace_track_name(dev, TRACE_QUEUE_TID + q->id, name);
}

/* The engine slice of one run segment: [seg_ns, end). */
static void
trace_segment(const struct swgpu_job *job, uint64_t end, bool preempted)
{
	struct swgpu_device *dev = job->dev;
	uint64_t start = job->trace.seg_ns;

	trace_emit(dev, "\"ph\":\"X\",\"name\":\"%u:%u:%" PRIu64 "\","
	           "\"cat\":\"job\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
	           ",\"dur\":" US_FMT ",\"args\":{\"ctx\":%u,\"queue\":%u,"
	           "\"seqno\":%" PRIu64 ",\"engine\":\"%s\",\"hwq\":%u,"
	           "\"segment\":%u,\"preempted\":%s}", job->ctx_id,
	           job->queue_id, job->seqno, pid_of(dev), 1u + job->run_engine,
	           US(start), US(end > start ? end - start : 0), job->ctx_id,
	           job->queue_id, job->seqno,
	           dev->info.engines[job->run_engine].name, job->hwq,
	           job->trace.segments, preempted ? "true" : "false");
}

/* Engine thread: another HWQ takes the engine while job (a main HWQ) is mid-run. */
void
trace_job_preempted(struct swgpu_job *job)
{
	struct swgpu_device *dev = job->dev;
	uint64_t now = swgpu_now_ns();

	if (!dev->trace || !job->trace.seg_ns || job->trace.paused)
		return;
	trace_segment(job, now, true);
	if (!job->trace.segments)
		job->trace.first_end_ns = now;
	job->trace.paused = true;
	job->trace.segments++;
	trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"preempt\","
	           "\"cat\":\"sched\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
	           ",\"args\":{\"job\":\"%u:%u:%" PRIu64 "\",\"engine\":"
	           "\"%s\"}", pid_of(dev), 1u + job->run_engine, US(now),
	           job->ctx_id, job->queue_id, job->seqno,
	           dev->info.engines[job->run_engine].name);
}

/* Engine thread: the preempted job has the engine again. */
void
trace_job_resumed(struct swgpu_job *job)
{
	struct swgpu_device *dev = job->dev;

	if (!dev->trace || !job->trace.paused)
		return;
	job->trace.paused = false;
	job->trace.seg_ns = swgpu_now_ns();
	trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"resume\","
	           "\"cat\":\"sched\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
	           ",\"args\":{\"job\":\"%u:%u:%" PRIu64 "\",\"engine\":"
	           "\"%s\",\"segment\":%u}", pid_of(dev), 1u + job->run_engine,
	           US(job->trace.seg_ns), job->ctx_id, job->queue_id,
	           job->seqno, dev->info.engines[job->run_engine].name,
	           job->trace.segments);
}

/* dev->lock held: q's next job goes to another engine (sched_slice.c). */
void
trace_queue_moved(struct swgpu_queue *q, uint32_t from)
{
	struct swgpu_device *dev = q->dev;

	if (!dev->trace)
		return;
	trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"engine\","
	           "\"cat\":\"sched\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
	           ",\"args\":{\"queue\":%u,\"from\":\"%s\",\"to\":\"%s\"}",
	           pid_of(dev), TRACE_QUEUE_TID + q->id, US(swgpu_now_ns()),
	           q->id, dev->info.engines[from].name,
	           dev->info.engines[q->engine].name);
}

/* Engine thread: one draw packet (or the part of it before a
 * preemption), inside the job's current run segment. */
void
trace_draw(struct swgpu_job *job, const char *name, uint64_t start_ns,
           uint64_t end_ns, const struct gfx_draw_stats *st)
{
	struct swgpu_device *dev = job->dev;

	if (!dev->trace || !job->trace.seg_ns)
		return;
	if (start_ns < job->trace.seg_ns)
		start_ns = job->trace.seg_ns;
	if (end_ns < start_ns)
		end_ns = start_ns;
	trace_emit(dev, "\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"draw\","
	           "\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT ",\"dur\":" US_FMT
	           ",\"args\":{\"job\":\"%u:%u:%" PRIu64 "\",\"vertices\":%"
	           PRIu64 ",\"primitives\":%" PRIu64 ",\"rasterized\":%" PRIu64
	           ",\"fragments\":%" PRIu64 ",\"tiles\":%" PRIu64 "}", name,
	           pid_of(dev), 1u + job->run_engine, US(start_ns),
	           US(end_ns - start_ns), job->ctx_id, job->queue_id,
	           job->seqno, st->vertices, st->primitives, st->rasterized,
	           st->fragments, st->tiles);
}

/* A flow arrow from the signalling job dep to job, bound to a slice of
 * each (timestamps inside them). */
static void
trace_flow(const struct swgpu_job *job, const struct swgpu_job *dep)
{
	struct swgpu_device *dev = job->dev;
	static atomic_uint_fast64_t flow_ids;
	uint64_t id = atomic_fetch_add(&flow_ids, 1) + 1;
	uint64_t s_ts = dep->trace.seg_ns +
	                (dep->trace.end_ns - dep->trace.seg_ns) / 2;
	uint64_t f_ts = job->trace.first_ns +
	                (job->trace.first_end_ns - job->trace.first_ns) / 2;

	trace_emit(dev, "\"ph\":\"s\",\"name\":\"dependency\",\"cat\":\"sync\","
	           "\"id\":%" PRIu64 ",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT,
	           id, pid_of(dev), 1u + dep->engine, US(s_ts));
	trace_emit(dev, "\"ph\":\"f\",\"bp\":\"e\",\"name\":\"dependency\","
	           "\"cat\":\"sync\",\"id\":%" PRIu64 ",\"pid\":%u,\"tid\":%u,"
	           "\"ts\":" US_FMT, id, pid_of(dev), 1u + job->engine,
	           US(f_ts));
}

/* Completion (dev->lock held, the job's fence has passed): its last
 * segment, its queue slice, flows from the jobs it waited for, its
 * signals and its fault. */
static void
trace_job_finished(struct swgpu_job *job, enum job_state state)
{
	struct swgpu_device *dev = job->dev;
	struct swgpu_queue *q = job->q;
	const struct job_trace *t = &job->trace;
	uint32_t qtid = TRACE_QUEUE_TID + job->queue_id;
	char esc[256];
	uint64_t end = t->end_ns ? t->end_ns : swgpu_now_ns();

	if (!t->seg_ns) {
		trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"skipped\","
		           "\"cat\":\"job\",\"pid\":%u,\"tid\":%u,\"ts\":"
		           US_FMT ",\"args\":{\"job\":\"%u:%u:%" PRIu64 "\","
		           "\"state\":\"%s\"}", pid_of(dev), qtid, US(end),
		           job->ctx_id, job->queue_id, job->seqno,
		           job_state_name(state));
		return;
	}
	trace_segment(job, end, false);
	if (!t->segments)
		job->trace.first_end_ns = end;
	/* Jobs of a queue run one after the other; clip to keep the
	 * queue's slices disjoint even if clocks of two threads tie. */
	uint64_t qstart = t->first_ns;
	if (q && q->trace_last_end_ns > qstart)
		qstart = q->trace_last_end_ns;
	if (qstart > end)
		qstart = end;
	if (q)
		q->trace_last_end_ns = end;
	trace_emit(dev, "\"ph\":\"X\",\"name\":\"%u:%u:%" PRIu64 "\","
	           "\"cat\":\"job\",\"pid\":%u,\"tid\":%u,\"ts\":" US_FMT
	           ",\"dur\":" US_FMT ",\"args\":{\"engine\":%u,"
	           "\"submit_us\":" US_FMT ",\"ready_us\":" US_FMT
	           ",\"start_us\":" US_FMT ",\"end_us\":" US_FMT
	           ",\"segments\":%u,\"state\":\"%s\"}", job->ctx_id,
	           job->queue_id, job->seqno, pid_of(dev), qtid, US(qstart),
	           US(end - qstart), job->engine, US(t->submit_ns),
	           US(t->ready_ns), US(t->first_ns), US(end),
	           t->segments + 1u, job_state_name(state));
	for (uint32_t i = 0; i < job->wait_count; i++) {
		const struct swgpu_job *d = job->waits[i].dep;
		if (d && d->trace.seg_ns && d->trace.end_ns)
			trace_flow(job, d);
	}
	for (uint32_t i = 0; i < job->signal_count; i++)
		trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"signal\","
		           "\"cat\":\"sync\",\"pid\":%u,\"tid\":%u,\"ts\":"
		           US_FMT ",\"args\":{\"syncobj\":%u,\"value\":%"
		           PRIu64 ",\"ok\":%s}", pid_of(dev), qtid, US(end),
		           job->signals[i].obj->id, job->signals[i].value,
		           state == JOB_DONE ? "true" : "false");
	if (job->exec_failed)
		trace_emit(dev, "\"ph\":\"i\",\"s\":\"t\",\"name\":\"fault\","
		           "\"cat\":\"fault\",\"pid\":%u,\"tid\":%u,\"ts\":"
		           US_FMT ",\"args\":{\"job\":\"%u:%u:%" PRIu64 "\","
		           "\"kind\":\"%s\",\"address\":\"0x%" PRIx64 "\","
		           "\"message\":\"%s\"}", pid_of(dev), 1u + job->engine,
		           US(end), job->ctx_id, job->queue_id, job->seqno,
		           fault_kind_name(job->fault.kind), job->fault.address,
		           json_str(esc, sizeof(esc), job->fault.message));
}

void
trace_job(struct swgpu_job *job, enum job_state state)
{
	struct job_trace *t = &job->trace;

	if (!job->dev->trace)
		return;
	switch (state) {
	case JOB_PENDING:
		memset(t, 0, sizeof(*t));
		t->submit_ns = swgpu_now_ns();
		break;
	case JOB_QUEUED:
		t->ready_ns = swgpu_now_ns();
		break;
	case JOB_RUNNING:
		t->seg_ns = t->first_ns = job->start_ns;
		break;
	case JOB_DONE:
	case JOB_ERROR:
		trace_job_finished(job, state);
		break;
	}
}

/* ------------------------------------------------------------------ */
/* Tracks of the driver above (swgpu.h)                                */
/* ------------------------------------------------------------------ */

uint32_t
swgpu_trace_track(swgpu_device *dev, const char *name)
{
	if (remote_is(dev))
		return rc_trace_track(dev, name);
	/* Process-wide, so two devices sharing a file never share a tid. */
	static atomic_uint user_tracks;
	uint32_t tid;

	if (!dev->trace)
		return 0;
	tid = TRACE_USER_TID + atomic_fetch_add(&user_tracks, 1);
	trace_track_name(dev, tid, name);
	return tid;
}

/* One event of a user track: a complete slice of dur_ns, or an instant
 * (dur_ns ignored). */
static void
trace_user_event(swgpu_device *dev, uint32_t track, bool instant,
                 const char *cat, const char *name, uint64_t ts_ns,
                 uint64_t dur_ns, const char *args_json)
{
	char ename[128], ecat[64], ph[48];

	if (!dev->trace || track < TRACE_USER_TID)
		return;
	if (instant)
		snprintf(ph, sizeof(ph), "\"ph\":\"i\",\"s\":\"t\"");
	else
		snprintf(ph, sizeof(ph), "\"ph\":\"X\",\"dur\":" US_FMT,
		         US(dur_ns));
	trace_emit(dev, "%s,\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%u,"
	           "\"tid\":%u,\"ts\":" US_FMT ",\"args\":{%s}", ph,
	           json_str(ename, sizeof(ename), name),
	           json_str(ecat, sizeof(ecat), cat), pid_of(dev), track,
	           US(ts_ns), args_json ? args_json : "");
}

void
swgpu_trace_slice(swgpu_device *dev, uint32_t track, const char *cat,
                  const char *name, uint64_t start_ns, uint64_t end_ns,
                  const char *args_json)
{
	if (remote_is(dev)) {
		rc_trace_event(dev, track, cat, name, start_ns, end_ns, false, args_json);
		return;
	}
	trace_user_event(dev, track, false, cat, name, start_ns,
	                 end_ns > start_ns ? end_ns - start_ns : 0,
	                 args_json);
}

void
swgpu_trace_instant(swgpu_device *dev, uint32_t track, const char *cat,
                    const char *name, uint64_t ts_ns, const char *args_json)
{
	if (remote_is(dev)) {
		rc_trace_event(dev, track, cat, name, ts_ns, ts_ns, true, args_json);
		return;
	}
	trace_user_event(dev, track, true, cat, name, ts_ns, 0, args_json);
}

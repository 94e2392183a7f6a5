/* SPDX-License-Identifier: MIT */
/* swgpu-smi's output: the table for people, JSON for programs (its keys
 * are documented in README.md, "swgpu-smi"). */
#include <string.h>
#include <time.h>

#include "smi.h"

static const char *const class_name[] = { "compute", "copy", "graphics" };
static const char *const prio_name[] = { "low", "normal", "high",
	                                 "realtime" };
static const char *const state_name[] = { "ok", "guilty", "lost" };
static const char *const heap_name[] = { "vram", "system" };

#define NAME(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) \
                      ? tab[i] : "?")

static double
mib(unsigned long long b)
{
	return (double)b / (1024.0 * 1024.0);
}

static double
seconds(unsigned long long ns)
{
	return (double)ns / 1e9;
}

static void
busy_bar(FILE *out, unsigned permille)
{
	fputc('[', out);
	for (unsigned i = 0; i < 10; i++)
		fputc(i * 100 < permille ? '#' : '.', out);
	fputc(']', out);
}

/* Memory per process: what each owns where it lives now. */
static void
table_processes(FILE *out, const struct swgpu_status_page *p)
{
	if (!p->process_count)
		return;
	fprintf(out, "  memory per process:\n");
	fprintf(out, "  %-8s %-16s %6s %12s %12s\n", "pid", "program",
	        "BOs", "vram MiB", "system MiB");
	for (unsigned i = 0; i < p->process_count; i++) {
		const struct swgpu_status_process *sp = &p->processes[i];

		fprintf(out, "  %-8d %-16.16s %6u %12.1f %12.1f\n", sp->pid,
		        sp->program, sp->bos, mib(sp->heap_used[0]),
		        mib(sp->heap_used[1]));
	}
	if (p->process_total > p->process_count)
		fprintf(out, "  ... and %u more processes\n",
		        p->process_total - p->process_count);
}

static void
table_gpu(FILE *out, const struct swgpu_status_page *p,
          unsigned long long now)
{
	fprintf(out, "GPU %d.%u  %s (pid %d, %s)  %s  up %.1f s, "
	        "refreshed %.1f s ago\n", p->pid, p->device_index,
	        p->program, p->pid, p->mode, p->device,
	        seconds(now - p->opened_unix_ns),
	        now > p->updated_unix_ns ? seconds(now - p->updated_unix_ns)
	                                 : 0.0);
	fprintf(out, "  %-10s %-8s %-20s %10s %7s %8s  %s\n", "engine",
	        "class", "busy", "jobs done", "failed", "preempt",
	        "running ctx:queue:seqno");
	for (unsigned e = 0; e < p->engine_count; e++) {
		const struct swgpu_status_engine *se = &p->engines[e];
		fprintf(out, "  %-10s %-8s ", se->name,
		        NAME(class_name, se->engine_class));
		busy_bar(out, se->busy_permille);
		fprintf(out, " %5.1f %% %10llu %7llu %8llu  ",
		        se->busy_permille / 10.0,
		        (unsigned long long)se->jobs_completed,
		        (unsigned long long)se->jobs_failed,
		        (unsigned long long)se->preemptions);
		if (se->running)
			fprintf(out, "%u:%u:%llu\n", se->run_ctx, se->run_queue,
			        (unsigned long long)se->run_seqno);
		else
			fprintf(out, "idle\n");
	}
	fprintf(out, "  memory:");
	for (unsigned h = 0; h < SWGPU_STATUS_HEAPS; h++)
		fprintf(out, "  %s %.1f / %.1f MiB (budget %.1f)",
		        heap_name[h], mib(p->heap_used[h]),
		        mib(p->heap_size[h]), mib(p->heap_budget[h]));
	fprintf(out, "\n  evictions %llu (%.1f MiB), promotions %llu, "
	        "discards %llu, faults %llu, hangs %llu\n",
	        (unsigned long long)p->evictions, mib(p->evicted_bytes),
	        (unsigned long long)p->promotions,
	        (unsigned long long)p->discards,
	        (unsigned long long)p->faults, (unsigned long long)p->hangs);
	fprintf(out, "  %-8s %-16s %4s %-7s %-8s %6s %10s %10s %10s\n",
	        "pid", "program", "ctx", "state", "priority", "queues",
	        "submitted", "completed", "gpu time");
	for (unsigned c = 0; c < p->context_count; c++) {
		const struct swgpu_status_context *sc = &p->contexts[c];
		fprintf(out, "  %-8d %-16.16s %4u %-7s %-8s %6u %10llu %10llu "
		        "%8.3f s\n", sc->pid, sc->program, sc->id,
		        NAME(state_name, sc->state),
		        sc->priority < 0 ? "-" : NAME(prio_name, sc->priority),
		        sc->queues, (unsigned long long)sc->jobs_submitted,
		        (unsigned long long)sc->jobs_completed,
		        seconds(sc->gpu_ns));
	}
	if (p->context_total > p->context_count)
		fprintf(out, "  ... and %u more contexts\n",
		        p->context_total - p->context_count);
	table_processes(out, p);
}

void
smi_print_table(FILE *out, const struct smi_scan *s)
{
	time_t t = (time_t)(s->now_unix_ns / 1000000000ull);
	struct tm tm;
	char when[32];

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "swgpu-smi  %s  %u device%s (%s)\n", when, s->gpu_count,
	        s->gpu_count == 1 ? "" : "s", s->dir);
	for (unsigned g = 0; g < s->gpu_count; g++)
		table_gpu(out, &s->gpu[g], s->now_unix_ns);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void
json_str(FILE *out, const char *v)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c < 0x20)
			fprintf(out, "\\u%04x", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
}

static void
json_gpu(FILE *out, const struct swgpu_status_page *p)
{
	fprintf(out, "{\"pid\":%d,\"program\":", p->pid);
	json_str(out, p->program);
	fprintf(out, ",\"device_index\":%u,\"device\":", p->device_index);
	json_str(out, p->device);
	fprintf(out, ",\"mode\":");
	json_str(out, p->mode);
	fprintf(out, ",\"opened_unix_ns\":%llu,\"updated_unix_ns\":%llu,"
	        "\"interval_ms\":%u,\"engines\":[",
	        (unsigned long long)p->opened_unix_ns,
	        (unsigned long long)p->updated_unix_ns, p->interval_ms);
	for (unsigned e = 0; e < p->engine_count; e++) {
		const struct swgpu_status_engine *se = &p->engines[e];
		fprintf(out, "%s{\"name\":", e ? "," : "");
		json_str(out, se->name);
		fprintf(out, ",\"class\":\"%s\",\"busy_percent\":%.1f,"
		        "\"busy_ns\":%llu,\"jobs_completed\":%llu,"
		        "\"jobs_failed\":%llu,\"preemptions\":%llu,"
		        "\"queues\":%u,\"running\":",
		        NAME(class_name, se->engine_class),
		        se->busy_permille / 10.0,
		        (unsigned long long)se->busy_ns,
		        (unsigned long long)se->jobs_completed,
		        (unsigned long long)se->jobs_failed,
		        (unsigned long long)se->preemptions, se->queues);
		if (se->running)
			fprintf(out, "{\"ctx\":%u,\"queue\":%u,\"seqno\":%llu}}",
			        se->run_ctx, se->run_queue,
			        (unsigned long long)se->run_seqno);
		else
			fprintf(out, "null}");
	}
	fprintf(out, "],\"heaps\":[");
	for (unsigned h = 0; h < SWGPU_STATUS_HEAPS; h++)
		fprintf(out, "%s{\"name\":\"%s\",\"size\":%llu,\"used\":%llu,"
		        "\"budget\":%llu}", h ? "," : "", heap_name[h],
		        (unsigned long long)p->heap_size[h],
		        (unsigned long long)p->heap_used[h],
		        (unsigned long long)p->heap_budget[h]);
	fprintf(out, "],\"evictions\":%llu,\"evicted_bytes\":%llu,"
	        "\"promotions\":%llu,\"discards\":%llu,\"faults\":%llu,"
	        "\"hangs\":%llu,\"contexts_total\":%u,\"contexts\":[",
	        (unsigned long long)p->evictions,
	        (unsigned long long)p->evicted_bytes,
	        (unsigned long long)p->promotions,
	        (unsigned long long)p->discards,
	        (unsigned long long)p->faults, (unsigned long long)p->hangs,
	        p->context_total);
	for (unsigned c = 0; c < p->context_count; c++) {
		const struct swgpu_status_context *sc = &p->contexts[c];
		fprintf(out, "%s{\"pid\":%d,\"program\":", c ? "," : "",
		        sc->pid);
		json_str(out, sc->program);
		fprintf(out, ",\"id\":%u,\"state\":\"%s\",\"priority\":",
		        sc->id, NAME(state_name, sc->state));
		if (sc->priority < 0)
			fprintf(out, "null");
		else
			fprintf(out, "\"%s\"", NAME(prio_name, sc->priority));
		fprintf(out, ",\"queues\":%u,\"jobs_submitted\":%llu,"
		        "\"jobs_completed\":%llu,\"gpu_ns\":%llu,"
		        "\"fault_kind\":%u}", sc->queues,
		        (unsigned long long)sc->jobs_submitted,
		        (unsigned long long)sc->jobs_completed,
		        (unsigned long long)sc->gpu_ns, sc->fault_kind);
	}
	fprintf(out, "],\"processes_total\":%u,\"processes\":[",
	        p->process_total);
	for (unsigned i = 0; i < p->process_count; i++) {
		const struct swgpu_status_process *sp = &p->processes[i];

		fprintf(out, "%s{\"pid\":%d,\"program\":", i ? "," : "",
		        sp->pid);
		json_str(out, sp->program);
		fprintf(out, ",\"bos\":%u,\"heap_used\":{", sp->bos);
		for (unsigned h = 0; h < SWGPU_STATUS_HEAPS; h++)
			fprintf(out, "%s\"%s\":%llu", h ? "," : "",
			        heap_name[h],
			        (unsigned long long)sp->heap_used[h]);
		fprintf(out, "}}");
	}
	fprintf(out, "]}");
}

void
smi_print_json(FILE *out, const struct smi_scan *s)
{
	fprintf(out, "{\"version\":%u,\"time_unix_ns\":%llu,\"dir\":",
	        SWGPU_STATUS_VERSION, s->now_unix_ns);
	json_str(out, s->dir);
	fprintf(out, ",\"stale_removed\":%u,\"gpus\":[", s->stale_removed);
	for (unsigned g = 0; g < s->gpu_count; g++) {
		if (g)
			fputc(',', out);
		json_gpu(out, &s->gpu[g]);
	}
	fprintf(out, "],\"skipped\":[");
	for (unsigned i = 0; i < s->skipped_count; i++) {
		fprintf(out, "%s{\"file\":", i ? "," : "");
		json_str(out, s->skipped[i].file);
		fprintf(out, ",\"reason\":");
		json_str(out, s->skipped[i].reason);
		fputc('}', out);
	}
	fprintf(out, "]}\n");
}

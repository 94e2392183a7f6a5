/* SPDX-License-Identifier: MIT */
/*
 * swgpu_device_dump: the text names every engine, shows ring pointers,
 * contexts, and a pending job blocked on a sync object with its identity
 * ctx:queue:seqno.
 */
#include "api_util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *
dump_to_string(swgpu_device *dev)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	swgpu_device_dump(dev, f);
	fclose(f);
	assert_non_null(buf);
	/* A copy: gcc -O3 takes the memstream's buffer for a pointer to
	 * the local `buf` itself (-Wdangling-pointer false positive). */
	char *text = strdup(buf);
	free(buf);
	return text;
}

/* Case-insensitive strstr. */
static const char *
find_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (const char *p = hay; *p; p++)
		if (strncasecmp(p, needle, n) == 0)
			return p;
	return NULL;
}

/* The line of text containing p. */
static char *
line_of(const char *text, const char *p)
{
	const char *b = p, *e = p;
	while (b > text && b[-1] != '\n')
		b--;
	while (*e && *e != '\n')
		e++;
	return strndup(b, (size_t)(e - b));
}

static void
test_dump_contents(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	swgpu_device *dev = api_open(&cfg);
	swgpu_device_info info;
	swgpu_device_query_info(dev, &info);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COMPUTE, 1);
	swgpu_queue *qc = api_queue(ctx, SWGPU_ENGINE_COPY, 0);
	struct api_buf out;
	struct api_cmd cmd;
	api_buf_init(&out, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, SWGPU_BO_CACHED,
	             SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 256);

	/* A few finished jobs, so ring pointers are not all zero. */
	for (uint32_t i = 0; i < 3; i++) {
		api_emit_write32(&cmd, out.va + i * 4, i + 1);
		swgpu_ib ib = api_cmd_end(&cmd);
		api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, NULL));
	}
	api_queue_idle(q);

	/* Job 4 of q waits on timeline point 42 that nobody signals. */
	swgpu_syncobj *tl;
	api_ok(swgpu_syncobj_create(dev, SWGPU_SYNCOBJ_TIMELINE, 0, &tl));
	api_emit_write32(&cmd, out.va + 64, 0xdead);
	swgpu_ib ib = api_cmd_end(&cmd);
	swgpu_sync_point w = { tl, 42, 0 };
	uint64_t seqno;
	api_ok(api_submit(q, &ib, &w, 1, NULL, 0, &seqno));
	assert_true(seqno == 4);

	char *text = dump_to_string(dev);
	print_message("---- dump ----\n%s---- end ----\n", text);

	/* Every engine by name. */
	for (uint32_t e = 0; e < info.engine_count; e++)
		if (!strstr(text, info.engines[e].name))
			fail_msg("dump lacks engine %s", info.engines[e].name);
	/* Ring read/write pointers. */
	assert_non_null(find_ci(text, "ring"));
	assert_true(find_ci(text, "rptr") || find_ci(text, "read"));
	assert_true(find_ci(text, "wptr") || find_ci(text, "write"));
	/* Fence seqnos. */
	assert_non_null(find_ci(text, "fence"));
	/* The blocked job by identity ctx:queue:seqno, marked as pending or
	 * waiting, with the point it waits for. */
	char id[64];
	snprintf(id, sizeof(id), "%u:%u:%llu", swgpu_context_id(ctx),
	         swgpu_queue_id(q), (unsigned long long)seqno);
	const char *p = strstr(text, id);
	if (!p)
		fail_msg("dump lacks blocked job %s", id);
	/* The identity must not be a prefix of a longer number. */
	assert_false(isdigit((unsigned char)p[strlen(id)]));
	char *line = line_of(text, p);
	print_message("blocked job line: %s\n", line);
	assert_true(find_ci(line, "pending") || find_ci(line, "wait"));
	/* What it waits for: the point, on this line or the next few. */
	const char *after = p + strlen(id);
	char window[512];
	snprintf(window, sizeof(window), "%s", after);
	assert_non_null(strstr(window, "42"));
	free(line);
	/* The context by id. */
	char cid[32];
	snprintf(cid, sizeof(cid), "%u", swgpu_context_id(ctx));
	assert_non_null(strstr(text, cid));
	free(text);

	/* Dump after the job is released: it is no longer pending. */
	api_ok(swgpu_syncobj_signal(tl, 42));
	api_queue_idle(q);
	assert_int_equal(api_load32(out.cpu + 64), 0xdead);
	text = dump_to_string(dev);
	p = strstr(text, id);
	if (p) {
		line = line_of(text, p);
		assert_null(find_ci(line, "pending"));
		free(line);
	}
	free(text);

	/* A guilty context shows up as such. */
	swgpu_context *bad;
	api_ok(swgpu_context_create(dev, &bad));
	swgpu_queue *qb = api_queue(bad, SWGPU_ENGINE_COPY, 1);
	struct api_cmd bcmd;
	api_cmd_init(&bcmd, dev, bad, 64);
	api_emit_nop(&bcmd, 2);
	swgpu_ib bib = api_cmd_end(&bcmd);
	api_ok(swgpu_debug_inject_fault(qb, 1, SWGPU_FAULT_INJECTED));
	api_ok(api_submit(qb, &bib, NULL, 0, NULL, 0, NULL));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(qb, 1, api_deadline_ms(API_WAIT_MS)));
	text = dump_to_string(dev);
	assert_non_null(find_ci(text, "guilty"));
	free(text);

	api_cmd_fini(&bcmd);
	swgpu_queue_destroy(qb);
	swgpu_context_destroy(bad);
	swgpu_syncobj_destroy(tl);
	api_cmd_fini(&cmd);
	api_buf_fini(&out);
	swgpu_queue_destroy(q);
	swgpu_queue_destroy(qc);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}


/* A job stuck on a SEM_WAIT inside its IB is in the ring and running:
 * the dump shows it by identity as running, and the ring as non-empty. */
static void
test_dump_running_job(void **state)
{
	swgpu_config cfg;
	api_config_small(&cfg);
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	struct api_buf mem;
	struct api_cmd cmd;
	api_buf_init(&mem, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 256);
	api_emit_write32(&cmd, mem.va + 64, 1);     /* "I am running" */
	api_emit_sem_wait(&cmd, mem.va + 0, 7);
	api_emit_write32(&cmd, mem.va + 68, 2);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t seqno;
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &seqno));
	assert_true(api_poll32(mem.cpu + 64, 1, api_deadline_ms(API_WAIT_MS)));

	char *text = dump_to_string(dev);
	print_message("---- dump ----\n%s---- end ----\n", text);
	char id[64];
	snprintf(id, sizeof(id), "%u:%u:%llu", swgpu_context_id(ctx),
	         swgpu_queue_id(q), (unsigned long long)seqno);
	const char *p = strstr(text, id);
	if (!p)
		fail_msg("dump lacks running job %s", id);
	char *line = line_of(text, p);
	assert_non_null(find_ci(line, "running"));
	free(line);
	/* copy1's ring holds the job's packets (not yet consumed). */
	const char *eng = strstr(text, "copy1");
	assert_non_null(eng);
	free(text);

	api_store64(mem.cpu, 7);
	api_queue_idle(q);
	assert_int_equal(api_load32(mem.cpu + 68), 2);
	api_cmd_fini(&cmd);
	api_buf_fini(&mem);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);
}

/* A page fault: the dump written on its own to SWGPU_DUMP_DIR (cfg.
 * dump_dir) names the guilty job and shows its last packets decoded, the
 * faulting one marked, and both hardware queues of every engine. */
static void
test_dump_on_fault(void **state)
{
	char dir[] = "/tmp/swgpu-dump-test-XXXXXX";
	assert_non_null(mkdtemp(dir));
	swgpu_config cfg;
	api_config_small(&cfg);
	cfg.dump_dir = dir;
	swgpu_device *dev = api_open(&cfg);
	swgpu_context *ctx;
	api_ok(swgpu_context_create(dev, &ctx));
	swgpu_queue *q = api_queue(ctx, SWGPU_ENGINE_COPY, 1);
	struct api_buf mem;
	struct api_cmd cmd;
	api_buf_init(&mem, dev, ctx, 4096, SWGPU_HEAP_SYSTEM, 0,
	             SWGPU_VA_READ | SWGPU_VA_WRITE);
	api_cmd_init(&cmd, dev, ctx, 256);
	api_emit_write32(&cmd, mem.va + 0, 0x11111111);
	api_emit_nop(&cmd, 3);
	/* Past the end of the mapping, into the guard gap. */
	api_emit_write32(&cmd, mem.va + 4096 + 64, 0xbadbad);
	api_emit_write32(&cmd, mem.va + 4, 0x22222222);
	swgpu_ib ib = api_cmd_end(&cmd);
	uint64_t seqno;
	api_ok(api_submit(q, &ib, NULL, 0, NULL, 0, &seqno));
	api_check(SWGPU_ERR_CONTEXT_LOST,
	          swgpu_queue_wait(q, seqno, api_deadline_ms(API_WAIT_MS)));
	/* The fault record keeps the packets too. */
	swgpu_fault_info f;
	assert_int_equal(swgpu_context_query_state(ctx, &f),
	                 SWGPU_CONTEXT_GUILTY);
	assert_true(f.packet_dw_count > f.packet_dw_fault);
	assert_int_equal(swgpu_pkt_opcode(f.packet_dw[f.packet_dw_fault]),
	                 SWGPU_OP_WRITE_DATA);
	assert_int_equal(f.packet_dw_va + f.packet_dw_fault * 4u, f.packet_va);
	assert_int_equal(swgpu_pkt_opcode(f.packet_dw[0]), SWGPU_OP_WRITE_DATA);
	assert_int_equal(api_load32(mem.cpu + 4), 0);  /* stopped at once */

	char id[64];
	snprintf(id, sizeof(id), "guilty job %u:%u:%llu",
	         swgpu_context_id(ctx), swgpu_queue_id(q),
	         (unsigned long long)seqno);

	api_cmd_fini(&cmd);
	api_buf_fini(&mem);
	swgpu_queue_destroy(q);
	swgpu_context_destroy(ctx);
	swgpu_device_close(dev);

	char cmdline[256], *text = NULL;
	snprintf(cmdline, sizeof(cmdline), "cat %s/swgpu-dump-*.txt", dir);
	FILE *pf = popen(cmdline, "r");
	assert_non_null(pf);
	size_t cap = 0, len = 0, n;
	char chunk[4096];
	while ((n = fread(chunk, 1, sizeof(chunk), pf)) > 0) {
		text = realloc(text, cap = len + n + 1);
		memcpy(text + len, chunk, n);
		len += n;
		text[len] = 0;
	}
	pclose(pf);
	assert_non_null(text);
	(void)cap;
	fprintf(stderr, "---- fault dump ----\n%s---- end ----\n", text);
	assert_non_null(strstr(text, id));
	const char *mark = strstr(text, "=> 0x");
	assert_non_null(mark);
	char *line = line_of(text, mark);
	assert_non_null(strstr(line, "WRITE_DATA"));
	assert_non_null(strstr(line, "00badbad"));
	free(line);
	assert_non_null(strstr(text, " NOP"));
	assert_non_null(strstr(text, "hwq 0"));
	assert_non_null(strstr(text, "hwq 1"));
	free(text);
	snprintf(cmdline, sizeof(cmdline), "rm -rf %s", dir);
	assert_int_equal(system(cmdline), 0);
}

int
main(void)
{
	api_apply_filter();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_contents),
		cmocka_unit_test(test_dump_on_fault),
		cmocka_unit_test(test_dump_running_job),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's disk cache (hw/shader/jit/jit_cache.h), seen
 * through its counters (jit_cache_stats) in fresh processes (the knobs
 * are read once per process, so each step is a forked child):
 *  - a program compiled in one process is loaded, not compiled, in the
 *    next, and the loaded code computes the right values;
 *  - a corrupt (one byte flipped) or truncated entry is ignored with a
 *    log line, the program compiled again and the entry rewritten;
 *  - SWGPU_SHADER_CACHE=0 compiles every time and writes nothing;
 *  - past the size cap the least recently used entries are evicted down
 *    to 3/4 of it, a hit making an entry recently used;
 *  - SWGPU_JIT_MAX_INSTRS: a program above the bound is interpreted
 *    (jit_compile declines it), one within is compiled;
 *  - the process's memory cache: a program compiled twice compiles once;
 *  - application blobs (VkPipelineCache's, jit_program_request's lookup):
 *    a sound blob is loaded in a fresh process without compiling; a
 *    blob with a flipped byte, of another key, truncated or not a blob
 *    at all is rejected with a log line and the program compiled, its
 *    code right;
 *  - background compiles (SWGPU_JIT_ASYNC): a program a cache has is
 *    only found by the request (pipeline creation), its source known,
 *    and loaded by the compile thread; a program no cache has is
 *    queued, interpreted until ready, then its code is right; freeing
 *    programs with compiles queued drops them, with a compile in flight
 *    returns at once and the compile thread frees the program (every
 *    job compiled or cancelled, none lost); programs whose
 *    shader had an application cache are compiled even when freed
 *    first (the cache's data must get their code).
 * Built only with LLVM.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "swgpu/swgpu.h"
#include "hw/shader/ir.h"
#include "hw/shader/jit.h"
#include "hw/shader/jit/jit_cache.h"

#define WIDTH 16u

/* r3 = r1 + r2 ; r4 = r3 * r2 ; ret */
static struct ir_program *
small_program(uint32_t salt)
{
	struct ir_program *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	p->stage = SWGPU_SHADER_STAGE_COMPUTE;
	p->nregs = 40;
	p->local_size[0] = WIDTH;
	p->local_size[1] = p->local_size[2] = 1;
	p->code = calloc(3, sizeof(*p->code));
	p->blocks = calloc(1, sizeof(*p->blocks));
	assert_non_null(p->code);
	assert_non_null(p->blocks);
	p->code[0] = (struct ir_instr){ .op = IR_IADD, .dst = 30, .a = 31,
	                                .b = 32 };
	p->code[1] = (struct ir_instr){ .op = IR_IMUL, .dst = 33, .a = 30,
	                                .b = 32, .imm = salt };
	p->code[2] = (struct ir_instr){ .op = IR_RET };
	p->ninstr = 3;
	p->nblocks = 1;
	p->blocks[0] = (struct ir_block){ 0, 3 };
	return p;
}

/* Compile p and run its segment on known inputs: true when the results
 * are right. */
static bool
compile_and_check(struct ir_program *p)
{
	struct jit_program *jp = jit_compile(p, 8);
	lane_t regs[40 * WIDTH];
	uint8_t mask[WIDTH];
	bool ok = true;

	if (!jp || jp->nblocks != 1 || jp->blocks[0].nseg != 1)
		return false;
	memset(regs, 0, sizeof(regs));
	memset(mask, 1, sizeof(mask));
	for (uint32_t l = 0; l < WIDTH; l++) {
		regs[31 * WIDTH + l].u = l * 7 + 1;
		regs[32 * WIDTH + l].u = l + 3;
	}
	uint32_t pc[WIDTH], prev[WIDTH];
	struct jit_frame f = {
		.regs = regs, .mask = mask, .store_mask = mask,
		.pc = pc, .prev = prev, .width = WIDTH,
	};

	jp->blocks[0].seg[0].fn(&f);
	for (uint32_t l = 0; l < WIDTH; l++)
		ok &= regs[33 * WIDTH + l].u == (l * 8 + 4) * (l + 3);
	jit_program_free(jp);
	return ok;
}

/* What a child saw, packed in its exit status. */
enum { SAW_OK = 1, SAW_COMPILED = 2, SAW_HIT = 4, SAW_CORRUPT = 8,
       SAW_STORED = 16 };

/* In a fresh process with the given cache knobs: compile the program
 * (twice when twice), report what happened. */
static int
child_compile(const char *dir, const char *on, bool twice)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct jit_cache_stats s;
		struct ir_program *p = small_program(1);
		int saw;

		setenv("SWGPU_SHADER_CACHE_DIR", dir, 1);
		if (on)
			setenv("SWGPU_SHADER_CACHE", on, 1);
		/* nor the process's memory cache: two compiles */
		if (twice)
			setenv("SWGPU_SHADER_MEM_CACHE_MB", "0", 1);
		saw = compile_and_check(p) ? SAW_OK : 0;
		if (twice && !compile_and_check(p))
			saw = 0;
		jit_cache_stats_get(&s);
		saw |= (s.compiles ? SAW_COMPILED : 0) |
		       (s.disk_hits ? SAW_HIT : 0) |
		       (s.disk_corrupt ? SAW_CORRUPT : 0) |
		       (s.disk_stores ? SAW_STORED : 0);
		if (twice && s.compiles != 2)
			saw = 0;
		ir_program_free(p);
		_exit(saw);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static char dir[] = "/tmp/swgpu_jit_cache_XXXXXX";

/* The one entry of dir (path into out); false when there is not one. */
static bool
only_entry(char *out, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int count = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(out, n, "%s/%s", dir, de->d_name);
			count++;
		}
	closedir(d);
	return count == 1;
}

static void
empty_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			char path[512];

			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
}

static void
test_second_process_hits(void **state)
{
	char path[512];

	(void)state;
	empty_dir();
	assert_int_equal(child_compile(dir, NULL, false),
	                 SAW_OK | SAW_COMPILED | SAW_STORED);
	assert_true(only_entry(path, sizeof(path)));
	assert_int_equal(child_compile(dir, NULL, false), SAW_OK | SAW_HIT);
}

static void
test_corrupt_ignored(void **state)
{
	char path[512];
	struct stat st;
	int fd;
	uint8_t byte;

	(void)state;
	empty_dir();
	assert_int_equal(child_compile(dir, NULL, false),
	                 SAW_OK | SAW_COMPILED | SAW_STORED);
	assert_true(only_entry(path, sizeof(path)));
	/* one byte of the object flipped */
	assert_int_equal(stat(path, &st), 0);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &byte, 1, st.st_size - 5), 1);
	byte ^= 0x40;
	assert_int_equal(pwrite(fd, &byte, 1, st.st_size - 5), 1);
	close(fd);
	assert_int_equal(child_compile(dir, NULL, false),
	                 SAW_OK | SAW_COMPILED | SAW_CORRUPT | SAW_STORED);
	/* rewritten whole: the next process hits */
	assert_int_equal(child_compile(dir, NULL, false), SAW_OK | SAW_HIT);
	/* truncated */
	assert_true(only_entry(path, sizeof(path)));
	assert_int_equal(truncate(path, st.st_size / 2), 0);
	assert_int_equal(child_compile(dir, NULL, false),
	                 SAW_OK | SAW_COMPILED | SAW_CORRUPT | SAW_STORED);
	assert_int_equal(child_compile(dir, NULL, false), SAW_OK | SAW_HIT);
}

static void
test_knob_off(void **state)
{
	char path[512];

	(void)state;
	empty_dir();
	/* compiled both times, nothing written */
	assert_int_equal(child_compile(dir, "0", true), SAW_OK | SAW_COMPILED);
	assert_false(only_entry(path, sizeof(path)));
}

static void
set_age(const struct jit_cache_key *k, time_t ago)
{
	char hex[33], path[512];
	struct timespec t[2];

	jit_cache_key_hex(k, hex);
	snprintf(path, sizeof(path), "%s/%s.o", dir, hex);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= ago;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

static bool
present(const struct jit_cache_key *k)
{
	char hex[33], path[512];

	jit_cache_key_hex(k, hex);
	snprintf(path, sizeof(path), "%s/%s.o", dir, hex);
	return access(path, F_OK) == 0;
}

static void
test_size_cap_evicts(void **state)
{
	static uint8_t blob[1000];
	struct jit_cache_key k[5] = {
		{ { 1 } }, { { 2 } }, { { 3 } }, { { 4 } }, { { 5 } },
	};
	struct jit_cache_stats before, after;
	const uint64_t entry = sizeof(blob) + 64;  /* with its header */
	const uint64_t cap = 4 * entry;            /* four entries */
	size_t size;
	void *data;

	(void)state;
	empty_dir();
	memset(blob, 0x5a, sizeof(blob));
	jit_cache_stats_get(&before);
	for (int i = 0; i < 4; i++) {
		assert_true(jit_cache_store(dir, &k[i], blob, sizeof(blob),
		                            cap));
		set_age(&k[i], 400 - 100 * i);
	}
	/* a hit makes k[0], the oldest, the most recently used */
	data = jit_cache_load(dir, &k[0], &size);
	assert_non_null(data);
	assert_int_equal(size, sizeof(blob));
	assert_memory_equal(data, blob, sizeof(blob));
	free(data);
	/* the fifth entry passes the cap: the least recently used go until
	 * at most 3/4 of it is left (three entries), k[1] and k[2] */
	assert_true(jit_cache_store(dir, &k[4], blob, sizeof(blob), cap));
	assert_true(present(&k[0]));
	assert_false(present(&k[1]));
	assert_false(present(&k[2]));
	assert_true(present(&k[3]));
	assert_true(present(&k[4]));
	jit_cache_stats_get(&after);
	assert_int_equal(after.evictions - before.evictions, 2);
	/* a temporary file left by a dead writer goes after an hour */
	char stale[512];
	struct timespec t[2];
	FILE *f;

	snprintf(stale, sizeof(stale), "%s/%032x.o.tmp.1.1", dir, 7);
	f = fopen(stale, "wb");
	assert_non_null(f);
	fclose(f);
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= 7200;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, stale, t, 0), 0);
	/* (two stores pass the cap: the directory is scanned) */
	assert_true(jit_cache_store(dir, &k[1], blob, sizeof(blob), cap));
	assert_true(jit_cache_store(dir, &k[2], blob, sizeof(blob), cap));
	assert_int_equal(access(stale, F_OK), -1);
	/* an entry bigger than the whole cap is not stored */
	assert_false(jit_cache_store(dir, &k[0], blob, sizeof(blob), 500));
}

/* In a fresh process with SWGPU_JIT_MAX_INSTRS=max: did the program
 * (2 compilable instructions) compile? */
static bool
compiles_with_bound(const char *max)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct ir_program *p = small_program(2);
		struct jit_program *jp;

		setenv("SWGPU_SHADER_CACHE", "0", 1);
		setenv("SWGPU_JIT_MAX_INSTRS", max, 1);
		jp = jit_compile(p, 8);
		status = jp != NULL;
		jit_program_free(jp);
		ir_program_free(p);
		_exit(status);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status) == 1;
}

static void
test_size_bound(void **state)
{
	(void)state;
	/* three compilable instructions, the terminator counted */
	assert_false(compiles_with_bound("2"));
	assert_true(compiles_with_bound("3"));
	assert_true(compiles_with_bound("0"));     /* no bound */
}

/* p's compiled code run on known inputs: true when the results are
 * right. */
static bool
code_right(const struct jit_program *jp)
{
	lane_t regs[40 * WIDTH];
	uint8_t mask[WIDTH];
	uint32_t pc[WIDTH], prev[WIDTH];
	struct jit_frame f = {
		.regs = regs, .mask = mask, .store_mask = mask,
		.pc = pc, .prev = prev, .width = WIDTH,
	};
	bool ok = true;

	if (!jp || jp->nblocks != 1 || jp->blocks[0].nseg != 1)
		return false;
	memset(regs, 0, sizeof(regs));
	memset(mask, 1, sizeof(mask));
	for (uint32_t l = 0; l < WIDTH; l++) {
		regs[31 * WIDTH + l].u = l * 7 + 1;
		regs[32 * WIDTH + l].u = l + 3;
	}
	jp->blocks[0].seg[0].fn(&f);
	for (uint32_t l = 0; l < WIDTH; l++)
		ok &= regs[33 * WIDTH + l].u == (l * 8 + 4) * (l + 3);
	return ok;
}

/* Run fn in a fresh process (SWGPU_SHADER=jit, disk cache off): its
 * return value, 0..255. */
static int
in_child(int (*fn)(void *), void *arg, const char *async)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("SWGPU_SHADER", "jit", 1);
		setenv("SWGPU_SHADER_CACHE", "0", 1);
		setenv("SWGPU_JIT_ASYNC", async, 1);
		_exit(fn(arg));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int
memory_hit_child(void *arg)
{
	struct ir_program *p = small_program(3), *q = small_program(3);
	struct jit_cache_stats s;
	int ok;

	(void)arg;
	/* two programs, one IR: the second loads the first's code */
	ok = compile_and_check(p) && compile_and_check(q);
	jit_cache_stats_get(&s);
	ir_program_free(p);
	ir_program_free(q);
	return ok && s.compiles == 1 && s.mem_hits == 1;
}

static void
test_memory_cache(void **state)
{
	(void)state;
	assert_int_equal(in_child(memory_hit_child, NULL, "0"), 1);
}

/* An application blob of small_program(4)'s code, made in a child (so
 * the test process's memory cache never has it). */
static uint8_t app_blob[1 << 16];
static size_t app_blob_size;

static int
make_blob_child(void *arg)
{
	struct ir_program *p = small_program(4);
	const char *path = arg;
	size_t size = 0;
	void *blob;
	FILE *f;

	jit_program_request(p, NULL, NULL);
	if (!p->jit || !p->jit_keyed ||
	    p->jit_source != SWGPU_SHADER_CODE_COMPILED)
		return 2;
	blob = jit_binary_get(p->jit_key, &size);
	if (!blob || !(f = fopen(path, "wb")))
		return 3;
	fwrite(blob, 1, size, f);
	fclose(f);
	free(blob);
	ir_program_free(p);
	return 1;
}

static const void *
lookup_test_blob(void *user, const uint8_t *key, size_t *size)
{
	(void)key;
	*size = app_blob_size;
	return user;
}

enum { APP_RIGHT = 1, APP_COMPILED = 2, APP_HIT = 4, APP_REJECT = 8,
       APP_DEFERRED = 16 };

/* Request small_program(4) with blob as the application's: what
 * happened. With background compiles the request only finds the code
 * (APP_DEFERRED: nothing loaded yet, the source already known); the
 * compile thread loads it. */
static int
use_blob_child(void *arg)
{
	struct ir_program *p = small_program(4);
	struct jit_cache_stats s;
	int saw = 0;

	jit_program_request(p, lookup_test_blob, arg);
	uint8_t source = p->jit_source;

	if (!__atomic_load_n(&p->jit_tried, __ATOMIC_ACQUIRE) &&
	    source == SWGPU_SHADER_CODE_APP_CACHE)
		saw |= APP_DEFERRED;
	if (p->jit_keyed)
		jit_wait_key(p->jit_key);
	jit_cache_stats_get(&s);
	saw |= (code_right(jit_program_ready(p)) ? APP_RIGHT : 0) |
	       (s.compiles ? APP_COMPILED : 0) |
	       (s.app_hits ? APP_HIT : 0) | (s.app_rejects ? APP_REJECT : 0);
	if ((s.app_hits != 0) != (source == SWGPU_SHADER_CODE_APP_CACHE))
		saw = 0;
	ir_program_free(p);
	jit_queue_shutdown();   /* _exit runs no destructor: join here */
	return saw;
}

static void
test_app_blob(void **state)
{
	char path[512];
	static uint8_t bad[sizeof(app_blob)];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/app_blob", dir);
	assert_int_equal(in_child(make_blob_child, path, "0"), 1);
	f = fopen(path, "rb");
	assert_non_null(f);
	app_blob_size = fread(app_blob, 1, sizeof(app_blob), f);
	fclose(f);
	unlink(path);
	assert_true(app_blob_size > sizeof(struct jit_entry_header));
	/* sound: loaded, nothing compiled (the disk cache is off) */
	assert_int_equal(in_child(use_blob_child, app_blob, "0"),
	                 APP_RIGHT | APP_HIT);
	/* ... also with background compiles on: a hit needs none, and
	 * the request (pipeline creation) only finds it. Whether the
	 * compile thread has loaded it before the child looks is a race
	 * (a loaded machine can deschedule the child first: seen once in
	 * a full run at load 4), so up to five children, one of which must
	 * see the load still pending; a request that loads the code itself
	 * never shows it */
	int seen = 0;

	for (int k = 0; k < 5 && !(seen & APP_DEFERRED); k++) {
		const int r = in_child(use_blob_child, app_blob, "1");

		assert_int_equal(r & ~APP_DEFERRED, APP_RIGHT | APP_HIT);
		seen |= r;
	}
	assert_true(seen & APP_DEFERRED);
	/* a byte of the object flipped: rejected, compiled */
	memcpy(bad, app_blob, app_blob_size);
	bad[app_blob_size - 5] ^= 0x10;
	assert_int_equal(in_child(use_blob_child, bad, "0"),
	                 APP_RIGHT | APP_COMPILED | APP_REJECT);
	/* ... rejected at the request with background compiles on, the
	 * compile queued */
	assert_int_equal(in_child(use_blob_child, bad, "1"),
	                 APP_RIGHT | APP_COMPILED | APP_REJECT);
	/* another key (a byte of the header's key) */
	memcpy(bad, app_blob, app_blob_size);
	bad[offsetof(struct jit_entry_header, key)] ^= 1;
	assert_int_equal(in_child(use_blob_child, bad, "0"),
	                 APP_RIGHT | APP_COMPILED | APP_REJECT);
	/* truncated */
	app_blob_size -= 16;
	assert_int_equal(in_child(use_blob_child, app_blob, "0"),
	                 APP_RIGHT | APP_COMPILED | APP_REJECT);
	/* not a blob: a sound checksum over garbage that LLVM must
	 * refuse (a payload that is no object file) */
	memset(bad, 0x33, sizeof(bad));
	{
		struct jit_entry_header h;

		memcpy(&h, app_blob, sizeof(h));
		h.size = 64;
		h.checksum = jit_cache_checksum(bad + sizeof(h), 64);
		memcpy(bad, &h, sizeof(h));
		app_blob_size = sizeof(h) + 64;
	}
	assert_int_equal(in_child(use_blob_child, bad, "0"),
	                 APP_RIGHT | APP_COMPILED | APP_REJECT);
}

static int
async_child(void *arg)
{
	struct ir_program *p = small_program(6);
	struct jit_cache_stats s;
	uint64_t queued, cancelled;

	(void)arg;
	jit_program_request(p, NULL, NULL);
	/* queued, not compiled here */
	if (p->jit_source != SWGPU_SHADER_CODE_COMPILING || !p->jit_keyed)
		return 2;
	/* meanwhile the lazy path interprets (or takes the finished
	 * code): never a second compile (compiles == 1 below) */
	(void)jit_program_get(p);
	jit_wait_key(p->jit_key);
	if (!code_right(jit_program_ready(p)))
		return 4;
	jit_cache_stats_get(&s);
	jit_queue_stats(&queued, &cancelled);
	ir_program_free(p);
	jit_queue_shutdown();   /* _exit runs no destructor: join here */
	return s.compiles == 1 && queued == 1 && cancelled == 0;
}

static int
async_free_child(void *arg)
{
	enum { N = 8 };
	struct ir_program *p[N];
	struct jit_cache_stats s;
	uint64_t queued, cancelled;

	(void)arg;
	for (int i = 0; i < N; i++) {
		p[i] = small_program(100 + i);
		jit_program_request(p[i], NULL, NULL);
	}
	/* freed at once, the last first: queued ones dropped, the one in
	 * flight orphaned (compiled, its code dropped) */
	for (int i = N - 1; i >= 0; i--)
		ir_program_free(p[i]);
	jit_queue_shutdown();
	jit_cache_stats_get(&s);
	jit_queue_stats(&queued, &cancelled);
	return queued == N && s.compiles + cancelled == N &&
	       jit_queue_orphaned() <= 1;
}

/* n instructions of straight-line ALU: a compile of a good fraction of a
 * second, long enough to be caught in flight. */
static struct ir_program *
long_program(uint32_t n)
{
	struct ir_program *p = small_program(7);

	free(p->code);
	p->code = calloc(n + 1, sizeof(*p->code));
	assert_non_null(p->code);
	for (uint32_t i = 0; i < n; i++)
		p->code[i] = (struct ir_instr){
			.op = i % 3 ? IR_IADD : IR_IMUL, .dst = 30 + i % 8,
			.a = 30 + (i + 3) % 8, .b = 31 + i % 9 };
	p->code[n] = (struct ir_instr){ .op = IR_RET };
	p->ninstr = n + 1;
	p->blocks[0] = (struct ir_block){ 0, n + 1 };
	return p;
}

/* A program freed while its compile runs: the free returns at once (the
 * compile still running, nothing compiled yet), the compile thread
 * drops the code and frees the program (LSan sees a leak otherwise). */
static int
async_orphan_child(void *arg)
{
	struct ir_program *p = long_program(3000);
	struct jit_cache_stats s;
	uint64_t queued, cancelled;
	int ok = 1;

	(void)arg;
	jit_program_request(p, NULL, NULL);
	while (!jit_queue_busy())
		usleep(100);
	ir_program_free(p);
	jit_cache_stats_get(&s);
	ok &= s.compiles == 0;          /* not waited for */
	ok &= jit_queue_busy();
	jit_queue_shutdown();
	jit_cache_stats_get(&s);
	jit_queue_stats(&queued, &cancelled);
	ok &= s.compiles == 1 && queued == 1 && cancelled == 0 &&
	      jit_queue_orphaned() == 1;
	return ok;
}

static const void *
lookup_nothing(void *user, const uint8_t *key, size_t *size)
{
	(void)user;
	(void)key;
	(void)size;
	return NULL;
}

/* Programs of shaders made with an application cache: freed at once,
 * still compiled (the cache's data must get their code), none lost. */
static int
async_keep_child(void *arg)
{
	enum { N = 4 };
	struct ir_program *p[N];
	uint8_t keys[N][16];
	struct jit_cache_stats s;
	uint64_t queued, cancelled;
	int ok = 1;

	(void)arg;
	for (int i = 0; i < N; i++) {
		p[i] = small_program(200 + i);
		jit_program_request(p[i], lookup_nothing, NULL);
		memcpy(keys[i], p[i]->jit_key, 16);
	}
	for (int i = N - 1; i >= 0; i--)
		ir_program_free(p[i]);
	for (int i = 0; i < N; i++) {
		size_t size = 0;
		void *blob = jit_binary_get(keys[i], &size);

		ok &= blob != NULL;
		free(blob);
	}
	jit_cache_stats_get(&s);
	jit_queue_stats(&queued, &cancelled);
	jit_queue_shutdown();
	return ok && queued == N && s.compiles == N && cancelled == 0;
}

/* A program whose code is in the disk cache, requested with background
 * compiles on: the request (pipeline creation) only finds the entry and
 * says where the code comes from; the compile thread loads it, nothing
 * is compiled. arg: "0" makes the entry (a compile inside the
 * request), "1" uses it. */
static int
async_disk_child(void *arg)
{
	const bool use = !strcmp(arg, "1");
	struct ir_program *p = small_program(9);
	struct jit_cache_stats s0, s;
	int ok = 1;

	setenv("SWGPU_SHADER_CACHE", "1", 1);
	setenv("SWGPU_SHADER_CACHE_DIR", dir, 1);
	jit_cache_stats_get(&s0);    /* forked: the parent's counts */
	jit_program_request(p, NULL, NULL);
	if (use) {
		ok &= p->jit_source == SWGPU_SHADER_CODE_DISK_CACHE;
		ok &= !__atomic_load_n(&p->jit_tried, __ATOMIC_ACQUIRE);
		ok &= p->jit_keyed;
		if (p->jit_keyed)
			jit_wait_key(p->jit_key);
	}
	ok &= code_right(jit_program_ready(p));
	jit_cache_stats_get(&s);
	s.compiles -= s0.compiles;
	s.disk_hits -= s0.disk_hits;
	s.disk_stores -= s0.disk_stores;
	ok &= use ? s.compiles == 0 && s.disk_hits == 1
	          : s.compiles == 1 && s.disk_stores == 1;
	ir_program_free(p);
	jit_queue_shutdown();
	return ok;
}

static void
test_async_disk_load(void **state)
{
	(void)state;
	empty_dir();
	assert_int_equal(in_child(async_disk_child, "0", "0"), 1);
	assert_int_equal(in_child(async_disk_child, "1", "1"), 1);
	empty_dir();
}

/* The last device of the process closing ends a compile still running
 * (an orphan here): it must not be left for the driver's destructor,
 * which runs under the dynamic loader's lock (jit_queue_quiesce). */
static int
async_device_close_child(void *arg)
{
	struct ir_program *p = long_program(3000);
	struct jit_cache_stats s;
	swgpu_device *dev = NULL;
	int ok = 1;

	(void)arg;
	if (swgpu_device_open(NULL, &dev) != SWGPU_OK)
		return 2;
	jit_program_request(p, NULL, NULL);
	while (!jit_queue_busy())
		usleep(100);
	ir_program_free(p);             /* orphaned, still compiling */
	ok &= jit_queue_busy();
	swgpu_device_close(dev);
	jit_cache_stats_get(&s);
	ok &= !jit_queue_busy() && s.compiles == 1 &&
	      jit_queue_orphaned() == 1;
	/* compiles can be queued again afterwards */
	p = small_program(11);
	jit_program_request(p, NULL, NULL);
	if (p->jit_keyed)
		jit_wait_key(p->jit_key);
	ok &= code_right(jit_program_ready(p));
	ir_program_free(p);
	jit_queue_shutdown();
	return ok;
}

/* Loads and compiles queued together behind a running compile, then
 * freed in an order that takes jobs off the front, the middle and the
 * back of both lists (the queue is three FIFO lists with O(1) insert and
 * removal): every job is run or cancelled exactly once, the programs
 * kept get right code, each load takes the memory cache's code (no
 * compile for them), nothing leaks (LSan). */
static int
async_mixed_child(void *arg)
{
	enum { N = 24 };
	struct ir_program *first = small_program(5), *busy, *p[N];
	struct jit_cache_stats s0, s;
	uint64_t queued, cancelled;
	int ok = 1;

	(void)arg;
	/* its code in the memory cache: the odd requests below are loads */
	jit_program_request(first, NULL, NULL);
	jit_wait_key(first->jit_key);
	ok &= code_right(jit_program_ready(first));
	jit_cache_stats_get(&s0);
	busy = long_program(3000);
	jit_program_request(busy, NULL, NULL);
	while (!jit_queue_busy())
		usleep(100);
	for (int i = 0; i < N; i++) {
		p[i] = small_program(i % 2 ? 5 : 400 + i);
		jit_program_request(p[i], NULL, NULL);
		ok &= p[i]->jit_source == (i % 2 ? SWGPU_SHADER_CODE_PROCESS_CACHE
		                                 : SWGPU_SHADER_CODE_COMPILING);
	}
	/* off the queue: the back of each list, the front, the middle */
	const int gone[] = { N - 1, N - 2, 0, 1, N / 2, N / 2 + 1, 7, 9 };
	for (size_t k = 0; k < sizeof(gone) / sizeof(gone[0]); k++) {
		ir_program_free(p[gone[k]]);
		p[gone[k]] = NULL;
	}
	/* queued after those: the lists' ends are right */
	struct ir_program *late[2] = { small_program(500), small_program(5) };
	for (int i = 0; i < 2; i++)
		jit_program_request(late[i], NULL, NULL);
	/* the rest run: loads and compiles */
	for (int i = 0; i < 2; i++) {
		jit_wait_key(late[i]->jit_key);
		ok &= code_right(jit_program_ready(late[i]));
	}
	for (int i = 0; i < N; i++) {
		if (!p[i])
			continue;
		jit_wait_key(p[i]->jit_key);
		ok &= code_right(jit_program_ready(p[i]));
	}
	jit_cache_stats_get(&s);
	jit_queue_stats(&queued, &cancelled);
	/* the first and the long compile, and of the 24: 8 freed while
	 * queued (3 compiles, 5 loads), so the long one and 9 compiles ran
	 * and 7 loads took the memory cache's code; then the 2 late ones */
	ok &= queued == N + 4 && cancelled == 8;
	ok &= s.compiles - s0.compiles == 1 + 9 + 1;
	ok &= s.mem_hits - s0.mem_hits == 7 + 1;
	for (int i = 0; i < N; i++)
		if (p[i])
			ir_program_free(p[i]);
	ir_program_free(late[0]);
	ir_program_free(late[1]);
	ir_program_free(busy);
	ir_program_free(first);
	jit_queue_shutdown();
	return ok;
}

static void
test_async(void **state)
{
	(void)state;
	assert_int_equal(in_child(async_child, NULL, "1"), 1);
	assert_int_equal(in_child(async_free_child, NULL, "1"), 1);
	assert_int_equal(in_child(async_orphan_child, NULL, "1"), 1);
	assert_int_equal(in_child(async_device_close_child, NULL, "1"), 1);
	assert_int_equal(in_child(async_keep_child, NULL, "1"), 1);
	assert_int_equal(in_child(async_mixed_child, NULL, "1"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_second_process_hits),
		cmocka_unit_test(test_corrupt_ignored),
		cmocka_unit_test(test_knob_off),
		cmocka_unit_test(test_size_cap_evicts),
		cmocka_unit_test(test_size_bound),
		cmocka_unit_test(test_memory_cache),
		cmocka_unit_test(test_app_blob),
		cmocka_unit_test(test_async),
		cmocka_unit_test(test_async_disk_load),
	};
	int r;

	assert_non_null(mkdtemp(dir));
	r = cmocka_run_group_tests(tests, NULL, NULL);
	empty_dir();
	rmdir(dir);
	return r;
}

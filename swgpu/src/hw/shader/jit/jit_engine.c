/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM engine (jit_engine.h): the O2 pipeline for
 * the host CPU (no fast-math), object files emitted in memory, and one
 * ORC LLJIT for the whole process in which each program's object lives
 * in a JITDylib of its own (its symbol names, b<block>_s<seg>, repeat
 * from program to program). Freeing a program clears its JITDylib,
 * which frees its code, and returns the empty JITDylib to a pool for the
 * next program: the JITDylib count stays at the most programs alive at
 * once. (Measured: the LLJIT per program of the first version was not
 * the main cost: a compile is ~15-20 ms of CPU either way, O2 and code
 * generation; a disk cache hit is ~0.2 ms.)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Initialization.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "hw/shader/jit.h"
#include "hw/shader/jit_run.h"
#include "jit_cache.h"
#include "jit_engine.h"
#include "jit_ext.h"
#include "util/util.h"

bool
jit_available(void)
{
	return true;
}

static bool llvm_ready;
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

/* One tiny function (a vector add) optimized and compiled: code
 * generation makes its static objects on first use (SelectionDAG's
 * value type lists, the pass instrumentation's streams), and they must
 * exist before the exit handler is registered (jit.h, jit_exit_guard).
 * Once per process: LLVM's set-up with it costs 8-13 ms of CPU, most of
 * which the first real compile paid before. */
static void
warm_up(void)
{
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("warm_up", ctx);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
	LLVMTypeRef vec = LLVMVectorType(LLVMFloatTypeInContext(ctx), 8);
	LLVMTypeRef ptr = LLVMPointerType(vec, 0);
	LLVMValueRef fn = LLVMAddFunction(mod, "warm_up",
		LLVMFunctionType(LLVMVoidTypeInContext(ctx), &ptr, 1, false));
	size_t size = 0;

	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn,
	                                                          ""));
	LLVMValueRef v = LLVMBuildLoad2(b, vec, LLVMGetParam(fn, 0), "");
	LLVMBuildStore(b, LLVMBuildFAdd(b, v, v, ""), LLVMGetParam(fn, 0));
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
	if (jit_engine_optimize(mod))
		free(jit_engine_emit(mod, &size));
	LLVMDisposeModule(mod);
	LLVMContextDispose(ctx);
}

static void
llvm_init(void)
{
	LLVMPassRegistryRef reg = LLVMGetGlobalPassRegistry();

	llvm_ready = !LLVMInitializeNativeTarget() &&
	             !LLVMInitializeNativeAsmPrinter();
	if (!llvm_ready)
		swgpu_log("jit: LLVM has no native target; interpreting");
	/* The pass registry and every pass a compile registers in it on
	 * first use (code generation's: TargetPassConfig), made now, so
	 * that the exit handler registered next runs before they are
	 * destroyed (jit.h, jit_exit_guard). */
	LLVMInitializeCore(reg);
	LLVMInitializeAnalysis(reg);
	LLVMInitializeTransformUtils(reg);
	LLVMInitializeScalarOpts(reg);
	LLVMInitializeInstCombine(reg);
	LLVMInitializeVectorization(reg);
	LLVMInitializeIPO(reg);
	LLVMInitializeCodeGen(reg);
	LLVMInitializeTarget(reg);
	if (llvm_ready)
		warm_up();
	jit_exit_guard();
}

/* The CPU's vector width, asked of LLVM once (every compile and cache
 * lookup needs it; the feature string costs tens of microseconds). */
static pthread_once_t host_lanes_once = PTHREAD_ONCE_INIT;
static uint32_t host_lanes;

static void
host_lanes_init(void)
{
	char *f = LLVMGetHostCPUFeatures();

	host_lanes = strstr(f, "+avx512f") ? 16 : strstr(f, "+avx2") ? 8 : 4;
	LLVMDisposeMessage(f);
}

uint32_t
jit_host_lanes(void)
{
	uint64_t v;

	if (swgpu_env_u64("SWGPU_JIT_LANES", &v)) {
		if (v == 4 || v == 8 || v == 16)
			return (uint32_t)v;
		swgpu_log("ignoring SWGPU_JIT_LANES=%llu (4, 8 or 16)",
		          (unsigned long long)v);
	}
	pthread_once(&host_lanes_once, host_lanes_init);
	return host_lanes;
}

void
jit_log_error(const char *what, LLVMErrorRef err)
{
	char *m = LLVMGetErrorMessage(err);

	swgpu_log("jit: %s: %s; interpreting the shader", what, m);
	LLVMDisposeErrorMessage(m);
}

bool
jit_llvm_init(void)
{
	pthread_once(&llvm_once, llvm_init);
	return llvm_ready;
}

static uint64_t dump_level;
static pthread_once_t dump_once = PTHREAD_ONCE_INIT;

static void
dump_init(void)
{
	if (!swgpu_env_u64("SWGPU_JIT_DUMP", &dump_level))
		dump_level = 0;
}

/* SWGPU_JIT_DUMP: mod's LLVM IR on stderr, whole (stderr locked: the
 * background compile thread and a compile on a submitting thread may
 * dump at once). */
static void
dump_module(LLVMModuleRef mod, const char *when)
{
	char *text = LLVMPrintModuleToString(mod);

	flockfile(stderr);
	fprintf(stderr, "; swgpu jit: LLVM IR %s\n%s; swgpu jit: end\n", when,
	        text);
	funlockfile(stderr);
	LLVMDisposeMessage(text);
}

/* Verify and optimize mod for the host; false (logged) on an error. */
bool
jit_engine_optimize(LLVMModuleRef mod)
{
	char *msg = NULL;
	char *triple = LLVMGetDefaultTargetTriple();
	char *cpu = LLVMGetHostCPUName();
	char *features = LLVMGetHostCPUFeatures();
	LLVMTargetRef target = NULL;
	LLVMTargetMachineRef tm = NULL;
	bool ok = false;

	pthread_once(&dump_once, dump_init);
	if (dump_level >= 2)
		dump_module(mod, "as emitted");
	if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
		swgpu_log("jit: invalid LLVM IR: %s; interpreting the shader",
		          msg);
		goto out;
	}
	if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
		swgpu_log("jit: no target %s: %s; interpreting the shader",
		          triple, msg);
		goto out;
	}
	tm = LLVMCreateTargetMachine(target, triple, cpu, features,
	                             LLVMCodeGenLevelDefault, LLVMRelocDefault,
	                             LLVMCodeModelJITDefault);
	LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);

	LLVMSetModuleDataLayout(mod, dl);
	LLVMDisposeTargetData(dl);
	LLVMSetTarget(mod, triple);
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err = LLVMRunPasses(mod, "default<O2>", tm, opts);

	LLVMDisposePassBuilderOptions(opts);
	if (err) {
		jit_log_error("optimizing", err);
		goto out;
	}
	if (dump_level >= 1)
		dump_module(mod, "optimized");
	ok = true;
out:
	if (msg)
		LLVMDisposeMessage(msg);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	return ok;
}


/* ---- object files ---- */

void *
jit_engine_emit(LLVMModuleRef mod, size_t *size)
{
	char *msg = NULL;
	char *triple = LLVMGetDefaultTargetTriple();
	char *cpu = LLVMGetHostCPUName();
	char *features = LLVMGetHostCPUFeatures();
	LLVMTargetRef target = NULL;
	LLVMMemoryBufferRef buf = NULL;
	void *out = NULL;

	if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
		swgpu_log("jit: no target %s: %s; interpreting the shader",
		          triple, msg);
		goto done;
	}
	/* position independent: the object is loaded anywhere, in any
	 * later process (disk cache, VkPipelineCache) */
	LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
		target, triple, cpu, features, LLVMCodeGenLevelDefault,
		LLVMRelocPIC, LLVMCodeModelDefault);

	if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg,
	                                        &buf)) {
		swgpu_log("jit: emitting native code: %s; interpreting the "
		          "shader", msg);
	} else {
		*size = LLVMGetBufferSize(buf);
		out = malloc(*size ? *size : 1);
		if (out)
			memcpy(out, LLVMGetBufferStart(buf), *size);
		LLVMDisposeMemoryBuffer(buf);
	}
	LLVMDisposeTargetMachine(tm);
done:
	if (msg)
		LLVMDisposeMessage(msg);
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	return out;
}

/* ---- the process's LLJIT and its pool of JITDylibs ---- */

struct jit_engine {
	LLVMOrcJITDylibRef jd;
	struct jit_engine *next;     /* in the pool */
};

static LLVMOrcLLJITRef the_jit;
static pthread_once_t jit_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct jit_engine *pool;
static uint32_t dylib_count;

static void
lljit_init(void)
{
	LLVMErrorRef err;

	if (!jit_llvm_init())
		return;
	err = LLVMOrcCreateLLJIT(&the_jit, NULL);
	if (err) {
		the_jit = NULL;
		jit_log_error("creating the JIT", err);
	}
}

/* The engine's functions compiled code calls by name (jit_ext.c), in
 * e's JITDylib (again after each clear); NULL (logged, e dropped) on
 * an error. */
static struct jit_engine *
define_symbols(struct jit_engine *e)
{
	LLVMErrorRef err = jit_ext_define_symbols(the_jit, e->jd);

	if (err) {
		jit_log_error("defining symbols", err);
		free(e);            /* a JITDylib made stays in the session */
		return NULL;
	}
	return e;
}

/* A JITDylib from the pool, or a new one resolving the process's
 * symbols (libm, should LLVM call it); NULL (logged) on an error. */
static struct jit_engine *
engine_get(void)
{
	struct jit_engine *e;
	char name[32];
	LLVMOrcDefinitionGeneratorRef gen;
	LLVMErrorRef err;

	pthread_mutex_lock(&pool_lock);
	e = pool;
	if (e)
		pool = e->next;
	else
		snprintf(name, sizeof(name), "swgpu_program%u", dylib_count++);
	pthread_mutex_unlock(&pool_lock);
	if (e)
		return define_symbols(e);
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	err = LLVMOrcExecutionSessionCreateJITDylib(
		LLVMOrcLLJITGetExecutionSession(the_jit), &e->jd, name);
	if (!err)
		err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
			&gen, LLVMOrcLLJITGetGlobalPrefix(the_jit), NULL, NULL);
	if (err) {
		jit_log_error("creating a JITDylib", err);
		free(e);            /* a JITDylib made stays in the session */
		return NULL;
	}
	LLVMOrcJITDylibAddGenerator(e->jd, gen);
	return define_symbols(e);
}

void
jit_engine_free(void *engine)
{
	struct jit_engine *e = engine;
	LLVMErrorRef err;

	if (!e)
		return;
	if (jit_llvm_closed()) {
		free(e);   /* the process is ending: leave LLVM alone */
		return;
	}
	err = LLVMOrcJITDylibClear(e->jd);
	if (err) {
		/* its code may still be there: never reuse it */
		jit_log_error("freeing a program's code", err);
		free(e);
		return;
	}
	pthread_mutex_lock(&pool_lock);
	e->next = pool;
	pool = e;
	pthread_mutex_unlock(&pool_lock);
}

void *
jit_engine_load_object(const void *obj, size_t size)
{
	struct jit_engine *e;
	LLVMMemoryBufferRef buf;
	LLVMErrorRef err;

	pthread_once(&jit_once, lljit_init);
	if (!the_jit || !(e = engine_get()))
		return NULL;
	buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size,
	                                                "swgpu_shader");
	err = LLVMOrcLLJITAddObjectFile(the_jit, e->jd, buf);
	if (err) {
		jit_log_error("loading native code", err);
		jit_engine_free(e);
		return NULL;
	}
	return e;
}

/* An application blob for key (io->lookup) that passes its checks (its
 * object in *obj, *size), or NULL (a rejection is logged and counted). */
static const void *
app_blob(const struct jit_cache_key *key, struct jit_compile_io *io,
         size_t *blob_size, const void **obj, size_t *size)
{
	const void *blob;
	const char *why;

	if (!io || !io->lookup)
		return NULL;
	blob = io->lookup(io->user, key->b, blob_size);
	if (!blob)
		return NULL;
	why = jit_entry_check(key, blob, *blob_size, obj, size);
	if (why) {
		jit_cache_stat_add(&jit_cache_counters.app_rejects);
		swgpu_log("jit: the application's cached code (%zu bytes) is "
		          "%s; compiling the shader", *blob_size, why);
		return NULL;
	}
	return blob;
}

/* An application blob's object, loaded: its engine, or NULL (a
 * rejection is logged and counted). */
static void *
app_cached(const struct jit_cache_key *key, struct jit_compile_io *io)
{
	size_t blob_size = 0, size = 0;
	const void *obj;
	void *e;

	if (!app_blob(key, io, &blob_size, &obj, &size))
		return NULL;
	e = jit_engine_load_object(obj, size);
	if (!e) {
		jit_cache_stat_add(&jit_cache_counters.app_rejects);
		swgpu_log("jit: the application's cached code does not load; "
		          "compiling the shader");
		return NULL;
	}
	jit_cache_stat_add(&jit_cache_counters.app_hits);
	jit_mem_put(key, obj, size);
	return e;
}

/* io->probe: which cache has key's code, in jit_engine_cached's order;
 * nothing loaded (linking the object is what costs: LLJIT's set-up on a
 * process's first load, 2-3 ms, jit_queue.c does it in the
 * background). */
static void
probe(const struct jit_cache_key *key, struct jit_compile_io *io)
{
	size_t blob_size = 0, size = 0;
	const void *blob, *obj;
	const char *dir;

	blob = app_blob(key, io, &blob_size, &obj, &size);
	if (blob) {
		io->source = JIT_SRC_APP;
		io->blob = blob;
		io->blob_size = blob_size;
	} else if (jit_mem_has(key)) {
		io->source = JIT_SRC_MEMORY;
	} else if ((dir = jit_cache_dir()) && jit_cache_has(dir, key)) {
		io->source = JIT_SRC_DISK;
	} else {
		io->missed = true;
		return;
	}
	io->found = true;
}

void *
jit_engine_cached(const struct jit_cache_key *key, struct jit_compile_io *io)
{
	const char *dir;
	size_t size = 0;
	void *obj, *e;

	if (io) {
		io->have_key = true;
		memcpy(io->key, key->b, 16);
	}
	if (io && io->probe) {
		probe(key, io);
		return NULL;
	}
	/* the application's blob first (so that a hit in its cache is
	 * reported as one), then this process's own code, then the disk */
	e = app_cached(key, io);
	if (e) {
		io->source = JIT_SRC_APP;
		return e;
	}
	obj = jit_mem_get(key, &size);
	if (obj) {
		e = jit_engine_load_object(obj, size);
		free(obj);
		if (e) {
			jit_cache_stat_add(&jit_cache_counters.mem_hits);
			if (io)
				io->source = JIT_SRC_MEMORY;
			return e;
		}
	}
	dir = jit_cache_dir();
	if (!dir || !(obj = jit_cache_load(dir, key, &size))) {
		if (io && io->cache_only)
			io->missed = true;
		return NULL;
	}
	e = jit_engine_load_object(obj, size);
	if (e)
		jit_mem_put(key, obj, size);
	free(obj);
	if (e && io)
		io->source = JIT_SRC_DISK;
	if (!e && io && io->cache_only)
		io->missed = true;
	if (e && swgpu_debug_env()) {
		char hex[33];

		jit_cache_key_hex(key, hex);
		swgpu_log("jit: shader %s from the disk cache", hex);
	}
	return e;
}

void *
jit_engine_build(LLVMModuleRef mod, const struct jit_cache_key *key,
                 struct jit_compile_io *io)
{
	const char *dir = jit_cache_dir();
	size_t size = 0;
	void *obj = jit_engine_emit(mod, &size), *e;

	LLVMDisposeModule(mod);
	if (!obj)
		return NULL;
	jit_cache_stat_add(&jit_cache_counters.compiles);
	jit_mem_put(key, obj, size);
	e = jit_engine_load_object(obj, size);
	/* after the first compile and load: again, ahead of the statics
	 * they made (jit.h, jit_exit_guard) */
	static pthread_once_t first_build = PTHREAD_ONCE_INIT;
	pthread_once(&first_build, jit_exit_guard);
	if (dir && key && e && io && io->defer_store && io->have_key &&
	    !memcmp(io->key, key->b, sizeof(io->key))) {
		free(io->store_obj);
		io->store_obj = obj;          /* jit_compile_io_store's */
		io->store_size = size;
		obj = NULL;
	} else if (dir && key) {
		jit_cache_store(dir, key, obj, size, jit_cache_max_bytes());
	}
	free(obj);
	if (e && io)
		io->source = JIT_SRC_COMPILED;
	return e;
}

void
jit_compile_io_store(struct jit_compile_io *io)
{
	const char *dir = jit_cache_dir();
	struct jit_cache_key key;

	if (!io->store_obj)
		return;
	memcpy(key.b, io->key, sizeof(key.b));
	if (dir)
		jit_cache_store(dir, &key, io->store_obj, io->store_size,
		                jit_cache_max_bytes());
	free(io->store_obj);
	io->store_obj = NULL;
}

/* Lookups in one JITDylib go through the session, whose answer comes
 * to a callback: wait for it. */
struct lookup_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	uint64_t addr;
};

static void
lookup_done(LLVMErrorRef err, LLVMOrcCSymbolMapPairs result, size_t n,
            void *ctx)
{
	struct lookup_wait *w = ctx;

	pthread_mutex_lock(&w->lock);
	if (err)
		jit_log_error("looking up compiled code", err);
	else if (n)
		w->addr = result[0].Sym.Address;
	w->done = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

uint64_t
jit_engine_lookup(void *engine, const char *name)
{
	struct jit_engine *e = engine;
	struct lookup_wait w = { .lock = PTHREAD_MUTEX_INITIALIZER,
	                         .cond = PTHREAD_COND_INITIALIZER };
	LLVMOrcCJITDylibSearchOrderElement order = {
		e->jd, LLVMOrcJITDylibLookupFlagsMatchAllSymbols
	};
	LLVMOrcCLookupSetElement sym = {
		LLVMOrcLLJITMangleAndIntern(the_jit, name),
		LLVMOrcSymbolLookupFlagsRequiredSymbol
	};

	LLVMOrcExecutionSessionLookup(LLVMOrcLLJITGetExecutionSession(the_jit),
	                              LLVMOrcLookupKindStatic, &order, 1, &sym,
	                              1, lookup_done, &w);
	pthread_mutex_lock(&w.lock);
	while (!w.done)
		pthread_cond_wait(&w.cond, &w.lock);
	pthread_mutex_unlock(&w.lock);
	pthread_mutex_destroy(&w.lock);
	pthread_cond_destroy(&w.cond);
	return w.addr;
}

static uint32_t max_instrs = JIT_DEFAULT_MAX_INSTRS;
static pthread_once_t max_instrs_once = PTHREAD_ONCE_INIT;

static void
max_instrs_init(void)
{
	uint64_t v;

	if (swgpu_env_u64("SWGPU_JIT_MAX_INSTRS", &v))
		max_instrs = v == 0 || v > UINT32_MAX ? UINT32_MAX
		             : (uint32_t)v;
}

uint32_t
jit_engine_max_instrs(void)
{
	pthread_once(&max_instrs_once, max_instrs_init);
	return max_instrs;
}

void *
jit_binary_get(const uint8_t key[16], size_t *size)
{
	struct jit_cache_key k;
	size_t obj_size = 0;
	void *obj, *blob;

	memcpy(k.b, key, 16);
	obj = jit_mem_get(&k, &obj_size);
	if (!obj)
		return NULL;
	blob = jit_entry_wrap(&k, obj, obj_size, size);
	free(obj);
	return blob;
}

bool
jit_cache_uuid(uint8_t uuid[16])
{
	jit_cache_build_uuid(uuid);
	return true;
}

void
jit_unload(void)
{
	pthread_mutex_lock(&pool_lock);
	while (pool) {
		struct jit_engine *e = pool;

		pool = e->next;
		free(e);             /* its JITDylib stays in the session */
	}
	pthread_mutex_unlock(&pool_lock);
	jit_mem_fini();
	jit_cache_fini();
}

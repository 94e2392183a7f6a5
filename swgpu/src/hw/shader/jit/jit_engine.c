/* SPDX-License-Identifier: MIT */
/*
 * The shader compiler's LLVM engine (jit_engine.h): one ORC LLJIT per
 * program, the O2 pipeline for the host CPU, no fast-math.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "hw/shader/jit.h"
#include "hw/shader/jit_run.h"
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

static void
llvm_init(void)
{
	llvm_ready = !LLVMInitializeNativeTarget() &&
	             !LLVMInitializeNativeAsmPrinter();
	if (!llvm_ready)
		swgpu_log("jit: LLVM has no native target; interpreting");
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
	char *f = LLVMGetHostCPUFeatures();
	uint32_t lanes = strstr(f, "+avx512f") ? 16 : strstr(f, "+avx2") ? 8
	                 : 4;

	LLVMDisposeMessage(f);
	return lanes;
}

void
jit_log_error(const char *what, LLVMErrorRef err)
{
	char *m = LLVMGetErrorMessage(err);

	swgpu_log("jit: %s: %s; interpreting the shader", what, m);
	LLVMDisposeErrorMessage(m);
}

void
jit_engine_free(void *engine)
{
	if (engine)
		LLVMOrcDisposeLLJIT((LLVMOrcLLJITRef)engine);
}

bool
jit_llvm_init(void)
{
	pthread_once(&llvm_once, llvm_init);
	return llvm_ready;
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

/* Hand mod to a new LLJIT (compiled lazily on the first lookup). */
void *
jit_engine_load(LLVMOrcThreadSafeContextRef tsc, LLVMModuleRef mod)
{
	LLVMOrcLLJITRef lljit;
	LLVMErrorRef err = LLVMOrcCreateLLJIT(&lljit, NULL);

	if (err) {
		LLVMDisposeModule(mod);
		jit_log_error("creating the JIT", err);
		return NULL;
	}
	err = jit_ext_define_symbols(lljit);   /* compiled code's calls */
	if (err) {
		LLVMDisposeModule(mod);
		jit_log_error("defining symbols", err);
		LLVMOrcDisposeLLJIT(lljit);
		return NULL;
	}
	LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(mod,
	                                                                  tsc);

	err = LLVMOrcLLJITAddLLVMIRModule(lljit,
	                                  LLVMOrcLLJITGetMainJITDylib(lljit),
	                                  tsm);
	if (err) {
		LLVMOrcDisposeThreadSafeModule(tsm);
		jit_log_error("adding the module", err);
		LLVMOrcDisposeLLJIT(lljit);
		return NULL;
	}
	return lljit;
}

uint64_t
jit_engine_lookup(void *engine, const char *name)
{
	LLVMOrcExecutorAddress addr = 0;
	LLVMErrorRef err = LLVMOrcLLJITLookup((LLVMOrcLLJITRef)engine, &addr,
	                                      name);

	if (err) {
		jit_log_error("compiling", err);
		return 0;
	}
	return addr;
}

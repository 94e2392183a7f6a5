# SPDX-License-Identifier: MIT
# The two set-up commands of the README:
#   make run   build the driver and run real Vulkan programs through it
#   make test  build and run every test (ctest)
# Other targets: shared-test, asan-test, tsan-test, clang-test, clean.

BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# Extra ctest arguments; the sanitizer and shared-mode runs leave out the
# lavapipe variants (label "reference"): they check the tests against
# lavapipe, which neither a sanitizer of our code nor swgpud changes.
CTEST_ARGS ?=

.PHONY: run test deps build shared-test asan-test tsan-test clang-test clean

deps:
	@scripts/deps.sh

$(BUILD)/build.ninja: | deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null

build: deps $(BUILD)/build.ninja
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300 $(CTEST_ARGS)

# The Vulkan programs, samples and daemon tests again in shared mode
# (SWGPU_MODE=shared: every process a client of one swgpud), in a private
# XDG_RUNTIME_DIR so the daemons are this run's. One test at a time: tests
# measure their own latency and memory, which other tests' processes on
# the same GPU would change (that sharing is what daemon.shared tests).
shared-test: build
	@d=$$(mktemp -d) && chmod 700 $$d && cd $(BUILD) && \
	XDG_RUNTIME_DIR=$$d SWGPU_MODE=shared ctest --output-on-failure \
	  -j 1 --timeout 300 -L "vulkan|daemon|samples|icd" -LE reference; \
	r=$$?; pkill -f "swgpud --socket $$d" || true; rm -rf $$d; exit $$r

# Sanitizer suppressions cover only libraries we load but do not build
# (validation layer, lavapipe): see tests/sanitizers/.
asan-test: export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/sanitizers/lsan.supp:print_suppressions=0
asan-test:
	@$(MAKE) --no-print-directory test BUILD=build-asan CMAKE_FLAGS="-DSWGPU_ASAN=ON -DCMAKE_C_COMPILER=clang" CTEST_ARGS="-LE reference"

tsan-test: export TSAN_OPTIONS = suppressions=$(CURDIR)/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1
tsan-test:
	@$(MAKE) --no-print-directory test BUILD=build-tsan CMAKE_FLAGS="-DSWGPU_TSAN=ON -DCMAKE_C_COMPILER=clang" CTEST_ARGS="-LE reference"

clang-test:
	@$(MAKE) --no-print-directory test BUILD=build-clang CMAKE_FLAGS="-DCMAKE_C_COMPILER=clang"

clean:
	rm -rf build build-asan build-tsan build-clang

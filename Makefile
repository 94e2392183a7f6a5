# SPDX-License-Identifier: MIT
# The two set-up commands of the README:
#   make run   build the driver and run real Vulkan programs through it
#   make test  build and run every test (ctest)
# Other targets: asan-test, tsan-test, clang-test, clean.

BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: run test deps build asan-test tsan-test clang-test clean

deps:
	@scripts/deps.sh

$(BUILD)/build.ninja: | deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null

build: deps $(BUILD)/build.ninja
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run.sh $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300

# Sanitizer suppressions cover only libraries we load but do not build
# (validation layer, lavapipe): see tests/sanitizers/.
asan-test: export LSAN_OPTIONS = suppressions=$(CURDIR)/tests/sanitizers/lsan.supp:print_suppressions=0
asan-test:
	@$(MAKE) --no-print-directory test BUILD=build-asan CMAKE_FLAGS="-DSWGPU_ASAN=ON -DCMAKE_C_COMPILER=clang"

tsan-test: export TSAN_OPTIONS = suppressions=$(CURDIR)/tests/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1
tsan-test:
	@$(MAKE) --no-print-directory test BUILD=build-tsan CMAKE_FLAGS="-DSWGPU_TSAN=ON -DCMAKE_C_COMPILER=clang"

clang-test:
	@$(MAKE) --no-print-directory test BUILD=build-clang CMAKE_FLAGS="-DCMAKE_C_COMPILER=clang"

clean:
	rm -rf build build-asan build-tsan build-clang

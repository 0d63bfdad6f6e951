# SPDX-License-Identifier: Apache-2.0
# The README's two commands: `make test` and `make speed`. Both install what a
# fresh machine lacks (tools/install-deps.sh), then build with CMake + Ninja.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build test test-main test-backends test-asan test-aarch64 bench-aarch64 test-python test-gpu speed speed-gmsm clean

all: deps
	$(MAKE) build

deps:
	@bash tools/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Everything: the Release suite (KATs, differential tests against OpenSSL,
# CLI against the openssl command line, valgrind constant-time test), then
# the same unit and differential suite under ASan+UBSan.
test: deps
	$(MAKE) build
	$(MAKE) test-main
	$(MAKE) test-backends
	$(MAKE) test-asan
	$(MAKE) test-aarch64
	$(MAKE) test-python
	$(MAKE) test-gpu

test-main:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite again with each other backend this CPU can run forced
# (FASTSM2_CPU=<name>): generic, and every SIMD level below the default.
test-backends:
	bash tools/test-backends.sh $(BUILD)

# aarch64 cross-build run under qemu-user (issue: ARMv8 backend).
test-aarch64:
	bash tools/test-aarch64.sh

# Executed AArch64 instructions per operation under qemu: fastsm2's backends,
# gmsm (arm64 assembly) and Debian's arm64 OpenSSL (docs/ARM.md).
bench-aarch64:
	bash tools/armcount/count.sh

# The Python package, built and tested in a local virtual environment.
test-python:
	bash python/tools/test.sh

# The CUDA backend: nvcc compiles the kernels (installed from PyPI if
# missing) and the device arithmetic runs as host code against the library.
test-gpu:
	bash tools/test-gpu.sh

test-asan:
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DFASTSM2_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

speed: deps
	$(MAKE) build
	./$(BUILD)/fastsm2 speed

# fastsm2 beside gmsm (Go; needs the Go toolchain and its module proxy)
speed-gmsm: deps
	$(MAKE) build
	sh tools/speed-gmsm.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

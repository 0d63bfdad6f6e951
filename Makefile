# SPDX-License-Identifier: Apache-2.0
# The README's two commands: `make test` and `make speed`. Both install what a
# fresh machine lacks (tools/install-deps.sh), then build with CMake + Ninja.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build test test-main test-asan speed clean

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
	$(MAKE) test-asan

test-main:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DFASTSM2_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

speed: deps
	$(MAKE) build
	./$(BUILD)/fastsm2 speed

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

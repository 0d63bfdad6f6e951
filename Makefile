# SPDX-License-Identifier: Apache-2.0
# The README's commands:
#   make test      what a user runs to see that fastsm2 works here (minutes)
#   make test-all  everything; what CI runs (.ci/run)
#   make speed     the benchmark against OpenSSL, in one process run
# Each installs what a fresh machine lacks (tools/install-deps.sh), then
# builds with CMake + Ninja. Every stage below is also a target of its own.
BUILD      ?= build
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# ON in test-all (CI): warnings are errors there, with gcc and with clang.
WERROR     ?= OFF

# The stages of `make test`: the suite (known answers, OpenSSL differential
# tests, CLI against the openssl command line, valgrind constant-time test)
# on the default backend, then on every other backend this CPU can run, and
# the Python package's tests.
TEST_STAGES := deps build test-main test-backends test-python
# `make test-all` adds the slow and download-heavy stages.
TEST_ALL_STAGES := $(TEST_STAGES) check-format test-x86-cpus test-asan test-clang build-tools test-aarch64 bench-aarch64-brief \
                   test-gpu test-gpu-emu build-hip sass-count
# Constant time on AArch64 (docs/ARM.md): memcheck under qemu, and the
# trace comparison over many secrets on all three aarch64 backends.
TEST_ALL_STAGES += test-aarch64-valgrind test-aarch64-trace
# libFuzzer on every target briefly (fuzz/, tests/harness/fuzz.sh)
TEST_ALL_STAGES += fuzz-brief
# Installed and embedded the ways users take it (C: cmake --install,
# pkg-config, find_package, add_subdirectory, FetchContent, a libc-only
# build; Python: sdist -> manylinux wheel -> fresh venv), and the paths of
# platforms without __int128 or getrandom.
TEST_ALL_STAGES += test-install test-portable test-wheel
# fastsm2.spark on a real Spark session, local[2] (docs/SPARK.md).
TEST_ALL_STAGES += test-spark
# The npm package (js/, docs/JS.md): addon and WebAssembly, Node and Chromium.
TEST_ALL_STAGES += test-js

# Rust (rust/, docs/RUST.md): fastsm2-sys, fastsm2 (RustCrypto traits,
# interop with the sm2 crate), fastsm2-rustls (RFC 8998 TLS 1.3 provider).
TEST_ALL_STAGES += test-rust
test-rust:
	bash rust/tools/test.sh
# Sign/verify vs the sm2 crate, handshakes/s vs rustls-ring, SM4-GCM vs AES-GCM.
bench-rust:
	bash rust/tools/bench.sh
# cargo publish --workspace --dry-run (the C sources vendored first).
package-rust:
	bash rust/tools/package.sh

# The OpenSSL-facing tests against the oldest and the newest OpenSSL release
# covered (3.0.2, 4.0.3; built from source once, cached in ~/.cache/fastsm2).
TEST_ALL_STAGES += test-openssl-brief

# Certificates, CMS and TLCP against their other makers (docs/PKI.md):
# GmSSL 3's gmssl command both ways, and TLCP handshakes in Tongsuo with
# fastsm2prov loaded and fastsm2's certificate pairs. Neither is on a
# package registry: each is built once from GMSSL_SRC / TONGSUO_SRC (a
# source tree) into ~/.cache/fastsm2/{gmssl,tongsuo}, and skipped (exit 77,
# reported as skipped) where neither that nor the cache is there.
TEST_ALL_STAGES += test-gmssl-pki test-tongsuo
test-gmssl-pki:
	bash tests/harness/test-gmssl-pki.sh $(BUILD) || test $$? -eq 77
test-tongsuo:
	bash tests/harness/test-tongsuo.sh test $(BUILD) || test $$? -eq 77
# TLCP handshakes/s and server CPU per handshake without fastsm2prov, with it
# in the server, in both (docs/PKI.md "TLCP").
bench-tongsuo:
	bash tests/harness/test-tongsuo.sh bench $(BUILD)

# The Java provider (java/, docs/JAVA.md): JUnit against BouncyCastle on
# JDK 17 and 25, the aarch64 glue under qemu, the README example from the jar.
TEST_ALL_STAGES += test-java

all: deps
	$(MAKE) build

deps:
	@bash tools/install-deps.sh

build:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DFASTSM2_WERROR=$(WERROR) $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

test:
	@bash tests/harness/stages.sh $(TEST_STAGES)

# Three stages that keep one core busy (a compiler, the fuzzer, the GPU
# simulator) run in the background (STAGES_BACKGROUND), niced, in the core
# the others leave idle: they hold no file or port the others use, and
# deps installs their packages first (FS2_DEPS_BACKGROUND).
test-all:
	@WERROR=ON FS2_GPU_EMU_FULL=1 FS2_IFMA_TRACE_SETS=6 FS2_DEPS_BACKGROUND=1 \
	  STAGES_BACKGROUND="build-hip fuzz-brief test-gpu-sim-brief" bash tests/harness/stages.sh $(TEST_ALL_STAGES)

# Sources laid out as .clang-format says (clang-format 14); `make format` fixes.
check-format:
	bash tools/check-format.sh

format:
	FIX=1 bash tools/check-format.sh

test-main:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole suite again with each other backend this CPU can run forced
# (FASTSM2_CPU=<name>): generic, and every SIMD level below the default.
test-backends:
	bash tests/harness/test-backends.sh $(BUILD)

# The C tests on x86-64 CPU models this machine is not (qemu-user): one
# without AVX-512 (Zen 2), one without ADX (Haswell).
test-x86-cpus:
	bash tests/harness/test-x86-cpus.sh $(BUILD)

test-asan:
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DFASTSM2_SANITIZE=ON \
	  -DFASTSM2_WERROR=$(WERROR)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The library, CLI and tests built with clang (warnings as errors in CI),
# and the suite run on every backend, the valgrind constant-time test
# included: clang's optimiser must not turn masks into branches either.
test-clang:
	bash tests/harness/test-clang.sh $(CLANG_BUILD)

# Programs outside the CMake build: the gmsm benchmark (Go).
build-tools:
	bash tests/harness/build-tools.sh $(BUILD)

# aarch64 cross-build run under qemu-user (docs/ARM.md).
test-aarch64:
	bash tests/harness/test-aarch64.sh

# The valgrind constant-time test on AArch64: Debian's arm64 valgrind under
# qemu-aarch64 on ctime_test (generic, armv8), with planted positive controls.
test-aarch64-valgrind:
	bash tests/harness/arm-ctime/valgrind.sh

# Execution traces (blocks, load/store addresses) of the secret operations
# compared over 12 secret sets on armv8-sm3, armv8 and generic (qemu plugin).
test-aarch64-trace:
	bash tests/harness/arm-ctime/trace.sh

# Executed AArch64 instructions per operation under qemu: fastsm2's backends,
# gmsm (arm64 assembly) and Debian's arm64 OpenSSL (docs/ARM.md).
bench-aarch64:
	bash bench/armcount/count.sh

# The same, briefly (a few operations each): that it builds and runs.
bench-aarch64-brief:
	N_EC=2 GO_RUNS=2 bash bench/armcount/count.sh

# The Python package, built and tested in a local virtual environment.
test-python:
	bash python/tools/test.sh

# fastsm2.spark: PySpark and a Java runtime installed if missing, the wheel
# built, >= 100,000 rows verified in local[2] against the single calls.
test-spark:
	bash tests/harness/test-spark.sh

# Rows/s of fastsm2.spark on 1 and 2 executor cores beside the batch API.
bench-spark:
	bash tests/harness/test-spark.sh bench

# The Java provider "FastSM2" (java/, docs/JAVA.md): java/target/fastsm2-jca.jar
# with the JNI library for linux-x86_64 and linux-aarch64 (build-java-native/).
java:
	bash java/tools/build.sh jar

test-java:
	bash java/tools/build.sh test
# The Java provider under 16 threads for 60 s (issue 41): shared and
# per-thread keys, a key destroyed mid-use, results against a one-thread
# reference (test-java runs the same test for 3 s); a stage of test-all.
.PHONY: test-java-stress
test-java-stress:
	bash java/tools/build.sh stress
TEST_ALL_STAGES += test-java-stress

# JMH (SM2, SM3, SM4) beside BouncyCastle, and ops per thread-CPU second of
# the providers and of the C library in the jar, in one run.
bench-java:
	bash java/tools/bench.sh

# Spark SQL functions from the jar (java/spark, docs/SPARK.md): sm2_verify,
# sm2_sign, sm3 over 100,000 rows in local[2], on PySpark's Spark.
TEST_ALL_STAGES += test-spark-java
test-spark-java:
	bash tests/harness/test-spark-java.sh
# Rows/s of the JVM functions beside fastsm2.spark, same rows, one session.
bench-spark-java:
	bash tests/harness/test-spark-java.sh bench

# The Python package as PyPI ships it: sdist -> wheel -> auditwheel repair
# (a manylinux tag) -> a fresh venv -> the package's tests (build-wheel/).
test-wheel:
	bash python/tools/test-wheel.sh

# The CUDA backend: nvcc compiles the kernels (installed from PyPI if
# missing) and the device arithmetic runs as host code against the library.
test-gpu:
	bash tests/harness/test-gpu.sh

# libFuzzer targets (fuzz/): clang, ASan+UBSan, the whole library
# instrumented; each target runs FUZZ_SECONDS shared among the backends.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/harness/fuzz.sh build-fuzz

# The same, 10 s a target (the PKI parsers less; about 2 minutes with the build): in make test-all.
fuzz-brief:
	FUZZ_SECONDS=10 FUZZ_SECONDS_x509=5 FUZZ_SECONDS_x509_name=3 FUZZ_SECONDS_cms=5 bash tests/harness/fuzz.sh build-fuzz

# The OpenSSL-facing tests (differential, provider, CLI cross-checks, the
# provider beside the default one) against OpenSSL 3.0.2, the system's
# 3.0.x, 3.5.5 and 4.0.3, each built from its release sources through cargo
# (crate openssl-src) and cached in ~/.cache/fastsm2/openssl/<version>/
# (tests/harness/test-openssl.sh; README "Another OpenSSL").
test-openssl:
	bash tests/harness/test-openssl.sh all

test-openssl-brief:
	bash tests/harness/test-openssl.sh brief

# The CUDA backend run on the CPU against an emulated CUDA runtime (no nvcc,
# no GPU): kernels, streams, chunks, every injected CUDA failure, also under
# ASan + UBSan (docs/GPU.md); in test-all (FS2_GPU_EMU_FULL=1) at the default table width too.
test-gpu-emu:
	bash tests/harness/test-gpu-emu.sh

# The same kernels compiled by hipcc (ROCm, installed from Debian if missing)
# for AMD gfx906, the Hygon DCU class: a compile and link check, nothing runs.
build-hip:
	bash tests/harness/build-hip.sh

# The PTX path (its carry chains) executed in GPGPU-Sim with the RTX 3070
# configuration, checked bit for bit (tests/harness/test-gpu-sim.sh, docs/GPU.md);
# skipped (77) without a GPGPU-Sim source (GPGPUSIM_SRC=..., not on a
# registry; exit 77 is reported as "skipped" and passes). -brief: the field
# arithmetic (PTX and portable builds) and one batch of each kernel,
# functional simulation (minutes); test-gpu-sim: test_gpu_device too, and
# simulated rates (about an hour on a busy machine).
test-gpu-sim:
	bash tests/harness/test-gpu-sim.sh full || test $$? -eq 77

test-gpu-sim-brief:
	bash tests/harness/test-gpu-sim.sh brief || test $$? -eq 77
# test-all runs the brief one in the background (STAGES_BACKGROUND: the
# simulator keeps one core busy, in time the other stages leave idle;
# skipped at once where no built GPGPU-Sim is cached).
TEST_ALL_STAGES += test-gpu-sim-brief

# SASS instructions per signature / verification / key generation for sm_90
# (a model, docs/GPU.md "SASS count"), registers and spills per kernel, and
# the check that the constant-time sign path has no branch on a secret.
sass-count:
	bash tests/harness/sass-count.sh

# The C tests under many random seeds on every backend (chance failures).
SEEDS ?= 100
seed-sweep: build
	bash tests/harness/seed-sweep.sh $(BUILD) $(SEEDS)

speed: deps
	$(MAKE) build
	./$(BUILD)/fastsm2 speed

# fastsm2 beside gmsm (Go; needs the Go toolchain and its module proxy)
speed-gmsm: deps
	$(MAKE) build
	sh bench/peers/speed-gmsm.sh $(BUILD)

# Issue 35, the avx512-ifma single-operation path (docs/BENCHMARKS.md): one
# lane-parallel IFMA doubling and mixed addition against the MULX field's
# (bench/ifma1/micro.c), the changed EC slots of adx, avx2 and avx512ifma
# in one process (bench/ifma1/slots.c), then the backend's rows against
# adx, alternating processes (bench/ifma1/ab.sh: AB_ROUNDS rounds,
# AB_SECONDS a record). Each says so and stops (77) on a CPU without
# AVX-512 IFMA; x86-64 only.
AB_ROUNDS ?= 5
AB_SECONDS ?= 0.5
bench-ifma1: build
	$(CC) -O3 -std=gnu11 -mavx512f -mavx512vl -mavx512ifma -mbmi2 -madx -Isrc -Iinclude \
	  -I$(BUILD)/generated bench/ifma1/micro.c -o $(BUILD)/ifma1-micro
	./$(BUILD)/ifma1-micro 5 || [ $$? = 77 ]
	$(CC) -O2 -std=gnu11 -Isrc -Iinclude bench/ifma1/slots.c $(BUILD)/libfastsm2.a -lpthread -o $(BUILD)/ifma1-slots
	./$(BUILD)/ifma1-slots 30 || [ $$? = 77 ]
	bash bench/ifma1/ab.sh $(BUILD) $(AB_ROUNDS) $(AB_SECONDS) || [ $$? = 77 ]

# cmake --install of the build above (DESTDIR is honoured); uninstall removes
# the files its install_manifest.txt lists.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

uninstall:
	cmake --build $(BUILD) --target uninstall

# C users' ways in (tests/harness/test-install.sh): build-install/.
test-install:
	bash tests/harness/test-install.sh build-install

# The paths of other platforms (tests/harness/test-portable.sh): no __int128, and
# getentropy, arc4random_buf and /dev/urandom for the OS randomness.
test-portable:
	bash tests/harness/test-portable.sh build-portable

# fastsm2 beside gmsm v0.44.0 and, given GMSSL_SRC=<GmSSL source tree>,
# GmSSL built with its assembly: one table of ratios (bench/peers/speed-peers.sh);
# then SM4 beside gmsm, GmSSL and libgcrypt (bench/peers/speed-peers-sm4.sh)
speed-peers: deps
	$(MAKE) build
	sh bench/peers/speed-peers.sh $(BUILD)
	sh bench/peers/speed-peers-sm4.sh $(BUILD)

# The SM4 half alone (docs/SM4.md's table): peers whose source is absent
# (GMSSL_SRC unset, no Go, no libgcrypt) are left out with a message
.PHONY: speed-peers-sm4
speed-peers-sm4: deps
	$(MAKE) build
	sh bench/peers/speed-peers-sm4.sh $(BUILD)

# The npm package fastsm2 (js/, docs/JS.md): the Node-API addon (linux-x64,
# and linux-arm64 cross-built) and the WebAssembly build, tested with node
# --test against sm-crypto and sm-crypto-v2, in headless Chromium, and
# packed with npm pack into an empty directory (js/tools/test.sh).
test-js:
	bash js/tools/test.sh

# addon, WebAssembly in Node and in Chromium, sm-crypto, sm-crypto-v2: one run.
bench-js:
	bash js/tools/bench.sh
.PHONY: bench-js

# Everything the targets above build or download into the tree.
clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(CLANG_BUILD) build-fuzz build-aarch64 build-cuda build-sass build-gpu-emu build-gpu-emu-asan build-gpu-sim \
	  build-hip \
	  build-python build-spark build-logs build-install build-portable build-wheel \
	  build-java-native java/target java/bench/target java/spark/target \
	  .cuda .cuda.tmp python/csrc python/build python/dist python/*.egg-info rust/target rust/fastsm2-sys/csrc

# Every target is a command, not a file (at the end, after every stage list).
.PHONY: $(TEST_ALL_STAGES) all test test-all java bench-java bench-tongsuo bench-spark-java test-openssl test-gpu-sim test-gpu-sim-brief bench-rust package-rust bench-aarch64 bench-spark seed-sweep speed speed-gmsm speed-peers bench-ifma1 fuzz format clean install uninstall

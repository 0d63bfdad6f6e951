#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-js`: build (js/tools/build.sh), then
#   1. node --test: the suite (test/suite.mjs) on the addon and on
#      WebAssembly, interop both ways with sm-crypto and sm-crypto-v2; then
#      beside it the stress tests (test/stress/: keys destroyed during
#      batches, worker_threads, a batch of 1,000,000, a synchronous key loop);
#   1b. the C library's SM4 table tests built for the SIMD WebAssembly
#      build and run in Node (test/wasm-ctests.sh: the wasm-simd table);
#   2. the linux-arm64 prebuild: what can be checked without an arm64 Node
#      (test/arm64-check.sh);
#   3. headless Chromium: the suite on WebAssembly in a page served on
#      127.0.0.1 (test/browser/run.mjs; skipped, with the reason, when
#      Chromium cannot be installed);
#   4. npm pack -> npm install in an empty directory -> the README's example
#      (test/pack.sh).
set -euo pipefail
js=$(cd "$(dirname "$0")/.." && pwd)
cd "$js"
t0=$(date +%s)
bash tools/build.sh
# The suite and the stress tests side by side (the suite is one JavaScript
# thread, the stress tests mostly child processes): on 2 cores their times
# overlap instead of adding up.
echo "== node --test: the suite (addon and WebAssembly) beside the stress tests (batches, workers, memory; child processes)"
node --test --test-concurrency=2 test/node.test.mjs test/stress.test.mjs
echo "== the C library's SM4 tests on the SIMD WebAssembly build"
bash test/wasm-ctests.sh
echo "== linux-arm64 prebuild"
bash test/arm64-check.sh
echo "== headless Chromium"
rc=0
node test/browser/run.mjs || rc=$?
if [ $rc = 77 ]; then echo "test-js: browser test SKIPPED (see above)"; elif [ $rc != 0 ]; then exit $rc; fi
echo "== npm pack, installed in an empty directory"
bash test/pack.sh
echo "test-js: passed in $(( $(date +%s) - t0 )) s"

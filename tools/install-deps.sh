#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install what `make test` / `make speed` need on a fresh Debian-like machine.
# OpenSSL: the system's libssl-dev (3.0 or later). The OpenSSL releases the
# project is tested against are 3.0.2, the system's 3.0.x (>= 3.0.13), 3.5.5
# and 4.0.3: `make test-openssl` builds those from source (cargo fetches the
# crate openssl-src; tools/openssl-build.sh) into ~/.cache/fastsm2/openssl/.
# Installs only what is missing; fails loudly when it cannot.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have cmake    || need+=(cmake)
have ninja    || need+=(ninja-build)
have cc       || need+=(gcc)
have g++      || need+=(g++)   # tests/gpu: the CUDA arithmetic as host C++
have python3  || need+=(python3)
have openssl  || need+=(openssl)
have valgrind || need+=(valgrind)
[ -f /usr/include/openssl/evp.h ]        || need+=(libssl-dev)
[ -f /usr/include/valgrind/memcheck.h ]  || need+=(valgrind)
# test_sm4_simde: the SM4 tables of CPUs with GFNI or AVX-512, emulated
[ "$(uname -m)" != x86_64 ] || [ -f /usr/include/simde/x86/gfni.h ] || need+=(libsimde-dev)
# ASan/UBSan runtimes come with gcc's libasan/libubsan.
if ! echo 'int main(void){return 0;}' | cc -x c -fsanitize=address,undefined -o /dev/null - >/dev/null 2>&1; then
  need+=(libasan8 libubsan1)
fi

if [ ${#need[@]} -gt 0 ]; then
  bash "$(dirname "$0")/apt-install.sh" install-deps "${need[@]}"
fi
# make test-all (FS2_DEPS_BACKGROUND=1): also what its background stages
# would install (hipcc; clang with libFuzzer), so that no apt runs beside
# the other stages' (the dpkg lock would refuse one of them).
if [ "${FS2_DEPS_BACKGROUND:-0}" = 1 ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  FS2_DEPS_ONLY=1 bash "$root/tests/harness/build-hip.sh"
  FS2_DEPS_ONLY=1 bash "$root/tests/harness/fuzz.sh" "$root/build-fuzz"
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run the ctest suite once per backend this CPU can run, other than the one
# chosen by default (which `make test-main` has just tested), by forcing it
# with FASTSM2_CPU. The list comes from the library itself (`fastsm2
# version --backends`), so that a new backend cannot go untested.
set -euo pipefail
BUILD=${1:-build}
default=$("$BUILD/fastsm2" version | sed -n 's/^backend: //p')
for b in $("$BUILD/fastsm2" version --backends); do
  [ "$b" = "$default" ] && continue
  got=$(FASTSM2_CPU="$b" "$BUILD/fastsm2" version | sed -n 's/^backend: //p')
  if [ "$got" != "$b" ]; then
    echo "test-backends: FASTSM2_CPU=$b selected '$got'" >&2
    exit 1
  fi
  echo "== the suite with FASTSM2_CPU=$b"
  # Not the SM4 tests (test_sm4*, ctime_sm4_trace): each walks every SM4
  # table itself, and FASTSM2_CPU only moves SM4's default (test_sm4 checks).
  # not again: the constant-time tests (their own backends), and the tests
  # whose outcome no backend changes: the repository's lint, docs, man page,
  # exports, benchmark docs, the CLI's file handling (key formats, output
  # files, stdin, the terminal, certificates and CMS: test_x509 and test_cms run again); the
  # arithmetic, protocol and OpenSSL tests all run again
  (cd "$BUILD" && FASTSM2_CPU="$b" ctest --output-on-failure -j "$(nproc)" \
    -E '^(ctime_valgrind|ctime_ifma_trace|test_lint|test_readme|test_manpage|test_exports|test_dlclose|test_speed|test_bench_docs|test_cli_keys|test_cli_outfile|test_cli_pki|test_pki_docs|test_cli_stdin|test_cli_tty|test_cli_sm4|test_sm4(_.*)?|ctime_sm4_trace)$')
done

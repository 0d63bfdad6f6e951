#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make bench-rust`: fastsm2 beside RustCrypto sm2 (sign, verify), rustls's
# ring provider (TLS 1.3 handshakes) and AES-128-GCM (SM4-GCM throughput),
# in one process run (rust/fastsm2-rustls/benches/compare.rs). Prints a
# Markdown table; BENCH_SECONDS sets each round's length (default 0.4).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v cargo >/dev/null 2>&1 || { echo "bench-rust: cargo not found"; exit 77; }
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 10 cargo bench -j "${JOBS:-2}" -p fastsm2-rustls --bench compare

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make test-rust`: the cargo workspace's tests (fastsm2-sys, fastsm2 with
# its interop tests against the sm2 crate, fastsm2-rustls's TLS 1.3
# handshakes). Crates come from crates.io into ~/.cargo (cached there);
# build output goes to rust/target (git-ignored). Exits 77 (skipped) when no
# Rust toolchain >= 1.85 is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo >/dev/null 2>&1; then
    echo "test-rust: SKIP: cargo not found (install Rust >= 1.85 with rustup)"
    exit 77
fi
ver=$(rustc --version | awk '{print $2}')
if [ "$(printf '%s\n' 1.85.0 "$ver" | sort -V | head -1)" != 1.85.0 ]; then
    echo "test-rust: SKIP: rustc $ver is older than 1.85"
    exit 77
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
JOBS=${JOBS:-2}
start=$(date +%s)
nice -n 10 cargo test -j "$JOBS" --workspace --features fastsm2/sm2 "$@"
echo "test-rust: $(( $(date +%s) - start )) s"

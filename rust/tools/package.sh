#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make package-rust`: the C sources vendored into fastsm2-sys/csrc, then
# `cargo publish --workspace --dry-run`: the three crates packaged together
# and each verified (built) from its package against the others' packages.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/vendor.sh
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target}
nice -n 10 cargo publish --workspace --dry-run -j "${JOBS:-2}" --allow-dirty

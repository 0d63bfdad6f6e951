#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copy the C sources into rust/fastsm2-sys/csrc/ (git-ignored) so that the
# packaged crate builds on its own, as python/setup.py does for the sdist:
# include/, src/ (*.c, *.h, *.txt, recursively), the table generator
# (gen_tables.py, found by name), LICENSE. build.rs prefers csrc/ when it
# holds include/fastsm2.h. Run before `cargo package` / `cargo publish`.
set -euo pipefail
RUST=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$RUST/.." && pwd)
DST=$RUST/fastsm2-sys/csrc
rm -rf "$DST"
mkdir -p "$DST/tools"
cp -r "$REPO/include" "$DST/include"
(cd "$REPO" && find src -type f \( -name '*.c' -o -name '*.h' -o -name '*.txt' \) -print0 |
    xargs -0 -I{} sh -c 'mkdir -p "$0/$(dirname "$1")" && cp "$1" "$0/$1"' "$DST" {})
gen=$(cd "$REPO" && find tools -name gen_tables.py -type f | head -1)
[ -n "$gen" ] || { echo "vendor.sh: gen_tables.py not found under tools/" >&2; exit 1; }
cp "$REPO/$gen" "$DST/tools/gen_tables.py"
cp "$REPO/LICENSE" "$DST/LICENSE"
echo "vendor.sh: $(find "$DST" -type f | wc -l) files in $DST"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copy the C sources into rust/fastsm2-sys/csrc/ (git-ignored) so that the
# packaged crate builds on its own, as python/setup.py does for the sdist:
# tools/libsources.py --vendor, the repository's one description of the
# library's build, copies what it needs (include/, src/, the generator
# programs, libsources.py itself, LICENSE). build.rs builds csrc/ when the
# crate is not inside the repository. Run before `cargo package` /
# `cargo publish` (rust/tools/package.sh does).
set -euo pipefail
RUST=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$RUST/.." && pwd)
DST=$RUST/fastsm2-sys/csrc
rm -rf "$DST"
python3 "$REPO/tools/libsources.py" --vendor "$DST"

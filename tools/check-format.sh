#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `make check-format`: every C, C++ and CUDA source in the repository is laid
# out as .clang-format says, checked with clang-format 14 (Debian 12's; other
# major versions lay some constructs out differently, so the check pins one).
# `make format` (FIX=1) rewrites the files instead of failing.
#
# usage: tools/check-format.sh            fail on the first file not formatted
#        FIX=1 tools/check-format.sh      format the files in place
set -euo pipefail
cd "$(dirname "$0")/.."
CF=""
for c in clang-format-14 clang-format; do
  if command -v "$c" >/dev/null 2>&1 && "$c" --version | grep -q 'version 14\.'; then CF=$c; break; fi
done
if [ -z "$CF" ]; then
  bash tools/apt-install.sh check-format clang-format-14
  CF=clang-format-14
fi
# Tracked sources, and new ones not yet added (git ls-files -o honours .gitignore).
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.cpp' '*.hpp' '*.cu' '*.cuh' | sort -u)
[ ${#files[@]} -gt 0 ] || { echo "check-format: no sources found" >&2; exit 1; }
if [ "${FIX:-0}" = 1 ]; then
  "$CF" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
if ! "$CF" --dry-run --Werror "${files[@]}"; then
  echo "check-format: the files above are not formatted as .clang-format says; run 'make format'" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted as .clang-format says ($("$CF" --version | sed 's/.*version //'))"

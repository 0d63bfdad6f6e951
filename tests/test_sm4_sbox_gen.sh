#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# src/sm4/sm4_sbox.h is generated: it must be what tools/gen_sm4_sbox.py
# writes now (the generator checks each form of the S-box against the
# algebraic definition before it writes anything).
set -euo pipefail
root=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
python3 "$root/tools/gen_sm4_sbox.py" >"$tmp"
if ! cmp -s "$tmp" "$root/src/sm4/sm4_sbox.h"; then
  diff -u "$root/src/sm4/sm4_sbox.h" "$tmp" | head -n 20
  echo "test_sm4_sbox_gen: src/sm4/sm4_sbox.h is not tools/gen_sm4_sbox.py's output (rerun it)" >&2
  exit 1
fi
echo "test_sm4_sbox_gen: src/sm4/sm4_sbox.h is the generator's output"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The avx512-ifma backend against the adx one on this CPU, alternating
# processes (`fastsm2 speed`, one backend a process, forced with
# FASTSM2_CPU): ROUNDS rounds of A then B, SECONDS per record; prints a
# Markdown table of the best of each and their ratio, and the median of the
# rounds' ratios. Exits 77 where the CPU cannot run both.
#   usage: bench/ifma1/ab.sh BUILD [ROUNDS] [SECONDS]
#   FS2_AB_OPS (keygen,sign,sign-digest,verify,encrypt-32,decrypt-32),
#   FS2_AB_A (adx), FS2_AB_B (avx512-ifma), FS2_AB_A_BUILD (BUILD): A's
#   fastsm2 from another build directory (an earlier commit's), its column
#   then named A@that directory
set -euo pipefail
BUILD=${1:-build}
ROUNDS=${2:-5}
SECONDS_PER=${3:-0.5}
OPS=${FS2_AB_OPS:-keygen,sign,sign-digest,verify,encrypt-32,decrypt-32}
A=${FS2_AB_A:-adx}
B=${FS2_AB_B:-avx512-ifma}
A_BUILD=${FS2_AB_A_BUILD:-$BUILD}
ANAME=$A
[ "$A_BUILD" = "$BUILD" ] || ANAME="$A@$A_BUILD"
for side in A B; do
  if [ $side = A ]; then b=$A dir=$A_BUILD; else b=$B dir=$BUILD; fi
  got=$(FASTSM2_CPU="$b" "$dir/fastsm2" version | sed -n 's/^backend: //p')
  if [ "$got" != "$b" ]; then
    echo "ab.sh: this CPU cannot run the $b backend (FASTSM2_CPU=$b selected '$got'): skipped"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq 1 "$ROUNDS"); do
  for side in A B; do
    if [ $side = A ]; then b=$A dir=$A_BUILD; else b=$B dir=$BUILD; fi
    FASTSM2_CPU="$b" "$dir/fastsm2" speed --seconds "$SECONDS_PER" --rounds 1 --ops "$OPS" --json >"$tmp/$r-$side.json"
  done
done
python3 - "$tmp" "$ROUNDS" "$OPS" "$A" "$B" "$ANAME" <<'PY'
import json, os, statistics, sys
tmp, rounds, ops, a_be, b_be, a_name = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), *sys.argv[4:7]
val = {}
cpu = "?"
for r in range(1, rounds + 1):
    for side, be in (("A", a_be), ("B", b_be)):
        d = json.load(open(os.path.join(tmp, "%d-%s.json" % (r, side))))
        cpu = d["cpu"]
        assert d["backend"] == be, (d["backend"], be)
        for x in d["results"]:
            if x["impl"] == "fastsm2":
                val.setdefault((x["op"], side), {})[r] = x["value"]
print("CPU: %s; %d alternating rounds (%s, then %s), best of each; ops/s" % (cpu, rounds, a_name, b_be))
print()
print("| op | %s | %s | %s / %s (best) | median of rounds' ratios |" % (a_name, b_be, b_be, a_name))
print("|---|---|---|---|---|")
for op in ops:
    va, vb = val[(op, "A")], val[(op, "B")]
    ratios = [vb[r] / va[r] for r in va if r in vb]
    print("| %s | %.0f | %.0f | %.2f | %.2f |" % (op, max(va.values()), max(vb.values()),
                                                 max(vb.values()) / max(va.values()), statistics.median(ratios)))
PY

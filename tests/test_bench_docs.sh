#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# docs/BENCHMARKS.md shows what its scripts make of the runs kept in the
# repository, not figures typed by hand:
#  - the table between the markers is bench/bench-table.py's output for
#    docs/benchmarks/runs/*.json, byte for byte;
#  - docs/benchmarks/chart.svg is bench/bench-chart.py's output for them;
#  - both scripts refuse what they cannot use, and the chart script draws
#    a peer it has never seen a run of (a GmSSL column) from the same JSON.
#
# usage: test_bench_docs.sh [BUILD_DIR]     (prints "N passed, N failed")
set -uo pipefail

SRC=${FASTSM2_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
. "$(dirname "$0")/shlib.sh"
cd "$SRC" || exit 1
PY=${PYTHON:-python3}
runs=$(ls docs/benchmarks/runs/*.json 2>/dev/null)
[ -n "$runs" ] && ok || bad "no runs in docs/benchmarks/runs"

# the table
# shellcheck disable=SC2086
if $PY bench/bench-table.py $runs >"$T/table.md" 2>"$T/table.err"; then
    ok
    sed -n '/^<!-- bench\/bench-table.py docs\/benchmarks\/runs\/\*.json -->$/,/^<!-- end of the generated table -->$/p' \
        docs/BENCHMARKS.md | sed '1d;$d' >"$T/doc.md"
    if cmp -s "$T/table.md" "$T/doc.md"; then
        ok
    else
        bad "docs/BENCHMARKS.md's table is not bench/bench-table.py's output for docs/benchmarks/runs:"
        diff "$T/table.md" "$T/doc.md" | head -20 >&2
    fi
else
    bad "bench/bench-table.py failed: $(cat "$T/table.err")"
fi

# the chart
# shellcheck disable=SC2086
if $PY bench/bench-chart.py -o "$T/chart.svg" $runs 2>"$T/chart.err"; then
    ok
    cmp -s "$T/chart.svg" docs/benchmarks/chart.svg && ok ||
        bad "docs/benchmarks/chart.svg is not bench/bench-chart.py's output for docs/benchmarks/runs (regenerate it)"
    grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$T/chart.svg" && ok || bad "the chart is not an SVG"
    # well-formed XML (an SVG viewer refuses anything else)
    $PY -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/chart.svg" && ok ||
        bad "the chart is not well-formed XML"
else
    bad "bench/bench-chart.py failed: $(cat "$T/chart.err")"
fi

# a peer the scripts have never seen: its bars and its column, from its JSON
first=$(echo "$runs" | head -n 1)
$PY - "$first" "$T/peer.json" <<'PY' && ok || bad "could not make a peer run"
import json, sys
run = json.load(open(sys.argv[1]))
res = [{"impl": "gmssl", "op": r["op"], "value": r["value"] / 3, "unit": r["unit"]}
       for r in run["results"] if r["impl"] == "fastsm2" and r["op"] in ("sign", "verify")]
json.dump({"impl": "gmssl", "version": "test", "results": res}, open(sys.argv[2], "w"))
PY
$PY bench/bench-table.py "$first" "$T/peer.json" >"$T/peer.md" 2>&1 &&
    grep -q '| GmSSL |' "$T/peer.md" && grep -qE '^\| sign \|.*\| 3\.00 \|$' "$T/peer.md" && ok ||
    bad "no GmSSL column with its ratio: $(head -5 "$T/peer.md")"
$PY bench/bench-chart.py "$first" "$T/peer.json" >"$T/peer.svg" 2>&1 && grep -q '>GmSSL<' "$T/peer.svg" && ok ||
    bad "no GmSSL bars in the chart"

# refusals
$PY bench/bench-table.py "$T/peer.json" >/dev/null 2>&1
[ $? -ne 0 ] && ok || bad "bench-table.py accepted peers without a fastsm2 speed run"
$PY bench/bench-chart.py --ops nosuchop "$first" >/dev/null 2>&1
[ $? -ne 0 ] && ok || bad "bench-chart.py drew a chart of no operation"

finish test_bench_docs

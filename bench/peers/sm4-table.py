#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The SM4 table of docs/SM4.md from runs of `fastsm2 speed --sm4 --json`
and of the peer programs of bench/peers/speed-peers-sm4.sh (the same JSON
shape: "impl" gmsm, gmssl, libgcrypt), so that no figure is typed by hand.

usage: bench/peers/sm4-table.py [--size N] RUN.json...

--size N keeps the rows of N bytes only (docs/BENCHMARKS.md: 16384).

Each (implementation, operation) keeps its best figure over the runs.
fastsm2's ratio to OpenSSL's SM4 and to OpenSSL's AES-128 is taken within
each `fastsm2 speed --sm4` run (the three alternate in one process) and
the median printed; the peers, separate processes run in turn with it,
are compared best against best, as the fastest of them ("best peer").
MB/s, 10^6 bytes.
"""
import json
import statistics
import sys

MODES = ["ecb", "cbc-enc", "cbc-dec", "ctr", "gcm-enc", "gcm-dec", "ccm", "xts"]
SIZES = [64, 1024, 16384]
PEERS = [("gmsm", "gmsm"), ("gmssl", "GmSSL"), ("libgcrypt", "libgcrypt")]


def fmt(v):
    return "" if v is None else ("{:,.0f}".format(v) if v >= 1000 else "{:.1f}".format(v))


def main():
    args = sys.argv[1:]
    sizes = SIZES
    if len(args) >= 2 and args[0] == "--size":
        sizes = [int(args[1])]
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    runs = []
    for path in args:
        with open(path) as f:
            run = json.load(f)
        if not isinstance(run.get("results"), list):
            sys.exit("sm4-table: %s: no results" % path)
        runs.append(run)
    best = {}
    for run in runs:
        for r in run["results"]:
            k = (r["impl"], r["op"])
            best[k] = max(best.get(k, 0), r["value"])
    if not any(k[0] == "fastsm2" for k in best):
        sys.exit("sm4-table: no fastsm2 run among the files")
    peers = [(p, name) for p, name in PEERS if any(k[0] == p for k in best)]

    def median_ratio(op, impl):
        vals = []
        for run in runs:
            d = {(r["impl"], r["op"]): r["value"] for r in run["results"]}
            a, b = d.get(("fastsm2", op)), d.get((impl, op))
            if a and b:
                vals.append(a / b)
        return "%.2f" % statistics.median(vals) if vals else ""

    fs_runs = [r for r in runs if any(x["impl"] == "fastsm2" for x in r["results"])]
    first = fs_runs[0]
    line = "backend `%s`, %s" % (first.get("sm4_backend", "?"), first.get("openssl_version", "OpenSSL ?"))
    for p, name in peers:
        pr = next(r for r in runs if r.get("impl") == p)
        ver = pr.get("version")
        line += ", %s%s" % (name, " " + ver if ver else "")
    line += "; %d runs of %s slice(s) of %s s per record, each side its best; ratios to OpenSSL: the median of " \
        "each run's, to the best peer: best against best; MB/s (10^6 bytes)" % (
            len(fs_runs), first.get("rounds", "?"), first.get("seconds", "?"))
    print(line + "\n")
    head = ["op", "fastsm2", "OpenSSL SM4", "OpenSSL AES-128"] + [n for _, n in peers] + \
        ["fastsm2 / OpenSSL SM4", "fastsm2 / best peer", "fastsm2 / AES-128"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    for m in MODES:
        for n in sizes:
            op = "sm4-%s-%d" % (m, n)
            fs = best.get(("fastsm2", op))
            if fs is None:
                continue
            pv = [best.get((p, op)) for p, _ in peers]
            top = max([v for v in pv if v] or [0])
            cells = [op, fmt(fs), fmt(best.get(("openssl", op))), fmt(best.get(("openssl-aes128", op)))]
            cells += [fmt(v) for v in pv]
            cells += [median_ratio(op, "openssl"), "%.2f" % (fs / top) if top else "",
                      median_ratio(op, "openssl-aes128")]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

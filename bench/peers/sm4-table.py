#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The SM4 table of docs/SM4.md from runs of `fastsm2 speed --sm4 --json`
and of the peer programs of bench/peers/speed-peers-sm4.sh (the same JSON
shape: "impl" gmsm, gmssl, libgcrypt), so that no figure is typed by hand.

usage: bench/peers/sm4-table.py RUN.json...

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
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    runs = []
    for path in sys.argv[1:]:
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

    head = ["op", "fastsm2", "OpenSSL SM4", "OpenSSL AES-128"] + [n for _, n in peers] + \
        ["fastsm2 / OpenSSL SM4", "fastsm2 / best peer", "fastsm2 / AES-128"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    for m in MODES:
        for n in SIZES:
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

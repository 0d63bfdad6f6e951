#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables for docs/BENCHMARKS.md from one `fastsm2-speed --json` run
(read from a file or stdin), so that every figure and ratio in the document is
copied by a program from one run, never by hand.

usage: tools/bench-table.py RUN.json
       tools/bench-table.py --gmsm FASTSM2.json... -- GMSM.json...
The second form (tools/speed-gmsm.sh) takes alternating runs of `fastsm2
speed --json` and tools/gmsm-speed, keeps each implementation's best figure
per operation and sets fastsm2 beside gmsm.
"""
import json
import sys

# op -> the P-256 op it is compared with
P256 = {"keygen": "keygen", "sign": "sign", "verify": "verify",
        "sign-digest": "sign", "verify-digest": "verify"}
# op -> another fastsm2 op of the same run it is compared with, and a label
SAME_RUN = {
    "kdf-1024": ("fastsm2", "kdf-1024-scalar", "scalar KDF"),
    "kdf-4096": ("fastsm2", "kdf-4096-scalar", "scalar KDF"),
    "encrypt-4096": ("fastsm2", "encrypt-4096-scalar-kdf", "the same with the scalar KDF"),
    "decrypt-4096": ("fastsm2", "decrypt-4096-scalar-kdf", "the same with the scalar KDF"),
    "encrypt-32": ("openssl-p256", "verify", "OpenSSL P-256 verify"),
    "decrypt-32": ("openssl-p256", "verify", "OpenSSL P-256 verify"),
}


def fmt(v):
    return "" if v is None else ("{:,.0f}".format(v) if v >= 1000 else "{:.1f}".format(v))


def best_of(paths):
    """(impl, op) -> the best record over the runs, and the first run."""
    best, first = {}, None
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        first = first or run
        for r in run["results"]:
            k = (r["impl"], r["op"])
            if k not in best or r["value"] > best[k]["value"]:
                best[k] = r
    return best, first


def gmsm_table(args):
    if "--" not in args or args.index("--") == 0 or args[-1] == "--":
        sys.exit("usage: tools/bench-table.py --gmsm FASTSM2.json... -- GMSM.json...")
    cut = args.index("--")
    fs_rec, run = best_of(args[:cut])
    gm_rec, gm_run = best_of(args[cut + 1:])
    print("%s, backend `%s`, fastsm2 %s, gmsm %s (Go %s), %s; best of %d alternating runs per side, "
          "%.1f s each\n" % (run["cpu"], run["backend"], run["fastsm2_version"], gm_run.get("version", "?"),
                              gm_run.get("go", "?"), run["openssl_version"], len(args[:cut]), run["seconds"]))
    print("| op | unit | fastsm2 | gmsm | OpenSSL SM2 | fastsm2 / gmsm | fastsm2 / OpenSSL SM2 |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in gm_run["results"]:
        op = r["op"]
        fs, gm, os_ = fs_rec.get(("fastsm2", op)), gm_rec.get(("gmsm", op)), fs_rec.get(("openssl", op))
        if not fs or not gm:
            continue
        print("| %s | %s | %s | %s | %s | %.2f | %s |" % (
            op, fs["unit"], fmt(fs["value"]), fmt(gm["value"]), fmt(os_["value"]) if os_ else "",
            fs["value"] / gm["value"], "%.2f" % (fs["value"] / os_["value"]) if os_ else ""))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--gmsm":
        return gmsm_table(sys.argv[2:])
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    run = json.load(src)
    rec = {(r["impl"], r["op"]): r for r in run["results"]}
    ops = []
    for r in run["results"]:
        if r["impl"] == "fastsm2" and r["op"] not in ops:
            ops.append(r["op"])
    print("%s, backend `%s`, %s, fastsm2 %s; best of %d slices, %.1f s per record\n"
          % (run["cpu"], run["backend"], run["openssl_version"], run["fastsm2_version"], run["rounds"],
             run["seconds"]))
    print("| op | unit | fastsm2 | OpenSSL SM2 | OpenSSL P-256 | / OpenSSL SM2 | / P-256 | other comparison (same run) |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for op in ops:
        fs = rec[("fastsm2", op)]
        v = fs["value"]
        os_ = rec.get(("openssl", op))
        p = rec.get(("openssl-p256", P256[op])) if op in P256 else None
        other = ""
        if op in SAME_RUN:
            impl, o, label = SAME_RUN[op]
            ref = rec.get((impl, o))
            if ref:
                other = "%.2fx %s (%s %s)" % (v / ref["value"], label, fmt(ref["value"]), ref["unit"])
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            op, fs["unit"], fmt(v), fmt(os_["value"]) if os_ else "", fmt(p["value"]) if p else "",
            "%.2f" % (v / os_["value"]) if os_ else "", "%.2f" % (v / p["value"]) if p else "", other))
    if run.get("failures"):
        print("\nFAILED checks: %s" % run["failures"])


if __name__ == "__main__":
    main()

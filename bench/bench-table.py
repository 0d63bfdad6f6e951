#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown tables for docs/BENCHMARKS.md from `fastsm2 speed --json` runs,
so that every figure and ratio in the document is copied by a program, never
by hand.

usage: bench/bench-table.py RUN.json... [PEER.json...]
       bench/bench-table.py --gmsm FASTSM2.json... -- GMSM.json...

The first form reads any number of `fastsm2 speed --json` runs and of peer
runs in the same format (bench/peers/gmsm-speed --json: "impl": "gmsm"; a GmSSL
tool writing "impl": "gmssl" gets its column the same way), keeps the best
figure of each (implementation, operation) over the runs, and prints one
table: fastsm2, OpenSSL's SM2, OpenSSL's ECDSA P-256 and each peer, with
fastsm2's ratio to each. Every `fastsm2 speed` run alternates fastsm2 and
OpenSSL slice by slice inside one process, so a ratio to OpenSSL is taken
within each run and the median over the runs is printed; peers run as
separate processes in turn with it (bench/peers/speed-gmsm.sh), so their ratios
are best against best.

The second form (bench/peers/speed-gmsm.sh) sets fastsm2 beside gmsm alone.
"""
import json
import statistics
import sys

# op -> the P-256 op it is compared with
P256 = {"keygen": "keygen", "sign": "sign", "verify": "verify",
        "sign-digest": "sign", "verify-digest": "verify"}
# op -> another record of the same run it is compared with, and a label
# (the internal rows of `fastsm2 speed --all`)
SAME_RUN = {
    "kdf-1024": ("fastsm2", "kdf-1024-scalar", "scalar KDF"),
    "kdf-4096": ("fastsm2", "kdf-4096-scalar", "scalar KDF"),
}
PEER_NAMES = {"gmsm": "gmsm", "gmssl": "GmSSL"}


def fmt(v):
    return "" if v is None else ("{:,.0f}".format(v) if v >= 1000 else "{:.1f}".format(v))


def ratio(a, b):
    return "%.2f" % (a["value"] / b["value"]) if a and b and b["value"] > 0 else ""


def median_ratio(runs, op, impl, op2):
    """fastsm2's op against impl's op2, within each run; the median."""
    vals = []
    for run in runs:
        d = {(r["impl"], r["op"]): r["value"] for r in run["results"]}
        a, b = d.get(("fastsm2", op)), d.get((impl, op2))
        if a and b:
            vals.append(a / b)
    return "%.2f" % statistics.median(vals) if vals else ""


def load(path):
    with open(path) as f:
        run = json.load(f)
    if "impl" in run:  # a peer's tool names itself at the top
        for r in run["results"]:
            r.setdefault("impl", run["impl"])
    return run


def best_of(paths):
    """(impl, op) -> the best record over the runs; the runs."""
    best, runs = {}, []
    for path in paths:
        run = load(path)
        runs.append(run)
        for r in run["results"]:
            k = (r["impl"], r["op"])
            if k not in best or r["value"] > best[k]["value"]:
                best[k] = r
    return best, runs


def gmsm_table(args):
    if "--" not in args or args.index("--") == 0 or args[-1] == "--":
        sys.exit("usage: bench/bench-table.py --gmsm FASTSM2.json... -- GMSM.json...")
    cut = args.index("--")
    fs_rec, runs = best_of(args[:cut])
    gm_rec, gm_runs = best_of(args[cut + 1:])
    run, gm_run = runs[0], gm_runs[0]
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
            fs["value"] / gm["value"], ratio(fs, os_)))


def main():
    args = sys.argv[1:]
    if args and args[0] == "--gmsm":
        return gmsm_table(args[1:])
    if not args or any(a.startswith("-") for a in args):
        sys.exit(__doc__.split("\n\n")[1])
    rec, runs = best_of(args)
    speed = [r for r in runs if "cpu" in r]
    if not speed:
        sys.exit("bench-table: no `fastsm2 speed --json` run among the files")
    peers = []
    for r in runs:
        impl = r.get("impl")
        if impl and impl not in peers:
            peers.append(impl)
    run = speed[0]
    line = "%s, backend `%s`, %s, fastsm2 %s" % (run["cpu"], run["backend"], run["openssl_version"],
                                                 run["fastsm2_version"])
    for p in peers:
        pr = next(r for r in runs if r.get("impl") == p)
        line += ", %s %s%s" % (PEER_NAMES.get(p, p), pr.get("version", "?"),
                               " (Go %s)" % pr["go"] if "go" in pr else "")
    print("%s; best of %d runs of %d slices, %.1f s per record%s; ratios to OpenSSL: the median of each "
          "run's%s\n" % (line, len(speed), run["rounds"], run["seconds"], "; peers in turn with them" if peers else "",
                        ", to peers: best against best" if peers else ""))

    ops = []
    for r in run["results"]:
        if r["impl"] == "fastsm2" and r["op"] not in ops:
            ops.append(r["op"])
    other = any(op in SAME_RUN and rec.get(SAME_RUN[op][:2]) for op in ops)
    head = ["op", "unit", "fastsm2", "OpenSSL SM2", "OpenSSL P-256"] + [PEER_NAMES.get(p, p) for p in peers]
    head += ["/ OpenSSL SM2", "/ P-256"] + ["/ " + PEER_NAMES.get(p, p) for p in peers]
    if other:
        head.append("other comparison (same run)")
    print("| " + " | ".join(head) + " |")
    print("|---|---|" + "---:|" * (len(head) - 2 - (1 if other else 0)) + ("---|" if other else ""))
    for op in ops:
        fs = rec[("fastsm2", op)]
        os_ = rec.get(("openssl", op))
        p = rec.get(("openssl-p256", P256[op])) if op in P256 else None
        cells = [op, fs["unit"], fmt(fs["value"]), fmt(os_["value"]) if os_ else "", fmt(p["value"]) if p else ""]
        cells += [fmt(rec[(q, op)]["value"]) if (q, op) in rec else "" for q in peers]
        cells += [median_ratio(speed, op, "openssl", op) if os_ else "",
                  median_ratio(speed, op, "openssl-p256", P256[op]) if p else ""]
        cells += [ratio(fs, rec.get((q, op))) for q in peers]
        if other:
            ref = rec.get(SAME_RUN[op][:2]) if op in SAME_RUN else None
            cells.append("%.2fx %s (%s %s)" % (fs["value"] / ref["value"], SAME_RUN[op][2], fmt(ref["value"]),
                                               ref["unit"]) if ref else "")
        print("| " + " | ".join(cells) + " |")
    failures = [f for r in speed for f in r.get("failures", [])]
    if failures:
        print("\nFAILED checks: %s" % failures)
    not_run = {(n["op"], n["why"]) for r in speed for n in r.get("not_run", []) if n["impl"] == "fastsm2"}
    for op, why in sorted(not_run):
        print("\n%s: not run (%s)" % (op, why))


if __name__ == "__main__":
    main()

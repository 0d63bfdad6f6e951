#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare the per-operation trace hashes of tests/harness/arm-ctime/trace_driver.c
(run under qemu with tests/harness/arm-ctime/tracehash.c) across its secret sets.

  trace_compare.py DRIVER_STDOUT PLUGIN_LOG

Every operation but the positive controls must have one hash for all the
sets (the warm-up pass, set -1, is left out); each positive control must
have more than one. Prints a table, one line per operation; exit status 1
on any failure, and for the first operation that differs, the two
segments to dump ("diverge OP SEG_A SEG_B") for trace.sh.
"""
import sys

CONTROLS = ("verify", "planted-branch", "planted-load")


def main():
    drv, log = sys.argv[1], sys.argv[2]
    ops = []  # (index, name, set)
    backend = "?"
    for line in open(drv):
        f = line.split()
        if f and f[0] == "backend":
            backend = f[1]
        if len(f) == 4 and f[0] == "op":
            ops.append((int(f[1]), f[2], int(f[3])))
    segs = {}
    for line in open(log):
        f = line.split()
        if len(f) == 5 and f[0] == "seg":
            segs[int(f[1])] = (int(f[2]), int(f[3]), f[4])
    if not ops:
        print("trace_compare: no operations in the driver's output")
        return 1
    # operation i is segment 2 i + 1; every operation is followed by a glue
    # segment, and the driver's last mark ends the last one
    want = 2 * len(ops) + 2
    if len(segs) != want:
        print(f"trace_compare: {len(segs)} segments in the plugin's log, expected {want}")
        return 1
    by_op = {}
    for i, name, s in ops:
        if s < 0:
            continue
        by_op.setdefault(name, []).append((s, 2 * i + 1, segs[2 * i + 1]))
    failed = []
    diverge = None
    print(f"backend {backend}: {len(set(s for _, _, s in ops if s >= 0))} secret sets")
    print(f"{'operation':<16} {'blocks':>9} {'loads+stores':>13}  distinct traces")
    for name, rows in by_op.items():
        hashes = {}
        for s, seg, (nb, nm, h) in rows:
            hashes.setdefault(h, []).append((s, seg, nb, nm))
        nbs = sorted(set(r[2][0] for r in rows))
        nms = sorted(set(r[2][1] for r in rows))
        fmt = lambda v: str(v[0]) if len(v) == 1 else f"{v[0]}-{v[-1]}"
        control = name in CONTROLS
        ok = len(hashes) > 1 if control else len(hashes) == 1
        what = "must differ (positive control)" if control else "must be 1"
        print(f"{name:<16} {fmt(nbs):>9} {fmt(nms):>13}  {len(hashes)} ({what}){'' if ok else '  FAILED'}")
        if not ok:
            failed.append(name)
            if not control and diverge is None:
                groups = list(hashes.values())
                a, b = groups[0][0], groups[1][0]
                detail = ", ".join(f"sets {sorted(x[0] for x in g)}" for g in groups)
                print(f"  {name}: traces by set: {detail}")
                diverge = (name, a[1], b[1])
    for name in CONTROLS:
        if name not in by_op:
            print(f"trace_compare: positive control {name} missing")
            failed.append(name)
    if diverge:
        print("diverge %s %d %d" % diverge)
    if failed:
        print(f"trace_compare: FAILED: {' '.join(failed)}")
        return 1
    print(f"trace_compare: {backend}: {len(by_op) - len(CONTROLS)} operations constant-trace, "
          f"{len(CONTROLS)} positive controls differ")
    return 0


if __name__ == "__main__":
    sys.exit(main())

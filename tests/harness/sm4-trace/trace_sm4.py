#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Constant time of the SM4 tables that valgrind cannot run (VAES and
VPCLMULQDQ on YMM, GFNI, AVX-512: tests/ctime covers generic and
avx2-aesni), checked by tracing, with the tracer of
tests/harness/ifma-trace/trace.py.

usage: trace_sm4.py TARGET [SETS]

TARGET is tests/ctime/sm4_trace_target.c's program. For every SM4 table
this CPU can run but the portable one (`TARGET list`), it single-steps
`TARGET run:TABLE SEED` for SETS secret sets (default 3: keys, plaintexts
and a GCM IV whose J0 is secret) between the program's two SIGSTOP
markers (every SM4 call: key schedule, ECB, CBC with its unpadding, CTR,
CFB, GCM one-shot and streaming with a good and a bad tag, CCM, XTS both
ways), recording each instruction's address and the address its memory
operand touches. A table's traces must be identical over the sets. The
planted control, `TARGET control SEED` (a table read at a secret index),
must give different traces, or the tracer would be blind. Exit 0 when all
hold, 1 when not, 77 when ptrace is not allowed here.
"""
import concurrent.futures
import importlib.util
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("ifma_trace", os.path.join(here, "..", "ifma-trace", "trace.py"))
tracer = importlib.util.module_from_spec(spec)
sys.modules["ifma_trace"] = tracer  # the worker processes find trace() by this name
spec.loader.exec_module(tracer)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = sys.argv[1]
    sets = max(2, int(sys.argv[2]) if len(sys.argv) == 3 else 3)
    tables = [t for t in subprocess.run([binary, "list"], check=True, capture_output=True,
                                        text=True).stdout.split() if t != "generic"]
    ops = tracer.operands(binary)
    first = tracer.trace(binary, ops, "control", 1)
    if first[0] is None and first[2] and "did not start" in first[2][0]:
        print("sm4-trace: ptrace is not allowed here, skipped")
        return 77
    seeds = [1, 0xdeadbeef, 12345678901, 2 ** 63 + 5, 77, 78][:sets]
    jobs = [("run:" + t, s) for t in tables for s in seeds] + [("control", 2)]
    workers = int(os.environ.get("FS2_IFMA_TRACE_JOBS", os.cpu_count() or 1))
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        futs = {job: pool.submit(tracer.trace, binary, ops, job[0], job[1]) for job in jobs}
        results = {job: f.result() for job, f in futs.items()}
    results[("control", 1)] = first
    failed = 0
    for t in tables:
        digests = set()
        for s in seeds:
            digest, steps, problems = results[("run:" + t, s)]
            digests.add(digest)
            print("%-12s seed %-20d %s  %d instructions%s" % (t, s, digest[:16] if digest else "-", steps,
                                                             ("  " + "; ".join(problems[:3])) if problems else ""))
            failed |= bool(problems) or digest is None or steps < 1000
        same = len(digests) == 1
        print("sm4-trace: %s: %s over %d secret sets" % (t, "identical traces" if same else "TRACES DIFFER", len(seeds)))
        failed |= not same
    if not tables:
        print("sm4-trace: no SM4 table but the portable one runs here (valgrind covers that one)")
    control = {results[("control", s)][0] for s in (1, 2)}
    blind = len(control) < 2
    print("sm4-trace: planted control (a table read at a secret index): %s" %
          ("traces differ, as they must" if not blind else "TRACES AGREE: the tracer is blind"))
    failed |= blind
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

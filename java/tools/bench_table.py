# SPDX-License-Identifier: Apache-2.0
"""The tables of java/tools/bench.sh from one directory: JMH results
(jmh-t1.json: SM2Bench and SM4Bench), ops per thread-CPU second of the C
library (cpu-c1.txt, cpu-c2.txt: "op value") and of the providers
(cpu-java1.txt, cpu-java2.txt: "impl op value"), and the older method's
figures when present (cpu-legacy.txt), as markdown."""
import json
import os
import sys

d = sys.argv[1]


def jmh(path):
    out = {}
    if os.path.exists(path):
        for r in json.load(open(path)):
            name = r["benchmark"].rsplit(".", 1)[1]
            size = r.get("params", {}).get("size")
            out[name + ("-" + size if size else "")] = r["primaryMetric"]["score"]
    return out


def lines(path, impl_col):
    res = {}
    if os.path.exists(path):
        for line in open(path):
            if line.startswith("#"):
                continue
            p = line.split()
            key = (p[0], p[1]) if impl_col else ("c", p[0])
            res.setdefault(key, []).append(float(p[-1]))
    return res


def f(v):
    return "" if v is None else ("%.1f" % v if v < 1000 else "{:,.0f}".format(v))


def ratio(a, b):
    return "%.1fx" % (a / b) if a and b else ""


t1 = jmh(os.path.join(d, "jmh-t1.json"))
cpu = {}
r = 1
while os.path.exists(os.path.join(d, "cpu-c%d.txt" % r)):
    for k, v in list(lines(os.path.join(d, "cpu-c%d.txt" % r), False).items()) + \
            list(lines(os.path.join(d, "cpu-java%d.txt" % r), True).items()):
        cpu.setdefault(k, []).extend(v)
    r += 1
rounds = r - 1


def mean(k):
    """The median of the runs (each Java run is itself the mean of two turns)."""
    v = sorted(cpu.get(k) or [])
    if not v:
        return None
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


info = ""
p = os.path.join(d, "cpu-java1.txt")
if os.path.exists(p):
    info = " ".join(l[2:].strip() for l in open(p) if l.startswith("# "))
print("%s; JDK: %s; BouncyCastle 1.87; a shared, loaded machine: compare the ratios within a table, not the rates"
      " across tables." % (info, os.popen("java -version 2>&1 | head -n 1").read().strip()))
# (label, JMH fastsm2, JMH bc, cpu op, MB per op or None)
sm2 = [("sign", "sign_fastsm2", "sign_bc_reused", "sign", None),
       ("verify", "verify_fastsm2", "verify_bc_reused", "verify", None),
       ("encrypt-32", "encrypt32_fastsm2", "encrypt32_bc", "encrypt-32", None),
       ("decrypt-32", "decrypt32_fastsm2", "decrypt32_bc", "decrypt-32", None),
       ("keygen", "keygen_fastsm2", "keygen_bc", "keygen", None),
       ("SM3 8 KiB (MB/s)", "sm3_8192_fastsm2", "sm3_8192_bc", "sm3-8192", 8192 / 1e6)]
sm4 = []
for size in ("1024", "16384"):
    kib = "1 KiB" if size == "1024" else "16 KiB"
    for m, op in (("GCM", "gcm"), ("CBC", "cbc")):
        for dir_, o in (("encrypt", "enc"), ("decrypt", "dec")):
            sm4.append(("SM4-%s %s %s (MB/s)" % (m, dir_, kib), "%s_%s_fastsm2-%s" % (op, dir_, size),
                        "%s_%s_bc-%s" % (op, dir_, size), "sm4-%s-%s-%s" % (op, o, size), int(size) / 1e6))
print()
print("JMH, 1 thread, ops/s of wall-clock time (MB/s where marked):")
print()
print("| operation | FastSM2 | BouncyCastle | FastSM2 / BC |")
print("|---|---:|---:|---:|")
for label, a, b, _, scale in sm2 + sm4:
    x, y = t1.get(a), t1.get(b)
    if x is None:
        continue
    if scale:
        x, y = x * scale, (y * scale if y else None)
    print("| %s | %s | %s | %s |" % (label, f(x), f(y), ratio(x, y)))
for label, a, b in [("sign, a Signature made and initialised per call with BC's key (Hutool's pattern)",
                     "sign_fastsm2_hutool", "sign_bc_hutool")]:
    if a in t1 and b in t1:
        print()
        print("%s: FastSM2 %s ops/s, %.1fx BouncyCastle's same pattern." % (label, f(t1[a]), t1[a] / t1[b]))
if cpu:
    print()
    print("Ops per CPU second of the thread that runs them (C, Java, C, Java ... %d times alternated; the median;"
          " in each Java run both providers warmed up the same way before either is measured, then taking turns):"
          % rounds)
    print()
    print("| operation | FastSM2 (Java) | BouncyCastle | FastSM2 / BC | C library | Java / C |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, _, _, op, scale in sm2 + sm4:
        a, b, c = mean(("fastsm2", op)), mean(("bc", op)), mean(("c", op))
        if a is None:
            continue
        if scale:
            a, b, c = [x * scale if x is not None else None for x in (a, b, c)]
        print("| %s | %s | %s | %s | %s | %s |" % (label, f(a), f(b), ratio(a, b), f(c),
                                                 "%.1f%%" % (100 * a / c) if a and c else ""))
leg = lines(os.path.join(d, "cpu-legacy.txt"), True)
if leg:
    print()
    print("The older method (the process's CPU clock, JIT and GC threads included; 0.25 s of warm-up):")
    print()
    print("| operation | FastSM2 | BouncyCastle | FastSM2 / BC |")
    print("|---|---:|---:|---:|")
    for op in ("sign", "verify"):
        a, b = leg.get(("fastsm2", op), [None])[0], leg.get(("bc", op), [None])[0]
        print("| %s | %s | %s | %s |" % (op, f(a), f(b), ratio(a, b)))

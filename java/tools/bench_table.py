# SPDX-License-Identifier: Apache-2.0
"""The table of java/tools/bench.sh: JMH results (jmh-t1.json, jmh-t2.json)
and `fastsm2 speed --json` (c1.json, c2.json: before and after the 1-thread
JMH run) from one directory, as markdown with the ratios of the goals."""
import json
import os
import sys

d = sys.argv[1]


def jmh(path):
    if not os.path.exists(path):
        return {}
    out = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[1]
        out[name] = r["primaryMetric"]["score"]
    return out


def cspeed(path):
    res = {}
    for r in json.load(open(path))["results"]:
        if r["impl"] == "fastsm2":
            res[r["op"]] = r["value"]
    return res


t1, t2 = jmh(os.path.join(d, "jmh-t1.json")), jmh(os.path.join(d, "jmh-t2.json"))
c1, c2 = cspeed(os.path.join(d, "c1.json")), cspeed(os.path.join(d, "c2.json"))
cpu = json.load(open(os.path.join(d, "c1.json"))).get("cpu", "?")
backend = json.load(open(os.path.join(d, "c1.json"))).get("backend", "?")

rows = [  # label, fastsm2 bench, BC reused, BC hutool, C op, scale (MB/s)
    ("sign", "sign_fastsm2", "sign_bc_reused", "sign_bc_hutool", "sign", None),
    ("verify", "verify_fastsm2", "verify_bc_reused", "verify_bc_hutool", "verify", None),
    ("encrypt-32", "encrypt32_fastsm2", "encrypt32_bc", None, "encrypt-32", None),
    ("decrypt-32", "decrypt32_fastsm2", "decrypt32_bc", None, "decrypt-32", None),
    ("keygen", "keygen_fastsm2", "keygen_bc", None, "keygen", None),
    ("SM3 8 KiB (MB/s)", "sm3_8192_fastsm2", "sm3_8192_bc", None, "sm3-8192", 8192 / 1e6),
]


def f(v):
    return "" if v is None else ("%.1f" % v if v < 1000 else "{:,.0f}".format(v))


print("CPU: %s, backend %s; JDK: %s; BouncyCastle 1.87. ops/s unless marked; a shared, loaded machine: "
      "ratios within one run are what count." % (cpu, backend, os.popen("java -version 2>&1 | head -n 1").read().strip()))
print()
print("| 1 thread | FastSM2 (Java) | BC reused | BC per-call init (Hutool) | FastSM2 / BC reused | FastSM2 / BC Hutool "
      "| C `fastsm2 speed` (before, after) | Java / C |")
print("|---|---|---|---|---|---|---|---|")
for label, fs, bc, hu, cop, scale in rows:
    a = t1.get(fs)
    b = t1.get(bc)
    h = t1.get(hu) if hu else None
    if scale and a is not None:
        a, b = a * scale, (b * scale if b is not None else None)
    cv = [c.get(cop) for c in (c1, c2) if c.get(cop) is not None]
    cm = sum(cv) / len(cv) if cv else None
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        label, f(a), f(b), f(h),
        "%.1fx" % (a / b) if a and b else "", "%.1fx" % (a / h) if a and h else "",
        ", ".join(f(x) for x in cv), "%.0f%%" % (100 * a / cm) if a and cm else ""))
if t2:
    print()
    print("| 2 threads (one key shared) | FastSM2 (Java) | BC reused | FastSM2 / BC | FastSM2 2 threads / 1 thread |")
    print("|---|---|---|---|---|")
    for label, fs, bc, hu, cop, scale in rows:
        a, b = t2.get(fs), t2.get(bc)
        a1 = t1.get(fs)
        if scale and a is not None:
            a, b, a1 = a * scale, (b * scale if b else None), (a1 * scale if a1 else None)
        print("| %s | %s | %s | %s | %s |" % (label, f(a), f(b), "%.1fx" % (a / b) if a and b else "",
                                              "%.2f" % (a / a1) if a and a1 else ""))
# ops per CPU second: cpu-c{1,2}.txt ("op value"), cpu-java{1,2}.txt ("impl op value")
cpu = {}
for r in (1, 2):
    pc, pj = os.path.join(d, "cpu-c%d.txt" % r), os.path.join(d, "cpu-java%d.txt" % r)
    if not (os.path.exists(pc) and os.path.exists(pj)):
        continue
    for line in open(pc):
        op, v = line.split()
        cpu.setdefault(("c", op), []).append(float(v))
    for line in open(pj):
        impl, op, v = line.split()
        cpu.setdefault((impl, op), []).append(float(v))
if cpu:
    def mean(k):
        v = cpu.get(k)
        return sum(v) / len(v) if v else None
    print()
    print("| ops per CPU second, 1 thread (C, Java, C, Java alternated; mean of 2) | FastSM2 (Java) | BC reused "
          "| FastSM2 / BC | C library | Java / C |")
    print("|---|---|---|---|---|---|")
    for label, op, scale in [("sign", "sign", None), ("verify", "verify", None), ("encrypt-32", "encrypt-32", None),
                             ("decrypt-32", "decrypt-32", None), ("keygen", "keygen", None),
                             ("SM3 8 KiB (MB/s)", "sm3-8192", 8192 / 1e6)]:
        a, b, c = mean(("fastsm2", op)), mean(("bc", op)), mean(("c", op))
        if scale:
            a, b, c = [x * scale if x is not None else None for x in (a, b, c)]
        print("| %s | %s | %s | %s | %s | %s |" % (label, f(a), f(b), "%.1fx" % (a / b) if a and b else "", f(c),
                                                 "%.1f%%" % (100 * a / c) if a and c else ""))
extra = [("sign, new Signature + initSign per call with BC's key object", "sign_fastsm2_hutool", "sign_bc_hutool")]
print()
for label, fs, bc in extra:
    if fs in t1 and bc in t1:
        print("FastSM2 %s: %s ops/s, %.1fx BouncyCastle's same pattern." % (label, f(t1[fs]), t1[fs] / t1[bc]))

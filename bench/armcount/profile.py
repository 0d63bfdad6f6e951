#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the executed instructions of one operation go, from two block
profiles of bench/armcount/insncount.c (profile mode) of the same program:
one run with N operations and one with none (same set-up), as count.sh
takes its counts.

  profile.py TRIPLE BINARY LOG_N LOG_0 N [TOP]

Prints two Markdown tables of instructions per operation: by function
(the TOP largest; symbols from nm, the binary being position-dependent),
and by kind of instruction (mnemonics from objdump). Instructions outside
BINARY (the C library, the loader) are one line, "(shared libraries)".
"""
import bisect
import re
import subprocess
import sys
from collections import defaultdict

MUL = {"mul", "umulh", "smulh", "madd", "msub", "mneg", "umull", "smull", "umaddl", "smaddl", "umsubl", "smsubl"}
CARRY = {"adds", "adcs", "adc", "subs", "sbcs", "sbc", "ngc", "ngcs", "negs"}
CMP = {"cmp", "cmn", "tst", "ccmp", "ccmn"}
CSEL = {"csel", "cset", "csetm", "cinc", "cinv", "cneg", "csinc", "csinv", "csneg"}
BRANCH = {"b", "bl", "br", "blr", "ret", "cbz", "cbnz", "tbz", "tbnz"}
SM3 = {"sm3ss1", "sm3tt1a", "sm3tt1b", "sm3tt2a", "sm3tt2b", "sm3partw1", "sm3partw2"}

KINDS = [
    "multiply (MUL, UMULH, MADD...)",
    "add/sub with carry or flags (ADDS, ADCS, SUBS, SBCS...)",
    "compare (CMP, CMN, TST, CCMP)",
    "conditional select (CSEL, CSETM...)",
    "other scalar ALU (ADD, AND, EOR, shifts, MOV...)",
    "load",
    "store",
    "branch, call, return",
    "SM3 instructions",
    "other SIMD (NEON)",
    "other",
]
VREG = re.compile(r"\bv\d+\.|\bq\d+\b|\bd\d+\b|\bs\d+\b")


def kind(mn, ops):
    base = mn.split(".")[0]
    if base in SM3:
        return 8
    if mn.startswith("b.") or base in BRANCH:
        return 7
    if base.startswith("ld"):
        return 5
    if base.startswith("st"):
        return 6
    if VREG.search(ops):
        return 9
    if base in MUL:
        return 0
    if base in CARRY:
        return 1
    if base in CMP:
        return 2
    if base in CSEL:
        return 3
    if base:
        return 4
    return 10


def short(name):
    # Go symbols carry their package path
    name = re.sub(r"^github\.com/emmansun/gmsm/", "gmsm/", name)
    return name


def read_profile(path):
    per_addr = defaultdict(int)
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == "tb":
            a, n, c = int(f[1], 16), int(f[2]), int(f[3])
            for i in range(n):
                per_addr[a + 4 * i] += c
    return per_addr


def main():
    triple, binary, log_n, log_0, n = sys.argv[1:6]
    top = int(sys.argv[6]) if len(sys.argv) > 6 else 12
    n = int(n)
    syms = []
    out = subprocess.run([f"{triple}-nm", "-n", "--defined-only", binary], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        f = line.split(None, 2)
        if len(f) == 3 and f[1] in "tTwW":
            syms.append((int(f[0], 16), f[2]))
    addrs = [a for a, _ in syms]
    text_end = syms[-1][0] + 0x10000 if syms else 0
    mnem = {}
    out = subprocess.run([f"{triple}-objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                         check=True)
    pat = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
    for line in out.stdout.splitlines():
        m = pat.match(line)
        if m:
            mnem[int(m.group(1), 16)] = (m.group(2), m.group(3))
    pn, p0 = read_profile(log_n), read_profile(log_0)
    by_fn = defaultdict(int)
    by_kind = defaultdict(int)
    total = 0
    for a in set(pn) | set(p0):
        d = pn.get(a, 0) - p0.get(a, 0)
        if not d:
            continue
        total += d
        if a in mnem and syms and syms[0][0] <= a < text_end:
            i = bisect.bisect_right(addrs, a) - 1
            by_fn[short(syms[i][1])] += d
            by_kind[kind(*mnem[a])] += d
        else:
            by_fn["(shared libraries)"] += d
            by_kind[10] += d
    if total <= 0:
        print("(no instructions)")
        return 0
    print(f"| function | instructions per operation | share |")
    print("|---|---:|---:|")
    rows = sorted(by_fn.items(), key=lambda kv: -kv[1])
    for name, c in rows[:top]:
        print(f"| `{name}` | {c / n:.0f} | {100 * c / total:.1f}% |")
    rest = sum(c for _, c in rows[top:])
    if rest:
        print(f"| ({len(rows) - top} others) | {rest / n:.0f} | {100 * rest / total:.1f}% |")
    print(f"| total | {total / n:.0f} | |")
    print()
    print("| kind of instruction | instructions per operation | share |")
    print("|---|---:|---:|")
    for k, label in enumerate(KINDS):
        if by_kind.get(k):
            print(f"| {label} | {by_kind[k] / n:.0f} | {100 * by_kind[k] / total:.1f}% |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

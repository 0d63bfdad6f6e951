#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""SASS instructions per operation of the CUDA backend (tests/harness/sass-count.sh).

Inputs (made by tests/harness/sass-count.sh):
  --prod PROD.sass --ptxas PTXAS.log  the production build (nvdisasm output
                                      and ptxas -v): registers, spills,
                                      stack, static size per kernel;
  --count COUNT.sass                  the accounting build (FS2G_SASS_COUNT:
                                      every cost-model unit a separate
                                      device function): SASS per unit;
  --opcount OPCOUNT.tsv               calls of each unit per operation
                                      (tests/harness/sass-opcount.cpp);
  --ct-probe PROBE.sass               the constant-time probe kernel, for
                                      the secret-branch check (optional);
  --ct-inject INJECT.sass             the probe built with a deliberate
                                      secret branch: the check must flag it.

  --micro MICRO.sass                  tests/harness/sass-micro.cu: each unit inlined
                                      in a kernel of its own, and a kernel
                                      that only moves its inputs/outputs.

The model (docs/GPU.md "SASS count"): an operation's dynamic instruction
count is the sum over units of calls x the unit's SASS when inlined (the
micro kernel minus its input/output kernel), plus the kernel's own body
(glue: the accounting build's kernel without the units, counted once per
thread and shared by the items of a thread). A unit must be straight-line code
(no branch but its return), so that its static size is what one call
executes; the script checks that (jac_add_var, whose branches are its
public special cases, excepted). Loop overhead in the glue is counted once
(an undercount) and code of paths not taken is counted (an overcount):
about 1% of an operation either way.
"""
import argparse
import json
import re
import sys

INS_RE = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
LABEL_RE = re.compile(r"^(\$?[A-Za-z_.][\w.$]*):")

UNITS = {
    "fs2g_fp_mul": "fp_mul",
    "fs2g_fp_sqr": "fp_sqr",
    "fs2g_fn_mont_mul": "fn_mont_mul",
    "fs2g_jac_dbl": "jac_dbl",
    "fs2g_jac_add_aff": "jac_add_aff",
    "fs2g_jac_add_var": "jac_add_var",
    "fs2g_table_select_fast": "select_fast",
    "fs2g_table_select_ct": "select_ct",
    "fs2g_sm3_compress": "sm3_compress",
    "fs2g_fp_inv_group": "fp_inv_group",
    "fs2g_aff_cneg": "aff_cneg",
    "fs2g_vtab_load": "vtab_load",
    "fs2g_jac_add": "jac_add",
}
# unit -> (input words, output words) of its micro kernels
MICRO_IO = {
    "fp_mul": (16, 8),
    "fp_sqr": (8, 8),
    "fn_mont_mul": (16, 8),
    "jac_dbl": (24, 24),
    "jac_add_aff": (40, 24),
    "jac_add_var": (48, 24),
    "select_fast": (1, 16),
    "select_ct": (1, 16),
    "sm3_compress": (24, 8),
    "fp_inv_group": (37, 37),
    "aff_cneg": (17, 16),
    "vtab_load": (1, 16),
    "jac_add": (48, 24),
}
# operation -> kernel (its name as it appears, length-prefixed, in the mangled one)
OPS = {
    "sign": "fs2g_k_sign",
    "sign-ct": "fs2g_k_sign",
    "keygen": "fs2g_k_keygen",
    "keygen-ct": "fs2g_k_keygen",
    "verify": "fs2g_k_verify",
    "verify-key": "fs2g_k_verify_key",
}
# H100 SXM5: 132 SMs at 1.98 GHz; 64 results per clock per SM for 32-bit
# integer add, multiply-add and logic (compute capability 9.0).
H100_INT_OPS_PER_S = 132 * 64 * 1.98e9


def parse_sass(path):
    """{function: [instruction text]} from nvdisasm -c output; a device
    function inside a kernel's section is named $kernel$function."""
    funcs = {}
    cur = None
    with open(path) as f:
        for line in f:
            m = LABEL_RE.match(line)
            if m and not m.group(1).startswith(".L") and not m.group(1).startswith(".text"):
                cur = m.group(1)
                funcs.setdefault(cur, [])
                continue
            m = INS_RE.match(line)
            if m and cur:
                ins = m.group(2)
                if ins.startswith("NOP"):
                    continue
                funcs[cur].append(ins)
    return funcs


def opcode(ins):
    return re.sub(r"^@!?U?P[T0-9]+\s+", "", ins).split()[0]


def unit_of(fname):
    inner = fname.split("$")[-1]
    for key, unit in UNITS.items():
        if re.search(r"\d" + key + r"[A-Z]", inner):
            return unit
    return None


# What calling a unit adds and inlining removes: the arguments and locals
# that the call puts in local memory (LDL, STL, generic LD, ST), the call
# and return, the uniform-datapath stack arithmetic (U*), and the
# unreachable `BRA self` that ends a function. Not counted in a unit's
# cost; the production build keeps these values in registers.
CALL_OVERHEAD = ("LDL", "STL", "LD", "ST", "CALL", "RET")


def unit_cost(body):
    n = 0
    for i, ins in enumerate(body):
        op = opcode(ins).split(".")[0]
        if op in CALL_OVERHEAD or op.startswith("U"):
            continue
        if op == "BRA" and not ins.startswith("@") and i > 0 and opcode(body[i - 1]).startswith("RET"):
            continue
        n += 1
    return n


def parse_ptxas(path):
    """registers, stack, spills per kernel from ptxas -v."""
    res = {}
    cur = None
    with open(path) as f:
        for line in f:
            m = re.search(r"Function properties for (\S+)", line)
            if m:
                cur = m.group(1)
                res[cur] = {}
                continue
            if not cur:
                continue
            m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
            if m:
                res[cur].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
            m = re.search(r"Used (\d+) registers", line)
            if m:
                res[cur]["regs"] = int(m.group(1))
    return res


def read_opcount(path):
    calls = {}
    with open(path) as f:
        for line in f:
            op, unit, n = line.split("\t")
            calls.setdefault(op, {})[unit] = float(n)
    return calls


# ---- the secret-branch check -------------------------------------------------

REG_RE = re.compile(r"\b(U?R[0-9]+|U?P[0-6T])\b(\.64|\.128)?")


def operands(ins):
    """(destinations, sources) register names of one instruction. SASS puts
    the destinations first; a predicate guard (@P0) is a source; .64 and .128
    register operands stand for 2 and 4 consecutive registers."""
    guard = []
    m = re.match(r"^@(!?)(U?P[0-6T])\s+(.*)$", ins)
    if m:
        guard = [m.group(2)]
        ins = m.group(3)
    parts = ins.split(None, 1)
    op = parts[0]
    rest = parts[1] if len(parts) > 1 else ""
    args = [a.strip() for a in re.split(r",(?![^\[]*\])", rest) if a.strip()]

    def regs(a):
        out = []
        for rm in REG_RE.finditer(a):
            name, width = rm.group(1), rm.group(2)
            if name in ("RZ", "URZ", "PT", "UPT"):
                continue
            out.append(name)
            if width and name[0] in "RU" and not name.startswith("UP") and name[-1].isdigit():
                base = re.match(r"(U?R)(\d+)", name)
                k = {".64": 2, ".128": 4}[width]
                out += ["%s%d" % (base.group(1), int(base.group(2)) + i) for i in range(1, k)]
        return out

    # number of leading destination operands: stores, branches, calls,
    # compares into predicates, etc. have their own shapes
    base = op.split(".")[0]
    if base in ("ST", "STG", "STL", "STS", "RED", "BRA", "EXIT", "RET", "CALL", "BAR", "MEMBAR", "WARPSYNC", "BSYNC",
                "BSSY", "NOP", "DEPBAR", "ERRBAR", "CCTL", "YIELD", "BPT", "JMP", "BRX", "JMX"):
        ndst = 0
    else:
        ndst = 1
        # a second leading predicate destination (carry out: IADD3 R, P0, ...;
        # ISETP P0, P1, ...; LEA.HI R, P0, ...)
        while ndst < len(args) and re.fullmatch(r"!?U?P[0-6T]", args[ndst]) and (
                base in ("IADD3", "ISETP", "LEA", "IMAD", "LOP3", "PLOP3", "FSETP", "DSETP", "HSETP2", "PSETP",
                         "UISETP", "UIADD3", "ULOP3", "UPLOP3", "ULEA", "UIMAD", "VIADD", "IADD", "SHF")
                and ndst < 3):
            ndst += 1
        # sources stop being destinations once a non-predicate follows
    dsts, srcs = [], list(guard)
    for i, a in enumerate(args):
        (dsts if i < ndst else srcs).extend(regs(a))
    # wide forms (IMAD.WIDE, LDG.E.64, LDS.128, SHF.R.U64, ...) name only the
    # first register of a pair or quad: take the following ones as well, on
    # both sides (an over-approximation, which can only add violations)
    if re.search(r"WIDE|64|128", op):
        k = 4 if "128" in op else 2

        def widen(lst):
            out = []
            for r in lst:
                out.append(r)
                m = re.fullmatch(r"(U?R)(\d+)", r)
                if m:
                    out += ["%s%d" % (m.group(1), int(m.group(2)) + j) for j in range(1, k)]
            return out

        dsts, srcs = widen(dsts), widen(srcs)
    # carry-in predicates of .X instructions appear among the sources already
    return op, dsts, srcs, args


# every value read from memory is secret to the check (the probe reads its
# secrets, and nothing else it branches on, from global memory)
SECRET_LOADS = ("LDG", "LD", "LDL", "LDS", "LDSM", "ATOM", "ATOMG", "ATOMS", "LDGSTS", "SHFL")


def parse_sass_labels(path, func):
    """[(label or None, instruction)] of one function, labels kept."""
    out = []
    cur = None
    pending = []
    with open(path) as f:
        for line in f:
            m = LABEL_RE.match(line)
            if m:
                name = m.group(1)
                if name.startswith(".L_x"):
                    pending.append(name)
                elif not name.startswith(".text"):
                    cur = name
                continue
            m = INS_RE.match(line)
            if m and cur is not None and func in cur:
                out.append((pending, m.group(2)))
                pending = []
            elif m:
                pending = []
    return out


def taint_check(listing):
    ins = [i for _, i in listing]
    labels = {}
    for idx, (labs, _) in enumerate(listing):
        for lab in labs:
            labels[lab] = idx
    n = len(ins)
    parsed = [operands(x) for x in ins]
    succ = []
    for i, (op, dsts, srcs, args) in enumerate(parsed):
        base = op.split(".")[0]
        s = []
        conditional = ins[i].startswith("@")
        if base in ("BRA", "JMP") or (op.startswith("CALL.REL.NOINC") and re.search(r"\(\.L_x_\d+\)", ins[i])):
            # CALL.REL.NOINC to a label of the kernel pushes nothing: ptxas
            # for sm_86 uses it as a (conditional) jump out of a loop
            m = re.search(r"\((\.L_x_\d+)\)", ins[i])
            if not m:
                raise SystemExit("ct-check: indirect branch: " + ins[i])
            s.append(labels[m.group(1)])
            if conditional:
                s.append(i + 1)
        elif base in ("EXIT", "RET") and not conditional:
            pass
        elif base in ("BRX", "JMX", "CALL"):
            raise SystemExit("ct-check: indirect branch or call (the probe must be one inlined function): " + ins[i])
        else:
            if i + 1 < n:
                s.append(i + 1)
        succ.append(s)
    # forward dataflow: the set of secret registers at each instruction's entry
    secret_in = [None] * n
    secret_in[0] = frozenset()
    work = [0]
    while work:
        i = work.pop()
        cur = set(secret_in[i])
        op, dsts, srcs, args = parsed[i]
        base = op.split(".")[0]
        tainted = base in SECRET_LOADS or any(r in cur for r in srcs)
        if dsts:
            if tainted:
                cur |= set(dsts)
            elif not ins[i].startswith("@"):
                cur -= set(dsts)
            # a predicated write of a public value by a public guard: the old
            # value may remain, so the register keeps its state
        out = frozenset(cur)
        for j in succ[i]:
            if secret_in[j] is None:
                secret_in[j] = out
                work.append(j)
            elif not out <= secret_in[j]:
                secret_in[j] = secret_in[j] | out
                work.append(j)
    bad = []
    for i, (op, dsts, srcs, args) in enumerate(parsed):
        if secret_in[i] is None:
            continue
        base = op.split(".")[0]
        if base in ("BRA", "JMP", "EXIT", "RET", "BRX", "JMX", "CALL") and ins[i].startswith("@"):
            if srcs and srcs[0] in secret_in[i]:
                bad.append("%d: %s" % (i, ins[i]))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prod", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--count", required=True)
    ap.add_argument("--opcount", required=True)
    ap.add_argument("--micro", required=True)
    ap.add_argument("--ct-probe")
    ap.add_argument("--ct-inject")
    ap.add_argument("--json")
    ap.add_argument("--baseline", help="a --json file of an earlier run: ratios against it")
    ap.add_argument("--arch", default="90", help="the compute capability compiled for (labels)")
    a = ap.parse_args()

    prod = parse_sass(a.prod)
    ptx = parse_ptxas(a.ptxas)
    count = parse_sass(a.count)
    calls = read_opcount(a.opcount)
    status = 0

    print("Kernels (production build, sm_%s):" % a.arch)
    print("%-16s %6s %6s %12s %12s" % ("kernel", "regs", "stack", "spill st/ld", "static SASS"))
    kernels = {}
    for k in sorted(f for f in prod if "$" not in f):
        m = re.match(r"^_Z(\d+)", k)  # the mangled name's length prefix
        short = k[m.end():m.end() + int(m.group(1))] if m else k
        info = ptx.get(k, {})
        size = len(prod[k]) + sum(len(v) for f, v in prod.items() if f.startswith("$" + k + "$"))
        kernels[short] = dict(info, static=size)
        print("%-16s %6s %6s %12s %12d" % (short, info.get("regs"), info.get("stack"),
                                            "%s/%s" % (info.get("spill_st"), info.get("spill_ld")), size))
        if info.get("spill_st") or info.get("spill_ld"):
            print("  ^ spills")

    print("\nUnits: SASS per call, inlined as in the kernels (tests/harness/sass-micro.cu; the model's figure)"
          " and as a separate function (accounting build, for reference):")
    unit_size = {}
    for f, body in count.items():
        if "$" not in f:
            continue
        kern, inner = f.split("$")[1], f.split("$")[2]
        u = unit_of(inner)
        if not u:
            continue
        branches = [i for i in body if opcode(i).split(".")[0] in ("BRA", "BRX", "JMP") and i.startswith("@")]
        sz = unit_cost(body)
        unit_size.setdefault(kern, {})[u] = sz
        if branches and u not in ("jac_add_var",):
            print("error: unit %s has conditional branches: the model needs straight-line units" % u)
            status = 1
    allsizes = {}
    for kern, d in unit_size.items():
        for u, sz in d.items():
            allsizes.setdefault(u, set()).add(sz)
    micro = parse_sass(a.micro)
    inlined = {}
    for u, (n_in, n_out) in MICRO_IO.items():
        k = [f for f in micro if re.match(r"_Z\d+k_%s[A-Z]" % u, f)]
        io = [f for f in micro if re.match(r"_Z\d+io_%s[A-Z]" % u, f)]
        if len(k) != 1 or len(io) != 1:
            raise SystemExit("sass-count: micro kernels of %s not found" % u)
        inlined[u] = len(micro[k[0]]) - len(micro[io[0]]) + max(n_in - n_out, 0)
    # jac_add_var's kernel holds the doubling of its a = b case, which
    # verification never reaches (an honest signature gives a = b with
    # negligible probability): not part of the general path
    inlined["jac_add_var"] -= inlined["jac_dbl"]
    print("  %-14s %10s %10s" % ("unit", "inlined", "outlined"))
    for u in sorted(inlined):
        print("  %-14s %10d %10s" % (u, inlined[u], "/".join(str(x) for x in sorted(allsizes.get(u, [])))))

    print("\nPer operation (model: sum of calls x unit SASS + kernel glue once):")
    print("%-10s %12s   %s" % ("op", "SASS/op", "breakdown"))
    result = {"kernels": kernels, "ops": {}, "units": {u: sorted(s) for u, s in allsizes.items()}}
    for op, ksub in OPS.items():
        if op not in calls:
            continue
        kname = [f for f in count if "$" not in f and re.search(r"\d%s\d" % ksub, f)][0]
        sizes = inlined
        # the kernel's own body in the accounting build: everything but
        # the units, counted once; without the call overhead of the units
        per_thread = calls[op].pop("items_per_thread", 1)
        glue = unit_cost(count[kname]) / per_thread
        total = glue
        parts = []
        for u, c in sorted(calls[op].items(), key=lambda x: -x[1] * sizes.get(x[0], 0)):
            if u not in sizes:
                print("error: %s calls %s, which has no micro kernel" % (op, u))
                status = 1
                continue
            total += c * sizes[u]
            parts.append("%s %g x %d" % (u, c, sizes[u]))
        parts.append("glue %d" % glue + (" (per thread / %d items)" % per_thread if per_thread != 1 else ""))
        result["ops"][op] = total
        print("%-10s %12.0f   %s" % (op, total, ", ".join(parts)))
    print("\nH100 model (an upper bound, not a measurement): 132 SMs x 64 integer"
          " instructions/clock x 1.98 GHz / SASS per op")
    for op, total in result["ops"].items():
        print("  %-10s %8.1f M/s" % (op, H100_INT_OPS_PER_S / total / 1e6))
    if a.baseline:
        base = json.load(open(a.baseline))
        print("\nRatios against %s:" % a.baseline)
        for op, total in result["ops"].items():
            if op in base["ops"]:
                print("  %-10s %10.0f -> %10.0f  %.3fx" % (op, base["ops"][op], total, total / base["ops"][op]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)

    if a.ct_probe:
        bad = taint_check(parse_sass_labels(a.ct_probe, "fs2g_k_ct_probe"))
        if bad:
            print("\nct-check: FAILED: conditional branches on secret data in the constant-time sign path:")
            for b in bad:
                print("  " + b)
            status = 1
        else:
            print("\nct-check: the constant-time sign path has no conditional branch on secret data")
    if a.ct_inject:
        bad = taint_check(parse_sass_labels(a.ct_inject, "fs2g_k_ct_probe"))
        if not bad:
            print("ct-check: FAILED: the probe with an injected secret branch was not flagged")
            status = 1
        else:
            print("ct-check: the injected secret branch is flagged (%d branch%s)" % (len(bad), "es"[:2 * (len(bad) != 1)]))
    return status


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Cycle estimates from llvm-mca for straight-line kernels taken from the
compiled programs of bench/armcount/count.sh (the code that runs, not a
rewrite of it):

  mca.py TRIPLE LLVM_MCA CPUS SPEC...

CPUS is a comma-separated list of -mcpu names. Each SPEC is
  LABEL|BINARY|SYMBOL|MODE[|INSNS]
with MODE one of
  core   the whole function, less its loads, stores, branches and return:
         a field product or squaring with its operands in registers (the
         form in which the point formulas use it);
  loop   the body of the function's outermost loop (from the target of its
         last backward branch up to that branch), less the loop counter's
         decrement, with any function it calls spliced in: one SM3 block,
         or one squaring of a run of squarings.
INSNS, when given, is the measured instruction count of one such step
(from count.sh): a body whose length is not within 10% of it is not the
whole step (rounds in an inner loop, say), and its estimate is left out.

Prints a Markdown table: instructions of the kernel, then llvm-mca's cycles
per iteration (Total Cycles / Iterations over 200 iterations) on each CPU
model. Iterations are independent (no register carries from one to the
next) for "core", and carry the state for "loop" (a chain of squarings, a
chain of SM3 blocks), as in the programs.
"""
import re
import subprocess
import sys


def disassemble(triple, binary, symbol):
    out = subprocess.run([f"{triple}-objdump", "-d", "--no-show-raw-insn", binary], capture_output=True, text=True,
                         check=True).stdout
    lines, inside = [], False
    head = re.compile(r"^[0-9a-f]+ <(.*)>:$")
    ins = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
    for line in out.splitlines():
        m = head.match(line)
        if m:
            if inside:
                break
            inside = m.group(1) == symbol
            continue
        if inside:
            m = ins.match(line)
            if m:
                ops = m.group(3).split("//")[0].strip()
                lines.append((int(m.group(1), 16), m.group(2), ops))
    return lines


def is_branch(mn):
    return mn in ("b", "bl", "br", "blr", "ret", "cbz", "cbnz", "tbz", "tbnz") or mn.startswith("b.")


def kernel(insns, mode, callee=None):
    if mode == "core":
        return [(mn, ops) for _, mn, ops in insns if not is_branch(mn) and not mn.startswith(("ld", "st"))]
    # loop: the outermost backward branch
    best = None
    for a, mn, ops in insns:
        if mn.startswith("b.") or mn in ("cbz", "cbnz", "tbz", "tbnz", "b"):
            m = re.search(r"([0-9a-f]+)\s+<", ops)
            if not m:
                continue
            t = int(m.group(1), 16)
            if t < a and (best is None or a - t > best[1] - best[0]):
                best = (t, a)
    if best is None:
        return None
    body = []
    for a, mn, ops in insns:
        if not best[0] <= a < best[1]:
            continue
        m = re.search(r"<([^>+]+)>", ops)
        if mn == "bl" and callee and m:
            # a call inside the loop (gmsm's p256Sqr calls its squaring):
            # the callee's body in its place
            body += [(cmn, cops) for _, cmn, cops in callee(m.group(1)) if cmn != "ret"]
        else:
            body.append((mn, ops))
    # the loop counter's decrement just before the branch
    if body and body[-1][0] in ("subs", "sub") and body[-1][1].endswith("#0x1"):
        body = body[:-1]
    return body


def asm_text(body):
    out = []
    for mn, ops in body:
        ops = re.sub(r"\s*<[^>]*>", "", ops)
        if mn in ("adrp", "adr"):  # an absolute address: a symbol for the assembler
            ops = re.sub(r",\s*(0x)?[0-9a-f]+$", ", mca_page", ops)
        out.append(f"\t{mn}\t{ops}" if ops else f"\t{mn}")
    return "\n".join(out) + "\n"


def mca(llvm_mca, triple, cpu, text, iterations=200):
    r = subprocess.run([llvm_mca, f"-mtriple={triple}", f"-mcpu={cpu}", "-mattr=+sm4,+sha3,+aes,+sha2",
                        f"-iterations={iterations}"], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "llvm-mca failed"
    m = re.search(r"Total Cycles:\s+(\d+)", r.stdout)
    return (int(m.group(1)) / iterations if m else None), None


def main():
    triple, llvm_mca, cpus = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    print("| kernel | instructions | " + " | ".join(f"{c}: cycles" for c in cpus) + " |")
    print("|---|---:|" + "---:|" * len(cpus))
    notes = []
    for spec in sys.argv[4:]:
        f = spec.split("|")
        label, binary, symbol, mode = f[:4]
        want = int(f[4]) if len(f) > 4 and f[4] not in ("", "-") else None
        insns = disassemble(triple, binary, symbol)
        if not insns:
            print(f"| {label} | - | " + " | ".join("-" for _ in cpus) + " |")
            notes.append(f"{label}: no symbol {symbol} in {binary}")
            continue
        body = kernel(insns, mode, lambda sym, b=binary: disassemble(triple, b, sym))
        if not body:
            print(f"| {label} | - | " + " | ".join("-" for _ in cpus) + " |")
            notes.append(f"{label}: no loop in {symbol}")
            continue
        if want and abs(len(body) - want) > 0.1 * want:
            print(f"| {label} | {len(body)} | " + " | ".join("-" for _ in cpus) + " |")
            notes.append(f"{label}: {len(body)} instructions in the loop body, {want} executed per step: not the whole step")
            continue
        text = asm_text(body)
        cells = []
        for cpu in cpus:
            c, err = mca(llvm_mca, triple, cpu, text)
            cells.append(f"{c:.1f}" if c is not None else "-")
            if err:
                notes.append(f"{label} on {cpu}: {err}")
        print(f"| {label} | {len(body)} | " + " | ".join(cells) + " |")
    for n in notes:
        print(f"\nnote: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Constant time of the AVX-512 IFMA path, checked by tracing (valgrind
cannot run AVX-512, so tests/ctime cannot cover it).

usage: trace.py TARGET [SETS]

TARGET is tests/ctime/ifma_trace_target.c's program. For SETS secret sets
(default 6) this script runs `TARGET gen SEED` under ptrace, single-steps
every instruction between its two SIGSTOP markers (the whole of
fs2_ifma_gen: kG for eight secret scalars in eight lanes; then `TARGET base
SEED`, the backend's one-at-a-time kG and inversion, its own build of code
that the valgrind test never runs there; then `TARGET single SEED`, the
backend's keygen/signing and encryption slots, whose one kG runs in the
IFMA lanes (src/ec/ifma/ec_ifma1.c), edge scalars among the seeds) and
records, for each step, the instruction address and the effective address of its memory
operand, computed from the registers with the operand as `objdump -d`
prints it (base + index * scale + displacement; RIP-relative ones
resolved). A gather or scatter (a vector index, which this cannot read) in
the traced code fails the check. The traces of all sets must be identical:
the same instructions in the same order touching the same addresses,
whatever the secrets (address-space randomisation is off in the traced
runs, so that stack and library addresses repeat). Memory operands in the C library (outside TARGET)
are compared by instruction address only.

The planted control: `TARGET sumvar SEED`, the variable-time verification
sum, whose digits choose branches and gather addresses, must give
different traces for different seeds, or the tracer would be blind.

IFMA_TRACE_DUMP=DIR writes each trace there as text, to find where two
differ. Exit 0 when both hold, 1 when not, 77 (skipped) where the CPU has no
AVX-512 IFMA (`TARGET probe` exits 2) or the machine forbids ptrace.

FS2_IFMA_TRACE_SETS overrides SETS (`make test` traces 3 sets, `make
test-all` 6). The traces run in parallel, one process per core
(FS2_IFMA_TRACE_JOBS), each tracing its own child.
"""
import concurrent.futures
import ctypes
import hashlib
import os
import re
import signal
import subprocess
import sys

PTRACE_TRACEME, PTRACE_CONT, PTRACE_SINGLESTEP, PTRACE_GETREGS = 0, 7, 9, 12
REGS = ["r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi",
        "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs"]


class Regs(ctypes.Structure):
    _fields_ = [(n, ctypes.c_ulonglong) for n in REGS]


libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]

MEM = re.compile(r"(?:(%[a-z]s):)?(-?0x[0-9a-f]+|-?\d+)?\((%[a-z0-9]+)?(?:,(%[a-z0-9]+)(?:,(\d))?)?\)")


def reg_value(regs, name):
    name = name.lstrip("%")
    if name in REGS:
        return getattr(regs, name)
    r32 = {"eax": "rax", "ebx": "rbx", "ecx": "rcx", "edx": "rdx", "esi": "rsi", "edi": "rdi", "ebp": "rbp",
           "esp": "rsp"}
    if name in r32:
        return getattr(regs, r32[name]) & 0xFFFFFFFF
    m = re.fullmatch(r"r(\d+)d", name)
    if m:
        return getattr(regs, "r" + m.group(1)) & 0xFFFFFFFF
    raise KeyError(name)


# Prefixes objdump prints before the mnemonic (the long NOPs of code
# alignment come as "cs nopw ..."; their operand is never read).
PREFIXES = {"cs", "ds", "es", "fs", "gs", "ss", "data16", "addr32", "rex", "rex.W", "notrack", "bnd"}


def operands(binary):
    """instruction address -> (memory operand or None, is_gather), from objdump."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "att", binary], check=True,
                         capture_output=True, text=True).stdout
    ops = {}
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        addr, mnem, args = int(m.group(1), 16), m.group(2), m.group(3).split("#")[0]
        while mnem in PREFIXES and args.split():  # "cs nopw 0x0(%rax,%rax,1)": the padding NOP's prefix
            mnem, _, args = args.strip().partition(" ")
        if mnem.startswith(("lea", "nop")):
            ops[addr] = (None, False)
            continue
        mm = MEM.search(args)
        if not mm:
            ops[addr] = (None, False)
            continue
        seg, disp, base, index, scale = mm.groups()
        vec_index = index is not None and re.match(r"%[xyz]mm", index) is not None
        ops[addr] = ((seg, int(disp, 0) if disp else 0, base, index, int(scale) if scale else 1), vec_index)
    return ops


def exe_base(pid, binary):
    real = os.path.realpath(binary)
    with open("/proc/%d/maps" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == real and int(parts[2], 16) == 0:
                return int(parts[0].split("-")[0], 16)
    raise RuntimeError("no mapping of %s" % real)


def wait(pid):
    _, status = os.waitpid(pid, 0)
    return status


def trace(binary, ops, mode, seed):
    """(sha256 of the trace, steps, problems) of one run."""
    pid = os.fork()
    if pid == 0:
        libc.personality(0x0040000)  # ADDR_NO_RANDOMIZE: the same addresses in every run
        if libc.ptrace(PTRACE_TRACEME, 0, None, None) != 0:
            os._exit(3)  # not traceable: the parent reports it
        os.execv(binary, [binary, mode, "0x%016x" % seed])  # one length: the same stack
        os._exit(127)
    status = wait(pid)  # stopped at the exec
    if not os.WIFSTOPPED(status):
        return None, 0, ["the target did not start under ptrace"]
    libc.ptrace(PTRACE_CONT, pid, None, None)
    status = wait(pid)
    if os.WIFEXITED(status):
        return None, 0, ["exit %d" % os.WEXITSTATUS(status)]
    if os.WSTOPSIG(status) != signal.SIGSTOP:
        return None, 0, ["stopped by signal %d before the first marker" % os.WSTOPSIG(status)]
    base = exe_base(pid, binary)
    h, steps, problems, regs = hashlib.sha256(), 0, [], Regs()
    dump = open(os.path.join(os.environ["IFMA_TRACE_DUMP"], "%s-%d.txt" % (mode, seed)), "w") \
        if os.environ.get("IFMA_TRACE_DUMP") else None
    sig = 0
    while True:
        libc.ptrace(PTRACE_SINGLESTEP, pid, None, ctypes.c_void_p(sig))
        sig = 0
        status = wait(pid)
        if os.WIFEXITED(status):
            problems.append("exited before the second marker")
            break
        s = os.WSTOPSIG(status)
        if s == signal.SIGSTOP:
            break  # the second marker
        if s != signal.SIGTRAP:
            sig = s
            continue
        libc.ptrace(PTRACE_GETREGS, pid, None, ctypes.byref(regs))
        rip = regs.rip
        rel = rip - base
        op = ops.get(rel)
        ea = None
        if op is None:  # outside the target binary (the C library): the address alone
            h.update(b"L%x;" % rip)
        else:
            mem, vec = op
            if vec:
                problems.append("gather/scatter at %#x" % rel)
            elif mem:
                seg, disp, b, i, scale = mem
                if b == "%rip":
                    ea = "rip%+d" % disp
                else:
                    ea = disp + (reg_value(regs, b) if b else 0) + (reg_value(regs, i) * scale if i else 0)
                    ea = (seg or "") + "%x" % (ea & 0xFFFFFFFFFFFFFFFF)
            h.update(b"%x:%s;" % (rel, str(ea).encode()))
            if dump:
                dump.write("%x %s\n" % (rel, ea))
        steps += 1
    if dump:
        dump.close()
    libc.ptrace(PTRACE_CONT, pid, None, None)
    wait(pid)
    return h.hexdigest(), steps, problems


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    binary = sys.argv[1]
    sets = int(sys.argv[2]) if len(sys.argv) == 3 else 6
    sets = max(2, int(os.environ.get("FS2_IFMA_TRACE_SETS", sets)))
    rc = subprocess.run([binary, "probe"]).returncode
    if rc == 2:
        print("ifma-trace: this CPU has no AVX-512 IFMA: the IFMA path's constant time is NOT checked here, skipped")
        return 77
    ops = operands(binary)
    first = trace(binary, ops, "gen", 1)
    if first[0] is None and first[2] and "did not start" in first[2][0]:
        print("ifma-trace: ptrace is not allowed here, skipped")
        return 77
    failed = 0
    seeds = [1, 2, 0xdeadbeef, 12345678901, 7, 2 ** 63 + 5][:sets] + list(range(100, 100 + max(0, sets - 6)))
    # every trace at once, one worker per core (each traces its own child);
    # gen with seed 1 is the first trace, made above
    jobs = [(m, s) for m in ("gen", "base", "single") for s in seeds if (m, s) != ("gen", 1)] + [("sumvar", 1),
                                                                                             ("sumvar", 2)]
    workers = int(os.environ.get("FS2_IFMA_TRACE_JOBS", os.cpu_count() or 1))
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        futs = {job: pool.submit(trace, binary, ops, job[0], job[1]) for job in jobs}
        results = {job: f.result() for job, f in futs.items()}
    results[("gen", 1)] = first
    for mode, what in (("gen", "fs2_ifma_gen"), ("base", "mul_base of the avx512ifma backend"),
                       ("single", "mul_base_and_sc_inv and mul_base_and_mul of the avx512ifma backend (kG in "
                        "the IFMA lanes, ec_ifma1.c; edge scalars among the sets)")):
        traces = {}
        for seed in seeds:
            digest, steps, problems = results[(mode, seed)]
            traces[seed] = digest
            print("%-6s seed %-20d %s  %d instructions%s" % (mode, seed, digest[:16] if digest else "-", steps,
                                                            ("  " + "; ".join(problems[:3])) if problems else ""))
            failed |= bool(problems) or digest is None or steps < 10000
        same = len(set(traces.values())) == 1
        print("ifma-trace: %s: %s over %d secret sets" % (what, "identical traces" if same else "TRACES DIFFER",
                                                           len(seeds)))
        failed |= not same
    control = set()
    for seed in (1, 2):
        digest, steps, _ = results[("sumvar", seed)]
        control.add(digest)
        print("sumvar seed %-20d %s  %d instructions" % (seed, digest[:16] if digest else "-", steps))
    blind = len(control) < 2
    print("ifma-trace: planted control (variable-time fs2_ifma_sum_var): %s" %
          ("traces differ, as they must" if not blind else "TRACES AGREE: the tracer is blind"))
    failed |= blind
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

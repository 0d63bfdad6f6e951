#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Simulated rates from a GPGPU-Sim log of tests/gpu/sim/sim_rate
(tests/harness/test-gpu-sim.sh rates; docs/GPU.md "Simulated in GPGPU-Sim").

Takes the statistics GPGPU-Sim prints after the timed kernel (fs2g_k_sign or
fs2g_k_verify, the launch after "timed batch begins"): its cycles, warp
instructions, IPC, occupancy and the stall counters, and converts items per
cycle into items per second on SMS simulated SMs at the configuration's core
clock, per SM, and scaled linearly by SM count and boost clock to the
RTX 3070, 3080 and 3090 (a linear scaling: it assumes every SM is busy and
that memory does not limit, which the simulator's statistics support for
these compute-bound kernels).

A launch stopped early by -gpgpu_max_cycle (test-gpu-sim.sh rates with
FS2_GPU_SIM_MAX_CYCLES, for a shorter run)
gives its steady-state rate instead: thread instructions per cycle (IPC)
over the simulated window divided by the thread instructions one item
takes, counted by a functional run of the same kernel at the same table
width (FUNC_LOG, e.g. the brief run's log: the instructions of its timed
launch over its N items).
Usage: sim_stats.py LOG OP N SMS [FUNC_LOG]
"""
import re
import sys

BOARDS = [  # name, SMs, boost clock in MHz (NVIDIA's specifications)
    ("RTX 3070", 46, 1725),
    ("RTX 3080", 68, 1710),
    ("RTX 3090", 82, 1695),
]


def main():
    log, op, n, sms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    func_log = sys.argv[5] if len(sys.argv) > 5 else None
    text = open(log, errors="replace").read()
    begin = text.find("sim_rate: timed batch begins")
    if begin < 0:
        sys.exit(f"sim_stats: {log}: no timed batch")
    clock = float(re.search(r"^-gpgpu_clock_domains\s+([0-9.]+):", text, re.M).group(1)) \
        if re.search(r"^-gpgpu_clock_domains", text, re.M) else 1132.0
    want = {"verify": "fs2g_k_verify_key", "verify-keys": "fs2g_k_verify"}.get(op, "fs2g_k_sign")
    blocks = re.split(r"\nkernel_name = ", text[begin:])
    stats = None
    for b in blocks[1:]:
        if re.search(r"%s(?![A-Za-z_])" % want, b.split("\n", 1)[0]):
            stats = b
            break
    if stats is None:
        sys.exit(f"sim_stats: {log}: no statistics for {want}")

    def num(key, cast=float):
        m = re.search(r"^\s*" + re.escape(key) + r"\s*=\s*([0-9.eE+-]+)", stats, re.M)
        try:
            return cast(m.group(1)) if m else None
        except ValueError:  # "-nan" (occupancy of a launch stopped early)
            return None

    cycles = num("gpu_sim_cycle", int)
    insn = num("gpu_sim_insn", int)
    ipc = num("gpu_ipc")
    occ = num("gpu_occupancy")
    l1d = num("L1D_total_cache_miss_rate")
    l2 = num("L2_total_cache_miss_rate")
    distro = re.search(r"^Stall:(\d+)\tW0_Idle:(\d+)\tW0_Scoreboard:(\d+)(.*)$", stats, re.M)
    bounded = "break due to reaching the maximum cycles" in text[begin:]
    if bounded:
        if not func_log:
            sys.exit(f"sim_stats: {log}: the launch was stopped early: give the functional run's log")
        ftext = open(func_log, errors="replace").read()
        fbegin = ftext.find("sim_rate: timed batch begins")
        fn = int(re.search(r"timed batch begins: \S+, (\d+) items", ftext[fbegin:]).group(1))
        done = [int(x) for x in re.findall(r"Done functional simulation \((\d+) instructions", ftext)]
        before = [int(x) for x in re.findall(r"Done functional simulation \((\d+) instructions", ftext[:fbegin])]
        per_item = (done[len(before)] - before[-1]) / fn
        items = insn / per_item
        print(f"sim-rate {op}: launch of {n} items stopped after {cycles} cycles (-gpgpu_max_cycle): "
              f"{insn} thread instructions = {items:.1f} items at {per_item / 1000:.1f} K thread instructions "
              f"per item (functional count, {func_log})")
    else:
        items = n
        per_item = insn / n
    per_s = items / (cycles / (clock * 1e6))
    per_sm_per_cycle = items / cycles / sms
    occ_s = f"occupancy {occ:.1f}%" if occ is not None else "occupancy not reported"
    print(f"sim-rate {op}: {n} items on {sms} SM(s) at {clock:.0f} MHz: {cycles} cycles, "
          f"{insn} thread instructions ({per_item / 1000:.1f} K per item), "
          f"IPC {ipc:.2f} thread instructions per cycle on {sms} SM(s), {occ_s}")
    if distro:
        stall, idle, sb = (int(distro.group(i)) for i in (1, 2, 3))
        issued = sum(int(x.split(":")[1]) for x in distro.group(4).split("\t") if ":" in x)
        total = stall + idle + sb + issued
        print(f"sim-rate {op}: SM cycles: issuing {100 * issued / total:.1f}%, scoreboard (operands not ready) "
              f"{100 * sb / total:.1f}%, pipeline stall {100 * stall / total:.1f}%, idle {100 * idle / total:.1f}%")
    if l1d is not None or l2 is not None:
        print(f"sim-rate {op}: L1D miss rate {l1d}, L2 miss rate {l2} (the timed launch; the table build ran functionally)")
    print(f"sim-rate {op}: {per_s:,.0f} /s on {sms} SM(s) at {clock:.0f} MHz, {per_sm_per_cycle * 1e6:.1f} per SM per "
          f"million cycles")
    for name, nsm, mhz in BOARDS:
        print(f"sim-rate {op}: scaled to {name} ({nsm} SMs, {mhz} MHz): "
              f"{per_sm_per_cycle * nsm * mhz * 1e6 / 1e6:,.2f} M/s")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Host CPU time of one guest boot under two QEMU binaries, and whether they agree.

    boot_cost.py BOOT QEMU_A QEMU_B [--rounds N] [--out DIR]

Runs BOOT with QEMU_A, QEMU_B, QEMU_B, QEMU_A (ABBA, N times) and prints,
per run, QEMU's CPU time (user and system of the launcher's process tree,
from getrusage) and wall time; then whether every run gave the same
modeled figures: the guest's MEMQOS-DATA lines, the power-off line and,
on aarch64, query-memqos-timing after power-off without the vCPUs'
time-ns (timing.settled_timing).  On x86 the counters after power-off
are left out: the vCPUs run a few instructions more or fewer before QEMU
stops them, however often the same binary runs.  A before/after of a change that must not move
modeled time (docs/benchmarks.md, "A round's end").  Boots:

  noisy       suite 70's noisy boot: aarch64, 2 vCPUs, a chase beside a
              stream (tests/guest-runner/timing.py)
  access-x86  the access-class boot on rdt-server-timing: x86_64, 2 vCPUs
              (tests/guest-runner/access.py)

CPU time is the figure to compare on a shared machine; wall time only on
an idle one.  A benchmark, not a test.
"""
import argparse
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402
import access  # noqa: E402


def boot(name):
    if name == "noisy":
        cfg = timing.Config(True, True, {})
        return timing.Boot("noisy", 2, cfg.noisy_params()), cfg, None, True
    t = access.targets()[1]
    return (t.boot, timing.Config(True, True, {}), access.variant_initrd(*t.initrd_args),
            False)


def run(name, qemu, out):
    b, cfg, initrd, counters = boot(name)
    a = argparse.Namespace(timeout=1800, kernel=None, initrd=initrd, qemu=qemu, mem="1G",
                           out=out, verbose=False)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    b.run(a, cfg)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, sys_ = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    figures = [line for _, _, line in b.data] + [str(b.stop_line)] + \
        ([json.dumps(timing.settled_timing(b.timing), sort_keys=True)] if counters else [])
    return user, sys_, wall, figures, b.ok()


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    p.add_argument("boot", choices=("noisy", "access-x86"))
    p.add_argument("qemu_a")
    p.add_argument("qemu_b")
    p.add_argument("--rounds", type=int, default=1, help="ABBA rounds (default 1)")
    p.add_argument("--out", default="/tmp/memqos-boot-cost", help="console logs")
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    seen = {}
    for r in range(a.rounds):
        for label, qemu in (("A", a.qemu_a), ("B", a.qemu_b), ("B", a.qemu_b), ("A", a.qemu_a)):
            user, sys_, wall, figures, (ok, detail) = run(a.boot, qemu, a.out)
            seen.setdefault(label, []).append(figures)
            print(f"MEASURE {a.boot} {label} round {r + 1}: CPU {user + sys_:.1f} s "
                  f"(user {user:.1f}, system {sys_:.1f}), wall {wall:.1f} s"
                  f"{'' if ok else ' -- the boot failed: ' + detail}", flush=True)
    runs = seen["A"] + seen["B"]
    differ = [i for i, f in enumerate(runs) if f != runs[0]]
    if not differ:
        print(f"SAME: all {len(runs)} runs gave the same modeled figures")
        return 0
    first = runs[differ[0]]
    lines = [f"  {x}\n  {y}" for x, y in zip(runs[0], first) if x != y][:3]
    print(f"DIFFER: {len(differ)} of {len(runs)} runs differ from the first; e.g.\n" +
          "\n".join(lines))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drive every MPAM MSC window of `-M virt,mpam=on` with random accesses.

QEMU runs under the qtest accelerator (no guest code): this script is the
only bus master.  It writes random values of every size to random offsets
of each MSC window (reserved offsets, out-of-range selectors and reserved
bits included), then checks that QEMU is still alive and that the MSCs
still answer their ID registers as at reset.  Meant to run on the ASan +
UBSan build (QEMU_VARIANT=asan qemu/build.sh), where any memory error or
undefined behaviour aborts QEMU and fails the test.

Usage: msc_fuzz.py QEMU [--accesses N] [--seed S]
"""
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

SIZES = {1: "b", 2: "w", 4: "l", 8: "q"}


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        for _ in range(200):
            try:
                self.sock.connect(path)
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("QMP socket never appeared")
        self.f = self.sock.makefile("rw")
        json.loads(self.f.readline())  # greeting
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "event" in r:
                continue
            if "error" in r:
                raise RuntimeError(f"{name}: {r['error']}")
            return r["return"]


def msc_windows(qmp):
    """(name, base, size) of each MSC, from the platform's QMP query."""
    out = []
    for msc in qmp.cmd("query-mpam")["msc"]:
        out.append((msc["name"], msc["base"], msc["size"]))
    if not out:
        raise RuntimeError("query-mpam lists no MSC")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qemu")
    ap.add_argument("--accesses", type=int, default=1_000_000,
                    help="random accesses per MSC window (default 1000000)")
    ap.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"msc-fuzz: seed {args.seed}, {args.accesses} accesses per MSC window")

    tmp = tempfile.mkdtemp(prefix="msc-fuzz-")
    qmp_path = os.path.join(tmp, "qmp.sock")
    qemu = subprocess.Popen(
        [args.qemu, "-M", "virt,mpam=on", "-cpu", "max", "-accel", "qtest",
         "-qtest", "stdio", "-qtest-log", "/dev/null", "-display", "none", "-nic", "none",
         "-qmp", f"unix:{qmp_path},server=on,wait=off"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1 << 20)
    qmp = Qmp(qmp_path)
    windows = msc_windows(qmp)

    def transact(lines):
        """Send a batch of qtest commands; return their replies."""
        qemu.stdin.write("".join(lines))
        qemu.stdin.flush()
        replies = []
        while len(replies) < len(lines):
            r = qemu.stdout.readline()
            if not r:
                raise RuntimeError(f"QEMU died (exit {qemu.wait()}) after {len(replies)} replies")
            if r.startswith("IRQ"):
                continue
            replies.append(r.rstrip("\n"))
        bad = [r for r in replies if not r.startswith("OK")]
        if bad:
            raise RuntimeError(f"qtest refused a command: {bad[0]}")
        return replies

    failures = passes = 0
    for name, base, size in windows:
        before = transact([f"readl 0x{base:x}\n", f"readl 0x{base + 4:x}\n",
                           f"readl 0x{base + 0x20:x}\n"])
        batch = []
        for i in range(args.accesses):
            n = rng.choice((1, 2, 4, 8))
            # Mostly inside the window, some at its very edge.
            off = rng.randrange(0, size - n + 1)
            if rng.random() < 0.5:
                off &= 0x3FFF & ~(n - 1)  # the register area, aligned
            if rng.random() < 0.7:
                val = rng.getrandbits(8 * n)
                batch.append(f"write{SIZES[n]} 0x{base + off:x} 0x{val:x}\n")
            else:
                batch.append(f"read{SIZES[n]} 0x{base + off:x}\n")
            # Small batches: the replies must fit the pipe while we still write.
            if len(batch) == 1000:
                transact(batch)
                batch = []
        if batch:
            transact(batch)
        # Reset restores the ID registers that a guest can never change.
        qmp.cmd("system_reset")
        after = transact([f"readl 0x{base:x}\n", f"readl 0x{base + 4:x}\n",
                          f"readl 0x{base + 0x20:x}\n"])
        ok = before == after
        failures += not ok
        passes += ok
        print(f"msc-fuzz: {name} @0x{base:x}+0x{size:x}: {args.accesses} accesses, "
              f"ID registers {'unchanged' if ok else f'changed {before} -> {after}'}")

    qmp.cmd("quit")
    rc = qemu.wait(timeout=60)
    if rc != 0:
        print(f"msc-fuzz: QEMU exited with status {rc}")
        failures += 1
    print(f"msc-fuzz: {passes} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

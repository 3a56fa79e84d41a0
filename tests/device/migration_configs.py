#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Migrations between differing memqos configurations are refused by name.

For each row of CASES a source QEMU (TCG, stopped with -S, no guest) saves
its state to a file and a destination started with one option changed
loads it.  The destination must exit with status 1 and say, on stderr,
"migration source has OPTION", the option as the user typed it (issue 25,
"Migration refuses what it cannot honour, by name").  For each base
configuration, a destination started like the source must load the same
stream: the refusals come from the difference, not from the stream.

Usage: migration_configs.py QEMU_AARCH64 QEMU_X86_64 X86_FIRMWARE [--stall S]
(X86_FIRMWARE: a directory with SeaBIOS, QEMU's -L).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import Checks, run_checks  # noqa: E402
from qmp import Qmp, migration_end  # noqa: E402  (machine put tests/lib on the path)

ICOUNT = ["-icount", "shift=0,sleep=off"]
INCOMING = ["-incoming", "defer"]
X86_CPU = "Denverton,-tsc-deadline,-spec-ctrl,-arch-capabilities,-ssbd,-xsavec"
# The base configurations: (target, arguments).
BASES = {
    "virt": ("aarch64", ["-M", "virt,mpam=on", "-cpu", "max", *ICOUNT]),
    "virt-timing": ("aarch64", ["-M", "virt,mpam=on,timing=on,ddr=on,bwmon=on",
                                "-cpu", "max", *ICOUNT]),
    "q35-rdt": ("x86_64", ["-M", "q35", "-cpu", X86_CPU + ",rdt=sapphirerapids",
                           "-global", "memqos-rdt.timing=on",
                           "-global", f"memqos-rdt.mba-peak={3 << 30}", *ICOUNT,
                           "-device", "memqos-spr-uncore,bus=pcie.0,addr=0x0a.0"]),
}
# (base, what the destination changes: a -M option or a -global, the
# option the refusal must name).  Issue 25's silent migrations first.
CASES = [
    ("virt-timing", "bwmon-cpu=msm8998", "bwmon-cpu"),
    ("virt-timing", "-global memqos-bwmon-v4-sdm845.count-unit-bytes=1048576",
     "count-unit-bytes"),
    ("virt-timing", "mpam-dspri=1:9", "mpam-dspri"),
    ("virt-timing", "-global memqos-timing.timing-quantum-ns=2000000", "timing-quantum-ns"),
    ("virt-timing", "-global memqos-timing.timing-store-lines=4", "timing-store-lines"),
    ("virt-timing", "-global memqos-timing.timing-prefetch-lines=8", "timing-prefetch-lines"),
    ("virt-timing", "-global memqos-timing.timing-dma-partid=1", "timing-dma-partid"),
    ("virt-timing", "-global memqos-timing.timing-mhz=2000", "timing-mhz"),
    ("virt-timing", "-global memqos-ddr.ddr-channels=2", "ddr-channels"),
    ("virt-timing", "-global memqos-osm-l3.port-bytes=19", "port-bytes"),
    ("virt-timing", "l2-ways=16", "l2-ways"),
    ("virt", "l1d-ways=8", "l1d-ways"),
    ("virt", "timing=on", "timing"),
    ("virt", "-global memqos-mpam-msc.nrdy-ns=5000", "nrdy-ns"),
    ("q35-rdt", "-global memqos-rdt.mba-peak=1G", "mba-peak"),
    ("q35-rdt", "-global memqos-x86-pmu.tsc-mhz=2000", "tsc-mhz"),
    ("q35-rdt", "-global memqos-spr-uncore.boxes=4", "boxes"),
]


class Qemu:
    """A QEMU without a guest, stopped, with QMP on a socket."""

    def __init__(self, qemu, args, tmp, name, stall):
        self.sock = os.path.join(tmp, name + ".qmp")
        self.err_path = os.path.join(tmp, name + ".err")
        with open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(
                [*qemu, *args, "-S", "-display", "none", "-nodefaults", "-m", "512M",
                 "-qmp", f"unix:{self.sock},server=on,wait=off"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        self.qmp = None
        # a QEMU that refuses its arguments exits before it makes the socket
        deadline = time.monotonic() + stall
        while not os.path.exists(self.sock) and self.proc.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.01)
        if self.proc.poll() is None:
            try:
                self.qmp = Qmp(self.sock, timeout=stall)
            except (OSError, ConnectionError):
                pass

    def stderr(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def migrate(self, cmd, uri, deadline):
        """Run migrate or migrate-incoming; the final status, or None if QEMU
        exited."""
        try:
            self.qmp.execute(cmd, uri=uri)
            return migration_end(self.qmp.execute, deadline)
        except (ConnectionError, OSError, RuntimeError):
            return None

    def end(self, timeout=30):
        """Quit (if still running); the exit status."""
        try:
            self.qmp and self.qmp.execute("quit")
        except (ConnectionError, OSError, RuntimeError):
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def split_change(base_args, change):
    """BASE_ARGS with CHANGE: an -M option ("l2-ways=16"), or an option and
    its value ("-global X.p=v", "-object memqos-agent,...")."""
    args = list(base_args)
    if change.startswith("-"):
        return args + change.split(" ", 1)
    i = args.index("-M") + 1
    args[i] += "," + change
    return args


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qemu_aarch64")
    ap.add_argument("qemu_x86_64")
    ap.add_argument("x86_firmware", help="QEMU's -L for x86_64: SeaBIOS")
    ap.add_argument("--stall", type=int, default=30,
                    help="longest wait for any one reply from QEMU, seconds (default 30)")
    a = ap.parse_args()
    binaries = {"aarch64": [a.qemu_aarch64], "x86_64": [a.qemu_x86_64, "-L", a.x86_firmware]}
    tap = Checks(len(BASES) + len(CASES))
    tmp = tempfile.mkdtemp(prefix="memqos-migration-configs-")
    try:
        return run_checks(tap, lambda: run(tap, binaries, tmp, a.stall))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(tap, binaries, tmp, stall):
    streams = {}
    for base, (target, args) in BASES.items():
        stream = os.path.join(tmp, base + ".stream")
        src = Qemu(binaries[target], args, tmp, base + "-src", stall)
        status = src.qmp and src.migrate("migrate", f"file:{stream}",
                                         time.monotonic() + 60)
        src.end()
        dst = Qemu(binaries[target], args + INCOMING, tmp, base + "-dst", stall)
        got = dst.qmp and dst.migrate("migrate-incoming", f"file:{stream}",
                                      time.monotonic() + 60)
        rc = dst.end()
        ok = status == "completed" and got == "completed"
        tap.check(ok, f"{base}: a destination configured as the source loads its stream",
                  diag=[f"save {status}, load {got}, exit status {rc}",
                        *src.stderr().splitlines()[-3:], *dst.stderr().splitlines()[-3:]])
        streams[base] = stream if status == "completed" else None
    for base, change, prop in CASES:
        target, args = BASES[base]
        what = f"{base} with {change}: refused, naming {prop}"
        if not streams[base]:
            tap.check(False, what, diag=["the source did not save a stream"])
            continue
        dst = Qemu(binaries[target], split_change(args, change) + INCOMING, tmp, "dst", stall)
        got = dst.qmp and dst.migrate("migrate-incoming", f"file:{streams[base]}",
                                      time.monotonic() + 60)
        rc = dst.end()
        said = [ln for ln in dst.stderr().splitlines()
                if f"migration source has {prop} " in ln]
        tap.check(got != "completed" and rc == 1 and said, what,
                  said[0] if said else "",
                  [f"load {got}, exit status {rc}", *dst.stderr().splitlines()[-3:]])


if __name__ == "__main__":
    sys.exit(main())

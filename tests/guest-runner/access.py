#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every instruction class that touches memory reaches the modeled memory system.

Issue 26 item 4: on both targets, memqos-access (guest-tests/access) runs
each class over a buffer of twice the last level, after an untimed read of
as much other memory, in a resctrl group of its own, and reports per class
the bytes it touched, what the group's mbm_total_bytes counted and the
modeled time it took.  A class that reaches the model brings every line
from memory, so the check per class is

  mbm_delta >= bytes   and   ns >= bytes / the configured peak bandwidth

and on aarch64 the kernel's path as issue 26 gives it (x86_64's REP STOSB
class is the same path, and 2 GiB at MBA's peak cost most of a minute), dd if=/dev/zero of=/dev/null
bs=64M count=16 in the group: the kernel zeroes dd's buffer, so every
line is filled and written back: mbm_delta >= 2 x 1 GiB less what the
caches (L1D, L2 and L3 together) can still hold dirty at the end.

  aarch64  -M virt,mpam=on,timing=on,ddr=on with one DDR channel: the
           peak is the channel's (ddr-data-rate-mts x ddr-bus-bytes).
           Loads and stores of every width, LDP/STP and LD1/ST1 of
           SIMD registers, exclusives (LDXR/STXR, LDXP/STXP), LSE atomics
           (LDADD, SWP, CASAL), MOPS SET and CPY, DC ZVA, unaligned
           accesses that cross lines and pages.
  x86_64   the rdt-server-timing preset: the peak is MBA's 100 %
           (memqos-rdt.mba-peak).  MOV of every width, SSE loads and
           stores, MOVNTI/MOVNTDQ, LOCK XADD/CMPXCHG and XCHG, REP
           STOS/MOVS (byte and quadword), unaligned accesses.

A class the CPU lacks is a counted SKIP naming the feature.  The guest
programs come in the 'access' initramfs variant
(guest-tests/initramfs/build.sh [x86_64] access), so the default initramfs
(and the other suites' page layout) does not change.  Reports TAP.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402
from timing import Boot, X86Boot, number  # noqa: E402
import ddr_config  # noqa: E402
from presets import PRESETS  # noqa: E402
from tap import Tap  # noqa: E402

ARM_CHANNELS = 1
# The plan: every class memqos-access runs on each target (it refuses a name
# it does not know, so a class missing from the program fails its boot).
ARM_CLASSES = ("ldrb", "ldrh", "ldr-w", "ldr-x", "ldr-q", "ldp-x", "ldp-q", "ld1-4",
               "strb", "strh", "str-w", "str-x", "str-q", "stp-x", "stp-q", "st1-4",
               "ldxr-stxr", "ldxp-stxp", "ldadd", "swp", "casal", "mops-set", "mops-cpy",
               "dc-zva", "ldr-x-unaligned", "str-x-unaligned", "ldr-q-unaligned")
X86_CLASSES = ("mov8-load", "mov16-load", "mov32-load", "mov64-load", "movdqa-load",
               "mov8-store", "mov16-store", "mov32-store", "mov64-store", "movdqa-store",
               "movnti", "movntdq", "lock-xadd", "lock-cmpxchg", "xchg",
               "rep-stosb", "rep-stosq", "rep-movsb", "rep-movsq",
               "mov64-load-unaligned", "mov64-store-unaligned", "movdqu-load-unaligned")
X86_PRESET = "rdt-server-timing"
# the preset's L3, and its L1D + L2 + L3 (hw/intel/rdt-desc.c, Sapphire Rapids)
X86_L3, X86_CACHES = 30 << 20, (48 << 10) + (2 << 20) + (30 << 20)


def variant_initrd(*args):
    """The initramfs 'guest-tests/initramfs/build.sh [x86_64] access' builds."""
    return subprocess.run(["bash", os.path.join(timing.TOP, "guest-tests/initramfs/build.sh"),
                           "--print", *args, "access"], capture_output=True, text=True,
                          check=True).stdout.strip().splitlines()[-1]


def x86_peak():
    """memqos-rdt.mba-peak as the preset sets it: MBA's 100 %, bytes/s."""
    q = PRESETS[X86_PRESET].qemu
    return next(int(v.split("=", 1)[1]) for v in q if v.startswith("memqos-rdt.mba-peak="))


def arm_peak():
    cfg = ddr_config.defaults()
    cfg["ddr-channels"] = ARM_CHANNELS
    return ddr_config.peak_bytes_per_s(cfg)


class Target:
    def __init__(self, name, boot, classes, initrd_args, peak, what, cached):
        self.name, self.boot, self.initrd_args = name, boot, initrd_args
        self.peak, self.what, self.cached = peak, what, cached
        self.only(classes)

    def only(self, classes):
        """Run (and plan) just CLASSES; the dd row only with every class."""
        self.classes = list(classes)
        self.boot.params["access-classes"] = ",".join(self.classes)
        if len(self.classes) < len(self.all_classes()):
            self.boot.params.pop("access-dd", None)

    def all_classes(self):
        return ARM_CLASSES if self.name == "aarch64" else X86_CLASSES

    def plan(self):
        return 1 + len(self.classes) + bool(self.boot.params.get("access-dd"))

    def run(self, a):
        a = argparse.Namespace(**{**vars(a), "initrd": a.initrd or
                                         variant_initrd(*self.initrd_args)})
        self.boot.run(a, timing.Config(True, True, {}))

    def results(self):
        """[(name, result, detail)]: the boot, one per planned class, dd."""
        ok, detail = self.boot.ok()
        out = [(f"access {self.name} boot", "PASS" if ok else "FAIL", detail)]
        rows = {kv["class"]: kv for kv in self.boot.rows("access") if "class" in kv}
        for c in self.classes:
            out.append((f"access {self.name} {c}", *self.check(rows.get(c, {}))))
        if self.boot.params.get("access-dd"):
            out.append((f"access {self.name} dd", *self.check_dd(self.boot.row("access-dd"))))
        return out

    def check_dd(self, kv):
        size, mbm = number(kv, "bytes"), number(kv, "mbm_delta")
        if None in (size, mbm):
            return "FAIL", f"no dd measurement: {kv}"
        want = 2 * size - self.cached
        return ("PASS" if mbm >= want else "FAIL"), \
            f"dd of {size:.0f} bytes from /dev/zero: mbm_total_bytes counted {mbm:.0f} " \
            f"(want >= {want:.0f}: every line filled and written back, less what the caches hold)"

    def check(self, kv):
        if "skip" in kv:
            return "SKIP", f"the CPU lacks it: {kv['skip']}"
        size, mbm, ns = number(kv, "bytes"), number(kv, "mbm_delta"), number(kv, "ns")
        if None in (size, mbm, ns):
            return "FAIL", f"no complete measurement: {kv or 'the class did not report'}"
        floor_ns = size / self.peak * 1e9
        ok = mbm >= size and ns >= floor_ns
        return ("PASS" if ok else "FAIL"), \
            f"{size:.0f} bytes: mbm_total_bytes counted {mbm:.0f} (want >= the bytes), " \
            f"{ns / 1e6:.3f} ms modeled (want >= {floor_ns / 1e6:.3f} ms at {self.what} " \
            f"{self.peak / 1e9:g} GB/s)"


def targets():
    arm_l3 = timing.GEOMETRY["l3-size"]
    arm_caches = sum(timing.GEOMETRY[f"{lv}-size"] for lv in ("l1d", "l2", "l3"))
    arm = Boot("access-aarch64", 1,
               {"scenario": "timing-access", "access": 2 * arm_l3, "access-dd": 1}, ddr=True,
               extra=["-global", f"memqos-ddr.ddr-channels={ARM_CHANNELS}"])
    x86 = X86Boot("access-x86_64", 2, {"scenario": "timing-access", "access": 2 * X86_L3},
                  preset=X86_PRESET)
    return [Target("aarch64", arm, ARM_CLASSES, (), arm_peak(), "the DDR channel's peak",
                   arm_caches),
            Target("x86_64", x86, X86_CLASSES, ("x86_64",), x86_peak(),
                   "MBA's 100 % (mba-peak)", X86_CACHES)]


def main(argv):
    p = timing.runner_parser(__doc__)
    p.add_argument("--target", choices=("aarch64", "x86_64"), action="append",
                   help="only this target (repeatable; default both)")
    p.add_argument("--classes", metavar="A,B,...",
                   help="only these classes (memqos-access's names; the dd row needs them all)")
    a = timing.runner_args(p, argv, "access", "the console logs", 1800)
    chosen = [t for t in targets() if not a.target or t.name in a.target]
    for t in chosen:
        if a.classes:
            t.only(c for c in t.all_classes() if c in a.classes.split(","))
    tap = Tap(sum(t.plan() for t in chosen))
    for t in chosen:
        t.run(a)
        for r in t.results():
            tap.result(*r)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

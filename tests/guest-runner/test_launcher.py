#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The launcher's command line (./memqos boot --dry-run; no QEMU runs).

    python3 -m unittest discover -s tests/guest-runner -p test_launcher.py -v
"""
import os
import shlex
import subprocess
import sys
import unittest

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "scripts"))
from presets import SERVER_CPU, SERVER_QEMU, X86_CPU  # noqa: E402


def boot(*args):
    """./memqos boot --dry-run ARGS: (exit status, QEMU argv or None, stderr)."""
    r = subprocess.run([os.path.join(TOP, "memqos"), "boot", "--dry-run", "--qemu", "/bin/true",
                        "--kernel", "/dev/null", "--initrd", "none", *args],
                       capture_output=True, text=True)
    cmd = [line[len("memqos: "):] for line in r.stderr.splitlines()
           if line.startswith("memqos: /bin/true ")]
    return r.returncode, shlex.split(cmd[0]) if cmd else None, r.stderr


def option(argv, name):
    """The values following each occurrence of NAME in ARGV."""
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == name]


class Timing(unittest.TestCase):
    def test_help_names_timing(self):
        r = subprocess.run([os.path.join(TOP, "memqos"), "boot", "--help"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--timing", r.stdout)
        self.assertIn("timing=on", " ".join(r.stdout.split()))

    def test_timing_adds_machine_option_and_icount(self):
        rc, argv, err = boot("--timing")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["virt,mpam=on,timing=on"])
        self.assertEqual(option(argv, "-icount"), ["shift=0,sleep=off"])

    def test_timing_keeps_machine_options(self):
        rc, argv, err = boot("--timing", "--machine", "virt,mpam=on,l2-size=512K,l3-size=16M")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["virt,mpam=on,l2-size=512K,l3-size=16M,timing=on"])

    def test_timing_figures_pass_through(self):
        rc, argv, err = boot("--timing", "--", "-global", "memqos-timing.timing-mem-ns=120")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-global"), ["memqos-timing.timing-mem-ns=120"])

    def test_timing_already_in_machine_not_repeated(self):
        rc, argv, err = boot("--timing", "--machine", "virt,mpam=on,timing=on")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["virt,mpam=on,timing=on"])

    def test_without_timing_nothing_changes(self):
        rc, argv, err = boot()
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["virt,mpam=on"])
        self.assertNotIn("-icount", argv)

    def test_timing_off_in_machine_conflicts(self):
        rc, argv, err = boot("--timing", "--machine", "virt,mpam=on,timing=off")
        self.assertEqual(rc, 2)
        self.assertIn("--timing conflicts with --machine virt,mpam=on,timing=off", err)

    def test_icount_after_dashes_conflicts(self):
        rc, argv, err = boot("--timing", "--", "-icount", "3")
        self.assertEqual(rc, 2)
        self.assertIn("--timing sets -icount itself", err)


if __name__ == "__main__":
    unittest.main()


class DeviceTree(unittest.TestCase):
    def test_bwmon_preset_boots_the_kernel_without_firmware(self):
        rc, argv, err = boot("--preset", "bwmon")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["virt,mpam=on,timing=on,bwmon=on"])
        self.assertEqual(option(argv, "-smp"), ["4"])
        self.assertEqual(option(argv, "-icount"), ["shift=0,sleep=off"])
        self.assertEqual(option(argv, "-drive"), [])     # no pflash: QEMU's DT
        self.assertEqual(option(argv, "-kernel"), ["/dev/null"])

    def test_dt_drops_the_firmware(self):
        rc, argv, err = boot("--dt")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-drive"), [])
        rc, argv, err = boot()
        self.assertEqual(len(option(argv, "-drive")), 2)  # UEFI code and variables

    def test_dt_is_for_aarch64(self):
        rc, argv, err = boot("--dt", "--arch", "x86_64")
        self.assertEqual(rc, 2)
        self.assertIn("--dt: x86_64 boots with SeaBIOS", err)


class X86(unittest.TestCase):
    def test_rdt_preset_runs_q35_with_the_rdt_cpu(self):
        rc, argv, err = boot("--preset", "rdt-goldmont")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["q35"])
        self.assertEqual(option(argv, "-cpu"), [X86_CPU + ",rdt=goldmont"])
        self.assertEqual(option(argv, "-smp"), ["4"])
        self.assertEqual(len(option(argv, "-L")), 1)
        self.assertIn("console=ttyS0", option(argv, "-append")[0])
        self.assertEqual(option(argv, "-drive"), [])     # no pflash
        self.assertNotIn("-icount", argv)

    def test_arch_x86_64_without_preset(self):
        rc, argv, err = boot("--arch", "x86_64", "--cpu", "Denverton,rdt=sapphirerapids")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-M"), ["q35"])
        self.assertEqual(option(argv, "-cpu"), ["Denverton,rdt=sapphirerapids"])

    def test_x86_timing_needs_an_rdt_cpu(self):
        rc, argv, err = boot("--arch", "x86_64", "--timing")
        self.assertEqual(rc, 2)
        self.assertIn("--timing on x86_64 needs an RDT CPU", err)

    def test_rdt_timing_preset_switches_the_rdt_device_on(self):
        rc, argv, err = boot("--preset", "rdt-server-timing")
        self.assertEqual(rc, 0, err)
        self.assertEqual(option(argv, "-cpu"), [SERVER_CPU])
        self.assertEqual(option(argv, "-device"), [SERVER_QEMU[1]])
        # the device on, then the preset's streaming core and MBA's 100 %
        self.assertEqual(option(argv, "-global"), ["memqos-rdt.timing=on",
                                                   "memqos-timing.timing-prefetch-lines=16",
                                                   "memqos-timing.timing-prefetch-stride=2048",
                                                   f"memqos-rdt.mba-peak={3 << 30}"])
        self.assertEqual(option(argv, "-icount"), ["shift=0,sleep=off"])
        self.assertEqual(option(argv, "-M"), ["q35,sata=off"])

    def test_preset_sets_arch_itself(self):
        rc, argv, err = boot("--preset", "rdt-server", "--arch", "aarch64")
        self.assertEqual(rc, 2)
        self.assertIn("sets --arch itself", err)

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the access-class runner's verdicts (no QEMU needed).

    python3 -m unittest discover -s tests/guest-runner -p test_access.py -v
"""
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import access  # noqa: E402
from timing import Boot  # noqa: E402

MIB = 1 << 20


def target(rows, peak=1e9, classes=("ldr-x",)):
    boot = Boot("t", 1, {})
    boot.done, boot.rc = True, 0
    boot.data = [("access", kv, "") for kv in rows]
    return access.Target("t", boot, classes, (), peak, "peak", 8 * MIB)


class Verdicts(unittest.TestCase):
    def verdict(self, kv, peak=1e9):
        return target([kv], peak, (kv["class"],)).results()[1][1]

    def test_a_class_through_the_model_passes(self):
        kv = {"class": "ldr-x", "bytes": str(16 * MIB), "mbm_delta": str(17 * MIB), "ns": "20000000"}
        self.assertEqual(self.verdict(kv), "PASS")

    def test_a_class_the_monitors_do_not_see_fails(self):
        """What a class that bypasses the model would report: MBM short of the bytes."""
        kv = {"class": "dc-zva", "bytes": str(16 * MIB), "mbm_delta": "4096", "ns": "20000000"}
        self.assertEqual(self.verdict(kv), "FAIL")

    def test_faster_than_the_peak_fails(self):
        # 16 MiB at 1 GB/s takes 16.8 ms: 1 ms means it was not charged
        kv = {"class": "mops-set", "bytes": str(16 * MIB), "mbm_delta": str(16 * MIB), "ns": "1000000"}
        self.assertEqual(self.verdict(kv), "FAIL")

    def test_an_absent_feature_is_a_skip(self):
        self.assertEqual(self.verdict({"class": "ldadd", "skip": "no_FEAT_LSE"}), "SKIP")

    def test_an_unreadable_monitor_fails(self):
        kv = {"class": "ldr-x", "bytes": str(16 * MIB), "mbm_delta": "na", "ns": "20000000"}
        self.assertEqual(self.verdict(kv), "FAIL")

    def test_the_boot_comes_first_and_an_error_line_fails_it(self):
        t = target([{"error": "exit1:no_class"}])
        self.assertEqual([(n, r) for n, r, _ in t.results()],
                         [("access t boot", "FAIL"), ("access t ldr-x", "FAIL")])

    def test_a_planned_class_that_did_not_report_fails(self):
        kv = {"class": "ldr-x", "bytes": str(16 * MIB), "mbm_delta": str(17 * MIB), "ns": "20000000"}
        t = target([kv], classes=("ldr-x", "ldr-q"))
        self.assertEqual([r for _, r, _ in t.results()], ["PASS", "PASS", "FAIL"])
        self.assertEqual(t.plan(), 3)

    def test_the_plan_lists_every_class_of_the_program(self):
        """The runner's lists are the program's tables, in its order."""
        src = open(os.path.join(os.path.dirname(access.__file__), "..", "..", "guest-tests",
                                "access", "memqos-access.c")).read()
        tables = re.findall(r"static const Class classes\[\] = \{(.*?)\};", src, re.S)
        names = [re.findall(r'\{ "([^"]+)"', t) for t in tables]
        self.assertEqual(names, [list(access.ARM_CLASSES), list(access.X86_CLASSES)])

    def test_dd_wants_every_line_filled_and_written_back(self):
        def dd(mbm):
            t = target([{"bytes": str(1 << 30), "mbm_delta": str(mbm)}])
            t.boot.data = [("access-dd", t.boot.data[0][1], "")]
            t.boot.params["access-dd"] = 1
            t.classes = []
            return t.results()[-1][:2]
        self.assertEqual(dd(2 << 30), ("access t dd", "PASS"))
        self.assertEqual(dd(1 << 30), ("access t dd", "FAIL"))

    def test_peaks_come_from_the_configuration(self):
        self.assertEqual(access.x86_peak(), 3 << 30)
        self.assertGreater(access.arm_peak(), 1e9)


if __name__ == "__main__":
    unittest.main()

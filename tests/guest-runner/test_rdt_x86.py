#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of how the RDT runner judges the kernel's resctrl selftests:
an ok that compared nothing is vacuous, and MBM's and MBA's differences
above issue 10's 1 % are not ok (no QEMU needed).

    python3 -m unittest discover -s tests/guest-runner -p test_rdt_x86.py -v
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rdt_x86 as r  # noqa: E402


class FakeTap:
    def __init__(self):
        self.rows = []

    def result(self, name, status, detail=""):
        self.rows.append((name, status, detail))


# MBA's lines as the 7.3 selftest prints them: two schematas compared, the
# rest under its 2500 MiB threshold
MBA = ["avg_diff_per: 0%", "avg_bw_imc: 3071", "avg_bw_resc: 3072",
       "avg_diff_per: 1%", "avg_bw_imc: 2760", "avg_bw_resc: 2779"]


class Judge(unittest.TestCase):
    def judge(self, name, lines, text="ok status=0 seconds=60"):
        tap = FakeTap()
        r.selftest_result(tap, "rdt-server-timing", name, text, [], lines)
        return tap.rows[0][1]

    def test_mba_comparing_within_one_percent_passes(self):
        self.assertEqual(self.judge("MBA", MBA), "PASS")

    def test_mba_comparing_nothing_is_not_a_pass(self):
        self.assertEqual(self.judge("MBA", []), "FAIL")

    def test_mbm_or_mba_above_one_percent_fails(self):
        self.assertEqual(self.judge("MBA", MBA + ["avg_diff_per: 2%"]), "FAIL")
        self.assertEqual(self.judge("MBM", ["avg_diff_per: 9%"]), "FAIL")
        self.assertEqual(self.judge("MBM", ["avg_diff_per: 0%"]), "PASS")

    def test_l3_cat_with_zero_averages_is_vacuous(self):
        self.assertTrue(r.vacuous("L3_CAT", ["Average LLC val: 0", "Average LLC val: 0"]))
        self.assertFalse(r.vacuous("L3_CAT", ["Average LLC val: 17044", "Average LLC val: 229523"]))


if __name__ == "__main__":
    unittest.main()

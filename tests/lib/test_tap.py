#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of tests/lib/tap.py: what run-all.sh counts, and what it fails."""
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tap  # noqa: E402


def read(text, status=0):
    out = []
    p = tap.Parser("s", emit=out.append)
    for line in text.splitlines():
        p.line(line)
    return p.finish(status), out


class Parse(unittest.TestCase):
    def test_counts_and_names(self):
        counts, out = read("1..3\nok 1 - a\n# why a\nnot ok 2 - b\n# why b\n# more\n"
                           "ok 3 - c # SKIP no iasl\n")
        self.assertEqual(counts, (1, 1, 1))
        self.assertEqual(out, ["PASS s/a: why a", "FAIL s/b: why b", "     more",
                               "SKIP s/c: no iasl"])

    def test_missing_plan_fails(self):
        counts, out = read("ok 1 - a\n", status=1)
        self.assertEqual(counts, (1, 1, 0))
        self.assertIn("no TAP plan", out[-1])

    def test_unreported_tests_fail(self):
        counts, out = read("1..3\nok 1 - a\n")
        self.assertEqual(counts, (1, 2, 0))
        self.assertEqual(out[-2:], ["FAIL s/#2: planned (3 tests) but never reported",
                                    "FAIL s/#3: planned (3 tests) but never reported"])

    def test_more_than_planned_fails(self):
        self.assertEqual(read("1..1\nok 1 - a\nok 2 - b\n")[0], (2, 1, 0))

    def test_duplicate_and_out_of_order(self):
        counts, out = read("1..2\nok 1 - a\nok 3 - a\n")
        self.assertEqual(counts, (2, 2, 0))
        self.assertTrue(any("reported twice" in o for o in out))
        self.assertTrue(any("out of order" in o for o in out))

    def test_exit_status_without_failure(self):
        counts, out = read("1..1\nok 1 - a\n", status=124)
        self.assertEqual(counts, (1, 1, 0))
        self.assertIn("killed by timeout", out[-1])
        # A failed test already explains a non-zero status.
        self.assertEqual(read("1..1\nnot ok 1 - a\n", status=1)[0], (0, 1, 0))

    def test_bail_out(self):
        counts, out = read("1..5\nok 1 - a\nBail out! no QEMU\n", status=1)
        self.assertEqual(counts, (1, 1, 0))
        self.assertEqual(out[-1], "FAIL s/bail-out: no QEMU")

    def test_commentary_passes_through(self):
        counts, out = read("building\n1..0 # SKIP nothing here\n")
        self.assertEqual(out, ["  building", "SKIP s: nothing here"])
        self.assertEqual(counts, (0, 0, 1))


class Write(unittest.TestCase):
    def test_roundtrip(self):
        buf = io.StringIO()
        t = tap.Tap(3, out=buf)
        t.result("a b", "PASS", "x")
        t.result("c", "FAIL", "1\n2")
        t.result("d", "SKIP", "why")
        self.assertEqual(buf.getvalue(),
                         "1..3\nok 1 - a b\n# x\nnot ok 2 - c\n# 1\n# 2\nok 3 - d # SKIP why\n")
        self.assertEqual(read(buf.getvalue())[0], (1, 1, 1))


if __name__ == "__main__":
    unittest.main()

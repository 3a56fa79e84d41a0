#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests of the host-side Python, no QEMU needed: every tests/*/test_*.py
# (tests/lib: TAP; tests/guest-runner: the guest harness's parsing and MSC
# checks; ...).  TAP: one test per unittest case; the plan is the number of
# cases the loader finds.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
exec python3 - <<'PY'
import glob
import os
import sys
import unittest
sys.path.insert(0, "tests/lib")
from tap import Tap

dirs = sorted({os.path.dirname(f) for f in glob.glob("tests/*/test_*.py")})
suite = unittest.TestSuite(unittest.defaultTestLoader.discover(d, pattern="test_*.py", top_level_dir=d)
                           for d in dirs)
tap = Tap(suite.countTestCases())


class TapResult(unittest.TestResult):
    def addSuccess(self, test):
        tap.result(test.id(), "PASS")

    def addFailure(self, test, err):
        tap.result(test.id(), "FAIL", self._exc_info_to_string(err, test))

    addError = addFailure

    def addSkip(self, test, reason):
        tap.result(test.id(), "SKIP", reason)


suite.run(TapResult())
PY

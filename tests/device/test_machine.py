# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of machine.py without QEMU: a stand-in QEMU (this file run as
a program) that answers QMP but hangs or dies on qtest, and the plan
bookkeeping of Checks."""
import io
import json
import os
import shutil
import socket
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import Checks, Died, Hang, Machine, run_checks  # noqa: E402


def fake_qemu(mode, args):
    """Answer QMP on the -qmp socket; on qtest (stdin) hang or exit 3."""
    path = args[args.index("-qmp") + 1].split("unix:")[1].split(",")[0]
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(path)
    srv.listen(1)
    conn, _ = srv.accept()
    f = conn.makefile("rw")
    f.write(json.dumps({"QMP": {}}) + "\n")
    f.flush()
    f.readline()
    f.write(json.dumps({"return": {}}) + "\n")
    f.flush()
    line = sys.stdin.readline()
    if mode == "die":
        sys.exit(3)
    if mode == "echo":
        print("OK 0x5", flush=True)
        line = sys.stdin.readline()
    time.sleep(60 if line else 0)


class MachineTest(unittest.TestCase):
    def machine(self, mode, **kw):
        script = os.path.join(self.tmp, "qemu")
        with open(script, "w") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} {mode} \"$@\"\n")
        os.chmod(script, 0o755)
        return Machine(script, [], **kw)

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-machine-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_hang_is_reported_and_killed(self):
        m = self.machine("hang", stall=1)
        t = time.monotonic()
        with self.assertRaisesRegex(Hang, "no qtest reply within 1 s"):
            m.qtest(["readl 0x0"])
        self.assertLess(time.monotonic() - t, 5)
        self.assertIsNotNone(m.proc.poll(), "the hung QEMU was killed")
        m.cleanup()

    def test_run_budget(self):
        m = self.machine("echo", timeout=2, stall=30)
        self.assertEqual(m.read(0), 5)
        with self.assertRaisesRegex(Hang, "exceeded its 2 s timeout"):
            m.qtest(["readl 0x0"])
        m.cleanup()

    def test_death_is_reported(self):
        m = self.machine("die", stall=5)
        with self.assertRaisesRegex(Died, r"exit 3"):
            m.qtest(["readl 0x0"])
        m.cleanup()


class ChecksTest(unittest.TestCase):
    def test_unrun_checks_fail_and_say_why(self):
        out = io.StringIO()
        with redirect_stdout(out):
            c = Checks(3)

            def body():
                c.check(True, "first")
                raise Hang("QEMU hung: test")
            status = run_checks(c, body)
        lines = out.getvalue().splitlines()
        self.assertEqual(status, 1)
        self.assertEqual(lines[0], "1..3")
        self.assertEqual(lines[1], "ok 1 - first")
        self.assertEqual(lines[2], "not ok 2 - QEMU answered every request: QEMU hung: test")
        self.assertEqual(lines[3], "not ok 3 - planned check 3 did not run (see check 2)")

    def test_all_pass(self):
        with redirect_stdout(io.StringIO()):
            c = Checks(2)
            c.check(True, "a")
            c.skip("b", "why")
            self.assertEqual(c.done(), 0)


if __name__ == "__main__":
    fake_qemu(sys.argv[1], sys.argv[2:])

# SPDX-License-Identifier: GPL-2.0-or-later
"""A QEMU that the device tests drive without a guest, and their TAP output.

QEMU runs under the qtest accelerator: the test is the only bus master and
reaches MMIO through qtest commands on QEMU's stdin/stdout, and the machine
through QMP.  Every reply has a deadline: a QEMU that stops answering (hung,
stopped, deadlocked) raises Hang, with a message that says so, instead of
blocking the test suite.
"""
import argparse
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from qmp import Qmp  # noqa: E402  (the host-side tests' one QMP client)
from tap import Tap  # noqa: E402

SIZES = {1: "b", 2: "w", 4: "l", 8: "q"}


class Hang(RuntimeError):
    """QEMU did not answer in time."""


class Died(RuntimeError):
    """QEMU exited while the test still talked to it."""


class Machine:
    """qemu-system-aarch64 ARGS under qtest, with QMP on a private socket.

    timeout: the whole run's budget in seconds; stall: the longest wait for
    any single reply.  Whichever ends first makes the next wait raise Hang
    (and kills QEMU)."""

    def __init__(self, qemu, args, timeout=600, stall=30, env=None):
        self.tmp = tempfile.mkdtemp(prefix="memqos-device-")
        qmp_path = os.path.join(self.tmp, "qmp.sock")
        self.stderr_path = os.path.join(self.tmp, "stderr")
        self.timeout, self.stall = timeout, stall
        self.deadline = time.monotonic() + timeout
        with open(self.stderr_path, "w") as err:
            self.proc = subprocess.Popen(
                [qemu, *args, "-accel", "qtest", "-qtest", "stdio",
                 "-qtest-log", "/dev/null", "-display", "none", "-nic", "none",
                 "-qmp", f"unix:{qmp_path},server=on,wait=off"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=env)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.pid = self.proc.pid
        self.buf = b""
        try:
            self.qmp = Qmp(qmp_path, timeout=stall)
        except (OSError, ConnectionError) as e:
            self.kill()
            raise Died(f"QEMU did not start: {e}; {self.stderr_tail()}") from e

    # ---- deadlines ----------------------------------------------------------
    def _wait(self, fd, write):
        now = time.monotonic()
        limit = min(self.deadline, now + self.stall) - now
        if limit > 0:
            r, w, _ = select.select([] if write else [fd], [fd] if write else [], [], limit)
            if r or w:
                return
        self.kill()
        if time.monotonic() >= self.deadline:
            raise Hang(f"QEMU hung: the run exceeded its {self.timeout} s timeout; killed it")
        raise Hang(f"QEMU hung: no qtest reply within {self.stall} s; killed it")

    def _write(self, data):
        fd = self.proc.stdin.fileno()
        while data:
            self._wait(fd, True)
            try:
                data = data[os.write(fd, data):]
            except BrokenPipeError:
                raise Died(f"QEMU died (exit {self.proc.wait()}); {self.stderr_tail()}")

    def _readline(self):
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            self._wait(fd, False)
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise Died(f"QEMU died (exit {self.proc.wait()}); {self.stderr_tail()}")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    # ---- qtest --------------------------------------------------------------
    def qtest(self, lines):
        """Run qtest commands; their replies, in order (IRQ notices dropped)."""
        self._write("".join(line + "\n" for line in lines).encode())
        replies = []
        while len(replies) < len(lines):
            r = self._readline()
            if r.startswith("IRQ"):
                continue
            if not r.startswith("OK"):
                raise RuntimeError(f"qtest refused '{lines[len(replies)]}': {r}")
            replies.append(r)
        return replies

    def read(self, addr, size=4):
        return int(self.qtest([f"read{SIZES[size]} 0x{addr:x}"])[0].split()[1], 16)

    def write(self, addr, value, size=4):
        self.qtest([f"write{SIZES[size]} 0x{addr:x} 0x{value:x}"])

    def execute(self, cmd, **args):
        """A QMP command, under the same deadlines as qtest."""
        if time.monotonic() >= self.deadline:
            self._wait(None, False)
        try:
            return self.qmp.execute(cmd, **args)
        except socket.timeout:
            self.kill()
            raise Hang(f"QEMU hung: no reply to QMP '{cmd}' within {self.stall} s; killed it")

    # ---- end ----------------------------------------------------------------
    def quit(self):
        """QMP quit; QEMU's exit status (sanitizer reports make it non-zero)."""
        try:
            self.qmp.execute("quit")
        except (socket.timeout, ConnectionError, OSError):
            pass
        return self.wait_exit("QEMU hung: did not exit within {} s of 'quit'")

    def wait_exit(self, why="QEMU did not exit within {} s"):
        """QEMU's exit status, once it exits (within the stall time)."""
        try:
            return self.proc.wait(timeout=self.stall)
        except subprocess.TimeoutExpired:
            self.kill()
            raise Hang(why.format(self.stall) + "; killed it")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr_text(self):
        with open(self.stderr_path, errors="replace") as f:
            return f.read()

    def stderr_tail(self, n=20):
        lines = self.stderr_text().splitlines()
        return "stderr: " + (" | ".join(lines[-n:]) if lines else "(empty)")

    def cleanup(self):
        self.kill()
        if getattr(self, "qmp", None):
            self.qmp.close()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass            # unflushed input of a dead QEMU
        shutil.rmtree(self.tmp, ignore_errors=True)


class Accesses:
    """MMIO accesses to one machine, queued and sent in batches (a round
    trip per access would make a million of them slow); the values read.
    The device fuzzes (msc_fuzz.py, bwmon_fuzz.py) send all theirs here."""

    BATCH = 1000                # qtest commands per round trip

    def __init__(self, machine):
        self.m = machine
        self.queue = []
        self.results = []           # values read by the accesses run so far

    def access(self, size, addr, value=None):
        """Queue one access of size bytes (value None: a read)."""
        if value is None:
            self.queue.append(f"read{SIZES[size]} 0x{addr:x}")
        else:
            self.queue.append(f"write{SIZES[size]} 0x{addr:x} 0x{value:x}")
        if len(self.queue) >= self.BATCH:
            self.run()

    def command(self, line):
        """Queue a qtest command that is no access (clock_step ...)."""
        self.queue.append(line)
        if len(self.queue) >= self.BATCH:
            self.run()

    def run(self):
        """Run the queued commands (small batches: replies must fit the pipe)."""
        lines, self.queue = self.queue, []
        replies = self.m.qtest(lines) if lines else []
        self.results += [int(r.split()[1], 16) for line, r in zip(lines, replies)
                         if line.startswith("read")]

    def flush(self):
        """Run the queued accesses; the values read since the last flush."""
        self.run()
        out, self.results = self.results, []
        return out


def random_access(rng, window, area=None):
    """(size, offset, value or None) of a raw access anywhere in a window of
    `window` bytes: size 1, 2, 4 or 8, any offset it fits at, any
    alignment, a random value in 7 of 10 (else a read); in half of them an
    offset aligned to the size inside the first `area` bytes (the
    registers), if given."""
    n = rng.choice((1, 2, 4, 8))
    off = rng.randrange(0, window - n + 1)
    if area and rng.random() < 0.5:
        off &= (area - 1) & ~(n - 1)
    return n, off, rng.getrandbits(8 * n) if rng.random() < 0.7 else None


def fuzz_parser(doc, per):
    """The device fuzzes' command line: QEMU, accesses per PER, the seed and
    the deadlines.  parse_args() also draws a seed when none is given."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("qemu")
    ap.add_argument("--accesses", type=int, default=1_000_000,
                    help=f"accesses per {per} (default 1000000)")
    ap.add_argument("--seed", type=int, default=int.from_bytes(os.urandom(4), "little"))
    ap.add_argument("--timeout", type=int, default=900,
                    help="budget of the whole run in seconds (default 900)")
    ap.add_argument("--stall", type=int, default=30,
                    help="longest wait for any one reply from QEMU, seconds (default 30)")
    return ap


def check_exit(tap, m, label=""):
    """QMP quit; QEMU must exit with status 0 and no ASan, UBSan or
    LeakSanitizer report on stderr."""
    status = m.quit()
    err = m.stderr_text()
    reports = [ln for ln in err.splitlines() if "Sanitizer" in ln or "runtime error" in ln]
    tap.check(status == 0 and not reports, f"{label}QEMU exits cleanly: no sanitizer, "
              "UBSan or leak report", f"exit status {status}",
              reports or err.splitlines()[-10:])


class Checks:
    """The checks of one test program, against a plan fixed before it runs
    (the checks it is meant to make): one TAP line each, the plan first; a
    planned check that never ran is reported as failed at the end."""

    def __init__(self, plan):
        self.plan = plan
        self.tap = Tap(plan)
        self.failed = 0

    def check(self, ok, test, info="", diag=()):
        """One check; info is shown always, diag (a list) only on failure."""
        self.failed += not ok
        lines = ([info] if info else []) + ([] if ok else list(diag)[:20])
        self.tap.result(test, "PASS" if ok else "FAIL", "\n".join(lines))
        return ok

    def skip(self, test, why):
        self.tap.result(test, "SKIP", why)

    def done(self, why=""):
        """Fail what did not run: the first such check says why."""
        first = self.tap.n + 1
        while self.tap.n < self.plan:
            self.check(False, why if self.tap.n + 1 == first and why else
                       f"planned check {self.tap.n + 1} did not run (see check {first})")
        return 1 if self.failed else 0


def run_checks(checks, body):
    """Run body(); a hang, a dead QEMU or a bug in the test itself becomes a
    failed check, and so does every planned check it kept from running.
    The exit status."""
    why = ""
    try:
        body()
    except (Hang, Died) as e:
        why = f"QEMU answered every request: {e}"
    except Exception as e:
        why = f"the test ran to its end: {type(e).__name__}: {e}"
        for line in traceback.format_exc().splitlines():
            print(f"# {line}")
    return checks.done(why)

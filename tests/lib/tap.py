# SPDX-License-Identifier: GPL-2.0-or-later
"""TAP (Test Anything Protocol, version 13 subset) for memqos's test suites.

Every suite of `make check` writes TAP on stdout: a plan `1..N` whose N comes
from the suite's configuration (the cases it is meant to run), then one line
per test, `ok K - NAME`, `not ok K - NAME`, `ok K - NAME # SKIP why`, each
optionally followed by `# detail` lines.  Other stdout lines are passed
through as commentary.

As a module (Python suites):   t = Tap(len(cases)); t.result(name, "PASS", detail)
As a program (run-all.sh):     tap.py run SUITE COUNTS-FILE -- COMMAND...
    runs COMMAND, prints every test as 'PASS|FAIL|SKIP SUITE/NAME[: detail]',
    fails the tests that the plan promised and the suite did not report,
    a suite without a plan (it crashed, or does not speak TAP), a result
    reported twice, and a non-zero exit status that no failed test explains;
    appends 'PASSED FAILED SKIPPED SUITE' to COUNTS-FILE; exits 1 on failure.
"""
import re
import subprocess
import sys

RESULT_RE = re.compile(r"^(not )?ok\b\s*(\d+)?\s*(?:- )?\s*([^#]*?)\s*(?:#\s*(\w+)\b\s*(.*))?$")
PLAN_RE = re.compile(r"^1\.\.(\d+)\s*(?:#\s*(?:SKIP\b\s*)?(.*))?$", re.I)
DETAIL_LINES = 60          # of a failed test, shown by run-all.sh


class Tap:
    """Writes TAP to a stream: the plan first, then results in order."""

    def __init__(self, plan, out=None):
        self.out, self.n = out or sys.stdout, 0
        print(f"1..{plan}", file=out, flush=True)

    def result(self, name, result, detail=""):
        """RESULT is PASS, FAIL or SKIP; DETAIL may span lines."""
        self.n += 1
        line = f"{'not ok' if result == 'FAIL' else 'ok'} {self.n} - {name}"
        lines = detail.splitlines() or [""]
        if result == "SKIP":
            line += f" # SKIP {lines.pop(0)}"
        print(line, file=self.out)
        for d in lines:
            if d:
                print(f"# {d}", file=self.out)
        self.out.flush()


class Parser:
    """Reads one suite's TAP stream line by line; says what it saw."""

    def __init__(self, suite, emit=print):
        self.suite, self.emit = suite, emit
        self.plan = None
        self.results = []          # [name, PASS|FAIL|SKIP, [detail lines]]
        self.problems = []         # (name, why): failures of the stream itself
        self.bailed = False

    def _flush(self):
        """Print the last result, now that its detail lines are known."""
        if self.results and not self.results[-1][3]:
            name, res, detail, _ = self.results[-1]
            first = f": {detail[0]}" if detail else ""
            self.emit(f"{res} {self.suite}/{name}{first}")
            # A pass shows its first detail line; a failure or skip all of them.
            more = [] if res == "PASS" else detail[1:]
            for d in more[:DETAIL_LINES]:
                self.emit(f"     {d}")
            if len(more) > DETAIL_LINES:
                self.emit(f"     ... {len(more) - DETAIL_LINES} more lines")
            self.results[-1][3] = True

    def line(self, text):
        text = text.rstrip("\r\n")
        m = RESULT_RE.match(text)
        if m:
            self._flush()
            num = int(m.group(2)) if m.group(2) else len(self.results) + 1
            name = m.group(3) or f"#{num}"
            directive = (m.group(4) or "").upper()
            res = "SKIP" if directive == "SKIP" else "FAIL" if m.group(1) else "PASS"
            detail = [m.group(5)] if directive == "SKIP" and m.group(5) else []
            if num != len(self.results) + 1:
                self.problems.append((name, f"test number {num} out of order (expected {len(self.results) + 1})"))
            if any(r[0] == name for r in self.results):
                self.problems.append((name, "reported twice"))
            self.results.append([name, res, detail, False])
            return
        m = PLAN_RE.match(text)
        if m:
            if self.plan is not None:
                self.problems.append(("plan", "a second plan line"))
            self.plan = int(m.group(1))
            if self.plan == 0:
                self.emit(f"SKIP {self.suite}: {m.group(2) or 'the suite has no tests here'}")
            return
        if text.startswith("Bail out!"):
            self._flush()
            self.bailed = True
            self.problems.append(("bail-out", text[len("Bail out!"):].strip() or "the suite gave up"))
            return
        if text.startswith("#") and self.results and not self.results[-1][3]:
            self.results[-1][2].append(text[1:].strip())
            return
        self._flush()
        if text.strip() and not text.startswith("TAP version"):
            self.emit(f"  {text.lstrip('#').strip() if text.startswith('#') else text}")

    def finish(self, status):
        """Close the stream of a suite that exited with STATUS: (passed, failed, skipped)."""
        self._flush()
        problems = list(self.problems)
        n = len(self.results)
        if self.plan is None:
            problems.append(("plan", f"no TAP plan line (the suite crashed or does not report TAP; exit status {status})"))
        elif n < self.plan and not self.bailed:
            problems += [(f"#{k}", f"planned ({self.plan} tests) but never reported")
                         for k in range(n + 1, self.plan + 1)]
        elif n > self.plan:
            problems.append(("plan", f"{n} results reported, the plan said {self.plan}"))
        failed = sum(r[1] == "FAIL" for r in self.results)
        if status and not failed and not problems:
            why = "killed by timeout" if status == 124 else "no test reported the failure"
            problems.append(("exit-status", f"the suite exited with status {status} ({why})"))
        for name, why in problems:
            self.emit(f"FAIL {self.suite}/{name}: {why}")
        passed = sum(r[1] == "PASS" for r in self.results)
        # A suite that skips as a whole (plan 1..0) counts as one skip.
        skipped = sum(r[1] == "SKIP" for r in self.results) + (self.plan == 0)
        return passed, failed + len(problems), skipped


def run(suite, counts, cmd):
    parser = Parser(suite, emit=lambda s: print(s, flush=True))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, errors="replace")
    for text in proc.stdout:
        parser.line(text)
    p, f, s = parser.finish(proc.wait())
    print(f"suite {suite}: {p} passed, {f} failed, {s} skipped", flush=True)
    with open(counts, "a") as out:
        out.write(f"{p} {f} {s} {suite}\n")
    return 1 if f else 0


if __name__ == "__main__":
    if len(sys.argv) < 6 or sys.argv[1] != "run" or sys.argv[4] != "--":
        sys.exit("usage: tap.py run SUITE COUNTS-FILE -- COMMAND...")
    sys.exit(run(sys.argv[2], sys.argv[3], sys.argv[5:]))

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the pure-C models and tools (ASan + UBSan) and run their unit tests
# (meson suite 'unit').  Reports TAP (tests/lib/tap.py): every CUnit test as
# 'MESON-TEST/CUNIT-TEST', then each meson test as a whole (its exit status,
# with ASan/UBSan reports).  The plan: for each test meson lists, the number
# of tests its CUnit registry holds (CUnit's 'Total'; 0 for a test that is
# not a CUnit program) plus one.  A CUnit test registered but not run, and a
# meson SKIP, are visible as such.
set -euo pipefail
MEMQOS_STEP=unit
. "$(dirname "$0")/../scripts/common.sh"
cd "$MEMQOS_TOP"
bash scripts/meson-build.sh >/dev/null
# meson's own report goes to stderr; the results are the TAP below.
meson test -C build --suite unit --print-errorlogs --num-processes "$JOBS" -q >&2 || true
python3 - build/meson-logs/testlog.json <(meson test -C build --suite unit --list 2>/dev/null) <<'PY'
import json, re, sys
sys.path.insert(0, "tests/lib")
from tap import Tap

# A test's own output may come between "Test: NAME ..." and its verdict.
CUNIT_TEST = re.compile(r"^  Test: (.*?) \.\.\.(passed|FAILED)?$")
CUNIT_TOTALS = re.compile(r"^\s+tests\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$")
# meson's verdicts: OK and EXPECTEDFAIL pass, SKIP is a skip, the rest fail.
VERDICT = {"OK": "PASS", "EXPECTEDFAIL": "PASS", "SKIP": "SKIP"}

logs = {}
for line in open(sys.argv[1]):
    t = json.loads(line)
    logs[t["name"]] = t
names = [n.split(" / ")[-1].strip() for n in open(sys.argv[2]) if n.strip()]

rows = []      # (name, PASS|FAIL|SKIP, detail)
for name in names:
    t = logs.get(name)
    if t is None:
        rows.append((name, "FAIL", "meson lists this test but did not run it"))
        continue
    cases, detail, totals, pending = [], None, None, None
    for line in t.get("stdout", "").splitlines():
        m = CUNIT_TEST.match(line)
        if m:
            pending, verdict = m.group(1), m.group(2)
        elif pending and line.strip() in ("passed", "FAILED"):
            verdict = line.strip()
        else:
            verdict = None
            if CUNIT_TOTALS.match(line):
                totals = [int(x) for x in CUNIT_TOTALS.match(line).groups()]
                detail = None
            elif detail is not None and re.match(r"^\s+\d+\. ", line):
                detail.append(line.strip())     # a failed assertion: file:line - expression
        if verdict:
            detail = []
            cases.append((f"{name}/{pending}", "PASS" if verdict == "passed" else "FAIL", detail))
            pending = None
    rows += [(n, r, "\n".join(d)) for n, r, d in cases]
    res = VERDICT.get(t["result"], "FAIL")
    why = [f"meson {t['result']}, exit status {t['returncode']}, {t['duration']:.1f} s"]
    if totals:
        total, ran, passed, failed, inactive = totals
        why.append(f"CUnit: {total} registered, {ran} ran, {passed} passed, {failed} failed, {inactive} inactive")
        # Registered tests that did not report a result fail the program.
        rows += [(f"{name}/(test {k} of {total})", "FAIL", "registered but not reported")
                 for k in range(len(cases) + 1, total + 1)]
        if ran != total or inactive or len(cases) > total:
            res = "FAIL"
    elif cases:
        res = "FAIL"
        why.append("CUnit stopped before its run summary (crashed?)")
    else:
        why.append(t.get("stdout", "").strip().splitlines()[-1:][0] if t.get("stdout", "").strip() else "")
    rows.append((name, res, "\n".join(w for w in why if w)))

tap = Tap(len(rows))
for row in rows:
    tap.result(*row)
PY

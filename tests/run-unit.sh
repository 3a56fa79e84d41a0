#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the pure-C models and tools (ASan + UBSan) and run their unit tests.
# Prints one line per test and ends with 'N passed, N failed'.
set -euo pipefail
MEMQOS_STEP=unit
. "$(dirname "$0")/../scripts/common.sh"
cd "$MEMQOS_TOP"
[ -f build/build.ninja ] || meson setup build >/dev/null || die "meson setup failed"
ninja -C build >/dev/null || { ninja -C build; die "build failed"; }
rc=0
meson test -C build --suite unit --print-errorlogs --num-processes "$JOBS" || rc=$?
python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = 0
for line in open(sys.argv[1]):
    t = json.loads(line)
    ok = t["result"] in ("OK", "EXPECTEDFAIL", "SKIP")
    passed += ok
    failed += not ok
print(f"unit: {passed} passed, {failed} failed")
PY
exit $rc

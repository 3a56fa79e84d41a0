#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo: boot the MPAM platform with the project's kernel and
# initramfs, show the console while the guest runs its scenarios (the host
# checks each schemata write on the emulated MSCs over QMP), then the report.
set -euo pipefail
MEMQOS_STEP=demo
. "$(dirname "$0")/../scripts/common.sh"
cd "$MEMQOS_TOP"
./memqos paths
say "booting -M virt,mpam=on; console lines are prefixed with '|', results follow"
rc=0
# The harness reports TAP; tests/lib/tap.py prints it as make check does.
python3 tests/lib/tap.py run guest /dev/null -- \
  python3 tests/guest-runner/harness.py -v --log "$MEMQOS_CACHE/demo-console.log" "$@" |
  tee "$MEMQOS_CACHE/demo-report.txt" || rc=$?
echo
say "report (console log: $MEMQOS_CACHE/demo-console.log)"
grep -E '^(PASS|FAIL|SKIP) |^ +(MEASURE|INFO) |^suite ' "$MEMQOS_CACHE/demo-report.txt" | sed 's/^ *//' || true
exit $rc

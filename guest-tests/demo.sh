#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make demo: boot the MPAM platform with the project's kernel and
# initramfs, show the console while the guest runs its scenarios (the host
# checks each schemata write on the emulated MSCs over QMP), then the report.
# Then the modeled memory system (tests/guest-runner/timing.py): the chase
# latency vs working set and the partitioning effects, as PNG plots; and
# the seed-000 preset (tests/guest-runner/seed000.py): chase latency under
# 79 modeled cores of load by DSPRI, against the Marvell figures.
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

out=$MEMQOS_CACHE/demo-timing
qemu=$(./memqos paths | sed -n 's/^qemu=//p')
timing=()
if "$qemu" -M virt,help 2>/dev/null | grep -q '^ *timing='; then
  say "the modeled memory system: ./memqos boot --timing, 3 boots (consoles in $out)"
else
  timing=(--no-timing)
  say "this QEMU has no timing=on: the same scenarios on plain TCG (host time, monitors not fed; the timing checks skip)"
fi
python3 tests/lib/tap.py run timing /dev/null -- \
  python3 tests/guest-runner/timing.py "${timing[@]}" --out "$out" |
  tee "$MEMQOS_CACHE/demo-timing-report.txt" || rc=$?
seed=$MEMQOS_CACHE/demo-seed-000
rm -f "$MEMQOS_CACHE/demo-seed-report.txt"
if [ ${#timing[@]} -eq 0 ]; then
  say "seed-000: ./memqos boot --preset seed-000 (docs/seed-000.md; console in $seed)"
  python3 tests/lib/tap.py run seed-000 /dev/null -- \
    python3 tests/guest-runner/seed000.py --out "$seed" |
    tee "$MEMQOS_CACHE/demo-seed-report.txt" || rc=$?
fi
echo
say "report (console log: $MEMQOS_CACHE/demo-console.log)"
grep -E '^(PASS|FAIL|SKIP) |^ +(MEASURE|INFO) |^suite ' "$MEMQOS_CACHE/demo-report.txt" | sed 's/^ *//' || true
say "modeled memory system (CSV, PNG and consoles in $out)"
grep -E '^(PASS|FAIL|SKIP) |^ +MEASURE |^suite ' "$MEMQOS_CACHE/demo-timing-report.txt" | sed 's/^ *//' || true
if [ -f "$MEMQOS_CACHE/demo-seed-report.txt" ]; then
  say "seed-000 (CSV, PNG and console in $seed)"
  grep -E '^(PASS|FAIL|SKIP) |^ +MEASURE |^suite ' "$MEMQOS_CACHE/demo-seed-report.txt" | sed 's/^ *//' || true
  cat "$seed/seed-000.csv" 2>/dev/null | sed 's/^/  /' || true
fi
say "plots:"
ls "$out"/*.png "$seed"/*.png 2>/dev/null | sed 's/^/  /' || echo "  none (see the FAIL lines above)"
exit $rc

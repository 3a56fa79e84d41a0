#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check`: every test suite of the project, in order of cost.  Each
# suite prints its own results; this adds them up and ends with the
# summary line 'N passed, N failed'.  Exits non-zero if anything failed.
set -uo pipefail
MEMQOS_STEP=check
. "$(dirname "$0")/../scripts/common.sh"
cd "$MEMQOS_TOP"

total_pass=0 total_fail=0 failed_suites=()

# run_suite NAME COMMAND...: a suite that prints 'N passed, N failed' is
# counted test by test; any other counts as one test, by its exit status.
run_suite() {
  local name=$1; shift
  local log; log=$(mktemp)
  say "suite $name: $*"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local line; line=$(grep -E '(^|: )[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
  if [ -n "$line" ]; then
    local p f
    p=$(sed -E 's/.*(^|: )([0-9]+) passed.*/\2/' <<<"$line")
    f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then total_fail=$((total_fail + 1)); fi
  elif [ "$rc" -eq 0 ]; then
    total_pass=$((total_pass + 1))
  else
    total_fail=$((total_fail + 1))
  fi
  [ "$rc" -eq 0 ] || failed_suites+=("$name")
  rm -f "$log"
}

run_suite unit bash tests/run-unit.sh
for s in tests/suites.d/*.sh; do
  [ -e "$s" ] || continue
  run_suite "$(basename "$s" .sh)" bash "$s"
done

echo
[ ${#failed_suites[@]} -eq 0 ] || say "failed suites: ${failed_suites[*]}"
echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ ${#failed_suites[@]} -eq 0 ]

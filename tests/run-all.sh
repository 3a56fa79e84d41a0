#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make check`: every test suite of the project, in order of cost.  Each
# suite reports TAP on stdout; tests/lib/tap.py prints every test as
# 'PASS|FAIL|SKIP SUITE/NAME[: detail]', fails what the suite's plan
# promised and it did not report, and counts.  The last line is
# 'check: N passed, N failed, N skipped'.  Exits non-zero if anything failed.
# docs/testing.md explains the output.
#   tests/run-all.sh [SUITE...]    only these suites (names as printed: unit, guest, ...)
set -uo pipefail
MEMQOS_STEP=check
. "$(dirname "$0")/../scripts/common.sh"
cd "$MEMQOS_TOP"

counts=$(mktemp); trap 'rm -f "$counts"' EXIT
suites=("unit tests/run-unit.sh")
for s in tests/suites.d/*.sh; do
  name=$(basename "$s" .sh)
  suites+=("${name#[0-9][0-9]-} $s")
done
for want in "$@"; do
  printf '%s\n' "${suites[@]}" | grep -q "^$want " || die "no suite '$want' (have: $(printf '%s ' "${suites[@]%% *}"))"
done
for entry in "${suites[@]}"; do
  read -r name script <<<"$entry"
  [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
  say "suite $name: $script"
  python3 tests/lib/tap.py run "$name" "$counts" -- bash "$script"
  # The reader itself must not fail quietly either.
  grep -q " $name\$" "$counts" || { echo "FAIL $name: tests/lib/tap.py did not count it"; echo "0 1 0 $name" >>"$counts"; }
done

echo
read -r passed failed skipped < <(awk '{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }' "$counts")
failed_suites=$(awk '$2 > 0 { printf " %s", $4 }' "$counts")
[ -z "$failed_suites" ] || say "failed suites:$failed_suites"
skipping=$(awk '$3 > 0 { printf " %s (%d)", $4, $3 }' "$counts")
[ -z "$skipping" ] || say "suites with skipped tests:$skipping"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

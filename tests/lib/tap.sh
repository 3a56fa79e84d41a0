# SPDX-License-Identifier: GPL-2.0-or-later
# TAP for the shell suites of `make check` (tests/lib/tap.py describes the
# format and how run-all.sh reads it).  Sourced, not run.
#   tap_plan N                        the number of tests, from the suite's configuration
#   tap_result NAME PASS|FAIL|SKIP [DETAIL]   one result; DETAIL may span lines
#   tap_check NAME STATUS [DETAIL]    PASS when STATUS is 0, else FAIL
TAP_N=0

tap_plan() { echo "1..$1"; }

tap_result() {
  local name=$1 result=$2 detail=${3:-}
  TAP_N=$((TAP_N + 1))
  case $result in
    PASS) echo "ok $TAP_N - $name" ;;
    SKIP) echo "ok $TAP_N - $name # SKIP ${detail%%$'\n'*}"; detail=${detail#"${detail%%$'\n'*}"} ;;
    *) echo "not ok $TAP_N - $name" ;;
  esac
  [ -z "${detail//$'\n'/}" ] || sed -n 's/^\(..*\)$/# \1/p' <<<"$detail"
}

tap_check() { if [ "$2" -eq 0 ]; then tap_result "$1" PASS "${3:-}"; else tap_result "$1" FAIL "${3:-}"; fi; }

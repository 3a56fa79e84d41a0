#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpam-acpi-check command line: exit statuses, --dir, --json, NOT CHECKED.
# Usage: cli-test.sh TOOL GEN
set -u
tool=$1 gen=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$gen" tables "$d" || { echo "FAIL: generating tables"; exit 1; }
pass=0 fail=0
check() { # name expected-status command...
  local name=$1 want=$2; shift 2
  "$@" >"$d/out" 2>&1; local rc=$?
  if [ "$rc" -eq "$want" ]; then pass=$((pass+1)); echo "ok   $name"
  else fail=$((fail+1)); echo "FAIL $name: exit $rc, want $want"; cat "$d/out"; fi
}
grep_out() { # name pattern
  if grep -q -- "$2" "$d/out"; then pass=$((pass+1)); echo "ok   $1"
  else fail=$((fail+1)); echo "FAIL $1: no '$2' in output"; cat "$d/out"; fi
}
check "good --dir"            0 "$tool" --dir "$d/good"
grep_out "good summary"       "0 error(s), 0 warning(s)"
check "good files"            0 "$tool" --pptt "$d/good/PPTT" --srat "$d/good/SRAT" "$d/good/MPAM"
check "good MPAM only"        0 "$tool" "$d/good/MPAM"
grep_out "unchecked reported" "NOT CHECKED (no PPTT given)"
check "reserved --dir"        1 "$tool" --dir "$d/reserved"
grep_out "reserved rule"      "MSC-RESERVED"
check "loop --dir"            1 "$tool" --dir "$d/pptt-parent-loop"
grep_out "loop rule"          "PPTT-LOOP"
mkdir "$d/dump" && cp "$d/good/MPAM" "$d/dump/mpam.dat" && cp "$d/good/PPTT" "$d/dump/pptt.dat"
check "acpidump names"        0 "$tool" --dir "$d/dump"
grep_out "acpidump pptt used" "PPTT given"
check "json good"             0 "$tool" --json --dir "$d/good"
if python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["summary"]["errors"]==0 and j["msc"][0]["resources"][0]["cache_level"]==3' "$d/out"; then
  pass=$((pass+1)); echo "ok   json parses"; else fail=$((fail+1)); echo "FAIL json parses"; cat "$d/out"; fi
check "json broken"           1 "$tool" --json --dir "$d/cache-offset"
grep_out "json rule"          '"rule": "LOC-CACHE"'
check "missing file"          2 "$tool" "$d/nonexistent"
check "missing dir table"     2 "$tool" --dir "$d"
cp "$d/good/PPTT" "$d/wrong"
check "wrong signature"       2 "$tool" "$d/wrong"
head -c 20 "$d/good/MPAM" >"$d/short"
check "truncated header"      2 "$tool" "$d/short"
check "bad usage"             2 "$tool" --frobnicate
check "help"                  0 "$tool" --help
grep_out "help text"          "Exit status"
: >"$d/empty"
check "empty file"            2 "$tool" "$d/empty"
echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

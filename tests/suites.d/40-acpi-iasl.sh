#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpam-acpi-check: the fields it decodes agree with ACPICA's disassembler,
# on the test builder's tables (and on QEMU's, when MEMQOS_ACPI_TABLES names
# directories of MPAM/PPTT/SRAT dumped from a guest).  TAP: one test per
# table directory; the field comparisons are its detail.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
w=$(mktemp -d "${TMPDIR:-/tmp}/mac-iasl-suite.XXXXXX")
trap 'rm -rf "$w"' EXIT
names=(good l2-msc split-l3)
dirs=("${names[@]/#/$w/t/}")
# shellcheck disable=SC2206  # directories, space-separated
dirs+=(${MEMQOS_ACPI_TABLES:-})
tap_plan ${#dirs[@]}
problem=
b=$(bash "$top/scripts/meson-build.sh" acpi-tables/mpam-acpi-check acpi-tables/mac-gen-tables 2>"$w/build.log") &&
  "$b/acpi-tables/mac-gen-tables" tables "$w/t" >>"$w/build.log" 2>&1 ||
  problem="building the tool or the tables failed: $(cat "$w/build.log")"
for d in "${dirs[@]}"; do
  if [ -n "$problem" ]; then tap_result "iasl $(basename "$d")" FAIL "$problem"; continue; fi
  out=$(bash "$top/acpi-tables/tests/iasl-compare.sh" "$b/acpi-tables/mpam-acpi-check" "$d" 2>&1); rc=$?
  # The summary first, then the comparisons that failed, then those that passed.
  tap_check "iasl $(basename "$d")" $rc "$(grep '^iasl:' <<<"$out")
$(grep -v '^iasl:' <<<"$out" | grep -v '] ok ')
$(grep '] ok ' <<<"$out")"
done

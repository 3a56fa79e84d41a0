#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpam-acpi-check: 60 s of libFuzzer (ASan + UBSan) on the table checker.
# TAP: one test, failed by any crash, hang, leak or sanitizer report.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
tap_plan 1
out=$(bash "$top/acpi-tables/fuzz/run.sh" 60 2>&1); rc=$?
tap_check "libFuzzer 60 s on mpam-acpi-check" $rc "$out"

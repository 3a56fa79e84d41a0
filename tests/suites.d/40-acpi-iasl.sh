#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpam-acpi-check: the fields it decodes agree with ACPICA's disassembler,
# on the test builder's tables (and on QEMU's, when MEMQOS_ACPI_TABLES names
# directories of MPAM/PPTT/SRAT dumped from a guest).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
w=$(mktemp -d "${TMPDIR:-/tmp}/mac-iasl-suite.XXXXXX")
trap 'rm -rf "$w"' EXIT
b=$(bash "$top/scripts/meson-build.sh" acpi-tables/mpam-acpi-check acpi-tables/mac-gen-tables) &&
"$b/acpi-tables/mac-gen-tables" tables "$w/t" || { echo "iasl: 0 passed, 1 failed"; exit 1; }
exec bash "$top/acpi-tables/tests/iasl-compare.sh" "$b/acpi-tables/mpam-acpi-check" \
    "$w/t/good" "$w/t/l2-msc" "$w/t/split-l3" ${MEMQOS_ACPI_TABLES:-}

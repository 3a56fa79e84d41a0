#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the meson project (the pure-C models, their unit tests and the host
# tools, ASan + UBSan) in build/ of the clone, or only the named targets.
#   scripts/meson-build.sh [TARGET...]   e.g. acpi-tables/mpam-acpi-check
# Prints the build directory as its only stdout line, so that callers name
# the binaries as DIR/TARGET: the unit tests, the iasl suite and the fuzz
# seed generator all use these builds (the guest's static aarch64 binary is
# acpi-tables/build-aarch64.sh's).  ninja's output is shown only on failure.
set -euo pipefail
MEMQOS_STEP=meson
. "$(dirname "$0")/common.sh"
case "${1:-}" in
  -h|--help) sed -n '3,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) die "unknown option '$1' (targets only)" ;;
esac
b=$MEMQOS_TOP/build
if [ ! -f "$b/build.ninja" ]; then
  out=$(meson setup "$b" "$MEMQOS_TOP" 2>&1) || { printf '%s\n' "$out" >&2; die "meson setup failed"; }
fi
out=$(ninja -C "$b" "$@" 2>&1) || { printf '%s\n' "$out" >&2; die "ninja failed (targets: ${*:-all})"; }
echo "$b"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static aarch64 build of mpam-acpi-check for the guest initramfs.
#   acpi-tables/build-aarch64.sh [--print]
# Prints the path of the binary as its last stdout line.  The path is keyed
# by a hash of the sources and the compiler, so --print (used by
# guest-tests/initramfs/build.sh --print) names the same file a build makes;
# the build takes a few seconds, so --print builds it too when missing.
# Needs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross.  This is the one
# aarch64 build; the host binary is meson's (scripts/meson-build.sh).  Three
# files and no dependencies need no meson cross setup, which would have to
# leave out the host-only parts of the project (glib, CUnit, sanitizers).
set -euo pipefail
MEMQOS_STEP=mpam-acpi-check-aarch64
. "$(dirname "$0")/../scripts/common.sh"
here=$MEMQOS_TOP/acpi-tables
case "${1:-}" in
  ""|--print) ;;
  -h|--help) sed -n '3,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) die "unknown option '$1' (use --print or no argument)" ;;
esac
CC=aarch64-linux-gnu-gcc
CFLAGS=(-static -O2 -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter)
src=("$here/main.c" "$here/mac.c" "$here/mac_out.c")
cc_version=$("$CC" --version 2>/dev/null | head -n 1) || die "$CC missing; run scripts/setup-host.sh"
key=$(memqos_key "$cc_version" "${CFLAGS[*]}" "${src[@]}" "$here/mac.h")
bin=$MEMQOS_CACHE/mpam-acpi-check-aarch64/$key/mpam-acpi-check
if [ ! -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  "$CC" "${CFLAGS[@]}" -o "$bin.tmp" "${src[@]}" >&2 || die "compiling mpam-acpi-check for aarch64 failed"
  aarch64-linux-gnu-strip "$bin.tmp"
  mv "$bin.tmp" "$bin"
fi
echo "$bin"

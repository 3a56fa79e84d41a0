#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Static aarch64 build of mpam-acpi-check for the guest initramfs.
#   acpi-tables/build-aarch64.sh [--print]
# Prints the path of the binary as its last stdout line.  The path is keyed
# by a hash of the sources and the compiler, so --print (used by
# guest-tests/initramfs/build.sh --print) names the same file a build makes;
# the build takes a few seconds, so --print builds it too when missing.
# Needs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${MEMQOS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memqos}
case "${1:-}" in
  ""|--print) ;;
  -h|--help) sed -n '3,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "build-aarch64.sh: unknown option '$1'" >&2; exit 2 ;;
esac
CC=aarch64-linux-gnu-gcc
CFLAGS=(-static -O2 -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter)
src=("$here/main.c" "$here/mac.c" "$here/mac_out.c" "$here/mac.h")
key=$( { "$CC" --version | head -n 1; echo "${CFLAGS[*]}"; cat "${src[@]}"; } | sha256sum | cut -c1-16)
bin=$cache/mpam-acpi-check-aarch64/$key/mpam-acpi-check
if [ ! -x "$bin" ]; then
  mkdir -p "$(dirname "$bin")"
  "$CC" "${CFLAGS[@]}" -o "$bin.tmp" "$here/main.c" "$here/mac.c" "$here/mac_out.c" >&2
  aarch64-linux-gnu-strip "$bin.tmp"
  mv "$bin.tmp" "$bin"
fi
echo "$bin"

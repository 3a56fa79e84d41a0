#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch what the x86_64 guest boots with, from Debian, unmodified: the
# kernel (linux-binary-7.3.4+deb13-amd64: RESCTRL_FS and pseudo-locking
# built in), the firmware directory for QEMU's -L (SeaBIOS, and the option
# ROMs of qemu-system-data that the +ds QEMU source does not build) and
# busybox-static:amd64 for the initramfs; and from linux-modules the
# modules the x86 initramfs loads: intel-uncore (PERF_EVENTS_INTEL_UNCORE
# is a module there: the iMC PMUs of the server, docs/x86-pmu-design.md §2).
#
#   guest-tests/kernel/debian-amd64.sh [--print] [WHAT]
#     WHAT: kernel (the default: the vmlinuz path), firmware (the -L
#     directory), busybox (the static binary) or modules (the tree to copy
#     into an initramfs: lib/modules/<release>/...); --print only names it.
#
# Downloaded with apt-get download into $MEMQOS_CACHE/downloads, unpacked
# into $MEMQOS_CACHE/kernel/amd64-<key>, <key> = hash of the package versions
# (the modules into amd64-modules-<key>, so the kernel's entry stays).
set -euo pipefail
MEMQOS_STEP=kernel-amd64
. "$(dirname "$0")/../../scripts/common.sh"

# The packages, pinned (a newer one would be a different guest).
PKGS=("linux-binary-7.3.4+deb13-amd64=7.3.4-1~bpo13+1"
      "qemu-system-data=$QEMU_DEB_VERSION"
      "seabios=1.16.2-1"
      "busybox-static:amd64=1:1.35.0-4+deb12u1+b1")
RELEASE=7.3.4+deb13-amd64
MODULES_PKG="linux-modules-$RELEASE=7.3.4-1~bpo13+1"
MODULES=(intel-uncore)

mode=build what=kernel
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    kernel|firmware|busybox|modules) what=$a ;;
    -h|--help) sed -n '3,14s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (use [--print] [kernel|firmware|busybox|modules])" ;;
  esac
done

if [ $what = modules ]; then
  dir=$MEMQOS_CACHE/kernel/amd64-modules-$(memqos_key "$MODULES_PKG" "${MODULES[@]}")
  memqos_debian_unpack $mode "$dir" "$dir/modules" "$MODULES_PKG"
  memqos_debian_modules "$dir/root/usr/lib/modules/$RELEASE" \
    "$dir/modules/lib/modules/$RELEASE" "${MODULES[@]}"
  rm -rf "$dir/root"
  touch "$dir/.memqos-done"
  say "unpacked $dir"
  echo "$dir/modules"
  exit 0
fi
key=$(memqos_key "${PKGS[@]}")
dir=$MEMQOS_CACHE/kernel/amd64-$key
case $what in
  kernel) out=$dir/vmlinuz ;;
  firmware) out=$dir/firmware ;;
  busybox) out=$dir/busybox ;;
esac
memqos_debian_unpack $mode "$dir" "$out" "${PKGS[@]}"
root=$dir/root

cp "$root"/usr/lib/modules/*/vmlinuz "$dir/vmlinuz"
cp "$root/bin/busybox" "$dir/busybox"
# -L: QEMU's option ROMs and SeaBIOS in one directory
mkdir -p "$dir/firmware"
cp -L "$root"/usr/share/qemu/*.bin "$root"/usr/share/seabios/*.bin "$dir/firmware/"
rm -rf "$root"
touch "$dir/.memqos-done"
say "unpacked $dir"
echo "$out"

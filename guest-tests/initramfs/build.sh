#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the guest initramfs: busybox (busybox-static:arm64), /init, the
# scenarios, the guest programs (static aarch64), mpam-acpi-check and extra
# binaries.
#
#   guest-tests/initramfs/build.sh           build (cached), print the path
#   guest-tests/initramfs/build.sh --print   print the path the current tree builds
#   ... [--print] x86_64                     the x86_64 guest's: busybox-static:amd64
#                                            (guest-tests/kernel/debian-amd64.sh), /init,
#                                            the scenarios and those of
#                                            guest-tests/scenarios-x86, the programs of
#                                            guest-tests/programs-x86 (static, the host's
#                                            cc), the kernel's resctrl selftests
#                                            (resctrl-selftests.sh), Debian's pqos
#                                            (debian-tool.sh pqos) and intel-uncore
#                                            (debian-amd64.sh modules); no mpam-acpi-check
#                                            (arm64 only)
#   ... [--print] bwmon                      the aarch64 one plus the scenarios of
#                                            guest-tests/scenarios-bwmon (the BWMON
#                                            effect): a separate cache entry, so the
#                                            default initramfs (and the timing suite's
#                                            page layout) does not change
#   ... [--print] sysbench                   bwmon's plus Debian's arm64 sysbench, its
#                                            libraries and loader
#                                            (guest-tests/initramfs/debian-tool.sh)
#   ... [--print] debian                     bwmon's plus the modules of Debian's arm64
#                                            kernel that the BWMON platform needs, in
#                                            /lib/modules (guest-tests/kernel/debian-arm64.sh)
#   ... [--print] [x86_64] access            the aarch64 (or x86_64) one plus
#                                            guest-tests/access: memqos-access and its
#                                            scenario (the access-class coverage,
#                                            tests/guest-runner/access.py), again a
#                                            separate cache entry
#
# /bin in the guest also gets mpam-acpi-check (acpi-tables/build-aarch64.sh,
# its last output line; with --print in --print mode): if that build fails,
# so does this one.  Extra binaries (the hook for other tools):
#   MEMQOS_INITRAMFS_EXTRA="path/a path/b"   any static aarch64 executables
# Cached in $MEMQOS_CACHE/initramfs/<key>, <key> = hash of every input.
set -euo pipefail
MEMQOS_STEP=initramfs
. "$(dirname "$0")/../../scripts/common.sh"

G=$MEMQOS_TOP/guest-tests
CC=aarch64-linux-gnu-gcc
CFLAGS=(-static -O2 -Wall -Wextra)
mode=build arch=aarch64 variant= tools=
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    x86_64) arch=x86_64 ;;
    bwmon|sysbench|debian|access) variant=$a ;;
    -h|--help) sed -n '3,34s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown option '$a' (use [--print] [x86_64] [bwmon|sysbench|debian|access])" ;;
  esac
done
[ $arch = aarch64 ] || [ -z "$variant" ] || [ "$variant" = access ] ||
  die "the $variant initramfs is aarch64 only (x86_64 takes 'access' or nothing)"

if [ $arch = x86_64 ]; then
  amd64=("$MEMQOS_TOP/guest-tests/kernel/debian-amd64.sh" busybox)
  busybox=$(bash "${amd64[@]}" $([ $mode = build ] || echo --print) | tail -n 1) ||
    die "guest-tests/kernel/debian-amd64.sh busybox failed"
  bb_version=$busybox   # the path names the pinned version's cache entry
  cc_version=none
else
  busybox=$(dpkg -L busybox-static:arm64 2>/dev/null | grep -m1 '/bin/busybox$') ||
    die "busybox-static:arm64 is not installed; run scripts/setup-host.sh"
  bb_version=$(dpkg-query -W -f='${Version}' busybox-static:arm64)
  cc_version=$($CC --version 2>/dev/null | head -n 1) || die "$CC missing; run scripts/setup-host.sh"
fi

extras=()
for x in ${MEMQOS_INITRAMFS_EXTRA:-}; do
  [ -f "$x" ] || die "MEMQOS_INITRAMFS_EXTRA: $x does not exist"
  extras+=("$(realpath "$x")")
done
programs=("$G"/programs/*.c) x86_scenarios=()
if [ $arch = aarch64 ]; then
  x=$(bash "$MEMQOS_TOP/acpi-tables/build-aarch64.sh" $([ $mode = build ] || echo --print) | tail -n 1) ||
    die "the aarch64 build of mpam-acpi-check failed (acpi-tables/build-aarch64.sh, messages above)"
  [ -f "$x" ] || die "acpi-tables/build-aarch64.sh named '$x', which does not exist"
  extras+=("$x")
else
  # the guest programs time with the Arm generic timer; the x86 ones and
  # scenarios go into the x86 initramfs only, so that the aarch64 one (and
  # the timing suite's page layout) does not change with them
  programs=("$G"/programs-x86/*.c) x86_scenarios=("$G"/scenarios-x86/*.sh)
  CC=cc
  cc_version=$($CC --version 2>/dev/null | head -n 1) || die "$CC missing; run scripts/setup-host.sh"
  x=$(bash "$G/initramfs/resctrl-selftests.sh" $([ $mode = build ] || echo --print) | tail -n 1) ||
    die "guest-tests/initramfs/resctrl-selftests.sh failed (messages above)"
  extras+=("$x")
  # the tree's path names the pinned packages' cache entry
  tools=$(bash "$G/initramfs/debian-tool.sh" pqos $([ $mode = build ] || echo --print) | tail -n 1) ||
    die "guest-tests/initramfs/debian-tool.sh pqos failed (messages above)"
  # and Debian's intel-uncore module (the iMC PMUs), a second tree
  mods=$(bash "$G/kernel/debian-amd64.sh" $([ $mode = build ] || echo --print) modules |
         tail -n 1) || die "guest-tests/kernel/debian-amd64.sh modules failed (messages above)"
  tools="$tools $mods"
fi

inputs=("$G"/initramfs/init "$G"/initramfs/memqos-run "$G"/initramfs/memqos.sh "$G"/initramfs/mkcpio.py
        "$G"/scenarios/*.sh "$G"/programs/*.[ch])
[ $arch = aarch64 ] || inputs+=("${programs[@]}" "${x86_scenarios[@]}")
key=$(memqos_key "busybox=$bb_version" "$busybox" "$cc_version" "${CFLAGS[*]}" "${inputs[@]}" "${extras[@]}")
[ $arch = aarch64 ] || key=$arch-$(memqos_key "$key" "$arch" "$tools")
variant_scenarios=()
if [ "$variant" = access ]; then
  variant_scenarios=("$G"/access/*.sh)
  programs+=("$G"/access/*.c)
  key=$(memqos_key "$key" "${variant_scenarios[@]}" "$G"/access/*.c)
elif [ -n "$variant" ]; then
  variant_scenarios=("$G"/scenarios-bwmon/*.sh)
  key=$(memqos_key "$key" "${variant_scenarios[@]}")
fi
if [ "$variant" = sysbench ]; then
  # the tree's path names the pinned packages' cache entry
  tools=$(bash "$G/initramfs/debian-tool.sh" sysbench $([ $mode = build ] || echo --print) | tail -n 1) ||
    die "guest-tests/initramfs/debian-tool.sh sysbench failed (messages above)"
  key=$(memqos_key "$key" "$tools")
fi
if [ "$variant" = debian ]; then
  # the tree's path names the pinned packages' cache entry
  tools=$(bash "$G/kernel/debian-arm64.sh" $([ $mode = build ] || echo --print) modules | tail -n 1) ||
    die "guest-tests/kernel/debian-arm64.sh modules failed (messages above)"
  key=$(memqos_key "$key" "$tools")
fi
[ -z "$variant" ] || key=$variant-$key
dir=$MEMQOS_CACHE/initramfs/$key
out=$dir/initramfs.cpio.gz
if [ $mode = print ]; then echo "$out"; exit 0; fi
if [ -f "$out" ]; then say "cached: $out"; echo "$out"; exit 0; fi

root=$dir/root
rm -rf "$root" && mkdir -p "$root"/{bin,lib,scenarios,proc,sys,dev,tmp,root}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 755 "$G/initramfs/init" "$root/init"
install -m 755 "$G/initramfs/memqos-run" "$root/bin/memqos-run"
install -m 644 "$G/initramfs/memqos.sh" "$root/lib/memqos.sh"
install -m 644 "$G"/scenarios/*.sh "${variant_scenarios[@]}" "${x86_scenarios[@]}" "$root/scenarios/"
for c in "${programs[@]}"; do
  b=$(basename "$c" .c)
  say "compiling $b"
  $CC "${CFLAGS[@]}" -o "$root/bin/$b" "$c" || die "compiling $c failed"
done
for x in "${extras[@]}"; do
  say "adding extra binary $(basename "$x")"
  install -m 755 "$x" "$root/bin/$(basename "$x")"
done
for t in $tools; do
  say "adding the Debian files of $t"
  cp -a "$t"/. "$root/"
done
python3 "$G/initramfs/mkcpio.py" "$root" "$out"
say "built $out ($(du -k "$out" | cut -f1) KiB)"
echo "$out"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch Debian's own arm64 kernel, unmodified (issue 9 §3, "the Debian-kernel
# run"): the kernel image of linux-binary-7.3.4+deb13-arm64 and, from
# linux-modules-..., the modules the BWMON platform needs (QCOM_ICC_BWMON
# and INTERCONNECT_QCOM_OSM_L3 are modules there) with their dependencies
# (the closure of modinfo's depends=), decompressed, under
# lib/modules/<release>/ with a modules.dep for the guest's modprobe.
#
#   guest-tests/kernel/debian-arm64.sh [--print] [WHAT]
#     WHAT: kernel (the default: the vmlinuz path) or modules (the tree to
#     copy into an initramfs: lib/modules/<release>/...); --print only names it.
#
# Downloaded with apt-get download into $MEMQOS_CACHE/downloads, unpacked
# into $MEMQOS_CACHE/kernel/arm64-<key>, <key> = hash of the package versions
# and the modules.
set -euo pipefail
MEMQOS_STEP=kernel-arm64
. "$(dirname "$0")/../../scripts/common.sh"

# The packages, pinned (a newer one would be a different guest).
VERSION=7.3.4-1~bpo13+1
RELEASE=7.3.4+deb13-arm64
PKGS=("linux-binary-$RELEASE:arm64=$VERSION"
      "linux-modules-$RELEASE:arm64=$VERSION")
# icc-bwmon (drivers/soc/qcom) and its provider osm-l3 (drivers/interconnect/qcom)
MODULES=(icc-osm-l3 icc-bwmon)

mode=build what=kernel
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    kernel|modules) what=$a ;;
    -h|--help) sed -n '3,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (use [--print] [kernel|modules])" ;;
  esac
done

key=$(memqos_key "${PKGS[@]}" "${MODULES[@]}")
dir=$MEMQOS_CACHE/kernel/arm64-$key
case $what in
  kernel) out=$dir/vmlinuz ;;
  modules) out=$dir/modules ;;
esac
memqos_debian_unpack $mode "$dir" "$out" "${PKGS[@]}"
root=$dir/root
src=$root/usr/lib/modules/$RELEASE
cp "$src/vmlinuz" "$dir/vmlinuz"

# The modules and, recursively, what modinfo says each depends on.
memqos_debian_modules "$src" "$dir/modules/lib/modules/$RELEASE" "${MODULES[@]}"
rm -rf "$root"
touch "$dir/.memqos-done"
say "unpacked $dir"
echo "$out"

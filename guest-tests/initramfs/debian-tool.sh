#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch one of Debian's binary tools, unmodified, with the shared libraries
# it loads and the dynamic loader, for a guest initramfs.
#
#   guest-tests/initramfs/debian-tool.sh TOOL [--print]
#     prints the directory to copy into the initramfs root: the tool's
#     binaries at their packaged paths, the loader at its PT_INTERP path and
#     lib/<triplet>/<soname> for every library in their NEEDED closure;
#     --print only names it.
#
# TOOL is
#   sysbench   arm64 sysbench 1.0.20 (bookworm): the real benchmark in the
#              BWMON guest (issue 9 §4, docs/bwmon-model.md "sysbench")
#   pqos       amd64 pqos and membw of intel-cmt-cat 25.04 (trixie): the RDT
#              tool on the x86 guest (issue 10 §3, docs/rdt-model.md)
#
# The packages are pinned: a newer one would be another tool.  Downloaded
# with apt-get download (arm64 needs dpkg --add-architecture arm64 &&
# apt-get update; scripts/setup-host.sh) into $MEMQOS_CACHE/downloads,
# unpacked into $MEMQOS_CACHE/debian-tools/TOOL-<key>, <key> = hash of the
# package versions.  The libraries are picked by following DT_NEEDED from
# the binaries (readelf), so a package that brings nothing they load costs
# nothing.
set -euo pipefail
MEMQOS_STEP=debian-tool
. "$(dirname "$0")/../../scripts/common.sh"

tool=
mode=build
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    -h|--help) sed -n '3,25s/^# \{0,1\}//p' "$0"; exit 0 ;;
    sysbench|pqos) tool=$a ;;
    *) die "unknown argument '$a' (use sysbench|pqos [--print])" ;;
  esac
done
case "$tool" in
  sysbench)
    triplet=aarch64-linux-gnu bins=(usr/bin/sysbench)
    # sysbench and its runtime Depends, recursively, as bookworm resolves them.
    PKGS=("sysbench:arm64=1.0.20+ds-5"
          "libc6:arm64=2.36-9+deb12u14"
          "libaio1:arm64=0.3.113-4"
          "libluajit-5.1-2:arm64=2.1.0~beta3+git20220320+dfsg-4.1+deb12u1"
          "libmariadb3:arm64=1:10.11.19-0+deb12u1"
          "libpq5:arm64=15.20-0+deb12u1"
          "libssl3:arm64=3.0.22-1~deb12u2"
          "zlib1g:arm64=1:1.2.13.dfsg-1"
          "libzstd1:arm64=1.5.4+dfsg2-5+deb12u1"
          "libgcc-s1:arm64=12.2.0-14+deb12u1"
          "libgssapi-krb5-2:arm64=1.20.1-2+deb12u5"
          "libkrb5-3:arm64=1.20.1-2+deb12u5"
          "libk5crypto3:arm64=1.20.1-2+deb12u5"
          "libkrb5support0:arm64=1.20.1-2+deb12u5"
          "libcom-err2:arm64=1.47.0-2+b2"
          "libkeyutils1:arm64=1.6.3-2"
          "libldap-2.5-0:arm64=2.5.13+dfsg-5"
          "libsasl2-2:arm64=2.1.28+dfsg-10+deb12u1"
          "libgnutls30:arm64=3.7.9-2+deb12u7"
          "libp11-kit0:arm64=0.24.1-2"
          "libidn2-0:arm64=2.3.3-1+b1"
          "libunistring2:arm64=1.0-2"
          "libtasn1-6:arm64=4.19.0-2+deb12u1"
          "libnettle8:arm64=3.8.1-2"
          "libhogweed6:arm64=3.8.1-2"
          "libgmp10:arm64=2:6.2.1+dfsg1-1.1"
          "libffi8:arm64=3.4.4-1") ;;
  pqos)
    triplet=x86_64-linux-gnu bins=(usr/sbin/pqos usr/bin/membw)
    PKGS=("intel-cmt-cat:amd64=25.04-1" "libc6:amd64=2.41-12+deb13u5") ;;
  *) die "name a tool: sysbench or pqos" ;;
esac

dir=$MEMQOS_CACHE/debian-tools/$tool-$(memqos_key "${PKGS[@]}")
out=$dir/tree
memqos_debian_unpack $mode "$dir" "$out" "${PKGS[@]}"
root=$dir/root
mkdir -p "$out/lib/$triplet"

# needed FILE: the sonames FILE's dynamic section names.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
# interp FILE: its PT_INTERP.
interp() { readelf -l "$1" | sed -n 's/.*interpreter: \(.*\)\]/\1/p'; }

todo=()
loader=$(interp "$root/${bins[0]}")
for b in "${bins[@]}"; do
  [ "$(interp "$root/$b")" = "$loader" ] || die "$b's interpreter is not $loader"
  install -D -m 755 "$root/$b" "$out/$b"
  mapfile -t -O "${#todo[@]}" todo < <(needed "$root/$b")
done
seen=" "
while [ ${#todo[@]} -gt 0 ]; do
  so=${todo[0]} todo=("${todo[@]:1}")
  case "$seen" in *" $so "*) continue ;; esac
  seen="$seen$so "
  f=
  for d in lib/$triplet usr/lib/$triplet usr/lib lib; do
    [ -e "$root/$d/$so" ] && { f=$root/$d/$so; break; }
  done
  [ -n "$f" ] || die "no package of the list has $so (needed by $tool's closure)"
  cp -L "$f" "$out/lib/$triplet/$so"
  mapfile -t -O "${#todo[@]}" todo < <(needed "$f")
done
# The loader at its PT_INTERP path (also in the closure under its soname).
mkdir -p "$out$(dirname "$loader")"
mv "$out/lib/$triplet/$(basename "$loader")" "$out$loader"
rm -rf "$root"
touch "$dir/.memqos-done"
say "unpacked $out ($(echo $seen | wc -w) libraries, $(du -sk "$out" | cut -f1) KiB)"
echo "$out"

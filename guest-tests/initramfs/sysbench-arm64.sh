#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch Debian's arm64 sysbench, unmodified, with the shared libraries it
# loads and the arm64 dynamic loader, for the guest initramfs (issue 9 §4:
# the real sysbench in the guest; docs/bwmon-model.md "sysbench").
#
#   guest-tests/initramfs/sysbench-arm64.sh [--print]
#     prints the directory to copy into the initramfs root:
#       usr/bin/sysbench, lib/ld-linux-aarch64.so.1 (its PT_INTERP) and
#       lib/aarch64-linux-gnu/<soname> for every library in its NEEDED
#       closure; --print only names it.
#
# The packages are pinned (bookworm's, the host's apt default release): a
# newer one would be another benchmark.  Downloaded with apt-get download
# (the arm64 architecture must be added: dpkg --add-architecture arm64 &&
# apt-get update) into $MEMQOS_CACHE/downloads, unpacked into
# $MEMQOS_CACHE/sysbench/arm64-<key>, <key> = hash of the package versions.
# The libraries are picked by following DT_NEEDED from the binary
# (readelf), so a package that brings nothing sysbench loads costs nothing.
set -euo pipefail
MEMQOS_STEP=sysbench
. "$(dirname "$0")/../../scripts/common.sh"

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
      "libffi8:arm64=3.4.4-1")

mode=build
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    -h|--help) sed -n '3,19s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (use [--print])" ;;
  esac
done

key=$(memqos_key "${PKGS[@]}")
dir=$MEMQOS_CACHE/sysbench/arm64-$key
out=$dir/tree
if [ $mode = print ] || [ -f "$dir/.memqos-done" ]; then echo "$out"; exit 0; fi

mkdir -p "$MEMQOS_CACHE/sysbench" "$MEMQOS_CACHE/downloads"
exec 9>"$MEMQOS_CACHE/sysbench/.lock-arm64-$key"
flock 9

dl=$MEMQOS_CACHE/downloads
root=$dir/root
rm -rf "$dir" && mkdir -p "$root" "$out/usr/bin" "$out/lib/aarch64-linux-gnu"
for p in "${PKGS[@]}"; do
  name=${p%%=*} name=${name%%:*} version=${p#*=}
  deb=$(ls "$dl/${name}_"*"${version#*:}"_arm64.deb 2>/dev/null | head -n 1 || true)
  if [ -z "$deb" ]; then
    say "downloading $p"
    (cd "$dl" && apt-get download -q "$p" >/dev/null 2>&1) ||
      die "apt-get download $p failed (dpkg --add-architecture arm64 && apt-get update; " \
          "bookworm in the apt sources: scripts/setup-host.sh)"
    deb=$(ls "$dl/${name}_"*"${version#*:}"_arm64.deb | head -n 1)
  fi
  dpkg-deb -x "$deb" "$root"
done

# needed FILE: the sonames FILE's dynamic section names.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

cp "$root/usr/bin/sysbench" "$out/usr/bin/sysbench"
interp=$(readelf -l "$root/usr/bin/sysbench" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
[ "$interp" = /lib/ld-linux-aarch64.so.1 ] || die "sysbench's interpreter is '$interp'"
mapfile -t todo < <(needed "$root/usr/bin/sysbench")
seen=" "
while [ ${#todo[@]} -gt 0 ]; do
  so=${todo[0]} todo=("${todo[@]:1}")
  case "$seen" in *" $so "*) continue ;; esac
  seen="$seen$so "
  f=
  for d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
    [ -e "$root/$d/$so" ] && { f=$root/$d/$so; break; }
  done
  [ -n "$f" ] || die "no package of the list has $so (needed by sysbench's closure)"
  cp -L "$f" "$out/lib/aarch64-linux-gnu/$so"
  mapfile -t -O "${#todo[@]}" todo < <(needed "$f")
done
# The loader at its PT_INTERP path (also in the closure as ld-linux-aarch64.so.1).
mv "$out/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1" "$out/lib/ld-linux-aarch64.so.1"
rm -rf "$root"
touch "$dir/.memqos-done"
say "unpacked $out ($(echo $seen | wc -w) libraries, $(du -sk "$out" | cut -f1) KiB)"
echo "$out"

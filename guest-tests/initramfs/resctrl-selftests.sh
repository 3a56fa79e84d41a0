#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the kernel's resctrl selftests (tools/testing/selftests/resctrl of
# Debian's linux-source-7.3, unmodified) as one static x86_64 program for
# the x86 guest initramfs (issue 10 §4; docs/rdt-model.md "The kernel's
# resctrl selftests and pqos in the guest").
#
#   guest-tests/initramfs/resctrl-selftests.sh [--print]
#     builds (cached) and prints the path of resctrl_tests; --print only
#     names it.
#
# Built with the host's gcc and glibc (the host is x86_64 Debian), static
# (USERLDFLAGS=-static, the selftests' own switch), out of tree (OUTPUT=):
# the unpacked source stays pristine.  Cached in
# $MEMQOS_CACHE/resctrl-selftests/<key>, <key> = hash(package version,
# compiler, flags).
set -euo pipefail
MEMQOS_STEP=resctrl-selftests
. "$(dirname "$0")/../../scripts/common.sh"

mode=build
for a in "$@"; do
  case "$a" in
    --print) mode=print ;;
    -h|--help) sed -n '3,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (use [--print])" ;;
  esac
done

[ "$(uname -m)" = x86_64 ] || die "builds natively on an x86_64 host only (this is $(uname -m))"
flags=(USERLDFLAGS=-static)
key=$(memqos_key "$LINUX_SOURCE_PKG=$(memqos_linux_version)" "$(gcc --version | head -n 1)" \
        "$(dpkg-query -W -f='${Version}' libc6-dev 2>/dev/null || echo none)" "${flags[*]}")
dir=$MEMQOS_CACHE/resctrl-selftests/$key
bin=$dir/resctrl_tests
if [ $mode = print ] || [ -x "$bin" ]; then echo "$bin"; exit 0; fi

src=$(memqos_linux_source)
mkdir -p "$dir/out"
exec 9>"$MEMQOS_CACHE/resctrl-selftests/.lock-$key"
flock 9
memqos_run_logged "$dir/build.log" "building $src/tools/testing/selftests/resctrl (static)" \
  make -C "$src/tools/testing/selftests/resctrl" OUTPUT="$dir/out" "${flags[@]}"
! readelf -l "$dir/out/resctrl_tests" | grep -q 'program interpreter' ||
  die "$dir/out/resctrl_tests is not static (it names a program interpreter)"
mv "$dir/out/resctrl_tests" "$bin"
say "built $bin"
echo "$bin"

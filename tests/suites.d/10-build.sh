#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build (or find in the cache) QEMU with the memqos models, the guest kernel
# and the initramfs.  TAP: one test per build; their logs go to stderr.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
builds=(qemu/build.sh guest-tests/kernel/build.sh guest-tests/initramfs/build.sh)
tap_plan ${#builds[@]}
for b in "${builds[@]}"; do
  out=$(bash "$top/$b" 2>&1 | tee /dev/stderr | tail -n 3); rc=$?
  tap_check "$b" "$rc" "$([ "$rc" -eq 0 ] || echo "exit status $rc: $out")"
done

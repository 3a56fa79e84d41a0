#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest boot tests: build (cached) the guest kernel and initramfs, then boot
# the MPAM platform and run the guest scenarios.  Arguments go to
# tests/guest-runner/harness.py (e.g. --machine virt, -v, --scenario kunit).
# Reports TAP; exit status 1 on any failure.
set -euo pipefail
MEMQOS_STEP=guest-tests
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
for b in guest-tests/kernel/build.sh guest-tests/initramfs/build.sh; do
  bash "$b" >&2 || { echo "Bail out! $b failed (its messages are above)"; exit 1; }
done
qemu=${MEMQOS_QEMU:-$(bash qemu/build.sh --print)}
[ -x "$qemu" ] || { echo "Bail out! no QEMU at $qemu: run 'make qemu' (or bash qemu/build.sh) first"; exit 1; }
exec python3 tests/guest-runner/harness.py --log "$MEMQOS_CACHE/guest-console.log" "$@"

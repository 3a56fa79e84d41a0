#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Guest boot tests: unit-test the harness, build (cached) the guest kernel
# and initramfs, then boot the MPAM platform and run the guest scenarios.
# Arguments go to tests/guest-runner/harness.py (e.g. --machine virt, -v, --scenario kunit).
# Ends with "N passed, N failed"; exit status 1 on any failure.
set -euo pipefail
MEMQOS_STEP=guest-tests
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"

python3 -m unittest discover -s tests/guest-runner -p 'test_*.py' >/dev/null 2>&1 ||
  { python3 -m unittest discover -s tests/guest-runner -p 'test_*.py'; die "harness unit tests failed"; }
bash guest-tests/kernel/build.sh >/dev/null
bash guest-tests/initramfs/build.sh >/dev/null
qemu=${MEMQOS_QEMU:-$(bash qemu/build.sh --print)}
[ -x "$qemu" ] || die "no QEMU at $qemu: run 'make qemu' (or bash qemu/build.sh) first"
exec python3 tests/guest-runner/harness.py --log "$MEMQOS_CACHE/guest-console.log" "$@"

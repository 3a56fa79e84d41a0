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
. tests/guest-runner/prepare.sh
exec python3 tests/guest-runner/harness.py --log "$MEMQOS_CACHE/guest-console.log" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's arm64 sysbench, unmodified, on the three BWMON configurations
# (issue 9 §4): bwmon-fixed, bwmon-novote and bwmon boot the initramfs with
# sysbench ('guest-tests/initramfs/build.sh sysbench', which fetches it with
# apt-get download once) and run sysbench memory rows; make check runs the
# short form (64K and 64M sequential reads, tests/guest-runner/sysbench.py
# --short).  The full table: tests/guest-runner/sysbench.py --out DIR.
set -euo pipefail
MEMQOS_STEP=sysbench
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
prepare_build guest-tests/initramfs/build.sh sysbench
exec python3 tests/guest-runner/sysbench.py --short --out "$MEMQOS_CACHE/sysbench-check" "$@"

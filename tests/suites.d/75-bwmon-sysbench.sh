#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's arm64 sysbench, unmodified, on the three BWMON configurations
# (issue 9 §4): bwmon-fixed, bwmon-novote and bwmon boot the initramfs with
# sysbench ('guest-tests/initramfs/build.sh sysbench', which fetches it with
# apt-get download once) and run sysbench memory rows; make check runs the
# short form (tests/guest-runner/sysbench.py --short: 64K and 64M sequential
# reads and writes, 512 MiB each, and the vote trace on the bwmon boot),
# which asserts the shape of issue 9's done-when on those rows: the resident
# row within 10 %, no votes >= 2.4 x below fixed and bwmon within 10 % of
# fixed past the L3, the vote up within 4 windows of a burst and down after
# it.  The full table: tests/guest-runner/sysbench.py --out DIR.
set -euo pipefail
MEMQOS_STEP=sysbench
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
prepare_build guest-tests/initramfs/build.sh sysbench
exec python3 tests/guest-runner/sysbench.py --short --out "$MEMQOS_CACHE/sysbench-check" "$@"

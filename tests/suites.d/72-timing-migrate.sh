#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Save and restore with the timing model on (issue 7): a 1-vCPU guest under
# ./memqos boot --timing is stopped in the middle of a chase in a resctrl
# group, migrated to a file and loaded by a second QEMU (-incoming defer);
# query-memqos-timing, query-mpam, the L3's cache-checksum and the memory
# MSC's mbw-checksum (its bandwidth regulator) must be identical, the
# guest must finish with sane data, a second load must run identically
# (with host-timed realtime timers firing every 1-3 ms beside it: they must
# not reach modeled time), and a stream with flipped values must show in
# the comparison (tests/guest-runner/timing_migrate.py, one TAP line per
# check).
set -euo pipefail
MEMQOS_STEP=timing-migrate
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
exec python3 tests/guest-runner/timing_migrate.py --out "$MEMQOS_CACHE/timing-migrate-check" "$@"

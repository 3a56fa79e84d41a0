#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The modeled memory system in a booted guest (issue 7, docs/timing-design.md
# §4): the short form of tests/guest-runner/timing.py with ./memqos boot
# --timing — chase latency steps, L3 mask width, llc_occupancy,
# mbm_total_bytes, a noisy neighbour on 2 vCPUs, two identical 1-vCPU runs,
# resctrl MB: and MBW_MIN against the memory MSC's regulator on 2 vCPUs,
# and the four plots.  Expected values come from the machine options the
# runner passes.  TAP; the plan is the runner's list of checks.
set -euo pipefail
MEMQOS_STEP=timing
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
exec python3 tests/guest-runner/timing.py --short --out "$MEMQOS_CACHE/timing-check" "$@"

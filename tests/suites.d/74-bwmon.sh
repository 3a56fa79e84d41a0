#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The BWMON platform (issue 9 §3): the bwmon preset boots an unmodified
# kernel on -M virt,mpam=on,timing=on,bwmon=on with its device tree;
# icc-bwmon binds the sdm845 CPU and LLCC monitors and osm-l3 the two OSM
# L3 providers; guest load raises the monitors' interrupt counts, their
# votes and the OSM L3 frequency, idle brings them down
# (tests/guest-runner/bwmon.py); then the effect of the votes in the three
# configurations bwmon-fixed, bwmon-novote and bwmon.
set -euo pipefail
MEMQOS_STEP=bwmon
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
# the three configurations' stream: guest-tests/scenarios-bwmon/bwstream.sh
prepare_build guest-tests/initramfs/build.sh bwmon
exec python3 tests/guest-runner/bwmon.py --out "$MEMQOS_CACHE/bwmon-check" "$@"

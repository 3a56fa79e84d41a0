#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The seed-000 scenario (issue 8 §5) in its short form: the preset boots,
# P1's chase runs under 79 modeled cores of load at DSPRI 5, 0xa and 0xf;
# the DDR class follows the map, latency falls with priority, the load's
# bandwidth stays within 2 % (tests/guest-runner/seed000.py; the full
# form, with the Marvell targets, is `python3 tests/guest-runner/seed000.py`).
set -euo pipefail
MEMQOS_STEP=seed-000
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
exec python3 tests/guest-runner/seed000.py --short --out "$MEMQOS_CACHE/seed-000-check" "$@"

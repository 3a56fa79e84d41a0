#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bare-metal checks of the CPU's MPAM System registers (tests/cpu-mpam), TAP.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
exec bash "$top/tests/cpu-mpam/run.sh"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bare-metal checks of the CPU's MPAM System registers (tests/cpu-mpam).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
QEMU=$(bash "$top/qemu/build.sh" --print) exec bash "$top/tests/cpu-mpam/run.sh"

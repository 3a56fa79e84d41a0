#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A million accesses to each BWMON and OSM L3 window of
# -M virt,mpam=on,timing=on,bwmon=on (and bwmon-cpu=msm8998) with modeled
# time moving between them, on the ASan + UBSan QEMU of the MSC fuzz, then
# one TAP line per invariant (tests/device/bwmon_fuzz.py).  Hangs and the
# budget as there: BWMON_FUZZ_STALL (default 30 s), BWMON_FUZZ_TIMEOUT
# (default 900 s per machine).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/device/asan-qemu.sh"
exec python3 "$top/tests/device/bwmon_fuzz.py" "$ASAN_QEMU" \
  --timeout "${BWMON_FUZZ_TIMEOUT:-900}" --stall "${BWMON_FUZZ_STALL:-30}" \
  ${BWMON_FUZZ_SEED:+--seed "$BWMON_FUZZ_SEED"}

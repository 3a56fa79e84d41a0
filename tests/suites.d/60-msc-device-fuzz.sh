#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A million accesses to each MSC window of -M virt,mpam=on, mostly through
# valid selectors, on a QEMU built with ASan + UBSan (a separate, cached
# build) with leak detection on; then one TAP line per invariant
# (tests/device/msc_fuzz.py).  A QEMU that stops answering for
# MSC_FUZZ_STALL seconds (default 30), or a run longer than
# MSC_FUZZ_TIMEOUT (default 900), is killed and fails the suite.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/device/asan-qemu.sh"
exec python3 "$top/tests/device/msc_fuzz.py" "$ASAN_QEMU" \
  --timeout "${MSC_FUZZ_TIMEOUT:-900}" --stall "${MSC_FUZZ_STALL:-30}" ${MSC_FUZZ_SEED:+--seed "$MSC_FUZZ_SEED"}

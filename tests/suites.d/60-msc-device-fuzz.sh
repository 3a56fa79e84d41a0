#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A million random accesses to each MSC window of -M virt,mpam=on, on a
# QEMU built with ASan + UBSan (a separate, cached build).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
export QEMU_VARIANT=asan
bash "$top/qemu/build.sh"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=0
exec python3 "$top/tests/device/msc_fuzz.py" "$(bash "$top/qemu/build.sh" --print)"

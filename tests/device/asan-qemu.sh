# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the device-fuzz suites (60-msc-device-fuzz.sh,
# 61-bwmon-device-fuzz.sh): build the ASan + UBSan QEMU (a separate, cached
# build), stop at the first UBSan report, detect leaks, and set ASAN_QEMU to
# the binary.
export QEMU_VARIANT=asan
bash "$top/qemu/build.sh" >&2
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# QEMU 10.0.13 exits from these runs without a leak, so no suppressions.
export ASAN_OPTIONS=detect_leaks=1
ASAN_QEMU=$(bash "$top/qemu/build.sh" --print)

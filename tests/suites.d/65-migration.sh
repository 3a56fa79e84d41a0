#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Migrate a configured, monitoring -M virt,mpam=on through a file and compare
# its MPAM state before and after; a differently configured destination
# must refuse the stream; a corrupted stream must not pass
# (tests/device/migration.py, one TAP line per check).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/qemu/build.sh" >&2
exec python3 "$top/tests/device/migration.py" "$(bash "$top/qemu/build.sh" --print)"

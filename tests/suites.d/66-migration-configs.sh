#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Migrations between differing memqos configurations (machine options,
# -global device properties, on both targets) are refused, naming the
# option; a destination configured as its source loads the same stream
# (tests/device/migration_configs.py, one TAP line per case).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/qemu/build.sh" >&2
bash "$top/guest-tests/kernel/debian-amd64.sh" >&2
exec python3 "$top/tests/device/migration_configs.py" \
  "$(bash "$top/qemu/build.sh" --print)" "$(bash "$top/qemu/build.sh" --print x86_64)" \
  "$(bash "$top/guest-tests/kernel/debian-amd64.sh" --print firmware)"

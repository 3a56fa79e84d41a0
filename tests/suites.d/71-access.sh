#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every instruction class that touches memory reaches the modeled memory
# system (issue 26 item 4): tests/guest-runner/access.py boots each target
# once with the 'access' initramfs (guest-tests/access) and checks, class
# by class, that mbm_total_bytes counts at least the bytes touched and the
# modeled time is at least those bytes at the configured peak bandwidth.
# TAP; one line per boot and per class.
set -euo pipefail
MEMQOS_STEP=access
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
for b in "guest-tests/initramfs/build.sh access" "guest-tests/kernel/debian-amd64.sh kernel" \
         "guest-tests/kernel/debian-amd64.sh firmware" "guest-tests/initramfs/build.sh x86_64 access"; do
  prepare_build $b
done
exec python3 tests/guest-runner/access.py --out "$MEMQOS_CACHE/access-check" "$@"

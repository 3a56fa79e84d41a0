#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The BWMON platform under Debian's own arm64 kernel (issue 9 §3): the
# kernel of linux-binary-7.3.4+deb13-arm64, unmodified, boots the bwmon
# preset with the initramfs variant debian, which carries icc-bwmon.ko and
# icc-osm-l3.ko from linux-modules-7.3.4+deb13-arm64; the guest modprobes
# them and the bwmon scenario's checks follow (tests/guest-runner/bwmon.py
# --debian): both monitors and providers bind without an error or a
# deferral, and the votes reach the providers (seen from the host).
set -euo pipefail
MEMQOS_STEP=bwmon-debian
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
. tests/guest-runner/prepare.sh
prepare_build guest-tests/kernel/debian-arm64.sh kernel
prepare_build guest-tests/initramfs/build.sh debian
exec python3 tests/guest-runner/bwmon.py --debian --no-effect \
  --out "$MEMQOS_CACHE/bwmon-debian-check" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build (or find in the cache) QEMU with the memqos models, the guest kernel
# and the initramfs.  One test: the build succeeds.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/qemu/build.sh"
bash "$top/guest-tests/kernel/build.sh"
bash "$top/guest-tests/initramfs/build.sh"

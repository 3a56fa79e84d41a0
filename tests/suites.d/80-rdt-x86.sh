#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Intel RDT on qemu-system-x86_64 -M q35 (issue 10, docs/rdt-model.md
# "Platform"): a bad rdt= model stops QEMU with its message; Debian's
# unmodified amd64 kernel on the rdt-server and rdt-goldmont presets shows
# the RDT flags, mounts resctrl with the model's resources, masks, monitors
# and CDP, pseudo-locks on Goldmont, and the schemata it writes reach the
# model's MSRs (qom-get /machine/rdt); Linux registers the model's x86 PMU,
# whose LLC events count the modeled L3 with timing; then the kernel's
# resctrl selftests and Debian's pqos, each against its expected outcome
# (tests/guest-runner/rdt_x86.py); last, seed 004's short form on
# rdt-goldmont-timing (tests/guest-runner/seed004.py).
set -euo pipefail
MEMQOS_STEP=rdt-x86
. "$(dirname "$0")/../../scripts/common.sh"
cd "$MEMQOS_TOP"
for b in "guest-tests/kernel/debian-amd64.sh kernel" "guest-tests/kernel/debian-amd64.sh firmware" \
         "guest-tests/initramfs/build.sh x86_64" "qemu/build.sh"; do
  bash $b >&2 || { echo "Bail out! $b failed (its messages are above)"; exit 1; }
done
exec python3 tests/guest-runner/rdt_x86.py "$@"

# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the guest suites (run.sh, suites.d/70-timing.sh) after
# scripts/common.sh: build (cached) the guest kernel and initramfs and find
# the QEMU binary, or print a TAP "Bail out!" and exit.  A suite builds
# what else it boots (an initramfs variant) with prepare_build.

# prepare_build SCRIPT [ARG...]: run the build step, or bail out naming it.
prepare_build() {
  bash "$@" >&2 || { echo "Bail out! $* failed (its messages are above)"; exit 1; }
}

for b in guest-tests/kernel/build.sh guest-tests/initramfs/build.sh; do
  prepare_build "$b"
done
qemu=${MEMQOS_QEMU:-$(bash qemu/build.sh --print)}
[ -x "$qemu" ] || { echo "Bail out! no QEMU at $qemu: run 'make qemu' (or bash qemu/build.sh) first"; exit 1; }

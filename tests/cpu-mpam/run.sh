#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bare-metal test of the CPU side of MPAM (docs/cpu-mpam.md): builds
# test.c with the aarch64 cross compiler and runs it with -kernel on
# -M virt in six CPU configurations.  Reports TAP (tests/lib/tap.sh), one
# test per configuration: it passes when QEMU exits 0 (test.c leaves through
# semihosting; 124 is a QEMU killed by the timeout), the program reports
# 'cpu-mpam: N passed, 0 failed' and every expected line is in its output.
#   QEMU=<qemu-system-aarch64> to test another binary (default: qemu/build.sh --print)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib/tap.sh"
QEMU=${QEMU:-$(bash "$top/qemu/build.sh" --print)}
CC=${CROSS_COMPILE:-aarch64-linux-gnu-}gcc
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
elf=$work/cpu-mpam.elf

# The configurations: NAME, MACHINE, CPU, lines the output must contain.
cases=(
  "stock -cpu max at EL1: no MPAM" virt max "info MPAM absent
running at EL1"
  "stock -cpu max at EL2: no MPAM" virt,virtualization=on max "info MPAM absent
running at EL2"
  "mpam=on at EL1" virt "max,mpam=on,mpam-partid-max=31,mpam-pmg-max=3" "running at EL1
info PARTID_MAX=31 PMG_MAX=3"
  "mpam=on at EL2 (VHE, traps)" virt,virtualization=on "max,mpam=on" "running at EL2
info PARTID_MAX=63 PMG_MAX=7
ok   E2H=1: MPAM1_EL1 write went to MPAM2_EL2"
  "mpam=on at EL3" virt,secure=on "max,mpam=on" "running at EL3
ok   MPAM1_EL1.MPAMEN follows MPAM3_EL3.MPAMEN (1)"
  "mpam=on cortex-a57 at EL2 (no VHE, no SME)" virt,virtualization=on \
    "cortex-a57,mpam=on,mpam-partid-max=15,mpam-pmg-max=1" "running at EL2
info PARTID_MAX=15 PMG_MAX=1
info no FEAT_VHE: E2H checks skipped"
)
tap_plan $((${#cases[@]} / 4))

problem=
[ -x "$QEMU" ] || problem="no QEMU at $QEMU (run make qemu)"
[ -n "$problem" ] || $CC -O2 -ffreestanding -nostdlib -mgeneral-regs-only -mstrict-align -fno-pic \
    -static -Wl,--no-warn-rwx-segments -T "$here/link.ld" -o "$elf" "$here/start.S" "$here/test.c" \
    2>"$work/cc.log" || problem="building test.c failed: $(cat "$work/cc.log")"

# run NAME MACHINE CPU EXPECT: one configuration, one TAP result.
run() {
  local name=$1 machine=$2 cpu=$3 expect=$4 out rc line bad=
  if [ -n "$problem" ]; then tap_result "$name" FAIL "$problem"; return; fi
  out=$(timeout 15 "$QEMU" -M "$machine" -cpu "$cpu" -m 256 -nographic -no-reboot -nic none \
        -monitor none -serial stdio -semihosting-config enable=on,target=native -kernel "$elf" 2>&1)
  rc=$?
  [ $rc -eq 0 ] || bad="QEMU exit status $rc$([ $rc -ne 124 ] || echo ' (killed by the 15 s timeout)')
"
  local summary; summary=$(grep -E '^cpu-mpam: [0-9]+ passed, [0-9]+ failed' <<<"$out")
  [ -n "$summary" ] && grep -q ' 0 failed' <<<"$summary" || bad="${bad}summary: ${summary:-none}
"
  while IFS= read -r line; do
    [ -z "$line" ] || grep -qF -- "$line" <<<"$out" || bad="${bad}missing: $line
"
  done <<<"$expect"
  if [ -z "$bad" ]; then
    tap_result "$name" PASS "-M $machine -cpu $cpu: ${summary#cpu-mpam: }"
  else
    tap_result "$name" FAIL "-M $machine -cpu $cpu
$bad$(sed 's/^/| /' <<<"$out")"
  fi
}

for ((i = 0; i < ${#cases[@]}; i += 4)); do
  run "${cases[@]:i:4}"
done

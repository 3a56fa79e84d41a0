#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bare-metal test of the CPU side of MPAM (docs/cpu-mpam.md): builds
# test.c with the aarch64 cross compiler and runs it with -kernel on
# -M virt in six CPU configurations.  Ends with 'cpu-mpam: N passed, N failed'.
#   QEMU=<qemu-system-aarch64> to test another binary (default: qemu/build.sh --print)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
QEMU=${QEMU:-$(bash "$top/qemu/build.sh" --print)}
[ -x "$QEMU" ] || { echo "cpu-mpam: no QEMU at $QEMU (run make qemu)"; echo "cpu-mpam: 0 passed, 1 failed"; exit 1; }
CC=${CROSS_COMPILE:-aarch64-linux-gnu-}gcc
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
elf=$work/cpu-mpam.elf
$CC -O2 -ffreestanding -nostdlib -mgeneral-regs-only -mstrict-align -fno-pic -static \
    -Wl,--no-warn-rwx-segments -T "$here/link.ld" -o "$elf" "$here/start.S" "$here/test.c" ||
  { echo "cpu-mpam: 0 passed, 1 failed"; exit 1; }

pass=0 fail=0
# run NAME EXPECT MACHINE CPU: EXPECT is a list of lines the output must contain
run() {
  local name=$1 expect=$2 machine=$3 cpu=$4 out line
  out=$(timeout 15 "$QEMU" -M "$machine" -cpu "$cpu" -m 256 -nographic -no-reboot -nic none \
        -monitor none -serial stdio -semihosting-config enable=on,target=native -kernel "$elf" 2>&1)
  local summary; summary=$(grep -E '^cpu-mpam: [0-9]+ passed, [0-9]+ failed' <<<"$out")
  local ok=1
  [ -n "$summary" ] && grep -q ' 0 failed' <<<"$summary" || ok=0
  while IFS= read -r line; do
    [ -z "$line" ] || grep -qF -- "$line" <<<"$out" || { ok=0; echo "  missing: $line"; }
  done <<<"$expect"
  if [ $ok = 1 ]; then
    pass=$((pass + 1)); echo "ok   $name (${summary#cpu-mpam: })"
  else
    fail=$((fail + 1)); echo "FAIL $name"; sed 's/^/  | /' <<<"$out"
  fi
}

run "stock -cpu max at EL1: no MPAM" "info MPAM absent
running at EL1" virt max
run "stock -cpu max at EL2: no MPAM" "info MPAM absent
running at EL2" virt,virtualization=on max
run "mpam=on at EL1" "running at EL1
info PARTID_MAX=31 PMG_MAX=3" virt "max,mpam=on,mpam-partid-max=31,mpam-pmg-max=3"
run "mpam=on at EL2 (VHE, traps)" "running at EL2
info PARTID_MAX=63 PMG_MAX=7
ok   E2H=1: MPAM1_EL1 write went to MPAM2_EL2" virt,virtualization=on "max,mpam=on"
run "mpam=on at EL3" "running at EL3
ok   MPAM1_EL1.MPAMEN follows MPAM3_EL3.MPAMEN (1)" virt,secure=on "max,mpam=on"
run "mpam=on cortex-a57 at EL2 (no VHE, no SME)" "running at EL2
info PARTID_MAX=15 PMG_MAX=1
info no FEAT_VHE: E2H checks skipped" virt,virtualization=on "cortex-a57,mpam=on,mpam-partid-max=15,mpam-pmg-max=1"
echo "cpu-mpam: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad -M virt,mpam=on options stop QEMU at start-up with a clear message;
# good ones start it.  Ends with 'machine-options: N passed, N failed'.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
qemu=$(bash "$top/qemu/build.sh" --print)
pass=0 fail=0

# expect MACHINE STATUS MESSAGE: STATUS is ok or error; MESSAGE must appear.
expect() {
  local machine=$1 want=$2 msg=$3 out rc
  out=$(timeout 20 "$qemu" -M "$machine" -cpu max -display none -nic none -S \
        -monitor none -serial none -qmp stdio <<<'{"execute":"qmp_capabilities"}
{"execute":"quit"}' 2>&1); rc=$?
  if { [ "$want" = ok ] && [ $rc -eq 0 ]; } || { [ "$want" = error ] && [ $rc -ne 0 ]; }; then
    if grep -qF -- "$msg" <<<"$out"; then
      pass=$((pass + 1)); echo "ok   -M $machine"; return
    fi
  fi
  fail=$((fail + 1)); echo "FAIL -M $machine: exit $rc, expected $want with '$msg'"; echo "$out" | head -3
}

expect virt,mpam=on ok '"return"'
expect virt,mpam=on,mpam-partids=16,mpam-pmgs=4,l3-size=4M,l3-ways=8 ok '"return"'
expect virt,mpam=on,mpam-partids=70000 error 'the architecture allows 1..65536 PARTIDs'
expect virt,mpam=on,mpam-pmgs=0 error 'the architecture allows 1..256 PMGs'
expect virt,mpam=on,mpam-pmgs=257 error 'the architecture allows 1..256 PMGs'
expect virt,mpam=on,l3-ways=300 error 'l3-ways=300 is out of range'
expect virt,mpam=on,mpam-dspri=x error "bad priority policy entry 'x'"
expect virt,mpam=on,mpam-feature=1 error "Property 'virt-10.0-machine.mpam-feature' not found"
echo "machine-options: $pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The property and QMP fuzzer (issue 25): every memqos property at start-up
# with boundary and garbage values, every fixed property refused at run
# time leaving the machine as it was, every memqos QMP command with
# boundary arguments, on both targets (tests/device/prop_fuzz.py, three
# TAP lines per target).  First the release QEMU with the whole corpus,
# then the ASan + UBSan build (tests/device/asan-qemu.sh, aarch64 only)
# with every 7th start-up case.  PROP_FUZZ_SOAK=S repeats the run-time and QMP phases
# with random values for S seconds (a soak).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bash "$top/qemu/build.sh" >&2
bash "$top/guest-tests/kernel/debian-amd64.sh" >&2
fw=$(bash "$top/guest-tests/kernel/debian-amd64.sh" --print firmware)
soak=(--soak "${PROP_FUZZ_SOAK:-0}")
release=$(python3 "$top/tests/device/prop_fuzz.py" "${soak[@]}" \
  "$(bash "$top/qemu/build.sh" --print)" "$(bash "$top/qemu/build.sh" --print x86_64)" "$fw") || rc=$?
. "$top/tests/device/asan-qemu.sh"
asan=$(python3 "$top/tests/device/prop_fuzz.py" --every 7 --only aarch64 "${soak[@]}" \
  "$ASAN_QEMU" - "$fw") || rc=$?
# one TAP stream: the two runs' plans added, their lines renumbered
python3 - "$release" "$asan" <<'PY'
import re, sys
runs = [("release", sys.argv[1]), ("asan", sys.argv[2])]
plans = [int(re.search(r"^1\.\.(\d+)", out, re.M).group(1)) for _, out in runs]
print(f"1..{sum(plans)}")
n = 0
for tag, out in runs:
    for line in out.splitlines():
        m = re.match(r"^(not ok|ok) \d+ - (.*)$", line)
        if m:
            n += 1
            print(f"{m.group(1)} {n} - {tag}: {m.group(2)}")
        elif not re.match(r"^1\.\.\d+", line):
            print(line)
PY
exit "${rc:-0}"

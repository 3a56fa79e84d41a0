#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fuzz mpam-acpi-check's parser/checker (mac_check, the tool's own entry
# point) with libFuzzer under ASan + UBSan for a bounded time.
#   acpi-tables/fuzz/run.sh [SECONDS]       (default 60)
# The harness is built here, outside meson, because libFuzzer needs clang
# (+ libclang-rt-dev from Debian) and the project builds with gcc; the seed
# corpus (good and broken tables) comes from the meson-built mac-gen-tables
# (scripts/meson-build.sh).  Fails on any crash, hang (> 10 s per input),
# leak or sanitizer report.
# Prints 'fuzz: N passed, N failed' for tests/run-all.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/../scripts/common.sh"
secs=${1:-60}
CC_FUZZ=${CC_FUZZ:-clang}
work=$(mktemp -d "${TMPDIR:-/tmp}/mac-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed() { echo "fuzz: 0 passed, 1 failed"; exit 1; }

command -v "$CC_FUZZ" >/dev/null || { echo "fuzz: clang not found (apt-get install clang libclang-rt-dev)"; failed; }

echo "[fuzz] building the harness in $work"
"$CC_FUZZ" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -Wall -Wextra -Werror -Wno-unused-parameter \
    -o "$work/fuzz_mac" "$here/fuzz/fuzz_mac.c" "$here/mac.c" "$here/mac_out.c" ||
    failed
b=$(bash "$MEMQOS_TOP/scripts/meson-build.sh" acpi-tables/mac-gen-tables) ||
    failed

mkdir -p "$work/corpus" "$work/artifacts"
"$b/acpi-tables/mac-gen-tables" corpus "$work/corpus" || failed
echo "[fuzz] $(ls "$work/corpus" | wc -l) seed inputs; running for ${secs}s"

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
"$work/fuzz_mac" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added)' "$work/log"
if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
    tail -n 60 "$work/log"
    keep=$MEMQOS_CACHE/fuzz-artifacts
    mkdir -p "$keep" && cp -a "$work/artifacts/." "$keep/" 2>/dev/null
    echo "[fuzz] crash inputs kept in $keep"
    failed
fi
echo "fuzz: 1 passed, 0 failed"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the arm64 guest kernel Image from Debian's linux-source-7.3.
#
#   guest-tests/kernel/build.sh           configure and build (cached), print the Image path
#   guest-tests/kernel/build.sh --print   print the Image path the current tree builds
#
# Configuration: allnoconfig + guest-tests/kernel/config.fragment, then every
# option of the fragment is checked in the resulting .config (Kconfig drops
# options with unmet dependencies without a word).  The source is unpacked
# once under $MEMQOS_CACHE/kernel/src-<version>; the build lives in
# $MEMQOS_CACHE/kernel/<key>, <key> = hash(package version, fragment).
set -euo pipefail
MEMQOS_STEP=kernel
. "$(dirname "$0")/../../scripts/common.sh"

here=$MEMQOS_TOP/guest-tests/kernel
fragment=$here/config.fragment
MAKE_ARGS=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)

version=$(memqos_linux_version)
key=$(memqos_key "$LINUX_SOURCE_PKG=$version" "${MAKE_ARGS[*]}" "$fragment")
dir=$MEMQOS_CACHE/kernel/$key
image=$dir/Image

case "${1:-}" in
  --print) echo "$image"; exit 0 ;;
  "") ;;
  -h|--help) sed -n '3,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) die "unknown option '$1' (use --print or no argument)" ;;
esac

if [ -f "$image" ]; then say "cached: $image"; echo "$image"; exit 0; fi

command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc missing; run scripts/setup-host.sh"

mkdir -p "$MEMQOS_CACHE/kernel"
# One builder per cache entry at a time (two `make check` on one machine).
exec 9>"$MEMQOS_CACHE/kernel/.lock-$key"
flock 9

src=$(memqos_linux_source)

build=$dir/build
mkdir -p "$build"
kmake() { make -C "$src" O="$build" "${MAKE_ARGS[@]}" "$@"; }

# allnoconfig with the fragment as KCONFIG_ALLCONFIG is allnoconfig followed
# by a merge of the fragment (what merge_config.sh -n does), in one pass.
memqos_run_logged "$dir/config.log" "configuring $LINUX_SOURCE_PKG $version (allnoconfig + config.fragment)" \
  kmake KCONFIG_ALLCONFIG="$fragment" allnoconfig
memqos_run_logged "$dir/olddefconfig.log" "olddefconfig" kmake olddefconfig

# Every fragment line must appear verbatim in .config; "# CONFIG_X is not set"
# lines must not be contradicted by a CONFIG_X= line.
missing=()
while IFS= read -r line; do
  case "$line" in
    CONFIG_*=*)
      opt=${line%%=*}
      got=$(grep -E "^(# )?$opt[= ]" "$build/.config" || true)
      [ "$got" = "$line" ] || missing+=("$line (got: ${got:-absent})") ;;
    "# CONFIG_"*" is not set")
      opt=${line#\# }; opt=${opt%% *}
      ! grep -q "^$opt=" "$build/.config" || missing+=("$line (got: $(grep "^$opt=" "$build/.config"))") ;;
  esac
done <"$fragment"
if [ ${#missing[@]} -gt 0 ]; then
  printf '  %s\n' "${missing[@]}" >&2
  die "${#missing[@]} option(s) of $fragment did not end up in $build/.config as asked (unmet dependencies?)"
fi
say "all $(grep -c '^CONFIG_' "$fragment") options of config.fragment are set as asked"

say "building Image with $JOBS jobs (about 6 minutes on 2 cores; log: $dir/build.log)"
start=$SECONDS
if ! kmake -j"$JOBS" Image 2>&1 | tee "$dir/build.log" |
     awk '/^  [A-Z0-9_]+ +/ { n++; if (n % 100 == 0) { printf "[kernel]   %d files... %s\n", n, $2; fflush() } next }
          /^make(\[[0-9]+\])?: (Entering|Leaving)/ { next } { print; fflush() }'; then
  die "kernel build failed; full log in $dir/build.log"
fi
[ -f "$build/arch/arm64/boot/Image" ] || die "no Image after the build; see $dir/build.log"
cp "$build/arch/arm64/boot/Image" "$image.tmp" && mv "$image.tmp" "$image"
echo "$((SECONDS - start))" >"$dir/build-seconds"
say "built $image in $((SECONDS - start)) s"
echo "$image"

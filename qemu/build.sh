#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build qemu-system-aarch64 and qemu-system-x86_64 with the memqos models.
#
#   qemu/build.sh                   fetch, patch, configure and build (cached)
#   qemu/build.sh --print [ARCH]    print the path of the binary the current tree
#                                   builds: aarch64 (the default) or x86_64
#
# QEMU_VARIANT=asan builds a second, separately cached binary with
# AddressSanitizer and UndefinedBehaviorSanitizer for the device tests
# (aarch64 only: the device fuzz runs the Arm MSCs).
#
# The source is upstream QEMU from Debian's trixie source package, or the
# checkout named by QEMU_SRC=<dir>.  The patch series in qemu/patches is
# applied to a copy; the memqos models are synchronised into hw/memqos on
# every run so that an edit to them rebuilds incrementally.  The build is
# cached under $MEMQOS_CACHE/qemu/<key>, where <key> hashes the source
# version, the patch series and the configure options.
set -euo pipefail
MEMQOS_STEP=qemu
. "$(dirname "$0")/../scripts/common.sh"

case "${QEMU_VARIANT:-release}" in
  release) ARCHS=(aarch64 x86_64); EXTRA=() ;;
  asan) ARCHS=(aarch64); EXTRA=(--enable-asan --enable-ubsan --enable-debug-tcg) ;;
  *) die "unknown QEMU_VARIANT=${QEMU_VARIANT} (release or asan)" ;;
esac
TARGETS=$(printf '%s-softmmu,' "${ARCHS[@]}"); TARGETS=${TARGETS%,}
CONFIGURE=(--python=/usr/bin/python3 --target-list=$TARGETS --enable-plugins
           --without-default-features --enable-tcg --enable-fdt=system
           --disable-docs --disable-install-blobs --disable-werror "${EXTRA[@]}")
[ -z "${QEMU_EXTRA_CONFIGURE:-}" ] || CONFIGURE+=($QEMU_EXTRA_CONFIGURE)

patches=("$MEMQOS_TOP"/qemu/patches/*.patch)
[ -e "${patches[0]}" ] || patches=()

if [ -n "${QEMU_SRC:-}" ]; then
  [ -f "$QEMU_SRC/VERSION" ] || die "QEMU_SRC=$QEMU_SRC is not a QEMU source tree (no VERSION file)"
  QEMU_SRC=$(cd "$QEMU_SRC" && pwd)
  origin="custom:$QEMU_SRC:$(git -C "$QEMU_SRC" describe --always --dirty 2>/dev/null || cat "$QEMU_SRC/VERSION")"
else
  origin="debian:$QEMU_DEB_VERSION"
fi
key=$(memqos_key "$origin" "${CONFIGURE[*]}" "${patches[@]}")
dir=$MEMQOS_CACHE/qemu/$key
bin=$dir/build/qemu-system-aarch64

if [ "${1:-}" = "--print" ]; then
  for a in "${ARCHS[@]}"; do
    [ "$a" = "${2:-aarch64}" ] && { echo "$dir/build/qemu-system-$a"; exit 0; }
  done
  die "--print: no '${2}' in the ${QEMU_VARIANT:-release} build (${ARCHS[*]})"
fi

# One builder per cache entry at a time (make demo beside make check): two
# ninjas in one build directory corrupt its logs.
mkdir -p "$MEMQOS_CACHE/qemu"
exec 9>"$MEMQOS_CACHE/qemu/.lock-$key"
flock 9

fetch_debian_source() {
  local pristine=$MEMQOS_CACHE/qemu/pristine-$QEMU_UPSTREAM_VERSION
  if [ ! -f "$pristine/VERSION" ]; then
    local dl=$MEMQOS_CACHE/downloads
    mkdir -p "$dl"
    local tarball=$dl/qemu_${QEMU_UPSTREAM_VERSION}+ds.orig.tar.xz
    if [ ! -f "$tarball" ]; then
      say "downloading QEMU $QEMU_DEB_VERSION source from Debian"
      (cd "$dl" && apt-get source --download-only -q "qemu=$QEMU_DEB_VERSION" >/dev/null 2>&1) ||
        die "apt-get source qemu=$QEMU_DEB_VERSION failed; run scripts/setup-host.sh first"
    fi
    say "unpacking $tarball"
    rm -rf "$pristine.tmp" && mkdir -p "$pristine.tmp"
    tar -xJf "$tarball" -C "$pristine.tmp" --strip-components=1
    mv "$pristine.tmp" "$pristine"
  fi
  echo "$pristine"
}

if [ ! -f "$dir/src/.memqos-patched" ]; then
  if [ -n "${QEMU_SRC:-}" ]; then from=$QEMU_SRC; else from=$(fetch_debian_source); fi
  say "preparing source $origin in $dir/src"
  # Copy the tree's contents ("/."), never a link to it: the series must
  # not be applied to the pristine source or to QEMU_SRC.
  rm -rf "$dir/src" && mkdir -p "$dir/src"
  cp -a "$from/." "$dir/src"
  rm -rf "$dir/src/.git"
  for p in "${patches[@]}"; do
    say "applying $(basename "$p")"
    patch -d "$dir/src" -p1 -s --no-backup-if-mismatch <"$p" || die "patch $(basename "$p") does not apply"
  done
  touch "$dir/src/.memqos-patched"
fi

# The models and their glue: copied, not linked, so that QEMU's build sees a
# normal source tree.  Without -t, rsync leaves files of unchanged content
# alone, timestamps included, so a fresh clone does not trigger a rebuild.
mkdir -p "$dir/src/hw/memqos"
# qemu/hw-memqos holds the build files; every directory of hw/ is a model.
rsync -rl --delete --checksum --include='meson.build' --include='Kconfig' \
  --exclude='*' "$MEMQOS_TOP/qemu/hw-memqos/" "$dir/src/hw/memqos/"
for d in "$MEMQOS_TOP"/hw/*/; do
  rsync -rl --delete --checksum --include='*.c' --include='*.h' --include='trace-events' \
    --exclude='tests/' --exclude='*' "$d" "$dir/src/hw/memqos/$(basename "$d")/"
done

if [ ! -f "$dir/build/build.ninja" ]; then
  mkdir -p "$dir/build"
  memqos_run_logged "$dir/configure.log" "configuring QEMU ($TARGETS)" \
    sh -c 'cd "$1" && shift && ../src/configure "$@"' _ "$dir/build" "${CONFIGURE[@]}"
fi

say "building QEMU in $dir/build with $JOBS jobs (first build takes several minutes)"
if ! ninja -C "$dir/build" -j "$JOBS" "${ARCHS[@]/#/qemu-system-}" 2>&1 | tee "$dir/build.log" |
     awk '/^\[[0-9]+\/[0-9]+\]/ { n++; if (n % 200 == 0) { print "[qemu]   " $1; fflush() } next }
          /^ninja: (Entering|no work)/ { next } { print; fflush() }'; then
  die "QEMU build failed; full log in $dir/build.log"
fi
ln -sfn "$dir" "$MEMQOS_CACHE/qemu/current$([ "${QEMU_VARIANT:-release}" = release ] || echo "-$QEMU_VARIANT")"
say "built ${ARCHS[*]/#/$dir/build/qemu-system-}"

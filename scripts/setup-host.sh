#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Prepare a Debian 12/13 host for memqos: apt suites, the arm64 architecture and
# every package the build and the tests need.  Idempotent; does nothing when all
# is already in place.  Needs root (or sudo).
set -euo pipefail
MEMQOS_STEP=setup
. "$(dirname "$0")/common.sh"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

PKGS=(
  build-essential git pkg-config python3 python3-venv ninja-build flex bison
  libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  bc cpio xz-utils kmod libssl-dev libelf-dev dwarves rsync
  libcunit1-dev clang libclang-rt-dev acpica-tools
  qemu-efi-aarch64 busybox-static:arm64
  meson python3-pycotap gnuplot-nox "$LINUX_SOURCE_PKG"
)
# Packages whose version matters: taken from the suite named here.  QEMU
# 10.0 needs meson >= 1.5 and pycotap, which bookworm has only in backports.
. /etc/os-release
PINNED=( "$LINUX_SOURCE_PKG/trixie-backports" )
[ "$VERSION_CODENAME" != bookworm ] ||
  PINNED+=( "meson/bookworm-backports" "python3-pycotap/bookworm-backports" )

missing() {
  local p out=()
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out+=("$p")
  done
  printf '%s\n' "${out[@]}"
}

need=$(missing)
if [ -z "$need" ] && [ -f /etc/apt/sources.list.d/memqos.sources ]; then
  say "host already set up"
  exit 0
fi

# Reuse the archive URI that the machine already uses; never hard-code a mirror.
uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
[ -n "$uri" ] || uri=$(awk '$1=="deb" && $0 ~ /debian/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || die "cannot find the Debian archive URI in apt's sources"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

if [ ! -f /etc/apt/sources.list.d/memqos.sources ]; then
  say "adding deb-src and the backports/trixie suites from $uri"
  extra="${VERSION_CODENAME}-backports trixie trixie-backports"
  [ "$VERSION_CODENAME" != trixie ] || extra="trixie-backports"
  $SUDO tee /etc/apt/sources.list.d/memqos.sources >/dev/null <<EOS
# Added by memqos scripts/setup-host.sh
Types: deb-src
URIs: $uri
Suites: ${VERSION_CODENAME}
Components: main
Signed-By: $keyring

Types: deb deb-src
URIs: $uri
Suites: $extra
Components: main
Signed-By: $keyring
EOS
  # Keep everything else on the installed release: the added suites (never
  # the host's own) serve only the packages asked for by name/suite.
  for suite in $extra; do
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n\n' "$suite"
  done | $SUDO tee /etc/apt/preferences.d/memqos-pin >/dev/null
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  say "adding the arm64 architecture"
  $SUDO dpkg --add-architecture arm64
fi
say "apt-get update"
$SUDO apt-get update -qq
need=$(missing)
if [ -n "$need" ]; then
  # shellcheck disable=SC2086
  say "installing: $(echo $need | tr '\n' ' ')"
  plain=() pinned=()
  for p in $need; do
    t=$p
    for q in "${PINNED[@]}"; do [ "${q%%/*}" = "$p" ] && t=$q; done
    if [ "$t" = "$p" ]; then plain+=("$p"); else pinned+=("$t"); fi
  done
  export DEBIAN_FRONTEND=noninteractive
  [ ${#plain[@]} -eq 0 ] || $SUDO apt-get install -y -q --no-install-recommends "${plain[@]}"
  [ ${#pinned[@]} -eq 0 ] || $SUDO apt-get install -y -q --no-install-recommends "${pinned[@]}"
fi
say "host ready"

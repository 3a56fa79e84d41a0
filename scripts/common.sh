# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings for memqos scripts: where builds are cached and which
# upstream versions they come from.  Sourced, not run.

MEMQOS_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Heavy artifacts live outside the clone so that a fresh clone reuses them.
MEMQOS_CACHE=${MEMQOS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memqos}

QEMU_DEB_VERSION=1:10.0.13+ds-0+deb13u1
QEMU_UPSTREAM_VERSION=10.0.13
LINUX_SOURCE_PKG=linux-source-7.3

JOBS=${JOBS:-$(nproc)}

say() { printf '[%s] %s\n' "${MEMQOS_STEP:-memqos}" "$*" >&2; }
die() { printf '%s: error: %s\n' "${MEMQOS_STEP:-memqos}" "$*" >&2; exit 1; }

# Short content hash of files and strings, used as cache keys.
memqos_key() {
  { for a in "$@"; do
      if [ -f "$a" ]; then printf '%s\n' "$(basename "$a")"; cat "$a"; else printf '%s\n' "$a"; fi
    done; } | sha256sum | cut -c1-16
}

# Run a long build step: full log to a file, progress lines thinned out,
# anything that is not a progress line (warnings, errors) shown as is.
memqos_run_logged() {
  local log=$1 label=$2; shift 2
  say "$label (log: $log)"
  if ! "$@" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    die "$label failed; full log in $log"
  fi
}

# The version of Debian's linux-source package (the guest kernels' source).
memqos_linux_version() {
  dpkg-query -W -f='${Version}' "$LINUX_SOURCE_PKG" 2>/dev/null ||
    die "package $LINUX_SOURCE_PKG is not installed; run scripts/setup-host.sh (or make setup)"
}

# Unpack that source once into $MEMQOS_CACHE/kernel/src-<version>; print the
# directory.  Callers build out of tree (O=, OUTPUT=): it stays pristine.
memqos_linux_source() {
  local version tarball=/usr/src/$LINUX_SOURCE_PKG.tar.xz src
  version=$(memqos_linux_version) || exit 1
  src=$MEMQOS_CACHE/kernel/src-$version
  if [ ! -f "$src/.memqos-unpacked" ]; then
    [ -f "$tarball" ] || die "$tarball missing; run scripts/setup-host.sh"
    mkdir -p "$MEMQOS_CACHE/kernel"
    exec 8>"$MEMQOS_CACHE/kernel/.lock-src-$version"
    flock 8
    if [ ! -f "$src/.memqos-unpacked" ]; then
      say "unpacking $tarball into $src (takes a minute or two)"
      rm -rf "$src.tmp" && mkdir -p "$src.tmp"
      tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
      touch "$src.tmp/.memqos-unpacked"
      rm -rf "$src" && mv "$src.tmp" "$src"
    fi
    exec 8>&-
  fi
  echo "$src"
}

# memqos_debian_modules SRC DST MODULE...: the guest kernels' scripts'
# module trees.  Copies each MODULE of the unpacked SRC
# (usr/lib/modules/<release>) and, recursively, what modinfo says it
# depends on into DST (lib/modules/<release> of an initramfs),
# decompressed, with a modules.dep for the guest's busybox modprobe.
memqos_debian_modules() {
  local src=$1 dst=$2 m f rel deps d line done=" "
  shift 2
  local todo=("$@") dep=()
  mkdir -p "$dst"
  while [ ${#todo[@]} -gt 0 ]; do
    m=${todo[0]} todo=("${todo[@]:1}")
    [[ "$done" == *" $m "* ]] && continue
    done="$done$m "
    f=$(memqos_module_file "$src" "$m")
    [ -n "$f" ] || die "module $m is not in $src"
    rel=${f#"$src/"} rel=${rel%.xz}
    mkdir -p "$dst/$(dirname "$rel")"
    case $f in *.xz) xz -dc "$f" >"$dst/$rel" ;; *) cp "$f" "$dst/$rel" ;; esac
    deps=$(modinfo -F depends "$dst/$rel" | tr , ' ')
    line="$rel:"
    for d in $deps; do
      todo+=("$d")
      d=$(memqos_module_file "$src" "$d")
      d=${d#"$src/"}
      line="$line ${d%.xz}"
    done
    dep+=("$line")
    say "module $rel${deps:+ (needs $deps)}"
  done
  printf '%s\n' "${dep[@]}" >"$dst/modules.dep"
}
# memqos_module_file SRC NAME: its file under SRC/kernel (- and _ alike)
memqos_module_file() { find "$1/kernel" -name "$(echo "$2" | sed 's/[-_]/[-_]/g').ko*" | head -n 1; }

# memqos_debian_unpack MODE DIR OUT PKG=VERSION...: the part the guest
# kernels' scripts (guest-tests/kernel/debian-*.sh) share.  With MODE print,
# or when DIR is complete (DIR/.memqos-done), print OUT and exit; else, under
# a lock, unpack each pinned Debian package into DIR/root, downloading it
# with apt-get download into $MEMQOS_CACHE/downloads the first time.  The
# caller then builds OUT from DIR/root and touches DIR/.memqos-done.
memqos_debian_unpack() {
  local mode=$1 dir=$2 out=$3 dl=$MEMQOS_CACHE/downloads p name version arch deb
  shift 3
  if [ "$mode" = print ] || [ -f "$dir/.memqos-done" ]; then echo "$out"; exit 0; fi
  mkdir -p "$(dirname "$dir")"
  exec 9>"$(dirname "$dir")/.lock-$(basename "$dir")"
  flock 9
  rm -rf "$dir"
  mkdir -p "$dl" "$dir/root"
  for p in "$@"; do
    # NAME[:ARCH]=VERSION; the .deb's name ends in _ARCH (or _all)
    name=${p%%=*} version=${p#*=} arch=*
    case $name in *:*) arch=${name#*:} name=${name%%:*} ;; esac
    deb=$(ls "$dl/${name}_"*"${version#*:}"_$arch.deb 2>/dev/null | head -n 1 || true)
    if [ -z "$deb" ]; then
      say "downloading $p"
      (cd "$dl" && apt-get download -q "$p" >/dev/null 2>&1) ||
        die "apt-get download $p failed (is trixie/bookworm in the apt sources, and for" \
            "arm64 the architecture? scripts/setup-host.sh)"
      deb=$(ls "$dl/${name}_"*"${version#*:}"_$arch.deb | head -n 1)
    fi
    dpkg-deb -x "$deb" "$dir/root"
  done
}

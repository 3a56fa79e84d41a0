#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Compare field values that mpam-acpi-check --json reports with what the
# ACPICA disassembler (iasl -d) prints for the same tables: MSC length,
# identifier, base address, MMIO size, interrupts, NRDY, resource count;
# RIS index, locator type and descriptor; PPTT cache flags, size and ID.
#   iasl-compare.sh TOOL DIR...     each DIR holds MPAM [PPTT] [SRAT]
#                                   (e.g. /sys/firmware/acpi/tables copies)
# Debian 12's iasl (20200925) predates MPAM support; then iasl 20250404 is
# taken from Debian trixie with `apt-get download` (acpica-tools + libc6,
# unpacked in $MEMQOS_CACHE/acpica-trixie, run through trixie's loader; no
# system package changes).  Prints 'iasl: N passed, N failed'.
set -uo pipefail
. "$(dirname "$0")/../../scripts/common.sh"
tool=$1; shift
work=$(mktemp -d "${TMPDIR:-/tmp}/mac-iasl.XXXXXX")
trap 'rm -rf "$work"' EXIT

IASL=()
find_iasl() {
  if command -v iasl >/dev/null && (cd "$work" && iasl -T MPAM >/dev/null 2>&1 && [ -f mpam.asl ]); then
    IASL=(iasl); return 0
  fi
  local d=$MEMQOS_CACHE/acpica-trixie
  if [ ! -x "$d/root/usr/bin/iasl" ]; then
    echo "[iasl] system iasl cannot decode MPAM; fetching acpica-tools and libc6 from trixie into $d" >&2
    rm -rf "$d" && mkdir -p "$d/debs" "$d/root"
    (cd "$d/debs" && apt-get download acpica-tools/trixie libc6/trixie) >&2 || return 1
    for deb in "$d"/debs/*.deb; do dpkg-deb -x "$deb" "$d/root" || return 1; done
  fi
  local lib=$d/root/usr/lib/x86_64-linux-gnu
  IASL=("$lib/ld-linux-x86-64.so.2" --library-path "$lib" "$d/root/usr/bin/iasl")
  "${IASL[@]}" -v >/dev/null 2>&1
}
if ! find_iasl; then
  echo "iasl: no iasl that decodes MPAM"; echo "iasl: 0 passed, 1 failed"; exit 1
fi

pass=0 fail=0
for dir in "$@"; do
  d=$work/$(basename "$dir")-$pass$fail
  mkdir -p "$d"
  args=()
  for t in MPAM PPTT SRAT; do
    lower=$(tr 'A-Z' 'a-z' <<<"$t")
    if [ -f "$dir/$t" ]; then cp "$dir/$t" "$d/$lower.dat"
    elif [ -f "$dir/$lower.dat" ]; then cp "$dir/$lower.dat" "$d/$lower.dat"; fi
  done
  [ -f "$d/pptt.dat" ] && args+=(--pptt "$d/pptt.dat")
  [ -f "$d/srat.dat" ] && args+=(--srat "$d/srat.dat")
  "$tool" --json "${args[@]}" "$d/mpam.dat" >"$d/check.json"
  (cd "$d" && "${IASL[@]}" -d ./*.dat >iasl.log 2>&1) || { cat "$d/iasl.log"; fail=$((fail+1)); continue; }
  out=$(python3 - "$d" <<'PY'
import json, re, sys, os
d = sys.argv[1]
def dsl(name):
    """iasl -d field lines: [hhhh dddd lllh] Label : value -> {offset: (label, int)}"""
    f = {}
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return None
    for line in open(path, errors="replace"):
        m = re.match(r'\[([0-9A-F]+)h (\d+) +([0-9A-F]+)h\]\s+(.*?)\s+:\s+(\S+)', line)
        if not m:
            continue
        try:
            f[int(m.group(2))] = (m.group(4), int(m.group(5), 16))
        except ValueError:
            f[int(m.group(2))] = (m.group(4), None)
    return f
j = json.load(open(os.path.join(d, "check.json")))
mp, pp = dsl("mpam.dsl"), dsl("pptt.dsl")
ok = bad = 0
def cmp(tbl, f, off, label, want):
    global ok, bad
    got = f.get(off) if f is not None else None
    if got is not None and got[0].lower().startswith(label.lower()) and got[1] == want:
        ok += 1
        print(f"ok   {tbl}+{off:#06x} {label} = {want:#x}")
    else:
        bad += 1
        print(f"FAIL {tbl}+{off:#06x} {label}: tool {want:#x}, iasl {got}")
for m in j["msc"]:
    o = m["offset"]
    cmp("MPAM", mp, o + 0, "Length", m["length"])
    cmp("MPAM", mp, o + 4, "Identifier", m["identifier"])
    cmp("MPAM", mp, o + 8, "Base address", m["base_address"])
    cmp("MPAM", mp, o + 16, "MMIO size", m["mmio_size"])
    cmp("MPAM", mp, o + 20, "Overflow interrupt", m["overflow_interrupt"])
    cmp("MPAM", mp, o + 36, "Error interrupt", m["error_interrupt"])
    cmp("MPAM", mp, o + 40, "Error interrupt flags", m["error_interrupt_flags"])
    cmp("MPAM", mp, o + 52, "MAX_NRDY_USEC", m["max_nrdy_usec"])
    cmp("MPAM", mp, o + 68, "Number of resource nodes", m["num_resource_nodes"])
    for r in m["resources"]:
        ro = r["offset"]
        cmp("MPAM", mp, ro + 4, "RIS Index", r["ris_index"])
        cmp("MPAM", mp, ro + 7, "Locator type", r["locator_type"])
        label = {0: "Cache reference", 1: "Proximity domain"}.get(r["locator_type"])
        if label:
            cmp("MPAM", mp, ro + 8, label, r["descriptor1"])
for c in j["pptt_caches"]:
    o = c["offset"]
    cmp("PPTT", pp, o + 4, "Flags", c["flags"])
    cmp("PPTT", pp, o + 12, "Size", c["size"])
    if c["length"] >= 28:
        cmp("PPTT", pp, o + 24, "Cache ID", c["cache_id"])
if not j["msc"]:
    bad += 1
    print("FAIL no MSC decoded by the tool")
print(f"RESULT {ok} {bad}")
PY
)
  echo "$out" | grep -v '^RESULT' | sed "s|^|[$(basename "$dir")] |"
  read -r _ p f <<<"$(echo "$out" | grep '^RESULT')"
  pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))
done
echo "iasl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fuzz every BWMON and OSM L3 window of `-M virt,...,bwmon=on`, then check
invariants (issue 9, "Bad input").

QEMU runs under the qtest accelerator, this script is the only bus master
(the shared machinery of msc_fuzz.py: machine.py's Machine, Accesses,
random_access and check_exit).  Two machines: the CPU monitor in the sdm845
layout (one region) with the LLCC monitor (v5) and the OSM L3 providers,
then `bwmon-cpu=msm8998` (a monitor and a global region).  Which windows
exist comes from QEMU: query-memqos-bwmon names the devices and `info
mtree -o` their regions.  For each window N accesses (--accesses): most
are 32-bit accesses to a register of the layout (guest-requirements.md
§5.2) with values biased towards what makes windows close and counters
fire (short SAMPLE_WINDOW, small THRESHOLD_COUNT, ENABLE set); the rest are
raw (width 1/2/4/8, any offset and alignment, any value); between them
`clock_step` moves modeled time by 10 ns to 30 ms, so windows close in
bulk and the devices' timers run.  Afterwards, one TAP line per check:
the accesses reached the registers and windows closed; the RW registers
read back as last validly written (aligned 32-bit writes, masked; other
sizes are ignored, docs/bwmon-model.md "Glue"); query-memqos-bwmon agrees
with MMIO and the line follows IRQ_STATUS & IRQ_ENABLE (v4: the global
latch and GLOBAL_IRQ_ENABLE); the other devices are untouched.  Then
system_reset restores the reset state, and QEMU exits without a sanitizer
report (run it on the ASan + UBSan build).

Usage: bwmon_fuzz.py QEMU [--accesses N] [--seed S] [--timeout T] [--stall S]
"""
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import (Accesses, Checks, Machine, check_exit, fuzz_parser,  # noqa: E402
                     random_access, run_checks)

# Without -icount: under qtest no vCPU runs and clock_step drives modeled time.
MACHINE = ["-M", "virt,mpam=on,timing=on,bwmon=on", "-cpu", "max"]
# (label, extra -M options, the monitors' layouts by QOM path, the windows to fuzz)
CONFIGS = (
    ("", "", {"/machine/memqos-bwmon-cpu": "v4-sdm845",
              "/machine/memqos-bwmon-llcc": "v5-llcc"},
     (("/machine/memqos-bwmon-cpu", "monitor"), ("/machine/memqos-bwmon-llcc", "monitor"),
      ("/machine/memqos-osm-l3-cpu", "osm"))),
    ("msm8998 ", ",bwmon-cpu=msm8998", {"/machine/memqos-bwmon-cpu": "v4-msm8998",
                                        "/machine/memqos-bwmon-llcc": "v5-llcc"},
     (("/machine/memqos-bwmon-cpu", "monitor"), ("/machine/memqos-bwmon-cpu", "global"))),
)
PROVIDERS = ("/machine/memqos-osm-l3-cpu", "/machine/memqos-osm-l3-mem")
CHECKS_PER_WINDOW = 4

# The register maps (guest-requirements.md §5.2, from icc-bwmon.c): the
# monitor's registers, in order, with their access and bits ("irq" and
# "window": the layout's IRQ field and SAMPLE_WINDOW width) ...
MONITOR_REGS = (("IRQ_STATUS", "RO", "irq"), ("IRQ_CLEAR", "WO", "irq"),
                ("IRQ_ENABLE", "RW", "irq"), ("ENABLE", "RW", 0xFFFFFFFF), ("CLEAR", "WO", 0x3),
                ("SAMPLE_WINDOW", "RW", "window"), ("THRESHOLD_HIGH", "RW", 0xFFF),
                ("THRESHOLD_MED", "RW", 0xFFF), ("THRESHOLD_LOW", "RW", 0xFFF),
                ("ZONE_ACTIONS", "RW", 0xFFFFFFFF), ("THRESHOLD_COUNT", "RW", 0xFFFFFFFF),
                *((f"ZONE{z}_MAX", "RO", 0xFFF) for z in range(4)))
GLOBAL_REGS = (("GLOBAL_IRQ_CLEAR", "WO", 0x1), ("GLOBAL_IRQ_ENABLE", "RW", 0x1))


def regs(table, offsets, irq=0, window=0):
    """... and a layout's offsets: name -> (offset, access, bits)."""
    return {n: (off, acc, {"irq": irq, "window": window}.get(bits, bits))
            for (n, acc, bits), off in zip(table, offsets)}


V4_OFFSETS = (0x100, 0x108, 0x10C, 0x2A0, 0x2A4, 0x2A8, 0x2AC, 0x2B0, 0x2B4, 0x2B8, 0x2BC,
              0x2E0, 0x2E4, 0x2E8, 0x2EC)
V4_MONITOR = regs(MONITOR_REGS, V4_OFFSETS, irq=0xF0, window=0xFFFFFF)
LAYOUTS = {
    "v4-sdm845": {"monitor": {**regs(GLOBAL_REGS, (0x008, 0x00C)), **V4_MONITOR}},
    "v4-msm8998": {"monitor": V4_MONITOR, "global": regs(GLOBAL_REGS, (0x108, 0x10C))},
    "v5-llcc": {"monitor": regs(MONITOR_REGS, (0x000, 0x008, 0x00C, 0x010, 0x014, 0x020, 0x024,
                                               0x028, 0x02C, 0x030, 0x034, 0x044, 0x048, 0x04C,
                                               0x050), irq=0xF, window=0xFFFFF)},
}
# OSM L3 (guest-requirements.md §5.6, osm-l3.c): REG_ENABLE, the LUT, PERF_STATE.
OSM_ENABLE, OSM_LUT, OSM_ROW, OSM_ROWS, OSM_PERF_STATE = 0x000, 0x110, 32, 40, 0x920
OSM_BUSWIDTH = 16
# query-memqos-bwmon's fields that mirror a register: (field, register).
MIRRORS = (("sample-window", "SAMPLE_WINDOW"), ("threshold-high", "THRESHOLD_HIGH"),
           ("threshold-med", "THRESHOLD_MED"), ("threshold-low", "THRESHOLD_LOW"),
           ("zone-actions", "ZONE_ACTIONS"), ("irq-status", "IRQ_STATUS"),
           ("irq-enable", "IRQ_ENABLE"), ("global-irq-enable", "GLOBAL_IRQ_ENABLE"))


def query(m):
    """{QOM path: entry} of every monitor and provider."""
    info = m.execute("query-memqos-bwmon")
    return {e["path"]: e for e in info["monitors"] + info["providers"]}


def regions(m):
    """{(QOM path, region): (base, size)} from `info mtree -o`."""
    out = m.execute("human-monitor-command", **{"command-line": "info mtree -o"})
    found = {}
    for ln in out.splitlines():
        r = re.match(r"\s*([0-9a-f]+)-([0-9a-f]+) \(prio -?\d+, i/o\): "
                     r"(memqos-bwmon-\S+-(monitor|global)|memqos-osm-l3) .*path=([^}]+)\}", ln)
        if r:
            lo, hi = int(r[1], 16), int(r[2], 16)
            found[(r[5], r[4] or "osm")] = (lo, hi - lo + 1)
    return found


def reg_value(rng, name, mask):
    """Mostly a value that makes something happen soon, sometimes any."""
    if rng.random() < 0.3:
        return rng.getrandbits(32)
    if name == "SAMPLE_WINDOW":
        return rng.choice((0, rng.randint(1, 4000), rng.randint(1, mask)))
    if name.startswith("THRESHOLD_") and name != "THRESHOLD_COUNT":
        return rng.randint(0, 16)
    if name == "THRESHOLD_COUNT":
        return int.from_bytes(bytes(rng.randint(0, 4) for _ in range(4)), "little")
    if name == "ZONE_ACTIONS":
        return rng.choice((0x95250901, rng.getrandbits(32)))
    if name in ("ENABLE", "GLOBAL_IRQ_ENABLE"):
        return rng.choice((1, 1, 0))
    return rng.getrandbits(32) & mask


class MonitorWindow:
    """The fuzzed region of a monitor (`home`): its accesses, and the shadow
    of the RW registers of all its regions.  One access in ten goes to
    another region of the device (msm8998's global region alone has no
    SAMPLE_WINDOW to make windows close)."""

    def __init__(self, io, wins, path, layout, home):
        self.io, self.home = io, home
        self.regions = {r: (*wins[(path, r)], regs) for r, regs in LAYOUTS[layout].items()}
        self.rw = {(r, n): 0 for r, regs in LAYOUTS[layout].items()     # reset: 0
                   for n, (_, acc, _) in regs.items() if acc == "RW"}
        self.by_off = {(r, off): n for r, regs in LAYOUTS[layout].items()
                       for n, (off, _, _) in regs.items()}
        self.to_regs = 0
        self.read_names = []        # the register each read of the run read, or None

    def access(self, region, size, off, value=None):
        base, _, regs = self.regions[region]
        self.io.access(size, base + off, value)
        name = self.by_off.get((region, off)) if size == 4 else None
        self.to_regs += name is not None and region == self.home
        if (region, name) in self.rw and value is not None:
            self.rw[(region, name)] = value & regs[name][2]
        if value is None:
            self.read_names.append(name)

    def random_access(self, rng):
        region = self.home if rng.random() < 0.9 else rng.choice(sorted(self.regions))
        _, size, regs = self.regions[region]
        if rng.random() < 0.7:
            name = rng.choice(sorted(regs))
            off, acc, mask = regs[name]
            write = acc != "RO" and rng.random() < 0.7
            self.access(region, 4, off, reg_value(rng, name, mask) if write else None)
        else:
            self.access(region, *random_access(rng, size))

    def read_rw(self):
        """{register: value} of the RW registers, through MMIO."""
        keys = sorted(self.rw)
        for r, n in keys:
            self.access(r, 4, self.regions[r][2][n][0])
        return {n: v for (_, n), v in zip(keys, self.io.flush())}


class OsmWindow:
    """An OSM L3 provider's window: PERF_STATE's shadow (a vote past the
    table selects the top row), REG_ENABLE and the LUT are read-only."""

    def __init__(self, io, base, size, rows):
        self.io, self.base, self.size, self.rows = io, base, size, rows
        self.perf_state = 0
        self.to_regs = 0
        self.offsets = [OSM_ENABLE, OSM_PERF_STATE] + \
            [OSM_LUT + OSM_ROW * i + 4 * w for i in range(OSM_ROWS) for w in range(OSM_ROW // 4)]
        self.is_reg = set(self.offsets)

    def access(self, size, off, value=None):
        self.io.access(size, self.base + off, value)
        self.to_regs += size == 4 and off in self.is_reg
        if size == 4 and off == OSM_PERF_STATE and value is not None:
            self.perf_state = min(value, self.rows - 1)

    def random_access(self, rng):
        if rng.random() < 0.6:
            off = rng.choice((OSM_PERF_STATE, OSM_PERF_STATE, rng.choice(self.offsets)))
            value = rng.choice((rng.randrange(self.rows + 4), rng.getrandbits(32)))
            self.access(4, off, value if rng.random() < 0.7 else None)
        else:
            self.access(*random_access(rng, self.size))

    def read(self):
        """REG_ENABLE, PERF_STATE and the LUT's first words, through MMIO."""
        for off in (OSM_ENABLE, OSM_PERF_STATE):
            self.access(4, off)
        for i in range(OSM_ROWS):
            self.access(4, OSM_LUT + OSM_ROW * i)
        v = self.io.flush()
        return v[0], v[1], v[2:]


def lut_hz(word, xo, alt):
    """osm-l3.c: LUT_SRC ? xo x LUT_L_VAL : alternate / 2."""
    return xo * (word & 0xFF) if word >> 30 else alt // 2


def fuzz_window(tap, m, rng, args, path, region, win, start, title):
    io = Accesses(m)
    if region == "osm":
        w = OsmWindow(io, *win, start[path]["rows"])
        _, _, lut_before = w.read()
    else:
        w = MonitorWindow(io, regions(m), path, start[path]["layout"], region)
    steps = 0
    t0 = time.monotonic()
    for _ in range(args.accesses):
        if rng.random() < 0.05:
            io.command(f"clock_step {int(10 ** rng.uniform(1, 7.5))}")
            steps += 1
        w.random_access(rng)
    values = io.flush()
    secs = time.monotonic() - t0
    now = query(m)
    e = now[path]
    what = f"{args.accesses} accesses, {w.to_regs} to registers, {steps} clock steps, {secs:.1f} s"
    if region == "osm":
        tap.check(w.to_regs * 3 > args.accesses, f"{title}: the accesses reached the registers", what)
        enable, perf, lut = w.read()
        bad = [f"REG_ENABLE {enable}, expected 1"] * (enable != 1) + \
            [f"PERF_STATE {perf}, last valid vote gives {w.perf_state}"] * (perf != w.perf_state) + \
            [f"LUT row {i}: 0x{a:x}, was 0x{b:x}" for i, (a, b) in enumerate(zip(lut, lut_before))
             if a != b]
        tap.check(not bad, f"{title}: PERF_STATE reads back as last voted (a vote past "
                  "the table: the top row); REG_ENABLE and the LUT never change",
                  f"PERF_STATE {perf} of {e['rows']} rows", bad)
        xo, alt = (m.execute("qom-get", path=path, property=p) for p in ("xo-hz", "alt-hz"))
        hz = lut_hz(lut[perf], xo, alt)
        want = {"perf-state": perf, "row": perf, "pinned": False, "vote-hz": hz, "freq-hz": hz,
                "vote-kbps": hz * OSM_BUSWIDTH // 1000}
        bad = [f"{k}: {e[k]}, expected {v}" for k, v in want.items() if e[k] != v]
        tap.check(not bad, f"{title}: query-memqos-bwmon agrees with MMIO and the LUT",
                  f"{hz} Hz", bad)
    else:
        windows = e["windows"]
        # counters reached their counts: IRQ_STATUS read non-zero
        fired = sum(1 for n, v in zip(w.read_names, values) if n == "IRQ_STATUS" and v)
        tap.check(w.to_regs * 2 > args.accesses and windows > 0 and fired > 0,
                  f"{title}: the accesses reached the registers, windows closed and "
                  "interrupts were raised", f"{what}; {windows} windows closed, IRQ_STATUS "
                  f"read non-zero {fired} times")
        got = w.read_rw()
        want = {n: v for (_, n), v in w.rw.items()}
        bad = [f"{n}: 0x{v:x}, last valid write 0x{want[n]:x}" for n, v in got.items()
               if v != want[n]]
        tap.check(not bad, f"{title}: RW registers read back as last validly written",
                  ", ".join(f"{n} 0x{v:x}" for n, v in got.items()), bad)
        tap.check(*agree(m, io, e, title))
    others = {k: v for k, v in now.items() if k != path}
    changed = [k for k, v in others.items() if v != start[k]]
    tap.check(not changed, f"{title}: the other devices are untouched", diag=changed)


def agree(m, io, e, title):
    """query-memqos-bwmon against the registers (read through MMIO) of every
    region of the monitor, and the line against the registers."""
    layout = LAYOUTS[e["layout"]]
    wins = regions(m)
    mmio = {}
    for region, regs in layout.items():
        rbase = wins[(e["path"], region)][0]
        for name, (off, acc, _) in regs.items():
            if acc != "WO":
                io.access(4, rbase + off)
                mmio[name] = None
    mmio = dict(zip(mmio, io.flush()))
    e = query(m)[e["path"]]         # after the reads: nothing moved
    bad = [f"{f}: {e[f]}, MMIO {r} 0x{mmio[r]:x}" for f, r in MIRRORS
           if r in mmio and e[f] != mmio[r]]
    zmax = [mmio[f"ZONE{z}_MAX"] for z in range(4)]
    bad += [f"zone {z['zone']} max {z['max']}, MMIO 0x{zmax[z['zone']]:x}"
            for z in e["zones"] if z["max"] != zmax[z["zone"]]]
    bad += [f"zone {z['zone']} threshold-count {z['threshold-count']}, THRESHOLD_COUNT "
            f"0x{mmio['THRESHOLD_COUNT']:x}" for z in e["zones"]
            if z["threshold-count"] != (mmio["THRESHOLD_COUNT"] >> 8 * z["zone"]) & 0xFF]
    status_mask = layout["monitor"]["IRQ_STATUS"][2]
    if e["irq-status"] & ~status_mask:
        bad.append(f"IRQ_STATUS 0x{e['irq-status']:x} has bits outside 0x{status_mask:x}")
    local = bool(e["irq-status"] & e["irq-enable"])
    if "global-irq-enable" in e:
        if local and not e["global-irq-status"]:
            bad.append("the monitor asserts but the global latch is clear")
        line = e["global-irq-status"] and bool(e["global-irq-enable"] & 1)
    else:
        line = local
    if e["irq"] != line:
        bad.append(f"line {e['irq']}, the registers give {line}: {e}")
    return (not bad, f"{title}: query-memqos-bwmon agrees with MMIO; the line follows "
            "IRQ_STATUS & IRQ_ENABLE" + " and the global latch" * ("global-irq-enable" in e),
            f"irq-status 0x{e['irq-status']:x} irq-enable 0x{e['irq-enable']:x} line {e['irq']}",
            bad)


def run_config(tap, args, rng, label, opts, layouts, windows):
    machine = MACHINE[:1] + [MACHINE[1] + opts] + MACHINE[2:]
    m = Machine(args.qemu, machine, timeout=args.timeout, stall=args.stall)
    print(f"# QEMU pid {m.pid}: {' '.join(machine)}", flush=True)
    try:
        reset_state = query(m)
        wins = regions(m)
        got = {p: e.get("layout", "osm-l3") for p, e in reset_state.items()}
        want = {**layouts, **{p: "osm-l3" for p in PROVIDERS}}
        need = {(p, r) for p, lay in layouts.items() for r in LAYOUTS[lay]} | \
            {(p, "osm") for p in PROVIDERS}
        tap.check(got == want and need <= set(wins), f"{label}query-memqos-bwmon lists the "
                  "platform's monitors and providers, info mtree their regions",
                  ", ".join(f"{p} {lay}" for p, lay in got.items()),
                  [f"expected {want}", f"regions {sorted(wins)}, expected {sorted(need)}"])
        for path, region in windows:
            m.execute("system_reset")
            title = f"{label}{path.rsplit('/', 1)[1]} {region}"
            fuzz_window(tap, m, rng, args, path, region, wins.get((path, region)), query(m),
                        title)
        m.execute("system_reset")
        after = query(m)
        tap.check(after == reset_state, f"{label}system_reset restores every monitor's and "
                  "provider's reset state", diag=[k for k in after if after[k] != reset_state[k]])
        check_exit(tap, m, label)
    finally:
        m.cleanup()


def main():
    args = fuzz_parser(__doc__, "window").parse_args()
    rng = random.Random(args.seed)
    tap = Checks(sum(1 + CHECKS_PER_WINDOW * len(c[3]) + 2 for c in CONFIGS))
    print(f"# seed {args.seed} (rerun with --seed {args.seed}), {args.accesses} accesses "
          f"per window, timeout {args.timeout} s, stall {args.stall} s", flush=True)
    return run_checks(tap, lambda: [run_config(tap, args, rng, *c) for c in CONFIGS])


if __name__ == "__main__":
    sys.exit(main())

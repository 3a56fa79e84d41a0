#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Fuzz every MPAM MSC window of `-M virt,mpam=on`, then check invariants.

QEMU runs under the qtest accelerator (no guest code): this script is the
only bus master.  For each MSC window it makes N accesses: most select an
in-range PARTID/monitor (MPAMCFG_PART_SEL, MSMON_CFG_MON_SEL) and then read
or write a register of the model's register table (query-mpam 'registers'),
so that they reach the configuration and monitor paths; the rest are random
(any size, offset, alignment and value, out-of-range selectors included).
The script keeps a shadow of what the architecture says each valid write
leaves in the MSC and, afterwards, checks one invariant per TAP line:
controls and monitors read back (MMIO and query-mpam) as last written
through a valid path, MPAMF_ESR records the last error (probed during the
run), other MSCs are untouched, reset restores the reset state, and QEMU
exits cleanly.  Meant for the ASan + UBSan build (QEMU_VARIANT=asan
qemu/build.sh) with leak detection on: a sanitizer report fails the run.

Every reply from QEMU has a deadline (--stall) and the whole run a budget
(--timeout): a hung QEMU is killed and reported as a failure.

Usage: msc_fuzz.py QEMU [--accesses N] [--seed S] [--timeout T] [--stall S]
"""
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import (Accesses, Checks, Machine, check_exit, fuzz_parser,  # noqa: E402
                     random_access, run_checks)
import mpam_msc as spec  # noqa: E402

MACHINE = ["-M", "virt,mpam=on", "-cpu", "max"]
MSCS = ("l3", "mem")        # the MSCs -M virt,mpam=on defines (docs/platform.md)
CHECKS_PER_MSC = 11
PROBE_EVERY = 2000          # accesses between two ESR probes


class Fuzz:
    """One MSC window: the access stream, and the shadow of the state that
    valid accesses leave, as the architecture defines it."""

    def __init__(self, machine, msc, rng):
        self.m, self.msc, self.rng = machine, msc, rng
        self.ris = msc.ris
        self.nr_ris = len(msc.ris)
        self.io = Accesses(machine)
        self.valid = 0              # accesses that reached a control or a monitor
        self.part_sel = self.mon_sel = 0
        self.words = {}             # offset of a 32-bit word -> what it is
        for name, (off, size) in msc.rows.items():
            for w in range(max(1, size // 4)):
                self.words[off + 4 * w] = self.decode(name, w)
        self.ctrl = {}              # (ris, partid, control) -> [word, ...] or None
        self.mon = {}               # (ris, CSU|MBWU, index) -> {"ctl", "flt", "value"}

    @staticmethod
    def decode(name, word):
        if name == "MPAMCFG_PART_SEL":
            return ("part_sel",)
        if name == "MSMON_CFG_MON_SEL":
            return ("mon_sel",)
        if spec.is_control(name):
            return ("ctrl", name, word)
        if name == "MSMON_CAPT_EVNT":
            return ("capt",)
        m = re.fullmatch(r"MSMON_CFG_(CSU|MBWU)_(CTL|FLT)", name)
        if m:
            return (m[2].lower(), m[1])
        if name in ("MSMON_CSU", "MSMON_MBWU"):
            return ("value", name[6:], 0)
        if name == "MSMON_MBWU_L":
            return ("value", "MBWU", 1 + word)
        return ("other",)

    # ---- the access path: every access goes through here -------------------
    def access(self, size, off, value=None):
        """Queue one access (value None: a read) and apply it to the shadow."""
        self.io.access(size, self.msc.base + off, value)
        # The model's MMIO contract (msc.h): 32/64-bit, naturally aligned,
        # inside the window; a 64-bit access is two 32-bit ones, low first.
        if size in (4, 8) and off % size == 0 and off + size <= self.msc.size:
            self.valid += any(self.reaches(off + 4 * w) for w in range(size // 4))
            for w in range(size // 4):
                if value is not None:
                    self.write32(off + 4 * w, (value >> (32 * w)) & 0xFFFFFFFF)

    def flush(self):
        """Run the queued accesses; the values read since the last flush."""
        return self.io.flush()

    def read_now(self, size, off):
        self.access(size, off)
        return self.flush()[-1]

    def sel_part(self):
        v = self.part_sel
        ris = (v >> 24) & 0xF if self.ris[0].has_ris else 0
        if v & (1 << 16) or ris >= self.nr_ris or (v & 0xFFFF) > self.ris[ris].partid_max:
            return None         # INTERNAL (no PARTID narrowing here) or out of range
        return ris, v & 0xFFFF

    def sel_mon(self, kind):
        v = self.mon_sel
        ris = (v >> 24) & 0xF if self.ris[0].has_ris else 0
        if ris >= self.nr_ris or (v & 0xFFFF) >= self.ris[ris].num_mon[kind]:
            return None
        return ris, kind, v & 0xFFFF

    def reachable(self, name, part_ris, mon_ris):
        """Is row `name` a control that RIS part_ris implements, or a monitor
        register that RIS mon_ris implements?"""
        what = self.decode(name, 0)
        if what[0] == "ctrl":
            return spec.control_implemented(self.ris[part_ris], name) is not False
        r = self.ris[mon_ris]
        if what[0] == "value" and what[2]:
            return r.mbwu_width > 31 and r.num_mon["MBWU"] > 0
        if what[0] in ("ctl", "flt", "value"):
            return r.num_mon[what[1]] > 0
        return what[0] == "capt"

    def selected_ris(self, sel):
        ris = (sel >> 24) & 0xF if self.ris[0].has_ris else 0
        return ris if ris < self.nr_ris else 0

    def reaches(self, off):
        """Does a 32-bit access to off reach a control or a monitor now?"""
        what = self.words.get(off, ("other",))
        if what[0] == "ctrl":
            sel = self.sel_part()
            return bool(sel and spec.control_implemented(self.ris[sel[0]], what[1]))
        return what[0] in ("ctl", "flt", "value") and self.sel_mon(what[1]) is not None

    def write32(self, off, v):
        what = self.words.get(off, ("other",))
        kind = what[0]
        if kind == "part_sel":
            self.part_sel = v
        elif kind == "mon_sel":
            self.mon_sel = v
        elif kind == "ctrl":
            sel = self.sel_part()
            name, word = what[1], what[2]
            if not sel or not spec.control_implemented(self.ris[sel[0]], name):
                return
            key = (sel[0], sel[1], name)
            mask = spec.control_mask(self.ris[sel[0]], name, word)
            if mask is None or self.ctrl.get(key) is None:
                self.ctrl[key] = None
                return
            old = self.ctrl[key][word]
            # Writable bits take the value; the others keep theirs (RES0
            # bits stay 0, a read-only control keeps its reset value).
            self.ctrl[key][word] = (old & ~mask) | (v & mask)
        elif kind in ("ctl", "flt", "value"):
            sel = self.sel_mon(what[1])
            if not sel:
                return
            mon, r = self.mon[sel], self.ris[sel[0]]
            if kind == "ctl":
                mon["ctl"] = v
            elif kind == "flt":
                # Out-of-range filter IDs are an error (MSMONCFG_ID_RANGE)
                # whose effect on the filter the tests do not predict.
                ok = (v & 0xFFFF) <= r.partid_max and (v >> 16 & 0xFF) <= r.pmg_max
                mon["flt"] = v if ok and not r.has_partid_nrw else None
            else:
                self.write_value(mon, r, what[1], what[2], v)
        elif kind == "capt" and v & 1:
            # MSMON_CAPT_EVNT.NOW: monitors whose CTL.CAPT_EVNT selects it
            # capture; with CTL.CAPT_RESET an MBWU counter restarts at 0.
            for (ris, mk, _), mon in self.mon.items():
                ctl = mon["ctl"]
                if (mk == "MBWU" and self.ris[ris].has_capture[mk] and
                        (ctl >> 28) & 7 == spec.CAPT_EVNT_NOW and ctl & spec.CTL_CAPT_RESET):
                    mon["value"] = 0

    @staticmethod
    def write_value(mon, r, mk, which, v):
        """MSMON_CSU / MSMON_MBWU (which 0), MSMON_MBWU_L low/high (1/2)."""
        width = r.mbwu_width if mk == "MBWU" else 31
        if which == 0:
            mon["value"] = v & 0x7FFFFFFF
        elif width > 31 and mon["value"] is not None:
            old = mon["value"]
            new = (old & ~0xFFFFFFFF) | v if which == 1 else (old & 0xFFFFFFFF) | v << 32
            mon["value"] = new & ((1 << width) - 1)

    # ---- the generator -----------------------------------------------------
    def random_access(self):
        rng, r0 = self.rng, self.ris
        x = rng.random()
        if x < 0.05:
            ris = rng.randrange(self.nr_ris)
            v = (self.msc.part_sel(ris, rng.randint(0, r0[ris].partid_max))
                 if rng.random() < 0.9 else rng.getrandbits(32))
            self.access(4, self.msc.rows["MPAMCFG_PART_SEL"][0], v)
        elif x < 0.10:
            ris = rng.randrange(self.nr_ris)
            nums = [n for n in r0[ris].num_mon.values() if n] or [1]
            # Mostly an index that selects a monitor of every type.
            n = min(nums) if rng.random() < 0.75 else rng.choice(nums)
            v = (self.msc.mon_sel(ris, rng.randrange(n))
                 if rng.random() < 0.9 else rng.getrandbits(32))
            self.access(4, self.msc.rows["MSMON_CFG_MON_SEL"][0], v)
        elif x < 0.88:
            # Mostly what the RIS the selectors name implements, sometimes any row.
            targets = self.targets[self.selected_ris(self.part_sel),
                                   self.selected_ris(self.mon_sel)]
            name = rng.choice(targets if rng.random() < 0.9 else self.names)
            off, size = self.msc.rows[name]
            if size == 8 and rng.random() < 0.5:
                n = 8
            else:
                n, off = 4, off + 4 * rng.randrange(max(1, size // 4))
            self.access(n, off, self.value(name, n) if rng.random() < 0.7 else None)
        else:
            self.access(*random_access(rng, self.msc.size, area=0x4000))

    def value(self, name, size):
        """Random, except that filters mostly get in-range PARTID and PMG."""
        v = self.rng.getrandbits(8 * size)
        if name.endswith("_FLT") and self.rng.random() < 0.8:
            sel = self.sel_mon("CSU" if "CSU" in name else "MBWU")
            r = self.ris[sel[0] if sel else 0]
            v = (v & ~0xFFFFFF) | self.rng.randint(0, r.pmg_max) << 16 | \
                self.rng.randint(0, r.partid_max)
        return v

    # ---- state snapshots through MMIO ---------------------------------------
    def select_part(self, ris, partid):
        self.access(4, self.msc.rows["MPAMCFG_PART_SEL"][0], self.msc.part_sel(ris, partid))

    def select_mon(self, ris, mon):
        self.access(4, self.msc.rows["MSMON_CFG_MON_SEL"][0], self.msc.mon_sel(ris, mon))

    def read_controls(self):
        """{(ris, partid, control): [words]} for every known control, via MMIO."""
        keys = []
        for r in self.ris:
            names = [n for n in self.msc.controls(r.ris) if spec.control_mask(r, n, 0) is not None]
            for p in range(r.partid_max + 1):
                self.select_part(r.ris, p)
                for name in names:
                    off = self.msc.rows[name][0]
                    for w in range(self.msc.control_words(name)):
                        self.access(4, off + 4 * w)
                    keys.append(((r.ris, p, name), self.msc.control_words(name)))
        vals, out = self.flush(), {}
        for key, n in keys:
            out[key], vals = vals[:n], vals[n:]
        return out

    def read_monitors(self):
        """{(ris, kind, index): (ctl, flt, value, long value or None)} via MMIO."""
        keys = []
        for r in self.ris:
            for kind, n in r.num_mon.items():
                for i in range(n):
                    self.select_mon(r.ris, i)
                    for reg in (f"MSMON_CFG_{kind}_CTL", f"MSMON_CFG_{kind}_FLT", f"MSMON_{kind}"):
                        self.access(4, self.msc.rows[reg][0])
                    long = kind == "MBWU" and r.mbwu_width > 31
                    if long:
                        self.access(8, self.msc.rows["MSMON_MBWU_L"][0])
                    keys.append(((r.ris, kind, i), 3 + long))
        vals, out = self.flush(), {}
        for key, n in keys:
            v, vals = vals[:n], vals[n:]
            out[key] = (v[0], v[1], v[2], v[3] if n == 4 else None)
        return out

    def start(self):
        """Shadow = the reset state, as read back before fuzzing."""
        self.ctrl = {k: list(v) for k, v in self.read_controls().items()}
        for key, (ctl, flt, val, lval) in self.read_monitors().items():
            self.mon[key] = {"ctl": ctl, "flt": flt,
                             "value": lval if lval is not None else val & 0x7FFFFFFF}
        self.names = sorted(self.msc.rows)
        self.targets = {(p, q): [n for n in self.names if self.reachable(n, p, q)]
                        for p in range(self.nr_ris) for q in range(self.nr_ris)}

    # ---- MPAMF_ESR probes -------------------------------------------------------
    def probe_esr(self, stats):
        """Make one error of a kind chosen at random and check that ESR
        records it (ERRCODE, PARTID_MON, RIS, OVRWR if one was pending), or
        clear ESR and check that valid accesses record none."""
        if not self.ris[0].has_esr:
            return
        esr_off = self.msc.rows["MPAMF_ESR"][0]
        ris = self.rng.randrange(self.nr_ris)
        r = self.ris[ris]
        kinds = ["partid", "none"] if self.msc.controls(ris) else []
        kind = self.rng.choice(kinds + ["monitor"] * any(r.num_mon.values()) or [None])
        if kind is None:
            return
        before = self.read_now(8, esr_off)
        if kind == "partid":
            names = self.msc.controls(ris)
            partid = self.rng.randint(r.partid_max + 1, 0xFFFF)
            self.access(4, self.msc.rows["MPAMCFG_PART_SEL"][0], self.msc.part_sel(ris, partid))
            self.access(4, self.msc.rows[self.rng.choice(names)][0])
            want = (spec.PARTID_SEL_RANGE, partid)
        elif kind == "monitor":
            mk = self.rng.choice([k for k, n in r.num_mon.items() if n] or ["CSU"])
            mon = self.rng.randint(r.num_mon[mk], 0xFFFF)
            self.access(4, self.msc.rows["MSMON_CFG_MON_SEL"][0], self.msc.mon_sel(ris, mon))
            self.access(4, self.msc.rows[f"MSMON_CFG_{mk}_CTL"][0])
            want = (spec.MONITOR_RANGE, mon)
        else:
            self.access(8, esr_off, 0)
            before = 0
            self.select_part(ris, self.rng.randint(0, r.partid_max))
            self.access(4, self.msc.rows[self.rng.choice(self.msc.controls(ris))][0])
            want = None
        esr = self.read_now(8, esr_off)
        if want is None:
            expect = 0
        else:
            expect = want[1] | want[0] << 24 | (1 << 31 if spec.field(before, 24, 4) else 0)
            if r.has_extd_esr:
                expect |= ris << 32
        st = stats.setdefault(kind, [0, []])
        st[0] += 1
        if esr != expect:
            st[1].append(f"ESR 0x{esr:x}, expected 0x{expect:x} (before: 0x{before:x})")


def query(m):
    return {x["name"]: x for x in m.execute("query-mpam", all=True)["msc"]}


def check_window(tap, m, msc, fz, accesses, before_all, title):
    name = msc.name
    stats = {}
    fz.start()
    for i in range(accesses):
        fz.random_access()
        if i % PROBE_EVERY == PROBE_EVERY - 1:
            fz.flush()
            fz.probe_esr(stats)
    fz.flush()
    tap.check(fz.valid * 2 > accesses, f"{title}: most accesses reached a control or a monitor",
              f"{fz.valid} of {accesses}")

    # Controls through MMIO and through query-mpam.
    now = fz.read_controls()
    bad = [f"RIS {k[0]} PARTID {k[1]} {k[2]}: reads {v}, last written {fz.ctrl[k]}"
           for k, v in now.items() if fz.ctrl.get(k) is not None and v != fz.ctrl[k]]
    known = sum(1 for k in now if fz.ctrl.get(k) is not None)
    tap.check(not bad and known, f"{title}: per-PARTID controls read back (MMIO) "
              "as last written through a valid path", f"{known} controls predicted", bad)
    info = query(m)[name]
    bad = []
    for r, ri in zip(fz.ris, info["ris"]):
        want_names = set(fz.msc.controls(r.ris))
        for p in ri["partids"]:
            got = spec.partid_controls(p)
            if set(got) != want_names:
                bad.append(f"PARTID {p['partid']}: lists {sorted(got)}, ID registers "
                           f"say {sorted(want_names)}")
            for cname, v in got.items():
                shadow = fz.ctrl.get((r.ris, p["partid"], cname))
                if shadow is not None and v != spec.bitmap_value(shadow):
                    bad.append(f"RIS {r.ris} PARTID {p['partid']} {cname}: query-mpam "
                               f"0x{v:x}, last written 0x{spec.bitmap_value(shadow):x}")
    tap.check(not bad, f"{title}: query-mpam lists the implemented controls of every "
              "PARTID with their last validly written values", diag=bad)

    # Monitors.
    bad_cfg, bad_val = [], []
    for key, (ctl, flt, val, lval) in fz.read_monitors().items():
        sh, (ris, kind, i) = fz.mon[key], key
        where = f"RIS {ris} {kind} monitor {i}"
        keep = spec.CTL_EN | spec.CTL_MATCH
        if ctl & 0xFF != spec.CTL_TYPE[kind] or ctl & keep != sh["ctl"] & keep:
            bad_cfg.append(f"{where}: CTL 0x{ctl:x}, last written 0x{sh['ctl']:x}")
        if sh["flt"] is not None and flt & 0xFFFFFF != sh["flt"] & 0xFFFFFF:
            bad_cfg.append(f"{where}: FLT 0x{flt:x}, last written 0x{sh['flt']:x}")
        if sh["value"] is None or (kind == "CSU" and sh["ctl"] & spec.CTL_EN):
            continue            # an enabled CSU monitor reads live occupancy
        if val & 0x7FFFFFFF != sh["value"] & 0x7FFFFFFF or \
                (lval is not None and lval & ((1 << fz.ris[ris].mbwu_width) - 1) != sh["value"]):
            bad_val.append(f"{where}: MSMON_{kind} 0x{val:x}, MSMON_MBWU_L "
                           f"{'-' if lval is None else hex(lval)}, expected 0x{sh['value']:x}")
    tap.check(not bad_cfg, f"{title}: every monitor's CTL (TYPE, EN, MATCH_*) and FLT "
              "read back as last validly written", f"{len(fz.mon)} monitors", bad_cfg)
    tap.check(not bad_val, f"{title}: no monitor value changed except by a write or a "
              "capture with reset (none counts backwards)", diag=bad_val)
    bad = []
    qmon = {(r["ris"], mi["type"].upper(), mi["index"]): mi
            for r in info["ris"] for mi in r.get("monitors", [])}
    for (ris, kind, i), sh in fz.mon.items():
        mi = qmon.get((ris, kind, i))
        if mi is None:
            bad.append(f"RIS {ris} {kind} monitor {i} missing")
        elif sh["flt"] is not None and mi["flt"] & 0xFFFFFF != sh["flt"] & 0xFFFFFF or \
                mi["ctl"] & (spec.CTL_EN | spec.CTL_MATCH) != sh["ctl"] & (spec.CTL_EN | spec.CTL_MATCH):
            bad.append(f"RIS {ris} {kind} monitor {i}: query-mpam CTL 0x{mi['ctl']:x} FLT "
                       f"0x{mi['flt']:x}, last written CTL 0x{sh['ctl']:x} FLT {sh['flt']}")
    tap.check(not bad, f"{title}: query-mpam lists every monitor with its CTL/FLT", diag=bad)

    # MPAMF_ESR.
    for kind, what in (("partid", "PARTID_SEL_Range with its PARTID, RIS and OVRWR"),
                       ("monitor", "Monitor_Range with its monitor, RIS and OVRWR"),
                       ("none", "no error for valid accesses after a clear")):
        n, bad = stats.get(kind, (0, []))
        if fz.ris[0].has_esr:
            tap.check(n and not bad, f"{title}: MPAMF_ESR records {what}", f"{n} probes", bad)
        else:
            tap.skip(f"{title}: MPAMF_ESR records {what}", "the MSC has no MPAMF_ESR")
    esr = fz.read_now(8, msc.rows["MPAMF_ESR"][0])
    info = query(m)[name]
    tap.check(info["esr"] == esr and info["errcode"] == spec.field(esr, 24, 4),
              f"{title}: query-mpam reports MPAMF_ESR as MMIO reads it",
              f"MMIO 0x{esr:x}, query-mpam esr 0x{info['esr']:x} errcode {info['errcode']}")
    others = {k: v for k, v in query(m).items() if k != name}
    changed = [k for k, v in others.items() if v != before_all[k]]
    tap.check(not changed, f"{title}: the other MSCs are untouched", diag=changed)


def main():
    ap = fuzz_parser(__doc__, "MSC window")
    ap.add_argument("--nr-ris", default="1,2",
                    help="RIS per MSC, one run each (-global memqos-mpam-msc.nr-ris=N; "
                         "default 1,2)")
    args = ap.parse_args()
    args.nr_ris = [int(n) for n in args.nr_ris.split(",")]
    rng = random.Random(args.seed)
    tap = Checks(len(args.nr_ris) * (1 + CHECKS_PER_MSC * len(MSCS) + 2))
    print(f"# seed {args.seed} (rerun with --seed {args.seed}), {args.accesses} accesses "
          f"per MSC window, timeout {args.timeout} s, stall {args.stall} s", flush=True)
    return run_checks(tap, lambda: [fuzz(tap, args, rng, n) for n in args.nr_ris])


def fuzz(tap, args, rng, nr_ris):
    """One QEMU whose MSCs have nr_ris RIS each (1: the platform as Linux
    sees it; more: the model's RIS banking, for device tests only)."""
    extra = ["-global", f"memqos-mpam-msc.nr-ris={nr_ris}"] if nr_ris > 1 else []
    label = f"nr-ris={nr_ris} " if nr_ris > 1 else ""
    m = Machine(args.qemu, MACHINE + extra, timeout=args.timeout, stall=args.stall)
    print(f"# QEMU pid {m.pid}: {' '.join(MACHINE + extra)}", flush=True)
    try:
        reset_state = query(m)
        tap.check(tuple(reset_state) == MSCS, f"{label}query-mpam lists the MSCs of "
                  "-M virt,mpam=on", ", ".join(reset_state), [f"expected {', '.join(MSCS)}"])
        for name in MSCS:
            msc = spec.Msc(m, reset_state[name])
            m.execute("system_reset")
            check_window(tap, m, msc, Fuzz(m, msc, rng), args.accesses, query(m),
                         label + name)
        m.execute("system_reset")
        after = query(m)
        tap.check(after == reset_state, f"{label}system_reset restores every MSC's reset "
                  "state (query-mpam, ID registers and controls)",
                  diag=[k for k in after if after[k] != reset_state[k]])
        check_exit(tap, m, label)
    finally:
        m.cleanup()


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-2.0-or-later
"""What the device tests know about an MPAM MSC, from the architecture
(Arm IHI 0099, MPAM v1.1) and from the MSC itself:

- its register rows (name, offset, size) come from the model's register
  table through query-mpam 'registers';
- its configuration comes from its ID registers, read through MMIO as a
  driver would (Ris);
- which bits of each per-PARTID control are writable is the architecture's
  rule applied to those ID fields (CONTROLS).
"""
# Error codes of MPAMF_ESR.ERRCODE.
PARTID_SEL_RANGE = 1
MONITOR_RANGE = 5

# MSMON_CFG_x_CTL fields that every monitor implements, and TYPE.
CTL_EN = 1 << 31
CTL_MATCH = (1 << 16) | (1 << 17)           # MATCH_PARTID, MATCH_PMG
CTL_CAPT_RESET = 1 << 27
CTL_TYPE = {"CSU": 0x43, "MBWU": 0x42}
CAPT_EVNT_NOW = 7                           # CTL.CAPT_EVNT: MSMON_CAPT_EVNT.NOW


def field(v, shift, length):
    return (v >> shift) & ((1 << length) - 1)


def frac_mask(wd):
    """The top wd bits of a 16-bit fixed-point fraction (CMAX, MBW_MAX...)."""
    return (0xFFFF << (16 - wd)) & 0xFFFF if wd else 0


def low_mask(wd):
    return (1 << wd) - 1


def bitmap_word_mask(wd, word):
    """Implemented bits of 32-bit word `word` of a wd-bit bitmap."""
    return low_mask(max(0, min(32, wd - 32 * word)))


class Ris:
    """One RIS, as its ID registers describe it (names as the spec's fields)."""

    def __init__(self, ris, idr, cpor, ccap, mbw, pri, csumon, mbwumon):
        self.ris = ris
        self.partid_max = field(idr, 0, 16)
        self.pmg_max = field(idr, 16, 8)
        has_ccap, has_cpor = field(idr, 24, 1), field(idr, 25, 1)
        has_mbw, has_pri = field(idr, 26, 1), field(idr, 27, 1)
        self.has_partid_nrw = field(idr, 31, 1)
        self.has_ris = field(idr, 32, 1)
        self.has_extd_esr = field(idr, 38, 1)
        self.has_esr = field(idr, 39, 1)
        self.nr_ris = field(idr, 56, 4) + 1 if self.has_ris else 1
        self.cpbm_wd = field(cpor, 0, 16) if has_cpor else 0
        self.cmax_wd = field(ccap, 0, 6) if has_ccap else 0
        self.cassoc_wd = field(ccap, 8, 5) if has_ccap else 0
        self.has_cassoc = has_ccap and field(ccap, 28, 1)
        self.has_cmin = has_ccap and field(ccap, 29, 1)
        self.has_cmax = has_ccap and self.cmax_wd and not field(ccap, 30, 1)
        self.has_cmax_softlim = has_ccap and field(ccap, 31, 1)
        self.bwa_wd = field(mbw, 0, 6) if has_mbw else 0
        self.has_mbw = has_mbw
        self.mbw_has = {k: has_mbw and field(mbw, s, 1)
                        for k, s in (("MIN", 10), ("MAX", 11), ("PBM", 12), ("PROP", 13))}
        self.windwr = has_mbw and field(mbw, 14, 1)
        self.bwpbm_wd = field(mbw, 16, 13) if has_mbw else 0
        self.has_pri = has_pri
        self.intpri_wd = field(pri, 4, 6) if has_pri and field(pri, 0, 1) else 0
        self.dspri_wd = field(pri, 20, 6) if has_pri and field(pri, 16, 1) else 0
        self.num_mon = {"CSU": field(csumon, 0, 16), "MBWU": field(mbwumon, 0, 16)}
        self.has_capture = {"CSU": field(csumon, 31, 1), "MBWU": field(mbwumon, 31, 1)}
        # MSMON_MBWU_L: 63 bits with LWD, else 44 with HAS_LONG; else only 31.
        self.mbwu_width = 63 if field(mbwumon, 29, 1) else 44 if field(mbwumon, 30, 1) else 31


# Per-PARTID controls: is it implemented on a RIS, and which bits of its
# 32-bit word `w` are writable (the rest are RES0 and read as 0).  None as
# the mask: the control's semantics are not modelled here (MPAMCFG_INTPARTID
# remaps other controls), so the fuzzer does not predict it.  MBW_WINWD
# without MPAMF_MBW_IDR.WINDWR is read-only: mask 0 with read_only.
CONTROLS = {
    "MPAMCFG_CPBM": (lambda r: r.cpbm_wd > 0, lambda r, w: bitmap_word_mask(r.cpbm_wd, w)),
    "MPAMCFG_CMAX": (lambda r: r.has_cmax,
                     lambda r, w: frac_mask(r.cmax_wd) | (r.has_cmax_softlim << 31)),
    "MPAMCFG_CMIN": (lambda r: r.has_cmin, lambda r, w: frac_mask(r.cmax_wd)),
    "MPAMCFG_CASSOC": (lambda r: r.has_cassoc, lambda r, w: frac_mask(r.cassoc_wd)),
    "MPAMCFG_MBW_MIN": (lambda r: r.mbw_has["MIN"], lambda r, w: frac_mask(r.bwa_wd)),
    "MPAMCFG_MBW_MAX": (lambda r: r.mbw_has["MAX"],
                        lambda r, w: frac_mask(r.bwa_wd) | 1 << 31),     # HARDLIM
    "MPAMCFG_MBW_PROP": (lambda r: r.mbw_has["PROP"],
                         lambda r, w: low_mask(r.bwa_wd) | 1 << 31),     # EN
    "MPAMCFG_MBW_PBM": (lambda r: r.mbw_has["PBM"],
                        lambda r, w: bitmap_word_mask(r.bwpbm_wd, w)),
    "MPAMCFG_MBW_WINWD": (lambda r: r.has_mbw,
                          lambda r, w: 0xFFFFFF if r.windwr else 0),    # US_INT:US_FRAC
    "MPAMCFG_PRI": (lambda r: r.has_pri,
                    lambda r, w: low_mask(r.intpri_wd) | low_mask(r.dspri_wd) << 16),
    "MPAMCFG_INTPARTID": (lambda r: r.has_partid_nrw, lambda r, w: None),
}


def is_control(name):
    return name.startswith("MPAMCFG_") and name != "MPAMCFG_PART_SEL"


def control_mask(ris, name, word):
    """Writable bits of word `word` of control `name` on `ris`, or None if
    unknown to these tests."""
    known = CONTROLS.get(name)
    return known[1](ris, word) if known else None


def control_implemented(ris, name):
    known = CONTROLS.get(name)
    return bool(known[0](ris)) if known else None


class Msc:
    """An MSC window of a Machine: its register rows by name and its RIS."""

    def __init__(self, machine, info):
        self.m = machine
        self.name, self.base, self.size = info["name"], info["base"], info["size"]
        self.rows = {r["name"]: (r["offset"], r["size"]) for r in info["registers"]}
        self.ris = []
        nr = 1
        while len(self.ris) < nr:
            self.select_part(len(self.ris), 0)
            rd = {n: self.read_reg(n) if n in self.rows else 0 for n in
                  ("MPAMF_IDR", "MPAMF_CPOR_IDR", "MPAMF_CCAP_IDR", "MPAMF_MBW_IDR",
                   "MPAMF_PRI_IDR", "MPAMF_CSUMON_IDR", "MPAMF_MBWUMON_IDR")}
            r = Ris(len(self.ris), *rd.values())
            nr = r.nr_ris
            self.ris.append(r)
        self.select_part(0, 0)

    def addr(self, name, word=0):
        return self.base + self.rows[name][0] + 4 * word

    # A register that is not a per-PARTID control (those are 32-bit words,
    # see addr()) is accessed at its width.
    def read_reg(self, name):
        off, size = self.rows[name]
        return self.m.read(self.base + off, size)

    def write_reg(self, name, value):
        off, size = self.rows[name]
        self.m.write(self.base + off, value, size)

    def part_sel(self, ris, partid):
        """MPAMCFG_PART_SEL for (ris, partid); RIS is RES0 without HAS_RIS."""
        return partid | (ris << 24 if self.ris and self.ris[0].has_ris else 0)

    def mon_sel(self, ris, mon):
        return mon | (ris << 24 if self.ris[0].has_ris else 0)

    def select_part(self, ris, partid):
        self.m.write(self.addr("MPAMCFG_PART_SEL"), self.part_sel(ris, partid))

    def select_mon(self, ris, mon):
        self.m.write(self.addr("MSMON_CFG_MON_SEL"), self.mon_sel(ris, mon))

    def control_words(self, name):
        return max(1, self.rows[name][1] // 4)

    def controls(self, ris):
        """Names of the per-PARTID controls that RIS `ris` implements."""
        return [n for n in self.rows if is_control(n) and
                control_implemented(self.ris[ris], n) is not False]


def bitmap_value(words):
    """A multi-word register as one number (word 0 least significant)."""
    return sum(w << (32 * i) for i, w in enumerate(words))


def partid_controls(p):
    """{name: value} of one entry of query-mpam's per-PARTID list."""
    return {c["name"]: int(c["value"], 16) for c in p["controls"]}

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scenarios of the modeled memory system: boot, measure, CSV, plots, checks.

Boots the guest (./memqos boot --timing) once per scenario group, runs the
timing-* guest scenarios (guest-tests/scenarios), which print one
"MEMQOS-DATA TAG key=value ..." line per measurement of memqos-chase and
memqos-stream, writes the measurements as CSV, draws PNG plots with
gnuplot, and checks them against the configuration this runner passes to
QEMU (docs/timing-design.md §4, issue 7 "Done when"):

  single (1 vCPU)  chase steps at L1/2, L2/2, L3/2, 4 L3; the latency curve
                   over 12 working sets; latency and occupancy vs L3 mask
                   width at 3/4 L3; llc_occupancy = min(ws + F, share),
                   F the program's own lines (code, stack, page tables)
                   that a one-page chase in the same group holds;
                   mbm_total_bytes = bytes streamed; the kernel's
                   zeroing and copying for dd reach mbm_total_bytes; a
                   FEAT_MOPS copy between pages that share QEMU's main-TLB
                   entry puts its lines in the caches as a load/store copy does
  repeat (1 vCPU)  the same again with the host's address-space
                   randomisation off (setarch -R: another host layout
                   than the first boot's): every measurement and the
                   final query-memqos-timing must be identical
  noisy (2 vCPUs)  a neighbour streaming with a disjoint mask changes
                   neither the chaser's occupancy nor its latency;
                   occupancy over time while the neighbour starts, then
                   shares the whole L3
  ddr (1 vCPU)     ddr=on, no load: a chase over 4 L3 measures the L3
                   latency plus the DDR model's unloaded read (closed bank
                   and the mean refresh wait, from its configuration)
  mbw (2 vCPUs)    the memory MSC regulates B = mpam-mbw-peak, less than
                   one vCPU streams: resctrl MB: 25/50/75/100 % with
                   HARDLIM (host policy) and a neighbour streaming give
                   that share of B; MBW_MIN 25 % keeps a group at a
                   quarter of B beside a neighbour with 7 times its
                   MBW_PROP weight, which leaves it an eighth without it
                   (docs/mbw-regulation.md "The guest check")
  mbw-ddr (1 vCPU) ddr=on with one channel: a memqos-agent with a higher
                   DSPRI keeps the DDR's LPR store full; a group with
                   MBW_MIN 2 % of the channel streams at least that, one
                   without stays under it

Expected values come from the machine options (the latencies from
timing-mhz and the cycle counts, sizes from the cache geometry), never from
a run.  Reports TAP (tests/lib/tap.py prints it as make check does).
--no-timing runs the same scenarios on plain TCG (host time, monitors not
fed): curves and plots only, every timing check a counted SKIP.
"""
import argparse
import csv
import json
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", "lib"), os.path.join(TOP, "scripts")]
from memqos_common import CACHE  # noqa: E402
from console import line_queue  # noqa: E402
from qmp import Qmp  # noqa: E402
import ddr_config  # noqa: E402
from tap import Tap  # noqa: E402

LINE, PAGE = 64, 4096
PORTIONS = 16            # CPBM_WD of the platform's L3 MSC (docs/platform.md)
BASE_MACHINE = "virt,mpam=on,mpam-partids=32,mpam-pmgs=4"
# Defaults of the cache geometry (-M options) and of the timing figures
# (properties of the memqos-timing device, -global memqos-timing.NAME=VALUE;
# docs/platform.md, docs/timing-design.md §3.1, §3.5).  The runner always
# passes them, so the expected values are what QEMU was told.
GEOMETRY = {"l1d-size": 64 << 10, "l1d-ways": 4, "l1i-size": 64 << 10, "l1i-ways": 4,
            "l2-size": 1 << 20, "l2-ways": 8, "l3-size": 8 << 20, "l3-ways": 16}
TIMING = {"timing-mhz": 2500, "timing-cpi-milli": 1000, "timing-l1-cycles": 4,
          "timing-l2-cycles": 11, "timing-l3-cycles": 88, "timing-mem-ns": 90}
# Options QEMU takes without timing=on (the others arrive with the timing glue).
PLAIN_OPTIONS = ("l3-size", "l3-ways")
LEVELS = (("L1", "l1d"), ("L2", "l2"), ("L3", "l3"))
# The repeat boot's launcher: no address-space randomisation, so that QEMU's
# host layout differs from the single boot's (docs/timing-design.md §2.5).
NO_ASLR = ("setarch", "-R")
# Under modeled time a TB ends after this many instructions (patch 0024), so
# that no TB's host code reaches QEMU's retry at a host-dependent length.
TB_MAX_INSNS = 128
A64_INSN_BYTES = 4
RTC_SEED = ["-seed", "1", "-rtc", "base=2026-01-01,clock=vm"]
LINE_RE = re.compile(r"MEMQOS-(DATA|DONE)\b ?(.*)$")
# The guest stopped (powered off, or panicked): QEMU (-no-shutdown) waits to be told to quit.
STOP_RE = re.compile(r"Kernel panic|reboot: (Power down|Restarting)")

TOL_LATENCY = 0.05       # steps and mask points: within 5 % of the configured latency
TOL_OCCUPANCY = 0.05     # llc_occupancy = min(ws, share) within 5 %
TOL_MBM = 0.01           # mbm_total_bytes = bytes streamed within 1 %
TOL_NOISY = 0.01         # the neighbour moves occupancy and latency by less than 1 %
TOL_DDR = 0.05           # the unloaded chase through the DDR model: within 5 %
TOL_MBW = 0.05           # a regulated stream: within 5 % of its share of B
# The mbw boot (docs/mbw-regulation.md "The guest check"): the regulated
# bandwidth B, below what one vCPU streams, and the host bandwidth policy of
# the scenario's groups, PARTIDs 1..4 (guest-tests/scenarios/timing-mbw.sh):
# a HARDLIM; the neighbour, MBW_PROP stride 1; stride 7 with MBW_MIN 25 %;
# stride 7 alone.
MBW_PEAK = 512 << 20
MBW_POLICY = "1:hardlim;2:prop=1;3:prop=7:min=25%;4:prop=7"
MBW_PERCENTS = (100, 75, 50, 25)    # the last stays programmed (check_mbw_partid)
MBW_MIN = 0.25
MBW_NOMIN = (1 / 7) / (1 / 1 + 1 / 7)   # PROP's share of stride 7 beside stride 1
# The mbw-ddr boot (docs/mbw-regulation.md "MBW_MIN against a saturating
# neighbour", guest-tests/scenarios/timing-mbw-ddr.sh): one DDR channel,
# B its peak; PARTID 1 with an MBW_MIN of 2 % of B (DSPRI 0), a
# memqos-agent "hog" as PARTID 2 (DSPRI 5, the same LPR class) with twice
# the LPR store's entries in flight, so that the store is always full,
# PARTID 3 streaming without a minimum.
MBWD_CHANNELS = 1
MBWD_MIN_PC = 2
MBWD_HOG = "/objects/hog"


def pow2_floor(n):
    return 1 << (max(1, int(n)).bit_length() - 1)


class Config:
    """The machine options of a run and what follows from them."""

    def __init__(self, timing, short, overrides):
        self.timing, self.short = timing, short
        self.opt = {**GEOMETRY, **TIMING, **overrides}
        self.overrides = overrides

    def size(self, level):
        return self.opt[f"{level}-size"]

    def sets(self, level):
        return self.size(level) // (self.opt[f"{level}-ways"] * LINE)

    def colors(self, level):
        """Page colours of LEVEL: pages that cover different sets (memqos-chase --colors)."""
        return max(1, self.sets(level) * LINE // PAGE)

    def latency_ns(self):
        """Load-to-use latency of each level, ns (docs/timing-design.md §2.1)."""
        mhz = self.opt["timing-mhz"]
        out = {name: self.opt[f"timing-{name.lower()}-cycles"] * 1000 / mhz for name, _ in LEVELS}
        out["mem"] = float(self.opt["timing-mem-ns"])
        return out

    def machine(self):
        """The -M value: the cache geometry (without timing=on only what QEMU
        takes without it, and what --set asked for)."""
        keys = [k for k in GEOMETRY if self.timing or k in PLAIN_OPTIONS or k in self.overrides]
        return ",".join([BASE_MACHINE] + [f"{k}={self.opt[k]}" for k in keys])

    def qemu_args(self):
        """The timing figures, as properties of the memqos-timing device."""
        return [a for k in TIMING for a in ("-global", f"memqos-timing.{k}={self.opt[k]}")] \
            if self.timing else []

    def coloured(self, raw, level):
        """(size, colours) for a chase of about RAW bytes coloured for LEVEL:
        a multiple of one page per colour."""
        colors = min(self.colors(level), pow2_floor(raw // PAGE))
        return max(1, int(raw) // (PAGE * colors)) * PAGE * colors, colors

    # ---- what each scenario runs
    def steps(self):
        """[(tag, size, colours, level)]: one working set per level, all-hit there."""
        l3 = self.size("l3")
        out = [(f"step-{name}", *self.coloured(self.size(lv) // 2, lv), name) for name, lv in LEVELS]
        return out + [("step-mem", *self.coloured(4 * l3, "l3"), "mem")]

    def curve(self):
        """12 log-spaced working sets from L1/2 to 4 L3, each coloured for the
        smallest level it fits in."""
        lo, hi = self.size("l1d") / 2, 4 * self.size("l3")
        out = []
        for k in range(12):
            raw = lo * (hi / lo) ** (k / 11)
            lv = next((lv for _, lv in LEVELS if raw <= self.size(lv)), "l3")
            out.append((f"ws-{k}", *self.coloured(raw, lv)))
        return out

    def mask_ws(self):
        return self.coloured(3 * self.size("l3") // 4, "l3")

    def widths(self):
        return [PORTIONS // 2, PORTIONS] if self.short else list(range(1, PORTIONS + 1))

    @staticmethod
    def mask(first, n):
        return format(((1 << n) - 1) << first, f"0{PORTIONS // 4}x")

    def share(self, portions):
        return self.size("l3") * portions // PORTIONS

    def mask_expect(self, width):
        """(level, occupancy) a chase of mask_ws() with WIDTH portions must show:
        all-miss when a set gets more lines than the allowed ways, else all-hit
        in L3 (colouring gives every set the same number of lines)."""
        ws = self.mask_ws()[0]
        lines_per_set = ws / LINE / self.sets("l3")
        ways = width * self.opt["l3-ways"] / PORTIONS
        return ("mem" if lines_per_set > ways else "L3"), min(ws, self.share(width))

    def occupancy_ws(self):
        share = self.share(PORTIONS // 4)
        return [self.coloured(share * f, "l3") for f in (0.5, 1, 2)]

    def footprint_ws(self):
        """A one-page chase: its occupancy less the page is what the program
        itself (code, stack, page tables, the kernel on its behalf) holds."""
        return self.coloured(PAGE, "l3")

    def loads(self):
        """Loads per chase sample: 2^20 in the short form is still enough for
        5 % (a 4 ms tick costs ~15 us; the fastest sample, 1M L1 hits, is 1.6 ms)."""
        return 1 << (20 if self.short else 22)

    def evict(self):
        """memqos-chase --evict before a group's chase: 4 L3 leaves no stale
        line of an earlier program in any set (a hit keeps a line's owner)."""
        return 4 * self.size("l3")

    def stream(self):
        return 8 * self.size("l3"), 4

    def copy(self):
        """Bytes dd copies from /dev/zero into the page cache: 8 L3, so most of
        what the kernel writes must leave the L3 as well as fill it."""
        return 8 * self.size("l3")

    def alias(self):
        """memqos-mops-alias's copy: source and destination together fit the
        L2 with room to spare, so a chase after the copy hits in L1 or L2."""
        return self.size("l2") // 4

    def noisy(self):
        half = PORTIONS // 2
        size, colors = self.coloured(3 * self.size("l3") // 8, "l3")
        # The default group keeps the whole L3 (the design's ff00 would keep
        # the kernel out of A's half): memqos-chase --evict runs there and
        # must reach every way to clear stale lines that A's pages could hit.
        return {"size": size, "colors": colors, "a": self.mask(0, half), "b": self.mask(half, half),
                "root": self.mask(0, PORTIONS), "stream": 8 * self.size("l3"),
                "seconds": 3 if self.short else 6}

    def single_params(self):
        chase = [(t, s, c) for t, s, c, _ in self.steps()] + self.curve()
        ws = self.mask_ws()
        return {"scenario": "timing-chase,timing-mask,timing-occupancy,timing-stream,timing-copy",
                "chase": ",".join(f"{t}:{s}:{c}" for t, s, c in chase),
                "mask-ws": f"{ws[0]}:{ws[1]}",
                "masks": ",".join(self.mask(0, w) for w in self.widths()),
                "occ-mask": self.mask(0, PORTIONS // 4),
                "occ-ws": ",".join(f"{s}:{c}" for s, c in [self.footprint_ws()] + self.occupancy_ws()),
                "stream": "%d:%d" % self.stream(), "copy": self.copy(), "alias": self.alias(),
                "evict": self.evict(), "samples": 1 if self.short else 3, "loads": self.loads()}

    def ddr_params(self):
        """The memory step alone, with the DDR model behind memory."""
        _, size, colors, _ = self.steps()[-1]
        return {"scenario": "timing-chase", "chase": f"step-mem:{size}:{colors}",
                "evict": self.evict(), "samples": 1 if self.short else 3,
                "loads": self.loads()}

    def ddr_latency_ns(self):
        """A line from memory with ddr=on and no load: the L3 latency plus a
        closed-bank read (at a chase's pace every bank has been refreshed,
        which closes it, since its last access), stretched by the refresh
        window the chase loses every tREFI (ddr_config.chase_ps;
        docs/ddr-qos-model.md, "Integration")."""
        return ddr_config.chase_ps(ddr_config.defaults(), self.latency_ns()["L3"] * 1000) / 1000

    def mbw_params(self):
        """Streams of 2 L3 (every line misses in an LRU L3), one pass each."""
        return {"scenario": "timing-mbw",
                "mbw": f"{2 * self.size('l3')}:1:" + ",".join(map(str, MBW_PERCENTS))}

    @staticmethod
    def mbw_machine(peak=MBW_PEAK):
        return [f"mpam-mbw-peak={peak}", f"mpam-mbw-policy={MBW_POLICY}"]

    @staticmethod
    def mbw_expect(group, pc):
        """(low, high) bytes/s of a stream: its share of B (MB 100 % with
        HARDLIM: all of B, which one vCPU's stream exceeds unregulated)."""
        share = {"a": pc / 100, "min": MBW_MIN, "nomin": MBW_NOMIN}[group]
        return share * MBW_PEAK * (1 - TOL_MBW), share * MBW_PEAK * (1 + TOL_MBW)

    @staticmethod
    def mbwd_ddr():
        cfg = ddr_config.defaults()
        cfg["ddr-channels"] = MBWD_CHANNELS
        return cfg

    def mbwd_params(self):
        """One stream of 2 L3 in each group (every line misses)."""
        return {"scenario": "timing-mbw-ddr", "mbwddr": 2 * self.size("l3")}

    def mbwd_machine(self, regulate=True):
        """-M options and QEMU arguments of the mbw-ddr boot; REGULATE
        False boots with mpam-mbw-peak=0 (the regulator off)."""
        hog = f"memqos-agent,id={MBWD_HOG.split('/')[-1]},partid=2,pattern=random," \
              f"footprint=1G,outstanding={2 * self.mbwd_ddr()['ddr-lpr-entries']},running=off"
        return ([f"mpam-mbw-policy=1:min={MBWD_MIN_PC}%", "mpam-dspri=1:0;2:5;3:0"] +
                ([] if regulate else ["mpam-mbw-peak=0"]),
                ["-global", f"memqos-ddr.ddr-channels={MBWD_CHANNELS}", "-object", hog])

    def mbwd_min_bps(self):
        """MBW_MIN's bytes/s: the policy's percentage of B (the channel's
        peak) as the register holds it, rounded down to BWA_WD 8 bits."""
        reg = MBWD_MIN_PC * 65536 // 100 & 0xff00
        return reg / 65536 * ddr_config.peak_bytes_per_s(self.mbwd_ddr())

    def noisy_params(self):
        n = self.noisy()
        return {"scenario": "timing-noisy",
                "noisy": ":".join(str(n[k]) for k in ("size", "colors", "a", "b", "root", "stream")),
                "noisy-seconds": n["seconds"], "evict": self.evict(),
                "samples": 1 if self.short else 3, "loads": self.loads()}


# ---------------------------------------------------------------- boots
class Boot:
    """One boot: the guest's MEMQOS-DATA lines and, after it powered off,
    query-memqos-timing (timing=on).  No QMP while the guest runs here; a
    subclass may act on the way through started() and got_data()
    (tests/guest-runner/timing_migrate.py)."""

    def __init__(self, name, smp, params, extra=(), ddr=False, preset=None, machine=(),
                 wrap=()):
        self.name, self.smp, self.params, self.extra = name, smp, params, list(extra)
        self.wrap = list(wrap)  # runs the launcher, e.g. setarch -R
        self.preset = preset    # ./memqos boot --preset: its machine, vCPUs, RAM, QEMU args
        self.machine = list(machine)    # more -M options (without a preset)
        self.qmp_path = f"/tmp/memqos-timing-{os.getpid()}-{name}.qmp"
        self._qmp = None
        self.ddr = ddr          # -M ...,ddr=on; query-memqos-ddr after power-off
        self.ddr_info = None
        self.mpam_info = None   # query-mpam after power-off
        self.data = []          # (tag, {key: value}, the line from MEMQOS-DATA on)
        self.when = []          # host seconds from QEMU's start to each data line
        self.done = False
        self.rc = None
        self.stop_line = None   # the kernel's power-off (or panic) line
        self.timing = None      # query-memqos-timing after power-off
        self.jit = ""           # HMP info jit after power-off (timing=on)
        self.problems = []
        self.tail = []          # the last console lines, for failure details

    def run(self, a, cfg):
        append = " ".join(f"memqos.{k}={v}" for k, v in self.params.items())
        cmd = self.wrap + [os.path.join(TOP, "memqos"), "boot", "--timeout", str(a.timeout),
               "--qmp", self.qmp_path, "--append", append]
        if self.preset:
            cmd += ["--preset", self.preset]
        else:
            machine = ",".join([cfg.machine()] + (["ddr=on"] if self.ddr else []) +
                               self.machine)
            cmd += ["--machine", machine, "--smp", str(self.smp), "--mem", a.mem]
            cmd += ["--timing"] if cfg.timing else []
        for opt in ("kernel", "initrd", "qemu"):
            if getattr(a, opt):
                cmd += [f"--{opt}", getattr(a, opt)]
        # -no-shutdown: QEMU stops at power-off, so the final state can be read.
        cmd += ["--"] + ([] if self.preset else cfg.qemu_args()) + self.extra + RTC_SEED + \
            ["-no-shutdown"]
        log = open(os.path.join(a.out, f"console-{self.name}.log"), "w")
        t0 = time.monotonic()
        print(f"INFO boot {self.name}: {self.smp} vCPU(s), console in {log.name}", flush=True)
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        lines = line_queue(proc)
        deadline = t0 + a.timeout + 30
        eof = False
        self.started()
        # Until the guest stops: QMP only after that (nothing may perturb a run).
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                self.problems.append("the guest did not power off before the timeout")
                break
            if line is None:
                eof = True
                break
            log.write(line)
            if not line.startswith("memqos: /"):        # the command line is in the log
                self.tail = (self.tail + [line.rstrip()])[-8:]
            if a.verbose:
                sys.stdout.write("  | " + line)
            if STOP_RE.search(line):
                self.stop_line = line.strip()
                if not self.done:
                    self.problems.append(line.strip())
                break
            p = parse_line(line)
            if p == "DONE":
                self.done = True
            elif p:
                self.data.append(p)
                self.when.append(time.monotonic() - t0)
                self.got_data(*p)
        if not eof:
            self.finish(cfg)
        self.close_qmp()
        try:
            self.rc = proc.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            self.rc = proc.wait()
        for line in [] if eof else iter(lines.get, None):
            log.write(line)
        log.close()
        print(f"MEASURE boot {self.name}: {time.monotonic() - t0:.1f} s wall, "
              f"{len(self.data)} measurements", flush=True)

    # ---- what a subclass may do on the way (QEMU runs; the console is read meanwhile)
    def started(self):
        """QEMU has been started."""

    def got_data(self, tag, kv, line):
        """The guest printed a MEMQOS-DATA line (already in self.data)."""

    def stopped(self, q, cfg):
        """The guest powered off; Qmp Q is connected.  Reads query-memqos-timing
        (and query-memqos-ddr with ddr=on) after a complete run."""
        if cfg.timing and self.done:
            self.timing = q.execute("query-memqos-timing")
            self.jit = q.execute("human-monitor-command", **{"command-line": "info jit"})
        if self.ddr and self.done:
            self.ddr_info = q.execute("query-memqos-ddr")
        if self.done:
            self.mpam_info = q.execute("query-mpam")

    def agent_start(self, path):
        """Run the memqos-agent at PATH, then begin its bandwidth window: the
        other order counts the QMP round trip between them, in which the
        idle machine runs far ahead in modeled time, as load-free time."""
        q = self.qmp()
        q.execute("qom-set", path=path, property="running", value=True)
        q.execute("query-memqos-agents", **{"restart-window": True})

    def agent_stop(self, path):
        """query-memqos-agents' agents (their windows up to now), then stop
        the agent at PATH."""
        q = self.qmp()
        agents = q.execute("query-memqos-agents")["agents"]
        q.execute("qom-set", path=path, property="running", value=False)
        return agents

    def qmp(self):
        """This boot's QMP connection (one: QEMU serves one client at a time)."""
        if self._qmp is None:
            self._qmp = Qmp(self.qmp_path)
        return self._qmp

    def close_qmp(self):
        if self._qmp is not None:
            self._qmp.close()
            self._qmp = None

    def finish(self, cfg):
        """The guest stopped: wait until QEMU (-no-shutdown) has stopped it,
        read its state (stopped()), quit QEMU."""
        try:
            q = self.qmp()
            for _ in range(600):
                if q.execute("query-status")["status"] == "shutdown":
                    break
                time.sleep(0.1)
            else:
                self.problems.append("QEMU did not stop the guest within 60 s of its power-off")
            self.stopped(q, cfg)
        except Exception as e:      # reported by the checks that need it
            self.problems.append(f"QMP after power-off: {e}")
        try:
            self.qmp().execute("quit")
        except Exception as e:      # QEMU is killed at the deadline
            self.problems.append(f"QMP quit: {e}")

    def ok(self):
        """(True, detail) when the guest ran to its end and QEMU exited 0."""
        errors = [f"{t}: {kv['error']}" for t, kv, _ in self.data if "error" in kv]
        bad = self.problems + errors
        if not self.done:
            bad.append("no MEMQOS-DONE (the guest did not finish its scenarios)")
        if self.rc != 0:
            bad.append(f"QEMU/launcher exit status {self.rc}")
        if bad and not self.done:
            bad.append("last console lines:\n" + "\n".join(self.tail))
        return not bad, "; ".join(bad) if bad else f"{len(self.data)} measurements"

    def rows(self, tag):
        return [kv for t, kv, _ in self.data if t == tag]

    def row(self, tag):
        r = self.rows(tag)
        return r[0] if r else {}


def parse_line(line):
    """A console line -> "DONE", (tag, {key: value}, the text from MEMQOS-DATA
    on) for a measurement, or None.  Kernel output may precede it."""
    m = LINE_RE.search(line.rstrip("\r\n"))
    if not m:
        return None
    if m.group(1) == "DONE":
        return "DONE"
    words = m.group(2).split()
    if not words:
        return None
    return words[0], dict(w.split("=", 1) for w in words[1:] if "=" in w), m.group(0)


class X86Boot(Boot):
    def stopped(self, q, cfg):
        """x86: query-memqos-timing only (the machine has no MPAM)."""
        if self.done:
            self.timing = q.execute("query-memqos-timing")


class MbwDdrBoot(Boot):
    """The mbw-ddr boot: the scenario's sync line starts the hog agent (and
    then its bandwidth window), its end line reads and stops it."""

    def __init__(self, cfg, regulate):
        machine, extra = cfg.mbwd_machine(regulate)
        super().__init__("mbw-ddr", 1, cfg.mbwd_params(), extra=extra, ddr=True,
                         machine=machine)
        self.hog = None         # query-memqos-agents' hog at the end line

    def got_data(self, tag, kv, line):
        if tag not in ("mbwddr-sync", "mbwddr-end"):
            return
        try:
            if tag == "mbwddr-sync":
                self.agent_start(MBWD_HOG)
            else:
                self.hog = self.agent_stop(MBWD_HOG)[0]
        except Exception as e:          # the checks say what is missing
            self.problems.append(f"QMP at {tag}: {type(e).__name__}: {e}")


def settled_timing(timing):
    """query-memqos-timing read after power-off, without the vCPUs' time-ns:
    once the guest has powered its vCPU off, QEMU warps the idle clock from
    timer deadline to timer deadline until the main loop stops the machine,
    a host-timed number of times.  The clock at power-off is in the
    kernel's power-off line (Boot.stop_line)."""
    if not timing:
        return timing
    out = json.loads(json.dumps(timing))
    for cpu in out.get("cpus", []):
        cpu.pop("time-ns", None)
    return out


def number(kv, key):
    try:
        return float(kv[key])
    except (KeyError, ValueError):
        return None


def near(got, want, tol):
    """(ok, text) for GOT within TOL (relative) of WANT."""
    if got is None:
        return False, f"no value (want {want:g})"
    dev = (got - want) / want if want else math.inf
    return abs(dev) <= tol, f"{got:g} vs {want:g} ({dev * 100:+.2f} %, limit ±{tol * 100:g} %)"


# ---------------------------------------------------------------- CSV and plots
def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return len(rows)


def gnuplot(out, name, script):
    """Draw OUT/NAME.png with SCRIPT (run in OUT); (path, None) or (None, why not)."""
    png = os.path.join(out, f"{name}.png")
    if not shutil.which("gnuplot"):
        return None, "gnuplot is not installed (scripts/setup-host.sh installs gnuplot-nox)"
    if os.path.exists(png):
        os.unlink(png)
    with open(os.path.join(out, f"{name}.gp"), "w") as f:
        f.write(f"set terminal pngcairo size 960,600 noenhanced\nset output '{name}.png'\n"
                "set datafile separator ','\nset grid\n" + script)
    r = subprocess.run(["gnuplot", f"{name}.gp"], cwd=out, capture_output=True, text=True)
    if r.returncode:
        return None, f"gnuplot failed: {r.stderr.strip()[-300:]}"
    with open(png, "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(png) < 1000:
        return None, f"{png} is not a PNG of some content ({os.path.getsize(png)} bytes)"
    return png, None


class Runner:
    def __init__(self, a, cfg):
        self.a, self.cfg = a, cfg
        self.single, self.repeat = self.single_pair()
        self.noisy = Boot("noisy", 2, cfg.noisy_params())
        self.ddr = Boot("ddr", 1, cfg.ddr_params(), ddr=True)
        self.mbw = Boot("mbw", 2, cfg.mbw_params(),
                        machine=cfg.mbw_machine(0 if a.mbw_off else MBW_PEAK))
        self.mbwd = MbwDdrBoot(cfg, not a.mbw_off)
        self.lat = cfg.latency_ns()
        self.mode = "timing=on" if cfg.timing else "plain TCG, host time"

    def single_pair(self):
        """The single boot and its repeat in another host layout (check_repeat)."""
        return (Boot("single", 1, self.cfg.single_params()),
                Boot("repeat", 1, self.cfg.single_params(), wrap=NO_ASLR))

    def skip_plain(self):
        return None if self.cfg.timing else \
            ("SKIP", "--no-timing: plain TCG measures host time and does not feed the monitors")

    # ---- the checks, in plan order: (name, function returning (result, detail))
    def plan(self):
        c = self.cfg
        out = [("boot-single", lambda: self.boot_ok(self.single)),
               ("timing-config", self.check_config),
               ("tb-length", self.check_tb_length)]
        out += [(tag, lambda t=tag, lv=lv: self.check_step(t, lv)) for tag, _, _, lv in c.steps()]
        out += [("mask-half", lambda: self.check_mask(PORTIONS // 2)),
                ("mask-full", lambda: self.check_mask(PORTIONS))]
        if not c.short:
            out += [("mask-curve", self.check_mask_curve)]
        out += [(f"occupancy-{s >> 10}K", lambda i=i: self.check_occupancy(i))
                for i, (s, _) in enumerate(c.occupancy_ws())]
        out += [("mbm-total-bytes", self.check_mbm),
                ("mbm-kernel-copy", self.check_copy),
                ("mops-aliased-copy", self.check_alias),
                ("boot-repeat", lambda: self.skip_plain() or self.boot_ok(self.repeat)),
                ("deterministic", self.check_repeat),
                ("boot-noisy", lambda: self.boot_ok(self.noisy)),
                ("noisy-occupancy", lambda: self.check_noisy("occupancy")),
                ("noisy-latency", lambda: self.check_noisy("ns_per_load")),
                ("boot-ddr", lambda: self.skip_plain() or self.boot_ok(self.ddr)),
                ("ddr-step-mem", self.check_ddr),
                ("boot-mbw", lambda: self.skip_plain() or self.boot_ok(self.mbw)),
                ("mbw-partid", self.check_mbw_partid)]
        out += [(f"mbw-mb-{pc}", lambda pc=pc: self.check_mbw("a", pc)) for pc in MBW_PERCENTS]
        out += [("mbw-min", lambda: self.check_mbw("min", 100)),
                ("mbw-prop-share", lambda: self.check_mbw("nomin", 100)),
                ("boot-mbw-ddr", lambda: self.skip_plain() or self.boot_ok(self.mbwd)),
                ("mbw-min-ddr", lambda: self.check_mbwd("min")),
                ("mbw-min-ddr-starved", lambda: self.check_mbwd("nomin")),
                ("plot-latency-ws", self.plot_ws),
                ("plot-latency-mask", lambda: self.plot_mask("latency")),
                ("plot-occupancy-mask", lambda: self.plot_mask("occupancy")),
                ("plot-occupancy-time", self.plot_time)]
        return out

    def boot_ok(self, b):
        ok, detail = b.ok()
        return ("PASS" if ok else "FAIL"), detail

    def check_config(self):
        """query-memqos-timing's latency-ns is what the options configured."""
        if self.skip_plain():
            return self.skip_plain()
        got = (self.single.timing or {}).get("latency-ns")
        if not got:
            return "FAIL", f"no latency-ns from query-memqos-timing ({self.single.problems})"
        bad = []
        for name, key in (("L1", "l1"), ("L2", "l2"), ("L3", "l3"), ("mem", "mem")):
            ok, text = near(number(got, key), self.lat[name], 1e-6)
            bad += [] if ok else [f"{key} {text}"]
        return ("FAIL", "; ".join(bad)) if bad else \
            ("PASS", " ".join(f"{k}={v:g}" for k, v in got.items()) + " ns, as configured")

    def check_mbw(self, group, pc):
        """A stream of the mbw boot within its expected range (Config.mbw_expect)."""
        if self.skip_plain():
            return self.skip_plain()
        r = next((kv for kv in self.mbw.rows("mbw")
                  if kv.get("group") == group and kv.get("mb") == str(pc)), {})
        got, (lo, hi) = number(r, "mb_per_s"), self.cfg.mbw_expect(group, pc)
        if got is None:
            return "FAIL", f"no stream of group {group} at MB {pc} %: {r}"
        what = {"a": f"MB {pc} % of B, HARDLIM, a neighbour streaming",
                "min": "MBW_MIN 25 %, PROP stride 7 beside the neighbour's 1",
                "nomin": "no MBW_MIN, PROP stride 7 beside the neighbour's 1"}[group]
        ok = lo <= got * 1e6 <= hi
        return ("PASS" if ok else "FAIL"), \
            f"{what}: {got:g} MB/s, expected {lo / 1e6:.1f}..{hi / 1e6:.1f} MB/s " \
            f"(B = mpam-mbw-peak {MBW_PEAK} bytes/s)"

    def check_mbwd(self, group):
        """The mbw-ddr boot: the group with MBW_MIN streams at least its
        minimum (within TOL_MBW) beside the hog; the group without one
        stays under it (the hog saturates the LPR store)."""
        if self.skip_plain():
            return self.skip_plain()
        r = next((kv for kv in self.mbwd.rows("mbwddr") if kv.get("group") == group), {})
        got, want = number(r, "mb_per_s"), self.cfg.mbwd_min_bps()
        if got is None:
            return "FAIL", f"no stream of group {group}: {r}; {'; '.join(self.mbwd.problems)}"
        hog = self.mbwd.hog or {}
        classes = {p["partid"]: p["read-class"] for p in (self.mbwd.ddr_info or {}).get("partids", [])}
        ok = got * 1e6 >= want * (1 - TOL_MBW) if group == "min" else got * 1e6 < want
        return ("PASS" if ok else "FAIL"), \
            f"{got:g} MB/s, {'at least' if group == 'min' else 'under'} MBW_MIN " \
            f"{MBWD_MIN_PC} % of B = {want / 1e6:.1f} MB/s" + \
            (f" (less {TOL_MBW * 100:g} %)" if group == "min" else "") + \
            f"; the hog {hog.get('window-bytes-per-s', 0) / 1e9:.2f} GB/s of the channel's " \
            f"{ddr_config.peak_bytes_per_s(self.cfg.mbwd_ddr()) / 1e9:g}, read classes of " \
            f"PARTIDs 1-3 {[classes.get(p) for p in (1, 2, 3)]}"

    def check_mbw_partid(self):
        """The streaming group is PARTID 1, which the policy's HARDLIM names:
        its MBW_MAX is what resctrl writes for the last MB: value."""
        if self.skip_plain():
            return self.skip_plain()
        pc, bwa_wd = MBW_PERCENTS[-1], 8
        want = (max(((pc << bwa_wd) + 50) // 100, 1) - 1) << (16 - bwa_wd)
        mem = next((m for m in (self.mbw.mpam_info or {}).get("msc", []) if m["name"] == "mem"), {})
        p = next((p for p in mem.get("ris", [{}])[0].get("partids", []) if p["partid"] == 1), {})
        got = next((int(c["value"], 16) for c in p.get("controls", [])
                    if c["name"] == "MPAMCFG_MBW_MAX"), None)
        return ("PASS" if got == want else "FAIL"), \
            f"memory MSC PARTID 1 MPAMCFG_MBW_MAX {got if got is None else hex(got)}, " \
            f"MB: {pc} % writes {hex(want)}"

    def check_ddr(self):
        """ddr=on, no load: the chase over 4 L3 pays L3 + the DDR's unloaded read."""
        if self.skip_plain():
            return self.skip_plain()
        r = self.ddr.row("step-mem")
        want = self.cfg.ddr_latency_ns()
        ok, text = near(number(r, "ns_per_load"), want, TOL_DDR)
        cls = {c["name"]: c for c in (self.ddr.ddr_info or {}).get("classes", [])}
        reads = ", ".join(f"{n} {c['count']} reads mean {c['latency-mean-ns']:.1f} ns"
                          for n, c in cls.items() if c["count"] and n in ("LPR", "VPR", "HPR"))
        return ("PASS" if ok else "FAIL"), \
            f"size {r.get('size')}: ns_per_load {text} ((L3 + closed-bank read) stretched by refresh); " \
            f"query-memqos-ddr: {reads or self.ddr.problems}"

    def check_step(self, tag, level):
        if self.skip_plain():
            return self.skip_plain()
        r = self.single.row(tag)
        ok, text = near(number(r, "ns_per_load"), self.lat[level], TOL_LATENCY)
        return ("PASS" if ok else "FAIL"), \
            f"size {r.get('size')} colours {r.get('colors')}: ns_per_load {text} ({level} latency)"

    def mask_row(self, width):
        m = Config.mask(0, width)
        return next((kv for kv in self.single.rows("mask") if kv.get("mask") == m), {})

    def mask_point(self, width):
        """(ok, text) of one mask width: latency of the expected level and occupancy."""
        level, occ = self.cfg.mask_expect(width)
        r = self.mask_row(width)
        ok1, t1 = near(number(r, "ns_per_load"), self.lat[level], TOL_LATENCY)
        ok2, t2 = near(number(r, "occupancy"), occ, TOL_OCCUPANCY)
        return ok1 and ok2, f"{width}/{PORTIONS} portions: ns_per_load {t1} ({level}); " \
            f"llc_occupancy {t2}"

    def check_mask(self, width):
        if self.skip_plain():
            return self.skip_plain()
        ok, text = self.mask_point(width)
        return ("PASS" if ok else "FAIL"), f"chase {self.cfg.mask_ws()[0]} B, " + text

    def check_mask_curve(self):
        if self.skip_plain():
            return self.skip_plain()
        res = [self.mask_point(w) for w in self.cfg.widths()]
        bad = [t for ok, t in res if not ok]
        return ("FAIL", "\n".join(bad)) if bad else ("PASS", f"{len(res)} widths as expected")

    def check_occupancy(self, i):
        if self.skip_plain():
            return self.skip_plain()
        share = self.cfg.share(PORTIONS // 4)
        size = self.cfg.occupancy_ws()[i][0]
        occ = {r.get("size"): number(r, "occupancy") for r in self.single.rows("occupancy")}
        page = self.cfg.footprint_ws()[0]
        if occ.get(str(page)) is None or occ.get(str(page)) < page:
            return "FAIL", f"the one-page chase's llc_occupancy is {occ.get(str(page))}, not >= {page}"
        own = occ[str(page)] - page
        ok, text = near(occ.get(str(size)), min(size + own, share), TOL_OCCUPANCY)
        return ("PASS" if ok else "FAIL"), \
            f"ws {size} B + own {own:.0f} B, share {share} B: llc_occupancy {text}"

    def check_mbm(self):
        if self.skip_plain():
            return self.skip_plain()
        size, passes = self.cfg.stream()
        r = self.single.row("stream")
        if number(r, "bytes") != size * passes:
            return "FAIL", f"the stream read {r.get('bytes')} bytes, asked {size * passes}: {r}"
        ok, text = near(number(r, "mbm_delta"), size * passes, TOL_MBM)
        return ("PASS" if ok else "FAIL"), f"mbm_total_bytes delta {text} (bytes streamed)"

    def check_tb_length(self):
        """Every TB of the single boot holds at most TB_MAX_INSNS instructions
        (info jit's largest TB in guest bytes; A64 instructions are 4 bytes)."""
        if self.skip_plain():
            return self.skip_plain()
        m = re.search(r"TB avg target size\s+\d+ max=(\d+) bytes", self.single.jit or "")
        if not m:
            return "FAIL", f"no TB sizes in info jit: {(self.single.jit or '')[:200]!r}"
        want = TB_MAX_INSNS * A64_INSN_BYTES
        return ("PASS" if int(m.group(1)) <= want else "FAIL"), \
            f"largest TB {m.group(1)} bytes of guest code, want <= {want} ({TB_MAX_INSNS} instructions)"

    def check_repeat(self):
        if self.skip_plain():
            return self.skip_plain()
        a, b = self.single, self.repeat
        if not (a.ok()[0] and b.ok()[0]):
            return "FAIL", "a boot failed (see boot-single, boot-repeat)"
        la, lb = [x[2] for x in a.data] + [a.stop_line], [x[2] for x in b.data] + [b.stop_line]
        diff = [i for i, (x, y) in enumerate(zip(la, lb)) if x != y]
        if diff:
            i = diff[0]
            return "FAIL", f"{len(diff)} of {len(la)} measurements differ, " \
                f"the first is {i + 1}:\n  {la[i]}\n  {lb[i]}"
        if len(la) != len(lb):
            return "FAIL", f"{len(la)} vs {len(lb)} measurements"
        ja, jb = (json.dumps(settled_timing(x.timing), sort_keys=True) for x in (a, b))
        if ja != jb:
            return "FAIL", f"query-memqos-timing differs:\n  {ja[:600]}\n  {jb[:600]}"
        return "PASS", f"{len(la) - 1} measurements, the power-off time and query-memqos-timing " \
            "(without time-ns after power-off) identical"

    def check_copy(self):
        """The kernel's zeroing and copying (FEAT_MOPS, DC ZVA: patch 0022)
        reach the monitors: each byte dd writes is at least one line fill."""
        if self.skip_plain():
            return self.skip_plain()
        r = self.single.row("copy")
        size, got = self.cfg.copy(), number(r, "mbm_delta")
        if number(r, "bytes") != size or got is None:
            return "FAIL", f"no copy measurement of {size} bytes: {r}"
        return ("PASS" if got >= size else "FAIL"), \
            f"mbm_total_bytes delta {got:g} while dd wrote {size} bytes (must be >= them)"

    def check_alias(self):
        """A FEAT_MOPS copy step whose two pages share a main-TLB entry
        reports its destination's lines (patch 0020 finds them in the victim
        TLB): the chase right after it runs at the latency it has after a
        load/store copy, and hits in L1 or L2, far below L3's latency."""
        if self.skip_plain():
            return self.skip_plain()
        got = {kv.get("copy"): number(kv, "ns_per_load") for kv in self.single.rows("alias")}
        mops, loop = got.get("mops"), got.get("loop")
        if mops is None or loop is None:
            return "FAIL", f"no alias measurement of both copies: {self.single.rows('alias')}"
        ok, text = near(mops, loop, TOL_LATENCY)
        cached = mops < self.lat["L3"]
        return ("PASS" if ok and cached else "FAIL"), \
            f"{self.cfg.alias()} B: ns_per_load after the MOPS copy vs after the loop copy " \
            f"{text}; below the L3 latency {self.lat['L3']:g} ns: {cached}"

    def check_noisy(self, key):
        if self.skip_plain():
            return self.skip_plain()
        alone, with_b = (next((kv for kv in self.noisy.rows("noisy") if kv.get("phase") == p), {})
                         for p in ("alone", "neighbour"))
        ok, text = near(number(with_b, key), number(alone, key) or 0, TOL_NOISY)
        if key == "occupancy":
            n = self.cfg.noisy()
            ok0, t0 = near(number(alone, key), min(n["size"], self.cfg.share(PORTIONS // 2)),
                           TOL_OCCUPANCY)
            busy = (number(with_b, "occupancy_b") or 0) > 0
            return ("PASS" if ok and ok0 and busy else "FAIL"), \
                f"A's llc_occupancy with B streaming vs alone: {text}; alone vs min(ws, share): " \
                f"{t0}; B's occupancy {with_b.get('occupancy_b')} (must be > 0: B ran)"
        return ("PASS" if ok else "FAIL"), f"A's ns_per_load with B streaming vs alone: {text}"

    # ---- CSV and plots
    def plot_ws(self):
        c, out = self.cfg, self.a.out
        kind = {t: "step" for t, *_ in c.steps()}
        rows = [(kind.get(t, "curve"), kv.get("size"), kv.get("colors"), kv.get("ns_per_load"))
                for t, kv, _ in self.single.data
                if t.startswith(("ws-", "step-")) and number(kv, "ns_per_load") is not None]
        rows.sort(key=lambda r: (r[0], int(r[1] or 0)))
        n = write_csv(os.path.join(out, "latency-ws.csv"), ("kind", "size", "colors", "ns_per_load"), rows)
        want = len(c.steps()) + len(c.curve())
        sizes = "".join(f"set arrow from {c.size(lv) / 1024},graph 0 to {c.size(lv) / 1024},graph 1 "
                        f"nohead dt 3\nset label '{name} size' at {c.size(lv) / 1024},graph 0.95 "
                        "left offset 0.3,0\n" for name, lv in LEVELS)
        levels = "".join(f", {v} with lines dt 2 title '{k} {v:g} ns (configured)'"
                         for k, v in self.lat.items()) if c.timing else ""
        png, why = gnuplot(out, "latency-ws", sizes + (
            f"set title 'Pointer chase: latency vs working set ({self.mode})'\n"
            "set logscale x 2\nset logscale y\nset xlabel 'working set (KiB)'\n"
            "set ylabel 'ns per load'\nset key bottom right box opaque\n"
            "plot 'latency-ws.csv' using ($2/1024):(strcol(1) eq 'curve' ? $4 : 1/0) "
            "with linespoints pt 7 title 'chase (12 sizes)', "
            "'' using ($2/1024):(strcol(1) eq 'step' ? $4 : 1/0) with points pt 5 ps 1.5 "
            f"title 'steps: L1/2, L2/2, L3/2, 4 L3'{levels}\n"))
        return self.plot_result(png, why, n, want, "latency-ws.csv")

    def mask_csv(self):
        rows = []
        for w in self.cfg.widths():
            r, (level, occ) = self.mask_row(w), self.cfg.mask_expect(w)
            if number(r, "ns_per_load") is None:
                continue
            rows.append((w, Config.mask(0, w), r.get("ns_per_load"), r.get("occupancy"),
                         self.lat[level] if self.cfg.timing else "", occ))
        return write_csv(os.path.join(self.a.out, "mask.csv"),
                         ("portions", "mask", "ns_per_load", "occupancy", "expected_ns",
                          "expected_occupancy"), rows)

    def plot_mask(self, what):
        n = self.mask_csv()
        ws = self.cfg.mask_ws()[0]
        expect = self.cfg.timing or what == "occupancy"
        col, ylabel, exp = (("3", "ns per load", "5") if what == "latency" else
                            ("($4/1048576)", "llc_occupancy (MiB)", "($6/1048576)"))
        png, why = gnuplot(self.a.out, f"{what}-mask", (
            f"set title 'Chase of {ws >> 10} KiB in a group: {what} vs L3 mask width ({self.mode})'\n"
            f"set xlabel 'portions in the group''s L3 mask (of {PORTIONS})'\nset ylabel '{ylabel}'\n"
            f"set xrange [0:{PORTIONS + 1}]\nset yrange [0:*]\nset key top left\n"
            f"plot 'mask.csv' using 1:{col} with linespoints pt 7 title 'measured'" +
            (f", '' using 1:{exp} with lines dt 2 title 'expected from the configuration'"
             if expect else "") + "\n"))
        return self.plot_result(png, why, n, len(self.cfg.widths()), "mask.csv")

    def plot_time(self):
        rows = [r for r in self.noisy.rows("occtime") if number(r, "t") is not None]
        t0 = number(rows[0], "t") if rows else 0
        n = write_csv(os.path.join(self.a.out, "occupancy-time.csv"),
                      ("t", "phase", "occ_a", "occ_b"),
                      [(f"{number(r, 't') - t0:.2f}", r.get("phase"), r.get("occ_a"), r.get("occ_b"))
                       for r in rows])
        nz = self.cfg.noisy()
        starts = {}
        for r in rows:
            starts.setdefault(r.get("phase"), number(r, "t") - t0)
        marks = "".join(f"set arrow from {x:.2f},graph 0 to {x:.2f},graph 1 nohead dt 3\n"
                        f"set label '{label}' at {x:.2f},graph 0.97 left offset 0.5,0\n"
                        for phase, label in (("disjoint", f"B streams, mask {nz['b']}"),
                                             ("shared", "B gets the whole L3"))
                        if (x := starts.get(phase)) is not None)
        png, why = gnuplot(self.a.out, "occupancy-time", marks + (
            f"set title 'llc_occupancy over time: A chases {nz['size'] >> 10} KiB with mask "
            f"{nz['a']}, B is a noisy neighbour ({self.mode})'\n"
            "set xlabel 'guest time (s)'\nset ylabel 'llc_occupancy (MiB)'\n"
            f"set yrange [0:{self.cfg.size('l3') * 1.15 / 1048576:g}]\n"
            "set key bottom left box opaque\n"
            "plot 'occupancy-time.csv' using 1:($3/1048576) with linespoints pt 7 ps 0.6 title 'A (chase)', "
            "'' using 1:($4/1048576) with linespoints pt 5 ps 0.6 title 'B (stream)'\n"))
        return self.plot_result(png, why, n, nz["seconds"] * 10, "occupancy-time.csv")

    def plot_result(self, png, why, n, want, name):
        path = os.path.join(self.a.out, name)
        if n != want:
            return "FAIL", f"{path}: {n} points, the scenario asked for {want}" + \
                (f"; {why}" if why else "")
        if why:
            return "FAIL", why
        print(f"INFO plot {png}", flush=True)
        return "PASS", f"{png} ({os.path.getsize(png)} bytes) from {path} ({n} points)"

    def summary(self):
        """The curve and the partitioning effects as text (MEASURE lines)."""
        for t, kv, _ in sorted(((t, kv, x) for t, kv, x in self.single.data if t.startswith("ws-")),
                               key=lambda d: int(d[1].get("size", 0))):
            print(f"MEASURE chase {int(kv.get('size', 0)) >> 10:>6} KiB: "
                  f"{kv.get('ns_per_load')} ns per load", flush=True)
        for kv in self.single.rows("mask"):
            print(f"MEASURE chase {self.cfg.mask_ws()[0] >> 10} KiB with L3 mask {kv.get('mask')}: "
                  f"{kv.get('ns_per_load')} ns per load, llc_occupancy {kv.get('occupancy')}",
                  flush=True)
        for kv in self.mbw.rows("mbw"):
            print(f"MEASURE mbw group {kv.get('group')} MB {kv.get('mb')} %: "
                  f"{kv.get('mb_per_s')} MB/s (B = {MBW_PEAK / 1e6:g} MB/s"
                  f"{'; --mbw-off: QEMU had mpam-mbw-peak=0' if self.a.mbw_off else ''})",
                  flush=True)
        for kv in self.mbwd.rows("mbwddr"):
            print(f"MEASURE mbw-ddr group {kv.get('group')}: {kv.get('mb_per_s')} MB/s beside the "
                  f"hog ({(self.mbwd.hog or {}).get('window-bytes-per-s', 0) / 1e9:.2f} GB/s)",
                  flush=True)
        for kv in self.noisy.rows("noisy"):
            print(f"MEASURE noisy neighbour, A {kv.get('phase')}: {kv.get('ns_per_load')} ns per load, "
                  f"llc_occupancy A {kv.get('occupancy')} B {kv.get('occupancy_b')}", flush=True)

    def pairs(self, n):
        """N pairs of the single boot, one TAP line each (check_repeat): the
        determinism gap under host load (docs/timing-design.md §2.5)."""
        tap = Tap(n)
        failed = False
        for i in range(n):
            self.single, self.repeat = self.single_pair()
            self.single.run(self.a, self.cfg)
            self.repeat.run(self.a, self.cfg)
            result, detail = self.check_repeat()
            failed |= result == "FAIL"
            tap.result(f"pair-{i}", result, detail)
        return 1 if failed else 0

    def main(self):
        plan = self.plan()
        tap = Tap(len(plan))
        print(f"INFO machine {' '.join([self.cfg.machine()] + self.cfg.qemu_args())}"
              f"{' (--timing)' if self.cfg.timing else ''}; "
              f"output in {self.a.out}", flush=True)
        self.single.run(self.a, self.cfg)
        if self.cfg.timing:
            self.repeat.run(self.a, self.cfg)
        self.noisy.run(self.a, self.cfg)
        if self.cfg.timing:
            self.ddr.run(self.a, self.cfg)
            self.mbw.run(self.a, self.cfg)
            self.mbwd.run(self.a, self.cfg)
        self.summary()
        return run_checks(tap, plan)


def run_checks(tap, plan):
    """Each (name, check) of PLAN, one TAP line each; 1 if any failed.  A
    check that cannot run (an exception) fails, it never hides."""
    failed = False
    for name, check in plan:
        try:
            result, detail = check()
        except Exception as e:
            result, detail = "FAIL", f"{type(e).__name__}: {e}"
        failed |= result == "FAIL"
        tap.result(name, result, detail)
    return 1 if failed else 0


def parse_set(s):
    k, sep, v = s.partition("=")
    if not sep or k not in GEOMETRY and k not in TIMING:
        raise argparse.ArgumentTypeError(
            f"'{s}' is not OPTION=VALUE with OPTION one of {', '.join(list(GEOMETRY) + list(TIMING))}")
    try:
        return k, int(v)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{k}: '{v}' is not a whole number")


def add_boot_args(p, out, what, timeout):
    """The options Boot.run reads, for this runner and the others built on it."""
    p.add_argument("--out", default=os.path.join(CACHE, out),
                   help=f"directory for {what} (default $MEMQOS_CACHE/{out})")
    p.add_argument("--mem", default="1G", help="guest RAM (default 1G)")
    p.add_argument("--timeout", type=int, default=timeout,
                   help=f"seconds per boot (default {timeout})")
    p.add_argument("--kernel", help="kernel Image (default: memqos paths)")
    p.add_argument("--initrd", help="initramfs (default: memqos paths)")
    p.add_argument("--qemu", help="QEMU binary (default: memqos paths)")
    p.add_argument("-v", "--verbose", action="store_true", help="echo the console")


def runner_parser(doc):
    """The argument parser of a runner built on Boot (seed000.py, bwmon.py)."""
    return argparse.ArgumentParser(description=doc.strip().splitlines()[0],
                                   epilog="Builds nothing: run make qemu kernel initramfs first.")


def runner_args(p, argv, out, what, timeout):
    """add_boot_args, parse ARGV, make the output directory."""
    add_boot_args(p, out, what, timeout)
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    return a


def seed_args(doc, argv, out, short_help):
    """The arguments of a seed's runner (seed000.py, seed004.py): --short,
    make check's form (SHORT_HELP says what it changes), and the boot
    options; CSV, PNG and the console log go to OUT."""
    p = runner_parser(doc)
    p.add_argument("--short", action="store_true", help=short_help)
    return runner_args(p, argv, out, "CSV, PNG and the console log", 1800)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0],
                                epilog="Builds nothing: run make qemu kernel initramfs first. "
                                "Reports TAP on stdout; run it through "
                                "'tests/lib/tap.py run timing /dev/null -- ...' for PASS/FAIL lines.")
    p.add_argument("--no-timing", action="store_true",
                   help="plain TCG: curves and plots only, the timing checks SKIP")
    p.add_argument("--short", action="store_true",
                   help="make check's form: 1 sample per chase, mask widths 8 and 16 only, "
                   "3 s of occupancy over time (default: the full form)")
    p.add_argument("--set", metavar="OPTION=VALUE", type=parse_set, action="append", default=[],
                   help="another value of a cache geometry option (-M) or timing figure "
                   "(-global memqos-timing.*), e.g. --set timing-mem-ns=120 or --set l3-size=16777216; "
                   "the expected values follow it")
    p.add_argument("--mbw-off", action="store_true",
                   help="boot the mbw scenario with mpam-mbw-peak=0 (the regulator off): its "
                   "checks, which expect the regulation of B, must fail")
    p.add_argument("--pairs", type=int, metavar="N",
                   help="only the determinism check: N pairs of the single boot, one TAP "
                   "line each (docs/timing-design.md §2.5)")
    return runner_args(p, argv, "timing", "CSV, PNG, gnuplot scripts and console logs", 1200)


if __name__ == "__main__":
    args = parse_args(sys.argv[1:])
    runner = Runner(args, Config(not args.no_timing, args.short, dict(args.set)))
    sys.exit(runner.pairs(args.pairs) if args.pairs else runner.main())

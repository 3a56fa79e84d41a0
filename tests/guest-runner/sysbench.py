#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian's sysbench memory rows in the three BWMON configurations (issue 9 §4).

Boots bwmon-fixed (both OSM L3 providers pinned at the top row), bwmon-novote
(pinned at the lowest) and bwmon (the kernel's icc-bwmon votes), each with the
initramfs that 'guest-tests/initramfs/build.sh sysbench' builds (Debian's arm64
sysbench 1.0.20, unmodified, its libraries and loader), and runs the guest
scenario sysbench (guest-tests/scenarios-bwmon/sysbench.sh): sysbench memory per
block size, operation and access mode.  At each row the host reads both
providers' frequencies (QMP freq-hz): the votes over the run.

Writes OUT/sysbench.csv (MiB/s per row and configuration, the shape of the
seed's table), OUT/sysbench-votes.csv (the providers' frequencies after each
row) and OUT/sysbench.png (gnuplot).  Checks (docs/bwmon-model.md "sysbench"):

  - the three boots ran every row, with Debian's sysbench;
  - the pinned providers stayed at their pins;
  - blocks the private caches hold (1K, 64K) run within 10 % of each other in
    the three configurations;
  - sequential rows of 4M and above (the issue's done-when): no votes at
    least 2.4 x below fixed votes, and within the bandwidth of the vCPU's
    port to the L3 at the lowest row (PORT_BYTES per clock at 300 MHz for
    reads, half of it for writes: a fill and a write-back per line);
  - the same rows: bwmon within 10 % of fixed votes;
  - the vote trace (--trace, on the bwmon boot: a sysbench burst with the
    CPU monitor's vote and the providers' frequencies read at each sample,
    OUT/sysbench-votetrace.csv): at the lowest row before the burst, above
    it within RISE_WINDOWS sample windows of the burst's start, a step down
    within STEP_DOWN_WINDOWS of its end and the lowest row within twice
    that (the numbers come from icc-bwmon's thresholds, below).

--short is make check's form: 64K and 64M, sequential reads and writes,
512 MiB each, and the vote trace.  The full table (the issue's rows):
without --short.
"""
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402
from bwmon import CONFIGS, LUT_HZ, OSM, PORT_BYTES, BwmonBoot, run_boots, \
    variant_initrd  # noqa: E402
from tap import Tap  # noqa: E402


# The vote trace (issue 9's done-when): samples before and after the burst,
# 2 ms apart, enough for 2 x (16 + 2) windows of 4 ms (below).
IDLE_SAMPLES = 80
# icc-bwmon (guest-requirements.md §5.4): a window in zone 3 interrupts at
# its end (THRESHOLD_COUNT 1), so the vote leaves the lowest OPP after the
# window the burst starts in, the first whole window, and the one in which
# the driver's thread votes: 3 windows, +1 for the host's read after the
# guest's line.  Zone 1 needs 16 windows (THRESHOLD_COUNT 16), and the
# first of them may be the burst's partial end, so a vote steps down within
# 16 + 2 windows of the end and reaches the lowest within two steps.
RISE_WINDOWS, STEP_DOWN_WINDOWS = 3 + 1, 16 + 2


def size_bytes(s):
    return int(s[:-1]) << {"K": 10, "M": 20}[s[-1]]


class Runner:
    def __init__(self, a):
        self.a = a
        self.sizes, self.ops, self.modes = (x.split(",") for x in (a.sizes, a.ops, a.modes))
        param = f"{a.sizes}:{a.ops}:{a.modes}:{a.threads}:{a.mib}:{a.seq_mib}"
        # the vote trace: only where the driver votes
        trace = {"votetrace": f"{a.trace}:{IDLE_SAMPLES}"} if a.trace else {}
        self.boots = {c: BwmonBoot({"scenario": "sysbench", "sysbench": param,
                                    **(trace if c == "bwmon" else {})},
                                   preset=p, name=f"sysbench-{c}") for c, p in CONFIGS.items()}
        self.rows = [(s, o, m) for s in self.sizes for o in self.ops for m in self.modes]

    def tag(self, row):
        return "sysbench-" + "-".join(row)

    def mibps(self, c, row):
        try:
            return float(self.boots[c].row(self.tag(row)).get("mib_per_s"))
        except (TypeError, ValueError):
            return None

    def plan(self):
        return [("sysbench: three boots, every row", self.check_rows),
                ("sysbench: pinned providers at their pins", self.check_pins),
                ("sysbench: blocks the private caches hold run alike (10 %)", self.check_resident),
                ("sysbench: sequential rows of 4M and more, no votes >= 2.4 x below fixed and "
                 "within the port's bandwidth at 300 MHz", self.check_novote),
                ("sysbench: sequential rows of 4M and more, bwmon within 10 % of fixed",
                 self.check_bwmon),
                (f"sysbench: the vote trace, up within {RISE_WINDOWS} windows of a burst, down "
                 f"within {STEP_DOWN_WINDOWS} after it, lowest within {2 * STEP_DOWN_WINDOWS}",
                 self.check_trace),
                ("sysbench: CSV and plot", self.write_outputs)]

    def check_rows(self):
        bad = []
        for c, b in self.boots.items():
            ok, detail = b.ok()
            if not ok:
                bad.append(f"{c}: {detail}")
            v = b.row("sysbench-version").get("version")
            if v != "sysbench_1.0.20":
                bad.append(f"{c}: sysbench version {v}")
            bad += [f"{c}: no result for {self.tag(r)}" for r in self.rows
                    if self.mibps(c, r) is None]
        return ("FAIL" if bad else "PASS"), "; ".join(bad) or \
            f"{len(self.rows)} rows x {len(self.boots)} configurations, Debian's sysbench 1.0.20"

    def check_pins(self):
        want = {"fixed": LUT_HZ[-1], "novote": LUT_HZ[0]}
        got = {c: sorted({h.get(k) for h in self.boots[c].host.values() for k in OSM})
               for c in want}
        ok = all(got[c] == [want[c]] for c in want)
        return ("PASS" if ok else "FAIL"), f"freq-hz seen {got}, expected {want}"

    def check_resident(self):
        rows = [r for r in self.rows if size_bytes(r[0]) <= 64 << 10]
        bad, seen = [], []
        for r in rows:
            v = [self.mibps(c, r) for c in CONFIGS]
            if None in v:
                bad.append(f"{self.tag(r)}: missing")
                continue
            spread = max(v) / min(v) - 1
            seen.append(f"{self.tag(r)} {spread:.1%}")
            if spread > 0.10:
                bad.append(f"{self.tag(r)}: {dict(zip(CONFIGS, v))} spread {spread:.1%}")
        if not rows:
            return "SKIP", "no row of 64K or less"
        return ("FAIL" if bad else "PASS"), "; ".join(bad) or ", ".join(seen)

    def seq_rows(self):
        """The issue's done-when rows: sequential, 4M and above."""
        return [r for r in self.rows if size_bytes(r[0]) >= 4 << 20 and r[2] == "seq"]

    def check_seq_rows(self, other, judge):
        """For each of seq_rows(): JUDGE(row, fixed MiB/s, OTHER's MiB/s) gives
        (ok, what to say)."""
        rows = self.seq_rows()
        if not rows:
            return "SKIP", "no sequential row of 4M or more"
        bad, seen = [], []
        for r in rows:
            fixed, v = self.mibps("fixed", r), self.mibps(other, r)
            if not fixed or not v:
                bad.append(f"{self.tag(r)}: missing")
                continue
            ok, say = judge(r, fixed, v)
            seen.append(f"{self.tag(r)}: {say}")
            if not ok:
                bad.append(seen[-1])
        return ("FAIL" if bad else "PASS"), "; ".join(bad) or "; ".join(seen)

    def check_novote(self):
        def judge(r, fixed, novote):
            port = PORT_BYTES * LUT_HZ[0] / (2 if r[1] == "write" else 1) / 1048576
            return fixed >= 2.4 * novote and novote <= port * 1.02, \
                f"fixed {fixed}, no votes {novote} MiB/s ({fixed / novote:.2f} x; port " \
                f"{port:.0f} MiB/s)"
        return self.check_seq_rows("novote", judge)

    def check_bwmon(self):
        return self.check_seq_rows("bwmon", lambda r, fixed, bwmon: (
            abs(bwmon / fixed - 1) <= 0.10,
            f"bwmon {bwmon}, fixed {fixed} MiB/s ({bwmon / fixed - 1:+.1%})"))

    def trace(self):
        """The bwmon boot's vote trace: (sample, phase, guest's CPU vote,
        CPU monitor's closed windows, CPU path's and memory path's freq-hz)."""
        b = self.boots["bwmon"]
        out = []
        for tag, kv, _ in b.data:
            if tag.startswith("votetrace-"):
                h = b.host.get(tag, {})
                out.append((int(tag.split("-")[1]), kv.get("phase"), kv.get("vote_cpu"),
                            h.get("cpu-windows"), h.get("cpu"), h.get("mem")))
        return out

    def check_trace(self):
        if not self.a.trace:
            return "SKIP", "no --trace"
        t = self.trace()
        burst = [s for s in t if s[1] == "burst"]
        after = [s for s in t if s[1] == "after"]
        if not t or not burst or not after or any(s[3] is None or s[4] is None for s in t):
            return "FAIL", f"{len(t)} samples ({len(burst)} in the burst, {len(after)} after)"
        w0, f0 = burst[0][3], [s for s in t if s[1] == "before"][-1][4]
        up = next((s for s in burst + after if s[4] > LUT_HZ[0]), None)
        w_end, f_end = after[0][3], after[0][4]
        down = next((s for s in after if s[4] < f_end), None)
        low = next((s for s in after if s[4] == LUT_HZ[0]), None)
        detail = (f"before the burst {f0 / 1e6:.1f} MHz; burst from window {w0}, up to "
                  f"{max(s[4] for s in burst) / 1e6:.1f} MHz, first above the lowest row at "
                  f"window {up and up[3]}; ended at window {w_end} at {f_end / 1e6:.1f} MHz, "
                  f"first step down at {down and down[3]}, lowest at {low and low[3]} "
                  f"({len(t)} samples)")
        ok = f0 == LUT_HZ[0] and up and up[3] - w0 <= RISE_WINDOWS and \
            down and down[3] - w_end <= STEP_DOWN_WINDOWS and \
            low and low[3] - w_end <= 2 * STEP_DOWN_WINDOWS
        return ("PASS" if ok else "FAIL"), detail

    def write_outputs(self):
        out = self.a.out
        n = timing.write_csv(os.path.join(out, "sysbench.csv"),
                             ("block", "oper", "mode") + tuple(f"{c}_mib_per_s" for c in CONFIGS),
                             [r + tuple(self.mibps(c, r) for c in CONFIGS) for r in self.rows])
        timing.write_csv(os.path.join(out, "sysbench-votes.csv"),
                         ("config", "after_row", "host_s", "cpu_path_hz", "mem_path_hz"),
                         [(c, t, f"{w:.1f}", b.host.get(t, {}).get("cpu"),
                           b.host.get(t, {}).get("mem"))
                          for c, b in self.boots.items()
                          for (t, _, _), w in zip(b.data, b.when)])
        timing.write_csv(os.path.join(out, "sysbench-votetrace.csv"),
                         ("sample", "phase", "guest_vote_cpu_kbps", "cpu_windows", "cpu_path_hz",
                          "mem_path_hz"), self.trace())
        png, why = timing.gnuplot(out, "sysbench", (
            f"set title 'sysbench memory (Debian arm64 1.0.20, {self.a.threads} thread(s)) on the "
            "bwmon platform: fixed votes, no votes, bwmon'\n"
            "set style data histogram\nset style histogram clustered gap 1\n"
            "set style fill solid 0.8 border -1\nset boxwidth 0.9\nset logscale y\n"
            "set ylabel 'MiB/s (log)'\nset xtics rotate by -45 scale 0\n"
            "set key outside top center horizontal\n"
            "set yrange [10:*]\n"
            "plot 'sysbench.csv' using 4:xtic(sprintf('%s %s %s', "
            "strcol(1), strcol(2), strcol(3))) title 'fixed (top OPP)', "
            "'' using 5 title 'no votes (lowest OPP)', '' using 6 title 'bwmon (icc-bwmon votes)'\n"))
        return self.plot_result(png, why, n, "sysbench.csv")

    def plot_result(self, png, why, n, name):
        path = os.path.join(self.a.out, name)
        if n != len(self.rows):
            return "FAIL", f"{path}: {n} rows, expected {len(self.rows)}"
        if why:
            return "FAIL", why
        print(f"INFO plot {png}", flush=True)
        return "PASS", f"{png} ({os.path.getsize(png)} bytes) from {path} ({n} rows)"

    def main(self):
        plan = self.plan()
        tap = Tap(len(plan))
        print(f"INFO sysbench rows {self.a.sizes} x {self.a.ops} x {self.a.modes}, "
              f"{self.a.threads} thread(s), {self.a.mib} MiB; output in {self.a.out}", flush=True)
        initrd = variant_initrd("sysbench")
        if self.a.parallel:
            with concurrent.futures.ThreadPoolExecutor(len(self.boots)) as ex:
                list(ex.map(lambda b: run_boots(self.a, [b], initrd), self.boots.values()))
        else:
            run_boots(self.a, self.boots.values(), initrd)
        return timing.run_checks(tap, plan)


def parse_args(argv):
    p = timing.runner_parser(__doc__)
    p.add_argument("--short", action="store_true",
                   help="make check's form: 64K,64M sequential reads and writes, 512 MiB each")
    p.add_argument("--sizes", default="1K,64K,4M,64M,256M", help="block sizes (the issue's)")
    p.add_argument("--ops", default="read,write", help="--memory-oper values")
    p.add_argument("--modes", default="seq,rnd", help="--memory-access-mode values")
    p.add_argument("--threads", type=int, default=1, help="sysbench --threads (default 1)")
    p.add_argument("--trace", default="4M:read:1024",
                   help="the vote trace on the bwmon boot: SIZE:OP:MIB of the burst (sysbench "
                   "memory seq; default 4M:read:1024); '' for none")
    p.add_argument("--mib", type=int, default=256,
                   help="--memory-total-size in MiB of the random rows (at least the block; "
                   "default 256: slow to emulate)")
    # The seed's sysbench ran each row for seconds (--time=10); a sequential
    # row of 1 GiB past the L2 lasts 75-400 ms of modeled time, against the
    # 8-16 ms the driver's climb from the lowest OPP takes
    # (docs/bwmon-model.md).  The rows the caches hold do not vote.
    p.add_argument("--seq-mib", type=int, default=1024,
                   help="--memory-total-size in MiB of the sequential rows of 4M and more "
                   "(default 1024)")
    p.add_argument("--parallel", action="store_true",
                   help="boot the three configurations at once (each is deterministic alone)")
    a = timing.runner_args(p, argv, "sysbench-check", "CSV, PNG and console logs", 3600)
    if a.short:
        a.sizes, a.ops, a.modes, a.mib, a.seq_mib, a.trace = \
            "64K,64M", "read,write", "seq", 512, 512, "4M:read:512"
    return a


if __name__ == "__main__":
    sys.exit(Runner(parse_args(sys.argv[1:])).main())

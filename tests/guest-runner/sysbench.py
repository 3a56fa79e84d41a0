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
  - sequential reads past the L3 (64M and above) are slower with no votes than
    with fixed votes, by what the frequencies give: fixed's time per 64-byte
    line plus 63.3 ns (16 L3 clocks at 300 MHz instead of 1593.6 MHz, 16
    memory-path clocks at 300 MHz instead of 480 MHz), within 10 %.

--short is make check's form: 64K and 64M, sequential reads, 64 MiB each.
The full table (the issue's rows): without --short.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing  # noqa: E402
from bwmon import CONFIGS, LUT_HZ, OSM, BwmonBoot, mem_line_extra_s, run_boots, \
    variant_initrd  # noqa: E402
from tap import Tap  # noqa: E402


def size_bytes(s):
    return int(s[:-1]) << {"K": 10, "M": 20}[s[-1]]


class Runner:
    def __init__(self, a):
        self.a = a
        self.sizes, self.ops, self.modes = (x.split(",") for x in (a.sizes, a.ops, a.modes))
        param = f"{a.sizes}:{a.ops}:{a.modes}:{a.threads}:{a.mib}"
        self.boots = {c: BwmonBoot({"scenario": "sysbench", "sysbench": param}, preset=p,
                                   name=f"sysbench-{c}") for c, p in CONFIGS.items()}
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
                ("sysbench: sequential reads past the L3, no votes slower as the frequencies give",
                 self.check_novote),
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

    def check_novote(self):
        rows = [r for r in self.rows if size_bytes(r[0]) >= 64 << 20 and r[1:] == ("read", "seq")]
        if not rows:
            return "SKIP", "no sequential read row of 64M or more"
        bad, seen = [], []
        extra = mem_line_extra_s(LUT_HZ[0], LUT_HZ[0])
        for r in rows:
            fixed, novote = self.mibps("fixed", r), self.mibps("novote", r)
            if not fixed or not novote:
                bad.append(f"{self.tag(r)}: missing")
                continue
            want = 64 / (64 / (fixed * 1048576) + extra) / 1048576
            seen.append(f"{self.tag(r)}: fixed {fixed}, no votes {novote} MiB/s (expected "
                        f"{want:.1f}), bwmon {self.mibps('bwmon', r)}")
            if abs(novote / want - 1) > 0.10:
                bad.append(seen[-1])
        return ("FAIL" if bad else "PASS"), "; ".join(bad) or "; ".join(seen)

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
        run_boots(self.a, self.boots.values(), variant_initrd("sysbench"))
        return timing.run_checks(tap, plan)


def parse_args(argv):
    p = timing.runner_parser(__doc__)
    p.add_argument("--short", action="store_true",
                   help="make check's form: 64K,64M sequential reads, 64 MiB each")
    p.add_argument("--sizes", default="1K,64K,4M,64M,256M", help="block sizes (the issue's)")
    p.add_argument("--ops", default="read,write", help="--memory-oper values")
    p.add_argument("--modes", default="seq,rnd", help="--memory-access-mode values")
    p.add_argument("--threads", type=int, default=1, help="sysbench --threads (default 1)")
    p.add_argument("--mib", type=int, default=256,
                   help="--memory-total-size in MiB (at least the block; default 256)")
    a = timing.runner_args(p, argv, "sysbench-check", "CSV, PNG and console logs", 3600)
    if a.short:
        a.sizes, a.ops, a.modes, a.mib = "64K,64M", "read", "seq", 64
    return a


if __name__ == "__main__":
    sys.exit(Runner(parse_args(sys.argv[1:])).main())

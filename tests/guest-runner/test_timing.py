#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the timing scenario runner's plan: what it asks the guest to
run and what it expects, from the machine options (no QEMU needed).

    python3 -m unittest discover -s tests/guest-runner -p test_timing.py -v
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing as t  # noqa: E402

K, M = 1 << 10, 1 << 20


class Plan(unittest.TestCase):
    def setUp(self):
        self.c = t.Config(True, False, {})

    def test_colours_from_geometry(self):
        # sets * 64 / 4096: 64K 4-way, 1M 8-way, 8M 16-way
        self.assertEqual([self.c.colors(lv) for lv in ("l1d", "l2", "l3")], [4, 32, 128])
        self.assertEqual(t.Config(True, False, {"l3-ways": 8}).colors("l3"), 256)

    def test_latencies_from_cycles_and_frequency(self):
        self.assertEqual(self.c.latency_ns(), {"L1": 1.6, "L2": 4.4, "L3": 35.2, "mem": 90.0})
        c = t.Config(True, False, {"timing-mhz": 2000, "timing-mem-ns": 120})
        self.assertEqual(c.latency_ns(), {"L1": 2.0, "L2": 5.5, "L3": 44.0, "mem": 120.0})

    def test_steps_half_of_each_level_and_four_l3(self):
        self.assertEqual(self.c.steps(), [("step-L1", 32 * K, 4, "L1"), ("step-L2", 512 * K, 32, "L2"),
                                          ("step-L3", 4 * M, 128, "L3"), ("step-mem", 32 * M, 128, "mem")])

    def test_curve_spans_l1_half_to_four_l3_coloured(self):
        cv = self.c.curve()
        self.assertEqual(len(cv), 12)
        self.assertEqual((cv[0][1], cv[-1][1]), (32 * K, 32 * M))
        for tag, size, colors in cv:
            self.assertEqual(size % (4096 * colors), 0, tag)
        self.assertEqual([s for _, s, _ in cv], sorted(s for _, s, _ in cv))

    def test_mask_half_misses_full_hits(self):
        # 3/4 L3 coloured: 12 lines per set; 8 allowed ways miss, 16 hit.
        self.assertEqual(self.c.mask_ws(), (6 * M, 128))
        self.assertEqual(self.c.mask_expect(8), ("mem", 4 * M))
        self.assertEqual(self.c.mask_expect(11), ("mem", 6 * M * 11 // 12))
        self.assertEqual(self.c.mask_expect(12), ("L3", 6 * M))
        self.assertEqual(self.c.mask_expect(16), ("L3", 6 * M))
        self.assertEqual(t.Config.mask(0, 8), "00ff")
        self.assertEqual(t.Config.mask(8, 8), "ff00")

    def test_occupancy_ascending_around_the_share(self):
        self.assertEqual(self.c.footprint_ws(), (4 * K, 1))
        self.assertEqual(self.c.occupancy_ws(), [(1 * M, 128), (2 * M, 128), (4 * M, 128)])
        self.assertEqual(self.c.share(4), 2 * M)

    def test_short_form_widths(self):
        self.assertEqual(t.Config(True, True, {}).widths(), [8, 16])
        self.assertEqual(self.c.widths(), list(range(1, 17)))

    def test_machine_options(self):
        self.assertIn(",l2-size=1048576", self.c.machine())
        self.assertIn("memqos-timing.timing-mem-ns=90", self.c.qemu_args())
        self.assertIn("memqos-timing.timing-cpi-milli=1000", self.c.qemu_args())
        self.assertEqual(self.c.qemu_args()[0::2], ["-global"] * len(t.TIMING))
        plain = t.Config(False, False, {"l2-size": 512 << 10, "timing-mem-ns": 100})
        self.assertEqual(plain.machine(), t.BASE_MACHINE + ",l2-size=524288,l3-size=8388608,l3-ways=16")
        self.assertEqual(plain.qemu_args(), [])

    def test_params_fit_the_kernel_command_line(self):
        line = " ".join(f"memqos.{k}={v}" for k, v in self.c.single_params().items())
        self.assertLess(len(line), 1500)        # arm64 COMMAND_LINE_SIZE is 2048

    def test_parse_line(self):
        self.assertEqual(t.parse_line("[  1.2] x MEMQOS-DATA step-L1 size=32768 ns_per_load=1.600\r\n"),
                         ("step-L1", {"size": "32768", "ns_per_load": "1.600"},
                          "MEMQOS-DATA step-L1 size=32768 ns_per_load=1.600"))
        self.assertEqual(t.parse_line("MEMQOS-DONE passed=0 failed=0 skipped=0"), "DONE")
        self.assertIsNone(t.parse_line("MEMQOS-DATA"))
        self.assertIsNone(t.parse_line("MEMQOS-TEST x PASS"))

    def test_ddr_latency_from_the_model_table(self):
        # L0 = 35.2 + DDR5-4800B closed bank (20 + 16.25 + 16.667 + 3.333), stretched
        # by the refresh window lost once per tREFI: L0 * 3900 / (3900 - 295 + L0 / 2)
        l0 = 35.2 + 56.25
        self.assertAlmostEqual(self.c.ddr_latency_ns(), l0 * 3900 / (3900 - 295 + l0 / 2), places=3)
        self.assertEqual(self.c.ddr_params()["chase"], "step-mem:33554432:128")

    def test_near(self):
        self.assertTrue(t.near(94.4, 90, 0.05)[0])
        self.assertFalse(t.near(94.6, 90, 0.05)[0])
        self.assertFalse(t.near(None, 90, 0.05)[0])



# HMP info jit after a timing boot: the largest TB at the cap, 128 A64 instructions
JIT = ("Translation buffer state:\ngen code size       123/456\nTB count            9000\n"
       "TB avg target size  40 max=512 bytes\n")


def fake_runner(wrong=None):
    """A timing-mode Runner whose boots hold what a correct model would
    report for the default configuration; WRONG replaces single values:
    {(tag, key): value}."""
    wrong = wrong or {}
    c = t.Config(True, True, {})
    r = t.Runner(type("A", (), {"out": "/nonexistent", "mbw_off": False})(), c)
    lat = c.latency_ns()

    def add(boot, tag, **kv):
        kv = " ".join(f"{k}={wrong.get((tag, k), v)}" for k, v in kv.items())
        boot.data.append(t.parse_line(f"MEMQOS-DATA {tag} {kv}"))
    for b in (r.single, r.repeat):
        for tag, size, colors, level in c.steps():
            add(b, tag, size=size, colors=colors, ns_per_load=lat[level])
        for w in c.widths():
            level, occ = c.mask_expect(w)
            add(b, "mask", mask=t.Config.mask(0, w), size=c.mask_ws()[0], ns_per_load=lat[level],
                occupancy=occ)
        own = 8192      # the program's own lines: what the one-page chase holds beyond its page
        page = c.footprint_ws()[0]
        add(b, "occupancy", size=page, ns_per_load=lat["L1"], occupancy=page + own)
        for size, _ in c.occupancy_ws():
            add(b, "occupancy", size=size, ns_per_load=lat["L3"], occupancy=min(size + own, c.share(4)))
        size, passes = c.stream()
        add(b, "stream", bytes=size * passes, mbm_delta=size * passes + 4096, passes=passes)
        add(b, "copy", bytes=c.copy(), mbm_delta=2 * c.copy())
        for copy in ("mops", "loop"):       # the destination in L2 after either copy
            add(b, "alias", size=c.alias(), copy=copy, ns_per_load=lat["L2"])
        b.done, b.rc, b.timing = True, 0, {"latency-ns": {"l1": 1.6, "l2": 4.4, "l3": 35.2, "mem": 90.0}}
        b.jit = JIT
    n = c.noisy()
    for phase in ("alone", "neighbour"):
        add(r.noisy, "noisy", phase=phase, size=n["size"], ns_per_load=lat["L3"],
            occupancy=n["size"], occupancy_b=1 << 20)
    r.noisy.done, r.noisy.rc = True, 0
    _, size, colors, _ = c.steps()[-1]
    add(r.ddr, "step-mem", size=size, colors=colors, ns_per_load=c.ddr_latency_ns())
    r.ddr.done, r.ddr.rc = True, 0
    # the mbw boot: each stream at its share of B (MB 100 %: all of it); the
    # last MB value (25 %, 0x3f00) is PARTID 1's
    for group, pc in [("a", pc) for pc in t.MBW_PERCENTS] + [("min", 100), ("nomin", 100)]:
        lo, hi = c.mbw_expect(group, pc)
        add(r.mbw, "mbw", group=group, mb=pc, mb_per_s=(lo + hi) / 2e6)
    r.mbw.mpam_info = {"msc": [{"name": "mem", "ris": [{"partids": [
        {"partid": 1, "controls": [{"name": "MPAMCFG_MBW_MAX", "value": "3f00"}]}]}]}]}
    r.mbw.done, r.mbw.rc = True, 0
    # the mbw-ddr boot: the minimum group a little above MBW_MIN, the other
    # at half of it
    add(r.mbwd, "mbwddr", group="min", mb_per_s=c.mbwd_min_bps() * 1.02 / 1e6)
    add(r.mbwd, "mbwddr", group="nomin", mb_per_s=c.mbwd_min_bps() / 2e6)
    r.mbwd.done, r.mbwd.rc = True, 0
    return r


class Checks(unittest.TestCase):
    """The timing-mode checks against synthetic measurements (plots left out)."""

    def results(self, wrong=None):
        r = fake_runner(wrong)
        return {name: fn()[0] for name, fn in r.plan() if not name.startswith("plot-")}

    def test_a_correct_model_passes_everything(self):
        self.assertEqual({k for k, v in self.results().items() if v != "PASS"}, set())

    def failing(self, wrong):
        return {k for k, v in self.results(wrong).items() if v == "FAIL"}

    def test_each_effect_switched_off_fails_its_check(self):
        # no memory stall: the 4 L3 step runs at L3 latency
        self.assertEqual(self.failing({("step-mem", "ns_per_load"): 35.2}),
                         {"step-mem", "ddr-step-mem"})
        # ddr=on still charging timing-mem-ns, or the refresh not modeled
        r = fake_runner()
        r.ddr.data[0][1]["ns_per_load"] = "90"
        self.assertEqual(r.check_ddr()[0], "FAIL")
        r.ddr.data[0][1]["ns_per_load"] = str(35.2 + 56.25)
        self.assertEqual(r.check_ddr()[0], "FAIL")
        # 4.9 % off passes, 5.1 % fails
        self.assertEqual(self.failing({("step-L1", "ns_per_load"): 1.6 * 1.049}), set())
        self.assertEqual(self.failing({("step-L1", "ns_per_load"): 1.6 * 1.051}), {"step-L1"})
        # masks ignored: the half mask hits in L3 like the full one
        self.assertIn("mask-half", self.failing({("mask", "ns_per_load"): 35.2}))
        # monitors not fed
        self.assertTrue({"occupancy-1024K", "occupancy-2048K", "occupancy-4096K"} <=
                        self.failing({("occupancy", "occupancy"): 0}))
        self.assertEqual(self.failing({("stream", "mbm_delta"): 0}), {"mbm-total-bytes"})
        # the kernel's copies unseen (no patch 0022): only dd's own few lines
        self.assertEqual(self.failing({("copy", "mbm_delta"): 1 << 20}), {"mbm-kernel-copy"})
        self.assertEqual(self.failing({("stream", "mbm_delta"): int(1 << 28) * 102 // 100}),
                         {"mbm-total-bytes"})
        # a MOPS copy step between pages sharing a main-TLB entry dropping its
        # writes (patch 0020 without the victim-TLB lookup): the chase after
        # it runs at memory latency, after the loop copy at L2's
        r = fake_runner()
        for _, kv, _ in r.single.data:
            if kv.get("copy") == "mops":
                kv["ns_per_load"] = "90.196"
        self.assertEqual(r.check_alias()[0], "FAIL")

    def test_regulator_off_fails_the_mbw_checks(self):
        # mpam-mbw-peak=0: every stream at the unregulated 576 MB/s; both
        # mbw-ddr streams at the starved rate
        r = fake_runner()
        for _, kv, _ in r.mbw.data:
            kv["mb_per_s"] = "576.0"
        for _, kv, _ in r.mbwd.data:
            kv["mb_per_s"] = str(r.cfg.mbwd_min_bps() / 2e6)
        got = {name: fn()[0] for name, fn in r.plan() if name.startswith("mbw-")}
        self.assertEqual({k for k, v in got.items() if v == "FAIL"},
                         {"mbw-mb-100", "mbw-mb-75", "mbw-mb-50", "mbw-mb-25", "mbw-min",
                          "mbw-prop-share", "mbw-min-ddr"})
        # the hog not saturating: the group without a minimum gets it anyway
        r = fake_runner()
        r.mbwd.data[1][1]["mb_per_s"] = str(r.cfg.mbwd_min_bps() / 1e6)
        self.assertEqual(r.check_mbwd("nomin")[0], "FAIL")
        # MBW_MIN ignored: the group gets PROP's eighth
        r = fake_runner()
        row = next(kv for _, kv, _ in r.mbw.data if kv["group"] == "min")
        row["mb_per_s"] = str(t.MBW_PEAK / 8 / 1e6)
        self.assertEqual(r.check_mbw("min", 100)[0], "FAIL")
        # MB 100 % held at 75 %, or the streaming group not PARTID 1
        r = fake_runner()
        r.mbw.data[0][1]["mb_per_s"] = str(0.75 * t.MBW_PEAK / 1e6)
        self.assertEqual(r.check_mbw("a", 100)[0], "FAIL")
        r.mbw.mpam_info["msc"][0]["ris"][0]["partids"][0]["partid"] = 2
        self.assertEqual(r.check_mbw_partid()[0], "FAIL")

    def test_noisy_neighbour_that_never_ran_or_disturbs_fails(self):
        r = fake_runner()
        r.noisy.data[1][1]["occupancy_b"] = "0"
        self.assertEqual(r.check_noisy("occupancy")[0], "FAIL")
        r = fake_runner()
        r.noisy.data[1][1]["ns_per_load"] = str(35.2 * 1.02)
        self.assertEqual(r.check_noisy("ns_per_load")[0], "FAIL")

    def test_runs_that_differ_fail_determinism(self):
        r = fake_runner()
        r.repeat.data[0] = (r.repeat.data[0][0], r.repeat.data[0][1], r.repeat.data[0][2] + "1")
        self.assertEqual(r.check_repeat()[0], "FAIL")
        r = fake_runner()
        r.repeat.timing = {"latency-ns": {}, "cpus": []}
        self.assertEqual(r.check_repeat()[0], "FAIL")

    def test_a_tb_longer_than_the_cap_fails(self):
        # stock QEMU's TBs reach 512 instructions; patch 0024 caps them at 128
        r = fake_runner()
        r.single.jit = JIT.replace("max=512", "max=1800")
        self.assertEqual(r.check_tb_length()[0], "FAIL")
        r.single.jit = "Translation buffer state:\n"
        self.assertEqual(r.check_tb_length()[0], "FAIL")

    def test_without_timing_the_checks_skip(self):
        r = fake_runner()
        r.cfg.timing = False
        got = {name: fn()[0] for name, fn in r.plan() if not name.startswith(("plot-", "boot-s", "boot-n"))}
        self.assertEqual(set(got.values()), {"SKIP"})


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of timing_migrate.py's stream surgery and comparisons, on a
synthetic memqos-timing section laid out as hw/memsys/timing-qemu.c saves
it (no QEMU needed).

    python3 -m unittest discover -s tests/guest-runner -p test_timing_migrate.py -v
"""
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timing_migrate as tm  # noqa: E402
from timing import Config  # noqa: E402


def section(cfg, reads=12345, local=1 << 30, valid_set=3):
    """A stream: noise, the memqos-timing-config section, the memqos-timing
    section (1 vCPU), noise."""
    o = cfg.opt
    conf = "".join(f"{k}={o[k]};" for k in ("timing-cpi-milli", "timing-l1-cycles",
                                           "timing-l2-cycles", "timing-l3-cycles",
                                           "timing-mem-ns", "timing-mhz")).encode() + b"\0"
    out = b"\x00junk" + bytes([20]) + b"memqos-timing-config" + struct.pack(">III", 0, 1, len(conf))
    out += conf + bytes([4]) + struct.pack(">I", 7) + bytes([13]) + b"memqos-timing"
    out += struct.pack(">II", 0, 2)
    out += struct.pack(">I", 1)                                     # n_cpus
    out += struct.pack(">Q", 5)                                     # rem_fs
    for level in ("l1d", "l1i", "l2"):
        n, stride, wp = tm.cache_words(cfg, level)
        words = [0] * n
        if level == "l1d":
            words[0] = 9                                            # clock
            words[1 + valid_set * stride] = 0x80000001              # way 0 valid
        out += struct.pack(">I", n) + struct.pack(f">{n}I", *words)
    out += struct.pack(">8Q", reads, 6, 7, 100, 2, 3, 4, 999)         # stats
    out += struct.pack(">q", local) + b"\x7e trailer"
    return out


class Stream(unittest.TestCase):
    def setUp(self):
        self.cfg = Config(True, True, {})
        self.saved = {"query-memqos-timing": {"cpus": [{"reads": 12345}]}}

    def test_words_follow_the_geometry(self):
        # 64K 4-way: 256 sets of 4 x 4 + 1 words; 1M 8-way: 2048 sets of 4 x 8 + 1
        self.assertEqual(tm.cache_words(self.cfg, "l1d"), (1 + 256 * 17, 17, 4))
        self.assertEqual(tm.cache_words(self.cfg, "l2"), (1 + 2048 * 33, 33, 8))

    def test_corrupt_flips_exactly_three_values(self):
        data = section(self.cfg)
        bad, what = tm.corrupt(data, self.cfg, self.saved)
        self.assertEqual(len(bad), len(data))
        at = tm.timing_section(data, self.cfg)
        self.assertEqual(struct.unpack_from(">Q", bad, at["stats"])[0], 12344)
        self.assertEqual(struct.unpack_from(">q", bad, at["local"])[0], (1 << 30) ^ (1 << tm.FLIP_CLOCK_BIT))
        n, stride, wp = tm.cache_words(self.cfg, "l1d")
        dirty = at["l1d"] + 4 * (1 + 3 * stride + 4 * wp)
        self.assertEqual(struct.unpack_from(">I", bad, dirty)[0], 1)
        changed = [i for i in range(len(data)) if data[i] != bad[i]]
        self.assertEqual(len(changed), 3, what)

    def test_another_configuration_is_refused(self):
        data = section(Config(True, True, {"timing-mem-ns": 120}))
        with self.assertRaises(ValueError):
            tm.corrupt(data, self.cfg, self.saved)
        with self.assertRaises(ValueError):
            tm.corrupt(section(self.cfg, reads=1), self.cfg, self.saved)

    def test_settled_drops_only_the_clock(self):
        snap = {"query-memqos-timing": {"cpus": [{"time-ns": 5, "reads": 1}]}, "l3-cache-checksum": 2}
        self.assertEqual(tm.settled(snap), {"query-memqos-timing": {"cpus": [{"reads": 1}]},
                                            "l3-cache-checksum": 2})
        self.assertIn("time-ns", snap["query-memqos-timing"]["cpus"][0])

    def test_first_difference_aligns_on_the_first_line(self):
        s = ["A now", "B k=1 x", "B k=2 y", "end"]
        self.assertEqual(tm.first_difference(s, s[1:]), "all 3 guest lines identical")
        self.assertIn("1 of 3 guest lines identical", tm.first_difference(s, ["B k=1 x", "B k=2 z", "end"]))


if __name__ == "__main__":
    unittest.main()

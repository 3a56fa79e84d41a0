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


def reset_links(ways):
    """A reset set's recency order (hw/memsys/setassoc.c setassoc_reset):
    node x's next link[2x] = x - 1, prev link[2x + 1] = x + 1 (mod ways + 1),
    the head node ways, so from the LRU end way 0, 1, ..., ways - 1."""
    n = ways + 1
    links = [0] * (2 * n)
    for x in range(n):
        links[2 * x], links[2 * x + 1] = (x + n - 1) % n, (x + 1) % n
    return links


def make_mru(links, ways, w):
    """Way W to the head's MRU side (setassoc.c make_mru)."""
    p, n = links[2 * w + 1], links[2 * w]
    links[2 * p], links[2 * n + 1] = n, p
    n = links[2 * ways]
    links[2 * ways], links[2 * w + 1], links[2 * w], links[2 * n + 1] = w, ways, n, w


def order_fault(lo, links, ways):
    """setassoc.c check_order: None if LINKS is one list through every way
    and the head with the invalid ways (LO 0) at its LRU end by number."""
    head = ways
    for y in range(head + 1):
        if links[2 * y] > head or links[2 * y + 1] > head or links[2 * links[2 * y] + 1] != y:
            return "broken recency order"
    x, n = head, 0
    while True:
        x, n = links[2 * x], n + 1
        if x == head or n > head:
            break
    if n != head + 1:
        return "recency order not one list of every way"
    valid_seen, last_invalid, x = False, -1, links[2 * head + 1]
    while x != head:
        if lo[x]:
            valid_seen = True
        elif valid_seen or x < last_invalid:
            return "invalid way out of order"
        else:
            last_invalid = x
        x = links[2 * x + 1]
    return None


def cache_state(cfg, level, valid_set=None):
    """A reachable state of LEVEL (setassoc.h "Layout"): every set reset,
    but way 0 of VALID_SET holding a clean line (lo 0x80000001), its MRU."""
    n, stride, dirty_off = tm.cache_words(cfg, level)
    ways = cfg.opt[f"{level}-ways"]
    words = []
    for s in range(cfg.sets(level)):
        st = [0] * stride
        links = reset_links(ways)
        if s == valid_set:
            st[0] = 0x80000001
            make_mru(links, ways, 0)
        st[dirty_off - len(links):dirty_off] = links
        words += st
    assert len(words) == n
    return words


def section(cfg, reads=12345, local=1 << 30, valid_set=3, version=tm.TIMING_VMSTATE_VERSION):
    """A stream: noise, the memqos-timing-config section, the memqos-timing
    section (1 vCPU), noise."""
    o = cfg.opt
    conf = "".join(f"{k}={o[k]};" for k in ("timing-cpi-milli", "timing-l1-cycles",
                                           "timing-l2-cycles", "timing-l3-cycles",
                                           "timing-mem-ns", "timing-mhz")).encode() + b"\0"
    out = b"\x00junk" + bytes([20]) + b"memqos-timing-config" + struct.pack(">III", 0, 1, len(conf))
    out += conf + bytes([4]) + struct.pack(">I", 7) + bytes([13]) + b"memqos-timing"
    out += struct.pack(">II", 0, version)                            # instance, version id
    out += struct.pack(">I", 1)                                     # n_cpus
    out += struct.pack(">Q", 5)                                     # rem_fs
    for level in ("l1d", "l1i", "l2"):
        words = cache_state(cfg, level, valid_set if level == "l1d" else None)
        out += struct.pack(">I", len(words)) + struct.pack(f">{len(words)}I", *words)
    out += struct.pack(">8Q", reads, 6, 7, 100, 2, 3, 4, 999)         # stats
    out += struct.pack(">q", local) + b"\x7e trailer"
    return out


class Stream(unittest.TestCase):
    def setUp(self):
        self.cfg = Config(True, True, {})
        self.saved = {"query-memqos-timing": {"cpus": [{"reads": 12345}]}}

    def test_words_follow_the_geometry(self):
        # setassoc.h: no clock word; a set is lo, hi, owner (ways rounded
        # up to 4), link[2 * (ways + 1)], dirty[ceil(ways / 32)].
        # 64K 4-way: 256 sets of 3 x 4 + 10 + 1; 1M 8-way: 2048 sets of 3 x 8 + 18 + 1
        self.assertEqual(tm.cache_words(self.cfg, "l1d"), (256 * 23, 23, 22))
        self.assertEqual(tm.cache_words(self.cfg, "l2"), (2048 * 43, 43, 42))
        # 3 ways pad to 4; 33 ways: 36 padded, 2 dirty words
        cfg = Config(True, True, {"l1d-ways": 3, "l2-ways": 33})
        self.assertEqual(tm.cache_words(cfg, "l1d")[1:], (3 * 4 + 8 + 1, 3 * 4 + 8))
        self.assertEqual(tm.cache_words(cfg, "l2")[1:], (3 * 36 + 68 + 2, 3 * 36 + 68))

    def test_synthetic_state_is_reachable(self):
        ways = self.cfg.opt["l1d-ways"]
        links = reset_links(ways)
        self.assertIsNone(order_fault([0] * ways, links, ways))
        make_mru(links, ways, 0)
        self.assertIsNone(order_fault([1] + [0] * (ways - 1), links, ways))
        # way 0 valid but left at the LRU end behind invalid ways: refused
        self.assertIsNotNone(order_fault([1] + [0] * (ways - 1), reset_links(ways), ways))

    def test_corrupt_flips_exactly_three_values(self):
        data = section(self.cfg)
        bad, what = tm.corrupt(data, self.cfg, self.saved)
        self.assertEqual(len(bad), len(data))
        at = tm.timing_section(data, self.cfg)
        self.assertEqual(struct.unpack_from(">Q", bad, at["stats"])[0], 12344)
        self.assertEqual(struct.unpack_from(">q", bad, at["local"])[0], (1 << 30) ^ (1 << tm.FLIP_CLOCK_BIT))
        n, stride, dirty_off = tm.cache_words(self.cfg, "l1d")
        dirty = at["l1d"] + 4 * (3 * stride + dirty_off)
        self.assertEqual(struct.unpack_from(">I", bad, dirty)[0], 1)
        changed = [i for i in range(len(data)) if data[i] != bad[i]]
        self.assertEqual(len(changed), 3, what)
        # the flipped set: way 0 still valid, its order still one accepted list
        ways = self.cfg.opt["l1d-ways"]
        st = struct.unpack_from(f">{stride}I", bad, at["l1d"] + 4 * 3 * stride)
        self.assertTrue(st[0] & 0x80000000)
        self.assertIsNone(order_fault(st[:ways], list(st[dirty_off - 2 * (ways + 1):dirty_off]), ways))

    def test_the_old_layout_is_refused(self):
        # version 2 saved the stamp layout (a clock word, stamps): not parsed
        with self.assertRaises(ValueError):
            tm.timing_section(section(self.cfg, version=2), self.cfg)

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

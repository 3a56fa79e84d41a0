#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the guest harness's parsing and MSC checks (no QEMU needed).

    python3 -m unittest discover -s tests/guest-runner -v
"""
import base64
import contextlib
import hashlib
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness as h  # noqa: E402


def reg(name, value):
    return {"name": name, "offset": 0, "size": 4, "value": f"{value:x}"}


def query(l3_cpbm=None, mbw=None, cpus=None, bwa_wd=8, cpbm_wd=16):
    """A query-mpam answer (CONTRACTS.md schema) with an L3 MSC (CPBM_WD
    cpbm_wd) and a memory MSC (BWA_WD bwa_wd; None leaves a field out)."""
    l3 = {p: 0xffff for p in range(4)}
    l3.update(l3_cpbm or {})
    mem = {p: 0xffff for p in range(4)}
    mem.update(mbw or {})
    l3_ris = {"ris": 0, "kind": "cache", "partid-max": 63, "pmg-max": 1,
              "partids": [{"partid": p, "intpartid": p, "csu-bytes": 4096 * p,
                           "controls": [reg("MPAMCFG_CPBM", c), reg("MPAMCFG_CMAX", 0xff00)]}
                          for p, c in l3.items()], "monitors": []}
    mem_ris = {"ris": 0, "kind": "memory", "partid-max": 63, "pmg-max": 1,
               "partids": [{"partid": p, "intpartid": p, "csu-bytes": 0,
                            "controls": [reg("MPAMCFG_MBW_MAX", v), reg("MPAMCFG_PRI", 0)]}
                           for p, v in mem.items()], "monitors": []}
    for ris, field, v in ((l3_ris, "cpbm-wd", cpbm_wd), (mem_ris, "bwa-wd", bwa_wd)):
        if v is not None:
            ris[field] = v
    err = {"ecr": 1, "esr": 0, "errcode": 0, "error-irq": False}
    q = {"msc": [dict(id=0, name="l3", ris=[l3_ris], **err), dict(id=1, name="mem", ris=[mem_ris], **err)]}
    if cpus is not None:
        q["cpus"] = cpus
    return q


class ParseLine(unittest.TestCase):
    def test_test_line_after_kernel_output(self):
        self.assertEqual(h.parse_line("[  3.1] foo MEMQOS-TEST info-L3 PASS cbm_mask=ffff x\r\n"),
                         ("TEST", ("info-L3", "PASS", "cbm_mask=ffff x")))

    def test_test_line_without_detail(self):
        self.assertEqual(h.parse_line("MEMQOS-TEST group-remove PASS"),
                         ("TEST", ("group-remove", "PASS", "")))

    def test_bad_result_word_is_ignored(self):
        self.assertIsNone(h.parse_line("MEMQOS-TEST foo MAYBE"))

    def test_sync(self):
        kind, (seq, verb, kv, text) = h.parse_line("MEMQOS-SYNC 7 config partid=1 l3=ff mb=50")
        self.assertEqual((kind, seq, verb, kv), ("SYNC", 7, "config", {"partid": "1", "l3": "ff", "mb": "50"}))
        self.assertEqual(text, "config partid=1 l3=ff mb=50")

    def test_done_and_other_lines(self):
        self.assertEqual(h.parse_line("MEMQOS-DONE passed=3 failed=1 skipped=0"),
                         ("DONE", {"passed": "3", "failed": "1", "skipped": "0"}))
        self.assertIsNone(h.parse_line("EFI stub: Booting Linux Kernel..."))
        self.assertIsNone(h.parse_line("MEMQOS-SYNC x snapshot"))


class Files(unittest.TestCase):
    """MEMQOS-FILE / MEMQOS-FILE-END: the ACPI tables the acpi-check scenario sends."""
    DATA = bytes(range(256)) * 2 + b"MPAM"

    def lines(self, data, name="MPAM"):
        b64 = base64.b64encode(data).decode()
        out = [f"MEMQOS-FILE {name} {b64[i:i + 76]}" for i in range(0, len(b64), 76)]
        return out + [f"MEMQOS-FILE-END {name} {len(data)} {hashlib.md5(data).hexdigest()}"]

    def decode(self, lines):
        chunks = []
        for line in lines:
            kind, f = h.parse_line(line)
            if kind == "FILE":
                chunks.append(f[1])
            else:
                self.assertEqual(kind, "FILE-END")
                return h.decode_file(chunks, f[1], f[2])

    def test_roundtrip_with_kernel_prefix(self):
        lines = self.lines(self.DATA)
        self.assertGreater(len(lines), 3)
        self.assertTrue(all(len(line.split()[2]) <= 76 for line in lines[:-1]))
        lines[1] = "[    4.2] x MEMQOS-FILE MPAM " + lines[1].split()[2] + "\r\n"
        self.assertEqual(self.decode(lines), (self.DATA, None))

    def test_end_line(self):
        self.assertEqual(h.parse_line("MEMQOS-FILE-END PPTT 240 ABCDEF"),
                         ("FILE-END", ("PPTT", 240, "abcdef")))
        self.assertIsNone(h.parse_line("MEMQOS-FILE-END PPTT x abcdef"))
        self.assertIsNone(h.parse_line("MEMQOS-FILE MPAM AAAA [ 5.1] kernel"))

    def test_lost_line_is_noticed(self):
        lines = self.lines(self.DATA)
        data, why = self.decode(lines[:1] + lines[2:])
        self.assertIsNone(data)
        self.assertIn("the guest sent 516", why)

    def test_damaged_line_is_noticed(self):
        lines = self.lines(self.DATA)
        lines[0] = lines[0][:-4] + ("AAAA" if not lines[0].endswith("AAAA") else "BBBB")
        data, why = self.decode(lines)
        self.assertIsNone(data)
        self.assertIn("MD5", why)
        lines = self.lines(self.DATA)
        lines[0] = lines[0][:-1] + "*"
        self.assertIn("not base64", self.decode(lines)[1])


class Checks(unittest.TestCase):
    def test_mbw_max_percent_roundtrip(self):
        # Linux writes ((pc << w) / 100 rounded - 1) << (16 - w); 50% at BWA_WD 8 is 0x7f00.
        self.assertEqual(h.mbw_max_to_percent(0x7f00, 8), 50)
        self.assertEqual(h.mbw_max_to_percent(0xffff, 8), 100)
        self.assertEqual(h.mbw_max_to_percent(0x7000, 4), 50)

    def test_idr_summary(self):
        self.assertEqual(h.idr_summary(query()), ("partids=64:pmgs=2:l3_cbm_wd=16:mb_bwa_wd=8", None))
        self.assertEqual(h.idr_summary(query(cpbm_wd=12, bwa_wd=4))[0],
                         "partids=64:pmgs=2:l3_cbm_wd=12:mb_bwa_wd=4")
        self.assertEqual(h.idr_summary({"msc": []})[0], None)
        # No guessing: a width query-mpam does not report fails the check.
        self.assertIn("no 'bwa-wd'", h.idr_summary(query(bwa_wd=None))[1])
        self.assertIn("no 'cpbm-wd'", h.idr_summary(query(cpbm_wd=None))[1])

    def test_config_match_and_mismatch(self):
        q = query(l3_cpbm={1: 0xff}, mbw={1: 0x7f00})
        self.assertIsNone(h.check_config(q, 1, l3="00ff", mb="50"))
        self.assertIn("CPBM ff != f0", h.check_config(q, 1, l3="f0"))
        self.assertIn("is 50%", h.check_config(q, 1, mb="30"))
        self.assertIn("no cache MSC reports MPAMCFG_CPBM", h.check_config(q, 9, l3="1"))
        # HARDLIM (bit 31) is not part of the percentage.
        self.assertIsNone(h.check_config(query(mbw={1: 0x80007f00}), 1, mb="50"))

    def test_config_needs_bwa_wd(self):
        self.assertIn("BWA_WD None", h.check_config(query(mbw={1: 0x7f00}, bwa_wd=None), 1, mb="50"))

    def test_controls_diff_ignores_occupancy(self):
        a, b = query(), query(l3_cpbm={2: 0xf})
        self.assertEqual(h.diff_controls(h.controls(a), h.controls(a)), [])
        b["msc"][0]["ris"][0]["partids"][3]["csu-bytes"] = 1
        self.assertEqual(h.diff_controls(h.controls(a), h.controls(b)),
                         ["msc 0 ris 0 partid 2 MPAMCFG_CPBM: 65535 -> 15"])

    def test_msc_errors(self):
        self.assertEqual(h.msc_errors(query()), [])
        q = query()
        q["msc"][1].update(errcode=2, esr=0x2000000, **{"error-irq": True})
        q["msc"][0]["ecr"] = 0
        self.assertEqual(h.msc_errors(q), [
            "l3: ECR.INTEN is 0 (the guest never enabled the error interrupt, "
            "or disabled it after handling an error)",
            "mem: ESR.ERRCODE 2 (ESR 0x2000000)", "mem: error interrupt asserted"])
        self.assertTrue(h.KERNEL_MSC_ERROR_RE.search(
            "[ 9.1] mpam: error irq from msc:1 'PARTID_SEL_Range', partid:40, pmg: 0, ris: 0"))

    def test_guest_counts(self):
        seen = {"PASS": 3, "FAIL": 1, "SKIP": 0}
        self.assertEqual(h.guest_counts({"passed": "3", "failed": "1", "skipped": "0"}, seen)[0], "PASS")
        # A result line lost on the console, or no MEMQOS-DONE at all.
        self.assertEqual(h.guest_counts({"passed": "4", "failed": "1", "skipped": "0"}, seen)[0], "FAIL")
        self.assertEqual(h.guest_counts(None, seen),
                         ("FAIL", "the guest counted nothing, the harness read "
                          "{'passed': 3, 'failed': 1, 'skipped': 0}"))

    def test_machine_prop(self):
        self.assertEqual(h.machine_prop("virt,mpam=on,mpam-partids=32", "mpam-partids"), "32")
        self.assertIsNone(h.machine_prop("virt,mpam=on", "mpam-pmgs"))
        self.assertIsNone(h.machine_prop("mpam-pmgs=3", "mpam-pmgs"))

    def test_cpu_label(self):
        q = query(cpus=[{"cpu-index": 0, "data-partid": 0, "data-pmg": 0},
                        {"cpu-index": 1, "data-partid": 5, "data-pmg": 1,
                         "instr-partid": 6, "instr-pmg": 0}])
        self.assertEqual(h.cpu_label(q, 1), (5, 1))
        self.assertIsNone(h.cpu_label(q, 2))
        self.assertIsNone(h.cpu_label(query(), 0))


class Expected(unittest.TestCase):
    """The manifest of the tests each scenario must report."""

    def test_manifest_matches_the_scenarios(self):
        m = h.read_expected()
        names = [t for _, t in m]
        self.assertEqual(len(names), len(set(names)), "a test listed twice")
        scen_dir = os.path.join(h.TOP, "guest-tests", "scenarios")
        for s in {s for s, _ in m}:
            self.assertTrue(os.path.exists(os.path.join(scen_dir, s + ".sh")), s)

    def run_of(self, expected):
        with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
            r = h.Run(h.parse_args(["--scenario", "kunit"], h.read_expected()), expected)
            r.record("kunit-x", "PASS")
            r.record("stray", "PASS", "d")
            r.record("kunit-x", "PASS")
        return r.results

    def test_unlisted_and_twice_reported_fail(self):
        res = self.run_of({"kunit-x": "kunit"})
        self.assertEqual([r[:2] for r in res], [("kunit-x", "PASS"), ("stray", "FAIL"), ("kunit-x", "FAIL")])
        self.assertIn("not in", res[1][2])
        self.assertIn("second time", res[2][2])

    def test_unknown_scenario_is_an_error(self):
        with open(os.devnull, "w") as null, contextlib.redirect_stderr(null):
            with self.assertRaises(SystemExit):
                h.parse_args(["--scenario", "nope"], h.read_expected())


if __name__ == "__main__":
    unittest.main()

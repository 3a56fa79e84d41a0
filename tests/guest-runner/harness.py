#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot the guest on the MPAM platform, run scenarios, check the MSCs.

Starts `./memqos boot` with a QMP socket and the console on a pipe, prints
every MEMQOS-TEST result the guest reports, answers the guest's MEMQOS-SYNC
requests by reading QMP query-mpam, checks the ACPI tables the guest sends
(MEMQOS-FILE) with acpi-tables/tests/iasl-compare.sh, and ends with
"N passed, N failed"
(exit status 1 on any failure).  The line protocol is described in
guest-tests/initramfs/memqos.sh and docs/guest.md.
"""
import argparse
import base64
import binascii
import hashlib
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", "lib"), os.path.join(TOP, "scripts")]
from memqos_common import CACHE  # noqa: E402
from qmp import Qmp  # noqa: E402

DEFAULT_SCENARIOS = "kunit,mpam-basic,acpi-check"
DEFAULT_MACHINE = "virt,mpam=on,mpam-partids=32,mpam-pmgs=4"
ACPI_TABLES = ("MPAM", "PPTT", "SRAT")

# The guest's lines may follow kernel output on the same console line.
LINE_RE = re.compile(r"MEMQOS-(TEST|SYNC|INFO|DONE|SCENARIO|FILE-END|FILE)\b ?(.*)$")


def parse_line(line):
    """A console line -> (kind, fields) or None.

    TEST: (name, result, detail); SYNC: (seq, verb, {key: value}, argument
    text); INFO: (key, value); DONE: {key: value}; SCENARIO: name;
    FILE: (name, base64 chunk); FILE-END: (name, byte count, MD5 hex).
    """
    m = LINE_RE.search(line.rstrip("\r\n"))
    if not m:
        return None
    kind, rest = m.group(1), m.group(2).strip()
    words = rest.split()
    if kind == "TEST":
        if len(words) < 2 or words[1] not in ("PASS", "FAIL", "SKIP"):
            return None
        return "TEST", (words[0], words[1], rest.split(None, 2)[2] if len(words) > 2 else "")
    if kind == "SYNC":
        if len(words) < 2 or not words[0].isdigit():
            return None
        kv = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        return "SYNC", (int(words[0]), words[1], kv, " ".join(words[1:]))
    if kind == "INFO":
        return "INFO", (words[0] if words else "", rest.split(None, 1)[1] if len(words) > 1 else "")
    if kind == "DONE":
        return "DONE", dict(w.split("=", 1) for w in words if "=" in w)
    if kind == "FILE":
        return ("FILE", (words[0], words[1])) if len(words) == 2 else None
    if kind == "FILE-END":
        if len(words) != 3 or not words[1].isdigit():
            return None
        return "FILE-END", (words[0], int(words[1]), words[2].lower())
    return "SCENARIO", rest


def decode_file(chunks, size, md5):
    """The base64 chunks of one MEMQOS-FILE -> (bytes, None), or (None, why not).
    Kernel output that slipped into a line shows up here as a bad length or MD5."""
    try:
        data = base64.b64decode("".join(chunks), validate=True)
    except binascii.Error as e:
        return None, f"not base64 ({e})"
    if len(data) != size:
        return None, f"{len(data)} bytes decoded, the guest sent {size}"
    if hashlib.md5(data).hexdigest() != md5:
        return None, f"MD5 {hashlib.md5(data).hexdigest()} != the guest's {md5}"
    return data, None


# ---------------------------------------------------------------- MSC checks
# query-mpam (docs/platform.md): {"msc": [{"id", "name", "ris": [{"ris", "kind",
# "partid-max", "pmg-max", "partids": [{"partid", "cpbm", "mbw-max", ...}],
# "monitors": [...]}]}], "cpus": [...]}.  The per-vCPU label list and the
# RIS widths are looked up under a few spellings so that the harness keeps
# working while the platform's schema settles.

CONTROL_FIELDS = ("intpartid", "cpbm", "cmax", "cmin", "cassoc", "mbw-min", "mbw-max",
                  "mbw-pbm", "mbw-prop", "pri", "intpri", "dspri")


def first(d, *names, default=None):
    for n in names:
        if n in d:
            return d[n]
    return default


def all_ris(q):
    for msc in q.get("msc", []):
        for ris in msc.get("ris", []):
            yield msc, ris


def controls(q):
    """{(msc id, ris, partid): {control: value}}: the guest-programmable state."""
    out = {}
    for msc, ris in all_ris(q):
        for p in ris.get("partids", []):
            out[(msc.get("id"), ris.get("ris"), p["partid"])] = {
                k: p[k] for k in CONTROL_FIELDS if k in p}
    return out


def diff_controls(before, after):
    """Human-readable differences between two controls() results."""
    out = []
    for key in sorted(set(before) | set(after), key=str):
        a, b = before.get(key, {}), after.get(key, {})
        for f in sorted(set(a) | set(b)):
            if a.get(f) != b.get(f):
                out.append(f"msc {key[0]} ris {key[1]} partid {key[2]} {f}: {a.get(f)} -> {b.get(f)}")
    return out


def cpbm_width(ris):
    """CPBM_WD of a cache RIS: its own field, or the bit length of the widest
    CPBM seen (Linux programs the full mask into every PARTID at boot)."""
    wd = first(ris, "cpbm-wd", "cpbm_wd")
    if wd is not None:
        return int(wd)
    masks = [int(p["cpbm"], 16) for p in ris.get("partids", []) if p.get("cpbm")]
    return max(masks).bit_length() if masks else None


def mb_ris(q):
    """The RIS that carry MB (MBW_MAX) for resctrl: the memory RIS."""
    return [(m, r) for m, r in all_ris(q) if r.get("kind") == "memory"]


def idr_summary(q, bwa_wd=None):
    """Values the guest should see, as 'k=v:k=v' (keys as in memqos.sh mq_expect)."""
    ris = [r for _, r in all_ris(q)]
    if not ris:
        return None
    kv = {"partids": min(int(r["partid-max"]) for r in ris) + 1,
          "pmgs": min(int(r["pmg-max"]) for r in ris) + 1}
    cpus = q.get("cpus") or []
    cpu_pm = [first(c, "partid-max", "partid_max") for c in cpus]
    if cpu_pm and None not in cpu_pm:
        kv["partids"] = min([kv["partids"]] + [int(x) + 1 for x in cpu_pm])
    cpu_gm = [first(c, "pmg-max", "pmg_max") for c in cpus]
    if cpu_gm and None not in cpu_gm:
        kv["pmgs"] = min([kv["pmgs"]] + [int(x) + 1 for x in cpu_gm])
    wds = {cpbm_width(r) for m, r in all_ris(q) if r.get("kind") == "cache"} - {None}
    if len(wds) == 1:
        kv["l3_cbm_wd"] = wds.pop()
    bw = {first(r, "bwa-wd", "bwa_wd", default=bwa_wd) for _, r in mb_ris(q)} - {None}
    if len(bw) == 1:
        kv["mb_bwa_wd"] = int(bw.pop())
    return ":".join(f"{k}={v}" for k, v in kv.items())


def machine_prop(machine, name):
    """Value of property name in a -M argument ('virt,mpam=on,mpam-partids=32'), or None."""
    for part in machine.split(",")[1:]:
        k, _, v = part.partition("=")
        if k == name:
            return v
    return None


def mbw_max_to_percent(mbw_max, bwa_wd):
    """Linux's read-back conversion (guest-requirements §4.3)."""
    v = (mbw_max >> (16 - bwa_wd)) + 1
    return (v * 100 + (1 << (bwa_wd - 1))) >> bwa_wd


def check_config(q, partid, l3=None, mb=None, bwa_wd=None):
    """None if PARTID's controls on the MSCs match what the guest wrote, else why not.
    q must come from query-mpam with all=true."""
    problems, seen = [], []
    if l3 is not None:
        want, found = int(l3, 16), False
        for msc, ris in all_ris(q):
            for p in ris.get("partids", []):
                if p["partid"] == partid and p.get("cpbm") is not None:
                    found = True
                    seen.append(f"{msc.get('name')}.cpbm={p['cpbm']}")
                    if int(p["cpbm"], 16) != want:
                        problems.append(f"{msc.get('name')} ris {ris.get('ris')} CPBM {p['cpbm']} != {l3}")
        if not found:
            problems.append(f"no MSC has a CPBM for PARTID {partid}")
    if mb is not None:
        want = int(mb)
        found = False
        for msc, ris in mb_ris(q):
            for p in ris.get("partids", []):
                if p["partid"] != partid:
                    continue
                found = True
                v = int(p["mbw-max"])
                wd = first(ris, "bwa-wd", "bwa_wd", default=bwa_wd)
                seen.append(f"{msc.get('name')}.mbw-max={v:#x}")
                if wd is not None:
                    got = mbw_max_to_percent(v, int(wd))
                    if got != want:
                        problems.append(f"{msc.get('name')} MBW_MAX {v:#x} is {got}% (BWA_WD {wd}), want {want}%")
                # Without BWA_WD: the fraction of the 16-bit fixed point must be close.
                elif abs((v + 1) * 100 / 65536 - want) > 2:
                    problems.append(f"{msc.get('name')} MBW_MAX {v:#x} is not about {want}%")
        if not found:
            problems.append(f"no memory MSC reports PARTID {partid}")
    return ("; ".join(problems) + " [" + " ".join(seen) + "]") if problems else None


def cpu_label(q, cpu):
    """(partid, pmg) of the data accesses of vCPU cpu, or None if not reported."""
    for c in q.get("cpus") or []:
        if int(first(c, "cpu-index", "cpu", "index", default=-1)) == cpu:
            pid = first(c, "data-partid", "partid-d", "partid")
            pmg = first(c, "data-pmg", "pmg-d", "pmg")
            if pid is not None:
                return int(pid), (int(pmg) if pmg is not None else None)
    return None


# ---------------------------------------------------------------- the run
class Run:
    def __init__(self, args):
        self.args = args
        self.results = []          # (name, result, detail)
        self.snapshot = None
        self.qmp = None
        self.chunks = {}           # MEMQOS-FILE name -> base64 chunks so far
        self.files = {}            # name -> bytes, checked against FILE-END
        self.file_errors = []
        self.log = open(args.log, "w") if args.log else None

    def query(self, all_partids=False):
        if self.qmp is None:
            raise RuntimeError("no QMP connection")
        return self.qmp.execute("query-mpam", all=all_partids) if all_partids else \
            self.qmp.execute("query-mpam")

    def answer(self, verb, kv):
        """Handle one SYNC request: (OK|FAIL, detail)."""
        a = self.args
        if verb == "idr":
            s = idr_summary(self.query(True), a.bwa_wd)
            if not s:
                return "FAIL", "query-mpam lists no MSC (is mpam=on?)"
            # The MSCs must show what the machine was configured with.
            got = dict(kv.split("=") for kv in s.split(":"))
            for prop, key in (("mpam-partids", "partids"), ("mpam-pmgs", "pmgs")):
                want = machine_prop(a.machine, prop)
                if want is not None and got.get(key) != want:
                    return "FAIL", f"MSCs/CPUs report {key}={got.get(key)} but -M has {prop}={want}"
            return "OK", s
        if verb == "snapshot":
            self.snapshot = controls(self.query(True))
            return "OK", f"{len(self.snapshot)} PARTID entries"
        if verb == "unchanged":
            if self.snapshot is None:
                return "FAIL", "no snapshot taken before"
            d = diff_controls(self.snapshot, controls(self.query(True)))
            return ("OK", "MSC controls unchanged") if not d else ("FAIL", "; ".join(d[:5]))
        if verb == "config":
            if "partid" not in kv:
                return "FAIL", "config without partid="
            why = check_config(self.query(True), int(kv["partid"]), kv.get("l3"),
                               kv.get("mb"), a.bwa_wd)
            return ("OK", "MSC programmed as written") if why is None else ("FAIL", why)
        if verb == "label":
            cpu, want = int(kv["cpu"]), int(kv["partid"])
            want_pmg = int(kv["pmg"]) if "pmg" in kv else None
            got = None
            # The vCPU may be between tasks at the instant of one query.
            for _ in range(10):
                got = cpu_label(self.query(), cpu)
                if got is None:
                    return "FAIL", "query-mpam reports no label for vCPU %d" % cpu
                if got[0] == want and (want_pmg is None or got[1] in (None, want_pmg)):
                    return "OK", f"vCPU {cpu} label PARTID {got[0]} PMG {got[1]}"
                time.sleep(0.3)
            return "FAIL", f"vCPU {cpu} label PARTID {got[0]} PMG {got[1]}, want {want}/{want_pmg}"
        return "FAIL", f"unknown verb {verb}"

    def record(self, name, result, detail=""):
        self.results.append((name, result, detail))
        print(f"{result} {name}{': ' + detail if detail else ''}", flush=True)

    def compare_acpi_tables(self):
        """acpi-iasl-qemu-tables: the fields a host-built mpam-acpi-check reports
        for the tables the guest sent agree with ACPICA's disassembler (iasl -d)."""
        name = "acpi-iasl-qemu-tables"
        problems = self.file_errors + [f"{n}: no MEMQOS-FILE-END" for n in sorted(self.chunks)]
        if not self.files and not problems:
            return                              # acpi-check did not run
        if "MPAM" not in self.files:
            problems.append("no MPAM table received")
        if problems:
            self.record(name, "FAIL", "; ".join(problems))
            return
        d = self.args.acpi_dir
        os.makedirs(d, exist_ok=True)
        for t in ACPI_TABLES:                   # no stale table from an earlier run
            path = os.path.join(d, t)
            if t in self.files:
                with open(path, "wb") as f:
                    f.write(self.files[t])
            elif os.path.exists(path):
                os.unlink(path)
        got = ", ".join(f"{t} {len(self.files[t])} B" for t in ACPI_TABLES if t in self.files)
        with tempfile.TemporaryDirectory(prefix="memqos-harness-") as w:
            tool = os.path.join(w, "mpam-acpi-check")
            src = [os.path.join(TOP, "acpi-tables", c) for c in ("main.c", "mac.c", "mac_out.c")]
            cc = subprocess.run(["cc", "-O1", "-o", tool] + src, capture_output=True, text=True)
            if cc.returncode:
                self.record(name, "FAIL", f"building mpam-acpi-check failed: {cc.stderr.strip()[-300:]}")
                return
            r = subprocess.run(["bash", os.path.join(TOP, "acpi-tables", "tests", "iasl-compare.sh"),
                                tool, d], capture_output=True, text=True)
        out = r.stdout.strip().splitlines()
        if r.returncode or self.args.verbose:
            for line in r.stderr.strip().splitlines() + out:
                print("  iasl-compare: " + line, flush=True)
        fails = [line for line in out if "FAIL" in line]
        self.record(name, "FAIL" if r.returncode else "PASS",
                    f"{got} in {d}: " + (out[-1] if out else "no output") +
                    ("; " + "; ".join(fails[:3]) if r.returncode and fails else ""))

    def start(self):
        a = self.args
        # kunit.enable=1 kunit.autorun=1: allnoconfig leaves KUNIT_DEFAULT_ENABLED
        # and KUNIT_AUTORUN_ENABLED off, so the
        # built-in suites run at boot only when asked to.
        append = f"memqos.host=1 memqos.scenario={a.scenario} kunit.enable=1 kunit.autorun=1"
        if a.append:
            append += " " + a.append
        cmd = [os.path.join(TOP, "memqos"), "boot", "--qmp", a.qmp_path, "--machine", a.machine,
               "--smp", str(a.smp), "--mem", a.mem, "--timeout", str(a.timeout), "--append", append]
        for opt in ("kernel", "initrd", "qemu"):
            if getattr(a, opt):
                cmd += [f"--{opt}", getattr(a, opt)]
        return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def main(self):
        a = self.args
        if os.path.exists(a.qmp_path):
            os.unlink(a.qmp_path)
        t0 = time.monotonic()
        proc = self.start()
        lines = queue.Queue()

        def reader():
            for raw in proc.stdout:
                lines.put(raw.decode("utf-8", "replace"))
            lines.put(None)
        threading.Thread(target=reader, daemon=True).start()

        done = booted = False
        deadline = t0 + a.timeout + 15
        while True:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            if self.log:
                self.log.write(line)
                self.log.flush()
            if a.verbose:
                sys.stdout.write("  | " + line)
                sys.stdout.flush()
            p = parse_line(line)
            if p is None:
                continue
            kind, f = p
            if not booted:
                booted = True
                self.record("boot", "PASS", f"guest /init running after {time.monotonic() - t0:.1f} s")
            if kind == "TEST":
                self.record(*f)
            elif kind == "INFO":
                if f[0] == "resctrl-mounted-uptime":
                    print(f"MEASURE boot-to-resctrl-mounted host {time.monotonic() - t0:.1f} s "
                          f"(QEMU start to mount), guest uptime {f[1]} s", flush=True)
                else:
                    print(f"INFO {f[0]} {f[1]}", flush=True)
            elif kind == "SYNC":
                seq, verb, kv, text = f
                try:
                    if self.qmp is None:
                        self.qmp = Qmp(a.qmp_path)
                    status, detail = self.answer(verb, kv)
                except Exception as e:          # report, do not hang the guest
                    status, detail = "FAIL", f"host error: {e}"
                if a.verbose:
                    print(f"  > SYNC {seq} {text}: {status} {detail}", flush=True)
                proc.stdin.write(f"MEMQOS-REPLY {seq} {status} {detail}\n".encode())
                proc.stdin.flush()
            elif kind == "FILE":
                self.chunks.setdefault(f[0], []).append(f[1])
            elif kind == "FILE-END":
                data, why = decode_file(self.chunks.pop(f[0], []), f[1], f[2])
                if why:
                    self.file_errors.append(f"{f[0]}: {why}")
                else:
                    self.files[f[0]] = data
            elif kind == "DONE":
                done = True
        try:
            rc = proc.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
        if self.qmp:
            self.qmp.close()
        if not booted:
            self.record("boot", "FAIL", "no MEMQOS line on the console (kernel did not reach /init?)")
        self.record("scenarios-complete", "PASS" if done else "FAIL",
                    "" if done else "no MEMQOS-DONE line (guest crashed or timed out)")
        self.record("guest-poweroff", "PASS" if rc == 0 else "FAIL",
                    f"QEMU exit status {rc}" + (" (timeout)" if rc == 124 else "") +
                    f" after {time.monotonic() - t0:.1f} s")
        self.compare_acpi_tables()
        passed = sum(r == "PASS" for _, r, _ in self.results)
        failed = sum(r == "FAIL" for _, r, _ in self.results)
        skipped = sum(r == "SKIP" for _, r, _ in self.results)
        if skipped:
            print(f"({skipped} skipped)")
        print(f"{passed} passed, {failed} failed", flush=True)
        return 1 if failed else 0


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0],
                                epilog="Builds nothing: run make qemu kernel initramfs first "
                                "(tests/guest-runner/run.sh does).")
    p.add_argument("--scenario", default=DEFAULT_SCENARIOS,
                   help=f"comma-separated guest scenarios (default {DEFAULT_SCENARIOS})")
    # Not the platform's defaults (64/8): a value that got lost on the way
    # from the machine to the guest shows up as a mismatch.
    p.add_argument("--machine", default=DEFAULT_MACHINE,
                   help=f"-M value (default {DEFAULT_MACHINE}; 'virt' to try stock QEMU)")
    p.add_argument("--smp", type=int, default=2)
    p.add_argument("--mem", default="1G")
    p.add_argument("--timeout", type=int, default=300, help="seconds for the whole boot (default 300)")
    p.add_argument("--kernel", help="kernel Image (default: memqos paths)")
    p.add_argument("--initrd", help="initramfs (default: memqos paths)")
    p.add_argument("--qemu", help="QEMU binary (default: memqos paths)")
    p.add_argument("--append", default="", help="more kernel command line")
    p.add_argument("--bwa-wd", type=int, default=8,
                   help="BWA_WD of the memory MSC when query-mpam does not report it "
                   "(default 8, the platform's value in docs/platform.md)")
    p.add_argument("--qmp-path", default=None, help="QMP socket path (default: a temporary one)")
    p.add_argument("--log", help="write the whole console output to this file")
    p.add_argument("--acpi-dir", default=os.path.join(CACHE, "guest-acpi-tables"),
                   help="where the ACPI tables the guest sends are written "
                   "(default $MEMQOS_CACHE/guest-acpi-tables)")
    p.add_argument("-v", "--verbose", action="store_true", help="echo the console")
    a = p.parse_args(argv)
    if a.qmp_path is None:
        a.qmp_path = f"/tmp/memqos-harness-{os.getpid()}.qmp"
    return a


if __name__ == "__main__":
    sys.exit(Run(parse_args(sys.argv[1:])).main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Boot the guest on the MPAM platform, run scenarios, check the MSCs.

Starts `./memqos boot` with a QMP socket and the console on a pipe, reports
every MEMQOS-TEST result the guest prints as TAP (tests/lib/tap.py), answers
the guest's MEMQOS-SYNC requests by reading QMP query-mpam, checks the ACPI
tables the guest sends (MEMQOS-FILE) with acpi-tables/tests/iasl-compare.sh,
and adds its own results: boot, msc-no-error (no MSC raised an error),
scenarios-complete, guest-counts (the guest's counts agree with the lines
read), guest-poweroff.  The plan comes from tests/guest-runner/expected-tests:
a listed test the run does not report fails, and so does one not listed.
Exit status 1 on any failure.  The line protocol is described in
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
import time

TOP = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path[:0] = [os.path.join(TOP, "tests", "lib"), os.path.join(TOP, "scripts")]
from memqos_common import CACHE  # noqa: E402
from console import line_queue  # noqa: E402
from qmp import Qmp  # noqa: E402
from tap import Tap  # noqa: E402

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
# query-mpam (docs/platform.md): {"msc": [{"id", "name", "ecr", "errcode",
# "error-irq", "ris": [{"ris", "kind", "partid-max", "pmg-max", "cpbm-wd",
# "bwa-wd", "partids": [{"partid", "intpartid", "controls": [{"name",
# "offset", "size", "value"}]}], ...}]}], "cpus": [{"cpu-index",
# "data-partid", "data-pmg", ...}]}.  Register values are hex strings.


def all_ris(q):
    for msc in q.get("msc", []):
        for ris in msc.get("ris", []):
            yield msc, ris


def partid_controls(p):
    """{register name: value} of one PARTID of a RIS: its control registers
    (MPAMCFG_CPBM, MPAMCFG_MBW_MAX, ...) and its internal PARTID."""
    out = {r["name"]: int(r["value"], 16) for r in p.get("controls", [])}
    out["intpartid"] = p.get("intpartid")
    return out


def controls(q):
    """{(msc id, ris, partid): {register: value}}: the guest-programmable state."""
    return {(msc.get("id"), ris.get("ris"), p["partid"]): partid_controls(p)
            for msc, ris in all_ris(q) for p in ris.get("partids", [])}


def diff_controls(before, after):
    """Human-readable differences between two controls() results."""
    out = []
    for key in sorted(set(before) | set(after), key=str):
        a, b = before.get(key, {}), after.get(key, {})
        for f in sorted(set(a) | set(b)):
            if a.get(f) != b.get(f):
                out.append(f"msc {key[0]} ris {key[1]} partid {key[2]} {f}: {a.get(f)} -> {b.get(f)}")
    return out


def ris_of_kind(q, kind):
    """(msc, ris) pairs of one kind: 'cache' (L3, carries CPBM) or 'memory' (carries MBW_MAX)."""
    return [(m, r) for m, r in all_ris(q) if r.get("kind") == kind]


def one_width(q, kind, field):
    """FIELD ('cpbm-wd', 'bwa-wd') of the RIS of KIND: (value, None), or (None, why not)."""
    wds = {r.get(field) for _, r in ris_of_kind(q, kind)}
    if not wds:
        return None, f"query-mpam lists no {kind} RIS"
    if None in wds:
        return None, f"query-mpam reports no '{field}' for the {kind} RIS"
    if len(wds) > 1:
        return None, f"the {kind} RIS disagree on {field}: {sorted(wds)}"
    return int(wds.pop()), None


def idr_summary(q):
    """What the guest should see, 'k=v:k=v' (keys as in memqos.sh mq_expect), or
    (None, why not).  Counts are the smallest over all RIS: Linux uses the
    PARTIDs and PMGs that every MSC supports."""
    ris = [r for _, r in all_ris(q)]
    if not ris:
        return None, "query-mpam lists no MSC (is mpam=on?)"
    kv = {"partids": min(int(r["partid-max"]) for r in ris) + 1,
          "pmgs": min(int(r["pmg-max"]) for r in ris) + 1}
    for key, kind, field in (("l3_cbm_wd", "cache", "cpbm-wd"), ("mb_bwa_wd", "memory", "bwa-wd")):
        kv[key], why = one_width(q, kind, field)
        if why:
            return None, why
    return ":".join(f"{k}={v}" for k, v in kv.items()), None


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


# MPAMCFG_MBW_MAX: HARDLIM is bit 31, MAX the fraction in bits 15:0 (its top BWA_WD bits implemented).
MBW_MAX_MAX = 0xFFFF


def check_config(q, partid, l3=None, mb=None):
    """None if PARTID's controls on the MSCs match what the guest wrote, else why not.
    q must come from query-mpam with all=true."""
    problems, seen = [], []
    for kind, reg, wrote in (("cache", "MPAMCFG_CPBM", l3), ("memory", "MPAMCFG_MBW_MAX", mb)):
        if wrote is None:
            continue
        found = False
        for msc, ris in ris_of_kind(q, kind):
            for p in ris.get("partids", []):
                v = partid_controls(p).get(reg)
                if p["partid"] != partid or v is None:
                    continue
                found = True
                seen.append(f"{msc.get('name')}.{reg}={v:#x}")
                if reg == "MPAMCFG_CPBM" and v != int(wrote, 16):
                    problems.append(f"{msc.get('name')} ris {ris.get('ris')} CPBM {v:x} != {wrote}")
                elif reg == "MPAMCFG_MBW_MAX":
                    wd = ris.get("bwa-wd")
                    got = mbw_max_to_percent(v & MBW_MAX_MAX, int(wd)) if wd else None
                    if got != int(wrote):
                        problems.append(f"{msc.get('name')} MBW_MAX {v:#x} is {got}% (BWA_WD {wd}), want {wrote}%")
        if not found:
            problems.append(f"no {kind} MSC reports {reg} for PARTID {partid}")
    return ("; ".join(problems) + " [" + " ".join(seen) + "]") if problems else None


def msc_errors(q):
    """Signs that an MSC raised an error, as a list of reasons ([] if none): its
    ESR.ERRCODE, its error interrupt, or ECR.INTEN cleared: Linux enables the
    error interrupt of every MSC when it enables MPAM and, when it handles an
    error, clears ESR and disables ECR.INTEN (drivers/resctrl/mpam_devices.c)."""
    out = []
    for m in q.get("msc", []):
        name = m.get("name")
        if m.get("errcode"):
            out.append(f"{name}: ESR.ERRCODE {m['errcode']} (ESR {m.get('esr', 0):#x})")
        if m.get("error-irq"):
            out.append(f"{name}: error interrupt asserted")
        if not m.get("ecr", 0) & 1:
            out.append(f"{name}: ECR.INTEN is 0 (the guest never enabled the error interrupt, "
                       "or disabled it after handling an error)")
    return out


# Kernel messages of an MSC error (pr_err: printed on the console at loglevel 5).
KERNEL_MSC_ERROR_RE = re.compile(r"error irq from msc:|MPAM disabled due to")


def cpu_label(q, cpu):
    """(partid, pmg) of the data accesses of vCPU cpu, or None if not reported."""
    for c in q.get("cpus") or []:
        if c["cpu-index"] == cpu:
            return c["data-partid"], c["data-pmg"]
    return None


def guest_counts(done, seen):
    """guest-counts: (PASS|FAIL, detail).  DONE: the guest's MEMQOS-DONE fields
    (None if it never came); SEEN: {PASS|FAIL|SKIP: results the harness read}."""
    own = {k: int(v) for k, v in (done or {}).items() if v.isdigit()}
    read = {"passed": seen["PASS"], "failed": seen["FAIL"], "skipped": seen["SKIP"]}
    return ("PASS" if own == read else "FAIL",
            f"the guest counted {own or 'nothing'}, the harness read {read}")


# ---------------------------------------------------------------- the run
EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected-tests")
# Results the harness reports itself, whatever the scenarios (see Run.main).
HOST_TESTS = ("boot", "msc-no-error", "scenarios-complete", "guest-counts", "guest-poweroff")


def read_expected(path=EXPECTED):
    """[(scenario, test)] in the order of the manifest."""
    out = []
    with open(path) as f:
        lines = f.readlines()
    for line in lines:
        words = line.split("#", 1)[0].split()
        if words:
            if len(words) != 2:
                raise ValueError(f"{path}: '{line.strip()}' is not 'SCENARIO TEST'")
            out.append(tuple(words))
    return out


class Run:
    def __init__(self, args, expected):
        self.args = args
        self.expected = expected   # {test: scenario} this run must report
        self.results = []          # (name, result, detail)
        self.guest = {"PASS": 0, "FAIL": 0, "SKIP": 0}   # results the guest reported
        self.kernel_errors = []    # console lines of MSC errors
        self.msc_checked = False
        self.snapshot = None
        self.qmp = None
        self.chunks = {}           # MEMQOS-FILE name -> base64 chunks so far
        self.files = {}            # name -> bytes, checked against FILE-END
        self.file_errors = []
        self.log = open(args.log, "w") if args.log else None
        self.tap = Tap(len(HOST_TESTS) + len(expected))

    def query(self, all_partids=False):
        if self.qmp is None:
            raise RuntimeError("no QMP connection")
        return self.qmp.execute("query-mpam", all=all_partids) if all_partids else \
            self.qmp.execute("query-mpam")

    def answer(self, verb, kv):
        """Handle one SYNC request: (OK|FAIL, detail)."""
        a = self.args
        if verb == "idr":
            s, why = idr_summary(self.query(True))
            if why:
                return "FAIL", why
            # The MSCs must show what the machine was configured with.
            got = dict(kv.split("=") for kv in s.split(":"))
            for prop, key in (("mpam-partids", "partids"), ("mpam-pmgs", "pmgs")):
                want = machine_prop(a.machine, prop)
                if want is not None and got.get(key) != want:
                    return "FAIL", f"the MSCs report {key}={got.get(key)} but -M has {prop}={want}"
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
            why = check_config(self.query(True), int(kv["partid"]), kv.get("l3"), kv.get("mb"))
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
                if got[0] == want and want_pmg in (None, got[1]):
                    return "OK", f"vCPU {cpu} label PARTID {got[0]} PMG {got[1]}"
                time.sleep(0.3)
            return "FAIL", f"vCPU {cpu} label PARTID {got[0]} PMG {got[1]}, want {want}/{want_pmg}"
        if verb == "end":
            self.check_msc_errors()
            return "OK", "the host checked the MSCs for errors"
        return "FAIL", f"unknown verb {verb}"

    def check_msc_errors(self):
        """msc-no-error: at the end of the scenarios, no MSC shows an error and
        the kernel printed none (the scenarios expect none)."""
        self.msc_checked = True
        try:
            q = self.query(True)
        except Exception as e:
            self.record("msc-no-error", "FAIL", f"query-mpam failed: {e}")
            raise
        why = msc_errors(q) + [f"kernel: {e}" for e in self.kernel_errors]
        self.record("msc-no-error", "FAIL" if why else "PASS", "\n".join(why) if why else
                    f"{len(q.get('msc', []))} MSCs: ESR.ERRCODE 0, error interrupt low, ECR.INTEN 1")

    def record(self, name, result, detail=""):
        """One result, as TAP.  A name the manifest does not list, or one
        reported twice, is a failure."""
        if name not in self.expected and name not in HOST_TESTS:
            detail = f"{result} but not in {EXPECTED} for the scenarios run: {detail}"
            result = "FAIL"
        elif any(r[0] == name for r in self.results):
            detail = f"reported a second time ({result}: {detail})"
            result = "FAIL"
        self.results.append((name, result, detail))
        self.tap.result(name, result, detail)

    def compare_acpi_tables(self):
        """acpi-iasl-qemu-tables: the fields a host-built mpam-acpi-check reports
        for the tables the guest sent agree with ACPICA's disassembler (iasl -d)."""
        name = "acpi-iasl-qemu-tables"
        problems = self.file_errors + [f"{n}: no MEMQOS-FILE-END" for n in sorted(self.chunks)]
        if "MPAM" not in self.files:
            problems.append("no MPAM table received from the guest")
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
        target = "acpi-tables/mpam-acpi-check"
        b = subprocess.run(["bash", os.path.join(TOP, "scripts", "meson-build.sh"), target],
                           capture_output=True, text=True)
        if b.returncode:
            self.record(name, "FAIL", f"building mpam-acpi-check failed: {b.stderr.strip()[-300:]}")
            return
        r = subprocess.run(["bash", os.path.join(TOP, "acpi-tables", "tests", "iasl-compare.sh"),
                            os.path.join(b.stdout.strip(), target), d], capture_output=True, text=True)
        out = r.stdout.strip().splitlines()
        fails = [line for line in r.stderr.strip().splitlines() + out if "FAIL" in line]
        self.record(name, "FAIL" if r.returncode else "PASS",
                    f"{got} in {d}: " + (out[-1] if out else "no output") +
                    ("".join("\n" + f for f in fails) if r.returncode else ""))

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

    def guest_line(self, kind, f, proc):
        """Act on one MEMQOS line of the guest."""
        a = self.args
        if kind == "TEST":
            self.guest[f[1]] += 1
            self.record(*f)
        elif kind == "INFO":
            if f[0] == "resctrl-mounted-uptime":
                print(f"MEASURE boot-to-resctrl-mounted host {time.monotonic() - self.t0:.1f} s "
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
            self.done = f

    def main(self):
        a = self.args
        if os.path.exists(a.qmp_path):
            os.unlink(a.qmp_path)
        self.t0 = time.monotonic()
        self.done = None
        proc = self.start()
        lines = line_queue(proc)

        booted = False
        deadline = self.t0 + a.timeout + 15
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
            if KERNEL_MSC_ERROR_RE.search(line):
                self.kernel_errors.append(line.strip())
            p = parse_line(line)
            if p is None:
                continue
            if not booted:
                booted = True
                self.record("boot", "PASS", f"guest /init running after {time.monotonic() - self.t0:.1f} s")
            self.guest_line(*p, proc)
        try:
            rc = proc.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
        if self.qmp:
            self.qmp.close()
        if not booted:
            self.record("boot", "FAIL", "no MEMQOS line on the console (kernel did not reach /init?)")
        if not self.msc_checked:
            self.record("msc-no-error", "FAIL", "the guest did not ask for the final MSC check "
                        "(MEMQOS-SYNC end): it stopped before the end of its scenarios")
        self.record("scenarios-complete", "PASS" if self.done else "FAIL",
                    "" if self.done else "no MEMQOS-DONE line (guest crashed or timed out)")
        self.record("guest-counts", *guest_counts(self.done, self.guest))
        self.record("guest-poweroff", "PASS" if rc == 0 else "FAIL",
                    f"QEMU exit status {rc}" + (" (killed by the timeout)" if rc == 124 else "") +
                    f" after {time.monotonic() - self.t0:.1f} s")
        if "acpi-iasl-qemu-tables" in self.expected:
            self.compare_acpi_tables()
        reported = {r[0] for r in self.results}
        for name, scenario in self.expected.items():
            if name not in reported:
                self.record(name, "FAIL", f"scenario {scenario} did not report it")
        return 1 if any(r == "FAIL" for _, r, _ in self.results) else 0


def parse_args(argv, manifest):
    scenarios = list(dict.fromkeys(s for s, _ in manifest))
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0],
                                epilog="Builds nothing: run make qemu kernel initramfs first "
                                "(tests/guest-runner/run.sh does).  Reports TAP on stdout.")
    p.add_argument("--scenario", default=",".join(scenarios),
                   help=f"comma-separated guest scenarios, of {', '.join(scenarios)} "
                   f"(default: all; their tests are listed in {EXPECTED})")
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
    p.add_argument("--qmp-path", default=None, help="QMP socket path (default: a temporary one)")
    p.add_argument("--log", help="write the whole console output to this file")
    p.add_argument("--acpi-dir", default=os.path.join(CACHE, "guest-acpi-tables"),
                   help="where the ACPI tables the guest sends are written "
                   "(default $MEMQOS_CACHE/guest-acpi-tables)")
    p.add_argument("-v", "--verbose", action="store_true", help="echo the console")
    a = p.parse_args(argv)
    unknown = [s for s in a.scenario.split(",") if s not in scenarios]
    if unknown:
        p.error(f"scenario {unknown[0]} has no tests in {EXPECTED}")
    if a.qmp_path is None:
        a.qmp_path = f"/tmp/memqos-harness-{os.getpid()}.qmp"
    return a


if __name__ == "__main__":
    manifest = read_expected()
    args = parse_args(sys.argv[1:], manifest)
    chosen = args.scenario.split(",")
    sys.exit(Run(args, {t: s for s, t in manifest if s in chosen}).main())

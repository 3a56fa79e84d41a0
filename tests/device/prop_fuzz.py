#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Property and QMP fuzzer of the memqos devices (issue 25 item 4).

Everything it tries comes from QEMU itself: per target it starts the base
machine once and asks it for the memqos types (`qom-list-types`), their
properties (`device-list-properties`, `qom-list-properties` for the
machine's memqos options and the agent object), the instances (`qom-list`
under /machine and /objects) and the memqos QMP commands
(`query-qmp-schema`).  Then three phases, one TAP line each per target:

  start-up   the base machine with one property given a boundary or garbage
             value (-global TYPE.PROP=V, -M ...,OPT=V, -object memqos-agent,
             ...,PROP=V), stopped with -S.  A refusal must exit with status 1
             and name the property; a start must read the value back from
             every instance (qom-get): the board may not silently replace
             what the user gave.
  run time   one running (stopped) machine; qom-set of every property of
             every memqos instance and of the machine's memqos options,
             with a changed and a garbage value.  A property outside
             RUN_TIME must be refused naming it; a refusal of any property
             must leave the machine exactly as it was (every query-memqos-*,
             query-mpam and every property compared before and after).
  QMP        every memqos command with boundary values in each argument:
             no crash, and a refused call leaves the machine as it was.

Every QEMU run fails the phase on a signal, a sanitizer report ("runtime
error:", "AddressSanitizer", "LeakSanitizer") or an exit status other than
0 or 1.  --every N keeps every Nth start-up case (the ASan variant of
`make check` and quick runs); --soak repeats the run-time and QMP phases
with random values for S seconds.

Usage: prop_fuzz.py QEMU_AARCH64 QEMU_X86_64 X86_FIRMWARE [--every N] [--soak S]
                   [--only aarch64|x86_64]
"""
import argparse
import os
import random
import sys
import tempfile
import shutil
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import Checks, run_checks  # noqa: E402
from migration_configs import BASES, X86_CPU, Qemu, split_change  # noqa: E402
from qmp import QmpError  # noqa: E402

SANITIZER = ("runtime error:", "AddressSanitizer", "LeakSanitizer")
# What may change at run time (docs/platform.md, "Fixed once the machine
# is built"): an MSC's firmware bandwidth policy and every agent property.
RUN_TIME = {("memqos-mpam-msc", "mbw-policy"), ("memqos-agent", "*")}
# The machine options memqos adds: their descriptions start so.
MACHINE_PREFIXES = ("mpam=on:", "timing=on:", "bwmon=on:", "Set on/off to add Arm MPAM")
AGENT = {"id": "fuzz", "outstanding": "4", "write-permille": "0", "footprint": "1M",
         "base": "0x40000000", "pattern": "random", "seed": "1", "partid": "1", "pmg": "0"}


def agent(**change):
    """-object's value for an agent: AGENT with CHANGE."""
    return "memqos-agent," + ",".join(f"{k}={v}" for k, v in {**AGENT, **change}.items())

# The bases the fuzzer uses: migration_configs' timing bases, the aarch64 one
# with an agent (so that its object and its QMP are in the corpus).
FUZZ_BASES = {
    "aarch64": BASES["virt-timing"][1] + ["-object", agent()],
    "x86_64": BASES["q35-rdt"][1],
}
# Configurations that must be refused, naming what is wrong, beside the
# corpus: (what, arguments, a word the refusal must contain).
REFUSALS = {
    "aarch64": [],
    "x86_64": [("memqos-spr-uncore on vCPUs without rdt=",
                ["-M", "q35", "-cpu", X86_CPU,
                 "-device", "memqos-spr-uncore,bus=pcie.0,addr=0x0a.0"], "rdt=sapphirerapids")],
}
U = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int": 64, "size": 64,
     "int8": 7, "int16": 15, "int32": 31, "int64": 63}


def values(ptype):
    """Boundary and garbage values for a property of QOM type PTYPE."""
    if ptype in U:
        top = (1 << U[ptype]) - 1
        return ["0", str(top), str(top + 1), "-1", "0x", "1e3"]
    if ptype == "bool":
        return ["on", "off", "maybe"]
    if ptype in ("str", "string"):
        return ["", "x", "%" * 300, "1:2;1:3", "0-4294967311:lpr", "4294967296:1"]
    return ["", "x"]                    # enums and others: garbage


def same(given, got, ptype):
    """Whether qom-get's GOT reads back the -global value GIVEN of a PTYPE
    property.  QEMU parses a negative number for an unsigned 64-bit one as
    strtoull does (-1 is 2^64 - 1): its own rule, which the ranges check."""
    if isinstance(got, bool):
        return {"on": True, "off": False}.get(given) == got
    if isinstance(got, int):
        try:
            v = int(given, 0)
        except ValueError:
            return False
        return v == got or (ptype in ("uint64", "size") and v % (1 << 64) == got)
    return str(got) == given


def bad_output(text):
    return [ln for ln in text.splitlines() if any(s in ln for s in SANITIZER)]


class Target:
    """What one target's QEMU says about itself (discovery)."""

    def __init__(self, qemu, args, tmp, stall):
        self.qemu, self.args, self.tmp, self.stall = qemu, args, tmp, stall
        q = Qemu(qemu, args, tmp, "discover", stall)
        try:
            m = q.qmp
            self.instances = {}         # type -> [paths]
            for root in ("/machine", "/machine/unattached", "/machine/peripheral-anon",
                         "/objects"):
                for p in m.execute("qom-list", path=root):
                    t = p["type"][6:-1] if p["type"].startswith("child<") else ""
                    if t.startswith("memqos-"):
                        self.instances.setdefault(t, []).append(f"{root}/{p['name']}")
            # type -> [(name, type)]: the properties memqos gives it, not
            # those of its first ancestor outside memqos (SysBus, PCI, ...)
            parent = {x["name"]: x.get("parent") for x in m.execute("qom-list-types", abstract=True)}
            self.props = {}
            for t in self.instances:
                base = t
                while base.startswith("memqos-"):
                    base = parent[base]
                inherited = {p["name"] for p in m.execute("qom-list-properties", typename=base)}
                self.props[t] = [(p["name"], p["type"]) for p in
                                 m.execute("qom-list-properties", typename=t)
                                 if p["name"] not in inherited and
                                 not p["type"].startswith(("link<", "child<"))]
            mtype = m.execute("qom-get", path="/machine", property="type")
            self.machine = [(p["name"], p["type"]) for p in
                            m.execute("qom-list-properties", typename=mtype)
                            if p.get("description", "").startswith(MACHINE_PREFIXES)]
            self.commands = commands(m)
        finally:
            q.end()

    def snapshot(self, m, only=None):
        """Everything a refused change must leave as it was: what the memqos
        query commands show, and the properties of every memqos instance
        (or of the instance at path ONLY, "/machine" for the machine's
        memqos options; ONLY "": none)."""
        out = {}
        for c, args in self.commands:
            if c.startswith("query-") and all(opt for _, opt in args.values()):
                try:
                    out[c] = m.execute(c)
                except QmpError as e:           # e.g. no agents on this target
                    out[c] = f"error: {e}"
        objs = [(path, self.props[t]) for t, paths in self.instances.items() for path in paths]
        objs.append(("/machine", self.machine))
        for path, props in objs:
            if only not in (None, path):
                continue
            for name, _ in props:
                try:
                    out[f"{path}.{name}"] = m.execute("qom-get", path=path, property=name)
                except QmpError as e:
                    out[f"{path}.{name}"] = f"error: {e}"
        return out


def commands(m):
    """The memqos QMP commands from query-qmp-schema: [(name, {arg: type})]."""
    schema = m.execute("query-qmp-schema")
    objs = {e["name"]: e for e in schema}
    out = []
    for e in schema:
        if e["meta-type"] == "command" and ("mpam" in e["name"] or "memqos" in e["name"]):
            members = objs.get(e["arg-type"], {}).get("members", [])
            # {argument: (its JSON type, whether it is optional)}
            out.append((e["name"], {a["name"]: (objs.get(a["type"], {}).get("json-type", a["type"]),
                                                "default" in a) for a in members}))
    return sorted(out)


def startup_cases(t):
    """(what, the change to the base's arguments (migration_configs.
    split_change), type, property, value, its QOM type) of the start-up
    phase."""
    out = []
    for typ, props in sorted(t.props.items()):
        for name, ptype in props:
            for v in values(ptype):
                if typ == "memqos-agent":
                    change = f"-object {agent(id='fuzz2', **{name: v})}"
                else:
                    change = f"-global {typ}.{name}={v}"
                out.append((f"{typ}.{name}={v}", change, typ, name, v, ptype))
    for name, ptype in t.machine:
        for v in values(ptype):
            out.append((f"-M {name}={v}", f"{name}={v}", None, name, v, ptype))
    return out


def startup_one(t, case, n):
    what, change, typ, name, v, ptype = case
    q = Qemu(t.qemu, split_change(t.args, change), t.tmp, f"start{n}", t.stall)
    problems = []
    try:
        if q.qmp and typ and typ != "memqos-agent":
            for path in t.instances.get(typ, []):
                got = q.qmp.execute("qom-get", path=path, property=name)
                if not same(v, got, ptype):
                    problems.append(f"{what}: accepted, but {path} reads {got!r}")
        elif q.qmp and typ is None:
            got = q.qmp.execute("qom-get", path="/machine", property=name)
            if not same(v, got, ptype):
                problems.append(f"{what}: accepted, but /machine reads {got!r}")
    except (ConnectionError, OSError, QmpError) as e:
        problems.append(f"{what}: QMP: {e}")
    rc = q.end()
    err = q.stderr()
    problems += [f"{what}: {ln}" for ln in bad_output(err)]
    if rc not in (0, 1):
        problems.append(f"{what}: exit status {rc}: {err.strip().splitlines()[-1:] }")
    elif rc == 1 and name not in err:
        problems.append(f"{what}: refused without naming {name}: {err.strip()[-200:]!r}")
    return problems


def refusal_one(t, what, args, word):
    q = Qemu(t.qemu, args, t.tmp, "refusal", t.stall)
    rc = q.end()
    err = q.stderr()
    if rc != 1 or word not in err:
        return [f"{what}: exit status {rc}, expected 1 naming {word}: {err.strip()[-200:]!r}"]
    return []


def runtime(t, rng, rounds=1):
    """qom-set phase; problems."""
    q = Qemu(t.qemu, t.args, t.tmp, "runtime", t.stall)
    problems = []
    try:
        m = q.qmp
        targets = [(typ, path, name, ptype) for typ, paths in t.instances.items()
                   for path in paths for name, ptype in t.props[typ]]
        targets += [(None, "/machine", name, ptype) for name, ptype in t.machine]
        for _ in range(rounds):
            for typ, path, name, ptype in targets:
                live = (typ, name) in RUN_TIME or (typ, "*") in RUN_TIME
                before = t.snapshot(m, path)
                cur = before.get(f"{path}.{name}")
                tries = [jvalue(rng.choice(values(ptype)), ptype)] + \
                    ([] if live else [changed(cur)])
                for v in tries:
                    try:
                        m.execute("qom-set", path=path, property=name, value=v)
                        if not live:
                            problems.append(f"qom-set {path} {name} {v!r}: accepted at run time")
                        before = t.snapshot(m, path)    # a live change is the new state
                    except QmpError as e:
                        if name not in str(e) and "not writable" not in str(e) \
                                and "expects" not in str(e) and "Invalid parameter type" not in str(e):
                            problems.append(f"qom-set {path} {name} {v!r}: refused without "
                                            f"naming it: {e}")
                        after = t.snapshot(m, path)
                        diff = [k for k in before if before[k] != after.get(k)]
                        if diff:
                            problems.append(f"qom-set {path} {name} {v!r}: refused, but "
                                            f"changed {diff[:3]}")
                            before = after
        problems += qmp_phase(t, m, rng, rounds)
    except (ConnectionError, OSError) as e:
        problems.append(f"QEMU stopped answering: {e}")
    rc = q.end()
    err = q.stderr()
    problems += bad_output(err)
    if rc not in (0, 1):
        problems.append(f"exit status {rc}: {err.strip().splitlines()[-1:]}")
    return problems


def jvalue(v, ptype):
    """The -global value V as qom-set's JSON value for a PTYPE property."""
    if ptype in U:
        try:
            return int(v, 0)
        except ValueError:
            return v
    return {"on": True, "off": False}.get(v, v) if ptype == "bool" else v


def changed(cur):
    """A value other than CUR, of its JSON type."""
    if isinstance(cur, bool):
        return not cur
    if isinstance(cur, int):
        return cur + 1
    return "x" if cur != "x" else "y"


JSON_VALUES = {"int": [-1, 0, (1 << 63) - 1, (1 << 64) - 1, 1 << 70],
               "number": [-1, 1e308], "string": ["", "x" * 5000, "%s%n"],
               "boolean": [True, False]}


def qmp_phase(t, m, rng, rounds):
    """Every memqos command with boundary values per argument; problems."""
    problems = []
    before = t.snapshot(m, "")
    for cmd, args in t.commands:
        for _ in range(rounds):
            for a, (jt, _) in args.items():
                for v in JSON_VALUES.get(jt, [None, "x"]):
                    call = {k: rng.choice(JSON_VALUES.get(kt, ["x"]))
                            for k, (kt, _) in args.items()}
                    call[a] = v
                    call = {k: x for k, x in call.items() if x is not None}
                    try:
                        m.execute(cmd, **call)
                        before = t.snapshot(m, "")
                    except QmpError:
                        after = t.snapshot(m, "")
                        diff = [k for k in before if before[k] != after.get(k)]
                        if diff:
                            problems.append(f"{cmd} {call!r}: refused, but changed {diff[:3]}")
                            before = after
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qemu_aarch64")
    ap.add_argument("qemu_x86_64")
    ap.add_argument("x86_firmware")
    ap.add_argument("--every", type=int, default=1,
                    help="keep every Nth start-up case (default 1: all)")
    ap.add_argument("--soak", type=float, default=0,
                    help="repeat the run-time and QMP phases with random values for S seconds")
    ap.add_argument("--jobs", type=int, default=2, help="start-up cases run at once (default 2)")
    ap.add_argument("--only", choices=sorted(FUZZ_BASES),
                    help="one target (the ASan build is aarch64's alone)")
    ap.add_argument("--stall", type=int, default=30)
    a = ap.parse_args()
    qemus = {"aarch64": [a.qemu_aarch64], "x86_64": [a.qemu_x86_64, "-L", a.x86_firmware]}
    targets = [a.only] if a.only else list(FUZZ_BASES)
    tap = Checks(3 * len(targets))
    tmp = tempfile.mkdtemp(prefix="memqos-prop-fuzz-")
    try:
        return run_checks(tap, lambda: run(tap, a, qemus, targets, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(tap, problems, what, info):
    tap.check(not problems, what, info, [f"{len(problems)} problems", *problems[:19]])


def run(tap, a, qemus, targets, tmp):
    for target in targets:
        args = FUZZ_BASES[target]
        t = Target(qemus[target], args, tmp, a.stall)
        cases = startup_cases(t)[::a.every]
        t0 = time.monotonic()
        with ThreadPoolExecutor(a.jobs) as ex:
            found = [p for ps in ex.map(lambda c: startup_one(t, c[1], c[0]),
                                        enumerate(cases)) for p in ps]
        for what, args_, word in REFUSALS[target]:
            found += refusal_one(t, what, args_, word)
        report(tap, found, f"{target}: start-up: every refusal names its property, every "
               "accepted value reads back, no crash",
               f"{len(cases)} cases over {len(t.props)} types and the machine, "
               f"{time.monotonic() - t0:.0f} s")
        rng = random.Random(25)
        rounds = 1
        t0 = time.monotonic()
        found = runtime(t, rng)
        while a.soak and time.monotonic() - t0 < a.soak and not found:
            rounds += 1
            found = runtime(t, rng)
        report(tap, [p for p in found if not p.startswith(tuple(c for c, _ in t.commands))],
               f"{target}: run time: fixed properties refused by name, refusals change nothing",
               f"{rounds} round(s), {time.monotonic() - t0:.0f} s")
        report(tap, [p for p in found if p.startswith(tuple(c for c, _ in t.commands))],
               f"{target}: QMP: {len(t.commands)} memqos commands with boundary arguments",
               ", ".join(c for c, _ in t.commands))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Migrate a configured, monitoring `-M virt,mpam=on` through a file.

The source QEMU (qtest accelerator, no guest) gets its MSCs programmed
through MMIO as a driver would: every writable per-PARTID control of a few
PARTIDs, a CSU and an MBWU monitor enabled with filters, a counter value,
an error recorded in MPAMF_ESR with its interrupt enabled, and the
selectors left pointing somewhere.  It is saved with QMP `migrate` to a
`file:` URI and loaded by a destination started with `-incoming defer`.
One TAP line per check:

- the source and the destination read back what the test wrote (expected
  values come from the written values and the architecture's writable bits
  for the MSC's ID registers, not from QEMU's output);
- query-mpam is identical before and after;
- a destination with other mpam-partids or l3-size refuses the stream with
  a message that contains "does not match this machine";
- the same stream with one flipped byte in a monitor's counter (found by
  searching the file for the value written) fails the comparison or the
  load: the comparison cannot pass by accident;
- the same stream whose first MSC configuration length reads 0xffffffff
  is refused with exit status 1, naming memqos-mpam-msc-config, before
  anything is allocated (issue 25's fifth crash).

Usage: migration.py QEMU [--stall S]
"""
import argparse
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import Checks, Died, Hang, Machine, run_checks  # noqa: E402
from qmp import differences, migration_end  # noqa: E402  (machine put tests/lib on the path)
import mpam_msc as spec  # noqa: E402

MACHINE = ["-M", "virt,mpam=on", "-cpu", "max"]
MARKER = 0x0BADCAFE         # an MBWU counter value, searched for in the stream
OTHER_CONFIGS = ("mpam-partids=32", "l3-size=4M")
CHECKS = 2 * 4 + 4 + len(OTHER_CONFIGS) + 3     # the plan: every check below, once


class Config:
    """What the test writes into the MSCs, and what must read back."""

    def __init__(self):
        self.controls = {}      # (msc, partid, control) -> expected value
        self.monitors = {}      # (msc, kind, index) -> (ctl bits, flt, value or None)
        self.esr = {}           # msc -> expected MPAMF_ESR
        self.part_sel = {}      # msc -> expected MPAMCFG_PART_SEL


def configure(m, mscs, cfg):
    rng = random.Random(6)
    first = True
    for msc in mscs.values():
        r = msc.ris[0]
        names = [n for n in msc.controls(0) if spec.control_mask(r, n, 0)]
        for p in sorted({1, 2, min(5, r.partid_max)}):
            msc.select_part(0, p)
            for name in names:
                words = []
                for w in range(msc.control_words(name)):
                    v = rng.getrandbits(32)
                    m.write(msc.addr(name, w), v)
                    words.append(v & spec.control_mask(r, name, w))
                cfg.controls[(msc.name, p, name)] = spec.bitmap_value(words)
        for kind, n in r.num_mon.items():
            if not n:
                continue
            i = min(1, n - 1)
            partid, pmg = 2, min(1, r.pmg_max)
            ctl = spec.CTL_EN | spec.CTL_MATCH
            msc.select_mon(0, i)
            msc.write_reg(f"MSMON_CFG_{kind}_FLT", partid | pmg << 16)
            msc.write_reg(f"MSMON_CFG_{kind}_CTL", ctl)
            value = None
            if kind == "MBWU":
                # The marker once in the whole stream; other MSCs another value.
                value = MARKER if first else 0x1234567 + msc.ris[0].partid_max
                first = False
                msc.write_reg("MSMON_MBWU", value)
            cfg.monitors[(msc.name, kind, i)] = (ctl, partid | pmg << 16, value)
        if r.has_esr:
            # An out-of-range PARTID in PART_SEL, then a control access.
            bad = r.partid_max + 3
            msc.write_reg("MPAMF_ECR", 1)
            msc.select_part(0, bad)
            msc.read_reg(names[0])
            cfg.esr[msc.name] = bad | spec.PARTID_SEL_RANGE << 24
        msc.select_part(0, 2)
        cfg.part_sel[msc.name] = msc.part_sel(0, 2)


def check_state(tap, m, mscs, cfg, where):
    """The configured values, through query-mpam and through MMIO."""
    info = {x["name"]: x for x in m.execute("query-mpam", all=True)["msc"]}
    bad = []
    for (name, p, ctl), want in cfg.controls.items():
        entry = next(e for e in info[name]["ris"][0]["partids"] if e["partid"] == p)
        got = spec.partid_controls(entry).get(ctl)
        if got != want:
            bad.append(f"{name} PARTID {p} {ctl}: query-mpam {got}, written 0x{want:x}")
    tap.check(not bad, f"{where}: query-mpam shows the written per-PARTID controls",
              f"{len(cfg.controls)} controls", bad)
    bad = []
    for (name, kind, i), (ctl, flt, value) in cfg.monitors.items():
        mi = next((x for x in info[name]["ris"][0].get("monitors", [])
                   if x["type"].upper() == kind and x["index"] == i), None)
        if (mi is None or mi["ctl"] & (spec.CTL_EN | spec.CTL_MATCH) != ctl or
                mi["ctl"] & 0xFF != spec.CTL_TYPE[kind] or mi["flt"] != flt or
                (value is not None and mi["value"] != value)):
            bad.append(f"{name} {kind} monitor {i}: {mi}, written CTL 0x{ctl:x} FLT "
                       f"0x{flt:x} value {value}")
    tap.check(not bad, f"{where}: query-mpam shows the enabled CSU and MBWU monitors with "
              "their filters and counter", diag=bad)
    bad = []
    for name, esr in cfg.esr.items():
        msc, i, want = mscs[name], info[name], esr     # RIS 0: ESR.RIS is 0
        if (i["esr"] != want or i["errcode"] != spec.PARTID_SEL_RANGE or i["ecr"] != 1
                or not i["error-irq"] or msc.read_reg("MPAMF_ESR") != want):
            bad.append(f"{name}: esr 0x{i['esr']:x} errcode {i['errcode']} ecr {i['ecr']} "
                       f"error-irq {i['error-irq']}, expected esr 0x{want:x}")
    tap.check(not bad, f"{where}: MPAMF_ESR holds the recorded error, ECR.INTEN and the "
              "error IRQ are set", diag=bad)
    bad = []
    for name, sel in cfg.part_sel.items():
        msc = mscs[name]
        got = msc.m.read(msc.addr("MPAMCFG_PART_SEL"))
        if got != sel:
            bad.append(f"{name}: MPAMCFG_PART_SEL 0x{got:x}, written 0x{sel:x}")
        for (n, p, ctl), want in cfg.controls.items():
            if n == name and p == 2:        # the PARTID left selected
                words = [msc.m.read(msc.addr(ctl, w)) for w in range(msc.control_words(ctl))]
                if spec.bitmap_value(words) != want:
                    bad.append(f"{name} {ctl}: MMIO {words}, written 0x{want:x}")
    tap.check(not bad, f"{where}: the selectors and the selected PARTID's controls read "
              "back through MMIO", diag=bad)
    return info


def wait_migration(m):
    """Wait until a migration ends; its final status (None: QEMU exited)."""
    try:
        return migration_end(m.execute, m.deadline)
    except (Died, ConnectionError, OSError):
        return None
    except TimeoutError:
        raise Hang(f"migration did not end within {m.timeout} s")


def load(qemu, extra, path, stall):
    """A destination loading `path`: (its query-mpam or None, its exit status
    or None if it runs, its stderr)."""
    opts = MACHINE[1] + "".join("," + o for o in extra)
    m = Machine(qemu, [MACHINE[0], opts, *MACHINE[2:], "-incoming", "defer"],
                timeout=120, stall=stall)
    try:
        try:
            m.execute("migrate-incoming", uri=f"file:{path}")
            status = wait_migration(m)
        except (Died, ConnectionError, OSError, RuntimeError):
            status = None
        if status == "completed":
            return m.execute("query-mpam", all=True), None, m.stderr_text(), m
        rc = m.wait_exit() if status is None else None
        return None, rc, m.stderr_text(), m
    except BaseException:
        m.cleanup()
        raise


def migrate(tap, args, tmp):
    stream = os.path.join(tmp, "stream")
    src = Machine(args.qemu, MACHINE, timeout=120, stall=args.stall)
    try:
        info = src.execute("query-mpam", all=True)["msc"]
        mscs = {x["name"]: spec.Msc(src, x) for x in info}
        cfg = Config()
        configure(src, mscs, cfg)
        check_state(tap, src, mscs, cfg, "source")
        src.execute("stop")
        src.execute("migrate", uri=f"file:{stream}")
        status = wait_migration(src)
        tap.check(status == "completed", "the source saves its state to a file",
                  f"migration status {status}", src.stderr_text().splitlines()[-5:])
        before = src.execute("query-mpam", all=True)
        tap.check(src.quit() == 0, "the source exits cleanly", diag=[src.stderr_tail()])
    finally:
        src.cleanup()

    after, rc, err, dst = load(args.qemu, [], stream, args.stall)
    try:
        tap.check(after is not None, "the destination loads the stream",
                  diag=[f"exit status {rc}"] + err.splitlines()[-5:])
        if after is not None:
            for msc in mscs.values():
                msc.m = dst
            check_state(tap, dst, mscs, cfg, "destination")
            diff = differences(before, after)
            tap.check(not diff, "query-mpam is identical before and after migration", diag=diff)
    finally:
        dst.cleanup()

    for opt in OTHER_CONFIGS:
        got, rc, err, m = load(args.qemu, [opt], stream, args.stall)
        m.cleanup()
        said = [ln for ln in err.splitlines() if "does not match this machine" in ln]
        tap.check(got is None and rc not in (None, 0) and said,
                  f"a destination with {opt} refuses the stream: 'does not match this "
                  "machine'", said[0] if said else "",
                  [f"exit status {rc}"] + err.splitlines()[-3:])

    check_config_length(tap, args, tmp, stream)
    data = bytearray(open(stream, "rb").read())
    marker = MARKER.to_bytes(8, "big")
    at = [i for i in range(len(data)) if data.startswith(marker, i)]
    flipped = "a stream with one flipped bit in that counter fails the load or the comparison"
    if not tap.check(len(at) == 1, f"the MBWU counter 0x{MARKER:x} is in the stream once",
                     diag=[f"found {len(at)} times"]):
        tap.check(False, flipped, "no single place to corrupt")
        return
    data[at[0] + 6] ^= 0x01
    bad = os.path.join(tmp, "corrupt")
    open(bad, "wb").write(data)
    got, rc, err, m = load(args.qemu, [], bad, args.stall)
    m.cleanup()
    diff = differences(before, got) if got is not None else [f"load failed, exit status {rc}"]
    tap.check(diff, flipped, "; ".join(diff[:3]), ["nothing differed"])


def check_config_length(tap, args, tmp, stream):
    """The first memqos-mpam-msc-config section's length (the 32-bit word
    after its section header: name, instance and version) set to
    0xffffffff: a clear refusal."""
    what = "a stream whose MSC configuration length reads 0xffffffff is refused by name"
    data = bytearray(open(stream, "rb").read())
    name = b"memqos-mpam-msc-config"
    at = data.find(name) + len(name) + 8 if data.find(name) >= 0 else -1
    end = data.find(b"\0", at + 4)
    if at < 0 or end < 0 or int.from_bytes(data[at:at + 4], "big") != end - at - 3:
        tap.check(False, what, "no configuration string with its length in the stream")
        return
    data[at:at + 4] = b"\xff" * 4
    bad = os.path.join(tmp, "config-length")
    open(bad, "wb").write(data)
    got, rc, err, m = load(args.qemu, [], bad, args.stall)
    m.cleanup()
    said = [ln for ln in err.splitlines() if "memqos-mpam-msc-config" in ln]
    tap.check(got is None and rc == 1 and said, what, said[0] if said else "",
              [f"exit status {rc}"] + err.splitlines()[-3:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("qemu")
    ap.add_argument("--stall", type=int, default=30,
                    help="longest wait for any one reply from QEMU, seconds (default 30)")
    args = ap.parse_args()
    tap = Checks(CHECKS)
    tmp = tempfile.mkdtemp(prefix="memqos-migration-")
    try:
        return run_checks(tap, lambda: migrate(tap, args, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

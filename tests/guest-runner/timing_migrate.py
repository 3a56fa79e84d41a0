#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Save a busy guest under the timing model to a file, load it, compare.

Issue 7: "savevm/loadvm (or migration to a file) with the timing model on
restores cache contents, monitor state and modeled clocks".  One vCPU,
./memqos boot --timing, an unmodified Linux guest running the
timing-migrate scenario (guest-tests/scenarios/timing-migrate.sh): a
resctrl group whose L3 mask is half the L3 chases 3/4 of the L3 (every
load misses, so the group's L3 lines, llc_occupancy and mbm_total_bytes
all move) while the shell reads both monitors every 0.1 s.

  source       boots; at the guest's "migrate-now" line (the group holds
               a quarter of the working set in L3) QMP stop, then the
               state: query-memqos-timing (per-vCPU modeled time, counters,
               checksum of the private caches), query-mpam all=true
               (controls, CSU bytes, monitors ctl/flt/value, registers)
               and qom-get of the L3 MSC's cache-checksum (its lines,
               owners, dirty bits, LRU order) and of the memory MSC's
               mbw-checksum (its bandwidth regulator's windows and counts:
               the machine regulates mpam-mbw-peak with an MBW_MIN for
               PARTIDs 0 and 1, which counts every request and delays
               none); `migrate` to a file: URI;
               the state again (saving changes nothing); `cont`, and the
               guest runs to its end: the final state after power-off
  destination  the same command line with -incoming defer;
               migrate-incoming from the file; the state must be identical
               to the source's at the stop; `cont`: the guest must finish
               its scenario with sane data (the chase still measures the
               configured memory latency, llc_occupancy the group's
               share, mbm_total_bytes keeps growing across the load)
  reload       one vCPU under the timing model runs on modeled time only:
               a second destination loading the same file, with host-timed
               realtime timers firing every 1-3 ms from its `cont` on
               (announce-self; the first destination has only QEMU's own,
               the five self-announcements after a load), must come to the
               same state, print the same guest lines (uptime stamps and
               the kernel's power-off timestamp included) and end in the
               same state at power-off (query-memqos-timing without
               time-ns, which goes on warping host-timed while QEMU stops
               the powered-off guest; query-mpam; the L3 checksum)
  source       the source that went on after the save is NOT compared with
   vs dest     the destination (an INFO line says how far they agree): it
               models byte stores that the destination does not (DC ZVA
               falls back to byte stores, which reach the model, on pages
               QEMU has translated code from, i.e. on TB-cache state that
               a load does not carry; docs/timing-design.md "Save and
               restore")
  corruption   the comparison must be able to fail: a copy of the stream
               with three values flipped inside the timing device's
               section (located from the configured cache geometry and
               cross-checked against the saved query-memqos-timing) - the
               vCPU's read counter, the dirty bit of a valid L1D line, the
               vCPU's modeled clock - all three are states the model can
               reach, so the copy loads, and the comparison must report
               exactly those three fields (reads, checksum, time-ns) and
               nothing else

Expected values come from the machine options (timing.Config), never from
a run.  TAP, one line per check.  Builds nothing.
"""
import argparse
import os
import shutil
import struct
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "device")]
from timing import (PORTIONS, TOL_LATENCY, TOL_OCCUPANCY, Boot, Config,  # noqa: E402
                    add_boot_args, near, number, settled_timing)
from machine import Checks, run_checks  # noqa: E402
from qmp import differences, migration_end  # noqa: E402
import mpam_msc as spec  # noqa: E402

L3_MSC = "/machine/mpam-msc-l3"     # hw/virt/mpam-virt-qemu.c create_msc
MEM_MSC = "/machine/mpam-msc-mem"
# A regulator whose counts move and which delays nothing (docs/mbw-regulation.md)
MACHINE = ["mpam-mbw-peak=512M", "mpam-mbw-policy=0:min=50%;1:min=50%"]
SECONDS = 2                         # of the chase, guest time
MIGRATE_TIMEOUT = 120
# hw/memsys/timing-qemu.c vmstate_memqos_timing: 3 since the tag store's LRU
# became a recency order (setassoc.h "Layout"), the layout cache_words reads
TIMING_VMSTATE_VERSION = 3
FLIP_CLOCK_BIT = 24                 # 2^24 icount units: 6.7 ms at 2.5 GHz, CPI 1
# The second load's host-timed timers (QAPI AnnounceParameters, ms of host
# time): one every 1-3 ms for longer than any run.  Announcing with no NIC
# sends nothing; the guest sees nothing of it but its modeled time must not
# either (patch 0021: only QEMU_CLOCK_VIRTUAL deadlines end a vCPU's slice).
STORM_ARGS = {"initial": 1, "max": 3, "step": 1, "rounds": 1000000}
CHECKS = 14


SNAPSHOT = ["query-memqos-timing", "query-mpam", "l3-cache-checksum", "mem-mbw-checksum"]


def snapshot(q):
    """What must survive a save and load (SNAPSHOT), from Qmp Q."""
    return dict(zip(SNAPSHOT, (q.execute("query-memqos-timing"), q.execute("query-mpam", all=True),
                               q.execute("qom-get", path=L3_MSC, property="cache-checksum"),
                               q.execute("qom-get", path=MEM_MSC, property="mbw-checksum"))))


def data_lines(boot):
    return [line for _, _, line in boot.data]


class MigrateBoot(Boot):
    """A boot that moves through STREAM (migrate to / from a file:), keeps
    the migration's status and seconds, and the state at power-off."""

    def __init__(self, name, params, stream, extra=()):
        super().__init__(name, 1, params, extra, machine=MACHINE)
        self.stream = stream
        self.status = self.seconds = self.final = None

    def migrate(self, q, cmd):
        """QMP CMD (migrate, migrate-incoming) with the file: URI of STREAM,
        until it ends; its status."""
        t0 = time.monotonic()
        q.execute(cmd, uri=f"file:{self.stream}")
        self.status = migration_end(q.execute, t0 + MIGRATE_TIMEOUT)
        self.seconds = time.monotonic() - t0
        return self.status

    def failed(self, what, e):
        self.problems.append(f"{what}: {type(e).__name__}: {e}")
        self.status = self.status or "error"

    def stopped(self, q, cfg):
        super().stopped(q, cfg)
        if self.done:
            self.final = snapshot(q)


class Source(MigrateBoot):
    """Stops at migrate-now, saves to STREAM, goes on."""

    def __init__(self, params, stream):
        super().__init__("migrate-source", params, stream)
        self.saved = self.after_save = None

    def got_data(self, tag, kv, line):
        if tag != "migrate-now" or self.status is not None:
            return
        try:
            q = self.qmp()
            q.execute("stop")
            self.saved = snapshot(q)
            self.migrate(q, "migrate")
            self.after_save = snapshot(q)
            q.execute("cont")
        except Exception as e:          # the checks say what is missing
            self.failed("save", e)


class Destination(MigrateBoot):
    """-incoming defer; loads STREAM; goes on (RUN_ON) or quits.  With
    STORM, host-timed QEMU_CLOCK_REALTIME timers fire every 1-3 ms of host
    time from the `cont` on (announce-self, STORM_ARGS)."""

    def __init__(self, name, params, stream, run_on, storm=False):
        super().__init__(name, params, stream, ["-incoming", "defer"])
        self.run_on = run_on
        self.storm = storm
        self.loaded = None

    def started(self):
        try:
            q = self.qmp()
            if self.migrate(q, "migrate-incoming") == "completed":
                self.loaded = snapshot(q)
            q.execute("cont" if self.run_on and self.loaded else "quit")
            if self.storm and self.run_on and self.loaded:
                q.execute("announce-self", **STORM_ARGS)
        except Exception as e:
            self.failed("load", e)


# ---------------------------------------------------------------- the stream
def cache_words(cfg, level):
    """Words of one private cache's state (hw/memsys/setassoc.h, "Layout":
    no clock word, sets * stride words, each set lo, hi, owner for the ways
    rounded up to 4, then link[2 * (ways + 1)] (the recency order's next
    and prev of every way and of the head), then the dirty words);
    (words, stride, offset of the dirty words in a set)."""
    ways = cfg.opt[f"{level}-ways"]
    wp = (ways + 3) // 4 * 4
    dirty_off = 3 * wp + 2 * (ways + 1)
    stride = dirty_off + (ways + 31) // 32
    return cfg.sets(level) * stride, stride, dirty_off


def timing_section(data, cfg):
    """Offsets in a migration stream of the memqos-timing device's L1D state,
    stats and vCPU clock (hw/memsys/timing-qemu.c vmstate_memqos_timing,
    one vCPU): {"l1d": offset of word 0, "stats": ..., "local": ...}.
    Raises ValueError when the section is not where and what the
    configuration says."""
    name = b"memqos-timing"
    at = data.find(bytes([len(name)]) + name)
    if at < 0:
        raise ValueError("no memqos-timing section in the stream")
    version = struct.unpack_from(">I", data, at + 1 + len(name) + 4)[0]
    if version != TIMING_VMSTATE_VERSION:
        raise ValueError(f"memqos-timing section version {version}, this surgery knows "
                         f"{TIMING_VMSTATE_VERSION} (the private caches' layout)")
    p = at + 1 + len(name) + 8                          # instance id, version id
    o = cfg.opt
    # the figures travel in the configuration's own section (name=value;)
    for k in ("timing-mhz", "timing-cpi-milli", "timing-l1-cycles", "timing-l2-cycles",
              "timing-l3-cycles", "timing-mem-ns"):
        if f"{k}={o[k]};".encode() not in data:
            raise ValueError(f"the stream's configuration lacks {k}={o[k]}")
    n_cpus = struct.unpack_from(">I", data, p)[0]
    if n_cpus != 1:
        raise ValueError(f"the section gives {n_cpus} vCPUs, the configuration 1")
    p += 4 + 8                                          # n_cpus; rem_fs
    out = {}
    for level in ("l1d", "l1i", "l2"):
        n = struct.unpack_from(">I", data, p)[0]
        if n != cache_words(cfg, level)[0]:
            raise ValueError(f"{level}: {n} words in the stream, the geometry says "
                             f"{cache_words(cfg, level)[0]}")
        out.setdefault(level, p + 4)
        p += 4 + 4 * n
    out["stats"] = p
    out["local"] = p + 8 * 8                            # MemsysCpuStats: 8 x u64
    return out


def corrupt(data, cfg, saved):
    """DATA with three legal changes in the timing device's section: the
    vCPU's read counter +-1, the dirty bit of the first valid L1D line, bit
    FLIP_CLOCK_BIT of its clock.  Returns (bytes, what was changed)."""
    data = bytearray(data)
    at = timing_section(data, cfg)
    cpu = saved["query-memqos-timing"]["cpus"][0]
    stats = struct.unpack_from(">8Q", data, at["stats"])
    if stats.count(cpu["reads"]) != 1:
        raise ValueError(f"the saved reads {cpu['reads']} is not once among the stats {stats}")
    i = stats.index(cpu["reads"])
    struct.pack_into(">Q", data, at["stats"] + 8 * i, cpu["reads"] ^ 1)
    words, stride, dirty_off = cache_words(cfg, "l1d")
    for s in range(cfg.sets("l1d")):
        base = at["l1d"] + 4 * s * stride
        if struct.unpack_from(">I", data, base)[0] & 0x80000000:     # lo[0]: way 0 valid
            # dirty[0] bit 0: way 0's; any value is reachable for a valid
            # way (setassoc_check), and the recency order is left alone
            dirty = base + 4 * dirty_off
            struct.pack_into(">I", data, dirty, struct.unpack_from(">I", data, dirty)[0] ^ 1)
            break
    else:
        raise ValueError("no valid line in way 0 of any L1D set")
    local = struct.unpack_from(">q", data, at["local"])[0]
    struct.pack_into(">q", data, at["local"], local ^ (1 << FLIP_CLOCK_BIT))
    return bytes(data), f"reads {cpu['reads']} -> {cpu['reads'] ^ 1}, dirty bit of L1D set {s} way 0, " \
        f"clock bit {FLIP_CLOCK_BIT} of {local} units"


# ---------------------------------------------------------------- checks
def busy(state):
    """What shows the memory system was in use at the save: [] or problems."""
    bad = []
    cpu = state["query-memqos-timing"]["cpus"][0]
    if not (cpu["l3-hits"] + cpu["mem"] > 0 and cpu["time-ns"] > 0):
        bad.append(f"vCPU 0: {cpu}")
    l3 = next(m for m in state["query-mpam"]["msc"] if m["name"] == "l3")
    ris = l3["ris"][0]
    held = max((p["csu-bytes"] for p in ris["partids"] if p["partid"]), default=0)
    if held == 0:
        bad.append("no PARTID but 0 holds L3 lines (csu-bytes)")
    # CSU in the L3 MSC; MBWU in whichever MSC resctrl reads mbm_total_bytes from
    for kind, mscs in (("csu", ["l3"]), ("mbwu", ["l3", "mem"])):
        on = [(m["name"], x) for m in state["query-mpam"]["msc"] if m["name"] in mscs
              for r in m["ris"] for x in r.get("monitors", [])
              if x["type"] == kind and x["ctl"] & spec.CTL_EN]
        if not any(x["value"] for _, x in on):
            bad.append(f"no enabled {kind} monitor counts: {on}")
    return bad, f"csu-bytes of the group {held}, vCPU 0 {cpu['time-ns']} ns, " \
        f"{cpu['l3-hits']} L3 hits, {cpu['mem']} from memory"


def compare(tap, name, what, a, b, keys):
    """One check: snapshots A and B agree on KEYS."""
    if a and b:
        diff = [d for k in keys for d in differences(a.get(k), b.get(k), k)]
    else:
        diff = [f"no state to compare (the {'source' if not a else 'destination'} has none)"]
    return tap.check(not diff, name, f"{what}: identical" if not diff else "", diff)


def sane(cfg, src, dst):
    """The destination's guest data after the load: [] or problems; detail."""
    bad = []
    size, _ = cfg.mask_ws()
    share = cfg.share(PORTIONS // 2)
    mem = cfg.latency_ns()["mem"]
    chase = dst.row("migrate-chase")
    ok1, t1 = near(number(chase, "ns_per_load"), mem, TOL_LATENCY)
    ok2, t2 = near(number(chase, "occupancy"), min(size, share), TOL_OCCUPANCY)
    bad += [] if ok1 else [f"ns_per_load {t1} (memory latency)"]
    bad += [] if ok2 else [f"occupancy {t2} (the group's share)"]
    before = [number(kv, "mbm") for kv in src.rows("migrate-sample") + src.rows("migrate-now")]
    after = [number(kv, "mbm") for kv in dst.rows("migrate-sample")]
    if not after or None in after or after != sorted(set(after)):
        bad.append(f"mbm_total_bytes after the load not increasing: {after}")
    saved_mbm = number(src.row("migrate-now"), "mbm")
    if after and saved_mbm is not None and after[0] <= saved_mbm:
        bad.append(f"mbm_total_bytes after the load {after[0]} <= at the save {saved_mbm}")
    return bad, f"ns_per_load {t1}; occupancy {t2}; mbm {len(after)} samples increasing " \
        f"from {after[0] if after else None} (at the save {saved_mbm}; {len(before)} source samples)"


def guest_lines(boot):
    """What the guest printed that depends on its run: the MEMQOS-DATA lines
    (uptime stamps included) and the kernel's power-off line with its
    timestamp, the modeled clock when the guest stopped."""
    return data_lines(boot) + ([boot.stop_line] if boot.stop_line else [])


def settled(snap):
    """A state read after power-off, query-memqos-timing without time-ns
    (timing.settled_timing)."""
    return snap and {**snap, "query-memqos-timing": settled_timing(snap["query-memqos-timing"])}


def first_difference(s, d):
    """How far guest lines S (a run that printed more before) and D agree,
    from D's first line on (matched in S by its first three words)."""
    key = d[0].split()[:3] if d else None
    at = next((i for i, x in enumerate(s) if x.split()[:3] == key), len(s))
    tail = s[at:]
    same = next((i for i, (x, y) in enumerate(zip(tail, d)) if x != y), min(len(tail), len(d)))
    if same == len(d) == len(tail):
        return f"all {len(d)} guest lines identical"
    return f"{same} of {len(d)} guest lines identical, then\n  " \
        f"{tail[same] if same < len(tail) else None}\n  {d[same] if same < len(d) else None}"


def main_checks(tap, a, cfg, tmp):
    size, colors = cfg.mask_ws()
    params = {"scenario": "timing-migrate",
              "migrate": f"{size}:{colors}:{Config.mask(0, PORTIONS // 2)}:{SECONDS}",
              "evict": cfg.evict(), "loads": cfg.loads()}
    stream = os.path.join(tmp, "stream")
    src = Source(params, stream)
    src.run(a, cfg)
    tap.check(src.status == "completed", "save",
              f"stopped at migrate-now, saved {os.path.getsize(stream) >> 20} MiB in {src.seconds:.1f} s"
              if src.status == "completed" else "",
              [f"migration status {src.status}"] + src.problems + src.tail)
    bad, detail = busy(src.saved) if src.saved else (["no state at the save"], "")
    tap.check(not bad, "busy-at-save", detail, bad)
    compare(tap, "save-changes-nothing", "the state after the save vs at the stop",
            src.saved, src.after_save, SNAPSHOT)
    ok, detail = src.ok()
    tap.check(ok and src.final, "source-runs-on", f"after cont: {detail}", [detail])
    if src.status != "completed":
        return

    dst = Destination("migrate-dest", params, stream, True)
    dst.run(a, cfg)
    tap.check(dst.status == "completed", "load", f"loaded in {dst.seconds:.1f} s"
              if dst.loaded else "", [f"migration status {dst.status}"] + dst.problems)
    compare(tap, "same-timing", "query-memqos-timing (clocks, counters, private caches)",
            src.saved, dst.loaded, ["query-memqos-timing"])
    compare(tap, "same-mpam", "query-mpam all=true (controls, CSU bytes, monitors, registers)",
            src.saved, dst.loaded, ["query-mpam"])
    compare(tap, "same-l3", "the L3 MSC's cache-checksum", src.saved, dst.loaded, ["l3-cache-checksum"])
    compare(tap, "same-mbw", "the memory MSC's mbw-checksum (bandwidth regulator)", src.saved,
            dst.loaded, ["mem-mbw-checksum"])
    ok, detail = dst.ok()
    bad, sdetail = sane(cfg, src, dst) if ok else (["the destination did not finish"], "")
    tap.check(ok and not bad, "dest-runs-on", f"{detail}; {sdetail}", [detail] + bad)
    print("INFO source after the save vs destination after the load (not a check: "
          "docs/timing-design.md, 'Save and restore'): " +
          first_difference(guest_lines(src), guest_lines(dst)), flush=True)

    again = Destination("migrate-dest-again", params, stream, True, storm=True)
    again.run(a, cfg)
    ok, detail = again.ok()
    tap.check(ok and again.loaded == dst.loaded, "reload",
              f"the same stream loaded again, realtime timers every 1-3 ms of host time "
              f"from its cont on: the same state, {detail}",
              [detail] + differences(dst.loaded, again.loaded))
    d, e = guest_lines(dst), guest_lines(again)
    tap.check(d and d == e, "reload-same-guest-output",
              f"{len(d)} guest lines identical, to the power-off: {d[-1] if d else None}",
              [first_difference(d, e)])
    compare(tap, "reload-same-final-state", "both at power-off: query-memqos-timing (without "
            "time-ns: the power-off line has the clock), query-mpam, L3 checksum",
            settled(dst.final), settled(again.final), SNAPSHOT)

    try:
        bad_stream, what = corrupt(open(stream, "rb").read(), cfg, src.saved)
    except ValueError as e:
        tap.check(False, "corruption-detected", "", [f"cannot corrupt the stream: {e}"])
        return
    path = os.path.join(tmp, "corrupt")
    with open(path, "wb") as f:
        f.write(bad_stream)
    del bad_stream
    bad = Destination("migrate-corrupt", params, path, False)
    bad.run(a, cfg)
    got = differences(src.saved["query-memqos-timing"]["cpus"][0],
                      (bad.loaded or {}).get("query-memqos-timing", {}).get("cpus", [{}])[0])
    fields = sorted(x.split(":")[0] for x in got)
    want = [".checksum", ".reads", ".time-ns"]
    rest = differences({k: v for k, v in src.saved.items() if k != "query-memqos-timing"},
                       {k: v for k, v in (bad.loaded or {}).items() if k != "query-memqos-timing"})
    tap.check(bad.status == "completed" and fields == want and not rest, "corruption-detected",
              f"flipped {what}; the comparison reports {'; '.join(got)}",
              [f"load status {bad.status}", f"vCPU fields that differ {fields}, want {want}"] +
              rest[:5] + bad.problems)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    add_boot_args(p, "timing-migrate", "console logs", 300)
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    cfg = Config(True, True, {})
    tap = Checks(CHECKS)
    print(f"INFO machine {' '.join([cfg.machine()] + cfg.qemu_args())} (--timing); "
          f"console logs in {a.out}", flush=True)
    tmp = tempfile.mkdtemp(prefix="memqos-timing-migrate-")
    try:
        return run_checks(tap, lambda: main_checks(tap, a, cfg, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The -M virt MPAM options (hw/virt/mpam-virt-qemu.c, docs/platform.md):
# every way they are rejected stops QEMU with its message, and accepted
# options reach the devices and CPUs (read back with QMP qom-get and
# query-mpam; expected values come from the options given).  TAP: the plan
# is the list of cases below, fixed before any runs; ends with
# 'machine-options: N passed, N failed, N skipped'.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
qemu=$(bash "$top/qemu/build.sh" --print)
[ -x "$qemu" ] || { echo "not ok 1 - QEMU binary $qemu (run qemu/build.sh)"; exit 1; }
exec python3 - "$qemu" "$top" <<'EOF'
import json, os, subprocess, sys, tempfile, threading

QEMU = sys.argv[1]
# timing=on: modeled time is icount's, in the model's units
ICOUNT = ("-icount", "shift=0,sleep=off")
MIB = 1024 * 1024
results = []                    # (name, "PASS" | "FAIL" | "SKIP", detail)
cases = []                      # what to run, in order: the TAP plan


def run(machine, *extra, cmds=()):
    """Start QEMU stopped with QMP on stdio, run CMDS one at a time, quit.
    Returns (exit status, stderr, the commands' answers in order).  Each
    answer is read before the next command goes out: with every command
    sent at once, 'quit' could run while a long answer (query-mpam all is
    over 64 KiB, a pipe's buffer) still waited in QEMU's output buffer,
    and QEMU exits without writing the rest."""
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen([QEMU, "-M", machine, "-display", "none", "-nic", "none",
                              "-S", "-monitor", "none", "-serial", "none", "-qmp", "stdio",
                              *extra], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=err, text=True)
        timer = threading.Timer(60, p.kill)
        timer.start()
        answers = []

        def answer():
            """The next reply that is not an event; None once QEMU has gone."""
            for line in p.stdout:
                msg = json.loads(line)
                if "event" not in msg:
                    return msg
            return None

        def send(cmd):
            try:
                p.stdin.write(json.dumps(cmd) + "\n")
                p.stdin.flush()
                return answer()
            except BrokenPipeError:
                return None

        if answer() is not None and send({"execute": "qmp_capabilities"}) is not None:
            for c in cmds:
                a = send(c)
                if a is None:
                    break
                answers.append(a)
            send({"execute": "quit"})
        try:
            p.stdin.close()
        except BrokenPipeError:
            pass
        p.stdout.read()
        rc = p.wait()
        killed = not timer.is_alive()
        timer.cancel()
        err.seek(0)
        if killed:
            return None, "QEMU did not finish within 60 s (killed)", answers
        return rc, err.read(), answers


def report(name, result, detail=""):
    results.append((name, result, detail))
    n = len(results)
    if result == "PASS":
        print(f"ok {n} - {name}")
    elif result == "SKIP":
        print(f"ok {n} - {name} # SKIP {detail}")
    else:
        print(f"not ok {n} - {name}")
        for line in detail.splitlines():
            print(f"# {line}")
    sys.stdout.flush()


def case(fn):
    """Plan FN(*args) as one case: calls return a thunk that adds it."""
    return lambda *args, **kw: cases.append(lambda: fn(*args, **kw))


@case
def reject(name, machine, message, *extra):
    """QEMU must exit with status 1 and MESSAGE on stderr."""
    rc, err, _ = run(machine, "-cpu", "max", *extra) if "-cpu" not in extra \
        else run(machine, *extra)
    if rc == 1 and message in err:
        report(name, "PASS")
    else:
        report(name, "FAIL", f"-M {machine} {' '.join(extra)}: exit {rc}, "
               f"expected 1 with '{message}'\n{err.strip()}")


def qom(path, prop):
    return {"execute": "qom-get", "arguments": {"path": path, "property": prop}}


@case
def accept(name, machine, partids, pmgs, l3_size, l3_ways, dspri=None):
    """QEMU starts, and the MSCs, the CPUs and query-mpam show the values
    that the options (or their documented defaults) ask for."""
    # the MSC table of docs/platform.md: the kind's controls, 4-bit priorities
    msc = {"/machine/mpam-msc-l3": {"kind": "cache", "partid-max": partids - 1,
                                    "pmg-max": pmgs - 1, "cache-size": l3_size,
                                    "cache-ways": l3_ways, "cache-line-size": 64,
                                    "cpbm-wd": 16, "cmax-wd": 8, "bwa-wd": 0,
                                    "csu-mon": 8, "intpri-wd": 4, "dspri-wd": 4},
           "/machine/mpam-msc-mem": {"kind": "memory", "partid-max": partids - 1,
                                     "pmg-max": pmgs - 1, "cpbm-wd": 0, "cmax-wd": 0,
                                     "bwa-wd": 8, "bwpbm-wd": 16, "csu-mon": 0,
                                     "mbw-max": True, "intpri-wd": 4, "dspri-wd": 4}}
    want = [(f"{path} {prop}", val) for path, props in msc.items()
            for prop, val in props.items()]
    cmds = [qom(w[0].split()[0], w[0].split()[1]) for w in want]
    # query-mpam lists the PARTIDs with a policy even without "all"
    cmds += [{"execute": "query-cpus-fast"}, {"execute": "query-mpam"}]
    rc, err, ans = run(machine, "-cpu", "max", "-smp", "2", cmds=cmds)
    bad = []
    if rc != 0 or len(ans) != len(cmds) or any("return" not in a for a in ans):
        report(name, "FAIL", f"-M {machine}: exit {rc}\n{err.strip()}\n{ans}")
        return
    for (what, val), a in zip(want, ans):
        if a["return"] != val:
            bad.append(f"{what} = {a['return']!r}, expected {val!r}")
    cpus, info = ans[-2]["return"], ans[-1]["return"]
    cpu_cmds = [qom(c["qom-path"], p) for c in cpus
                for p in ("mpam", "mpam-partid-max", "mpam-pmg-max")]
    _, _, cpu_ans = run(machine, "-cpu", "max", "-smp", "2", cmds=cpu_cmds)
    cpu_want = [True, partids - 1, pmgs - 1] * len(cpus)
    if len(cpus) != 2 or [a.get("return") for a in cpu_ans] != cpu_want:
        bad.append(f"CPUs mpam, mpam-partid-max, mpam-pmg-max = "
                   f"{[a.get('return') for a in cpu_ans]}, expected {cpu_want}")
    for m in info["msc"]:
        r = m["ris"][0]
        if (r["partid-max"], r["pmg-max"]) != (partids - 1, pmgs - 1):
            bad.append(f"query-mpam {m['name']}: partid-max {r['partid-max']} "
                       f"pmg-max {r['pmg-max']}")
        for partid, (ds, intpri) in (dspri or {}).items():
            p = next(p for p in r["partids"] if p["partid"] == partid)
            if not p["policy"] or p["effective-dspri"] != ds or \
               (intpri is not None and p["effective-intpri"] != intpri):
                bad.append(f"query-mpam {m['name']} PARTID {partid}: {p}")
        if not dspri and any(p["policy"] for p in r["partids"]):
            bad.append(f"query-mpam {m['name']}: a priority policy without mpam-dspri")
    if len(info["msc"]) != 2:
        bad.append(f"query-mpam lists {len(info['msc'])} MSCs, expected 2")
    report(name, "FAIL" if bad else "PASS", "\n".join(bad))


# ---- accepted: the values reach the MSCs, CPUs and query-mpam -------------
accept("defaults", "virt,mpam=on", 64, 8, 8 * MIB, 16)
accept("all sizes given", "virt,mpam=on,mpam-partids=16,mpam-pmgs=4,l3-size=4M,l3-ways=8",
       16, 4, 4 * MIB, 8)
accept("smallest PARTID and PMG counts", "virt,mpam=on,mpam-partids=1,mpam-pmgs=1",
       1, 1, 8 * MIB, 16)
accept("largest PARTID and PMG counts", "virt,mpam=on,mpam-partids=65536,mpam-pmgs=256",
       65536, 256, 8 * MIB, 16)
accept("255 ways, 1024 sets", f"virt,mpam=on,l3-ways=255,l3-size={255 * 64 * 1024}",
       64, 8, 255 * 64 * 1024, 255)
accept("priority policy", "virt,mpam=on,mpam-dspri=1:3;2:5:7", 64, 8, 8 * MIB, 16,
       dspri={1: (3, None), 2: (5, 7)})

@case
def timing(name, machine, smp, mhz, cpi_milli, cycles, mem_ns, *extra):
    """timing=on starts, and query-memqos-timing shows the figures asked for,
    each level's latency = cycles / frequency; without it, the query fails."""
    rc, err, ans = run(machine, "-cpu", "max", "-smp", str(smp), *extra,
                       cmds=[{"execute": "query-memqos-timing"}])
    info = ans[0].get("return") if rc == 0 and ans else None
    bad = []
    if "timing=on" not in machine:
        ok = rc == 0 and ans and "no timing model" in ans[0].get("error", {}).get("desc", "")
        report(name, "PASS" if ok else "FAIL", f"exit {rc}: {ans}\n{err.strip()}")
        return
    if info is None:
        bad.append(f"exit {rc}: {ans}\n{err.strip()}")
    else:
        want = {"mhz": mhz, "cpi-milli": cpi_milli, "unit-fs": cpi_milli * 10**6 // mhz}
        bad += [f"{k}={info.get(k)}, expected {v}" for k, v in want.items() if info.get(k) != v]
        lat = dict(zip(("l1", "l2", "l3"), (c * 1000 / mhz for c in cycles)), mem=mem_ns)
        bad += [f"latency {k}={info['latency-ns'][k]}, expected {v}"
                for k, v in lat.items() if abs(info["latency-ns"][k] - v) > 1e-6]
        if [c["cpu-index"] for c in info["cpus"]] != list(range(smp)):
            bad.append(f"cpus {info['cpus']}, expected {smp}")
    report(name, "FAIL" if bad else "PASS", "\n".join(bad))


timing("timing=on: default figures", "virt,mpam=on,timing=on", 1, 2500, 1000,
       (4, 11, 88), 90, "-icount", "shift=0,sleep=off")
timing("timing=on: figures from -global", "virt,mpam=on,timing=on", 2, 2000, 1000,
       (5, 12, 80), 100, "-icount", "shift=0,sleep=off",
       "-global", "memqos-timing.timing-mhz=2000",
       "-global", "memqos-timing.timing-l1-cycles=5",
       "-global", "memqos-timing.timing-l2-cycles=12",
       "-global", "memqos-timing.timing-l3-cycles=80",
       "-global", "memqos-timing.timing-mem-ns=100")
timing("without timing=on: query-memqos-timing fails", "virt,mpam=on", 1, 0, 0, (), 0)

# ---- ddr=on: the DDR QoS model behind memory (hw/ddr-qos) ------------------
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "lib"))
import ddr_config  # noqa: E402
CLASSES = {"lpr": "LPR", "vpr": "VPR", "hpr": "HPR", "npw": "NPW", "vpw": "VPW"}


def map_classes(text):
    """DSPRI -> class of a map string (docs/ddr-qos-model.md)."""
    out = {}
    for part in text.split(","):
        rng, cls = part.split(":")
        lo, _, hi = rng.partition("-")
        for d in range(int(lo), int(hi or lo) + 1):
            out[d] = CLASSES[cls.lower()]
    return out


@case
def ddr(name, machine, given, maps, *extra):
    """ddr=on starts; every memqos-ddr property reads back as the model's
    table default (hw/ddr-qos/ddr-config.c) or as GIVEN; query-memqos-ddr
    shows the maps and, per PARTID, the L3 MSC's effective DSPRI
    (query-mpam) and the classes the maps give it."""
    want = {**ddr_config.defaults(), **given}
    cmds = [qom("/machine/memqos-ddr", k) for k in want] + \
        [qom("/machine/memqos-ddr", "ddr-read-map"), qom("/machine/memqos-ddr", "ddr-write-map"),
         {"execute": "query-memqos-ddr"}, {"execute": "query-mpam", "arguments": {"all": True}}]
    rc, err, ans = run(machine, "-cpu", "max", *ICOUNT, *extra, cmds=cmds)
    if rc != 0 or len(ans) != len(cmds) or any("return" not in a for a in ans):
        report(name, "FAIL", f"-M {machine} {' '.join(extra)}: exit {rc}\n{err.strip()}\n{ans}")
        return
    bad = [f"{k} = {a['return']}, expected {v}" for (k, v), a in zip(want.items(), ans)
           if a["return"] != v]
    rmap, wmap, info, mpam = (a["return"] for a in ans[len(want):])
    for got, exp, what in ((rmap, maps[0], "ddr-read-map"), (wmap, maps[1], "ddr-write-map"),
                           (info["read-map"], maps[0], "read-map"),
                           (info["write-map"], maps[1], "write-map")):
        if map_classes(got) != map_classes(exp):
            bad.append(f"{what} {got}, expected {exp}")
    rc_map, wc_map = map_classes(maps[0]), map_classes(maps[1])
    l3 = next(m for m in mpam["msc"] if m["name"] == "l3")["ris"][0]["partids"]
    if len(info["partids"]) != len(l3):
        bad.append(f"{len(info['partids'])} PARTIDs, the L3 MSC has {len(l3)}")
    for p, q in zip(info["partids"], l3):
        # the platform's L3: 4-bit DSPRI, 0 the lowest, so the value passes unchanged
        exp = (q["partid"], q["effective-dspri"], rc_map[q["effective-dspri"]],
               wc_map[q["effective-dspri"]])
        got = (p["partid"], p["dspri"], p["read-class"], p["write-class"])
        if got != exp:
            bad.append(f"PARTID {q['partid']}: {got}, expected {exp}")
    if [c["name"] for c in info["classes"]] != list(CLASSES.values()):
        bad.append(f"classes {[c['name'] for c in info['classes']]}")
    report(name, "FAIL" if bad else "PASS", "\n".join(bad))


DEFAULT_MAPS = ("0-5:lpr,6-10:vpr,11-15:hpr", "0-7:npw,8-15:vpw")
ddr("ddr=on: the model's defaults, classes of the policy's DSPRI",
    "virt,mpam=on,timing=on,ddr=on,mpam-dspri=1:3;2:8;3:12", {}, DEFAULT_MAPS)
ddr("ddr=on: properties and maps from -global",
    "virt,mpam=on,timing=on,ddr=on,mpam-dspri=1:3;2:8", {"ddr-channels": 4, "ddr-cl": 44},
    ("0-1:lpr,2-3:vpr,4-15:hpr", "0-14:npw,15:vpw"),
    "-global", "memqos-ddr.ddr-channels=4", "-global", "memqos-ddr.ddr-cl=44",
    "-global", "memqos-ddr.ddr-read-map=0-1:lpr,2-3:vpr,4-15:hpr",
    "-global", "memqos-ddr.ddr-write-map=0-14:npw,15:vpw")


@case
def no_ddr_query():
    rc, err, ans = run("virt,mpam=on,timing=on", "-cpu", "max", *ICOUNT,
                       cmds=[{"execute": "query-memqos-ddr"}])
    ok = rc == 0 and ans and "no DDR model" in ans[0].get("error", {}).get("desc", "")
    report("without ddr=on: query-memqos-ddr fails", "PASS" if ok else "FAIL",
           f"exit {rc}: {ans}\n{err.strip()}")


no_ddr_query()
reject("ddr=on without timing=on", "virt,mpam=on,ddr=on", "ddr=on needs timing=on")
reject("ddr=on without mpam=on", "virt,ddr=on", "ddr=on needs mpam=on and timing=on")
for prop, val, msg in (
        ("ddr-read-map", "0-10:hpr,11-15:lpr",
         "ddr-read-map is not monotonic: DSPRI 11 is LPR but the lower DSPRI 10 is HPR"),
        ("ddr-read-map", "0-5:lpr,7-15:hpr", "ddr-read-map: DSPRI 6 is not mapped to a class"),
        ("ddr-write-map", "0-7:vpw,8-15:npw", "ddr-write-map is not monotonic"),
        ("ddr-read-map", "0-15:xyz", "ddr-read-map: unknown class 'xyz'"),
        ("ddr-cl", "0", "ddr-cl must be greater than 0"),
        ("ddr-trcd", "0", "ddr-trcd must be greater than 0"),
        ("ddr-data-rate-mts", "0", "ddr-data-rate-mts must be greater than 0"),
        ("ddr-trfc-ps", "3900000", "ddr-trfc-ps=3900000 must be less than ddr-trefi-ps"),
        ("ddr-cl", "-1", "ddr-cl")):
    reject(f"ddr: {prop}={val}", "virt,mpam=on,timing=on,ddr=on", msg, *ICOUNT,
           "-global", f"memqos-ddr.{prop}={val}")


# ---- bwmon=on: Qualcomm BWMON monitors and OSM L3 providers (hw/bwmon) -----
reject("bwmon=on without timing=on", "virt,mpam=on,bwmon=on",
       "bwmon=on needs mpam=on and timing=on")
reject("bwmon=on without mpam=on", "virt,bwmon=on", "bwmon=on needs mpam=on and timing=on")


@case
def bwmon_devices():
    """bwmon=on creates the CPU (v4 sdm845) and LLCC (v5) monitors and two
    OSM L3 providers at the lowest LUT row (300 MHz: GPLL0 / 2); the
    monitors' state reads back at reset; without bwmon=on none of them."""
    paths = {"/machine/memqos-bwmon-cpu": "memqos-bwmon-v4-sdm845",
             "/machine/memqos-bwmon-llcc": "memqos-bwmon-v5-llcc",
             "/machine/memqos-osm-l3-cpu": "memqos-osm-l3",
             "/machine/memqos-osm-l3-mem": "memqos-osm-l3"}
    cmds = [qom(p, "type") for p in paths] + \
        [qom(p, "freq-hz") for p in paths if "osm" in p] + \
        [qom(p, prop) for p in paths if "bwmon" in p for prop in ("irq", "irq-status")]
    want = list(paths.values()) + [300000000] * 2 + [0] * 4
    rc, err, ans = run("virt,mpam=on,timing=on,bwmon=on", "-cpu", "max", *ICOUNT, cmds=cmds)
    got = [a.get("return", a.get("error")) for a in ans]
    bad = [] if rc == 0 and got == want else [f"exit {rc}: {got}, expected {want}\n{err.strip()}"]
    rc, err, ans = run("virt,mpam=on,timing=on", "-cpu", "max", *ICOUNT,
                       cmds=[qom(p, "type") for p in paths])
    if rc != 0 or any("error" not in a for a in ans):
        bad.append(f"without bwmon=on: exit {rc}: {ans}")
    report("bwmon=on: two monitors and two OSM L3 providers", "FAIL" if bad else "PASS",
           "\n".join(bad))


bwmon_devices()
reject("bwmon=on: an OSM L3 pin that is no row", "virt,mpam=on,timing=on,bwmon=on",
       "memqos-osm-l3: pin=sideways: expected none, lowest, top or a LUT row 0..39",
       "-cpu", "max", *ICOUNT, "-global", "memqos-osm-l3.pin=sideways")


@case
def bwmon_pins():
    """The three configurations' mechanism (presets bwmon-fixed and
    bwmon-novote): -global memqos-osm-l3.pin=top runs both providers at the
    LUT's top row (xo x 83 = 1593.6 MHz) from reset, pin=5 at row 5
    (xo x 39 = 748.8 MHz), pin=lowest at 300 MHz."""
    bad = []
    for pin, hz in (("top", 19200000 * 83), ("5", 19200000 * 39), ("lowest", 300000000)):
        rc, err, ans = run("virt,mpam=on,timing=on,bwmon=on", "-cpu", "max", *ICOUNT,
                           "-global", f"memqos-osm-l3.pin={pin}",
                           cmds=[qom(f"/machine/memqos-osm-l3-{p}", "freq-hz")
                                 for p in ("cpu", "mem")])
        got = [a.get("return", a.get("error")) for a in ans]
        if rc != 0 or got != [hz, hz]:
            bad.append(f"pin={pin}: exit {rc}: {got}, expected {[hz, hz]}\n{err.strip()}")
    report("bwmon=on: memqos-osm-l3.pin runs both providers at the pinned row",
           "FAIL" if bad else "PASS", "\n".join(bad))


bwmon_pins()
reject("bwmon-cpu without bwmon=on", "virt,mpam=on,timing=on,bwmon-cpu=msm8998",
       "bwmon-cpu needs bwmon=on", "-cpu", "max", *ICOUNT)
reject("bwmon-cpu: a layout that is none", "virt,mpam=on,timing=on,bwmon=on,bwmon-cpu=sm8550",
       "bwmon-cpu=sm8550: expected sdm845 or msm8998", "-cpu", "max", *ICOUNT)


@case
def bwmon_query():
    """query-memqos-bwmon at reset: each monitor in the layout bwmon-cpu
    asks for (sdm845 by default, msm8998) with its compatible and count unit
    (guest-requirements.md §5.1: 64 KiB sdm845, 1 MiB msm8998 and LLCC),
    disabled, SAMPLE_WINDOW 0 (every register resets to 0), no window
    closed, line low; both providers at PERF_STATE 0, the LUT's 14 rows,
    300 MHz (GPLL0 / 2) = 4 800 000 kBps over the 16-byte bus."""
    mons = {"": [("v4-sdm845", "qcom,sdm845-bwmon", 65536), ("v5-llcc", "qcom,sdm845-llcc-bwmon",
                                                             1 << 20)],
            ",bwmon-cpu=msm8998": [("v4-msm8998", "qcom,msm8998-bwmon", 1 << 20),
                                   ("v5-llcc", "qcom,sdm845-llcc-bwmon", 1 << 20)]}
    reset = {"enabled": False, "sample-window": 0, "window-ns": 0, "windows": 0, "bytes": 0,
             "irq-status": 0, "irq-enable": 0, "irq": False}
    osm = {"rows": 14, "perf-state": 0, "row": 0, "vote-hz": 300000000, "freq-hz": 300000000,
           "vote-kbps": 4800000, "pinned": False}
    bad = []
    for opt, want in mons.items():
        rc, err, ans = run("virt,mpam=on,timing=on,bwmon=on" + opt, "-cpu", "max", *ICOUNT,
                           cmds=[{"execute": "query-memqos-bwmon"}])
        info = ans[0].get("return", {}) if ans else {}
        got = [(m["path"], m["layout"], m["compatible"], m["count-unit-bytes"],
                {k: m[k] for k in reset}) for m in info.get("monitors", [])]
        exp = [(p, *w, reset) for p, w in zip(("/machine/memqos-bwmon-cpu",
                                               "/machine/memqos-bwmon-llcc"), want)]
        gotp = [(p["path"], {k: p[k] for k in osm}) for p in info.get("providers", [])]
        expp = [(p, osm) for p in ("/machine/memqos-osm-l3-cpu", "/machine/memqos-osm-l3-mem")]
        if rc != 0 or got != exp or gotp != expp:
            bad.append(f"-M ...bwmon=on{opt}: exit {rc}: {got} {gotp}, expected {exp} {expp}\n"
                       f"{err.strip()}")
    rc, err, ans = run("virt,mpam=on,timing=on", "-cpu", "max", *ICOUNT,
                       cmds=[{"execute": "query-memqos-bwmon"}])
    if "bwmon=on" not in str(ans):
        bad.append(f"without bwmon=on: {ans}, expected an error naming bwmon=on")
    report("bwmon=on: query-memqos-bwmon shows each monitor's layout and reset state, each "
           "provider's vote and frequency", "FAIL" if bad else "PASS", "\n".join(bad))


bwmon_query()

# ---- memqos-agent: background agents on the modeled L3 and DDR (hw/agents) --
DDR_M = "virt,mpam=on,timing=on,ddr=on"
_d = ddr_config.defaults()
PEAK = _d["ddr-channels"] * _d["ddr-data-rate-mts"] * 1000000 * _d["ddr-bus-bytes"]
AGENT = "memqos-agent,id=load,outstanding=16"
reject("memqos-agent without ddr=on", "virt,mpam=on,timing=on",
       "memqos-agent needs -M virt,mpam=on,timing=on,ddr=on", *ICOUNT, "-object", AGENT)
reject("memqos-agent without mpam=on", "virt",
       "memqos-agent needs -M virt,mpam=on,timing=on,ddr=on", "-object", AGENT)
for opts, msg in (
        ("bandwidth=1000,outstanding=4", "agent load: set either bandwidth (open loop) or "
         "outstanding (closed loop), not both"),
        ("footprint=1M", "agent load: set either bandwidth (open loop) or outstanding"),
        (f"bandwidth={PEAK + 1}", f"agent load: bandwidth {PEAK + 1} B/s is above the DDR peak "
         f"{PEAK} B/s"),
        ("outstanding=0", "agent load: outstanding must be greater than 0 (got 0)"),
        ("outstanding=4,footprint=100", "agent load: footprint 100 is not a multiple of the "
         "64-byte line"),
        ("outstanding=4,write-permille=1001", "agent load: write-permille must be 0 to 1000"),
        ("outstanding=4,pattern=strided", "pattern")):
    reject(f"memqos-agent {opts}", DDR_M, msg, *ICOUNT, "-object", f"memqos-agent,id=load,{opts}")


@case
def agent_qmp():
    """An agent joins the machine with its configuration; qom-set changes it
    or is refused with the model's message, leaving it as it was;
    query-memqos-agents shows it with its PARTID's DSPRI and class; the
    set keeps it (object-del refused).  QEMU is stopped (-S): no requests."""
    def qs(prop, value):
        return {"execute": "qom-set",
                "arguments": {"path": "/objects/load", "property": prop, "value": value}}
    q = {"execute": "query-memqos-agents"}
    cmds = [q, qs("outstanding", 0), qs("bandwidth", PEAK * 2), q, qs("bandwidth", 1 << 30),
            qs("partid", 3), qs("running", False), q,
            {"execute": "object-del", "arguments": {"id": "load"}}]
    rc, err, ans = run(DDR_M + ",mpam-dspri=3:12", "-cpu", "max", *ICOUNT, "-object",
                       "memqos-agent,id=load,outstanding=16,partid=2,pattern=random",
                       cmds=cmds)
    bad = []
    if rc != 0 or len(ans) != len(cmds):
        report("memqos-agent: qom-set and query-memqos-agents", "FAIL",
               f"exit {rc}: {ans}\n{err.strip()}")
        return

    def agent(a):
        return a.get("return", {}).get("agents", [{}])[0]
    first = agent(ans[0])
    if (first.get("id"), first.get("outstanding"), first.get("partid"), first.get("running"),
            first.get("requests")) != ("load", 16, 2, True, 0) or "bandwidth" in first:
        bad.append(f"at start: {first}")
    if "outstanding must be greater than 0" not in ans[1].get("error", {}).get("desc", ""):
        bad.append(f"outstanding=0: {ans[1]}")
    if "above the DDR peak" not in ans[2].get("error", {}).get("desc", ""):
        bad.append(f"bandwidth 2 x peak: {ans[2]}")
    if agent(ans[3]) != first:
        bad.append(f"after the refusals: {agent(ans[3])}, expected {first}")
    last = agent(ans[7])
    # PARTID 3 has DSPRI 12 by the policy: HPR by the default map
    if (last.get("bandwidth"), "outstanding" in last, last.get("partid"), last.get("dspri"),
            last.get("read-class"), last.get("running")) != (1 << 30, False, 3, 12, "HPR", False):
        bad.append(f"after bandwidth, partid 3, running off: {last}")
    if "error" not in ans[8]:
        bad.append(f"object-del of a joined agent: {ans[8]}")
    report("memqos-agent: qom-set and query-memqos-agents", "FAIL" if bad else "PASS",
           "\n".join(bad))


agent_qmp()


# ---- bandwidth regulation on the memory MSC (docs/mbw-regulation.md) -------
MEM = "/machine/mpam-msc-mem"

# issue 25: values the BWMON platform took silently
reject("bwmon: count-unit-bytes=3", "virt,mpam=on,timing=on,bwmon=on",
       "memqos-bwmon-v4-sdm845: count-unit-bytes=3 is not a power of two", *ICOUNT,
       "-global", "memqos-bwmon.count-unit-bytes=3")
reject("bwmon: osm-l3 timing-cycles=4294967294", "virt,mpam=on,timing=on,bwmon=on",
       "memqos-osm-l3: timing-cycles=4294967294 is more than 100000", *ICOUNT,
       "-global", "memqos-osm-l3.timing-cycles=4294967294")

reject("agent partid beyond mpam-partids", "virt,mpam=on,timing=on,ddr=on,mpam-partids=32",
       "agent a1: partid=40 is beyond the platform's PARTIDs (at most 31)", *ICOUNT,
       "-object", "memqos-agent,id=a1,partid=40,footprint=1G,outstanding=4")

reject("agent outstanding above 2^63 - 1", "virt,mpam=on,timing=on,ddr=on",
       "outstanding=18446744073709551615 is more than 9223372036854775807", *ICOUNT,
       "-object", "memqos-agent,id=a1,footprint=1G,outstanding=18446744073709551615")


def qom_set(path, prop, value):
    return {"execute": "qom-set", "arguments": {"path": path, "property": prop, "value": value}}


def ddr_peak(**given):
    """channels x data rate x bus width (ddr_config_peak_bytes_per_s)."""
    c = {**ddr_config.defaults(), **given}
    return c["ddr-channels"] * c["ddr-data-rate-mts"] * 10**6 * c["ddr-bus-bytes"]


@case
def mbw(name, machine, peak, policy, *extra):
    """The memory MSC regulates PEAK bytes/s (the L3 MSC nothing) and reads
    back POLICY; at run time qom-set replaces the policy, and a bad one is
    refused with its message and changes nothing."""
    cmds = [qom(MEM, "mbw-bytes-per-s"), qom("/machine/mpam-msc-l3", "mbw-bytes-per-s"),
            qom(MEM, "mbw-policy"), qom_set(MEM, "mbw-policy", "2:min=10%"),
            qom(MEM, "mbw-policy"), qom_set(MEM, "mbw-policy", "2:min=10%;x"),
            qom(MEM, "mbw-policy"), qom_set(MEM, "mbw-policy", ""), qom(MEM, "mbw-policy")]
    rc, err, ans = run(machine, "-cpu", "max", *ICOUNT, *extra, cmds=cmds)
    want = [peak, 0, policy, {}, "2:min=10%", "bad bandwidth policy entry 'x'", "2:min=10%",
            {}, ""]
    got = [a.get("return", a.get("error", {}).get("desc")) for a in ans]
    bad = [] if rc == 0 and len(got) == len(want) else [f"exit {rc}: {ans}\n{err.strip()}"]
    bad += [f"{c['execute']} {c['arguments']['property']}: {g!r}, expected {w!r}"
            for c, g, w in zip(cmds, got, want)
            if not (g == w or isinstance(w, str) and isinstance(g, str) and w and w in g)]
    report(name, "FAIL" if bad else "PASS", "\n".join(bad))


POLICY = "1:hardlim;2:prop=1;3:prop=7:min=25%"
mbw("mbw: no regulation by default", "virt,mpam=on,timing=on", 0, "")
mbw("mbw: ddr=on regulates the DDR model's peak", "virt,mpam=on,timing=on,ddr=on",
    ddr_peak(), "")
mbw("mbw: ddr=on with 4 channels from -global", "virt,mpam=on,timing=on,ddr=on",
    ddr_peak(**{"ddr-channels": 4}), "", "-global", "memqos-ddr.ddr-channels=4")
mbw("mbw: mpam-mbw-peak and mpam-mbw-policy", f"virt,mpam=on,timing=on,mpam-mbw-peak=512M,"
    f"mpam-mbw-policy={POLICY}", 512 * MIB, POLICY)
mbw("mbw: mpam-mbw-peak below the DDR model's", "virt,mpam=on,timing=on,ddr=on,"
    "mpam-mbw-peak=1000000000", 10**9, "")
mbw("mbw: mpam-mbw-peak=0 switches it off", "virt,mpam=on,timing=on,ddr=on,mpam-mbw-peak=0",
    0, "")
reject("mpam-mbw-peak without timing=on", "virt,mpam=on,mpam-mbw-peak=1G",
       "mpam-mbw-peak needs timing=on")
reject("mpam-mbw-peak above the DDR model's", "virt,mpam=on,timing=on,ddr=on,mpam-mbw-peak=1T",
       f"mpam-mbw-peak=1099511627776 is above the DDR model's peak, {ddr_peak()} bytes/s",
       *ICOUNT)
reject("mpam-mbw-peak=17T", "virt,mpam=on,timing=on,mpam-mbw-peak=17T",
       "mpam-mbw-peak=18691697672192 is out of range 0..17592186044416", *ICOUNT)
reject("mpam-mbw-peak not a size", "virt,mpam=on,timing=on,mpam-mbw-peak=fast",
       "mpam-mbw-peak", *ICOUNT)
for pol, msg in (("x", "bad bandwidth policy entry 'x' (expected PARTID:ITEM"),
                 ("1", "bad bandwidth policy entry '1'"),
                 ("1:softlim", "bandwidth policy entry '1:softlim': unknown bandwidth policy item 'softlim'"),
                 ("1:min=101%", "bandwidth policy entry '1:min=101%': 'min=101%': the minimum is a whole "
                  "percentage"),
                 ("1:min=25", "bandwidth policy entry '1:min=25': 'min=25': the minimum is a whole percentage"),
                 ("1:prop=0", "bandwidth policy entry '1:prop=0': 'prop=0': the stride is 1..256"),
                 ("1:prop=257", "bandwidth policy entry '1:prop=257': 'prop=257': the stride is 1..256"),
                 ("64:hardlim", "bandwidth policy entry '64:hardlim': PARTID 64 is above PARTID_MAX 63"),
                 ("1:hardlim;1:min=5%", "bandwidth policy entry '1:min=5%': PARTID 1 is given twice")):
    reject(f"mpam-mbw-policy={pol}", f"virt,mpam=on,mpam-mbw-policy={pol}", f"-M virt mpam-mbw-policy: MSC 'mem': mbw-policy: {msg}")


@case
def stock():
    rc, err, ans = run("virt", "-cpu", "max", cmds=[{"execute": "query-mpam"},
                                                   qom("/machine", "mpam")])
    ok = rc == 0 and len(ans) == 2 and \
        ans[0].get("return") == {"msc": [], "cpus": []} and ans[1].get("return") is False
    report("without mpam=on: no MSC, no labels", "PASS" if ok else "FAIL",
           f"exit {rc}: {ans}\n{err.strip()}")


stock()

# ---- rejected: every check of mpam-virt-qemu.c and of the MSC realize -----
for opt, val in (("mpam-partids", "16"), ("mpam-pmgs", "4"), ("l3-size", "4M"),
                 ("l3-ways", "8"), ("mpam-dspri", "1:3"), ("l1d-size", "32K"),
                 ("l1d-ways", "8"), ("l1i-size", "32K"), ("l1i-ways", "8"),
                 ("l2-size", "512K"), ("l2-ways", "4"), ("mpam-mbw-peak", "1G"),
                 ("mpam-mbw-policy", "1:hardlim")):
    reject(f"{opt} without mpam=on", f"virt,{opt}={val}", f"{opt} needs mpam=on")
reject("timing=on without mpam=on", "virt,timing=on", "timing=on needs mpam=on")
reject("option with mpam=off", "virt,mpam=off,l3-ways=8", "l3-ways needs mpam=on")
reject("mpam-partids=0", "virt,mpam=on,mpam-partids=0",
       "mpam-partids=0 is out of range 1..65536")
reject("mpam-partids=65537", "virt,mpam=on,mpam-partids=65537",
       "mpam-partids=65537 is out of range 1..65536")
reject("mpam-partids not a number", "virt,mpam=on,mpam-partids=many", "mpam-partids")
reject("mpam-pmgs=0", "virt,mpam=on,mpam-pmgs=0", "mpam-pmgs=0 is out of range 1..256")
reject("mpam-pmgs=257", "virt,mpam=on,mpam-pmgs=257",
       "mpam-pmgs=257 is out of range 1..256")
reject("l3-ways=0", "virt,mpam=on,l3-ways=0", "l3-ways=0 is out of range 1..255")
reject("l3-ways=256", "virt,mpam=on,l3-ways=256", "l3-ways=256 is out of range 1..255")
reject("l3-size=0", "virt,mpam=on,l3-size=0", "l3-size=0 is out of range 1..")
reject("l3-size=4G: larger than 32768 sets of 255 ways", "virt,mpam=on,l3-size=4G",
       "l3-size=4294967296 is out of range 1..534773760")
reject("l3-size not a size", "virt,mpam=on,l3-size=big", "l3-size")
reject("l3-size not a multiple of ways * 64", "virt,mpam=on,l3-size=1000",
       "l3-size=1000 does not give the L3 a power-of-two number of sets")
reject("l3-size with a non-power-of-two set count", "virt,mpam=on,l3-size=3M",
       "l3-size=3145728 does not give the L3 a power-of-two number of sets")
reject("l3-size with more than 32768 sets", "virt,mpam=on,l3-size=256M,l3-ways=16",
       "l3-size=268435456 does not give the L3 a power-of-two number of sets up to 32768")
reject("l2-size with a non-power-of-two set count", "virt,mpam=on,l2-size=768K",
       "l2-size=786432 does not give the L2 a power-of-two number of sets")
reject("l1d-size not a multiple of ways * 64", "virt,mpam=on,l1d-size=1000",
       "l1d-size=1000 does not give the L1D a power-of-two number of sets")
reject("l1i-ways=0", "virt,mpam=on,l1i-ways=0", "l1i-ways=0 is out of range 1..255")
reject("L3 larger than guest memory", "virt,mpam=on,l3-size=256M,l3-ways=128",
       "l3-size=268435456 is larger than guest memory", "-m", "128M")
reject("timing=on without -icount", "virt,mpam=on,timing=on",
       "timing=on needs -icount shift=0,sleep=off")
reject("timing=on with -icount shift=auto", "virt,mpam=on,timing=on",
       "timing=on needs -icount shift=0,sleep=off", "-icount", "shift=auto")
reject("timing=on with -icount sleep=on", "virt,mpam=on,timing=on",
       "timing=on needs -icount shift=0,sleep=off", "-icount", "shift=0")
for prop, val, msg in (("timing-mhz", 0, "timing-mhz"),
                       ("timing-cpi-milli", 0, "timing-cpi-milli must be greater than 0"),
                       # issue 25's first crash: a clock given in Hz
                       ("timing-mhz", 2500000000, "timing-mhz=2500000000 is too fast for "
                        "timing-cpi-milli=1000: an instruction would take less than 1 fs"),
                       ("timing-l2-cycles", 3, "timing-l2-cycles"),
                       ("timing-l3-cycles", 10, "timing-l3-cycles"),
                       ("timing-mem-ns", 1, "timing-mem-ns"),
                       ("timing-quantum-ns", 0, "timing-quantum-ns"),
                       ("timing-prefetch-lines", 65, "timing-prefetch-lines=65 is more than 64"),
                       ("timing-prefetch-stride", 4097,
                        "timing-prefetch-stride=4097 is more than 4096 (a page)"),
                       ("timing-store-lines", 4097, "timing-store-lines=4097 is more than 4096"),
                       ("timing-dma-partid", 64,
                        "timing-dma-partid=64 is beyond the platform's labels (at most 63)"),
                       ("timing-dma-pmg", 8,
                        "timing-dma-pmg=8 is beyond the platform's labels (at most 7)")):
    reject(f"timing: {prop}={val}", "virt,mpam=on,timing=on", msg, *ICOUNT,
           "-global", f"memqos-timing.{prop}={val}")

reject("more than one socket", "virt,mpam=on", "needs sockets=1 (got 2)",
       "-cpu", "max", "-smp", "2,sockets=2")
reject("CPU type without MPAM", "virt,mpam=on", "CPU type cortex-a15-arm-cpu has no MPAM",
       "-cpu", "cortex-a15")
reject("mpam-dspri entry not PARTID:DSPRI", "virt,mpam=on,mpam-dspri=x",
       "bad priority policy entry 'x'")
reject("mpam-dspri entry with four fields", "virt,mpam=on,mpam-dspri=1:2:3:4",
       "bad priority policy entry '1:2:3:4'")
reject("mpam-dspri PARTID above PARTID_MAX", "virt,mpam=on,mpam-dspri=64:1",
       "priority policy PARTID 64 is above PARTID_MAX 63")
reject("mpam-dspri PARTID above a smaller mpam-partids",
       "virt,mpam=on,mpam-partids=16,mpam-dspri=16:1",
       "priority policy PARTID 16 is above PARTID_MAX 15")
reject("mpam-dspri with a PARTID given twice", "virt,mpam=on,mpam-dspri=1:3;1:4",
       "priority policy entry '1:4': PARTID 1 is given twice")
reject("mpam-dspri DSPRI wider than 4 bits", "virt,mpam=on,mpam-dspri=1:16",
       "dspri 16 does not fit DSPRI_WD=4")
reject("mpam-dspri INTPRI wider than 4 bits", "virt,mpam=on,mpam-dspri=1:1:16",
       "intpri 16 does not fit INTPRI_WD=4")
# issue 25's second crash: sizes that aborted QEMU on an allocation
for prop, val, msg in (("ddr-channels", 4294967295, "ddr-channels=4294967295 is more than 256"),
                       ("ddr-lpr-entries", 4294967295,
                        "ddr-lpr-entries=4294967295 is more than 4096 entries"),
                       ("ddr-banks", 2147483648, "ddr-banks=2147483648 is more than 256")):
    reject(f"ddr: {prop}={val}", "virt,mpam=on,timing=on,ddr=on", msg, *ICOUNT,
           "-global", f"memqos-ddr.{prop}={val}")


def qom_set(path, prop, value):
    return {"execute": "qom-set", "arguments": {"path": path, "property": prop,
                                                "value": value}}


@case
def fixed_at_run_time():
    """Issue 25's third and fourth crashes: an MSC's kind and the machine's
    MPAM options cannot change once built; each qom-set is refused naming
    the property, and query-mpam and the values read back are as before."""
    sets = [("/machine/mpam-msc-l3", "kind", "memory", "MPAM MSC 'l3': kind cannot change"),
            ("/machine", "l3-ways", 0, "l3-ways cannot change once the machine is built"),
            ("/machine", "l1d-ways", 0, "l1d-ways cannot change once the machine is built"),
            ("/machine", "mpam-partids", 8, "mpam-partids cannot change"),
            ("/machine", "l3-size", 1 << 20, "l3-size cannot change"),
            ("/machine", "mpam", False, "mpam cannot change"),
            ("/machine", "timing", True, "timing cannot change"),
            ("/machine", "mpam-dspri", "1:3", "mpam-dspri cannot change")]
    reads = [qom(path, prop) for path, prop, _, _ in sets] + [{"execute": "query-mpam"}]
    cmds = reads + [qom_set(path, prop, v) for path, prop, v, _ in sets] + reads
    rc, err, ans = run("virt,mpam=on", "-cpu", "max", cmds=cmds)
    if rc != 0 or len(ans) != len(cmds):
        report("qom-set of fixed options at run time", "FAIL",
               f"exit {rc}, {len(ans)} of {len(cmds)} answers\n{err.strip()}")
        return
    n = len(reads)
    bad = [f"qom-set {path} {prop}={v}: {a}" for (path, prop, v, msg), a
           in zip(sets, ans[n:n + len(sets)]) if msg not in a.get("error", {}).get("desc", "")]
    if ans[:n] != ans[n + len(sets):]:
        bad.append(f"the state changed: before {ans[:n]}, after {ans[n + len(sets):]}")
    report("qom-set of fixed options at run time: refused by name, nothing changed",
           "FAIL" if bad else "PASS", "\n".join(bad))


fixed_at_run_time()

reject("unknown option", "virt,mpam=on,mpam-feature=1", "mpam-feature' not found")
# mpam=on needs TCG: only an aarch64 host with KVM can ask for anything else
import platform
if platform.machine() == "aarch64" and os.path.exists("/dev/kvm"):
    reject("mpam=on under KVM", "virt,mpam=on", "mpam=on needs TCG", "-accel", "kvm",
           "-cpu", "host")
else:
    case(report)("mpam=on under KVM", "SKIP",
                 f"needs an aarch64 host with KVM, this is {platform.machine()}")

print(f"1..{len(cases)}")
sys.stdout.flush()
for run_case in cases:
    run_case()
n = {r: sum(1 for x in results if x[1] == r) for r in ("PASS", "FAIL", "SKIP")}
print(f"machine-options: {n['PASS']} passed, {n['FAIL']} failed, {n['SKIP']} skipped")
sys.exit(1 if n["FAIL"] else 0)
EOF

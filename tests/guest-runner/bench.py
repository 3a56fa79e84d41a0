#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Wall time of the access stream: plain TCG, icount, the timing model, QEMU's cache plugin.

Boots the same guest once per variant with the bench scenario
(guest-tests/scenarios/bench.sh: memqos-stream over buffers that stay in
L1, L2, L3 and memory, then memqos-chase, on CPU 0) and times each program
on the host by the arrival of its console lines, so the variants are
compared in host seconds whatever clock the guest has.  Every stream reads
the same number of bytes.  Variants:

  plain         -M virt,mpam=on: TCG without the model (host time)
  icount        plain TCG under -icount shift=0,sleep=off, which the timing
                model runs on: what icount alone costs, without the model
  timing        --timing: the access stream, the cache hierarchy and the
                MSCs, modeled time (issue 7)
  cache-plugin  plain TCG with QEMU's contrib/plugins/libcache.so at its
                defaults (a call into C on every access), built in the
                QEMU build directory if missing

Prints one MEASURE line per variant and program and a Markdown table with
the ratios to plain TCG (docs/benchmarks.md).  A benchmark, not a test:
the figures depend on the host; run it on an idle machine.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import TOP, Boot, Config, add_boot_args  # noqa: E402

VARIANTS = ("plain", "icount", "timing", "cache-plugin")
MIB = 1 << 20


def plugin_path(qemu):
    """contrib/plugins/libcache.so of the QEMU build that made QEMU."""
    build = os.path.dirname(os.path.realpath(qemu))
    so = os.path.join(build, "contrib", "plugins", "libcache.so")
    if not os.path.exists(so):
        print(f"INFO building {so}", flush=True)
        subprocess.run(["ninja", "-C", build, "contrib/plugins/libcache.so"], check=True,
                       stdout=subprocess.DEVNULL)
    return so


def label(prog):
    """stream-524288 -> stream 512 KiB"""
    if not prog.startswith("stream-"):
        return prog
    n = int(prog[7:])
    return f"stream {n >> 20} MiB" if n >= MIB else f"stream {n >> 10} KiB"


def programs(a):
    return [f"stream-{s}" for s in a.stream_sizes] + ["chase"]


def run_variant(a, name, qemu):
    cfg = Config(name == "timing", True, {})
    params = {"scenario": "bench",
              "bench-stream": ",".join(f"{s}:{max(1, a.stream_bytes // s)}" for s in a.stream_sizes),
              "bench-chase": f"{a.chase_size}:{a.chase_loads}"}
    extra = (["-plugin", plugin_path(qemu)] if name == "cache-plugin" else
             ["-icount", "shift=0,sleep=off"] if name == "icount" else [])
    boot = Boot(name, 1, params, extra)
    boot.run(a, cfg)
    ok, detail = boot.ok()
    if not ok:
        sys.exit(f"bench: the {name} boot failed: {detail}")
    start, secs = {}, {}
    for (tag, kv, _), t in zip(boot.data, boot.when):
        if tag == "bench-start":
            start[kv.get("prog")] = t
        elif tag.startswith("bench-") and tag[6:] in programs(a):
            if "error" in kv:
                sys.exit(f"bench: {name}: {tag}: {kv['error']}")
            secs[tag[6:]] = t - start[tag[6:]]
    for p in programs(a):
        print(f"MEASURE {name} {p}: {secs[p]:.2f} s wall", flush=True)
    return secs


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0],
                                epilog="Builds nothing but the plugin: run make qemu kernel "
                                "initramfs first.")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help=f"comma-separated subset of {','.join(VARIANTS)} (default: all)")
    p.add_argument("--stream-sizes", default=f"{16 << 10},{512 << 10},{4 << 20},{64 << 20}",
                   help="memqos-stream buffers in bytes (default: 16 KiB, 512 KiB, 4 MiB, "
                   "64 MiB: a quarter of the L1D, whose 4 pages fit its 4 ways whatever their "
                   "physical colours, half of L2 and L3 at the platform's defaults, and 8 times "
                   "the L3, where every line misses every level)")
    p.add_argument("--stream-bytes", type=int, default=1 << 30,
                   help="bytes each memqos-stream reads (default 1 GiB; passes = this / size)")
    p.add_argument("--chase-size", type=int, default=32 << 20,
                   help="memqos-chase working set in bytes (default 32 MiB)")
    p.add_argument("--chase-loads", type=int, default=1 << 23,
                   help="memqos-chase loads (default 2^23)")
    add_boot_args(p, "bench", "console logs", 1800)
    a = p.parse_args(argv)
    a.stream_sizes = [int(s) for s in a.stream_sizes.split(",")]
    variants = a.variants.split(",")
    if not set(variants) <= set(VARIANTS) or "plain" not in variants:
        p.error(f"--variants: a subset of {','.join(VARIANTS)} that includes plain")
    os.makedirs(a.out, exist_ok=True)
    qemu = a.qemu or subprocess.run(["bash", os.path.join(TOP, "qemu", "build.sh"), "--print"],
                                    check=True, capture_output=True, text=True).stdout.strip()
    res = {v: run_variant(a, v, qemu) for v in variants}
    print(f"\nmemqos-stream: {a.stream_bytes / MIB:g} MiB read per buffer size (+ its fill "
          f"and one untimed pass); memqos-chase: {a.chase_size / MIB:g} MiB, {a.chase_loads} loads\n")
    print("| program | " + " | ".join(f"{v} s" for v in variants) + " | "
          + " | ".join(f"{v} / plain" for v in variants if v != "plain") + " |")
    print("|---" * (2 * len(variants)) + "|")
    for prog in programs(a):
        print(f"| {label(prog)} | " + " | ".join(f"{res[v][prog]:.2f}" for v in variants) + " | "
              + " | ".join(f"{res[v][prog] / res['plain'][prog]:.2f}x"
                           for v in variants if v != "plain") + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

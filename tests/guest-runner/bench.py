#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Wall time of the access stream: plain TCG, the timing model, QEMU's cache plugin.

Boots the same guest once per variant with the bench scenario
(guest-tests/scenarios/bench.sh: memqos-stream, then memqos-chase, on CPU 0)
and times each program on the host by the arrival of its console lines, so
the three variants are compared in host seconds whatever clock the guest
has.  Variants:

  plain         -M virt,mpam=on: TCG without the model (host time)
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

VARIANTS = ("plain", "timing", "cache-plugin")
PROGRAMS = ("stream", "chase")


def plugin_path(qemu):
    """contrib/plugins/libcache.so of the QEMU build that made QEMU."""
    build = os.path.dirname(os.path.realpath(qemu))
    so = os.path.join(build, "contrib", "plugins", "libcache.so")
    if not os.path.exists(so):
        print(f"INFO building {so}", flush=True)
        subprocess.run(["ninja", "-C", build, "contrib/plugins/libcache.so"], check=True,
                       stdout=subprocess.DEVNULL)
    return so


def run_variant(a, name, qemu):
    cfg = Config(name == "timing", True, {})
    params = {"scenario": "bench",
              "bench": f"{a.stream_size}:{a.passes}:{a.chase_size}:{a.chase_loads}"}
    extra = ["-plugin", plugin_path(qemu)] if name == "cache-plugin" else []
    boot = Boot(name, 1, params, extra)
    boot.run(a, cfg)
    ok, detail = boot.ok()
    if not ok:
        sys.exit(f"bench: the {name} boot failed: {detail}")
    start, secs = {}, {}
    for (tag, kv, _), t in zip(boot.data, boot.when):
        if tag == "bench-start":
            start[kv.get("prog")] = t
        elif tag.startswith("bench-") and tag[6:] in PROGRAMS:
            if "error" in kv:
                sys.exit(f"bench: {name}: {tag}: {kv['error']}")
            secs[tag[6:]] = t - start[tag[6:]]
    for p in PROGRAMS:
        print(f"MEASURE {name} {p}: {secs[p]:.2f} s wall", flush=True)
    return secs


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0],
                                epilog="Builds nothing but the plugin: run make qemu kernel "
                                "initramfs first.")
    p.add_argument("--variants", default=",".join(VARIANTS),
                   help=f"comma-separated subset of {','.join(VARIANTS)} (default: all)")
    p.add_argument("--stream-size", type=int, default=64 << 20,
                   help="memqos-stream buffer in bytes (default 64 MiB: 8 times the L3, "
                   "every line misses every level)")
    p.add_argument("--passes", type=int, default=4, help="memqos-stream passes (default 4)")
    p.add_argument("--chase-size", type=int, default=32 << 20,
                   help="memqos-chase working set in bytes (default 32 MiB)")
    p.add_argument("--chase-loads", type=int, default=1 << 23,
                   help="memqos-chase loads (default 2^23)")
    add_boot_args(p, "bench", "console logs", 1800)
    a = p.parse_args(argv)
    variants = a.variants.split(",")
    if not set(variants) <= set(VARIANTS) or "plain" not in variants:
        p.error(f"--variants: a subset of {','.join(VARIANTS)} that includes plain")
    os.makedirs(a.out, exist_ok=True)
    qemu = a.qemu or subprocess.run(["bash", os.path.join(TOP, "qemu", "build.sh"), "--print"],
                                    check=True, capture_output=True, text=True).stdout.strip()
    res = {v: run_variant(a, v, qemu) for v in variants}
    print(f"\nstream {a.stream_size >> 20} MiB x {a.passes} passes (+ fill and one untimed pass), "
          f"chase {a.chase_size >> 20} MiB x {a.chase_loads} loads\n")
    print("| program | " + " | ".join(f"{v} s" for v in variants) + " | "
          + " | ".join(f"{v} / plain" for v in variants if v != "plain") + " |")
    print("|---" * (2 * len(variants)) + "|")
    for prog in PROGRAMS:
        print(f"| {prog} | " + " | ".join(f"{res[v][prog]:.2f}" for v in variants) + " | "
              + " | ".join(f"{res[v][prog] / res['plain'][prog]:.2f}x"
                           for v in variants if v != "plain") + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

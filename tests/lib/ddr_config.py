# SPDX-License-Identifier: GPL-2.0-or-later
"""The DDR QoS model's configuration as the tests expect it: the defaults
read from the model's one table (ddr_config_fields[] in
hw/ddr-qos/ddr-config.c), and what follows from a configuration
(docs/ddr-qos-model.md, "Derived times" and "Integration")."""
import os
import re

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "hw", "ddr-qos", "ddr-config.c")
ROW = re.compile(r'\{\s*"(ddr-[a-z0-9-]+)",\s*F\(\w+\),\s*"[^"]*",\s*(\d+),\s*(\d+),\s*[^}]+\}')


def defaults():
    """{property: default} of every numeric property, from the C table."""
    with open(SRC) as f:
        out = {name: int(d) for name, d, _ in ROW.findall(f.read())}
    if len(out) < 20:
        raise RuntimeError(f"{SRC}: found {len(out)} rows of ddr_config_fields[]")
    return out


def nck_ps(cfg, nck):
    """nCK clock cycles in ps at the data rate, rounded (ddr_config_nck_ps)."""
    mts = cfg["ddr-data-rate-mts"]
    return (nck * 2000000 + mts // 2) // mts


def closed_read_ps(cfg):
    """A read to a closed bank, nothing queued: frontend + tRCD + CL + one
    burst (BL / 2 clocks)."""
    return cfg["ddr-frontend-ps"] + nck_ps(cfg, cfg["ddr-trcd"] + cfg["ddr-cl"] +
                                           cfg["ddr-burst-length"] // 2)


def peak_bytes_per_s(cfg):
    """One bus width per transfer on every channel (ddr_config_peak_bytes_per_s)."""
    return cfg["ddr-channels"] * cfg["ddr-data-rate-mts"] * 1000000 * cfg["ddr-bus-bytes"]


def chase_ps(cfg, l3_ps):
    """Mean latency of an unloaded pointer chase from memory: one blocking
    read after the other, each L0 = L3 + a closed-bank read.  Every channel
    refreshes in the same window [k tREFI, k tREFI + tRFC) (each channel's
    refresh is due at the multiples of tREFI, done when its next read comes,
    docs/ddr-qos-model.md rule 2), so the chase loses that window once per
    tREFI, less the part of it that its read in flight covers (L0 / 2 on
    average): tREFI = n L0 + tRFC - L0 / 2 for the n reads of a period, and
    the mean is tREFI / n."""
    l0 = l3_ps + closed_read_ps(cfg)
    refi, rfc = cfg["ddr-trefi-ps"], cfg["ddr-trfc-ps"]
    return l0 * refi / (refi - rfc + l0 / 2)

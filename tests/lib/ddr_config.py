# SPDX-License-Identifier: GPL-2.0-or-later
"""The DDR QoS model's configuration as the tests expect it: the defaults
read from the model's one table (ddr_config_fields[] in
hw/ddr-qos/ddr-config.c), and what follows from a configuration
(docs/ddr-qos-model.md, "Derived times" and "Integration")."""
import os
import re

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "hw", "ddr-qos", "ddr-config.c")
ROW = re.compile(r'\{\s*"(ddr-[a-z0-9-]+)",\s*F\(\w+\),\s*"[^"]*",\s*(\d+),\s*(\d+)\s*\}')


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


def refresh_wait_ps(cfg):
    """Mean wait for refresh of a read arriving at a random time: it falls
    in a refresh with probability tRFC / tREFI and then waits tRFC / 2."""
    return cfg["ddr-trfc-ps"] ** 2 / (2 * cfg["ddr-trefi-ps"])

# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared settings of memqos's Python scripts (scripts/common.sh for shell):
where the tree is and where builds are cached."""
import os

TOP = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# Same rule as scripts/common.sh: $MEMQOS_CACHE, else $XDG_CACHE_HOME/memqos, else ~/.cache/memqos.
CACHE = os.environ.get("MEMQOS_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "memqos")

# SPDX-License-Identifier: GPL-2.0-or-later
# The seed-000 experiment (tests/guest-runner/seed000.py, docs/seed-000.md):
# memqos.seed=SIZE:LOADS:SAMPLES:PHASES.  Groups P1 (PARTID 1: the chase)
# and P2 (PARTID 2: the modeled load cores, whose traffic its
# mbm_total_bytes counts), both with the whole L3 and MB 100 %.  One
# memqos-chase of SIZE bytes in P1 on CPU 0: after its untimed lap, PHASES
# times "MEMQOS-DATA chase-sync phase=K", wait for P2's traffic (the host
# sets P1's DSPRI and starts the load), SAMPLES samples of LOADS loads,
# "MEMQOS-DATA chase-phase phase=K ns_per_load=BEST mean=.. samples=..",
# wait for P2's traffic to stop (the host stopped the load).
m=$(mq_param seed)
if mq_need seed seed && mq_resctrl && p1=$(mq_group P1 ffff) && p2=$(mq_group P2 ffff); then
  mq_data seed-chase $(mq_prog memqos-chase --size "$(mq_field "$m" 1)" --loads "$(mq_field "$m" 2)" \
    --samples "$(mq_field "$m" 3)" --phases "$(mq_field "$m" 4)" \
    --sync "$p2/mon_data/mon_L3_00/mbm_total_bytes" --resctrl-dir "$p1" --cpu 0)
fi

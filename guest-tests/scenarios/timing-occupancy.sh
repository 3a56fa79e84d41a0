# SPDX-License-Identifier: GPL-2.0-or-later
# llc_occupancy vs working set (tests/guest-runner/timing.py): group
# timing-occ with L3 mask memqos.occ-mask=HEX chases each
# memqos.occ-ws=SIZE:COLORS,... in the order given (ascending: lines the
# group hit keep their owner, so occupancy = min(largest ws so far, share);
# memqos-chase reads it before it exits).
# memqos.evict=BYTES: memqos-chase --evict (no stale lines of earlier programs).
# Reports "MEMQOS-DATA occupancy size=.. ns_per_load=.. occupancy=..".
if mq_need occupancy occ-mask occ-ws && mq_resctrl && g=$(mq_group timing-occ "$(mq_param occ-mask)"); then
  for item in $(mq_param occ-ws | tr , ' '); do
    out=$(mq_prog memqos-chase --size "$(mq_field "$item" 1)" --colors "$(mq_field "$item" 2)" \
          --laps "$(mq_laps "$(mq_field "$item" 1)")" --samples "$(mq_param samples 3)" --evict "$(mq_param evict 0)" --resctrl-dir "$g" --cpu 0)
    mq_data occupancy $out
  done
fi

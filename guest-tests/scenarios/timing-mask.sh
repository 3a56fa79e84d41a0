# SPDX-License-Identifier: GPL-2.0-or-later
# Chase latency and occupancy vs L3 mask width (tests/guest-runner/timing.py):
# group timing-mask chases memqos.mask-ws=SIZE:COLORS once per mask of
# memqos.masks=HEX,HEX,... (in that order, widest last: lines the group holds
# keep their owner, so the occupancy after each run is min(ws, share);
# memqos-chase reads it before it exits).
# memqos.evict=BYTES: memqos-chase --evict (no stale lines of earlier programs).
# Reports "MEMQOS-DATA mask mask=HEX size=.. ns_per_load=.. occupancy=..".
ws=$(mq_param mask-ws)
if mq_need mask mask-ws masks && mq_resctrl && g=$(mq_group timing-mask "$(mq_param masks | cut -d, -f1)"); then
  for m in $(mq_param masks | tr , ' '); do
    echo "L3:0=$m" >"$g/schemata" || { mq_data mask mask=$m error=schemata; continue; }
    out=$(mq_prog memqos-chase --size "$(mq_field "$ws" 1)" --colors "$(mq_field "$ws" 2)" \
          --laps "$(mq_laps "$(mq_field "$ws" 1)")" --samples "$(mq_param samples 3)" --evict "$(mq_param evict 0)" --resctrl-dir "$g" --cpu 0)
    mq_data mask mask=$m $out
  done
fi

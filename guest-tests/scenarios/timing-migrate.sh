# SPDX-License-Identifier: GPL-2.0-or-later
# Save and restore in the middle of the work (tests/guest-runner/timing_migrate.py):
# memqos.migrate=SIZE:COLORS:MASK:SECONDS, memqos.evict=BYTES (memqos-chase
# --evict: no stale lines of earlier programs).  Group timing-mig, L3 mask MASK,
# chases SIZE bytes (COLORS page colours) on CPU 0 for SECONDS of guest
# time (memqos-chase --loop-seconds) while this shell reads the group's
# llc_occupancy and mbm_total_bytes every 0.1 s:
#   "MEMQOS-DATA migrate-now t=UPTIME occ=.. mbm=.."   once the group holds
#        SIZE/4 bytes of L3 (the chase runs): the host stops and saves here
#   "MEMQOS-DATA migrate-sample k=N t=UPTIME occ=.. mbm=.."   then every 0.1 s
#   "MEMQOS-DATA migrate-chase size=.. ns_per_load=.. occupancy=.."   the
#        chase's own line when it ends
m=$(mq_param migrate)
if mq_need migrate migrate && mq_resctrl && g=$(mq_group timing-mig "$(mq_field "$m" 3)"); then
  size=$(mq_field "$m" 1)
  mq_prog memqos-chase --size "$size" --colors "$(mq_field "$m" 2)" --laps "$(mq_laps "$size")" \
    --evict "$(mq_param evict 0)" --loop-seconds "$(mq_field "$m" 4)" --resctrl-dir "$g" --cpu 0 >/tmp/mq_migrate.out &
  pid=$!
  occ=0
  while kill -0 $pid 2>/dev/null; do
    mq_mon "$g" mbm_total_bytes >/dev/null      # resctrl counts from the first read
    occ=$(mq_occupancy "$g")
    [ "$occ" != na ] && [ "$occ" -ge $((size / 4)) ] && break
    sleep 0.1
  done
  mq_data migrate-now t=$(cut -d' ' -f1 /proc/uptime) occ=$occ mbm=$(mq_mon "$g" mbm_total_bytes)
  k=0
  while kill -0 $pid 2>/dev/null; do
    sleep 0.1
    k=$((k + 1))
    mq_data migrate-sample k=$k t=$(cut -d' ' -f1 /proc/uptime) occ=$(mq_occupancy "$g") \
      mbm=$(mq_mon "$g" mbm_total_bytes)
  done
  wait $pid
  mq_data migrate-chase $(cat /tmp/mq_migrate.out)
fi

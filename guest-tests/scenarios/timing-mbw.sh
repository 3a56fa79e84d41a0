# SPDX-License-Identifier: GPL-2.0-or-later
# Memory-bandwidth regulation on the memory MSC (tests/guest-runner/timing.py,
# 2 vCPUs, docs/mbw-regulation.md "The guest check").  The host configures
# the regulated bandwidth (mpam-mbw-peak) and the bandwidth policy
# (mpam-mbw-policy) for the PARTIDs of the groups below, which are made in
# this order on a fresh resctrl mount and so get PARTIDs 1, 2, 3, 4:
#   timing-mbw-a      streams on CPU 0 under each MB: percentage
#   timing-mbw-n      the neighbour: streams on CPU 1 while the others do
#   timing-mbw-min    streams on CPU 0 beside the neighbour
#   timing-mbw-nomin  likewise
# memqos.mbw=SIZE:PASSES:PERCENT,PERCENT,...  Reports, per measurement,
#   "MEMQOS-DATA mbw group=a|min|nomin mb=PERCENT bytes=.. mb_per_s=.. .."
# (the memqos-stream line; the neighbour's own rate is not measured).
m=$(mq_param mbw)
size=$(mq_field "$m" 1) passes=$(mq_field "$m" 2)
if mq_need mbw mbw && mq_resctrl &&
   mbid=$(sed -n 's/^ *MB:\([0-9]*\)=.*$/\1/p' "$MQ_R/schemata") && [ -n "$mbid" ] &&
   cbm=$(cat "$MQ_R/info/L3/cbm_mask") &&
   a=$(mq_group timing-mbw-a "$cbm") && n=$(mq_group timing-mbw-n "$cbm") &&
   gmin=$(mq_group timing-mbw-min "$cbm") && gnomin=$(mq_group timing-mbw-nomin "$cbm"); then
  stream() { memqos-stream --size "$size" --passes "$passes" --resctrl-dir "$1" --cpu 0; }
  # The neighbour streams on CPU 1 until killed.
  memqos-stream --size "$size" --resctrl-dir "$n" --cpu 1 --loop-seconds 100000 >/dev/null 2>&1 &
  npid=$!
  sleep 1
  for pc in $(mq_field "$m" 3 | tr , ' '); do
    echo "MB:$mbid=$pc" >"$a/schemata"
    mq_data mbw group=a mb=$pc $(mq_prog stream "$a")
  done
  for g in min nomin; do
    eval "dir=\$g$g"
    mq_data mbw group=$g mb=100 $(mq_prog stream "$dir")
  done
  kill $npid; wait $npid 2>/dev/null
else
  [ -n "${mbid:-x}" ] || mq_data mbw error=no-MB-resource
fi

# SPDX-License-Identifier: GPL-2.0-or-later
# MBW_MIN against a neighbour that saturates the DDR model
# (tests/guest-runner/timing.py, 1 vCPU, ddr=on, docs/mbw-regulation.md
# "MBW_MIN against a saturating neighbour").  Groups made in this order on a
# fresh resctrl mount, so PARTIDs 1, 2, 3:
#   timing-mbwd-min    streams; the host policy gives PARTID 1 an MBW_MIN
#   timing-mbwd-hog    no task: the host's memqos-agent reads as PARTID 2,
#                      and this group's mbm_total_bytes shows it running
#   timing-mbwd-nomin  streams, no minimum
# memqos.mbwddr=SIZE.  "MEMQOS-DATA mbwddr-sync": the host starts its agent;
# once the hog group's monitor moves, one memqos-stream of SIZE in each
# streaming group ("MEMQOS-DATA mbwddr group=min|nomin ..."), then
# "MEMQOS-DATA mbwddr-end": the host stops the agent.
size=$(mq_param mbwddr)
if mq_need mbwddr mbwddr && mq_resctrl && cbm=$(cat "$MQ_R/info/L3/cbm_mask") &&
   gmin=$(mq_group timing-mbwd-min "$cbm") && hog=$(mq_group timing-mbwd-hog "$cbm") &&
   gnomin=$(mq_group timing-mbwd-nomin "$cbm"); then
  v=$(mq_mon "$hog" mbm_total_bytes)
  mq_data mbwddr-sync
  while [ "$(mq_mon "$hog" mbm_total_bytes)" = "$v" ]; do :; done
  for g in min nomin; do
    eval "dir=\$g$g"
    mq_data mbwddr group=$g $(mq_prog memqos-stream --size "$size" --passes 1 --resctrl-dir "$dir" --cpu 0)
  done
  mq_data mbwddr-end
fi

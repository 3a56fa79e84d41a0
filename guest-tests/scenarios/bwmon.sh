# SPDX-License-Identifier: GPL-2.0-or-later
# Qualcomm BWMON on the bwmon preset (tests/guest-runner/bwmon.py,
# docs/bwmon-model.md "The platform"):
# memqos.bwmon=KIB_L3:KIB_MEM:LOAD_S:IDLE_S.  Reports, with the monitors'
# interrupt counts (/proc/interrupts) and their current votes (the peak
# kBps each pmu asks of its OSM L3 node in debugfs interconnect_summary):
#   bwmon-probe      which of the four devices a driver bound
#   bwmon-idle       after IDLE_S seconds idle (the votes have come down)
#   bwmon-l3         LOAD_S / 2 into memqos-load -m KIB_L3 on every CPU
#                    (buffers the L3 holds: CPU-monitor traffic only)
#   bwmon-l3-after   IDLE_S seconds after that load ended
#   bwmon-mem, bwmon-mem-after   the same with KIB_MEM (past the L3:
#                    memory traffic too)
# The host reads the OSM L3 frequencies (qom-get freq-hz) at each line.
BW_CPU=90d2000.pmu BW_LLCC=90d4000.pmu OSM_CPU=90d0000.interconnect OSM_MEM=90d6000.interconnect

# bw_bound DRIVER DEVICE: 1 if DRIVER is bound to DEVICE, else 0.
bw_bound() { [ -e "/sys/bus/platform/drivers/$1/$2" ] && echo 1 || echo 0; }
# bw_irqs DEVICE: its interrupts over all CPUs, na when it has none.
bw_irqs() {
  awk -v d="$1" '$NF == d { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s; f = 1 }
    END { if (!f) print "na" }' /proc/interrupts
}
# bw_vote DEVICE: the peak kBps DEVICE's request asks (its first path node).
bw_vote() {
  awk -v d="$1" '$1 == d { print $NF; f = 1; exit } END { if (!f) print "na" }' \
    /sys/kernel/debug/interconnect/interconnect_summary 2>/dev/null
}
bw_state() {
  mq_data "$1" irq_cpu=$(bw_irqs $BW_CPU) irq_llcc=$(bw_irqs $BW_LLCC) \
    vote_cpu=$(bw_vote $BW_CPU) vote_llcc=$(bw_vote $BW_LLCC)
}

# bw_load TAG KIB: memqos-load -m KIB on every CPU for LOAD_S seconds, TAG
# at half time, then IDLE_S idle and TAG-after.
bw_load() {
  _i=0 _pids=
  while [ $_i -lt "$ncpu" ]; do
    memqos-load -c $_i -t "$load_s" -m "$2" >/dev/null &
    _pids="$_pids $!" _i=$((_i + 1))
  done
  sleep "$(awk -v s="$load_s" 'BEGIN { print s / 2 }')"
  bw_state "$1"
  wait $_pids
  sleep "$idle_s"
  bw_state "$1-after"
}

b=$(mq_param bwmon)
if mq_need bwmon bwmon; then
  kib_l3=$(mq_field "$b" 1) kib_mem=$(mq_field "$b" 2)
  load_s=$(mq_field "$b" 3) idle_s=$(mq_field "$b" 4)
  ncpu=$(grep -c ^processor /proc/cpuinfo)
  mq_data bwmon-probe cpu=$(bw_bound qcom-bwmon $BW_CPU) llcc=$(bw_bound qcom-bwmon $BW_LLCC) \
    osm_cpu=$(bw_bound osm-l3 $OSM_CPU) osm_mem=$(bw_bound osm-l3 $OSM_MEM)
  sleep "$idle_s"
  bw_state bwmon-idle
  bw_load bwmon-l3 "$kib_l3"
  bw_load bwmon-mem "$kib_mem"
fi

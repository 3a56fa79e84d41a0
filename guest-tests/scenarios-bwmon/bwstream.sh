# SPDX-License-Identifier: GPL-2.0-or-later
# The BWMON effect in the three configurations (tests/guest-runner/bwmon.py,
# docs/bwmon-model.md "The effect"; in the initramfs that
# 'guest-tests/initramfs/build.sh bwmon' builds, so that the default one,
# and the timing suite's page layout, stay as they are):
# memqos.bwstream=KIB_LIST:PASSES:KIB_LOAD:SETTLE_S (KIB_LIST
# comma-separated).  memqos-load -m KIB_LOAD on every CPU but 0 for the
# whole run (traffic that drives the votes where the driver votes); after
# SETTLE_S seconds bwstream-votes (with the CPU monitor's current vote),
# then memqos-stream on CPU 0 over each size: bwstream-KIB with its
# mb_per_s; bwstream-end after it.  The host reads the OSM L3 frequencies
# (qom-get freq-hz) at each line.
s=$(mq_param bwstream)
# the peak kBps the CPU monitor (90d2000.pmu) asks in interconnect_summary
bs_vote() {
  awk '$1 == "90d2000.pmu" { print $NF; f = 1; exit } END { if (!f) print "na" }' \
    /sys/kernel/debug/interconnect/interconnect_summary 2>/dev/null
}
if mq_need bwstream bwstream; then
  _i=1 _pids=
  while [ $_i -lt "$(grep -c ^processor /proc/cpuinfo)" ]; do
    memqos-load -c $_i -t 0 -m "$(mq_field "$s" 3)" >/dev/null &
    _pids="$_pids $!" _i=$((_i + 1))
  done
  sleep "$(mq_field "$s" 4)"
  mq_data bwstream-votes vote_cpu="$(bs_vote)"
  for _k in $(mq_field "$s" 1 | tr , ' '); do
    mq_data "bwstream-$_k" $(mq_prog memqos-stream --cpu 0 --size $((_k * 1024)) \
      --passes "$(mq_field "$s" 2)")
  done
  mq_data bwstream-end vote_cpu="$(bs_vote)"
  [ -z "$_pids" ] || kill $_pids
  wait $_pids 2>/dev/null
fi

# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's sysbench (unmodified, in the initramfs that
# 'guest-tests/initramfs/build.sh sysbench' builds) runs memory rows
# (tests/guest-runner/sysbench.py, docs/bwmon-model.md "sysbench"):
# memqos.sysbench=SIZES:OPS:MODES:THREADS:MIB[:SEQ_MIB], comma-separated
# lists, e.g. 1K,64K,4M,64M,256M:read,write:seq,rnd:1:256:2048.  Each row is
#   sysbench memory --memory-block-size=SIZE --memory-oper=OP
#     --memory-access-mode=MODE --threads=THREADS
#     --memory-total-size=max(MIB MiB, SIZE)
# with SEQ_MIB (default MIB) for the sequential rows of 4M and above.
# and reports "MEMQOS-DATA sysbench-SIZE-OP-MODE mib_per_s=.. mib=..".
sb_row() {
  _bytes=$(($(echo "$1" | sed 's/K$/*1024/; s/M$/*1048576/')))
  _mib=$([ "$3" = seq ] && [ "$_bytes" -ge 4194304 ] && echo "$sb_seq_mib" || echo "$sb_mib")
  _total=$((_bytes > _mib * 1048576 ? _bytes : _mib * 1048576))
  _out=$(/usr/bin/sysbench memory --memory-block-size="$1" --memory-oper="$2" \
    --memory-access-mode="$3" --threads="$sb_threads" --memory-total-size="$_total" \
    --time=0 run 2>&1) || { mq_data "sysbench-$1-$2-$3" error=exit:$?; return; }
  # "256.00 MiB transferred (1234.56 MiB/sec)"
  echo "$_out" | awk -v t="sysbench-$1-$2-$3" '/MiB transferred/ {
      gsub(/[()]/, ""); print "MEMQOS-DATA " t " mib=" $1 " mib_per_s=" $4; f = 1 }
    END { if (!f) print "MEMQOS-DATA " t " error=no-result" }'
}

sb=$(mq_param sysbench)
if mq_need sysbench sysbench; then
  if [ ! -x /usr/bin/sysbench ]; then
    mq_data sysbench error=no-sysbench:build-the-initramfs-with-sysbench
  else
    sb_threads=$(mq_field "$sb" 4) sb_mib=$(mq_field "$sb" 5)
    sb_seq_mib=$(mq_field "$sb" 6)
    sb_seq_mib=${sb_seq_mib:-$sb_mib}
    mq_data sysbench-version version="$(/usr/bin/sysbench --version | tr ' ' _)"
    for _s in $(mq_field "$sb" 1 | tr , ' '); do
      for _o in $(mq_field "$sb" 2 | tr , ' '); do
        for _m in $(mq_field "$sb" 3 | tr , ' '); do
          sb_row "$_s" "$_o" "$_m"
        done
      done
    done
  fi
fi

# The vote over time (issue 9's done-when: the vote rises within a few
# sample windows of a streaming burst and falls after it ends):
# memqos.votetrace=SIZE:OP:MIB:IDLE_N prints "MEMQOS-DATA votetrace-N
# phase=before|burst|after vote_cpu=KBPS" (the CPU monitor's vote from
# interconnect_summary) every 2 ms: IDLE_N times, then while sysbench
# memory SIZE OP seq runs over MIB MiB in the background, then IDLE_N times
# after it; the host reads the providers' frequencies and the monitors'
# windows at each line.
vt_sample() {
  mq_data "votetrace-$_vt_n" phase="$1" vote_cpu="$(awk '$1 == "90d2000.pmu" {
      print $NF; f = 1; exit } END { if (!f) print "na" }' \
    /sys/kernel/debug/interconnect/interconnect_summary 2>/dev/null)"
  _vt_n=$((_vt_n + 1))
  sleep 0.002
}
vt_idle() {
  _vt_i=0
  while [ $_vt_i -lt "$(mq_field "$vt" 4)" ]; do vt_sample "$1"; _vt_i=$((_vt_i + 1)); done
}
vt=$(mq_param votetrace)
if [ -n "$vt" ] && [ -x /usr/bin/sysbench ]; then
  _vt_n=0
  vt_idle before
  /usr/bin/sysbench memory --memory-block-size="$(mq_field "$vt" 1)" \
    --memory-oper="$(mq_field "$vt" 2)" --memory-access-mode=seq --threads=1 \
    --memory-total-size="$(mq_field "$vt" 3)M" --time=0 run >/dev/null 2>&1 &
  _vt_pid=$!
  while kill -0 $_vt_pid 2>/dev/null; do vt_sample burst; done
  wait $_vt_pid
  vt_idle after
fi

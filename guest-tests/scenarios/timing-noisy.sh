# SPDX-License-Identifier: GPL-2.0-or-later
# A noisy neighbour (tests/guest-runner/timing.py; 2 vCPUs).
# memqos.noisy=SIZE:COLORS:MASK_A:MASK_B:ROOT_MASK:STREAM_SIZE,
# memqos.noisy-seconds=T, memqos.evict=BYTES (memqos-chase --evict, which
# runs in the default group: ROOT_MASK must reach A's ways).  The default
# group gets ROOT_MASK, group A (timing-a) chases SIZE on CPU 0, group B
# (timing-b) streams STREAM_SIZE on CPU 1.
#  1. A chases alone, then again while B streams:
#     "MEMQOS-DATA noisy phase=alone|neighbour size=.. ns_per_load=.. occupancy=.. occupancy_b=.."
#  2. occupancy over time: A chases for T seconds; every 0.1 s the
#     occupancy of A and B is sampled; B starts streaming at T/3, and at 2T/3
#     B's mask becomes the whole L3 (shared with A):
#     "MEMQOS-DATA occtime t=UPTIME phase=alone|disjoint|shared occ_a=.. occ_b=.."
n=$(mq_param noisy) T=$(mq_param noisy-seconds 3)
size=$(mq_field "$n" 1) colors=$(mq_field "$n" 2) sz_b=$(mq_field "$n" 6)
if mq_need noisy noisy && mq_resctrl && echo "L3:0=$(mq_field "$n" 5)" >"$MQ_R/schemata" &&
   a=$(mq_group timing-a "$(mq_field "$n" 3)") && b=$(mq_group timing-b "$(mq_field "$n" 4)"); then
  chase_a() {
    memqos-chase --size "$size" --colors "$colors" --laps "$(mq_laps "$size")" \
      --evict "$(mq_param evict 0)" \
      --resctrl-dir "$a" --cpu 0 "$@"
  }
  stream_b() { memqos-stream --size "$sz_b" --resctrl-dir "$b" --cpu 1 --loop-seconds "$1" >/dev/null 2>&1; }

  out=$(mq_prog chase_a --samples "$(mq_param samples 3)")
  mq_data noisy phase=alone $out occupancy_b=$(mq_occupancy "$b")
  stream_b 100000 &
  bpid=$!
  sleep 1                                   # B is streaming
  out=$(mq_prog chase_a --samples "$(mq_param samples 3)")
  mq_data noisy phase=neighbour $out occupancy_b=$(mq_occupancy "$b")
  kill $bpid; wait $bpid 2>/dev/null

  chase_a --loop-seconds "$T" >/dev/null 2>&1 &
  apid=$!
  steps=$((T * 10)) k=0 phase=alone
  while [ $k -lt $steps ]; do
    if [ $k -eq $((steps / 3)) ]; then stream_b $((T - T / 3)) & phase=disjoint; fi
    if [ $k -eq $((2 * steps / 3)) ]; then
      cat "$MQ_R/info/L3/cbm_mask" | sed 's/^/L3:0=/' >"$b/schemata"; phase=shared
    fi
    mq_data occtime t=$(cut -d' ' -f1 /proc/uptime) phase=$phase \
      occ_a=$(mq_occupancy "$a") occ_b=$(mq_occupancy "$b")
    sleep 0.1
    k=$((k + 1))
  done
  wait
fi

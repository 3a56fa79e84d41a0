# SPDX-License-Identifier: GPL-2.0-or-later
# Seed 004 (issue 10 §4) on the rdt-goldmont-timing preset
# (tests/guest-runner/seed004.py, docs/rdt-model.md "Seed 004"): the
# latency of a 256 KiB region read at random 32-byte offsets, each load
# timed with RDTSC (memqos-seed004), idle and with a noisy neighbour on the
# core that shares the L2, in four setups on the last L2 domain (the
# application on its second CPU, the neighbour on its first: CPUs 1 and 0
# with -smp 2, 3 and 2 with 4):
#   plain   the region from the heap, every task in the default group (0xff)
#   colour  the region in pages of colours 0-7 of 16 (PA bits 12-15): half
#           the L2, 512 KiB, as PALLOC would give it; the neighbour is not
#           coloured (it is no task of the application's)
#   cat     the application in a group with L2 CBM 0xf (ways 0-7, 512 KiB),
#           the default group (the neighbour) 0xf0
#   lock    a group pseudo-locked with L2 CBM 0x3 (256 KiB, ways 0-3),
#           /dev/pseudo_lock/s4lock read by the application in the default
#           group, which has 0xfc (the rest), as the neighbour
# Everything goes out as MEMQOS-DATA lines for the runner, which checks
# them: first "seed004-calib l1= mem=" (memqos-seed004 calib: the median
# RDTSC ticks of an L1D hit and of a load from memory, to compare with the
# model's latencies); per setup, idle then noisy, "seed004 setup=S
# noise=0|1 ..." (the program's summary) and "seed004-run" per run; then
# "seed004-lock mode= dev=" (the group pseudo-locked), pseudo_lock_measure
# 1 ("seed004-measure1 n= mean= max=": the kernel's own latency trace of
# the locked region, resctrl:pseudo_lock_mem_latency) and 2
# ("seed004-measure2 hits= miss=" with the neighbour streaming, from the
# PMU; "skip=no-pmu" while the guest has no x86 PMU).
# Parameters (the runner passes them):
#   memqos.s4_runs=10 memqos.s4_loads=8192  runs and loads per run
#   memqos.s4_noise=BYTES                   the neighbour's buffer
#   memqos.s4_setups=plain+colour+cat+lock  which setups
runs=$(mq_param s4_runs 10) loads=$(mq_param s4_loads 8192)
nbytes=$(mq_param s4_noise 4194304)
setups=$(mq_param s4_setups plain+colour+cat+lock | tr + ' ')
dom=$(($(nproc) / 2 - 1))
app=$((2 * dom + 1)) nb=$((2 * dom))
S4="memqos-seed004 -r $runs -n $loads"

# RDTSC against modeled time
mq_data seed004-calib "$(mq_prog memqos-seed004 -c $app calib 4194304)"
mq_resctrl || return 0

# run SETUP CMD...: CMD idle, then with the neighbour streaming on CPU 3
run() {
  _s=$1; shift
  for _noise in 0 1; do
    _np=
    if [ $_noise = 1 ]; then
      memqos-seed004 -c $nb noise "$nbytes" &
      _np=$!
      sleep 1
    fi
    _out=$(mq_prog "$@")
    [ -z "$_np" ] || { kill "$_np"; wait "$_np" 2>/dev/null; }
    echo "$_out" | grep '^run=' | while read -r _l; do
      mq_data seed004-run "setup=$_s noise=$_noise $_l"
    done
    _sum=$(echo "$_out" | grep -E '^(setup|error)=' | tail -n 1)
    mq_data seed004 "setup=$_s noise=$_noise ${_sum#setup=* }"
  done
}

for s in $setups; do
  case $s in
    plain)
      echo "L2:$dom=ff" >"$MQ_R/schemata"
      run plain $S4 -c $app plain ;;
    colour)
      echo "L2:$dom=ff" >"$MQ_R/schemata"
      run colour $S4 -c $app colour 00ff ;;
    cat)
      mkdir -p "$MQ_R/s4cat"
      echo "L2:$dom=f0" >"$MQ_R/schemata"
      echo "L2:$dom=f" >"$MQ_R/s4cat/schemata"
      run cat sh -c "echo \$\$ >$MQ_R/s4cat/tasks && exec $S4 -c $app plain"
      rmdir "$MQ_R/s4cat" ;;
    lock)
      echo "L2:$dom=fc" >"$MQ_R/schemata"
      mkdir -p "$MQ_R/s4lock"
      echo pseudo-locksetup >"$MQ_R/s4lock/mode" &&
        echo "L2:$dom=3" >"$MQ_R/s4lock/schemata"
      mq_data seed004-lock "mode=$(cat "$MQ_R/s4lock/mode") dev=$(ls /dev/pseudo_lock 2>&1 | tr -c 'A-Za-z0-9\n' _)"
      run lock $S4 -c $app lock /dev/pseudo_lock/s4lock
      # the kernel's own measurements of the locked region
      T=/sys/kernel/debug/tracing M=/sys/kernel/debug/resctrl/s4lock/pseudo_lock_measure
      echo 0 >$T/tracing_on; echo >$T/trace
      echo 1 >$T/events/resctrl/pseudo_lock_mem_latency/enable
      echo 1 >$T/tracing_on
      echo 1 >$M
      echo 0 >$T/tracing_on
      echo 0 >$T/events/resctrl/pseudo_lock_mem_latency/enable
      lat=$(sed -n 's/.*pseudo_lock_mem_latency: latency=\([0-9]*\).*/\1/p' $T/trace |
            awk '{ n++; s += $1; if ($1 > m) m = $1 } END { printf "n=%d mean=%.2f max=%d", n, n ? s / n : 0, m }')
      mq_data seed004-measure1 "$lat"
      # 2: the Goldmont L2 hit/miss events through perf (the x86 PMU)
      if [ -d /sys/bus/event_source/devices/cpu ]; then
        echo >$T/trace
        echo 1 >$T/events/resctrl/pseudo_lock_l2/enable
        echo 1 >$T/tracing_on
        memqos-seed004 -c $nb noise "$nbytes" &
        np=$!
        sleep 1
        echo 2 >$M
        kill $np; wait $np 2>/dev/null
        echo 0 >$T/tracing_on
        echo 0 >$T/events/resctrl/pseudo_lock_l2/enable
        l2=$(sed -n 's/.*pseudo_lock_l2: \(hits=[0-9]* miss=[0-9]*\).*/\1/p' $T/trace | tail -n 1)
        mq_data seed004-measure2 "${l2:-trace=none}"
      else
        mq_data seed004-measure2 skip=no-pmu
      fi
      rmdir "$MQ_R/s4lock" ;;
  esac
done
echo "L2:$dom=ff" >"$MQ_R/schemata"
umount "$MQ_R"

# SPDX-License-Identifier: GPL-2.0-or-later
# Intel RDT with the modeled memory system (the rdt-server-timing preset,
# tests/guest-runner/rdt_x86.py): CAT, CMT and MBM act on and count the
# modeled L3 and memory.  In each step a resctrl group with an L3 CBM
# streams N MiB with busybox dd into tmpfs (the kernel writes N MiB of
# fresh page-cache lines for the group's task): its llc_occupancy reads
# 90-100 % of min(N, the CBM's share of the L3) (CAT bounds what the group
# allocates, and the group has no lines from elsewhere: only the dd runs
# in it) and mbm_total_bytes grows by at least N MiB.  Before each step
# the default group writes twice the L3 (a file it keeps), so that the
# free pages the stream gets are in no cache: a line the stream found
# cached would neither fill (MBM) nor change owner (occupancy).  Last,
# CLFLUSH: memqos-clflush writes a fresh buffer in the group (CBM all
# ways), which holds at least 90 % of it, then flushes it line by line:
# the group's occupancy drops by at least 90 % of it.  (Not "at most 10 %
# left": the group also holds what the preset's prefetcher read past the
# pages the kernel zeroed for the buffer, which the flush does not name.)
# Parameters (the description's, docs/rdt-model.md; the runner passes them):
#   memqos.rdt_l3=BYTES      the L3's size      memqos.rdt_ways=N  its CBM bits
#   memqos.rdt_steps=CBM:MIB+CBM:MIB  each step's L3 CBM (hex) and stream
l3=$(mq_param rdt_l3) ways=$(mq_param rdt_ways)
if ! mq_resctrl; then
  mq_test rdt-timing-mount FAIL "resctrl does not mount"
  return 0
fi
steps=$(mq_param rdt_steps | tr '+' ' ')
g=$(mq_group tg "$(mq_field "${steps%% *}" 1)")
i=0
for s in $steps; do
  i=$((i + 1))
  cbm=$(mq_field "$s" 1) mib=$(mq_field "$s" 2)
  bits=0 v=$((0x$cbm))
  while [ $v -gt 0 ]; do bits=$((bits + (v & 1))); v=$((v >> 1)); done
  share=$((l3 / ways * bits)) n=$((mib * 1048576))
  want=$((n < share ? n : share))
  dd if=/dev/zero of=/tmp/rdt-evict bs=1M count=$((2 * l3 / 1048576)) conv=notrunc 2>/dev/null
  echo "L3:0=$cbm" >"$g/schemata"
  m0=$(mq_mon "$g" mbm_total_bytes)
  sh -c "echo \$\$ >$g/tasks && exec dd if=/dev/zero of=/tmp/rdt-stream-$i bs=1M count=$mib" 2>/dev/null
  occ=$(mq_occupancy "$g") m1=$(mq_mon "$g" mbm_total_bytes)
  case "$occ$m0$m1" in *[!0-9]*) occ=0 m0=0 m1=0 ;; esac
  [ "$occ" -ge $((want / 10 * 9)) ] && [ "$occ" -le "$want" ]
  mq_check "rdt-timing-occupancy-$i" $? \
    "CBM $cbm, $mib MiB streamed: llc_occupancy $occ, want 90-100% of $want"
  [ $((m1 - m0)) -ge "$n" ]
  mq_check "rdt-timing-mbm-$i" $? \
    "mbm_total_bytes grew by $((m1 - m0)), want at least $n"
done
n=$((8 * 1048576))
dd if=/dev/zero of=/tmp/rdt-evict bs=1M count=$((2 * l3 / 1048576)) conv=notrunc 2>/dev/null
echo "L3:0=$(printf %x $(((1 << ways) - 1)))" >"$g/schemata"
out=$(mq_prog sh -c "echo \$\$ >$g/tasks && exec memqos-clflush $g/mon_data/mon_L3_00/llc_occupancy $n")
before=$(echo "$out" | sed -n 's/.*occupancy_before=\([0-9]*\).*/\1/p')
after=$(echo "$out" | sed -n 's/.*occupancy_after=\([0-9]*\).*/\1/p')
[ -n "$before" ] && [ -n "$after" ] && [ "$before" -ge $((n / 10 * 9)) ] &&
  [ $((before - after)) -ge $((n / 10 * 9)) ]
mq_check rdt-timing-clflush $? "$out; want before >= 90% of $n and the flush to take at least 90% of it"
rm -f /tmp/rdt-stream-* /tmp/rdt-evict
rmdir "$g"
umount "$MQ_R"

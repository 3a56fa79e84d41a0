# SPDX-License-Identifier: GPL-2.0-or-later
# The x86 architectural PMU of an rdt=<model> vCPU (docs/x86-pmu-design.md,
# tests/guest-runner/rdt_x86.py).  Linux registers it: dmesg's
# "Performance Events: <model> events, ... Intel PMU driver." (not "no PMU
# driver" or "PMU not available due to virtualization").  With the modeled
# memory system (memqos.rdt_l3 given) its LLC events count the modeled
# traffic: memqos-perfllc reads a buffer of twice the L3 once, where every
# load misses the LLC (misses and references 90-110 % of the loads), and a
# buffer of four L2s (in the L3, not in the L2) four times after a warm
# read, where every load is an LLC reference (90-110 %) and at most 10 %
# miss.  The big read, on the last CPU, samples its misses every 8192:
# each overflow is a PMI (an NMI Linux counts in /proc/interrupts),
# misses / 8192 of them within 10 % and 2 (the NMI watchdog's).  Without
# the outcomes fed to the PMU all count 0 and fail.
# Parameters (the description's, docs/rdt-model.md; the runner passes them):
#   memqos.rdt_pmu=NAME   the events Linux names (Sapphire_Rapids, Goldmont)
#   memqos.rdt_l3=BYTES memqos.rdt_l2=BYTES  the caches (timing only)
ev=$(mq_param rdt_pmu | tr _ ' ')
# the line and how it ends: Linux builds it with pr_cont, and messages of
# the init between split it (on Sapphire Rapids "The event 0x400 is not
# supported as a normal event", for the fixed counter 3 and topdown events
# the model does not offer)
line="$(dmesg | grep -o 'Performance Events:.*' | head -n 1) ... $(dmesg |
       grep -o -E '[A-Za-z]+ PMU driver\.|software events only\.' | head -n 1)"
case $line in
  *"$ev events, "*"... Intel PMU driver.") r=0 ;;
  *) r=1 ;;
esac
mq_check x86-pmu-dmesg $r "$line; want '$ev events, ... Intel PMU driver.'"
l3=$(mq_param rdt_l3) l2=$(mq_param rdt_l2)
[ -n "$l3" ] && [ -n "$l2" ] || return 0
within() { [ "$1" -ge $(($2 / 10 * 9)) ] && [ "$1" -le $(($2 / 10 * 11)) ]; }
period=8192
for c in big:$((2 * l3)):1:$period fit:$((4 * l2)):4; do
  k=$(mq_field "$c" 1)
  out=$(mq_prog memqos-perfllc $(echo "$c" | cut -d: -f2- | tr : ' '))
  lines=$(echo "$out" | sed -n 's/.*lines=\([0-9]*\).*/\1/p')
  refs=$(echo "$out" | sed -n 's/.*references=\([0-9]*\).*/\1/p')
  miss=$(echo "$out" | sed -n 's/.*misses=\([0-9]*\).*/\1/p')
  r=1
  if [ -n "$lines" ] && [ -n "$refs" ] && [ -n "$miss" ]; then
    if [ "$k" = big ]; then
      within "$refs" "$lines" && within "$miss" "$lines" && r=0
      want="references and misses 90-110% of $lines"
    else
      within "$refs" "$lines" && [ "$miss" -le $((lines / 10)) ] && r=0
      want="references 90-110% of $lines, misses at most 10%"
    fi
  fi
  mq_check "x86-pmu-llc-$k" $r "$out; want $want"
  [ "$k" = big ] || continue
  pmis=$(echo "$out" | sed -n 's/.*pmis=\([0-9]*\).*/\1/p')
  r=1
  if [ -n "$lines" ] && [ -n "$miss" ] && [ -n "$pmis" ] &&
     [ "$miss" -ge $((lines / 10 * 9)) ]; then
    e=$((miss / period)) d=$((pmis - miss / period))
    [ ${d#-} -le $((e / 10 + 2)) ] && r=0
  fi
  mq_check x86-pmu-pmi $r "pmis=$pmis for misses=$miss sampled every $period; want $((miss / period)) within 10% + 2"
done

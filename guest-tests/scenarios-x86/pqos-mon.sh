# SPDX-License-Identifier: GPL-2.0-or-later
# pqos's monitoring through the OS interface (Debian's pqos, unmodified)
# against resctrl's own files (tests/guest-runner/rdt_x86.py, the
# rdt-server-timing preset: occupancy and MBM count the modeled L3 and
# memory).  A shell (pid P) waits, then runs busybox dd, which zeroes a
# memqos.rdt_pqos_mib MiB buffer four times (every pass misses the L3), then
# idles.  "pqos -I -p llc:P;mbt:P" puts P in a monitoring group of its own
# as soon as it starts (dd, forked later, inherits it) and polls it every
# 200 ms for 2 s (CSV).  After dd has finished and before pqos stops, this
# script reads the group's llc_occupancy and mbm_total_bytes.  Checks: the
# LLC[KB] of pqos's last sample is the group's llc_occupancy (within 2 %:
# the two reads are up to 0.4 s apart, while the kernel's and other tasks'
# lines still evict some of the group's), which is at least half the L3
# (the group streamed it twice over: two zeros must not agree);
# the MBT[MB/s] of its samples, each times the 0.2 s interval (pqos divides
# a poll's byte delta by 2^20 and by the nominal interval), sum to the
# group's mbm_total_bytes (within 1 %: the group's counters start at 0 when
# pqos makes it, before dd runs), which is at least the bytes dd zeroed.
mib=$(mq_param rdt_pqos_mib) l3=$(mq_param rdt_l3)
if [ -z "$mib" ] || [ -z "$l3" ] || ! mq_resctrl; then
  mq_test pqos-mon-setup FAIL "memqos.rdt_pqos_mib='$mib', memqos.rdt_l3='$l3' or resctrl does not mount"
  return 0
fi
mkdir -p /var/lock                      # libpqos's lock file
sh -c "sleep 0.4; dd if=/dev/zero of=/dev/null bs=${mib}M count=4 2>/dev/null; sleep 4" &
p=$!
pqos -I -p "llc:$p;mbt:$p" -i 2 -t 2 -u csv -o /tmp/pqos-mon.csv >/tmp/pqos-mon.out 2>&1 &
q=$!
sleep 1.6
g=$(grep -l "^$p\$" "$MQ_R"/mon_groups/*/tasks 2>/dev/null | head -n 1)
g=${g%/tasks}
occ=$(mq_mon "$g" llc_occupancy) mbm=$(mq_mon "$g" mbm_total_bytes)
wait $q
status=$?
kill $p 2>/dev/null
sed 's/^/PQOS-MON: /' /tmp/pqos-mon.csv /tmp/pqos-mon.out
# CSV: Time,PID,Core,IPC,LLC Misses,LLC[KB],MBT[MB/s]
llc=$(awk -F, 'NR > 1 { v = $6 } END { printf "%d", v * 1024 }' /tmp/pqos-mon.csv)
moved=$(awk -F, 'NR > 1 { s += $7 } END { printf "%d", s * 0.2 * 1048576 }' /tmp/pqos-mon.csv)
case "$occ$mbm$llc$moved" in *[!0-9]*|'') occ=-1 mbm=-1 ;; esac
# near GOT WANT PERCENT
near() { [ "$1" -ge 0 ] && [ $(($1 > $2 ? $1 - $2 : $2 - $1)) -le $(($2 / 100 * $3)) ]; }
near "$llc" "$occ" 2 && [ "$occ" -ge $((l3 / 2)) ]
mq_check pqos-mon-occupancy $? \
  "pqos status $status, group ${g##*/}: pqos LLC $llc bytes, resctrl llc_occupancy $occ (within 2 %, at least half the $l3-byte L3 the group streamed twice over)"
near "$moved" "$mbm" 1 && [ "$mbm" -ge $((4 * mib * 1048576)) ]
mq_check pqos-mon-bandwidth $? \
  "pqos MBT x 0.2 s summed: $moved bytes, resctrl mbm_total_bytes $mbm (within 1 %, at least the $((4 * mib)) MiB dd zeroed)"
umount "$MQ_R"

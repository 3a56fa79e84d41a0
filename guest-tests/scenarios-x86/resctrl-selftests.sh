# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own resctrl selftests (tools/testing/selftests/resctrl of
# linux-source-7.3, built by guest-tests/initramfs/resctrl-selftests.sh)
# and Debian's pqos on the x86 RDT platform, after a check of the iMC
# uncore PMUs their MBM and MBA tests read.  Each selftest runs alone
# (resctrl_tests -t NAME); its kselftest lines go out as they come, and one
# "MEMQOS-INFO selftest NAME ok|not-ok|skip|no-result status=N seconds=S"
# line sums it up for the host (tests/guest-runner/rdt_x86.py), which holds
# the expectations.  memqos.rst_tests=A+B names the tests (default: all
# six).  Then "pqos -I -d" (capabilities through the OS interface, resctrl
# mounted): its lines, and "MEMQOS-INFO pqos status=N".
tests=$(mq_param rst_tests "CMT+L3_CAT+L3_NONCONT_CAT+L2_NONCONT_CAT+MBM+MBA" | tr '+' ' ')
# First the PMUs MBM and MBA read (docs/x86-pmu-design.md §2.1), from
# Debian's intel-uncore module: exactly uncore_imc_0..N-1 for
# memqos.rdt_imc=N (0: none, and the module refuses to load), the first
# with Linux's cas_count_read; the PMUs and the drivers' dmesg lines as
# detail.
imc=$(mq_param rdt_imc 0)
modprobe intel-uncore 2>/tmp/modprobe.err
mp=$?
d=/sys/bus/event_source/devices
got=$(ls -d $d/uncore_imc_[0-9]* 2>/dev/null | wc -l)
ev=$(cat $d/uncore_imc_0/events/cas_count_read 2>/dev/null)
[ "$got" -eq "$imc" ] && { [ "$imc" -eq 0 ] || [ "$ev" = "event=0x05,umask=0xcf" ]; }
mq_check uncore-imc $? "uncore_imc_<n>: $got, want $imc; cas_count_read '$ev';\
 modprobe intel-uncore: $mp $(cat /tmp/modprobe.err); PMUs: $(ls $d | tr '\n' ' ')|\
 dmesg: $(dmesg | grep -iE 'uncore|Performance Events|hypervisor' | tr '\n' '|')"
mountpoint -q "$MQ_R" && umount "$MQ_R"
for t in $tests; do
  t0=$(cut -d. -f1 /proc/uptime)
  resctrl_tests -t "$t" >/tmp/rst.out 2>&1
  status=$?
  t1=$(cut -d. -f1 /proc/uptime)
  sed "s/^/RST $t: /" /tmp/rst.out
  # kselftest: "ok N ..." or "not ok N ..." for the test, "# SKIP" when skipped
  r=$(grep -E '^(not )?ok [0-9]+ ' /tmp/rst.out | tail -n 1)
  case $r in
    *"# SKIP"*) result=skip ;;
    "not ok"*) result=not-ok ;;
    ok*) result=ok ;;
    *) result=no-result ;;
  esac
  mq_info selftest "$t $result status=$status seconds=$((t1 - t0))"
  mountpoint -q "$MQ_R" && umount "$MQ_R"
done
# libpqos takes a lock file in /var/lock
mkdir -p /var/lock
mount -t resctrl resctrl "$MQ_R"
pqos -I -d >/tmp/pqos.out 2>&1
status=$?
sed 's/^/PQOS: /' /tmp/pqos.out
mq_info pqos "status=$status"
umount "$MQ_R"

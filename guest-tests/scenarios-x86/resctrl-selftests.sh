# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own resctrl selftests (tools/testing/selftests/resctrl of
# linux-source-7.3, built by guest-tests/initramfs/resctrl-selftests.sh)
# and Debian's pqos on the x86 RDT platform.  Each selftest runs alone
# (resctrl_tests -t NAME); its kselftest lines go out as they come, and one
# "MEMQOS-INFO selftest NAME ok|not-ok|skip|no-result status=N seconds=S"
# line sums it up for the host (tests/guest-runner/rdt_x86.py), which holds
# the expectations.  memqos.rst_tests=A+B names the tests (default: all
# six).  Then "pqos -I -d" (capabilities through the OS interface, resctrl
# mounted): its lines, and "MEMQOS-INFO pqos status=N".
tests=$(mq_param rst_tests "CMT+L3_CAT+L3_NONCONT_CAT+L2_NONCONT_CAT+MBM+MBA" | tr '+' ' ')
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

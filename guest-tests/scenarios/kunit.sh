# SPDX-License-Identifier: GPL-2.0-or-later
# The MPAM driver's KUnit suites ran at boot (CONFIG_KUNIT=y,
# CONFIG_MPAM_KUNIT_TEST=y); their KTAP results are in the kernel log.
for suite in mpam_devices_test_suite mpam_resctrl_test_suite; do
  # KTAP: "ok N <suite>" / "not ok N <suite>" closes the suite, and
  # "# <suite>: pass:P fail:F skip:S total:T" sums it up.
  verdict=$(dmesg | grep -E "(^|[] ])ok [0-9]+ $suite( |\$)" | tail -n 1)
  totals=$(dmesg | sed -n "s/^.*# $suite: \(pass:.*\)\$/\1/p" | tail -n 1)
  case $verdict in
    *"not ok "*) mq_test "kunit-$suite" FAIL "$totals; not ok: $(dmesg | sed -n 's/^.*not ok [0-9]* \([A-Za-z0-9_]*\).*$/\1/p' | tr '\n' ' ')" ;;
    *"ok "*) mq_test "kunit-$suite" PASS "$totals" ;;
    *) mq_test "kunit-$suite" FAIL "suite result not found in dmesg (CONFIG_MPAM_KUNIT_TEST off, or kunit.enable=0?)" ;;
  esac
done

# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's kernel on the bwmon preset (tests/guest-runner/bwmon.py --debian,
# the initramfs variant debian): memqos.bwmon_modules=A,B,... modprobes each
# module, in that order, from this initramfs's /lib/modules (icc-osm-l3
# before icc-bwmon: a monitor whose provider is not registered yet defers
# its probe).  Reports
#   bwmon-modules  release=`uname -r` loaded=the modules in /proc/modules
#                  failed=the modprobes that failed
#                  deferred=devices in debugfs devices_deferred
#                  errors=kernel lines of the BWMON and OSM L3 devices and
#                  drivers that say error, fail or defer
# The scenario bwmon after it checks that the drivers bound and vote.
m=$(mq_param bwmon_modules)
if mq_need bwmon-modules bwmon_modules; then
  _failed=
  for _m in $(echo "$m" | tr , ' '); do
    modprobe "$_m" || _failed="$_failed,$_m"
  done
  _loaded=$(awk '{ printf "%s%s", s, $1; s = "," }' /proc/modules)
  _deferred=$(wc -l </sys/kernel/debug/devices_deferred 2>/dev/null || echo na)
  _errors=$(dmesg | grep -E 'bwmon|osm-l3|90d[0246]000' | grep -ciE 'error|fail|defer')
  mq_data bwmon-modules release=$(uname -r) loaded=$_loaded failed=${_failed#,} \
    deferred=$_deferred errors=$_errors
fi

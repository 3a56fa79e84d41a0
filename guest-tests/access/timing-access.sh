# SPDX-License-Identifier: GPL-2.0-or-later
# Every instruction class that touches memory reaches the modeled memory
# system (issue 26 item 4; tests/guest-runner/access.py): in group
# timing-access (the whole L3), memqos-access runs each class of the
# target over memqos.access=BYTES (more than the last level) and reports
# one "MEMQOS-DATA access class=.. bytes=.. mbm_delta=.. ns=.." per class
# (memqos.access-classes=A,B,..: only those).  Then, with
# memqos.access-dd=1, the kernel's own path as issue 26 gives it: dd reads
# 1 GiB from /dev/zero into a 64 MiB buffer (the kernel zeroes it:
# write-allocate and write-back), "MEMQOS-DATA access-dd bytes=..
# mbm_delta=..".
if mq_need access access && mq_resctrl && g=$(mq_group timing-access "$(cat /sys/fs/resctrl/info/L3/cbm_mask)"); then
  if memqos-access --size "$(mq_param access)" --resctrl-dir "$g" \
       $(c=$(mq_param access-classes); [ -z "$c" ] || echo "--class $c") >/tmp/access.out 2>/tmp/access.err; then
    while read -r l; do mq_data access $l; done </tmp/access.out
  else
    mq_data access "error=exit$?:$(head -n 1 /tmp/access.err | tr -c 'A-Za-z0-9.,/=_\n-' _)"
  fi
fi
if [ "$(mq_param access-dd)" = 1 ] && [ -n "$g" ]; then
  before=$(mq_mon "$g" mbm_total_bytes)
  sh -c "echo \$\$ >$g/tasks && exec dd if=/dev/zero of=/dev/null bs=64M count=16 2>/dev/null"
  after=$(mq_mon "$g" mbm_total_bytes)
  case "$before$after" in
    *[!0-9]*|'') mq_data access-dd "error=mbm_total_bytes:reads_'$before'_then_'$after'" ;;
    *) mq_data access-dd bytes=$((16 << 26)) mbm_delta=$((after - before)) ;;
  esac
fi

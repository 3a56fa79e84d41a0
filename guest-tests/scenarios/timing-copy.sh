# SPDX-License-Identifier: GPL-2.0-or-later
# Traffic the kernel makes for a program (tests/guest-runner/timing.py):
# in group timing-mbm (timing-stream's: the MBWU counters, num_mbm_cntrs,
# went to the groups made first) busybox dd copies memqos.copy=BYTES from
# /dev/zero to a file in the initramfs (page cache) in 1 MiB blocks.  The
# kernel zeroes dd's buffer and copies it into the page cache with
# FEAT_MOPS (or DC ZVA), host-pointer helpers the access stream sees only
# through patch 0022: mbm_total_bytes must count at least BYTES.
# Reports "MEMQOS-DATA copy bytes=.. mbm_delta=..".
if mq_need copy copy && mq_resctrl && g=$(mq_group timing-mbm "$(cat /sys/fs/resctrl/info/L3/cbm_mask)"); then
  mbm=$g/mon_data/mon_L3_00/mbm_total_bytes
  n=$(($(mq_param copy) >> 20))
  before=$(cat "$mbm")
  sh -c "echo \$\$ >$g/tasks && exec dd if=/dev/zero of=/tmp/timing-copy bs=1048576 count=$n 2>/dev/null"
  after=$(cat "$mbm")
  rm -f /tmp/timing-copy
  case "$before$after" in
    *[!0-9]*|'') mq_data copy "error=mbm_total_bytes:reads_'$before'_then_'$after'" ;;
    *) mq_data copy bytes=$((n << 20)) mbm_delta=$((after - before)) ;;
  esac
fi

# A FEAT_MOPS copy whose source and destination pages share QEMU's main-TLB
# entry (memqos-mops-alias), then the same copy with loads and stores: a
# chase over the destination right after each must find the lines the copy
# wrote.  Reports "MEMQOS-DATA alias size=.. copy=mops|loop ns_per_load=..".
if mq_need alias alias evict; then
  for c in mops loop; do
    mq_data alias $(mq_prog memqos-mops-alias --size "$(mq_param alias)" \
      --evict "$(mq_param evict)" --copy $c)
  done
fi

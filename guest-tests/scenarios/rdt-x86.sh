# SPDX-License-Identifier: GPL-2.0-or-later
# Intel RDT on q35 (-cpu ...,rdt=MODEL), Debian's unmodified amd64 kernel:
# the CPUID flags, resctrl's resources, masks and monitors as the model's
# description gives them, and schemata writes reaching the model's MSRs
# (the host reads them with qom-get /machine/rdt, tests/guest-runner/rdt_x86.py).
# What the model has comes from memqos.rdt_KEY=VALUE on the kernel command
# line (the runner writes them from the description, docs/rdt-model.md):
#   flags=a+b  flags that /proc/cpuinfo must show    noflags=a+b  must not
#   info=L2+L3 the directories of info/              schemata=LINE+LINE  the default group's
#   write=LINE+LINE a group's schemata to write      msrs=NAME/INDEX/HEX+...  what they set
#   mon=a+b    the events of mon_data/mon_L3_00      cdp=a+b  the CDP mount options, or none
#   cdpinfo=a+b the info/ directories with CDP       cdpmsrs=NAME/INDEX/HEX+...  what they set
#   lock=L2:1=3  a schemata to pseudo-lock, or none
R=${MQ_RESCTRL:-/sys/fs/resctrl}
mq_list() { mq_param "rdt_$1" | tr '+' ' '; }
# mq_same NAME GOT WANT: PASS when the word lists are equal.
mq_same() { [ "$2" = "$3" ]; mq_check "$1" $? "got '$2', want '$3'"; }

flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
bad=
for f in $(mq_list flags); do case $flags in *" $f "*) ;; *) bad="$bad -$f" ;; esac; done
for f in $(mq_list noflags); do case $flags in *" $f "*) bad="$bad +$f" ;; esac; done
[ -z "$bad" ]; mq_check rdt-cpuinfo-flags $? "$(mq_list flags)${bad:+; wrong:$bad}"

if mount -t resctrl resctrl "$R" 2>/tmp/mount.err; then
  mq_test resctrl-mount PASS "$(dmesg | grep -o 'resctrl: .*' | tr '\n' '|')"
else
  mq_test resctrl-mount FAIL "$(cat /tmp/mount.err); dmesg: $(dmesg | grep -i resctrl | tr '\n' '|')"
fi
mq_same resctrl-info "$(ls "$R/info" | grep -v last_cmd_status | tr '\n' ' ')" "$(mq_list info) "
# (the kernel's line order is its own: compared sorted)
mq_same resctrl-schemata "$(sed 's/^ *//' "$R/schemata" | sort | tr '\n' ' ')" \
  "$(mq_list schemata | tr ' ' '\n' | sort | tr '\n' ' ')"

if [ -n "$(mq_list mon)" ]; then
  d=$R/mon_data/mon_L3_00
  mq_same resctrl-mon-data "$(ls "$d" 2>&1 | tr '\n' ' ')" "$(mq_list mon) "
  # IA32_QM_CTR reads the model: Unavailable while no counting model is
  # bound to the L3 domain (stock TCG would read 0)
  mq_same resctrl-mon-read "$(cat "$d/llc_occupancy" 2>&1)" Unavailable
fi

# A group's schemata reach IA32_*_QOS_MASK_n / the MBA throttles of CLOSID 1
mkdir "$R/g1"
bad=
for l in $(mq_list write); do echo "$l" >"$R/g1/schemata" 2>/dev/null || bad="$bad $l"; done
[ -z "$bad" ]; mq_check resctrl-schemata-write $? "$(mq_list write)${bad:+; rejected:$bad}"
for m in $(mq_list msrs); do mq_sync_test "msr-$(echo "$m" | cut -d/ -f1)" msr "$m"; done

lock=$(mq_param rdt_lock)
if [ "$lock" != none ]; then
  # Pseudo-locking (Goldmont): the default group gives the region's ways
  # up, the kernel fills them under MSR_MISC_FEATURE_CONTROL (0x1A4)
  dom=${lock%%=*} dom=${dom#*:}
  echo "L2:$dom=fc" >"$R/schemata" &&
    echo pseudo-locksetup >"$R/g1/mode" 2>/dev/null &&
    echo "$lock" >"$R/g1/schemata" 2>/dev/null
  mq_same resctrl-pseudo-locked "$(cat "$R/g1/mode") $(ls /dev/pseudo_lock 2>&1)" "pseudo-locked g1"
fi
rmdir "$R/g1" 2>/dev/null
umount "$R"

cdp=$(mq_param rdt_cdp)
if [ "$cdp" = none ]; then
  ! mount -t resctrl -o cdpl2 resctrl "$R" 2>/dev/null
  mq_check resctrl-no-cdp $? "-o cdpl2 refused: the model has no CDP"
  umount "$R" 2>/dev/null
else
  cdp=$(echo "$cdp" | tr + ,)
  mount -t resctrl -o "$cdp" resctrl "$R" 2>/tmp/mount.err
  mq_check resctrl-mount-cdp $? "-o $cdp $(cat /tmp/mount.err)"
  mq_same resctrl-info-cdp "$(ls "$R/info" | grep -v last_cmd_status | tr '\n' ' ')" "$(mq_list cdpinfo) "
  for m in $(mq_list cdpmsrs); do mq_sync_test "msr-cdp-$(echo "$m" | cut -d/ -f1)" msr "$m"; done
  umount "$R"
fi

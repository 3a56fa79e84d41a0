# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of the memqos scenario protocol (sourced by memqos-run).
#
# Guest -> host, one line each on the console:
#   MEMQOS-TEST <name> PASS|FAIL|SKIP <detail>   a result
#   MEMQOS-INFO <key> <value...>                 a measurement, not a result
#   MEMQOS-SYNC <n> <verb> <args...>             ask the host to check the MSCs
#   MEMQOS-DONE passed=N failed=N skipped=N      the end
# Host -> guest (typed on the console, only with memqos.host=1):
#   MEMQOS-REPLY <n> OK|FAIL <detail>
# Verbs: idr | snapshot | unchanged | config partid=P [l3=HEX] [mb=PERCENT]
#        | label cpu=C partid=P pmg=G | end   (see docs/guest.md)

MQ_PASS=0 MQ_FAIL=0 MQ_SKIP=0 MQ_SEQ=0
: "${MQ_HOST:=0}"
if [ -z "${MQ_EXPECT+x}" ]; then
  MQ_EXPECT=
  for arg in $(cat /proc/cmdline); do
    case $arg in
      memqos.host=*) MQ_HOST=${arg#*=} ;;
      memqos.expect=*) MQ_EXPECT=${arg#*=} ;;
    esac
  done
fi
# The host types replies on the console: do not echo them back.
[ "$MQ_HOST" = 1 ] && stty -echo 2>/dev/null

mq_test() {
  _n=$1 _r=$2; shift 2
  echo "MEMQOS-TEST $_n $_r $*"
  case $_r in
    PASS) MQ_PASS=$((MQ_PASS + 1)) ;;
    SKIP) MQ_SKIP=$((MQ_SKIP + 1)) ;;
    *) MQ_FAIL=$((MQ_FAIL + 1)) ;;
  esac
}

# mq_check NAME CONDITION-STATUS DETAIL: PASS when the status is 0.
mq_check() { if [ "$2" -eq 0 ]; then mq_test "$1" PASS "$3"; else mq_test "$1" FAIL "$3"; fi; }

mq_info() { echo "MEMQOS-INFO $*"; }

# mq_sync VERB ARGS...: ask the host; sets MQ_REPLY (OK|FAIL|SKIP) and
# MQ_DETAIL.  Without a host harness the answer is SKIP.
mq_sync() {
  if [ "$MQ_HOST" != 1 ]; then
    MQ_REPLY=SKIP MQ_DETAIL="no host harness (boot with memqos.host=1)"
    return
  fi
  MQ_SEQ=$((MQ_SEQ + 1))
  echo "MEMQOS-SYNC $MQ_SEQ $*"
  MQ_REPLY=FAIL MQ_DETAIL="no reply from the host within 120 s"
  while read -r -t 120 _tag _seq _status _rest; do
    [ "$_tag" = MEMQOS-REPLY ] && [ "$_seq" = "$MQ_SEQ" ] || continue
    MQ_REPLY=$_status MQ_DETAIL=$_rest
    break
  done
}

# mq_sync_test NAME VERB ARGS...: a test whose verdict is the host's.
mq_sync_test() {
  _name=$1; shift
  mq_sync "$@"
  case $MQ_REPLY in
    OK) mq_test "$_name" PASS "$* ($MQ_DETAIL)" ;;
    SKIP) mq_test "$_name" SKIP "$MQ_DETAIL" ;;
    *) mq_test "$_name" FAIL "$* ($MQ_DETAIL)" ;;
  esac
}

# mq_expect KEY: the expected value of KEY (partids, pmgs, l3_cbm_wd,
# mb_bwa_wd) from the host's "idr" reply or memqos.expect=k=v:k=v; empty
# when unknown.
mq_expect() {
  for _kv in $(echo "$MQ_EXPECT" | tr ':,' '  '); do
    [ "${_kv%%=*}" = "$1" ] && { echo "${_kv#*=}"; return; }
  done
}

# ---- measurements for a host runner (tests/guest-runner/timing.py) ----
# Parameters come on the kernel command line as memqos.NAME=VALUE; results
# go out as "MEMQOS-DATA TAG key=value ..." lines, one per measurement.
MQ_R=/sys/fs/resctrl

# mq_param NAME [DEFAULT]: the value of memqos.NAME= on the kernel command line.
mq_param() {
  for _a in $(cat /proc/cmdline); do
    case $_a in "memqos.$1="*) echo "${_a#*=}"; return ;; esac
  done
  echo "${2:-}"
}

# mq_need TAG NAME...: status 0 when every memqos.NAME= is on the kernel
# command line; else "MEMQOS-DATA TAG error=missing:..." naming the others.
mq_need() {
  _tag=$1 _missing=
  shift
  for _n in "$@"; do [ -n "$(mq_param "$_n")" ] || _missing="$_missing,memqos.$_n"; done
  [ -z "$_missing" ] && return 0
  mq_data "$_tag" "error=missing:${_missing#,}"
  return 1
}

# mq_field ITEM N: field N of a colon-separated ITEM.
mq_field() { echo "$1" | cut -d: -f"$2"; }

mq_data() { echo "MEMQOS-DATA $*"; }

# mq_laps SIZE: memqos-chase laps of a SIZE-byte working set that make about
# memqos.loads= loads per sample (default 2^22).
mq_laps() {
  _lines=$(($1 / 64))
  echo $((($(mq_param loads 4194304) + _lines - 1) / _lines))
}

# mq_prog CMD...: the key=value line a guest program printed, or
# error=... (its exit status and first stderr line) when it failed.
mq_prog() {
  if _out=$("$@" 2>/tmp/mq_prog.err); then
    echo "$_out"
  else
    echo "error=exit$?:$(head -n 1 /tmp/mq_prog.err | tr -c 'A-Za-z0-9.,/=_\n-' _)"
  fi
}

# mq_resctrl: mount resctrl (once); status 1 and an error DATA line if it cannot.
mq_resctrl() {
  [ -f "$MQ_R/schemata" ] && return 0
  mount -t resctrl resctrl "$MQ_R" 2>/tmp/mq_mount.err && return 0
  mq_data resctrl "error=mount:$(tr -c 'A-Za-z0-9.,/=_\n-' _ </tmp/mq_mount.err)"
  return 1
}

# mq_group NAME L3MASK: create resctrl group NAME with that L3 mask, print its directory.
mq_group() {
  mkdir -p "$MQ_R/$1" && echo "L3:0=$2" >"$MQ_R/$1/schemata" && echo "$MQ_R/$1"
}

# mq_mon DIR EVENT: the group's monitor EVENT (llc_occupancy,
# mbm_total_bytes) in the L3 domain (na when unreadable).
mq_mon() { cat "$1/mon_data/mon_L3_00/$2" 2>/dev/null || echo na; }

# mq_occupancy DIR: the group's llc_occupancy.
mq_occupancy() { mq_mon "$1" llc_occupancy; }

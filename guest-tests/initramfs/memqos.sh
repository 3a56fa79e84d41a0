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

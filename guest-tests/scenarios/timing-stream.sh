# SPDX-License-Identifier: GPL-2.0-or-later
# mbm_total_bytes vs the bytes a stream read (tests/guest-runner/timing.py):
# group timing-mbm runs memqos-stream with memqos.stream=SIZE:PASSES on CPU 0.
# Reports "MEMQOS-DATA stream bytes=.. mbm_delta=.. mb_per_s=..".
st=$(mq_param stream)
if mq_need stream stream && mq_resctrl && g=$(mq_group timing-mbm "$(cat /sys/fs/resctrl/info/L3/cbm_mask)"); then
  mq_data stream $(mq_prog memqos-stream --size "$(mq_field "$st" 1)" \
    --passes "$(mq_field "$st" 2)" --resctrl-dir "$g" --cpu 0)
fi

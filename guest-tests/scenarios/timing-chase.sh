# SPDX-License-Identifier: GPL-2.0-or-later
# Chase latency per working-set size (tests/guest-runner/timing.py): for each
# memqos.chase=TAG:SIZE:COLORS,... item one memqos-chase on CPU 0 in the
# default group, reported as "MEMQOS-DATA TAG size=.. ns_per_load=..".
# memqos.samples=N: best of N samples (default 3); memqos.loads=N: loads per
# sample (default 2^22).
mq_need chase chase &&
for item in $(mq_param chase | tr , ' '); do
  size=$(mq_field "$item" 2)
  mq_data "$(mq_field "$item" 1)" $(mq_prog memqos-chase --size "$size" \
    --colors "$(mq_field "$item" 3)" --laps "$(mq_laps "$size")" --samples "$(mq_param samples 3)" \
    --cpu 0)
done

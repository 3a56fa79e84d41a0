# SPDX-License-Identifier: GPL-2.0-or-later
# Chase latency per working-set size (tests/guest-runner/timing.py): for each
# memqos.chase=TAG:SIZE:COLORS,... item one memqos-chase on CPU 0 in the
# default group, reported as "MEMQOS-DATA TAG size=.. ns_per_load=..".
# memqos.samples=N: best of N samples (default 3).
for item in $(mq_param chase | tr , ' '); do
  mq_data "$(mq_field "$item" 1)" $(mq_prog memqos-chase --size "$(mq_field "$item" 2)" \
    --colors "$(mq_field "$item" 3)" --samples "$(mq_param samples 3)" --cpu 0)
done

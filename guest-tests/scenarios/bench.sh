# SPDX-License-Identifier: GPL-2.0-or-later
# Wall-time benchmark of the access stream (tests/guest-runner/bench.py,
# docs/benchmarks.md), on CPU 0 in the default group:
#   memqos.bench-stream=SIZE:PASSES,...  one memqos-stream per item
#   memqos.bench-chase=SIZE:LOADS        then memqos-chase (one colour)
# The host times the console lines: "bench-start prog=P" before each
# program, "bench-P ..." (the program's own report) after it; P is
# stream-SIZE or chase.
if mq_need bench bench-stream bench-chase; then
  for item in $(mq_param bench-stream | tr , ' '); do
    size=$(mq_field "$item" 1)
    mq_data bench-start prog=stream-$size
    mq_data bench-stream-$size $(mq_prog memqos-stream --size "$size" --passes "$(mq_field "$item" 2)" --cpu 0)
  done
  c=$(mq_param bench-chase)
  size=$(mq_field "$c" 1)
  mq_data bench-start prog=chase
  mq_data bench-chase $(mq_prog memqos-chase --size "$size" --colors 1 \
    --laps $((($(mq_field "$c" 2) + size / 64 - 1) / (size / 64))) --samples 1 --cpu 0)
fi

# SPDX-License-Identifier: GPL-2.0-or-later
# Wall-time benchmark of the access stream (tests/guest-runner/bench.py,
# docs/benchmarks.md): memqos.bench=STREAM_SIZE:PASSES:CHASE_SIZE:CHASE_LOADS
# runs memqos-stream, then memqos-chase (one colour: plain pages), on CPU 0
# in the default group.  The host times the console lines: "bench-start
# prog=P" before each program, "bench-P ..." (the program's own report)
# after it.
if mq_need bench bench; then
  b=$(mq_param bench)
  mq_data bench-start prog=stream
  mq_data bench-stream $(mq_prog memqos-stream --size "$(mq_field "$b" 1)" --passes "$(mq_field "$b" 2)" --cpu 0)
  size=$(mq_field "$b" 3)
  mq_data bench-start prog=chase
  mq_data bench-chase $(mq_prog memqos-chase --size "$size" --colors 1 \
    --laps $((($(mq_field "$b" 4) + size / 64 - 1) / (size / 64))) --samples 1 --cpu 0)
fi

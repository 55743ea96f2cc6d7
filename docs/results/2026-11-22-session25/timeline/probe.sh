#!/bin/bash
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $OUT/device.txt
git log -1 --format=%H >> $OUT/device.txt 2>/dev/null
for r in 1 2; do
  variants/bt/bin/bsde solve --problem ex2 --K 6 --N 1024 --backend cuda > $OUT/solve_bt$r.txt 2> $OUT/timing_bt$r.txt
  build/bin/bsde solve --problem ex2 --K 6 --N 1024 --backend cuda > $OUT/solve_head$r.txt 2>&1
done
build/bin/bsde bench --cases ex2-k6-n1024 --backends cuda --repeats 5 > $OUT/bench_head.txt 2>&1
ls -la $OUT

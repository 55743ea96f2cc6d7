#!/usr/bin/env bash
# On the GPU host: the duration of every kernel of one backward step of ex2 (K = 6, N = 1024) on cuda, from
# Nsight Compute with the clocks left alone (the fused pass, the status reduction, the spline fit). ncu
# flushes the caches before each kernel, so small kernels read slower than inside the sweep.
# usage: scripts/kernels_once.sh   (after make; prints kernel names and durations)
ncu --clock-control none --launch-skip 2000 --launch-count 12 --section SpeedOfLight \
    build/bin/bsde solve --problem ex2 --K 6 --N 1024 --backend cuda 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|Duration" | cut -c1-160

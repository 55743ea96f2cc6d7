#!/usr/bin/env bash
# On the GPU host: the duration of every kernel of one backward step of ex2 (K = 6, N = 1024) on cuda, from
# Nsight Compute with the clocks and the caches left alone (the fused pass, the status reduction, the spline
# fit): each kernel's own duration as inside the sweep, without the gaps between them.
# usage: scripts/kernels_once.sh   (after make; prints kernel names and durations)
ncu --clock-control none --cache-control none --launch-skip 2000 --launch-count 12 --section SpeedOfLight \
    "${BSDE:-build/bin/bsde}" solve --problem ex2 --K 6 --N 1024 --backend cuda 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|Duration" | cut -c1-160

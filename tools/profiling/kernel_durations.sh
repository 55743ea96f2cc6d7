#!/usr/bin/env bash
# On the GPU host: the duration of every kernel of a few backward steps of one solve on cuda (by default ex2, K = 6,
# N = 1024), from Nsight Compute with the clocks and the caches left alone (the fused pass, the status reduction,
# the spline fit): each kernel's own duration as inside the sweep, without the gaps between them and without the
# bench's marks (which keep the pass from starting before the fit ends).
# usage: [KERNELS_CASE="--problem ex5 --K 6 --N 64"] [KERNELS_SKIP=N] [KERNELS_COUNT=N]
#        tools/profiling/kernel_durations.sh
#   (after make; prints kernel names and durations)
ncu --clock-control none --cache-control none --launch-skip "${KERNELS_SKIP:-2000}" \
    --launch-count "${KERNELS_COUNT:-12}" --metrics gpu__time_duration.sum \
    "${BSDE:-build/bin/bsde}" solve ${KERNELS_CASE:---problem ex2 --K 6 --N 1024} --backend cuda 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | cut -c1-160

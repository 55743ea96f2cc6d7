#!/usr/bin/env bash
# On the GPU host: the stability analysis (algorithms/scheme/stability.h) against what the solver does. Each case runs with
# --allow-unstable on cuda and prints the analysis's growth over the run with the y_0 and z_0 errors and the largest
# errors over |w| <= R/2 (or the solver's error line), so that the growth at which results go wrong can be read off.
# usage: scripts/device_stability.sh > log   (BSDE: the binary, default build/bin/bsde)
set -uo pipefail
bsde=${BSDE:-build/bin/bsde}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$bsde" --version
# problem K N L [more options]
cases=(
  "ex1 6 512 16" "ex1 6 512 14" "ex1 6 512 12" "ex1 6 512 8" "ex1 6 256 8" "ex1 6 256 16" "ex1 6 192 6"
  "ex1 6 128 4" "ex1 6 128 8" "ex1 5 384 8"
  "ex2 6 1024 32" "ex2 6 1024 28" "ex2 6 1024 24" "ex2 6 2048 32" "ex2 6 2048 40" "ex2 6 2048 48"
  "ex2 3 2048 16" "ex2 3 2048 32" "ex2 4 2048 32" "ex2 4 2048 48"
  "ex3 3 512 32" "ex3 4 512 32" "ex3 5 512 32" "ex3 6 512 32" "ex3 6 512 64" "ex3 6 256 32"
  "ex4 6 64 8" "ex4 6 128 8" "ex5 6 64 8" "ex5 6 128 8"
)
for c in "${cases[@]}"; do
  read -r problem K N L rest <<< "$c"
  out=$("$bsde" solve --problem "$problem" --K "$K" --N "$N" --L "$L" $rest --backend cuda --allow-unstable 2>&1)
  stability=$(grep '^stability' <<< "$out" | sed 's/^stability *//; s/ (von Neumann.*//')
  errors=$(grep -E '^(y_0|z_0|max error|bsde: error)' <<< "$out" | sed 's/^max error over [^:]*: /max /; s/.*error //' | tr '\n' ' ')
  printf '%-18s | %s | %s\n' "$c" "$stability" "$errors"
done

#!/usr/bin/env bash
# On the GPU host: the measurements behind src/result_checks.h. Stages (one or more per device call):
#   ratios  the z check's ratio on ex4 and ex5 at their defaults, ex5 also with the paper's drifts, K = 1..6,
#           N = 8..128 (scripts/slope_check_ratios.sh)
#   reach   ex4's y_0 and z_0 errors against the domain's reach, h = (R - |c| T) / sqrt(T), c = -1/2 the driver's z
#           coefficient, at T = 1, 2, 4, 10 (K = 3, N = 256)
#   reach-1d  the same for ex1 and ex2 (c = 0) on omp, h = R / sqrt(T) = 3..8, 12 (any host)
# usage: BSDE=build_cuda/bin/bsde scripts/device_result_checks.sh STAGE...; outputs under $OUT (or ./out)
set -u
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; "$bsde" --version; } > "$out/device.txt" 2>&1
for stage in "$@"; do
  case $stage in
    ratios)
      BSDE=$bsde LIMIT=60 scripts/slope_check_ratios.sh "ex4 ex5" "1 2 3 4 5 6" "8 16 32 64 128" --backend cuda \
        > "$out/ratios_2d.txt" 2>&1
      BSDE=$bsde LIMIT=60 scripts/slope_check_ratios.sh ex5 "1 2 3 4 5 6" "8 16 32 64 128" --backend cuda \
        --mu1 0.1 --mu2 0.1 >> "$out/ratios_2d.txt" 2>&1 ;;
    reach)
      for T in 1 2 4 10; do
        for h in 2 3 4 5 6 7 8 10; do
          R=$(python3 -c "import math; print(round($T / 2 + $h * math.sqrt($T), 4))")
          line=$("$bsde" solve --problem ex4 --T "$T" --R "$R" --backend cuda --estimate off 2>&1 |
                 awk '/^y_0|^z_0\[1\]|^z check/ {printf " %s", $0}')
          echo "T=$T h=$h R=$R$line"
        done
        line=$("$bsde" solve --problem ex4 --T "$T" --backend cuda --estimate off 2>&1 |
               awk '/^y_0|^z_0\[1\]|^z check/ {printf " %s", $0}')
        echo "T=$T default R=8$line"
      done > "$out/reach_ex4.txt" 2>&1 ;;
    reach-1d)
      for p in ex1 ex2; do
        for T in 1 2 4 10; do
          for h in 3 4 5 6 7 8 12; do
            R=$(python3 -c "import math; print(round($h * math.sqrt($T), 4))")
            line=$("$bsde" solve --problem $p --T "$T" --R "$R" --backend omp --estimate off 2>&1 |
                   awk '/^y_0|^z_0|^bsde: error/ {printf " %s", $0}')
            echo "$p T=$T h=$h R=$R$line"
          done
        done
      done > "$out/reach_1d.txt" 2>&1 ;;
  esac
done

#!/usr/bin/env bash
# On the GPU host: the full test runner, then the Black-Scholes call at the paper's Table 8 sizes on cuda
# with each smoothing, and on omp with the default, with the paper's mu = 0.05 and R = 16 (data/table8_ex3.ini). Logs
# under $OUT (or ./out). usage: scripts/device_table8_smoothing.sh (after make)
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
scripts/device_info.sh | tee "$out/device.txt"
build/bin/bsde_tests 2>&1 | tee "$out/tests.log" | tail -3
for smoothing in kreiss4 kreiss2 none; do
  scripts/solve_table.sh ex3 "1 2 3 4 5 6" "32 64 128 256" --backend cuda --smoothing $smoothing --mu 0.05 --R 16 \
    > "$out/table8_$smoothing.csv" 2>&1
done
scripts/solve_table.sh ex3 "1 2 3 4 5 6" "32 64 128 256" --backend omp --mu 0.05 --R 16 > "$out/table8_kreiss4_omp.csv" 2>&1
cut -d, -f1-4,6,8,9 "$out"/table8_kreiss4*.csv

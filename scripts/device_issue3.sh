#!/usr/bin/env bash
# On the GPU host: the full test runner (cuda suites included) and the paper's Tables 4 and 5 on cuda.
# Writes logs under $OUT (or ./out). usage: scripts/device_issue3.sh
set -uo pipefail
out=${OUT:-out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  build/bin/bsde --version  # the commit the binary was built from (the host's copy of .git may be stale)
  ls /usr/local/cuda/lib64/libcusparse.so* 2>&1 | head -3
} | tee "$out/device.txt"
build/bin/bsde_tests 2>&1 | tee "$out/tests.log" | tail -5
for problem in ex1 ex2; do
  scripts/solve_table.sh $problem "1 2 3 4 5 6" "128 256 512 1024" --backend cuda > "$out/table_$problem.csv" 2>&1
done
scripts/solve_table.sh ex1 "1 2 3 4 5 6" "128 256 512 1024" --backend cuda --startup exact > "$out/table_ex1_exact_startup.csv" 2>&1
# side by side on the same host, informational
scripts/solve_table.sh ex2 "3 6" "256" --backend omp > "$out/table_ex2_omp.csv" 2>&1
tail -n +1 "$out"/table_*.csv

#!/usr/bin/env bash
# On the GPU host: record the paper's tables through `bsde study`. Stages (run one per device call):
#   tests   the full test runner (cuda suites included)
#   1d      Tables 4 (ex1, also with the exact start-up), 5 (ex2) and 8 (ex3) on serial, omp and cuda
#   2d      Tables 9 (ex4) and 11 (ex5) with both interpolations on serial, omp and cuda
#   2d-big  ex4 and ex5 at N = 128, 256 with the tensor spline on cuda (memory included)
# Serial (and omp) leave out the larger cases once a solve takes more than MAX_SECONDS (empty cells).
# usage: scripts/device_record.sh STAGE...; logs and study folders under $OUT (or ./out)
set -uo pipefail
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
max=${MAX_SECONDS:-20}
mkdir -p "$out"
scripts/device_info.sh "$bsde" > "$out/device.txt"
study() {  # name, then bsde study options
  local name=$1
  shift
  "$bsde" study "$@" --out "$out/$name" > "$out/$name.txt" 2>&1
  echo "== $name (exit $?)"
  tail -n 40 "$out/$name.txt"
}
for stage in "$@"; do
  case $stage in
    tests) build/bin/bsde_tests > "$out/tests.log" 2>&1; tail -n 3 "$out/tests.log" ;;
    1d)
      study table4_ex1 --config data/table4_ex1.ini --backends serial,omp,cuda --max-seconds "$max"
      study table4_ex1_exact_startup --config data/table4_ex1.ini --startup exact --backends cuda
      study table5_ex2 --config data/table5_ex2.ini --backends serial,omp,cuda --max-seconds "$max"
      study table8_ex3 --config data/table8_ex3.ini --backends serial,omp,cuda --max-seconds "$max" ;;
    2d)
      for interp in spline bicubic; do
        study "table9_ex4_$interp" --config data/table9_ex4.ini --interp $interp --backends serial,omp,cuda --max-seconds "$max"
        study "table11_ex5_$interp" --config data/table11_ex5.ini --interp $interp --backends serial,omp,cuda --max-seconds "$max"
      done ;;
    2d-big)
      study ex4_large_spline --problem ex4 --K 1-6 --N 128,256 --interp spline --backends cuda
      study ex5_large_spline --problem ex5 --K 1-6 --N 128,256 --interp spline --backends cuda ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done

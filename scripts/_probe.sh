#!/usr/bin/env bash
# temporary: chunks vs inverse band
out=${OUT:-out}; mkdir -p $out
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/device.txt
build/bin/bsde --version >> $out/device.txt
build/bin/bsde_tests --run_test='cubic_spline:interpolation_2d:*/*cuda*' > $out/tests.log 2>&1; echo "tests exit $?"; tail -2 $out/tests.log
for round in 1 2; do
build/bin/bsde bench --backends cuda --repeats 5 --cases ex2-k6-n1024,ex2-k6-n1024:spline_solve=chunks,ex2-k3-n256,ex2-k3-n256:spline_solve=chunks,ex2-k6-n512,ex2-k6-n512:spline_solve=chunks,ex5-k6-n64,ex5-k6-n64:spline_solve=chunks,ex4-k3-n32,ex4-k3-n32:spline_solve=chunks > $out/bench_$round.txt 2>&1
grep -E "^ *(ex|case)" $out/bench_$round.txt
done
for s in inverse-band chunks; do
KERNELS_CASE="--problem ex2 --K 6 --N 1024 --spline-solve $s" KERNELS_SKIP=2000 KERNELS_COUNT=12 bash scripts/kernels_once.sh > $out/kernels_ex2_$s.txt 2>&1
KERNELS_CASE="--problem ex5 --K 6 --N 64 --spline-solve $s" KERNELS_SKIP=1400 KERNELS_COUNT=40 bash scripts/kernels_once.sh > $out/kernels_ex5_$s.txt 2>&1
done
for f in $out/kernels_*.txt; do echo "== $f"; python3 scripts/ncu_durations.py $f | head -20; done

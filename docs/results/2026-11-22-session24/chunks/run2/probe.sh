#!/usr/bin/env bash
# temporary: chunks (batched) vs inverse band; build/bin/bsde = 32-row chunks, variants/bsde_c64 = 64-row chunks
out=${OUT:-out}; mkdir -p $out
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/device.txt
build/bin/bsde_tests --run_test='cubic_spline:interpolation_2d:*/*cuda*' > $out/tests.log 2>&1; echo "tests exit $?"; tail -1 $out/tests.log
cases=ex2-k6-n1024,ex2-k6-n1024:spline_solve=chunks,ex2-k3-n256,ex2-k3-n256:spline_solve=chunks,ex5-k6-n64,ex5-k6-n64:spline_solve=chunks,ex4-k3-n32:spline_solve=chunks
for b in build/bin/bsde variants/bsde_c64; do
$b bench --backends cuda --repeats 5 --cases $cases > $out/bench_$(basename $b).txt 2>&1
grep -E "^ *(ex|case)" $out/bench_$(basename $b).txt | grep -v flops | cut -c1-130
done
for b in build/bin/bsde variants/bsde_c64; do
BSDE=$b KERNELS_CASE="--problem ex2 --K 6 --N 1024 --spline-solve chunks" KERNELS_SKIP=2000 KERNELS_COUNT=12 bash scripts/kernels_once.sh > $out/kernels_ex2_$(basename $b).txt 2>&1
BSDE=$b KERNELS_CASE="--problem ex5 --K 6 --N 64 --spline-solve chunks" KERNELS_SKIP=1400 KERNELS_COUNT=40 bash scripts/kernels_once.sh > $out/kernels_ex5_$(basename $b).txt 2>&1
done
for f in $out/kernels_*.txt; do echo "== $f"; python3 scripts/ncu_durations.py $f | head -8; done

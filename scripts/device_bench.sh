#!/usr/bin/env bash
# On the GPU host: the benchmark record and the cuda-against-host comparisons, one stage or more a call; logs under
# $OUT (or ./out).
#   tests     the cuda-dependent test cases (cuda equals serial, cuda solves)
#   alltests  the full test runner (every suite on serial, omp and cuda)
#   bench     bsde bench on cuda: the four default cases and the two surface cases
#   speedup   ex2, K = 6, N = 256, 512, 640 and 768 on serial, omp and cuda side by side in one study (serial within a
#             minute)
#   speedup3  the same study at N = 256, 512 and 768 with --repeats 3 (each time the median of three solves taken in
#             rounds over the backends; about 6 minutes)
#   scaling   omp over serial on ex2, K = 6, N = 256 with 1, 2, 4, 8, 16 threads (and the host's CPU topology)
#   ompscale  bsde bench on serial and omp, ex2 K = 6, N = 256 (medians of 3: omp's scaling over serial)
#   big       ex5, K = 6, N = 128 on cuda
#   big256    ex5, K = 6, N = 256 on cuda (M = 4096, 1.7e7 points)
#   compare   bsde bench on cuda, the default cases and ex2 K = 6, N = 512, 640 and 768, for build/bin/bsde and every
#             binary in variants/ (built here from other commits or with one change, to compare in one call)
# The experiments behind the design (the pass's time split, kernel durations, separable pass on and off, omp's fit
# and thread placement, the host's and the GPU's ceilings) are tools/profiling/bench_experiments.sh.
# usage: scripts/device_bench.sh STAGE...
set -uo pipefail
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
mkdir -p "$out"
scripts/device_info.sh "$bsde" > "$out/device.txt"
for stage in "$@"; do
  case $stage in
    tests)
      "${TESTS:-build/bin/bsde_tests}" --run_test='*/*cuda*' > "$out/tests.log" 2>&1
      echo "== tests (exit $?)"; tail -n 3 "$out/tests.log" ;;
    alltests)
      "${TESTS:-build/bin/bsde_tests}" > "$out/alltests.log" 2>&1
      echo "== alltests (exit $?)"; tail -n 3 "$out/alltests.log" ;;
    bench)
      "$bsde" bench --cases ex2-k6-n1024,ex5-k6-n64,ex2-k3-n256,ex4-k3-n32,surface-bs-call,surface-exchange \
        --backends cuda --repeats 5 --out "$out/bench" > "$out/bench.txt" 2>&1
      echo "== bench (exit $?)"; cat "$out/bench.txt" ;;
    speedup)
      "$bsde" study --problem ex2 --K 6 --N 256,512,640,768 --backends serial,omp,cuda --out "$out/speedup" > "$out/speedup.txt" 2>&1
      echo "== speedup (exit $?)"; cat "$out/speedup.txt" ;;
    speedup3)
      "$bsde" study --problem ex2 --K 6 --N 256,512,768 --backends serial,omp,cuda --repeats 3 --out "$out/speedup3" > "$out/speedup3.txt" 2>&1
      echo "== speedup3 (exit $?)"; cat "$out/speedup3.txt" ;;
    scaling)
      { lscpu | grep -E "^(Model name|CPU\(s\)|Thread|Core|Socket)"
        for threads in 1 2 4 8 16; do
          echo "omp threads $threads: $(OMP_NUM_THREADS=$threads "$bsde" solve --problem ex2 --K 6 --N 256 --backend omp | grep '^sweep')"
        done
        echo "serial: $("$bsde" solve --problem ex2 --K 6 --N 256 --backend serial | grep '^sweep')"
      } > "$out/scaling.txt" 2>&1
      echo "== scaling"; cat "$out/scaling.txt" ;;
    ompscale)
      "$bsde" bench --backends serial,omp --repeats 3 --cases ex2-k6-n256 > "$out/ompscale.txt" 2>&1
      echo "== ompscale (exit $?)"; grep -E "^ *(ex|case)" "$out/ompscale.txt" ;;
    big)
      "$bsde" solve --problem ex5 --K 6 --N 128 --backend cuda --R 8 --spots 100:100 --mu1 0.1 --mu2 0.1 > "$out/ex5_n128.txt" 2>&1
      echo "== ex5 K = 6, N = 128 (exit $?)"; cat "$out/ex5_n128.txt" ;;
    big256)
      "$bsde" solve --problem ex5 --K 6 --N 256 --backend cuda --R 8 --spots 100:100 --mu1 0.1 --mu2 0.1 > "$out/ex5_n256.txt" 2>&1
      echo "== ex5 K = 6, N = 256 (exit $?)"; cat "$out/ex5_n256.txt" ;;
    compare)
      for binary in "$bsde" variants/*; do
        [ -x "$binary" ] || continue
        name=$(basename "$binary")
        "$binary" bench --backends cuda --repeats 5 --cases ex2-k6-n1024,ex2-k6-n768,ex2:K=6:N=640,ex2-k6-n512,ex5-k6-n64,ex2-k3-n256,ex4-k3-n32 \
          > "$out/compare_$name.txt" 2>&1
        echo "== compare $binary (exit $?)"; grep -E "^ *(ex|case)" "$out/compare_$name.txt"
      done ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done

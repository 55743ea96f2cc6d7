#!/usr/bin/env bash
# On the GPU host: issue 7's measurements in one call; logs under $OUT (or ./out).
#   tests    the cuda-dependent test cases (cuda equals serial, cuda solves)
#   alltests the full test runner (every suite on serial, omp and cuda)
#   bench    bsde bench on cuda: the four default cases
#   speedup  ex2, K = 6, N = 256, 512, 640 and 768 on serial, omp and cuda side by side in one study (serial within a minute)
#   speedup3 the same study at N = 256, 512 and 768 with --repeats 3 (each time the median of three solves taken in
#            rounds over the backends; about 6 minutes)
#   scaling  omp over serial on ex2, K = 6, N = 256 with 1, 2, 4, 8, 16 threads (and the host's CPU topology)
#   big      ex5, K = 6, N = 128 on cuda (target under 8 s)
#   big256   ex5, K = 6, N = 256 on cuda (M = 4096, 1.7e7 points; the paper could not run it)
#   separable bsde bench on cuda, the 2D cases with the separable pass and without (key separable=off): ex5 K = 6,
#            N = 64 and 128, ex4 K = 3, N = 32
#   compare  bsde bench on cuda, the default cases and ex2 K = 6, N = 512, 640 and 768, for build/bin/bsde and every binary
#            in variants/ (built here from other commits or with one change, to compare in one call)
#   kernels  the duration of each kernel of a few steps of ex2 K = 6, N = 1024 and of ex5 K = 6, N = 64
#            (scripts/kernels_once.sh, Nsight Compute)
#   ompscale bsde bench on serial and omp, ex2 K = 6, N = 256 (medians of 3: omp's scaling over serial)
#   ompfit   bsde bench on omp, ex2 K = 6, N = 256, 512, 768, the 1D fit by Thomas and by the inverse band
#   ompcompare  bsde bench on omp, ex2 K = 6, N = 256 and 512 (medians of 5 and 3), for build/bin/bsde and the binary
#            $OMP_BASELINE (another commit's, built without CUDA is enough) in turn, twice; serial N = 256 once
#   omppin   bsde bench on omp, ex2 K = 6, N = 256 and 512, threads left to the OS and pinned
#            (OMP_PROC_BIND=close OMP_PLACES=cores) in turn, twice; serial N = 256 once
#   hostceiling  the host's own scaling of perfectly parallel FP64 work, 1 thread against all
#            (build/bin/host_scaling, from scripts/host_scaling.cpp), steps of about 45 and 6 ms on one thread
#            (ex2 K = 6, N = 256: about 20 ms)
#   split    bsde bench on cuda, ex2 N = 1024 at K = 6 with L = 32, 40, 48, 64 and at L = 32 with K = 3, 4, 5: the runs
#            that split the 1D pass's time into what scales with the nodes, the point-layers and the steps
#            (scripts/pass_split.py reads their bench.csv)
#   ceilings the GPU's own FP64 multiply-add and exp rates and whether they add up, as bsde bench measures them
#            before its cases (the notes' "ceilings" line of a bench of one tiny case), three times
# usage: scripts/device_issue7.sh STAGE...
set -uo pipefail
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$bsde" --version  # the commit the binary was built from (the host's copy of .git may be stale)
} > "$out/device.txt"
for stage in "$@"; do
  case $stage in
    tests)
      "${TESTS:-build/bin/bsde_tests}" --run_test='*/*cuda*' > "$out/tests.log" 2>&1
      echo "== tests (exit $?)"; tail -n 3 "$out/tests.log" ;;
    alltests)
      "${TESTS:-build/bin/bsde_tests}" > "$out/alltests.log" 2>&1
      echo "== alltests (exit $?)"; tail -n 3 "$out/alltests.log" ;;
    bench)
      "$bsde" bench --backends cuda --repeats 5 --out "$out/bench" > "$out/bench.txt" 2>&1
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
    big)
      "$bsde" solve --problem ex5 --K 6 --N 128 --backend cuda --R 8 --spots 100:100 --mu1 0.1 --mu2 0.1 > "$out/ex5_n128.txt" 2>&1
      echo "== ex5 K = 6, N = 128 (exit $?)"; cat "$out/ex5_n128.txt" ;;
    big256)
      "$bsde" solve --problem ex5 --K 6 --N 256 --backend cuda --R 8 --spots 100:100 --mu1 0.1 --mu2 0.1 > "$out/ex5_n256.txt" 2>&1
      echo "== ex5 K = 6, N = 256 (exit $?)"; cat "$out/ex5_n256.txt" ;;
    separable)
      "$bsde" bench --backends cuda --repeats 5 --out "$out/separable" \
        --cases ex5-k6-n64,ex5-k6-n64:separable=off,ex4-k3-n32,ex4-k3-n32:separable=off,ex5-k6-n128,ex5-k6-n128:separable=off \
        > "$out/separable.txt" 2>&1
      echo "== separable (exit $?)"; cat "$out/separable.txt" ;;
    compare)
      for binary in "$bsde" variants/*; do
        [ -x "$binary" ] || continue
        name=$(basename "$binary")
        "$binary" bench --backends cuda --repeats 5 --cases ex2-k6-n1024,ex2-k6-n768,ex2:K=6:N=640,ex2-k6-n512,ex5-k6-n64,ex2-k3-n256,ex4-k3-n32 \
          > "$out/compare_$name.txt" 2>&1
        echo "== compare $binary (exit $?)"; grep -E "^ *(ex|case)" "$out/compare_$name.txt"
      done ;;
    ompscale)
      "$bsde" bench --backends serial,omp --repeats 3 --cases ex2-k6-n256 > "$out/ompscale.txt" 2>&1
      echo "== ompscale (exit $?)"; grep -E "^ *(ex|case)" "$out/ompscale.txt" ;;
    ompfit)
      cases=""
      for N in 256 512 768; do
        for how in tridiagonal inverse-band; do cases="$cases${cases:+,}ex2-k6-n$N:spline_solve=$how"; done
      done
      "$bsde" bench --backends omp --repeats 3 --cases "$cases" > "$out/ompfit.txt" 2>&1
      echo "== ompfit (exit $?)"; grep -E "^ *(ex|case)" "$out/ompfit.txt" ;;
    ompcompare)
      {
        "$bsde" bench --backends serial --repeats 3 --cases ex2-k6-n256
        for round in 1 2; do
          for binary in "$bsde" ${OMP_BASELINE:-}; do
            echo "round $round: $binary"
            "$binary" bench --backends omp --repeats 5 --cases ex2-k6-n256
            "$binary" bench --backends omp --repeats 3 --cases ex2-k6-n512
          done
        done
      } > "$out/ompcompare.txt" 2>&1
      echo "== ompcompare"; grep -E "^ *ex2|^round" "$out/ompcompare.txt" ;;
    omppin)
      {
        "$bsde" bench --backends serial --repeats 3 --cases ex2-k6-n256
        for round in 1 2; do
          for binding in unset close; do
            echo "round $round: OMP_PROC_BIND $binding"
            if [ $binding = unset ]; then run=(env -u OMP_PROC_BIND -u OMP_PLACES); else run=(env OMP_PROC_BIND=close OMP_PLACES=cores); fi
            "${run[@]}" "$bsde" bench --backends omp --repeats 5 --cases ex2-k6-n256
            "${run[@]}" "$bsde" bench --backends omp --repeats 3 --cases ex2-k6-n512
          done
        done
      } > "$out/omppin.txt" 2>&1
      echo "== omppin"; grep -E "^ *ex2|^round" "$out/omppin.txt" ;;
    split)
      "$bsde" bench --backends cuda --repeats 5 --out "$out/split" \
        --cases ex2-k6-n1024,ex2-k6-n1024:L=40,ex2-k6-n1024:L=48,ex2-k6-n1024:L=64,ex2:K=3:N=1024,ex2:K=4:N=1024,ex2:K=5:N=1024 \
        > "$out/split.txt" 2>&1
      echo "== split (exit $?)"; grep -E "^ *(ex|case)" "$out/split.txt" ;;
    ceilings)
      for run in 1 2 3; do
        "$bsde" bench --cases ex1:K=1:N=4 --backends cuda --repeats 1 | grep '^ceilings'
      done > "$out/ceilings.txt" 2>&1
      echo "== ceilings"; cat "$out/ceilings.txt" ;;
    hostceiling)
      { for run in 1 2; do
          build/bin/host_scaling 8192 100 512
          build/bin/host_scaling 8192 300 64
        done
      } > "$out/hostceiling.txt" 2>&1
      echo "== hostceiling"; cat "$out/hostceiling.txt" ;;
    kernels)
      scripts/kernels_once.sh > "$out/kernels.txt" 2>&1
      echo "== kernels ex2 (exit $?)"; cat "$out/kernels.txt"
      KERNELS_CASE="--problem ex5 --K 6 --N 64" KERNELS_SKIP=1000 KERNELS_COUNT=60 scripts/kernels_once.sh \
        > "$out/kernels_ex5.txt" 2>&1
      echo "== kernels ex5 (exit $?)"; cat "$out/kernels_ex5.txt" ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done

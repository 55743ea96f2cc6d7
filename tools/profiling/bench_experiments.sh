#!/usr/bin/env bash
# On the GPU host: the bsde bench and solve runs behind the design decisions, one stage or more a call; logs under
# $OUT (or ./out). The benchmark record itself is scripts/device_bench.sh.
#   separable   bsde bench on cuda, the 2D cases with the separable pass and without (key separable=off): ex5 K = 6,
#               N = 64 and 128, ex4 K = 3, N = 32
#   split       bsde bench on cuda, ex2 N = 1024 at K = 6 with L = 32, 40, 48, 64 and at L = 32 with K = 3, 4, 5: the
#               runs that split the 1D pass's time into what scales with the nodes, the point-layers and the steps
#               (pass_split.py reads their bench.csv)
#   kernels     the duration of each kernel of a few steps of ex2 K = 6, N = 1024 and of ex5 K = 6, N = 64
#               (kernel_durations.sh, Nsight Compute)
#   ceilings    the GPU's own FP64 multiply-add and exp rates and whether they add up, as bsde bench measures them
#               before its cases (the "ceilings" line of a bench of one tiny case), three times
#   ompfit      bsde bench on omp, ex2 K = 6, N = 256, 512, 768, the 1D fit by Thomas and by the inverse band
#   ompcompare  bsde bench on omp, ex2 K = 6, N = 256 and 512 (medians of 5 and 3), for build/bin/bsde and the binary
#               $OMP_BASELINE (another commit's, built without CUDA is enough) in turn, twice; serial N = 256 once
#   omppin      bsde bench on omp, ex2 K = 6, N = 256 and 512, threads left to the OS and pinned
#               (OMP_PROC_BIND=close OMP_PLACES=cores) in turn, twice; serial N = 256 once
#   hostceiling the host's own scaling of perfectly parallel FP64 work, 1 thread against all (build/bin/host_scaling,
#               from host_scaling.cpp), steps of about 45 and 6 ms on one thread (ex2 K = 6, N = 256: about 20 ms)
# usage: tools/profiling/bench_experiments.sh STAGE...   (from the repository's root, after make)
set -uo pipefail
here=$(dirname "$0")
out=${OUT:-out}
bsde=${BSDE:-build/bin/bsde}
mkdir -p "$out"
scripts/device_info.sh "$bsde" > "$out/device.txt"
for stage in "$@"; do
  case $stage in
    separable)
      "$bsde" bench --backends cuda --repeats 5 --out "$out/separable" \
        --cases ex5-k6-n64,ex5-k6-n64:separable=off,ex4-k3-n32,ex4-k3-n32:separable=off,ex5-k6-n128,ex5-k6-n128:separable=off \
        > "$out/separable.txt" 2>&1
      echo "== separable (exit $?)"; cat "$out/separable.txt" ;;
    split)
      "$bsde" bench --backends cuda --repeats 5 --out "$out/split" \
        --cases ex2-k6-n1024,ex2-k6-n1024:L=40,ex2-k6-n1024:L=48,ex2-k6-n1024:L=64,ex2:K=3:N=1024,ex2:K=4:N=1024,ex2:K=5:N=1024 \
        > "$out/split.txt" 2>&1
      echo "== split (exit $?)"; grep -E "^ *(ex|case)" "$out/split.txt" ;;
    kernels)
      "$here/kernel_durations.sh" > "$out/kernels.txt" 2>&1
      echo "== kernels ex2 (exit $?)"; cat "$out/kernels.txt"
      KERNELS_CASE="--problem ex5 --K 6 --N 64" KERNELS_SKIP=1000 KERNELS_COUNT=60 "$here/kernel_durations.sh" \
        > "$out/kernels_ex5.txt" 2>&1
      echo "== kernels ex5 (exit $?)"; cat "$out/kernels_ex5.txt" ;;
    ceilings)
      for run in 1 2 3; do
        "$bsde" bench --cases ex1:K=1:N=4 --backends cuda --repeats 1 | grep '^ceilings'
      done > "$out/ceilings.txt" 2>&1
      echo "== ceilings"; cat "$out/ceilings.txt" ;;
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
    hostceiling)
      { for run in 1 2; do
          build/bin/host_scaling 8192 100 512
          build/bin/host_scaling 8192 300 64
        done
      } > "$out/hostceiling.txt" 2>&1
      echo "== hostceiling"; cat "$out/hostceiling.txt" ;;
    *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done

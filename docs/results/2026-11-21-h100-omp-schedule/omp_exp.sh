#!/usr/bin/env bash
# omp experiment: base (build/bin/bsde: thrust's static schedule, Thomas fit) against the new host code
# (build_me/bin/bsde: the pass under schedule(runtime), the 1D fit by the partition method) on ex2 K = 6.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
base=build/bin/bsde; new=build_me/bin/bsde
{ nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep -E "^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA node\(s\))"; nproc; } > "$out/host.txt"
cat "$out/host.txt"
line() { grep -E "^ *ex" | awk '{printf "%s %s median %s min %s max %s pass%% %s fit%% %s\n", $1, $2, $6, $7, $8, $10, $12}'; }
echo "== serial N=256 (base, medians of 3)"; $base bench --backends serial --repeats 3 --cases ex2-k6-n256 | line
for round in 1 2; do
  echo "== round $round"
  echo -n "base static/thomas: "; $base bench --backends omp --repeats 5 --cases ex2-k6-n256 | line
  for sched in static dynamic,16 dynamic,64 guided; do
    echo -n "new $sched: "; OMP_SCHEDULE=$sched $new bench --backends omp --repeats 5 --cases ex2-k6-n256 | line
  done
  echo -n "new dynamic,16 bind close cores: "; OMP_PROC_BIND=close OMP_PLACES=cores OMP_SCHEDULE=dynamic,16 $new bench --backends omp --repeats 5 --cases ex2-k6-n256 | line
  echo -n "base bind close cores: "; OMP_PROC_BIND=close OMP_PLACES=cores $base bench --backends omp --repeats 5 --cases ex2-k6-n256 | line
done
echo "== serial N=256 again (base)"; $base bench --backends serial --repeats 3 --cases ex2-k6-n256 | line
echo "== new serial N=256"; $new bench --backends serial --repeats 3 --cases ex2-k6-n256 | line
echo "== threads sweep, new dynamic,16, N=256"
for t in 1 2 4 8 16; do echo -n "threads $t: "; OMP_NUM_THREADS=$t OMP_SCHEDULE=dynamic,16 $new bench --backends omp --repeats 3 --cases ex2-k6-n256 | line; done
echo "== N=512: serial once (base), omp base and new"
$base bench --backends serial --repeats 1 --cases ex2-k6-n512 | line
$base bench --backends omp --repeats 3 --cases ex2-k6-n512 | line
OMP_SCHEDULE=dynamic,16 $new bench --backends omp --repeats 3 --cases ex2-k6-n512 | line
OMP_SCHEDULE=guided $new bench --backends omp --repeats 3 --cases ex2-k6-n512 | line

#!/usr/bin/env bash
# Runs `bsde solve` for every K and N given and prints one CSV line per case, parsed from the report.
# usage: scripts/solve_table.sh PROBLEM "K list" "N list" [extra bsde options...]
set -euo pipefail
problem=$1 Ks=$2 Ns=$3
shift 3
bsde=${BSDE:-build/bin/bsde}
echo "problem,K,N,M,y0,y0_error,z0,z0_error,sweep_seconds,device_MiB,backend,options"
for K in $Ks; do
  for N in $Ns; do
    report=$("$bsde" solve --problem "$problem" --K "$K" --N "$N" "$@")
    M=$(sed -n 's/^scheme .* M = \([0-9]*\),.*/\1/p' <<<"$report")
    y=$(awk '/^y_0/ {print $2 "," $6}' <<<"$report")
    z=$(awk '/^z_0/ {print $2 "," $6}' <<<"$report")
    t=$(awk '/^sweep/ {print $2}' <<<"$report")
    mem=$(sed -n 's/.*, \([0-9.]*\) MiB of device memory.*/\1/p' <<<"$report")
    backend=$(sed -n 's/^backend *//p' <<<"$report")
    echo "$problem,$K,$N,$M,$y,$z,$t,${mem:-},$backend,$*"
  done
done

#!/usr/bin/env bash
# VARIANT (session 12): bsde bench for forced points per call (BSDE_P) and lanes (BSDE_G) of the 1D pass.
out=${OUT:-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
cases=ex2-k6-n1024,ex2-k6-n768,ex2:K=6:N=640,ex2-k6-n512,ex2:K=6:N=384,ex2:K=6:N=256,ex2-k3-n256
variants/bsde_base bench --backends cuda --repeats 3 --cases $cases > "$out/base.txt" 2>&1
for P in 1 2 3; do for G in 1 2 4 8; do
  BSDE_P=$P BSDE_G=$G variants/bsde_pg bench --backends cuda --repeats 3 --cases $cases > "$out/pg_P${P}_G${G}.txt" 2>&1
done; done
for f in "$out"/base.txt "$out"/pg_*.txt; do
  echo "== $(basename $f .txt) $(awk '$2 == "cuda" {printf "%s %s %s | ", $1, $6, $(NF-3)}' $f)"
done

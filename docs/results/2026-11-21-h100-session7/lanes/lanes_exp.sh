#!/usr/bin/env bash
# experiment: the 1D pass's lanes forced (variants/bsde_lanes_env reads BSDE_LANES), ex2 on cuda
out=${OUT:-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
for lanes in default 8 4 2 1; do
  if [ $lanes = default ]; then unset BSDE_LANES; else export BSDE_LANES=$lanes; fi
  variants/bsde_lanes_env bench --backends cuda --repeats 5 --cases ex2-k6-n1024,ex2-k6-n768,ex2-k6-n640,ex2-k6-n512,ex2-k3-n256 > "$out/lanes_$lanes.txt" 2>&1
  echo "== lanes $lanes"; grep -E "^ *ex" "$out/lanes_$lanes.txt" | grep -v flops | cut -c1-75
done

#!/usr/bin/env bash
out=${OUT:-out}; mkdir -p $out
nvidia-smi --query-gpu=name --format=csv,noheader > $out/device.txt
for b in "$@"; do n=$(basename $b); ncu --clock-control none --cache-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate --launch-skip 100 --launch-count 1 \
  --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_active,breakdown:sm__throughput.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__inst_executed.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed_pipe_uniform.sum,smsp__inst_executed_pipe_lsu.sum,smsp__inst_executed_pipe_adu.sum,smsp__inst_executed_pipe_cbu.sum \
  $b solve --problem ex2 --K 6 --N 1024 --backend cuda > $out/breakdown_$n.txt 2>&1
echo "== $n"; grep -E "wavefronts.avg|lsuin|issue_active|fp64_cycles|duration|inst_executed.sum|global_ld.sum" $out/breakdown_$n.txt; done

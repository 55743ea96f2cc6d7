#!/usr/bin/env bash
# On the GPU host: Nsight Compute of one launch of the fused pass (MultistepPointUpdate) for each bsde binary given,
# clocks left alone, caches flushed: speed of light, occupancy, compute and memory workload, warp states, scheduler,
# instructions and launch, and the stall, spill and load-instruction counts below; one ncu_<binary>.txt each under
# $OUT (or ./out) and a summary on stdout.
# usage: [NCU_CASE="--problem ex5 --K 6 --N 64"] [NCU_SKIP=90] scripts/device_ncu_pass.sh BINARY...
#   (NCU_SKIP: pass launches skipped first; with the defaults a main step near the end of ex5's sweep)
out=${OUT:-out}; mkdir -p "$out"
metrics=smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warp_latency_issue_stalled_long_scoreboard
metrics=$metrics,smsp__average_warp_latency_issue_stalled_short_scoreboard,smsp__average_warp_latency_issue_stalled_mio_throttle
metrics=$metrics,smsp__average_warp_latency_issue_stalled_lg_throttle,smsp__average_warp_latency_issue_stalled_wait
metrics=$metrics,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_generic_ld.sum,smsp__inst_executed_op_global_ld.sum
metrics=$metrics,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
nvidia-smi --query-gpu=name --format=csv,noheader > "$out/device.txt"
for binary in "$@"; do
  name=$(basename "$binary")
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate \
    --launch-skip "${NCU_SKIP:-90}" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
    --metrics "$metrics" "$binary" solve ${NCU_CASE:---problem ex5 --K 6 --N 64} --backend cuda > "$out/ncu_$name.txt" 2>&1
  echo "== $name"
  grep -E "MultistepPointUpdate<|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |stalled|local_op|op_shared|op_generic|op_global|fp64|L1/TEX Cache Throughput" \
    "$out/ncu_$name.txt" | cut -c1-160 | head -30
done

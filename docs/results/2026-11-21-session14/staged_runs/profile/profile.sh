#!/usr/bin/env bash
# ncu of one main-step 2D pass, ex5 K=6 N=64, for each binary given (clocks left alone, caches flushed)
out=${OUT:-out}; mkdir -p $out
nvidia-smi --query-gpu=name --format=csv,noheader > $out/device.txt
for b in "$@"; do
  n=$(basename $b)
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate --launch-skip 90 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
    --metrics smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__average_warp_latency_issue_stalled_short_scoreboard,smsp__average_warp_latency_issue_stalled_mio_throttle,smsp__average_warp_latency_issue_stalled_lg_throttle,smsp__average_warp_latency_issue_stalled_wait,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_generic_ld.sum,smsp__inst_executed_op_global_ld.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active \
    $b solve --problem ex5 --K 6 --N 64 --backend cuda > $out/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "MultistepPointUpdate<|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |stalled|local_op|op_shared|op_generic|op_global|fp64|L1/TEX Cache Throughput" $out/ncu_$n.txt | cut -c1-160 | head -30
done

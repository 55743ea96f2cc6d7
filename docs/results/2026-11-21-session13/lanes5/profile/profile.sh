#!/usr/bin/env bash
# ncu of one main-step 1D pass, ex2 K=6 N=1024, for each binary given
out=${OUT:-out}; mkdir -p $out
nvidia-smi --query-gpu=name --format=csv,noheader > $out/device.txt
for b in "$@"; do
  n=$(basename $b)
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate --launch-skip 100 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --metrics sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu.sum \
    $b solve --problem ex2 --K 6 --N 1024 --backend cuda > $out/ncu_$n.txt 2>&1
  echo "== $n"; grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|L1/TEX Hit|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|No Eligible|Active Warps Per|Eligible Warps|L1/TEX Cache Throughput|pct_of_peak|ratio|long_scoreboard|cycles_active|cycles_elapsed|sectors|bank_conflicts|Executed Instructions  " $out/ncu_$n.txt | head -40
done

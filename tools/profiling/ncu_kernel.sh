#!/usr/bin/env bash
# On the GPU host: Nsight Compute of one launch of a kernel (by default the fused pass, MultistepPointUpdate) for each
# bsde binary given, clocks left alone, caches flushed (unless NCU_CACHE=none): speed of light, occupancy, compute
# and memory workload, warp states, scheduler, instructions, launch and the source's stall counters, and the stall,
# spill, load-instruction, wavefront and L2 and DRAM byte counts below; one ncu_<binary>[_<kernel>].txt each under
# $OUT (or ./out) and a summary on stdout.
# usage: [NCU_CASE="--problem ex5 --K 6 --N 64"] [NCU_KERNEL=regex] [NCU_SKIP=90] [NCU_CACHE=none]
#        tools/profiling/ncu_kernel.sh BINARY...
#   (NCU_KERNEL: a regular expression for the kernel's demangled name, e.g. SeparableAxis1Sums, which names the
#   output ncu_<binary>_<kernel>.txt; NCU_SKIP: its launches skipped first, with the defaults a main step near the end
#   of ex5's sweep; NCU_CACHE=none leaves the caches as the kernels before left them, for a kernel that reads what
#   the one before wrote)
out=${OUT:-out}; mkdir -p "$out"
metrics=smsp__average_warp_latency_issue_stalled_barrier,smsp__average_warp_latency_issue_stalled_long_scoreboard
metrics=$metrics,smsp__average_warp_latency_issue_stalled_short_scoreboard,smsp__average_warp_latency_issue_stalled_mio_throttle
metrics=$metrics,smsp__average_warp_latency_issue_stalled_lg_throttle,smsp__average_warp_latency_issue_stalled_wait
metrics=$metrics,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum
metrics=$metrics,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_generic_ld.sum,smsp__inst_executed_op_global_ld.sum
metrics=$metrics,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,lts__t_bytes.sum,dram__bytes.sum
nvidia-smi --query-gpu=name --format=csv,noheader > "$out/device.txt"
for binary in "$@"; do
  name=$(basename "$binary")${NCU_KERNEL:+_$NCU_KERNEL}
  ncu --clock-control none --cache-control "${NCU_CACHE:-all}" --kernel-name-base demangled --kernel-name "regex:${NCU_KERNEL:-MultistepPointUpdate}" \
    --launch-skip "${NCU_SKIP:-90}" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats \
    --section SourceCounters \
    --metrics "$metrics" "$binary" solve ${NCU_CASE:---problem ex5 --K 6 --N 64} --backend cuda > "$out/ncu_$name.txt" 2>&1
  echo "== $name"
  grep -E "${NCU_KERNEL:-MultistepPointUpdate}|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |stalled|local_op|op_shared|wavefronts|requests|lts__t_bytes|dram__bytes|op_generic|op_global|fp64|L1/TEX Cache Throughput" \
    "$out/ncu_$name.txt" | cut -c1-160 | head -30
done

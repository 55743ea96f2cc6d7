#!/usr/bin/env bash
# On the GPU host: profiles the fused pass of one main step of ex2 (K = 6, N = 1024) and of ex5 (K = 6,
# N = 64) with Nsight Compute (clocks left alone: speed of light, occupancy, launch, compute, memory and
# warp-state sections), and summarises the SASS of the pass kernels (instruction counts per kernel).
# usage: scripts/device_profile.sh (after make); outputs under $OUT (or ./out)
out=${OUT:-out}; mkdir -p $out
{ nvidia-smi --query-gpu=name --format=csv,noheader; build/bin/bsde --version; } > $out/device.txt
cuobjdump -sass build/bin/bsde > $out/sass.txt 2>&1
python3 - "$out/sass.txt" > $out/sass_summary.txt <<'PY'
import sys,re
text=open(sys.argv[1]).read()
funcs=re.split(r'\n\s*Function : ', text)
for f in funcs[1:]:
    name=f.split('\n',1)[0]
    if 'for_each_group' not in name: continue
    prob = 'log_sine' if 'log_sine' in name else ('exchange' if 'exchange' in name else ('sine_sum' if 'sine_sum' in name else 'other'))
    lines=f.count('\n')
    print(prob, 'lanes', re.findall(r'ILi(\d+)E', name)[:1], 'lines', lines, 'MUFU', f.count('MUFU'), 'DFMA', f.count('DFMA'), 'LDG', f.count('LDG'), 'exp-const 0x3ff71547', f.count('0x3ff71547'), 'STL', f.count('STL'), 'BRA', f.count('BRA'))
PY
cat $out/sass_summary.txt
NCU="ncu --clock-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section SchedulerStats"
$NCU --launch-skip 100 build/bin/bsde solve --problem ex2 --K 6 --N 1024 --backend cuda > $out/ncu_ex2.txt 2>&1
$NCU --launch-skip 40 build/bin/bsde solve --problem ex5 --K 6 --N 64 --backend cuda > $out/ncu_ex5.txt 2>&1 || true
for f in $out/ncu_ex2.txt $out/ncu_ex5.txt; do echo "== $f"; grep -E "Duration|Registers|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|DRAM Throughput|Block Limit|Executed Ipc|Issue Slots|Stall|Warp Cycles|FP64|Pipe|One or More|Executed Instructions|Issued Warp|Eligible|Active Warps|No Eligible|L1/TEX Cache Throughput|L2 Cache Throughput" $f | head -45; done

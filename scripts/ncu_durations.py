#!/usr/bin/env python3
# usage: scripts/ncu_durations.py NCU_OUTPUT [NAME ...]  (the output of ncu --metrics gpu__time_duration.sum, e.g. of
# scripts/kernels_once.sh)
import re,collections,sys
# Kernel durations from Nsight Compute's text output (gpu__time_duration.sum): totals per kernel kind, then the
# durations of the kernels whose names contain any of the further arguments.
lines=open(sys.argv[1]).read().splitlines()
ks=[];name=None
for l in lines:
    if 'gpu__time_duration' in l:
        m=re.search(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)',l)
        if m and name:
            v=float(m.group(2).replace(',',''))*{'us':1,'ms':1000,'ns':1e-3,'s':1e6}[m.group(1)]
            ks.append((name,v)); name=None
        continue
    if l.startswith('  void ') or l.startswith('  for_each') or re.match(r'^  [A-Za-z_]\S*.*\(\d+, \d+, \d+\)x', l):
        g=re.search(r'\((\d+), \d+, \d+\)x',l)
        name=l.strip()+(' g%s'%g.group(1) if g else ' g?')
def short(n):
    for k in ['SeparableKinkBand','SeparableAxis1','SeparableAxis2','SeparableSolve','MultistepPointUpdate','SplineMoments','BSplineCoeff','Reduce','reduce','copy','fill','Terminal']:
        if k in n: return k
    return n[:60]
print(len(ks),'kernels', round(sum(v for _,v in ks)/1e3,3),'ms')
agg=collections.defaultdict(lambda:[0,0.0])
for n,v in ks:
    a=agg[short(n)];a[0]+=1;a[1]+=v
for k,(c,v) in sorted(agg.items(),key=lambda x:-x[1][1]): print(f'{k:40s} {c:5d} {v/1e3:9.3f} ms')
for n,v in ks:
    if any(x in n for x in sys.argv[2:]): print(short(n), n.split()[-1], round(v,1),'us')

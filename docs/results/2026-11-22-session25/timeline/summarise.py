# Summarises the block times of variant_block_times.diff (lines "timing launch count lanes block sm start end", ns of
# %globaltimer) for ex2 K = 6, N = 1024 on cuda: the pass launches (16385 pair calls) and the fits (65538 moments).
# Usage: python3 summarise.py timing_bt1.txt.gz
import collections, gzip, statistics as st, sys
opener = gzip.open if sys.argv[1].endswith('.gz') else open
rows=[l.split() for l in opener(sys.argv[1], 'rt') if l.startswith('timing')]
L=collections.defaultdict(list)
for r in rows:
    launch,count,lanes,b,sm,s,e=map(int,r[1:])
    L[launch].append((b,sm,s,e,count,lanes))
launches=sorted(L)
passes=[l for l in launches if L[l][0][4]==16385]
fits=[l for l in launches if L[l][0][4]==65538]
per=[]; d2=[]; d1=[]; gap=[]; fitlag=[]; span=[]; meanend=[]; startspread=[]
for p in passes:
    bl=L[p]; s0=min(x[2] for x in bl); e1=max(x[3] for x in bl)
    nxt=[q for q in passes if q>p]
    if nxt: per.append((min(x[2] for x in L[nxt[0]])-s0)/1e3); gap.append((min(x[2] for x in L[nxt[0]])-e1)/1e3)
    span.append((e1-s0)/1e3); meanend.append((st.mean(x[3] for x in bl)-s0)/1e3); startspread.append((max(x[2] for x in bl)-s0)/1e3)
    persm=collections.Counter(x[1] for x in bl)
    for x in bl:
        (d2 if persm[x[1]]==2 else d1).append((x[3]-x[2])/1e3)
    f=[q for q in fits if q==p+1]
    if f: fitlag.append((max(x[3] for x in L[f[0]])-e1)/1e3)
m=lambda a: f"{st.median(a):.2f} [{min(a):.2f}, {max(a):.2f}] (n={len(a)})"
print("main passes", len(passes))
print("step period (pass start to next pass start) us", m(per))
print("pass span (first block start to last block end) us", m(span))
print("pass mean block end after first start us", m(meanend))
print("pass block starts spread us", m(startspread))
print("gap last pass block end -> next pass first start us", m(gap))
print("fit's last block end after the pass's last end us", m(fitlag))
print("block duration on SMs with 2 pass blocks us", m(d2))
print("block duration on SMs with 1 pass block us", m(d1))

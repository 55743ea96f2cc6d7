import collections, sys
for f in sys.argv[1:]:
    rows=[l.split() for l in open(f) if l.startswith('timing')]
    b=[(int(r[1]),int(r[2]),int(r[3]),int(r[4])) for r in rows]
    t0=min(x[2] for x in b)
    dur=[(x[3]-x[2])/1000 for x in b]
    ends=[(x[3]-t0)/1000 for x in b]; starts=[(x[2]-t0)/1000 for x in b]
    print(f, 'blocks',len(b),'start spread us %.2f'%max(starts),'end min %.2f avg %.2f max %.2f'%(min(ends),sum(ends)/len(ends),max(ends)))
    per_sm=collections.defaultdict(list)
    for x,e,d in zip(b,ends,dur): per_sm[x[1]].append((x[0],e,d))
    srt=sorted(zip(ends,b,dur), reverse=True)
    print(' slowest (block, sm, end, duration):', [(bb[0],bb[1],'%.1f'%e,'%.1f'%d) for e,bb,d in srt[:10]])
    byb=[sum(ends[k:k+16])/len(ends[k:k+16]) for k in range(0,len(b),16)]
    print(' mean end by 16 blocks:', ' '.join('%.1f'%x for x in byb))
    smend=sorted((max(e for _,e,_ in v),sm,len(v)) for sm,v in per_sm.items())
    print(' SM end min %.1f median %.1f max %.1f'%(smend[0][0], smend[len(smend)//2][0], smend[-1][0]))

#!/usr/bin/env bash
# On the GPU host: where the 1D fused pass spends its time, instruction by instruction. Nsight Compute (clocks
# left alone, full set) on one pass kernel of a main step of ex2 (K = 6, N = 1024); its SASS with the warp
# stall samples and executed instructions per instruction (the source page), summarised: the instructions
# with most samples, and samples and executed instructions per opcode.
# usage: tools/profiling/pass_hotspots.sh (after make); outputs under $OUT (or ./out)
out=${OUT:-out}; mkdir -p "$out"
bsde=${BSDE:-build/bin/bsde}
ncu --clock-control none --kernel-name-base demangled --kernel-name regex:MultistepPointUpdate --launch-skip 100 \
    --launch-count 1 --set full --import-source no -f -o "$out/pass_ex2" \
    "$bsde" solve --problem ex2 --K 6 --N 1024 --backend cuda > "$out/hotspots_capture.txt" 2>&1
ncu -i "$out/pass_ex2.ncu-rep" --page source --csv --print-source sass > "$out/pass_ex2_sass.csv" 2> "$out/hotspots_print.txt"
ncu -i "$out/pass_ex2.ncu-rep" --page details > "$out/pass_ex2_details.txt" 2>&1
python3 - "$out/pass_ex2_sass.csv" <<'PY'
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
header_at = next((k for k, r in enumerate(rows) if any('Source' == c.strip() for c in r)), None)
if header_at is None:
    print('no source table; first lines:'); [print(r) for r in rows[:5]]; sys.exit(0)
head = rows[header_at]; body = [r for r in rows[header_at + 1:] if len(r) == len(head)]
print('columns:', head)
def col(*names):
    for n in names:
        for k, h in enumerate(head):
            if h.strip().lower() == n.lower(): return k
    for n in names:
        for k, h in enumerate(head):
            if n.lower() in h.lower(): return k
    return None
src, smp, exe = col('Source'), col('Warp Stall Sampling (All Samples)'), col('Instructions Executed')
def num(x):
    try: return float(x.replace(',', ''))
    except ValueError: return 0.0
total = sum(num(r[smp]) for r in body) or 1
print(f'instructions {len(body)}, samples {total:.0f}, executed (warp) {sum(num(r[exe]) for r in body):.0f}')
by_op = collections.defaultdict(lambda: [0.0, 0.0])
for r in body:
    op = r[src].split()[0] if r[src].split() else '?'
    if op.startswith('@'): op = r[src].split()[1]
    op = op.split('.')[0]
    by_op[op][0] += num(r[smp]); by_op[op][1] += num(r[exe])
print('\nopcode  samples%  executed')
for op, (s, e) in sorted(by_op.items(), key=lambda kv: -kv[1][0])[:25]:
    print(f'{op:10s} {100*s/total:6.1f}  {e:12.0f}')
print('\ntop instructions by samples (index, samples%, executed, source)')
ranked = sorted(range(len(body)), key=lambda k: -num(body[k][smp]))[:45]
for k in sorted(ranked):
    print(f'{k:5d} {100*num(body[k][smp])/total:6.2f} {num(body[k][exe]):10.0f}  {body[k][src][:90]}')
# Each instruction by how often a warp runs it: the node loop (K L / lanes = 48 times a warp at K = 6, L = 32 with 4
# lanes), each layer's set-up (K = 6 times), the rest once or less (start, lanes' sums, Picard, stores).
warps = num(body[0][exe]) or 1  # the kernel's first instruction: once a warp
groups = collections.defaultdict(lambda: [0, 0.0, 0.0])
for r in body:
    per_warp = num(r[exe]) / warps
    key = 'node loop' if per_warp >= 40 else 'per layer' if per_warp >= 5 else 'per thread' if per_warp > 0 else 'not run'
    groups[key][0] += 1; groups[key][1] += num(r[exe]); groups[key][2] += num(r[smp])
print(f'\nby runs per warp ({warps:.0f} warps): instructions, share of the executed, share of the samples')
for key, (count, e, s) in groups.items():
    print(f'{key:11s} {count:5d} {100*e/sum(g[1] for g in groups.values()):6.1f} % {100*s/total:6.1f} %')
PY

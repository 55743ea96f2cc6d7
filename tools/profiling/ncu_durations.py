#!/usr/bin/env python3
"""Kernel durations from Nsight Compute's text output (ncu --metrics gpu__time_duration.sum, e.g. of
kernel_durations.sh): the number of kernels and their total, the totals per kind of kernel (longest first), then
the duration of each kernel whose name contains any of the further arguments.

usage: tools/profiling/ncu_durations.py NCU_OUTPUT [NAME ...]
"""
import collections
import re
import sys

KINDS = ['SeparableKinkBand', 'SeparableAxis1', 'SeparableAxis2', 'SeparableSolve', 'MultistepPointUpdate',
         'SplineMoments', 'BSplineCoeff', 'Reduce', 'reduce', 'copy', 'fill', 'Terminal']
MICROSECONDS = {'ns': 1e-3, 'us': 1.0, 'ms': 1e3, 's': 1e6}
KERNEL_LINE = re.compile(r'^  [A-Za-z_]\S*.*\(\d+, \d+, \d+\)x')
DURATION = re.compile(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)')
GRID = re.compile(r'\((\d+), \d+, \d+\)x')


def kernels(path):
    """(name with its grid size, duration in us) of each kernel, in order."""
    found, name = [], None
    for line in open(path).read().splitlines():
        if 'gpu__time_duration' in line:
            match = DURATION.search(line)
            if match and name:
                unit, value = match.group(1), float(match.group(2).replace(',', ''))
                found.append((name, value * MICROSECONDS[unit]))
                name = None
            continue
        if line.startswith('  void ') or line.startswith('  for_each') or KERNEL_LINE.match(line):
            grid = GRID.search(line)
            name = line.strip() + (' g%s' % grid.group(1) if grid else ' g?')
    return found


def kind(name):
    return next((k for k in KINDS if k in name), name[:60])


def main():
    found = kernels(sys.argv[1])
    print(len(found), 'kernels', round(sum(us for _, us in found) / 1e3, 3), 'ms')
    totals = collections.defaultdict(lambda: [0, 0.0])
    for name, us in found:
        total = totals[kind(name)]
        total[0] += 1
        total[1] += us
    for k, (count, us) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(f'{k:40s} {count:5d} {us / 1e3:9.3f} ms')
    for name, us in found:
        if any(part in name for part in sys.argv[2:]):
            print(kind(name), name.split()[-1], round(us, 1), 'us')


if __name__ == '__main__':
    main()

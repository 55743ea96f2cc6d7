#!/usr/bin/env python3
"""Whether two PTX files of algorithms/backends/backend_cuda.cu hold the same device code, up to what moves when only host code or
the build's directory changed: the translation unit's hash in internal names, the numbering of branch labels and
local depots, the order in which functions and global declarations are emitted, and the .globl comments.

usage: tools/profiling/ptx_same_code.py A.ptx B.ptx   (exit 0: the same code; 1: not, with the first differing function)
PTX from: nvcc -I. -I/usr/local/cuda/include/cccl -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -ptx
algorithms/backends/backend_cuda.cu -o A.ptx
"""
import difflib
import re
import sys


def functions(path):
    text = open(path).read()
    text = re.sub(r'_INTERNAL_[0-9a-f]+_\d+_backend_cuda_cu_[0-9a-f]+', '_INTERNAL_', text)
    text = re.sub(r'_GLOBAL__N__[0-9a-f]+_\d+_backend_cuda_cu_[0-9a-f]+', '_GLOBAL__N__', text)
    text = re.sub(r'\$L__BB\d+_', '$L__BB_', text)
    text = re.sub(r'__local_depot\d+', '__local_depot', text)
    text = re.sub(r'\n\t// \.globl[^\n]*', '', text)
    parts = re.split(r'\n(?=(?:\.visible |\.weak |\.extern )?(?:\.entry|\.func) )', text)
    normalised = []
    for part in parts:
        lines = part.strip().split('\n')
        declarations = sorted(line for line in lines if line.startswith('.global'))
        normalised.append('\n'.join([line for line in lines if not line.startswith('.global')] + declarations))
    return sorted(normalised)


a, b = functions(sys.argv[1]), functions(sys.argv[2])
if a == b:
    print(f'the same device code ({len(a)} functions and declaration blocks)')
    sys.exit(0)
only_a = [f for f in a if f not in set(b)]
only_b = [f for f in b if f not in set(a)]
print(f'different: {len(only_a)} blocks only in {sys.argv[1]}, {len(only_b)} only in {sys.argv[2]}')
if only_a and only_b:
    print('\n'.join(list(difflib.unified_diff(only_a[0].split('\n'), only_b[0].split('\n'), lineterm='', n=1))[:40]))
sys.exit(1)

#!/usr/bin/env python3
"""The instruction mix of the loops in a `cuobjdump -sass` listing.

A loop is a backward branch and its target; for each loop of at least MIN_FP64 FP64 instructions (DFMA, DMUL, DADD,
DSETP, ...) it prints the function, the loop's address range, the FP64 and other instruction counts, and the counts by
opcode (predicates and modifiers after the first dot dropped). Branches inside the loop are counted once, so code that
a branch skips (an exp's slow path) counts as if it ran.

usage: cuobjdump -sass BINARY | tools/profiling/sass_loops.py [MIN_FP64]
"""
import re
import sys


def main(min_fp64):
    function, listing = None, []
    functions = []
    for line in sys.stdin:
        header = re.match(r"\s*Function : (\S+)", line)
        if header:
            if function:
                functions.append((function, listing))
            function, listing = header.group(1), []
            continue
        instruction = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if instruction and function:
            listing.append((int(instruction.group(1), 16), instruction.group(2)))
    if function:
        functions.append((function, listing))
    for name, listing in functions:
        for address, text in listing:
            branch = re.search(r"\bBRA\s+(0x[0-9a-f]+)", text)
            if not branch or int(branch.group(1), 16) >= address:
                continue
            start = int(branch.group(1), 16)
            counts = {}
            for a, t in listing:
                if start <= a <= address:
                    opcode = re.sub(r"^@!?U?P[T0-9]+\s+", "", t).split()[0].split(".")[0]
                    counts[opcode] = counts.get(opcode, 0) + 1
            fp64 = sum(n for op, n in counts.items() if op.startswith("D") and op not in ("DEPBAR",))
            if fp64 < min_fp64:
                continue
            total = sum(counts.values())
            mix = ", ".join(f"{op} {n}" for op, n in sorted(counts.items(), key=lambda item: -item[1]))
            print(f"{name}\n  loop {start:#x}-{address:#x}: {total} instructions, FP64 {fp64}, other {total - fp64}\n"
                  f"  {mix}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)

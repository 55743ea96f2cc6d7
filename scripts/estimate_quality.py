#!/usr/bin/env python3
"""The quality of bsde's a-posteriori error estimate: estimate / true error per cell, from `bsde study --out DIR` CSVs.

    python3 scripts/estimate_quality.py [--floor 1e-12] [--N 32,64] DIR/study.csv [DIR2/study.csv ...]

For each CSV: a table of y and z ratios per K (rows) and N (columns), "n/a" where the study could not make the estimate,
"-" where the true error is at most the floor; then, over every file, the cells whose true error is above the floor:
how many have an estimate, the fraction of those (and of all) whose ratio lies in [1/3, 3], the smallest ratio and the
cells outside [1/3, 3]. The target (issue 46): at least 90 % in [1/3, 3], none below 1/10.
"""
import argparse
import csv
import math
import sys


def read_cells(path):
    """{(K, N): {"y": (error, estimate or None), "z": ...}} from a study CSV with the estimate columns."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and "y0_estimate" not in rows[0]:
        sys.exit(f"{path}: no y0_estimate column (a study run with --estimate off?)")
    cells = {}
    for r in rows:
        if r["y0_error"] == "":
            continue  # not solved, or no exact solution
        cell = {}
        for key in ("y", "z"):
            estimate = r[f"{key}0_estimate"]
            cell[key] = (float(r[f"{key}0_error"]), float(estimate) if estimate != "" else None)
        cells[(int(r["K"]), int(r["N"]))] = cell
    return cells


def ratio_text(error, estimate, floor):
    if error <= floor:
        return "-"
    if estimate is None:
        return "n/a"
    return f"{estimate / error:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="study.csv files of bsde study --out")
    parser.add_argument("--floor", type=float, default=1e-12, help="cells with a true error at most this are left out")
    parser.add_argument("--N", default="", help="only these N (comma-separated); default every N of the file")
    args = parser.parse_args()
    only_N = {int(n) for n in args.N.split(",") if n}

    counted = available = inside = 0
    smallest = (math.inf, "")
    outside = []
    for path in args.csv:
        cells = read_cells(path)
        Ks = sorted({K for K, _ in cells})
        Ns = sorted({N for _, N in cells if not only_N or N in only_N})
        print(f"\n{path}: estimate / true error, y / z")
        print("K   " + "".join(f"{'N = ' + str(N):>18}" for N in Ns))
        for K in Ks:
            line = f"{K:<4}"
            for N in Ns:
                cell = cells.get((K, N))
                text = "" if cell is None else " / ".join(ratio_text(*cell[key], args.floor) for key in ("y", "z"))
                line += f"{text:>18}"
            print(line)
        for (K, N), cell in sorted(cells.items()):
            if N not in Ns:
                continue
            for key in ("y", "z"):
                error, estimate = cell[key]
                if error <= args.floor:
                    continue
                counted += 1
                where = f"{path} K = {K}, N = {N}, {key}_0"
                if estimate is None:
                    outside.append(f"{where}: n/a (error {error:.3e})")
                    continue
                available += 1
                ratio = estimate / error
                if 1 / 3 <= ratio <= 3:
                    inside += 1
                else:
                    outside.append(f"{where}: {ratio:.3f} (error {error:.3e}, estimate {estimate:.3e})")
                if ratio < smallest[0]:
                    smallest = (ratio, where)
    print(f"\ncells with a true error above {args.floor:g}: {counted}, with an estimate: {available}")
    if available:
        print(f"ratio in [1/3, 3]: {inside} = {100 * inside / available:.1f} % of those with an estimate, "
              f"{100 * inside / counted:.1f} % of all")
        print(f"smallest ratio: {smallest[0]:.3f} ({smallest[1]})")
    if outside:
        print("outside [1/3, 3] or not available:")
        for line in outside:
            print("  " + line)


if __name__ == "__main__":
    main()

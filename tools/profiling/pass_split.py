#!/usr/bin/env python3
"""Split the 1D pass's time into what scales with the node evaluations, the point-layers and the steps.

Reads a bench.csv of cuda runs of one 1D problem at several L and K (tools/profiling/bench_experiments.sh split) and fits,
by least squares over the runs,

    pass seconds = a x node evaluations + b x point-layers + c x steps,

where the pass's seconds are its own time (pass_floor_s x pass_over_floor, the sum of its spans in the instrumented
solve), point-layers = node evaluations / L (a point reading one stored layer in one step) and steps counts every step
(start-up included). a over the floor per evaluation (pass_floor_s / node_evaluations, at the ceilings the bench
measured) is how far the node loop runs from its floor; b and c are the work that does not grow with L.
Then, per run, the model's time, the pass/floor split into these parts, and how fast the node loop would have to run (a over the floor)
for the pass to be within 2x of its floor with b and c as they are.

usage: tools/profiling/pass_split.py bench.csv
"""
import csv
import sys


def solve3(matrix, rhs):
    """Gaussian elimination with partial pivoting for a 3 x 3 system."""
    m = [row[:] + [r] for row, r in zip(matrix, rhs)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, 3):
            factor = m[r][col] / m[col][col]
            for k in range(col, 4):
                m[r][k] -= factor * m[col][k]
    x = [0.0] * 3
    for r in (2, 1, 0):
        x[r] = (m[r][3] - sum(m[r][k] * x[k] for k in range(r + 1, 3))) / m[r][r]
    return x


def main(path):
    with open(path, newline="") as f:
        runs = [row for row in csv.DictReader(f) if row["backend"] == "cuda" and row["dimension"] == "1"]
    if len(runs) < 3:
        sys.exit(f"{path}: {len(runs)} cuda runs of a 1D problem; the fit needs at least 3")
    rows, times, floors = [], [], []
    for run in runs:
        evaluations = float(run["node_evaluations"])
        floor = float(run["pass_floor_s"])
        rows.append([evaluations, evaluations / float(run["L"]), float(run["steps"])])
        times.append(floor * float(run["pass_over_floor"]))
        floors.append(floor)
    normal = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    a, b, c = solve3(normal, [sum(r[i] * t for r, t in zip(rows, times)) for i in range(3)])
    floor_per_evaluation = floors[0] / rows[0][0]
    if runs[0].get("ceiling_flops_per_s"):
        ceilings = (f"the device's, {float(runs[0]['ceiling_flops_per_s']) / 1e12:.2f} TFLOP/s and "
                    f"{float(runs[0]['ceiling_exps_per_s']):.3e} exp/s")
    else:
        ceilings = "the design notes' (a bench.csv from before commit 3e411b5)"
    print(f"runs: {len(runs)} ({runs[0]['problem']}); ceilings {ceilings}; floor {floor_per_evaluation:.3e} s an "
          f"evaluation")
    print(f"a = {a:.3e} s an evaluation ({a / floor_per_evaluation:.3f}x the floor), "
          f"b = {b:.3e} s a point-layer ({b / a:.2f} evaluations), c = {c * 1e6:.2f} us a step")
    print(f"{'case':>22} {'pass s':>9} {'model s':>9} {'pass/floor':>10} {'nodes':>6} {'layers':>6} {'steps':>6}"
          f" {'loop for 2x':>11}")
    for run, row, t, floor in zip(runs, rows, times, floors):
        nodes, layers, steps = a * row[0] / floor, b * row[1] / floor, c * row[2] / floor
        model = a * row[0] + b * row[1] + c * row[2]
        # the node loop's ratio to its floor at which nodes + layers + steps = 2 (the floor is all node evaluations)
        needed = 2.0 - layers - steps
        print(f"{run['case']:>22} {t:9.5f} {model:9.5f} {t / floor:10.3f} {nodes:6.3f} {layers:6.3f} {steps:6.3f}"
              f" {needed:11.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

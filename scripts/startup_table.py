#!/usr/bin/env python3
"""The start-up record: from the study folders of scripts/record_startup_tables.sh (each table with the default
start-up and with --startup exact), a Markdown table per paper table of the y_0 and z_0 errors of both start-ups and
their ratio (default / exact; the target is at most 1.25, or both errors below 1e-13), with the a-posteriori estimate
over the true error where the study has estimate columns, and a summary.
usage: scripts/startup_table.py DIR > docs/results/startup.md"""
import csv
import os
import sys

TABLES = ["table4_ex1", "table5_ex2", "table8_ex3", "table9_ex4", "table11_ex5"]
NEGLIGIBLE = 1e-13


def rows(path):
    with open(path) as f:
        return {(int(r["K"]), int(r["N"])): r for r in csv.DictReader(f)}


def number(text):
    return float(text) if text not in ("", None) else None


def ratio(default, exact):
    if default is None or exact is None:
        return None
    if max(default, exact) < NEGLIGIBLE:
        return 1.0
    return default / exact if exact > 0 else float("inf")


def estimate_column(row, variable):
    for name in (f"{variable}_estimate", f"{variable}0_estimate", f"estimate_{variable}0", f"{variable}0_error_estimate"):
        if name in row:
            return number(row[name])
    return None


def main(folder):
    out = []
    met = total = 0
    estimate_in = estimate_cells = estimate_low = 0
    worst = []
    for table in TABLES:
        default_csv = os.path.join(folder, f"{table}_multistep", "study.csv")
        exact_csv = os.path.join(folder, f"{table}_exact", "study.csv")
        if not (os.path.exists(default_csv) and os.path.exists(exact_csv)):
            out.append(f"\n## {table}\n\nmissing: {default_csv} or {exact_csv}\n")
            continue
        default, exact = rows(default_csv), rows(exact_csv)
        out.append(f"\n## {table}\n")
        out.append("| K | N | y error | exact start-up | ratio | z error | exact start-up | ratio | y est/err | z est/err |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for key in sorted(default):
            d, e = default[key], exact.get(key)
            if e is None:
                continue
            cells = [str(key[0]), str(key[1])]
            estimates = []
            for variable in ("y", "z"):
                got, reference = number(d[f"{variable}0_error"]), number(e[f"{variable}0_error"])
                r = ratio(got, reference)
                if r is not None and key[0] > 1:
                    total += 1
                    met += r <= 1.25
                    worst.append((r, table, key, variable))
                cells += [f"{got:.3e}" if got is not None else "", f"{reference:.3e}" if reference is not None else "",
                          f"{r:.2f}" if r is not None else ""]
                est = estimate_column(d, variable)
                if est is not None and got is not None and got > 1e-12:
                    q = est / got
                    estimate_cells += 1
                    estimate_in += 1 / 3 <= q <= 3
                    estimate_low += q < 0.1
                    estimates.append(f"{q:.2f}")
                else:
                    estimates.append("")
            out.append("| " + " | ".join(cells + estimates) + " |")
    worst.sort(reverse=True)
    summary = [f"Cells with K >= 2 (y and z counted apart) whose default start-up error is within 1.25x of the exact "
               f"start-up's (or both below {NEGLIGIBLE:g}): {met} of {total}."]
    if worst:
        summary.append("Largest ratios: " + "; ".join(f"{t} K = {k[0]}, N = {k[1]}, {v}: {r:.2f}"
                                                       for r, t, k, v in worst[:8]) + ".")
    if estimate_cells:
        summary.append(f"Estimate / true error in [1/3, 3]: {estimate_in} of {estimate_cells} cells with an error above "
                       f"1e-12 ({100 * estimate_in / estimate_cells:.0f} %); below a tenth: {estimate_low}.")
    device = os.path.join(folder, "device.txt")
    head = ["# The start-up against the exact one, the five tables on cuda", ""]
    if os.path.exists(device):
        head += ["Device and build:", "", "```", open(device).read().strip(), "```", ""]
    head += ["Command: `scripts/record_startup_tables.sh` on the GPU host, then `scripts/startup_table.py`.", ""]
    print("\n".join(head + summary + out))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/startup_tables")

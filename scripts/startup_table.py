#!/usr/bin/env python3
"""The start-up record: from the study folders of scripts/record_startup_tables.sh (each table with the default
start-up and with --startup exact, and exchange's with --startup multistep), the start-up's share of the two timed
solves, a summary, and a Markdown table per paper table of the y_0 and z_0 errors of both start-ups and their ratio
(default / exact; the target is at most 1.25, or both errors below 1e-13), with the a-posteriori estimate over the
true error where the study has estimate columns.
usage: scripts/startup_table.py DIR > docs/results/startup.md"""
import csv
import os
import statistics
import sys

TABLES = ["table4_ex1", "table5_ex2", "table8_ex3", "table9_ex4", "table11_ex5"]
NEGLIGIBLE = 1e-13
TARGET = 1.25
SHARE_TARGET = 0.20


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


class Tally:
    """Cells (K >= 2, y and z apart) within the target, the largest ratios, and the estimate's cells."""

    def __init__(self):
        self.met = self.total = 0
        self.worst = []
        self.estimate_in = self.estimate_cells = self.estimate_low = 0

    def add_ratio(self, r, where):
        self.total += 1
        self.met += r <= TARGET
        self.worst.append((r, where))

    def add_estimate(self, q):
        self.estimate_cells += 1
        self.estimate_in += 1 / 3 <= q <= 3
        self.estimate_low += q < 0.1

    def largest(self, count):
        return "; ".join(f"{where}: {r:.2f}" for r, where in sorted(self.worst, reverse=True)[:count])


def compare(default, exact, table, tally, lines=None):
    """Adds the cells of one table to tally; with lines, its Markdown rows too."""
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
                tally.add_ratio(r, f"{table} K = {key[0]}, N = {key[1]}, {variable}")
            cells += [f"{got:.3e}" if got is not None else "", f"{reference:.3e}" if reference is not None else "",
                      f"{r:.2f}" if r is not None else ""]
            est = estimate_column(d, variable)
            if est is not None and got is not None and got > 1e-12:
                tally.add_estimate(est / got)
                estimates.append(f"{est / got:.2f}")
            else:
                estimates.append("")
        if lines is not None:
            lines.append("| " + " | ".join(cells + estimates) + " |")


def share_section(folder):
    path = os.path.join(folder, "startup_share.csv")
    if not os.path.exists(path):
        return []
    runs = {}
    with open(path) as f:
        for case, startup, seconds in csv.reader(f):
            runs.setdefault(case, {}).setdefault(startup, []).append(float(seconds))
    out = ["## The start-up's share of the timed solves", "",
           "`bsde solve --backend cuda --estimate off`, three runs each, sweep seconds: the default start-up (ex2: "
           "multistep, ex5: feynman-kac; and for ex5 `--startup multistep`) against `--startup exact`, which sets its "
           "layers from the closed form in no measurable time. Share = 1 - exact / default, of the medians.", "",
           "| case | start-up | sweep seconds | exact start-up | start-up's share | target |", "|---|---|---|---|---|---|"]
    for case, by_startup in runs.items():
        exact = statistics.median(by_startup.get("exact", [float("nan")]))
        for startup, seconds in by_startup.items():
            if startup == "exact":
                continue
            share = 1 - exact / statistics.median(seconds)
            name = "default" if startup == "default" else f"--startup {startup}"
            verdict = ("met" if share <= SHARE_TARGET else "not met") if startup == "default" else ""
            words = case.split()  # "ex2 --K 6 --N 1024"
            label = words[0] + " " + ", ".join(f"{k.lstrip('-')} = {v}" for k, v in zip(words[1::2], words[2::2]))
            out.append(f"| {label} | {name} | "
                       + ", ".join(f"{s:.4f}" for s in seconds) + f" s | {exact:.4f} s | {100 * share:.0f} % | "
                       + (f"at most {100 * SHARE_TARGET:.0f} %: {verdict}" if verdict else "") + " |")
    return out + [""]


def main(folder):
    tables = []
    tally = Tally()
    per_table = []
    for table in TABLES:
        default_csv = os.path.join(folder, f"{table}_default", "study.csv")
        exact_csv = os.path.join(folder, f"{table}_exact", "study.csv")
        if not (os.path.exists(default_csv) and os.path.exists(exact_csv)):
            tables.append(f"\n## {table}\n\nmissing: {default_csv} or {exact_csv}\n")
            continue
        lines = [f"\n## {table}\n",
                 "| K | N | y error | exact start-up | ratio | z error | exact start-up | ratio | y est/err | z est/err |",
                 "|---|---|---|---|---|---|---|---|---|---|"]
        own = Tally()
        compare(rows(default_csv), rows(exact_csv), table, own, lines)
        compare(rows(default_csv), rows(exact_csv), table, tally)
        per_table.append(f"{table} {own.met} of {own.total} (largest {max(r for r, _ in own.worst):.2f})")
        tables += lines
    summary = [f"Cells with K >= 2 (y and z counted apart) whose default start-up error is within {TARGET}x of the "
               f"exact start-up's (or both below {NEGLIGIBLE:g}): {tally.met} of {tally.total}; per table: "
               + "; ".join(per_table) + ".", "", "Largest ratios: " + tally.largest(8) + ".", ""]
    if tally.estimate_cells:
        summary += [f"Estimate / true error in [1/3, 3]: {tally.estimate_in} of {tally.estimate_cells} cells with an "
                    f"error above 1e-12 ({100 * tally.estimate_in / tally.estimate_cells:.0f} %); below a tenth: "
                    f"{tally.estimate_low}.", ""]
    multistep_csv = os.path.join(folder, "table11_ex5_multistep", "study.csv")
    exact_ex5 = os.path.join(folder, "table11_ex5_exact", "study.csv")
    if os.path.exists(multistep_csv) and os.path.exists(exact_ex5):
        multistep = Tally()
        compare(rows(multistep_csv), rows(exact_ex5), "table11_ex5", multistep)
        summary += [f"table11_ex5 with `--startup multistep` (the scheme on fine steps, before the Feynman-Kac "
                    f"start-up was its default): {multistep.met} of {multistep.total} within {TARGET}x; largest: "
                    f"{multistep.largest(4)}.", ""]
    device = os.path.join(folder, "device.txt")
    head = ["# The start-up against the exact one, the five tables on cuda", ""]
    if os.path.exists(device):
        head += ["Device and build:", "", "```", open(device).read().strip(), "```", ""]
    head += ["Command: `scripts/record_startup_tables.sh` on the GPU host, then `scripts/startup_table.py`.", ""]
    print("\n".join(head + share_section(folder) + ["## Accuracy: the default start-up against the exact one", ""]
                    + summary + tables))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/startup_tables")

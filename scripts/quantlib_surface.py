#!/usr/bin/env python3
"""Price a sample of option members with QuantLib's finite-difference engines to a given accuracy and time them,
for comparison with the bsde solver's throughput on the same members.

  bs-call:  European call under Black-Scholes with dividend yield; FdBlackScholesVanillaEngine, Douglas scheme
            (theta = 1/2: Crank-Nicolson in 1D) with 2 implicit Euler damping steps (Rannacher) against the kink.
  exchange: max(S1 - S2, 0) on two correlated GBMs (problems/exchange_option.h); Fd2dBlackScholesVanillaEngine on a
            BasketOption with SpreadBasketPayoff(PlainVanillaPayoff(Call, 0)), i.e. max(S1 - S2 - 0, 0), with the
            Hundsdorfer ADI scheme (QuantLib's default there; second order with the correlation's mixed derivative).
            QuantLib's MargrabeOption only has analytic engines, so the basket option is the one a 2D FD engine prices.

Grids grow by --refine in space and time together (time steps = --t-ratio * space points per axis) until the error
against the closed form is at most --target or the next solve would overrun --max-seconds for the member.

Usage: quantlib_surface.py --problem bs-call --members m.csv --target 1e-6 --out DIR
"""
import argparse
import csv
import math
import os
import platform
import statistics
import sys
import time

import QuantLib as ql

# Per problem: the parameters and their defaults (problems/*.h), default T, the drift columns the price does not
# depend on (accepted and copied, not used), the number of space dimensions, the first space grid.
PROBLEMS = {
    "bs-call": dict(params={"S0": 100.0, "strike": 100.0, "r": 0.03, "delta": 0.04, "sigma": 0.2}, T=0.33,
                    drifts=["mu"], dims=1, start=100),
    "exchange": dict(params={"S1": 100.0, "S2": 100.0, "r": 0.05, "delta1": 0.0, "delta2": 0.0, "sigma1": 0.25,
                             "sigma2": 0.3, "rho": 0.0}, T=1.0, drifts=["mu1", "mu2"], dims=2, start=50),
}
SCHEMES = {"bs-call": "Douglas (Crank-Nicolson), 2 damping steps", "exchange": "Hundsdorfer ADI, no damping"}


def fail(message):
    print("quantlib_surface.py: " + message, file=sys.stderr)
    sys.exit(2)


def N(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def exact_price(problem, p):
    T = p["T"]
    if problem == "bs-call":
        # C = S e^(-delta T) N(d1) - K e^(-r T) N(d2),  d1,2 = (ln(S/K) + (r - delta +- sigma^2/2) T) / (sigma sqrt T)
        s = p["sigma"] * math.sqrt(T)
        d1 = (math.log(p["S0"] / p["strike"]) + (p["r"] - p["delta"]) * T) / s + 0.5 * s
        return p["S0"] * math.exp(-p["delta"] * T) * N(d1) - p["strike"] * math.exp(-p["r"] * T) * N(d1 - s)
    # Margrabe: V = S1 e^(-delta1 T) N(d1) - S2 e^(-delta2 T) N(d2),
    # d1,2 = (ln(S1/S2) + (delta2 - delta1 +- st^2/2) T) / (st sqrt T),  st^2 = s1^2 + s2^2 - 2 rho s1 s2
    st = math.sqrt(p["sigma1"] ** 2 + p["sigma2"] ** 2 - 2 * p["rho"] * p["sigma1"] * p["sigma2"]) * math.sqrt(T)
    d1 = (math.log(p["S1"] / p["S2"]) + (p["delta2"] - p["delta1"]) * T) / st + 0.5 * st
    return p["S1"] * math.exp(-p["delta1"] * T) * N(d1) - p["S2"] * math.exp(-p["delta2"] * T) * N(d1 - st)


# QuantLib measures time in dates, so a T like 0.33 is not a whole number of days. The price depends on r, delta
# and sigma only through r T, delta T and sigma^2 T, so the market below has maturity exactly 1 (365 days,
# Actual365Fixed) and the rates r T, delta T and the volatility sigma sqrt(T): the same prices (analytic engines
# agree to 1e-14) and the same space grids. QuantLib's time stepping is not exactly invariant under this rescaling:
# where T is a whole number of days, FD prices in the real-T market differ by ~3e-10 (1D, 800 points, 200 steps)
# and ~1e-5 (2D, 100x100 points, 25 steps), less with more steps: far below the grids' own errors.
TODAY = ql.Date(1, 1, 2025)
DC = ql.Actual365Fixed()
MATURITY = TODAY + 365


def process(spot, r, q, sigma, T):
    flat = lambda rate: ql.YieldTermStructureHandle(ql.FlatForward(TODAY, rate * T, DC))
    vol = ql.BlackVolTermStructureHandle(ql.BlackConstantVol(TODAY, ql.NullCalendar(), sigma * math.sqrt(T), DC))
    return ql.BlackScholesMertonProcess(ql.QuoteHandle(ql.SimpleQuote(spot)), flat(q), flat(r), vol)


def market(problem, p):
    """The option (without engine) and a function (n space points per axis, m time steps) -> FD engine."""
    exercise = ql.EuropeanExercise(MATURITY)
    if problem == "bs-call":
        proc = process(p["S0"], p["r"], p["delta"], p["sigma"], p["T"])
        option = ql.VanillaOption(ql.PlainVanillaPayoff(ql.Option.Call, p["strike"]), exercise)
        return option, lambda n, m: ql.FdBlackScholesVanillaEngine(proc, m, n, 2, ql.FdmSchemeDesc.Douglas())
    p1 = process(p["S1"], p["r"], p["delta1"], p["sigma1"], p["T"])
    p2 = process(p["S2"], p["r"], p["delta2"], p["sigma2"], p["T"])
    option = ql.BasketOption(ql.SpreadBasketPayoff(ql.PlainVanillaPayoff(ql.Option.Call, 0.0)), exercise)
    return option, lambda n, m: ql.Fd2dBlackScholesVanillaEngine(p1, p2, p["rho"], n, n, m, 0,
                                                                 ql.FdmSchemeDesc.Hundsdorfer())


def solve(option, engine_of, n, m, repeats):
    """Price on the grid; the best of `repeats` times of engine construction plus NPV (a new engine recomputes)."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        option.setPricingEngine(engine_of(n, m))
        price = option.NPV()
        best = min(best, time.perf_counter() - start)
    return price, best


def price_member(problem, p, args):
    exact = exact_price(problem, p)
    option, engine_of = market(problem, p)
    dims = PROBLEMS[problem]["dims"]
    err = lambda v: abs(v - exact) / (abs(exact) if args.error == "relative" else 1.0)
    spent, n, best = 0.0, float(PROBLEMS[problem]["start"]), None
    while True:
        grid = (int(round(n)), max(2, int(round(n * args.t_ratio))))
        price, seconds = solve(option, engine_of, grid[0], grid[1], 1)
        spent += seconds
        if best is None or err(price) < best[1]:
            best = (price, err(price), grid, seconds)
        if err(price) <= args.target:
            break
        # The cost grows like (space points)^dims * time steps: stop before a solve that would overrun the budget.
        if spent + seconds * args.refine ** (dims + 1) > args.max_seconds:
            break
        n *= args.refine
    price, e, grid, seconds = best
    if args.repeats > 1:
        price, seconds = solve(option, engine_of, grid[0], grid[1], args.repeats)
    space = "x".join([str(grid[0])] * dims)
    return dict(exact=exact, quantlib=price, error=e, space_grid=space, time_steps=grid[1], seconds=seconds,
                reached="yes" if e <= args.target else "no")


def read_members(path, problem, T_default):
    spec = PROBLEMS[problem]
    known = list(spec["params"]) + ["T"] + spec["drifts"]
    try:
        with open(path, newline="") as f:
            lines = [l for l in f if l.strip() and not l.lstrip().startswith("#")]
    except OSError as e:
        fail(f"--members {path}: {e.strerror}")
    rows = list(csv.reader(lines))
    if not rows:
        fail(f"--members {path}: no header row")
    header = [h.strip() for h in rows[0]]
    for h in header:
        if h not in known:
            fail(f"--members {path}: unknown column '{h}' for {problem} (known: {', '.join(known)})")
    members = []
    for i, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            fail(f"--members {path}: member {i - 1} has {len(row)} values for {len(header)} columns")
        p = dict(spec["params"], T=T_default)
        for h, v in zip(header, row):
            try:
                p[h] = float(v)
            except ValueError:
                p[h] = math.nan
            if not math.isfinite(p[h]):
                fail(f"--members {path}: member {i - 1}, column {h}: '{v.strip()}' is not a finite number")
        bad = [k for k in p if k in ("S0", "strike", "sigma", "T", "S1", "S2", "sigma1", "sigma2") and p[k] <= 0]
        if bad or abs(p.get("rho", 0.0)) >= 1:
            fail(f"--members {path}: member {i - 1}: {', '.join(bad) or 'rho'} out of range")
        members.append(p)
    if not members:
        fail(f"--members {path}: no members")
    return members, list(spec["params"]) + ["T"] + [d for d in spec["drifts"] if d in header]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", required=True, choices=sorted(PROBLEMS))
    ap.add_argument("--members", required=True, help="CSV: a header row of parameter names, one member a row")
    ap.add_argument("--T", type=float, help="maturity where the CSV has no T column (default: the problem's)")
    ap.add_argument("--sample", type=int, default=10, help="members priced, evenly spaced rows (default 10)")
    ap.add_argument("--target", type=float, required=True, help="error to reach")
    ap.add_argument("--error", choices=["absolute", "relative"], default="absolute", help="default absolute")
    ap.add_argument("--max-seconds", type=float, default=20.0, help="solve time budget per member (default 20)")
    ap.add_argument("--repeats", type=int, default=1, help="time the final solve best of this many (default 1)")
    ap.add_argument("--refine", type=float, default=math.sqrt(2), help="grid growth per step (default sqrt 2)")
    ap.add_argument("--t-ratio", type=float, default=0.25, help="time steps per space point per axis (default 0.25)")
    ap.add_argument("--out", required=True, help="output folder")
    args = ap.parse_args()
    if args.sample < 1 or args.repeats < 1 or args.refine <= 1 or args.target <= 0 or args.t_ratio <= 0:
        fail("--sample, --repeats >= 1; --refine > 1; --target, --t-ratio > 0")

    spec = PROBLEMS[args.problem]
    members, columns = read_members(args.members, args.problem, args.T if args.T is not None else spec["T"])
    k = min(args.sample, len(members))
    picks = [round(i * (len(members) - 1) / (k - 1)) for i in range(k)] if k > 1 else [0]
    ql.Settings.instance().evaluationDate = TODAY

    results = []
    for j, i in enumerate(picks):
        p = members[i]
        r = dict(member=i + 1, **{c: p[c] for c in columns}, **price_member(args.problem, p, args))
        results.append(r)
        print(f"[{j + 1}/{k}] member {i + 1}: exact {r['exact']:.10g} quantlib {r['quantlib']:.10g} error "
              f"{r['error']:.2e} grid {r['space_grid']} t {r['time_steps']} {r['seconds']:.4f} s "
              f"reached {r['reached']}", flush=True)

    os.makedirs(args.out, exist_ok=True)
    base = os.path.join(args.out, "quantlib_" + args.problem)
    fields = list(results[0])
    with open(base + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(results)

    digits = {"exact": ".10g", "quantlib": ".10g", "error": ".3e", "seconds": ".4g"}
    fmt = lambda c, v: format(v, digits.get(c, ".6g")) if isinstance(v, float) else str(v)
    reached = [r["seconds"] for r in results if r["reached"] == "yes"]
    total = sum(reached)
    summary = [
        f"problem {args.problem}: QuantLib {SCHEMES[args.problem]}, grids grown by {args.refine:.4g} "
        f"(time steps = {args.t_ratio:g} x space points), budget {args.max_seconds:g} s a member",
        f"target: {args.error} error <= {args.target:g}",
        f"members reached the target: {len(reached)} of {k} sampled ({len(members)} in {args.members})",
        (f"seconds of the final solves of those (best of {args.repeats}): median {statistics.median(reached):.4g}, "
         f"total {total:.4g}; members per second {len(reached) / total:.4g}") if reached and total > 0
        else "seconds: no member reached the target",
        f"QuantLib {ql.__version__}, Python {platform.python_version()}, CPU {cpu_model()} (QuantLib on one thread)",
    ]
    with open(base + ".md", "w") as f:
        f.write(f"# QuantLib finite differences: {args.problem}\n\n")
        f.write("| " + " | ".join(fields) + " |\n|" + "---|" * len(fields) + "\n")
        for r in results:
            f.write("| " + " | ".join(fmt(c, r[c]) for c in fields) + " |\n")
        f.write("\n" + "".join(f"- {s}\n" for s in summary))
    print("\n".join(summary))
    print(f"wrote {base}.csv and {base}.md")


if __name__ == "__main__":
    main()

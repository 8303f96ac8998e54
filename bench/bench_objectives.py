"""Training time of every objective against squared error's, same data,
same run (docs/benchmarks.md, "Objectives"), with XGBoost's hist on the
same rows and parameters as the reference.

    python3 bench/bench_objectives.py [--rows 1000000] [--rounds 100]
        [--device cpu] [--threads 2] [--repeats 3] [--flights FILE]
        [--no-xgboost] [--objectives a,b,...] [--out results.json]

Data: flights (../shared/data/flights_3m), numeric features with origin and
destination as codes; label delay in minutes, made valid for each
objective: max(delay, 0) for Poisson, Tweedie and squared log error,
delay - min + 1 for gamma, delay > 15 for the binary objectives, for
survival:cox the time |delay| + 1, censored (negative) where the flight
was not late. XGBoost 3.2 has no reg:expectileerror: its column is empty
there. Each
objective trains `repeats` times, interleaved with the others; the table
shows the median and its ratio to reg:squarederror's median.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

OBJECTIVES = [
    ("reg:squarederror", {}),
    ("reg:absoluteerror", {}),
    ("reg:quantileerror", {"quantile_alpha": 0.9}),
    ("reg:pseudohubererror", {"huber_slope": 10.0}),
    ("count:poisson", {}),
    ("reg:gamma", {}),
    ("reg:tweedie", {"tweedie_variance_power": 1.5}),
    ("reg:squaredlogerror", {}),
    ("binary:logistic", {}),
    ("binary:hinge", {}),
    ("survival:cox", {}),
    ("reg:expectileerror", {"expectile_alpha": 0.9}),
]
# Objectives XGBoost 3.2 lacks.
NOT_IN_XGBOOST = {"reg:expectileerror"}


def load_flights(path, rows):
    try:
        import pandas as pd
    except ImportError:  # the csv module, where pandas is missing
        return load_flights_csv(path, rows)
    d = pd.read_csv(path, nrows=rows)
    y = d.pop("delay").to_numpy(np.float32)
    d = d.drop(columns=["date"])
    for c in ("origin", "destination"):
        d[c] = d[c].astype("category").cat.codes
    return d.to_numpy(np.float32), y


def load_flights_csv(path, rows):
    import csv
    import lzma
    opener = lzma.open if path.endswith(".xz") else open
    codes = {"origin": {}, "destination": {}}
    X, y = [], []
    with opener(path, "rt") as f:
        reader = csv.DictReader(f)
        for i, row in enumerate(reader):
            if i == rows:
                break
            y.append(float(row["delay"]))
            X.append([float(row[c]) for c in ("month", "day_of_month", "day_of_week",
                                              "dep_hour", "dep_minute_of_day", "distance")] +
                     [float(codes[c].setdefault(row[c], len(codes[c])))
                      for c in ("origin", "destination")])
    return np.asarray(X, np.float32), np.asarray(y, np.float32)


def label_for(objective, y):
    if objective in ("count:poisson", "reg:tweedie", "reg:squaredlogerror"):
        return np.maximum(y, 0.0).astype(np.float32)
    if objective == "reg:gamma":
        return (y - y.min() + 1.0).astype(np.float32)
    if objective.startswith("binary:"):
        return (y > 15).astype(np.float32)
    if objective == "survival:cox":
        return np.where(y > 0, np.abs(y) + 1.0, -(np.abs(y) + 1.0)).astype(np.float32)
    return y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--flights", default=os.path.join(
        ROOT, "..", "shared", "data", "flights_3m", "flights_3m.csv.xz"))
    ap.add_argument("--no-xgboost", action="store_true")
    ap.add_argument("--objectives", help="comma-separated names (reg:squarederror always)")
    ap.add_argument("--out")
    a = ap.parse_args()
    import gpulayer
    global OBJECTIVES
    if a.objectives:
        keep = {"reg:squarederror", *a.objectives.split(",")}
        OBJECTIVES = [o for o in OBJECTIVES if o[0] in keep]
    X, y = load_flights(a.flights, a.rows)
    params = dict(eta=0.1, max_depth=a.depth, max_bin=256, nthread=a.threads)
    times = {name: {"gpulayer": [], "xgboost": []} for name, _ in OBJECTIVES}
    data = {name: gpulayer.Dataset(X, label_for(name, y)) for name, _ in OBJECTIVES}
    xgb = None
    if not a.no_xgboost:
        import xgboost as xgb
        xdata = {name: xgb.QuantileDMatrix(X, label_for(name, y), max_bin=256, nthread=a.threads)
                 for name, _ in OBJECTIVES if name not in NOT_IN_XGBOOST}
    for _ in range(a.repeats):
        for name, extra in OBJECTIVES:
            p = dict(params, objective=name, device=a.device, **extra)
            t0 = time.perf_counter()
            gpulayer.train(p, data[name], num_boost_round=a.rounds)
            times[name]["gpulayer"].append(time.perf_counter() - t0)
            if xgb and name not in NOT_IN_XGBOOST:
                xp = dict(p, tree_method="hist", device="cuda" if a.device == "cuda" else "cpu")
                t0 = time.perf_counter()
                xgb.train(xp, xdata[name], a.rounds)
                times[name]["xgboost"].append(time.perf_counter() - t0)
    base = statistics.median(times["reg:squarederror"]["gpulayer"])
    xbase = statistics.median(times["reg:squarederror"]["xgboost"]) if xgb else None
    print(f"{a.rows} rows x {X.shape[1]} features, {a.rounds} rounds, depth {a.depth}, "
          f"device {a.device}, {a.threads} threads, median of {a.repeats}")
    print(f"{'objective':24s} {'GPUlayer s':>10s} {'vs sq.err':>9s} {'XGBoost s':>10s} "
          f"{'vs sq.err':>9s} {'XGB/GPL':>8s}")
    rows = []
    for name, _ in OBJECTIVES:
        g = statistics.median(times[name]["gpulayer"])
        x = statistics.median(times[name]["xgboost"]) if times[name]["xgboost"] else float("nan")
        rows.append(dict(objective=name, gpulayer_s=g, gpulayer_ratio=g / base,
                         xgboost_s=x, xgboost_ratio=x / xbase if xgb else None))
        print(f"{name:24s} {g:10.2f} {g / base:9.2f} {x:10.2f} "
              f"{(x / xbase) if xgb else float('nan'):9.2f} {x / g:8.2f}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(rows=a.rows, rounds=a.rounds, device=a.device, results=rows), f,
                      indent=1)


if __name__ == "__main__":
    main()

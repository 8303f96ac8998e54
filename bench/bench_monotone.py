"""Training time with monotone constraints against without, same data,
same run (docs/benchmarks.md, "Monotone constraints"), with XGBoost's hist
on the same rows and constraints as the reference.

    python3 bench/bench_monotone.py [--rows 1000000] [--features 28]
        [--rounds 200] [--device cpu] [--threads 0] [--repeats 3]
        [--no-xgboost] [--out results.json]

Data: the benchmarks' synthetic binary workload (synth.py). The
constrained runs set 1 and -1 in turn on the first half of the features
(0 on the rest), max_delta_step, and LightGBM's intermediate method
(GPUlayer only); each setting trains `repeats` times,
interleaved, and the table shows the median and its ratio to the
unconstrained median of the same library.
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)

import synth  # noqa: E402


def constraints(features):
    half = features // 2
    return "(" + ",".join(str(1 if f % 2 == 0 else -1) if f < half else "0"
                          for f in range(features)) + ")"


SETTINGS = [
    ("unconstrained", {}),
    ("monotone", {"monotone_constraints": None}),
    ("monotone + max_delta_step 0.5", {"monotone_constraints": None, "max_delta_step": 0.5}),
    # LightGBM's method; XGBoost has none such, so its row is GPUlayer's only.
    ("monotone, intermediate", {"monotone_constraints": None,
                                "monotone_constraints_method": "intermediate"}),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--features", type=int, default=28)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-xgboost", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    import gpulayer
    X, y = synth.make(a.rows, a.features, 1)
    mono = constraints(a.features)
    base = {"objective": "binary:logistic", "max_depth": 8, "eta": 0.1, "max_bin": 256,
            "nthread": a.threads}
    data = gpulayer.Dataset(X, y)
    xgb = xdata = None
    if not a.no_xgboost:
        try:
            import xgboost as xgb
            xdata = xgb.QuantileDMatrix(X, y, max_bin=256, nthread=a.threads or None)
        except ImportError:
            print("xgboost is not installed: its rows are left out", file=sys.stderr)
            xgb = None
    times = {}
    for _ in range(a.repeats):
        for name, extra in SETTINGS:
            p = dict(base, device=a.device)
            p.update({k: (mono if v is None else v) for k, v in extra.items()})
            t0 = time.perf_counter()
            gpulayer.train(p, data, num_boost_round=a.rounds)
            times.setdefault(("gpulayer", name), []).append(time.perf_counter() - t0)
            if xgb is not None and "monotone_constraints_method" not in p:
                xp = {k: v for k, v in p.items() if k not in ("nthread", "device")}
                xp.update(tree_method="hist", device="cuda" if a.device.startswith("cuda") else "cpu")
                if a.threads:
                    xp["nthread"] = a.threads
                t0 = time.perf_counter()
                xgb.train(xp, xdata, a.rounds)
                times.setdefault(("xgboost", name), []).append(time.perf_counter() - t0)
    rows = []
    print(f"| library | setting | median s | ratio to unconstrained |  ({a.rows} rows x "
          f"{a.features} features, {a.rounds} rounds, depth 8, device {a.device})")
    print("|---|---|---:|---:|")
    for (lib, name), ts in times.items():
        med = statistics.median(ts)
        ref = statistics.median(times[(lib, "unconstrained")])
        rows.append({"library": lib, "setting": name, "median_s": med, "ratio": med / ref,
                     "times": ts})
        print(f"| {lib} | {name} | {med:.3f} | {med / ref:.3f} |")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"rows": a.rows, "features": a.features, "rounds": a.rounds,
                       "device": a.device, "results": rows}, f, indent=1)


if __name__ == "__main__":
    main()

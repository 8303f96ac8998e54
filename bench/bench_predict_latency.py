"""Latency of predicting 1 row and 16 rows with a 500-tree depth-8 model:
GPUlayer's prepared predictor (C API and Python) and plain
Booster.predict against XGBoost's inplace_predict on the same model (our
XGBoost export loaded in XGBoost), same machine, same run.

    python3 bench/bench_predict_latency.py [--rows 200000] [--rounds 500]
        [--depth 8] [--threads 2] [--calls 2000]
        [--tool build/bench/gpulayer-predict-latency]

The model is trained on the synthetic binary workload (bench/synth.py,
28 features); every call takes the next rows of 1,000 test rows, and the
table shows the median microseconds a call and XGBoost's median over ours.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
import synth  # noqa: E402


def median_us(fn, X, n, calls):
    for i in range(calls // 10 + 1):  # warm the caches
        fn(X[(i * n) % (len(X) - n):][:n])
    times = []
    for i in range(calls):
        batch = X[(i * n) % (len(X) - n):][:n]
        t0 = time.perf_counter()
        fn(batch)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bench",
                                                   "gpulayer-predict-latency"))
    args = ap.parse_args()
    import gpulayer
    import xgboost as xgb

    X, y = synth.make(args.rows, 28, 1)
    Xt, _ = synth.make(1000, 28, 2)
    booster = gpulayer.train(dict(objective="binary:logistic", max_depth=args.depth, eta=0.1,
                                  nthread=args.threads),
                             gpulayer.Dataset(X, y), num_boost_round=args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        model, export, rows = (os.path.join(tmp, n) for n in ("m.json", "x.json", "rows.f32"))
        booster.save_model(model)
        booster.export_xgboost(export)
        Xt.tofile(rows)
        peer = xgb.Booster(model_file=export)
        peer.set_param({"nthread": args.threads})
        assert np.allclose(peer.inplace_predict(Xt), booster.predict(Xt), atol=1e-6)
        predictor = booster.predictor()
        res = {}
        for n in (1, 16):
            res[f"xgboost inplace_predict {n}"] = median_us(peer.inplace_predict, Xt, n,
                                                            args.calls)
            res[f"python Booster.predict {n}"] = median_us(booster.predict, Xt, n,
                                                           args.calls // 10)
            res[f"python Predictor.predict {n}"] = median_us(predictor.predict, Xt, n,
                                                             args.calls)
        c = json.loads(subprocess.check_output([args.tool, model, rows, "28",
                                                str(args.calls)]).decode())
        for n in (1, 16):
            res[f"C gpulayer_predictor_predict_dense {n}"] = c[f"predictor_{n}_us"]
            res[f"C gpulayer_booster_predict_dense {n}"] = c[f"booster_{n}_us"]
    print(f"\nprediction latency: {args.rounds} trees of depth {args.depth}, 28 features, "
          f"binary:logistic, {args.threads} threads, median of {args.calls} calls")
    print(f"{'path':44} {'rows':>4} {'us a call':>10} {'xgboost/ours':>12}")
    for n in (1, 16):
        base = res[f"xgboost inplace_predict {n}"]
        for key, v in res.items():
            if key.endswith(f" {n}"):
                print(f"{key[:-len(str(n)) - 1]:44} {n:4d} {v:10.1f} {base / v:12.2f}")


if __name__ == "__main__":
    main()

"""SHAP values (pred_contribs, or pred_interactions) of 100,000 rows under
a 500-tree depth-8 binary model: GPUlayer's Booster.predict against
XGBoost's on our XGBoost export of the same model, same device, same
threads, same machine, same run.

    python3 bench/bench_shap.py [--rows 100000] [--train-rows 200000]
        [--rounds 500] [--depth 8] [--threads 2] [--repeat 1]
        [--device cpu] [--interactions]

The model is trained on the synthetic binary workload (bench/synth.py,
28 features), on --device. Both libraries compute on --device (cpu or
cuda; XGBoost's device=cuda) from the same host array. Prints both times
(best of --repeat; with a GPU, a first untimed call of each starts the
device), XGBoost's time over ours, and the largest difference between the
two sets of values.
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))
import synth  # noqa: E402


def best_seconds(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--train-rows", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--interactions", action="store_true")
    args = ap.parse_args()
    import gpulayer
    import xgboost as xgb

    X, y = synth.make(args.train_rows, 28, 1)
    Xt, _ = synth.make(args.rows, 28, 2)
    booster = gpulayer.train(dict(objective="binary:logistic", max_depth=args.depth, eta=0.1,
                                  nthread=args.threads, device=args.device),
                             gpulayer.Dataset(X, y), num_boost_round=args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        export = os.path.join(tmp, "x.json")
        booster.export_xgboost(export)
        peer = xgb.Booster(model_file=export)
    peer.set_param({"nthread": args.threads, "device": args.device})
    dt = xgb.DMatrix(Xt, nthread=args.threads)
    kind = "pred_interactions" if args.interactions else "pred_contribs"
    if args.device != "cpu":
        booster.predict(Xt[:100], device=args.device, **{kind: True})
        peer.predict(xgb.DMatrix(Xt[:100]), **{kind: True})
    ours_s, ours = best_seconds(
        lambda: booster.predict(Xt, device=args.device, **{kind: True}), args.repeat)
    theirs_s, theirs = best_seconds(lambda: peer.predict(dt, **{kind: True}), args.repeat)
    diff = float(np.max(np.abs(ours - theirs)))
    what = "SHAP interaction values" if args.interactions else "SHAP values"
    print(f"{what} on {args.device}, {args.rows} rows x 28 features, {args.rounds} trees "
          f"of depth {args.depth}, {args.threads} threads")
    print(f"  gpulayer  {ours_s:8.2f} s")
    print(f"  xgboost   {theirs_s:8.2f} s  ({xgb.__version__})")
    print(f"  xgboost / gpulayer: {theirs_s / ours_s:.2f}x; largest difference {diff:.2e}")


if __name__ == "__main__":
    main()

"""Random forests: GPUlayer against XGBoost (hist), same rows, same
parameters, same run, each library in its own process, end to end from
arrays in memory (each library's dataset plus training).

    python3 bench/bench_forest.py [--rows 1000000] [--features 28]
        [--trees 100] [--rounds 1] [--depth 8] [--threads 2]
        [--repeats 3] [--device cpu] [--libs gpulayer,xgboost]

A forest is one round of --trees trees (XGBoost's XGBRFClassifier
defaults: learning rate 1, subsample and colsample_bynode 0.8, lambda 1e-5);
--rounds above 1 boosts such forests. Data: bench/synth.py's recipe
(binary labels; test rows a tenth of the training rows from another
seed). Prints each library's median time, XGBoost's over GPUlayer's, and
test AUC.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import synth  # noqa: E402

CHILD = r'''
import json, sys, time
import numpy as np
from sklearn.metrics import roc_auc_score
lib, prefix, F, trees, rounds, depth, threads, device = sys.argv[1:9]
F, trees, rounds, depth, threads = int(F), int(trees), int(rounds), int(depth), int(threads)
X = np.fromfile(prefix + "train.X.f32", dtype=np.float32).reshape(-1, F)
y = np.fromfile(prefix + "train.y.f32", dtype=np.float32)
Xt = np.fromfile(prefix + "test.X.f32", dtype=np.float32).reshape(-1, F)
yt = np.fromfile(prefix + "test.y.f32", dtype=np.float32)
params = dict(objective="binary:logistic", eta=1.0, max_depth=depth, max_bin=256,
              nthread=threads, num_parallel_tree=trees, subsample=0.8,
              colsample_bynode=0.8, reg_lambda=1e-5, seed=1)
if lib == "gpulayer":
    import gpulayer
    t0 = time.perf_counter()
    d = gpulayer.Dataset(X, y)
    t1 = time.perf_counter()
    m = gpulayer.train(dict(params, device=device), d, num_boost_round=rounds)
    t2 = time.perf_counter()
    p = m.predict(gpulayer.Dataset(Xt))
else:
    import xgboost as xgb
    t0 = time.perf_counter()
    d = xgb.QuantileDMatrix(X, y, nthread=threads, max_bin=256)
    t1 = time.perf_counter()
    m = xgb.train(dict(params, tree_method="hist",
                       device="cuda" if device == "cuda" else "cpu"), d, rounds)
    t2 = time.perf_counter()
    p = m.inplace_predict(Xt)
print(json.dumps(dict(data_s=t1 - t0, train_s=t2 - t1, total_s=t2 - t0,
                      auc=float(roc_auc_score(yt, p)))))
'''


def run(lib, prefix, args):
    cmd = [sys.executable, "-c", CHILD, lib, prefix, str(args.features), str(args.trees),
           str(args.rounds), str(args.depth), str(args.threads), args.device]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{lib} failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--features", type=int, default=28)
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda", "vulkan"))
    ap.add_argument("--libs", default="gpulayer,xgboost")
    args = ap.parse_args()
    libs = args.libs.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "forest.")
        synth.write(prefix + "train", *synth.make(args.rows, args.features, 1))
        synth.write(prefix + "test", *synth.make(max(args.rows // 10, 1000), args.features, 2))
        results = {lib: [] for lib in libs}
        for _ in range(args.repeats):  # interleaved: each library once per repeat
            for lib in libs:
                results[lib].append(run(lib, prefix, args))
    print(f"{args.rows} rows x {args.features} features, {args.rounds} round(s) of "
          f"{args.trees} trees, depth {args.depth}, {args.threads} threads, device "
          f"{args.device}, median of {args.repeats}")
    median = {lib: statistics.median(r["train_s"] for r in results[lib]) for lib in libs}
    for lib in libs:
        runs = ", ".join(f"{r['train_s']:.2f}" for r in results[lib])
        auc = results[lib][0]["auc"]
        ratio = (f"  xgboost/gpulayer {median['xgboost'] / median['gpulayer']:.2f}"
                 if lib == "gpulayer" and "xgboost" in median else "")
        print(f"{lib:9} train {median[lib]:.2f} s ({runs}), data "
              f"{results[lib][0]['data_s']:.2f} s, AUC {auc:.5f}{ratio}")


if __name__ == "__main__":
    main()

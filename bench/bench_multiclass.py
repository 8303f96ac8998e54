"""Multiclass training: GPUlayer against XGBoost (hist) and LightGBM, same
rows, same parameters, same run, each library in its own process, end to
end from arrays in memory (each library's dataset plus training).

    python3 bench/bench_multiclass.py [--rows 300000] [--features 40]
        [--classes 8] [--rounds 100] [--depth 6] [--threads 2]
        [--repeats 3] [--device cpu] [--libs gpulayer,xgboost,lightgbm]

Data: X standard normal; each class's score is a random linear function
of X plus a shared nonlinearity, and the label is the class of the largest
score plus Gumbel noise (a softmax model's draws). Test rows are a fifth
of the training rows from another seed. Prints each library's median
time, the ratio of the faster peer's to GPUlayer's, and test mlogloss.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r'''
import json, sys, time
import numpy as np
lib, prefix, F, K, rounds, depth, threads, device = sys.argv[1:9]
F, K, rounds, depth, threads = int(F), int(K), int(rounds), int(depth), int(threads)
X = np.fromfile(prefix + "train.X.f32", dtype=np.float32).reshape(-1, F)
y = np.fromfile(prefix + "train.y.f32", dtype=np.float32)
Xt = np.fromfile(prefix + "test.X.f32", dtype=np.float32).reshape(-1, F)
params = dict(objective="multi:softprob", num_class=K, eta=0.1, max_depth=depth,
              max_bin=256, nthread=threads)
if lib == "gpulayer":
    import gpulayer
    t0 = time.perf_counter()
    d = gpulayer.Dataset(X, y)
    t1 = time.perf_counter()
    m = gpulayer.train(dict(params, device=device), d, num_boost_round=rounds)
    t2 = time.perf_counter()
    p = m.predict(gpulayer.Dataset(Xt))
elif lib == "xgboost":
    import xgboost as xgb
    t0 = time.perf_counter()
    d = xgb.QuantileDMatrix(X, y, nthread=threads, max_bin=256)
    t1 = time.perf_counter()
    m = xgb.train(dict(params, tree_method="hist",
                       device="cuda" if device == "cuda" else "cpu"), d, rounds)
    t2 = time.perf_counter()
    p = m.inplace_predict(Xt)
else:
    import lightgbm as lgb
    t0 = time.perf_counter()
    d = lgb.Dataset(X, y, params=dict(max_bin=256, verbose=-1)).construct()
    t1 = time.perf_counter()
    m = lgb.train(dict(objective="multiclass", num_class=K, learning_rate=0.1,
                       num_leaves=2 ** depth, max_depth=depth, max_bin=256,
                       num_threads=threads, verbose=-1), d, rounds)
    t2 = time.perf_counter()
    p = m.predict(Xt, num_threads=threads)
np.asarray(p, dtype=np.float64).reshape(len(Xt), K).tofile(prefix + lib + ".pred.f64")
print(json.dumps(dict(data_s=t1 - t0, train_s=t2 - t1, total_s=t2 - t0)))
'''


def make(n, F, K, seed):
    W = np.random.default_rng(0).standard_normal((F, K))
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, F)).astype(np.float32)
    z = X @ W / np.sqrt(F) + np.sin(2 * X[:, :1]) * np.arange(K) / K + X[:, 1:2] * X[:, 2:3]
    y = np.argmax(z + rng.gumbel(size=(n, K)), axis=1).astype(np.float32)
    return X, y


def mlogloss(y, p):
    p = np.clip(p[np.arange(len(y)), y.astype(int)], 1e-15, 1.0)
    return float(-np.mean(np.log(p)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--features", type=int, default=40)
    ap.add_argument("--classes", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--libs", default="gpulayer,xgboost,lightgbm")
    args = ap.parse_args()
    libs = args.libs.split(",")
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads),
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"),
                                           os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "mc.")
        X, y = make(args.rows, args.features, args.classes, 1)
        X.tofile(prefix + "train.X.f32"), y.tofile(prefix + "train.y.f32")
        Xt, yt = make(args.rows // 5, args.features, args.classes, 2)
        Xt.tofile(prefix + "test.X.f32")
        runs = {lib: [] for lib in libs}
        for r in range(args.repeats):  # interleaved: each library once per repeat
            for lib in libs:
                out = subprocess.check_output(
                    [sys.executable, "-c", CHILD, lib, prefix, str(args.features),
                     str(args.classes), str(args.rounds), str(args.depth), str(args.threads),
                     args.device], env=env)
                res = json.loads(out.decode().strip().splitlines()[-1])
                runs[lib].append(res)
                print(f"  run {r + 1} {lib}: {res}", file=sys.stderr)
        med = {lib: {k: statistics.median(x[k] for x in runs[lib]) for k in runs[lib][0]}
               for lib in libs}
        peers = [lib for lib in libs if lib != "gpulayer"]
        print(f"\nmulticlass: {args.rows} train rows x {args.features} features, "
              f"{args.classes} classes, {len(yt)} test rows, {args.rounds} rounds, depth "
              f"{args.depth}, eta 0.1, max_bin 256, {args.threads} threads, device "
              f"{args.device}, median of {args.repeats}")
        print(f"{'library':10} {'data s':>7} {'train s':>8} {'total s':>8} "
              f"{'peer/ours':>9} {'mlogloss':>9}")
        for lib in libs:
            m = med[lib]
            ratio = ""
            if "gpulayer" in med and lib != "gpulayer":
                ratio = f"{m['total_s'] / med['gpulayer']['total_s']:9.2f}"
            p = np.fromfile(prefix + lib + ".pred.f64").reshape(len(yt), args.classes)
            print(f"{lib:10} {m['data_s']:7.2f} {m['train_s']:8.2f} {m['total_s']:8.2f} "
                  f"{ratio:>9} {mlogloss(yt, p):9.5f}")


if __name__ == "__main__":
    main()

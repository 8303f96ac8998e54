"""High-cardinality categorical features: GPUlayer against XGBoost (hist,
enable_categorical) and, on the CPU, LightGBM; same rows, same parameters,
same run, each library in its own process, end to end from a pandas
DataFrame (each library's dataset plus training).

    python3 bench/bench_categories.py [--rows 1000000] [--levels 30,1000,20000]
        [--rounds 200] [--depth 8] [--threads 2] [--repeats 3] [--device cpu]
        [--libs gpulayer,xgboost,lightgbm]

Data (#38's generated case): five standard normal numbers and one
categorical column a --levels entry, each level drawn with Zipf
frequencies (exponent 1.1) and given its own effect; the label is a
Bernoulli draw of the logistic of the numbers' linear term plus the
levels' effects. Test rows are a fifth of the training rows from another
seed, with the same effects. Every GPUlayer category keeps its own bin
(max_categories' default), as XGBoost keeps them. Prints each library's
median time, the ratio of the fastest peer's to GPUlayer's, and test AUC.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r'''
import json, sys, time
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score
lib, rows, levels, rounds, depth, threads, device = sys.argv[1:8]
rows, rounds, depth, threads = int(rows), int(rounds), int(depth), int(threads)
levels = [int(v) for v in levels.split(",")]
effects = np.random.default_rng(7)
effect = [effects.normal(0.0, 0.8, n) for n in levels]
weight = effects.normal(0.0, 0.5, 5)

def frame(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 5)).astype(np.float32)
    logit = X @ weight
    cols = {f"x{j}": X[:, j] for j in range(5)}
    for k, m in enumerate(levels):
        p = 1.0 / np.arange(1, m + 1) ** 1.1
        code = rng.permutation(m)[rng.choice(m, n, p=p / p.sum())]
        logit = logit + effect[k][code]
        cols[f"c{k}"] = pd.Categorical.from_codes(code, categories=[f"v{i}" for i in range(m)])
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(np.float32)
    return pd.DataFrame(cols), y

X, y = frame(rows, 1)
Xt, yt = frame(rows // 5, 2)
params = dict(objective="binary:logistic", eta=0.1, max_depth=depth, max_bin=256,
              nthread=threads)
if lib == "gpulayer":
    import gpulayer
    t0 = time.perf_counter()
    m = gpulayer.train(dict(params, device=device), gpulayer.Dataset(X, y),
                       num_boost_round=rounds)
    t1 = time.perf_counter()
    p = m.predict(gpulayer.Dataset(Xt))
elif lib == "xgboost":
    import xgboost as xgb
    t0 = time.perf_counter()
    d = xgb.QuantileDMatrix(X, y, nthread=threads, max_bin=256, enable_categorical=True)
    m = xgb.train(dict(params, tree_method="hist",
                       device="cuda" if device == "cuda" else "cpu"), d, rounds)
    t1 = time.perf_counter()
    p = m.predict(xgb.DMatrix(Xt, enable_categorical=True))
else:
    import lightgbm as lgb
    t0 = time.perf_counter()
    d = lgb.Dataset(X, y, params=dict(max_bin=256, verbose=-1))
    m = lgb.train(dict(objective="binary", learning_rate=0.1, max_depth=depth,
                       num_leaves=2 ** depth, max_bin=256, num_threads=threads,
                       verbose=-1), d, rounds)
    t1 = time.perf_counter()
    p = m.predict(Xt)
print(json.dumps({"train_s": t1 - t0, "auc": roc_auc_score(yt, p)}))
'''


def run(lib, args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep +
               os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", CHILD, lib, str(args.rows), args.levels,
                          str(args.rounds), str(args.depth), str(args.threads), args.device],
                         env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--levels", default="30,1000,20000")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda", "vulkan"])
    ap.add_argument("--libs", default="gpulayer,xgboost,lightgbm")
    args = ap.parse_args()
    libs = [lib for lib in args.libs.split(",") if lib != "lightgbm" or args.device == "cpu"]
    results = {}
    for _ in range(args.repeats):  # the libraries take turns
        for lib in libs:
            results.setdefault(lib, []).append(run(lib, args))
    print(f"{args.rows} rows, levels {args.levels}, {args.rounds} rounds, depth {args.depth}, "
          f"device {args.device}, {args.threads} threads, median of {args.repeats}")
    median = {lib: statistics.median(r["train_s"] for r in runs) for lib, runs in results.items()}
    for lib, runs in results.items():
        print(f"  {lib:9s} {median[lib]:8.2f} s  AUC {runs[0]['auc']:.4f}")
    peers = [median[lib] for lib in median if lib != "gpulayer"]
    if "gpulayer" in median and peers:
        print(f"  fastest peer / gpulayer: {min(peers) / median['gpulayer']:.2f}x")


if __name__ == "__main__":
    main()

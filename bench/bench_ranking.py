"""Learning to rank against XGBoost, same data, same run (docs/benchmarks.md,
"Ranking"): rank:ndcg end to end from arrays in memory (GPUlayer's Dataset
with group sizes plus training, against XGBoost's QuantileDMatrix with qid
plus training), and the test NDCG@10 of both.

    python3 bench/bench_ranking.py [--rows 1000000] [--rounds 100]
        [--depth 8] [--device cpu] [--threads 2] [--repeats 3]
        [--objective rank:ndcg] [--no-xgboost] [--out results.json]

Data: generated, 28 features, queries of 2 to 400 rows (uniform), grades
0..4 by each row's rank within its query of a hidden score (top 5% grade
4, then 10%, 20%, 30%; the rest 0); the queries split 80/20. Runs
alternate between the libraries; the table shows medians and the ratio.
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


def make_data(rows, features, seed=0):
    rng = np.random.default_rng(seed)
    sizes = []
    while sum(sizes) < rows:
        sizes.append(int(rng.integers(2, 401)))
    sizes[-1] -= sum(sizes) - rows
    if sizes[-1] <= 0:
        sizes.pop()
    sizes = np.array(sizes, dtype=np.int64)
    X = rng.standard_normal((rows, features), dtype=np.float32)
    w = rng.standard_normal(features).astype(np.float32)
    score = X @ w + 2.0 * np.sin(X[:, 0] * X[:, 1]) + rng.standard_normal(rows) * 0.5
    y = np.zeros(rows, dtype=np.float32)
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    for q in range(len(sizes)):
        s = score[ptr[q]:ptr[q + 1]]
        frac = (np.argsort(np.argsort(-s)) + 0.5) / len(s)
        y[ptr[q]:ptr[q + 1]] = np.select([frac < 0.05, frac < 0.15, frac < 0.35, frac < 0.65],
                                         [4, 3, 2, 1], 0)
    return X, y, sizes


def split(X, y, sizes, frac=0.2):
    ptr = np.concatenate([[0], np.cumsum(sizes)])
    cut = int(len(sizes) * (1 - frac))
    r = ptr[cut]
    return (X[:r], y[:r], sizes[:cut]), (X[r:], y[r:], sizes[cut:])


def ndcg10(y, score, sizes):
    ptr, total = np.concatenate([[0], np.cumsum(sizes)]), 0.0
    for q in range(len(sizes)):
        yq, sq = y[ptr[q]:ptr[q + 1]], score[ptr[q]:ptr[q + 1]]
        k = min(10, len(yq))
        disc = 1.0 / np.log2(np.arange(k) + 2.0)
        dcg = np.sum((2.0 ** yq[np.argsort(-sq, kind="stable")][:k] - 1.0) * disc)
        idcg = np.sum((2.0 ** np.sort(yq)[::-1][:k] - 1.0) * disc)
        total += dcg / idcg if idcg > 0 else 1.0
    return total / len(sizes)


def run_gpulayer(args, train, test):
    import gpulayer
    X, y, sizes = train
    params = dict(objective=args.objective, eta=0.1, max_depth=args.depth, max_bin=256,
                  num_round=args.rounds, nthread=args.threads, device=args.device)
    t0 = time.perf_counter()
    dtrain = gpulayer.Dataset(X, label=y, group=sizes)
    booster = gpulayer.train(params, dtrain)
    seconds = time.perf_counter() - t0
    pred = booster.predict(gpulayer.Dataset(test[0]))
    return seconds, ndcg10(test[1], pred, test[2])


def run_xgboost(args, train, test):
    import xgboost as xgb
    X, y, sizes = train
    qid = np.repeat(np.arange(len(sizes)), sizes)
    params = dict(objective=args.objective, eta=0.1, max_depth=args.depth, max_bin=256,
                  tree_method="hist", nthread=args.threads,
                  device="cuda" if args.device.startswith("cuda") else "cpu")
    t0 = time.perf_counter()
    dtrain = xgb.QuantileDMatrix(X, y, qid=qid, max_bin=256)
    booster = xgb.train(params, dtrain, args.rounds)
    seconds = time.perf_counter() - t0
    pred = booster.predict(xgb.DMatrix(test[0]))
    return seconds, ndcg10(test[1], pred, test[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--features", type=int, default=28)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--objective", default="rank:ndcg")
    ap.add_argument("--no-xgboost", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args()
    X, y, sizes = make_data(args.rows, args.features)
    train, test = split(X, y, sizes)
    print(f"data: {args.rows} rows, {len(sizes)} queries, {args.features} features; "
          f"{args.objective}, depth {args.depth}, {args.rounds} rounds, {args.device}, "
          f"{args.threads} threads", flush=True)
    libs = [("gpulayer", run_gpulayer)] + ([] if args.no_xgboost else [("xgboost", run_xgboost)])
    times = {name: [] for name, _ in libs}
    quality = {}
    for rep in range(args.repeats):
        for name, fn in libs:
            seconds, ndcg = fn(args, train, test)
            times[name].append(seconds)
            quality[name] = ndcg
            print(f"  {name} run {rep + 1}: {seconds:.2f} s, test NDCG@10 {ndcg:.5f}", flush=True)
    result = {"rows": args.rows, "queries": int(len(sizes)), "device": args.device,
              "threads": args.threads, "rounds": args.rounds, "depth": args.depth,
              "objective": args.objective, "runs": times, "ndcg10": quality}
    med = {name: statistics.median(t) for name, t in times.items()}
    for name in med:
        print(f"{name}: median {med[name]:.2f} s (min {min(times[name]):.2f}, "
              f"max {max(times[name]):.2f}), test NDCG@10 {quality[name]:.5f}")
    if "xgboost" in med:
        result["speedup"] = med["xgboost"] / med["gpulayer"]
        print(f"gpulayer is {result['speedup']:.2f}x faster than xgboost "
              f"(NDCG@10 {quality['gpulayer']:.5f} vs {quality['xgboost']:.5f})")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()

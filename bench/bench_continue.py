"""Continued training: one more round on a model of 300 trees (500,000
rows of the synthetic 28-feature binary data, depth 8), the training rows
also an evaluation set, so that both the training margins and the
evaluation margins start from the given model's trees.

    python3 bench/bench_continue.py [--rows 500000] [--trees 300] [--threads 2]

Prints the seconds of each of three runs and the last logloss (the same
on every run and every build that keeps the model's bits).
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
import synth  # noqa: E402

import gpulayer  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    X, y = synth.make(args.rows, 28, 1)
    d = gpulayer.Dataset(X, y)
    params = dict(objective="binary:logistic", max_depth=8, nthread=args.threads)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "init.json")
        gpulayer.train(params, d, args.trees).save_model(path)
        init = gpulayer.Booster(model_file=path)
    result = {}
    for _ in range(3):
        t0 = time.perf_counter()
        gpulayer.train(params, d, 1, xgb_model=init, evals=[(d, "train")],
                       evals_result=result, verbose_eval=False)
        print(f"continue 1 round on {args.trees} trees: {time.perf_counter() - t0:.3f} s, "
              f"train logloss {result['train']['logloss'][-1]!r}")


if __name__ == "__main__":
    main()

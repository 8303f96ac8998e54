"""CPU benchmark: GPUlayer against XGBoost (hist) and LightGBM, same data,
same machine, same run, interleaved, 2 threads each.

    python3 bench/bench_cpu.py [--workloads synthetic,flights,flights-cat]
        [--repeats 1] [--rounds 200] [--bench build/bench/gpulayer-bench]
        [--device cpu|mps]

--device mps trains GPUlayer on the Apple GPU (its Metal backend) and adds
macboost, a GPU booster for Apple silicon, where it is installed: the GPU
rows against each other, and against XGBoost and LightGBM on the CPU.

flights-cat is flights with origin and destination as categories: each
library's own categorical splits (GPUlayer's sets, XGBoost's
enable_categorical with its feature types, LightGBM's categorical_feature).

Each library trains and predicts in its own process, so peak RSS is
measured per library. Prints a table of training time, ratio to each
peer, test AUC / logloss, prediction time for the test rows and peak RSS.
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
sys.path.insert(0, HERE)
import synth  # noqa: E402

PARAMS = dict(rounds=200, eta=0.1, max_depth=8, max_bin=256, threads=2)

# Each peer runs as a child process: one script, one library, JSON out.
PEER = r'''
import json, sys, time
import numpy as np
lib, prefix, rounds, eta, depth, max_bin, threads = sys.argv[1:8]
rounds, depth, max_bin, threads, eta = int(rounds), int(depth), int(max_bin), int(threads), float(eta)
F = int(sys.argv[8])
cats = [int(c) for c in sys.argv[9].split(",")] if len(sys.argv) > 9 and sys.argv[9] else []
X = np.fromfile(prefix + "train.X.f32", dtype=np.float32).reshape(-1, F)
y = np.fromfile(prefix + "train.y.f32", dtype=np.float32)
Xt = np.fromfile(prefix + "test.X.f32", dtype=np.float32).reshape(-1, F)
if lib == "xgboost":
    import xgboost as xgb
    t0 = time.perf_counter()
    types = ["c" if i in cats else "q" for i in range(F)] if cats else None
    d = xgb.DMatrix(X, y, nthread=threads, feature_types=types, enable_categorical=bool(cats))
    m = xgb.train(dict(objective="binary:logistic", eta=eta, max_depth=depth, max_bin=max_bin,
                       tree_method="hist", nthread=threads), d, rounds)
    train_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    p = (m.predict(xgb.DMatrix(Xt, feature_types=types, enable_categorical=True)) if cats
         else m.inplace_predict(Xt))
    predict_s = time.perf_counter() - t0
elif lib == "macboost":
    import macboost
    t0 = time.perf_counter()
    m = macboost.MacBoostClassifier(n_estimators=rounds, max_depth=depth, learning_rate=eta,
                                    max_bin=max_bin, categorical_features=cats or None)
    m.fit(X, y)
    train_s = time.perf_counter() - t0
    t0 = time.perf_counter(); p = m.predict_proba(Xt)[:, 1]; predict_s = time.perf_counter() - t0
else:
    import lightgbm as lgb
    t0 = time.perf_counter()
    d = lgb.Dataset(X, y, params=dict(max_bin=max_bin, verbose=-1),
                    categorical_feature=cats or "auto")
    m = lgb.train(dict(objective="binary", learning_rate=eta, num_leaves=255, max_depth=depth,
                       max_bin=max_bin, num_threads=threads, verbose=-1, min_child_samples=20),
                  d, rounds)
    train_s = time.perf_counter() - t0
    t0 = time.perf_counter(); p = m.predict(Xt, num_threads=threads); predict_s = time.perf_counter() - t0
np.asarray(p, dtype=np.float32).tofile(prefix + lib + ".pred.f32")
# VmHWM, not ru_maxrss: on Linux the latter keeps the parent's peak across
# exec. macOS has no /proc; its ru_maxrss is in bytes.
try:
    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]
    rss_mb = int(hwm) / 1024
except OSError:
    import resource
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps(dict(train_s=train_s, predict_s=predict_s, peak_rss_mb=rss_mb)))
'''


FLIGHTS = os.path.join(HERE, "..", "..", "shared", "data", "flights_3m", "flights_3m.csv.xz")


def flights(prefix, path=None):
    """flights_3m: delay > 15 as binary, categorical airports as sorted
    codes (as GPUlayer numbers them), shuffled 80/20 split. Returns the
    feature count and the categorical columns as {index: categories}."""
    import pandas as pd
    path = path or FLIGHTS
    df = pd.read_csv(path)
    y = (df.pop("delay") > 15).astype(np.float32).to_numpy()
    df = df.drop(columns=["date"])
    categorical = {}
    for i, col in enumerate(df.columns):
        if not pd.api.types.is_numeric_dtype(df[col]):
            cats = sorted(df[col].dropna().unique())
            df[col] = pd.Categorical(df[col], categories=cats).codes.astype(np.float32)
            categorical[i] = len(cats)
    X = df.to_numpy(dtype=np.float32)
    idx = np.random.default_rng(0).permutation(len(y))
    cut = int(len(y) * 0.8)
    synth.write(prefix + "train", X[idx[:cut]], y[idx[:cut]])
    synth.write(prefix + "test", X[idx[cut:]], y[idx[cut:]])
    return X.shape[1], categorical


def synthetic(prefix):
    synth.write(prefix + "train", *synth.make(1_000_000, 28, 1))
    synth.write(prefix + "test", *synth.make(200_000, 28, 2))
    return 28, {}


def run_peer(lib, prefix, F, p, cats=None):
    args = [sys.executable, "-c", PEER, lib, prefix, str(p["rounds"]), str(p["eta"]),
            str(p["max_depth"]), str(p["max_bin"]), str(p["threads"]), str(F),
            ",".join(str(c) for c in sorted(cats or {}))]
    env = dict(os.environ, OMP_NUM_THREADS=str(p["threads"]))
    return json.loads(subprocess.check_output(args, env=env).decode().strip().splitlines()[-1])


def run_gpulayer(bench, prefix, F, p, cats=None, device="cpu"):
    args = [bench, prefix + "train.X.f32", prefix + "train.y.f32", prefix + "test.X.f32",
            prefix + "test.y.f32", str(F), "objective=binary:logistic",
            f"num_round={p['rounds']}", f"eta={p['eta']}", f"max_depth={p['max_depth']}",
            f"max_bin={p['max_bin']}", f"nthread={p['threads']}", f"device={device}"]
    if cats:
        args.append("cat_columns=" + ",".join(f"{c}:{n}" for c, n in sorted(cats.items())))
    env = dict(os.environ, BENCH_PRED=prefix + "gpulayer.pred.f32")
    return json.loads(subprocess.check_output(args, env=env).decode().strip().splitlines()[-1])


def metrics(prefix, lib):
    from sklearn.metrics import log_loss, roc_auc_score
    y = np.fromfile(prefix + "test.y.f32", dtype=np.float32)
    p = np.fromfile(prefix + lib + ".pred.f32", dtype=np.float32).astype(np.float64)
    return roc_auc_score(y, p), log_loss(y, np.clip(p, 1e-15, 1 - 1e-15))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="synthetic,flights")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=PARAMS["rounds"])
    ap.add_argument("--max-bin", type=int, default=PARAMS["max_bin"],
                    help="bins a feature for all three (above 256: GPUlayer's 16-bit codes)")
    ap.add_argument("--flights", default=FLIGHTS, help="path of flights_3m.csv.xz")
    ap.add_argument("--bench", default=os.path.join(HERE, "..", "build", "bench", "gpulayer-bench"))
    ap.add_argument("--device", default="cpu", choices=("cpu", "mps"),
                    help="where GPUlayer trains; mps adds macboost where installed")
    args = ap.parse_args()
    p = dict(PARAMS, rounds=args.rounds, max_bin=args.max_bin)
    libs = ["gpulayer", "xgboost", "lightgbm"]
    if args.device == "mps":
        try:
            import macboost  # noqa: F401
            libs.append("macboost")
        except ImportError as exc:
            print(f"macboost: not compared ({exc}); pip install macboost on an Apple-silicon "
                  "Mac adds it", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.workloads.split(","):
            prefix = os.path.join(tmp, name + ".")
            F, cats = synthetic(prefix) if name == "synthetic" else flights(prefix, args.flights)
            if name != "flights-cat":
                cats = {}
            n = os.path.getsize(prefix + "train.y.f32") // 4
            nt = os.path.getsize(prefix + "test.y.f32") // 4
            best = {}
            for r in range(args.repeats):  # interleaved: each library once per repeat
                for lib in libs:
                    res = (run_gpulayer(args.bench, prefix, F, p, cats, args.device)
                           if lib == "gpulayer" else run_peer(lib, prefix, F, p, cats))
                    if lib not in best or res["train_s"] < best[lib]["train_s"]:
                        best[lib] = res
                    print(f"  {name} run {r + 1} {lib}: {res}", file=sys.stderr)
            print(f"\n{name}: {n} train rows x {F} features"
                  f"{f' ({len(cats)} categorical)' if cats else ''}, {nt} test rows, "
                  f"{p['rounds']} rounds, eta {p['eta']}, max_depth {p['max_depth']}, "
                  f"max_bin {p['max_bin']}, {p['threads']} threads, best of {args.repeats}; "
                  f"GPUlayer on {args.device}"
                  f"{', macboost on the GPU' if 'macboost' in libs else ''}")
            print(f"{'library':10} {'train s':>8} {'vs xgb':>7} {'vs lgbm':>8} {'AUC':>8} "
                  f"{'logloss':>8} {'predict s':>9} {'peak RSS MB':>11}")
            for lib in libs:
                b = best[lib]
                auc, ll = metrics(prefix, lib)
                rss = f"{b['peak_rss_mb']:.0f}" if b["peak_rss_mb"] else "n/a"
                print(f"{lib:10} {b['train_s']:8.2f} {best['xgboost']['train_s'] / b['train_s']:7.2f} "
                      f"{best['lightgbm']['train_s'] / b['train_s']:8.2f} {auc:8.4f} {ll:8.4f} "
                      f"{b['predict_s']:9.3f} {rss:>11}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()

"""GPUlayer's CUDA backend against XGBoost's on one GPU, same data, same run.

    python3 bench/bench_cuda.py --gpulayer-bench build-cuda/bench/gpulayer-bench

Workloads (--workload):
  synthetic  bench/synth.py's recipe, 10,000,000 x 28 training rows (seed 1)
             and 1,000,000 test rows (seed 2);
  wide       the same recipe, 1,000,000 x 256 (seed 1), 200,000 test rows;
  flights    flights_3m (delay > 15), shuffled 80/20 split (--flights);
  flights-cat  the same with origin and destination as categories, each
             library splitting them its own way (GPUlayer's sets, XGBoost's
             enable_categorical).
Both libraries train binary:logistic for 500 rounds (eta 0.1, max_depth 8,
max_bin 256) on the GPU; each runs in its own process while nvidia-smi is
polled for that process's GPU memory. AUC is sklearn's roc_auc_score on the
test rows.

Times: XGBoost's `train_s` is xgb.train on a prepared QuantileDMatrix (its
GPU quantile sketch is `prepare_s`, reported apart); gpulayer's `train_s`
is gpulayer_booster_train, which includes its binning on the host and the
upload. A second gpulayer run with GPULAYER_CUDA_PROFILE=1 gives the device
time of each backend operation and the histogram kernel's bandwidth.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402

PARAMS = {"objective": "binary:logistic", "eta": 0.1, "max_depth": 8, "max_bin": 256}


# ------------------------------------------------------------------ data
WORKLOADS = {"synthetic": (10_000_000, 1_000_000, 28), "wide": (1_000_000, 200_000, 256)}


def ensure_data(d, workload, rows=None, flights_csv=None):
    """Writes the workload's raw float32 files once; returns the train and
    test prefixes and the number of features."""
    d = os.path.join(d, "flights" if workload == "flights-cat" else workload)
    os.makedirs(d, exist_ok=True)
    train, test = os.path.join(d, "train"), os.path.join(d, "test")
    if workload.startswith("flights"):
        if not os.path.exists(test + ".y.f32"):
            import bench_cpu
            F, cats = bench_cpu.flights(os.path.join(d, ""), flights_csv)
            open(os.path.join(d, "features"), "w").write(
                json.dumps({"features": F, "categorical": cats}))
        meta = json.loads(open(os.path.join(d, "features")).read())
        cats = {int(k): v for k, v in meta["categorical"].items()}
        return train, test, meta["features"], cats if workload == "flights-cat" else {}
    n, test_rows, F = WORKLOADS[workload]
    n = rows or n
    for prefix, count, seed in ((train, n, 1), (test, test_rows, 2)):
        if os.path.exists(prefix + ".y.f32") and os.path.getsize(prefix + ".y.f32") == 4 * count:
            continue
        t = time.time()
        X, y = synth.make(count, F, seed)
        synth.write(prefix, X, y)
        print(f"[bench] wrote {prefix}: {count} x {F} in {time.time() - t:.1f} s", flush=True)
    return train, test, F, {}


def load(prefix, F):
    y = np.fromfile(prefix + ".y.f32", dtype=np.float32)
    X = np.fromfile(prefix + ".X.f32", dtype=np.float32).reshape(len(y), F)
    return X, y


# ---------------------------------------------------------- GPU memory
class MemoryPoll(threading.Thread):
    """Largest GPU memory nvidia-smi shows for one process (MiB), and the
    largest rise of the whole device's used memory over its start."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.proc_mib, self.device_mib = pid, 0, 0
        self.base = self._device_used()
        self.done = False

    @staticmethod
    def _query(args):
        try:
            return subprocess.run(["nvidia-smi"] + args, capture_output=True, text=True,
                                  timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return ""

    def _device_used(self):
        out = self._query(["--query-gpu=memory.used", "--format=csv,noheader,nounits"])
        try:
            return int(out.split()[0])
        except (IndexError, ValueError):
            return 0

    def run(self):
        while not self.done:
            out = self._query(["--query-compute-apps=pid,used_memory",
                               "--format=csv,noheader,nounits"])
            for line in out.splitlines():
                parts = [p.strip() for p in line.split(",")]
                if len(parts) == 2 and parts[0] == str(self.pid) and parts[1].isdigit():
                    self.proc_mib = max(self.proc_mib, int(parts[1]))
            self.device_mib = max(self.device_mib, self._device_used() - self.base)
            time.sleep(0.2)


def run_measured(cmd, env=None):
    t = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    poll = MemoryPoll(p.pid)
    poll.start()
    out, err = p.communicate()
    poll.done = True
    poll.join()
    if p.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({p.returncode}):\n{err[-4000:]}")
    return out, err, {"gpu_mem_process_mib": poll.proc_mib,
                      "gpu_mem_device_rise_mib": poll.device_mib,
                      "wall_s": round(time.time() - t, 3)}


# --------------------------------------------------------------- runs
def feature_types(F, cats):
    """XGBoost's feature types: "c" for the categorical columns."""
    return ["c" if i in cats else "q" for i in range(F)] if cats else None


def xgboost_worker(train, test, F, rounds, pred_path, device, cats):
    import xgboost as xgb
    X, y = load(train, F)
    t = time.time()
    types = feature_types(F, cats)
    dtrain = xgb.QuantileDMatrix(X, y, max_bin=PARAMS["max_bin"], feature_types=types,
                                 enable_categorical=bool(cats))
    prepare_s = time.time() - t
    params = dict(PARAMS, device=device, tree_method="hist")
    t = time.time()
    booster = xgb.train(params, dtrain, num_boost_round=rounds)
    train_s = time.time() - t
    Xt, _ = load(test, F)
    t = time.time()
    pred = (booster.predict(xgb.DMatrix(Xt, feature_types=types, enable_categorical=True))
            if cats else booster.inplace_predict(Xt))
    pred = np.asarray(pred.get() if hasattr(pred, "get") else pred, dtype=np.float32)
    predict_s = time.time() - t
    pred.tofile(pred_path)
    print(json.dumps({"prepare_s": round(prepare_s, 4), "train_s": round(train_s, 4),
                      "predict_s": round(predict_s, 4), "version": xgb.__version__}))


def cat_arg(cats):
    return ",".join(f"{c}:{n}" for c, n in sorted(cats.items()))


def run_xgboost(train, test, F, rounds, device, cats):
    pred = train + ".xgb.pred.f32"
    out, _, mem = run_measured([sys.executable, os.path.abspath(__file__), "--worker",
                                "xgboost", "--train", train, "--test", test, "--features",
                                str(F), "--rounds", str(rounds), "--pred", pred,
                                "--device", device, "--cats", cat_arg(cats)])
    r = json.loads(out.strip().splitlines()[-1])
    r.update(mem)
    return r, pred


def run_gpulayer(exe, train, test, F, rounds, device, extra_env=None, tag="gpulayer", cats=None):
    pred = train + "." + tag + ".pred.f32"
    env = dict(os.environ, BENCH_PRED=pred, **(extra_env or {}))
    cmd = [exe, train + ".X.f32", train + ".y.f32", test + ".X.f32", test + ".y.f32",
           str(F), "objective=binary:logistic", f"num_round={rounds}", "eta=0.1",
           "max_depth=8", "max_bin=256", f"device={device}", "verbosity=2"]
    if cats:
        cmd.append("cat_columns=" + cat_arg(cats))
    out, err, mem = run_measured(cmd, env)
    r = json.loads(out.strip().splitlines()[-1])
    r.update(mem)
    r["stderr"] = [l for l in err.splitlines() if "[gpulayer]" in l]
    return r, pred


def auc(pred_path, test):
    from sklearn.metrics import roc_auc_score
    y = np.fromfile(test + ".y.f32", dtype=np.float32)
    return float(roc_auc_score(y, np.fromfile(pred_path, dtype=np.float32)))


def profile_table(lines):
    """The per-operation rows of GPULAYER_CUDA_PROFILE's report."""
    rows = {}
    for l in lines:
        m = re.match(r"\[gpulayer\]\s+(\w+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)%", l)
        if m:
            rows[m.group(1)] = {"calls": int(m.group(2)), "total_ms": float(m.group(3)),
                                "share_pct": float(m.group(5))}
        m = re.search(r"= ([\d.]+) GB/s", l)
        if m:
            rows["histogram_GBps"] = float(m.group(1))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpulayer-bench", default="build-cuda/bench/gpulayer-bench")
    ap.add_argument("--workload", default="synthetic",
                    choices=["synthetic", "wide", "flights", "flights-cat"])
    ap.add_argument("--rows", type=int, default=None, help="training rows (synthetic, wide)")
    ap.add_argument("--flights", default=os.path.join(HERE, "..", "..", "shared", "data",
                                                      "flights_3m", "flights_3m.csv.xz"))
    ap.add_argument("--rounds", type=int, default=500)
    ap.add_argument("--data", default="/tmp/gpulayer-bench-data")
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    ap.add_argument("--skip-xgboost", action="store_true")
    ap.add_argument("--variants", default="",
                    help="also time these GPULAYER_CUDA_HIST kernels (e.g. shared64)")
    ap.add_argument("--device", default="cuda", help="cpu for a smoke test without a GPU")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--train", help=argparse.SUPPRESS)
    ap.add_argument("--test", help=argparse.SUPPRESS)
    ap.add_argument("--pred", help=argparse.SUPPRESS)
    ap.add_argument("--features", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--cats", default="", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker == "xgboost":
        cats = {int(c.split(":")[0]): int(c.split(":")[1]) for c in a.cats.split(",") if c}
        xgboost_worker(a.train, a.test, a.features, a.rounds, a.pred, a.device, cats)
        return

    train, test, F, cats = ensure_data(a.data, a.workload, a.rows, a.flights)
    res = {"workload": a.workload, "rows": os.path.getsize(train + ".y.f32") // 4,
           "test_rows": os.path.getsize(test + ".y.f32") // 4, "features": F,
           "rounds": a.rounds, "params": PARAMS}
    if not a.skip_xgboost:
        try:
            r, pred = run_xgboost(train, test, F, a.rounds, a.device, cats)
            r["auc"] = auc(pred, test)
            res["xgboost"] = r
            print(f"[bench] xgboost: {r}", flush=True)
        except Exception as e:  # report and go on with gpulayer
            res["xgboost_error"] = str(e)
            print(f"[bench] xgboost failed: {e}", flush=True)
    r, pred = run_gpulayer(a.gpulayer_bench, train, test, F, a.rounds, a.device, cats=cats)
    r["auc"] = auc(pred, test)
    res["gpulayer"] = r
    print(f"[bench] gpulayer: {r}", flush=True)
    r, _ = run_gpulayer(a.gpulayer_bench, train, test, F, a.rounds, a.device,
                        {"GPULAYER_CUDA_PROFILE": "1"}, "gpulayer-profile", cats)
    res["gpulayer_profiled"] = {"train_s": r["train_s"], "ops": profile_table(r["stderr"]),
                                "report": r["stderr"]}
    print("\n".join(r["stderr"]), flush=True)
    # The part of train_s that does not grow with rounds: binning on the
    # host, placement, the CUDA context and the upload (one round's share
    # of tree time is left in).
    r, _ = run_gpulayer(a.gpulayer_bench, train, test, F, 1, a.device, None, "one-round", cats)
    res["gpulayer_one_round_s"] = r["train_s"]
    res["gpulayer_setup"] = [l for l in r["stderr"] if "setup:" in l]
    print(f"[bench] gpulayer with num_round=1: train_s {r['train_s']} {res['gpulayer_setup']}",
          flush=True)
    for v in [v for v in a.variants.split(",") if v]:
        r, _ = run_gpulayer(a.gpulayer_bench, train, test, F, a.rounds, a.device,
                            {"GPULAYER_CUDA_PROFILE": "1", "GPULAYER_CUDA_HIST": v}, v)
        res["variant_" + v] = {"train_s": r["train_s"], "ops": profile_table(r["stderr"])}
        print(f"[bench] variant {v}: {res['variant_' + v]}", flush=True)

    g, x = res["gpulayer"], res.get("xgboost")
    print(f"\n[bench] summary: {a.workload}, {res['rows']} x {F}, {a.rounds} rounds "
          "(same GPU, same data, same run)")
    print(f"  {'':10} {'train s':>9} {'AUC':>8} {'GPU MiB':>8}")
    if x:
        print(f"  {'xgboost':10} {x['train_s']:9.2f} {x['auc']:8.4f} "
              f"{x['gpu_mem_process_mib']:8d}   (+{x['prepare_s']:.2f} s QuantileDMatrix)")
    print(f"  {'gpulayer':10} {g['train_s']:9.2f} {g['auc']:8.4f} "
          f"{g['gpu_mem_process_mib']:8d}   (binning and upload included)")
    if x:
        res["speedup_train"] = round(x["train_s"] / g["train_s"], 3)
        res["speedup_with_prepare"] = round((x["train_s"] + x["prepare_s"]) / g["train_s"], 3)
        res["auc_difference"] = round(g["auc"] - x["auc"], 5)
        print(f"  speed-up {res['speedup_train']:.2f}x (train), "
              f"{res['speedup_with_prepare']:.2f}x (XGBoost's sketch counted), "
              f"AUC difference {res['auc_difference']:+.4f}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()

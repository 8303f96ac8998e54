#!/usr/bin/env python3
"""Trainings of every objective on each named device against the CPU: the
models (trees, base score) and the device's predictions must be the same
bits.

    python3 tests/hardware/objective_backends.py cuda vulkan

Uses the command (GPULAYER_CLI, default build/gpulayer). The data are
generated: 50,001 rows (not a multiple of any workgroup), numeric columns
with missing cells, a weight column, and a label made valid for each
objective (counts with many zeros, positive amounts, labels up to 1e6,
0/1 classes). Covers the leaf refit of absolute and quantile error with
and without weights and row sampling (the CUDA backend sorts the refit's
rows on the device when the rows have no weights). Prints one line a
case; exit status 1 when any differs.
"""
import json
import math
import os
import pathlib
import random
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("GPULAYER_CLI", str(REPO / "build" / "gpulayer"))

# (objective, label kind, extra parameters, weighted)
CASES = [
    ("count:poisson", "count", [], False),
    ("count:poisson", "count", ["max_delta_step=0.3", "subsample=0.7"], True),
    ("reg:gamma", "amount", [], True),
    ("reg:tweedie", "count", ["tweedie_variance_power=1.2"], False),
    ("reg:tweedie", "amount", ["tweedie_variance_power=1.8"], True),
    ("reg:squaredlogerror", "amount", [], False),
    ("reg:pseudohubererror", "huge", ["huber_slope=1000"], False),
    ("reg:pseudohubererror", "signed", ["huber_slope=0.5"], True),
    ("reg:absoluteerror", "signed", [], False),
    ("reg:absoluteerror", "huge", ["subsample=0.6", "grow_policy=lossguide", "max_leaves=31",
                                   "max_depth=0"], False),
    ("reg:absoluteerror", "signed", [], True),
    ("reg:quantileerror", "signed", ["quantile_alpha=0.1"], False),
    ("reg:quantileerror", "amount", ["quantile_alpha=[0.05,0.5,0.95]", "subsample=0.8"],
     False),
    ("reg:quantileerror", "signed", ["quantile_alpha=[0.3,0.9]"], True),
    ("reg:logistic", "binary", [], False),
    ("binary:logitraw", "binary", [], True),
    ("binary:hinge", "binary", [], False),
]


def label(kind, z, rng):
    if kind == "count":
        return float(min(int(rng.expovariate(1.0 / math.exp(0.5 * z))), 60))
    if kind == "amount":
        return math.exp(0.6 * z) * rng.gammavariate(2.0, 0.5) + 0.01
    if kind == "huge":
        return 1e6 * z + rng.gauss(0, 1e5)
    if kind == "binary":
        return 1.0 if z + rng.gauss(0, 1) > 0 else 0.0
    return 3 * z + rng.gauss(0, 1)


def make_data(path, kind, rows, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("y,w,x1,x2,x3,x4\n")
        for _ in range(rows):
            x = [rng.gauss(0, 1), rng.random(), rng.gauss(0, 2), float(rng.randrange(7))]
            z = x[0] + (1.0 if x[1] > 0.7 else 0.0) - 0.3 * x[3] / 7
            cells = ["" if rng.random() < 0.05 else f"{v:.5f}" for v in x]
            f.write(f"{label(kind, z, rng):.6g},{rng.uniform(0.2, 3):.4f},{','.join(cells)}\n")


def run(*args):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: {proc.stderr.strip()}")
    return proc


def model_core(model):
    doc = json.loads(pathlib.Path(model).read_text())
    keep = ("objective", "objective_params", "base_score", "base_margin", "num_outputs",
            "trees")
    return json.dumps({k: doc.get(k) for k in keep}, sort_keys=True)


def main(devices):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for i, (objective, kind, params, weighted) in enumerate(CASES):
            data = tmp / f"{kind}.csv"
            if not data.exists():
                make_data(data, kind, 50001, 11)
            args = ["--data", data, "--label", "y", "--objective", objective,
                    "--num-round", "8", "--nthread", "2", "--max-depth", "6"]
            args += ["--weight", "w"] if weighted else ["--ignore", "w"]
            for p in params:
                args += ["--param", p]
            ref = tmp / f"cpu{i}.json"
            ref_pred = tmp / f"cpu{i}.csv"
            run(CLI, "train", *args, "--device", "cpu", "--model", ref)
            run(CLI, "predict", "--model", ref, "--data", data, "--label", "y", "--device",
                "cpu", "--output", ref_pred)
            for dev in devices:
                name = (f"{dev} {objective} {kind}{' weighted' if weighted else ''} "
                        f"{' '.join(params)}")
                model = tmp / f"{dev}{i}.json"
                pred = tmp / f"{dev}{i}.csv"
                try:
                    run(CLI, "train", *args, "--device", dev, "--model", model)
                    run(CLI, "predict", "--model", ref, "--data", data, "--label", "y",
                        "--device", dev, "--output", pred)
                except RuntimeError as e:
                    print(f"FAILED: {name}: {e}")
                    failed += 1
                    continue
                same_model = model_core(model) == model_core(ref)
                same_pred = pred.read_bytes() == ref_pred.read_bytes()
                ok = same_model and same_pred
                failed += not ok
                print(f"{'ok' if ok else 'FAILED'}: {name} (model "
                      f"{'same' if same_model else 'DIFFERS'}, predictions "
                      f"{'same' if same_pred else 'DIFFER'})")
    print(f"objective backends: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["cuda"]))

#!/usr/bin/env python3
"""Trainings with categorical features split by sets on each named device
against the CPU: the trees (and the predictions on that device) must be
the same bits.

    python3 tests/hardware/categorical_backends.py cuda vulkan

Uses the command (GPULAYER_CLI, default build/gpulayer). The data are
generated: categorical columns of 2, 5, 64, 255 and 300 categories (the
last more than a byte's bins: max_categories=255 groups its rarest, as
GPU training needs in this version) with skewed
frequencies, categories present in one branch only, missing cells, and
numeric columns. Prints one line a case; exit status 1 when any differs.
"""
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("GPULAYER_CLI", str(REPO / "build" / "gpulayer"))

CASES = [
    ("binary:logistic", ["max_depth=6"]),
    ("binary:logistic", ["grow_policy=lossguide", "max_leaves=40", "max_depth=0"]),
    ("reg:squarederror", ["max_depth=8", "max_cat_threshold=8", "cat_smooth=0"]),
    ("reg:squarederror", ["max_depth=4", "max_cat_to_onehot=64", "min_data_per_group=20"]),
    ("multi:softprob", ["num_class=3", "max_depth=5"]),
]


def make_data(path, rows, seed):
    rng = random.Random(seed)
    sizes = [2, 5, 64, 255, 300]
    effect = {n: [rng.uniform(-2, 2) for _ in range(n)] for n in sizes}
    with open(path, "w") as f:
        f.write("y,c2,c5,c64,c255,c300,x1,x2\n")
        for _ in range(rows):
            cells, z = [], 0.0
            for n in sizes:
                # Skewed: small codes far more often; 5% missing.
                code = min(int(rng.expovariate(4.0 / n)), n - 1)
                if rng.random() < 0.05:
                    cells.append("")
                else:
                    cells.append(f"k{code:03d}")
                    z += effect[n][code]
            x1, x2 = rng.gauss(0, 1), rng.random()
            z += x1 + (2.0 if cells[1] == "k001" and x2 > 0.5 else 0.0)
            y = z + rng.gauss(0, 0.5)
            f.write(f"{y:.5f},{','.join(cells)},{x1:.5f},{x2:.5f}\n")


def run(*args):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: {proc.stderr.strip()}")
    return proc


def label_file(src, dst, objective):
    """The same rows with the label the objective wants."""
    with open(src) as f, open(dst, "w") as g:
        g.write(f.readline())
        for line in f:
            y, rest = line.split(",", 1)
            y = float(y)
            if objective.startswith("binary"):
                y = 1 if y > 0.5 else 0
            elif objective.startswith("multi"):
                y = 0 if y < -1 else 1 if y < 1.5 else 2
            g.write(f"{y},{rest}")


def trees(model):
    doc = json.loads(pathlib.Path(model).read_text())
    return json.dumps(doc["trees"], sort_keys=True)


def main(devices):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        raw = tmp / "raw.csv"
        make_data(raw, 20000, 7)
        for i, (objective, params) in enumerate(CASES):
            data = tmp / f"data{i}.csv"
            label_file(raw, data, objective)
            args = ["--data", data, "--label", "y", "--objective", objective,
                    "--num-round", "12", "--nthread", "2", "--param", "max_categories=255"]
            for p in params:
                args += ["--param", p]
            ref = tmp / f"cpu{i}.json"
            run(CLI, "train", *args, "--device", "cpu", "--model", ref)
            cats = json.loads(ref.read_text())["trees"]
            nsets = sum(len(t.get("categories_nodes", [])) for t in cats)
            ref_pred = tmp / f"cpu{i}.csv"
            run(CLI, "predict", "--model", ref, "--data", data, "--label", "y",
                "--device", "cpu", "--output", ref_pred)
            for dev in devices:
                name = f"{dev} {objective} {' '.join(params)}"
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
                same_trees = trees(model) == trees(ref)
                same_pred = pred.read_bytes() == ref_pred.read_bytes()
                ok = same_trees and same_pred and nsets > 0
                failed += not ok
                print(f"{'ok' if ok else 'FAILED'}: {name} ({nsets} category-set splits; "
                      f"trees {'same' if same_trees else 'DIFFER'}, predictions "
                      f"{'same' if same_pred else 'DIFFER'})")
    print(f"categorical backends: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["cuda"]))

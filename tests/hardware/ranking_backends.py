#!/usr/bin/env python3
"""Ranking models trained on each named device against the CPU's: the trees
must be the same bits.

    python3 tests/hardware/ranking_backends.py cuda vulkan

Uses the command (GPULAYER_CLI, default build/gpulayer) with --qid. The data
are generated: 40,009 rows in queries of 1 to 400 rows, one of 5,000 rows,
some queries of one grade only, grades 0..4 (0/1 for rank:map), a weight
a query, margins with ties (a coarse feature). Every objective with both
pair methods, score normalisation off and on, subsampling. Prints one line
a case; exit status 1 when any differs.
"""
import json
import os
import pathlib
import random
import sys
import tempfile

from objective_backends import run

REPO = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("GPULAYER_CLI", str(REPO / "build" / "gpulayer"))

# (objective, extra parameters, weighted)
CASES = [
    ("rank:ndcg", [], False),
    ("rank:ndcg", ["lambdarank_pair_method=mean", "lambdarank_num_pair_per_sample=4"], True),
    ("rank:ndcg", ["lambdarank_num_pair_per_sample=5", "ndcg_exp_gain=0",
                   "lambdarank_score_normalization=0", "subsample=0.7"], False),
    ("rank:pairwise", [], True),
    ("rank:pairwise", ["lambdarank_pair_method=topk", "lambdarank_num_pair_per_sample=8"],
     False),
    ("rank:map", [], False),
    ("rank:map", ["lambdarank_pair_method=mean", "lambdarank_normalization=0"], True),
]


def make_data(path, binary, rows, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("y,q,w,x1,x2,x3,x4\n")
        row, q = 0, 0
        while row < rows:
            n = 5000 if q == 3 else min(rows - row, rng.randint(1, 400))
            one_grade = rng.random() < 0.1
            w = rng.uniform(0.3, 3.0)
            for _ in range(n):
                x = [rng.gauss(0, 1), rng.random(), float(rng.randrange(3)), rng.gauss(0, 2)]
                z = x[0] + x[2] - 0.5 * x[1] + rng.gauss(0, 0.7)
                grade = 2 if one_grade else max(0, min(4, int(z + 2)))
                if binary:
                    grade = 1 if grade >= 3 else 0
                cells = ["" if rng.random() < 0.03 else f"{v:.4f}" for v in x]
                f.write(f"{grade},{q},{w:.4f},{','.join(cells)}\n")
            row += n
            q += 1


def model_core(model):
    doc = json.loads(pathlib.Path(model).read_text())
    keep = ("objective", "base_score", "base_margin", "num_outputs", "trees")
    return json.dumps({k: doc.get(k) for k in keep}, sort_keys=True)


def main(devices):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for i, (objective, params, weighted) in enumerate(CASES):
            binary = objective == "rank:map"
            data = tmp / f"rank{int(binary)}.csv"
            if not data.exists():
                make_data(data, binary, 40009, 5)
            args = ["--data", data, "--label", "y", "--qid", "q", "--objective", objective,
                    "--num-round", "6", "--nthread", "2", "--max-depth", "6"]
            args += ["--weight", "w"] if weighted else ["--ignore", "w"]
            for p in params:
                args += ["--param", p]
            ref = tmp / f"cpu{i}.json"
            run(CLI, "train", *args, "--device", "cpu", "--model", ref)
            for dev in devices:
                name = f"{dev} {objective}{' weighted' if weighted else ''} {' '.join(params)}"
                model = tmp / f"{dev}{i}.json"
                try:
                    run(CLI, "train", *args, "--device", dev, "--model", model)
                except RuntimeError as e:
                    print(f"FAILED: {name}: {e}")
                    failed += 1
                    continue
                if model_core(model) != model_core(ref):
                    print(f"FAILED: {name}: the model differs from the CPU's")
                    failed += 1
                else:
                    print(f"ok: {name}: the CPU's model bits")
    print(f"ranking_backends: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["cuda", "vulkan"]))

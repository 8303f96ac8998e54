#!/usr/bin/env python3
"""Sparse input (compressed rows) trained on each named device against the
CPU: the trees and the device's predictions must be the same bits.

    python3 tests/hardware/sparse_backends.py cuda vulkan

Two paths into the library's CSR dataset: LibSVM files through the command
(GPULAYER_CLI, default build/gpulayer), and scipy.sparse matrices through
the Python package (skipped with the reason where scipy or the package
cannot be imported). The data are generated: 30,011 rows (not a multiple
of any workgroup), 400 columns at about 3% density with skewed column
frequencies, explicit zeros, columns that are never present and one that
is always present. Prints one line a case; exit status 1 when any differs.
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
ROWS, COLS = 30011, 400

# (objective, extra parameters)
CASES = [
    ("binary:logistic", []),
    ("binary:logistic", ["subsample=0.7", "colsample_bynode=0.5"]),
    ("reg:squarederror", ["max_bin=64", "grow_policy=lossguide", "max_leaves=63",
                          "max_depth=0"]),
    ("multi:softprob", ["num_class=3"]),
]


def make_rows(seed):
    """Rows as (label value z, {column: value}) with a skewed column choice."""
    rng = random.Random(seed)
    rows = []
    for _ in range(ROWS):
        cells = {0: rng.gauss(0, 1)}  # column 0 is always present
        for _ in range(rng.randrange(4, 20)):
            col = min(int(rng.expovariate(1 / 40)) + 1, COLS - 1)
            if col % 97 == 13:  # these columns are never present
                continue
            cells[col] = 0.0 if rng.random() < 0.1 else round(rng.gauss(col % 5, 2), 4)
        z = cells[0] + cells.get(1, -0.5) - 0.2 * len(cells) / 10 + rng.gauss(0, 0.5)
        rows.append((z, cells))
    return rows


def label(objective, z):
    if objective.startswith("binary"):
        return 1.0 if z > 0 else 0.0
    if objective.startswith("multi"):
        return float(0 if z < -0.5 else 1 if z < 0.5 else 2)
    return z


def write_libsvm(path, rows, objective):
    with open(path, "w") as f:
        for z, cells in rows:
            items = " ".join(f"{c}:{v:.6g}" for c, v in sorted(cells.items()))
            f.write(f"{label(objective, z):.6g} {items}\n")


def run(*args):
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: {proc.stderr.strip()}")
    return proc


def model_core(text):
    doc = json.loads(text)
    return json.dumps({k: v for k, v in doc.items() if k not in ("params", "checksum")},
                      sort_keys=True)


def command_cases(devices, rows, tmp):
    failed = 0
    for i, (objective, params) in enumerate(CASES):
        data = tmp / f"sparse{i}.libsvm"
        write_libsvm(data, rows, objective)
        args = ["--data", data, "--objective", objective, "--num-round", "10",
                "--max-depth", "6", "--nthread", "2"]
        for p in params:
            args += ["--param", p]
        ref, ref_pred = tmp / f"cpu{i}.json", tmp / f"cpu{i}.csv"
        run(CLI, "train", *args, "--device", "cpu", "--model", ref)
        run(CLI, "predict", "--model", ref, "--data", data, "--device", "cpu",
            "--output", ref_pred)
        for dev in devices:
            name = f"{dev} LibSVM {objective} {' '.join(params)}"
            model, pred = tmp / f"{dev}{i}.json", tmp / f"{dev}{i}.csv"
            try:
                run(CLI, "train", *args, "--device", dev, "--model", model)
                run(CLI, "predict", "--model", ref, "--data", data, "--device", dev,
                    "--output", pred)
            except RuntimeError as e:
                print(f"FAILED: {name}: {e}")
                failed += 1
                continue
            same_model = model_core(model.read_text()) == model_core(ref.read_text())
            same_pred = pred.read_bytes() == ref_pred.read_bytes()
            failed += not (same_model and same_pred)
            print(f"{'ok' if same_model and same_pred else 'FAILED'}: {name} (model "
                  f"{'same' if same_model else 'DIFFERS'}, predictions "
                  f"{'same' if same_pred else 'DIFFER'})")
    return failed


def python_cases(devices, rows):
    try:
        import numpy as np
        from scipy import sparse
        sys.path.insert(0, str(REPO / "python"))
        import gpulayer
    except ImportError as e:
        print(f"SKIPPED: scipy.sparse through Python ({e})")
        return 0
    indptr, indices, values = [0], [], []
    for _, cells in rows:
        for c, v in sorted(cells.items()):
            indices.append(c)
            values.append(v)
        indptr.append(len(indices))
    X = sparse.csr_matrix((np.array(values), np.array(indices), np.array(indptr)),
                          shape=(ROWS, COLS))
    failed = 0
    for objective, params in CASES:
        y = np.array([label(objective, z) for z, _ in rows])
        p = {"objective": objective, "max_depth": 6, "nthread": 2}
        p.update(kv.split("=") for kv in params)
        cpu = gpulayer.train(dict(p, device="cpu"), gpulayer.Dataset(X, label=y), 10)
        for dev in devices:
            name = f"{dev} scipy CSR {objective} {' '.join(params)}"
            try:
                gpu = gpulayer.train(dict(p, device=dev), gpulayer.Dataset(X, label=y), 10)
            except Exception as e:  # the library's error, reported as a failure
                print(f"FAILED: {name}: {e}")
                failed += 1
                continue
            same = model_core(gpu.save_raw()) == model_core(cpu.save_raw())
            failed += not same
            print(f"{'ok' if same else 'FAILED'}: {name} (model "
                  f"{'same' if same else 'DIFFERS'})")
    return failed


def main(devices):
    rows = make_rows(7)
    with tempfile.TemporaryDirectory() as tmp:
        failed = command_cases(devices, rows, pathlib.Path(tmp))
    failed += python_cases(devices, rows)
    print(f"sparse backends: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["cuda"]))

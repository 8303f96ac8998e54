"""Models trained on the CPU are the same bytes from one commit to the next.

Each case trains with the command and compares the SHA-256 of the saved
model with tests/golden/models.sha256. A change that is meant to alter
models (a new default, a fixed bug) regenerates the file on purpose:

    GPULAYER_GOLDEN_UPDATE=1 python3 -m pytest tests/python/test_model_identity.py

Cases on ../shared/data are skipped where those datasets are absent.
"""
import hashlib
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "models.sha256"
DEMO = ROOT / "data" / "demo"
SHARED = ROOT.parent / "shared" / "data"

COMMON = ["--device", "cpu", "--quiet", "--num-round", "12"]

# name -> (data file, data folder, arguments)
CASES = {
    "fertility-binary-depthwise": (
        "fertility_train.csv.gz", DEMO,
        ["--label", "morekids", "--objective", "binary:logistic", "--max-depth", "6"]),
    "fertility-binary-lossguide": (
        "fertility_train.csv.gz", DEMO,
        ["--label", "morekids", "--objective", "binary:logistic",
         "--param", "grow_policy=lossguide", "--param", "max_leaves=31",
         "--max-depth", "0"]),
    "fertility-regression-sampled": (
        "fertility_train.csv.gz", DEMO,
        ["--label", "work", "--param", "subsample=0.7",
         "--param", "colsample_bytree=0.6", "--param", "max_bin=64", "--nthread", "1"]),
    "fertility-absolute-lossguide": (
        "fertility_train.csv.gz", DEMO,
        ["--label", "work", "--objective", "reg:absoluteerror",
         "--param", "grow_policy=lossguide", "--param", "max_leaves=15",
         "--max-depth", "5"]),
    "digits-multiclass-depthwise": (
        "sklearn_small/digits.csv", SHARED,
        ["--label", "target", "--objective", "multi:softprob",
         "--param", "num_class=10", "--max-depth", "4"]),
    "wine-multiclass-lossguide": (
        "sklearn_small/wine.csv", SHARED,
        ["--label", "target", "--objective", "multi:softmax",
         "--param", "num_class=3", "--param", "grow_policy=lossguide",
         "--param", "max_leaves=8"]),
    "diamonds-regression-depthwise": (
        "ggplot2_diamonds/diamonds.csv", SHARED,
        ["--label", "price", "--max-depth", "8", "--param", "min_child_weight=3",
         "--param", "lambda=2", "--param", "alpha=0.5", "--param", "gamma=1"]),
    "diamonds-regression-lossguide": (
        "ggplot2_diamonds/diamonds.csv", SHARED,
        ["--label", "price", "--param", "grow_policy=lossguide",
         "--param", "max_leaves=63", "--max-depth", "10"]),
    "credit-binary-missing": (
        "modeldata_credit/credit_data.csv", SHARED,
        ["--label", "Status", "--objective", "binary:logistic", "--max-depth", "5"]),
    "agaricus-libsvm-binary": (
        "xgb_agaricus/agaricus.txt.train", SHARED,
        ["--objective", "binary:logistic", "--max-depth", "3"]),
    "higgs-binary-weighted-tsv": (
        "lgbm_binary/binary.train", SHARED,
        ["--format", "tsv", "--no-header", "--objective", "binary:logistic",
         "--max-depth", "7", "--param", "max_bin=255"]),
}


def read_golden():
    golden = {}
    if GOLDEN.exists():
        for line in GOLDEN.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                name, digest = line.split()
                golden[name] = digest
    return golden


def write_golden(name, digest):
    golden = read_golden()
    golden[name] = digest
    lines = ["# SHA-256 of CPU models (tests/python/test_model_identity.py)"]
    lines += [f"{n} {golden[n]}" for n in sorted(golden)]
    GOLDEN.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_model_bytes_unchanged(name, cli, tmp_path):
    data, folder, args = CASES[name]
    path = folder / data
    if not path.exists():
        pytest.skip(f"{path} not present (../shared/data is only on project machines)")
    model = tmp_path / "model.json"
    run = subprocess.run([cli, "train", "--data", str(path), *COMMON, *args,
                          "--model", str(model)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    if os.environ.get("GPULAYER_GOLDEN_UPDATE") == "1":
        write_golden(name, digest)
        return
    golden = read_golden()
    assert name in golden, f"{name}: no recorded digest in {GOLDEN}"
    assert digest == golden[name], (
        f"{name}: the model's bytes changed (see the module docstring if "
        "this change is meant to alter models)")

"""Per-row base margins from Python: Dataset(base_margin=...) (and
LightGBM's init_score=) start training and prediction from them, one a row
or (rows, classes); bad shapes are refused."""

import json

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "nthread": 2, "device": "cpu"}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(1500, 4)).astype(np.float32)
    prior = rng.normal(size=1500).astype(np.float32)  # e.g. another model's margin
    y = (X[:, 0] + prior + rng.normal(size=1500) > 0).astype(np.float32)
    return X, y, prior


def trees(bst):
    return json.loads(bst.save_raw())["trees"]


def test_training_and_prediction_start_from_the_margins(data):
    X, y, prior = data
    plain = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 10)
    stacked = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y, base_margin=prior), 10)
    assert trees(stacked) != trees(plain)
    alias = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y, init_score=prior), 10)
    assert alias.save_raw() == stacked.save_raw()
    with_prior = stacked.predict(gpulayer.Dataset(X, base_margin=prior), output_margin=True)
    without = stacked.predict(X, output_margin=True)
    base = json.loads(stacked.save_raw())["base_margin"]
    np.testing.assert_allclose(with_prior - prior, without - base, atol=1e-5)
    # Knowing the prior helps: the stacked model's log loss is lower.
    p = 1 / (1 + np.exp(-with_prior.astype(np.float64)))
    q = plain.predict(X).astype(np.float64)
    loss = lambda v: -np.mean(y * np.log(v) + (1 - y) * np.log(1 - v))  # noqa: E731
    assert loss(p) < loss(q)


def test_multiclass_margins_and_errors(data):
    X, y, _ = data
    labels = (np.abs(X[:, 1]) * 2).astype(int).clip(0, 2).astype(np.float32)
    margins = np.zeros((1500, 3), dtype=np.float32)
    params = dict(PARAMS, objective="multi:softprob", num_class=3)
    bst = gpulayer.train(params, gpulayer.Dataset(X, label=labels, base_margin=margins), 3)
    assert bst.predict(gpulayer.Dataset(X, base_margin=margins)).shape == (1500, 3)
    with pytest.raises(InvalidArgumentError, match="1 value\\(s\\) a row, but the model has 3"):
        gpulayer.train(params, gpulayer.Dataset(X, label=labels, base_margin=margins[:, 0]), 1)
    with pytest.raises(ValueError, match="one value a row"):
        gpulayer.Dataset(X, base_margin=np.zeros(10))
    with pytest.raises(ValueError, match="base_margin or init_score"):
        gpulayer.Dataset(X, base_margin=margins[:, 0], init_score=margins[:, 0])
    bad = margins[:, 0].copy()
    bad[3] = np.nan
    with pytest.raises(InvalidArgumentError, match="base_margin"):
        gpulayer.Dataset(X, base_margin=bad)


def test_command_base_margin_files(tmp_path, data):
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cli = os.environ.get("GPULAYER_CLI", os.path.join(root, "build", "gpulayer"))
    X, y, prior = data
    csv = tmp_path / "train.csv"
    np.savetxt(csv, np.column_stack([y, X]), delimiter=",", header="y,a,b,c,d", comments="",
               fmt="%.8g")
    margins = tmp_path / "margins.txt"
    np.savetxt(margins, prior, fmt="%.9g")
    model = tmp_path / "m.json"
    r = subprocess.run([cli, "train", "--data", str(csv), "--label", "y", "--objective",
                        "binary:logistic", "--num-round", "10", "--max-depth", "3",
                        "--nthread", "2", "--device", "cpu", "--base-margin", str(margins),
                        "--model", str(model), "--quiet"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    ours = gpulayer.train(PARAMS, gpulayer.Dataset(
        np.loadtxt(csv, delimiter=",", skiprows=1)[:, 1:].astype(np.float32), label=y,
        base_margin=np.loadtxt(margins).astype(np.float32), feature_names=list("abcd")), 10)
    assert trees(gpulayer.Booster(model_file=model)) == trees(ours)
    out = tmp_path / "pred.csv"
    r = subprocess.run([cli, "predict", "--model", str(model), "--data", str(csv), "--label",
                        "y", "--base-margin", str(margins), "--margin", "--output", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = np.loadtxt(out, ndmin=1).astype(np.float32)  # one margin a line, no header
    want = ours.predict(gpulayer.Dataset(X, base_margin=prior), output_margin=True)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    bad = tmp_path / "bad.txt"
    bad.write_text("0.5\nnope\n")
    r = subprocess.run([cli, "predict", "--model", str(model), "--data", str(csv), "--label",
                        "y", "--base-margin", str(bad), "--output", str(out)],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "bad.txt:2: 'nope' is not a number" in r.stderr
    # 1e39 is a number, but not one a float holds: said so, not "not finite".
    for text, why in (("1e39", "is beyond the float range"), ("-inf", "is not finite")):
        bad.write_text(f"0.5\n{text}\n")
        r = subprocess.run([cli, "predict", "--model", str(model), "--data", str(csv),
                            "--label", "y", "--base-margin", str(bad), "--output", str(out)],
                           capture_output=True, text=True)
        assert r.returncode != 0 and f"bad.txt:2: '{text}' {why}" in r.stderr, r.stderr

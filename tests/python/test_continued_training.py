"""Continued training: xgb_model= / init_model= in Python and --model-in
on the command give, after N and then M rounds, the model of N + M rounds
in one go; evaluation history numbers on; mismatched data is refused."""

import json
import os
import subprocess

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("GPULAYER_CLI", os.path.join(ROOT, "build", "gpulayer"))

PARAMS = {"objective": "binary:logistic", "max_depth": 4, "eta": 0.3, "subsample": 0.8,
          "colsample_bytree": 0.8, "seed": 7, "nthread": 2, "device": "cpu",
          "eval_metric": "logloss"}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 6)).astype(np.float32)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) * np.nan_to_num(X[:, 2])
         + rng.normal(size=3000) > 0).astype(np.float32)
    names = [f"f{i}" for i in range(6)]
    return (gpulayer.Dataset(X[:2400], label=y[:2400], feature_names=names),
            gpulayer.Dataset(X[2400:], label=y[2400:], feature_names=names), X, y)


def test_parts_give_the_whole(data, tmp_path):
    dtrain, dvalid, X, _ = data
    whole_hist, first_hist, rest_hist = {}, {}, {}
    whole = gpulayer.train(PARAMS, dtrain, 12, evals=[(dvalid, "valid")],
                           evals_result=whole_hist)
    first = gpulayer.train(PARAMS, dtrain, 5, evals=[(dvalid, "valid")],
                           evals_result=first_hist)
    before = first.save_raw()
    rounds = []
    rest = gpulayer.train(PARAMS, dtrain, 7, evals=[(dvalid, "valid")], xgb_model=first,
                          evals_result=rest_hist, callbacks=[lambda r, _: rounds.append(r)])
    assert first.save_raw() == before  # the given booster is not changed
    assert rest.num_rounds == 12 and rounds == list(range(5, 12))
    assert rest.save_raw() == whole.save_raw()
    np.testing.assert_array_equal(rest.predict(X), whole.predict(X))
    assert (first_hist["valid"]["logloss"] + rest_hist["valid"]["logloss"]
            == whole_hist["valid"]["logloss"])
    # From a saved file, under LightGBM's name.
    path = tmp_path / "first.json"
    first.save_model(path)
    again = gpulayer.train(PARAMS, dtrain, 7, init_model=str(path))
    assert again.save_raw() == whole.save_raw()


def test_mismatches_are_refused(data):
    dtrain, _, X, y = data
    first = gpulayer.train(PARAMS, dtrain, 3)
    narrow = gpulayer.Dataset(X[:, :5], label=y)
    with pytest.raises(InvalidArgumentError, match="6 features, the training data 5 columns"):
        gpulayer.train(PARAMS, narrow, 2, xgb_model=first)
    renamed = gpulayer.Dataset(X, label=y, feature_names=[f"g{i}" for i in range(6)])
    with pytest.raises(InvalidArgumentError, match="feature 0 is 'f0' in the initial model"):
        gpulayer.train(PARAMS, renamed, 2, xgb_model=first)
    with pytest.raises(InvalidArgumentError, match="reg:squarederror"):
        gpulayer.train(dict(PARAMS, objective="reg:squarederror"), dtrain, 2, xgb_model=first)
    with pytest.raises(ValueError, match="two initial models"):
        gpulayer.train(PARAMS, dtrain, 2, xgb_model=first, init_model=first)


def test_command_model_in(tmp_path):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(800, 3))
    y = (X[:, 0] - X[:, 1] > 0).astype(int)
    data = tmp_path / "train.csv"
    np.savetxt(data, np.column_stack([y, X]), delimiter=",", header="y,a,b,c", comments="",
               fmt="%.6g")
    common = ["--data", str(data), "--label", "y", "--objective", "binary:logistic",
              "--device", "cpu", "--nthread", "2", "--quiet"]

    def train(rounds, model, *extra):
        r = subprocess.run([CLI, "train", *common, "--num-round", str(rounds), "--model",
                            str(model), *extra], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        return model.read_bytes()

    whole = train(9, tmp_path / "whole.json")
    train(4, tmp_path / "first.json")
    rest = train(5, tmp_path / "rest.json", "--model-in", str(tmp_path / "first.json"))
    assert rest == whole
    r = subprocess.run([CLI, "train", *common, "--model", str(tmp_path / "x.json"),
                        "--model-in", str(tmp_path / "missing.json")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "missing.json" in r.stderr


def test_the_model_objective_is_kept_unless_given(data, tmp_path):
    """Without an objective, continued training takes the initial model's,
    with its objective parameters (XGBoost keeps a loaded model's); an
    objective parameter given still wins."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(600, 3))
    y = np.exp(X[:, 0]) * rng.gamma(2.0, 1.0, 600) * (rng.random(600) < 0.7)
    dtrain = gpulayer.Dataset(X, label=y)
    tweedie = {"objective": "reg:tweedie", "tweedie_variance_power": 1.2, "nthread": 2,
               "device": "cpu"}
    whole = gpulayer.train(tweedie, dtrain, 6)
    first = gpulayer.train(tweedie, dtrain, 3)
    rest = gpulayer.train({"nthread": 2, "device": "cpu"}, dtrain, 3, xgb_model=first)
    assert rest.save_raw() == whole.save_raw()
    other = gpulayer.train({"nthread": 2, "device": "cpu", "tweedie_variance_power": 1.6},
                           dtrain, 3, xgb_model=first)
    assert other.save_raw() != whole.save_raw()
    assert float(json.loads(other.save_raw())["params"]["tweedie_variance_power"]) == 1.6
    # The command: --model-in alone.
    data_csv = tmp_path / "tw.csv"
    np.savetxt(data_csv, np.column_stack([y, X]), delimiter=",", header="y,a,b,c",
               comments="", fmt="%.9g")
    base = [CLI, "train", "--data", str(data_csv), "--label", "y", "--device", "cpu",
            "--nthread", "2", "--quiet"]
    r = subprocess.run(base + ["--objective", "reg:tweedie", "--param",
                               "tweedie_variance_power=1.2", "--num-round", "3", "--model",
                               str(tmp_path / "first.json")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(base + ["--model-in", str(tmp_path / "first.json"), "--num-round", "3",
                               "--model", str(tmp_path / "rest.json")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    params = json.loads((tmp_path / "rest.json").read_text())["params"]
    assert params["objective"] == "reg:tweedie"
    assert float(params["tweedie_variance_power"]) == 1.2


def test_estimators_continue_and_take_base_margins(data):
    pytest.importorskip("sklearn")
    _, _, X, y = data
    whole = gpulayer.GPULayerClassifier(n_estimators=8, max_depth=3, random_state=1).fit(X, y)
    first = gpulayer.GPULayerClassifier(n_estimators=3, max_depth=3, random_state=1).fit(X, y)
    rest = gpulayer.GPULayerClassifier(n_estimators=5, max_depth=3, random_state=1)
    rest.fit(X, y, xgb_model=first)
    assert rest.get_booster().save_raw() == whole.get_booster().save_raw()
    prior = np.where(y > 0, 0.5, -0.5).astype(np.float32)
    reg = gpulayer.GPULayerRegressor(n_estimators=3, max_depth=3)
    with_prior = reg.fit(X, y, base_margin=prior).get_booster().save_raw()
    alias = gpulayer.GPULayerRegressor(n_estimators=3, max_depth=3)
    assert alias.fit(X, y, init_score=prior).get_booster().save_raw() == with_prior
    with pytest.raises(ValueError, match="base_margin or init_score"):
        reg.fit(X, y, base_margin=prior, init_score=prior)

"""A softmax model starts each class at its intercept, as XGBoost 3.2 does:
the log of the class's share of the training weight, less the mean of
those logs. Checked against XGBoost's own estimate (its base_score vector),
through prediction, SHAP's bias column, the model file and the export."""

import json

import numpy as np
import pytest

import gpulayer

xgb = pytest.importorskip("xgboost")

PARAMS = {"max_depth": 3, "nthread": 2, "device": "cpu"}


def xgboost_intercepts(X, y, w, params):
    bst = xgb.train({**params, "nthread": 2}, xgb.DMatrix(X, label=y, weight=w), 1)
    config = json.loads(bst.save_config())["learner"]["learner_model_param"]
    return np.array(json.loads(config["base_score"]), dtype=np.float64)


def ours(X, y, w, params, rounds=1):
    bst = gpulayer.train({**PARAMS, **params}, gpulayer.Dataset(X, label=y, weight=w), rounds)
    return bst, json.loads(bst.save_raw())


CASES = {
    "skewed": (4, [0.6, 0.25, 0.1, 0.05], False),
    "weighted": (3, [0.5, 0.3, 0.2], True),
    "a class without rows": (3, [0.7, 0.3, 0.0], False),
    "ten classes": (10, [0.1] * 10, True),
}


@pytest.mark.parametrize("objective", ["multi:softprob", "multi:softmax"])
@pytest.mark.parametrize("case", CASES)
def test_intercepts_are_xgboosts(case, objective):
    K, shares, weighted = CASES[case]
    rng = np.random.default_rng(len(case) + K)
    X = rng.normal(size=(2000, 4)).astype(np.float32)
    y = rng.choice(K, size=2000, p=shares).astype(np.float32)
    w = rng.uniform(0.2, 3.0, size=2000).astype(np.float32) if weighted else None
    params = {"objective": objective, "num_class": K}
    _, doc = ours(X, y, w, params)
    got = np.array(doc["base_margins"], dtype=np.float64)
    want = xgboost_intercepts(X, y, w, params)
    # XGBoost sums the weights in float; we sum in double.
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-6)
    assert abs(got.mean()) < 1e-6
    if case == "a class without rows":
        assert got[2] < got[0] - 13  # log(1e-6) against log(0.7)


def test_prediction_and_shap_start_from_the_intercepts():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(800, 3)).astype(np.float32)
    y = rng.choice(3, size=800, p=[0.6, 0.3, 0.1]).astype(np.float32)
    bst, doc = ours(X, y, None, {"objective": "multi:softprob", "num_class": 3}, rounds=4)
    assert len(set(doc["base_margins"])) == 3
    margin = bst.predict(X, output_margin=True)
    contribs = bst.predict(X, pred_contribs=True).reshape(800, 3, 4)
    np.testing.assert_allclose(contribs.sum(axis=2), margin, rtol=1e-5, atol=1e-5)
    # With a learning rate of 1e-7 every leaf is about 0: the margins are
    # the intercepts, the probabilities the class shares, and SHAP's bias
    # column the intercepts.
    tiny, doc = ours(X, y, None, {"objective": "multi:softprob", "num_class": 3, "eta": 1e-7})
    base = np.tile(np.array(doc["base_margins"], dtype=np.float32), (5, 1))
    np.testing.assert_allclose(tiny.predict(X[:5], output_margin=True), base, atol=1e-6)
    shares = np.bincount(y.astype(int), minlength=3) / len(y)
    np.testing.assert_allclose(tiny.predict(X[:5]), np.tile(shares, (5, 1)), rtol=1e-5)
    bias = tiny.predict(X[:5], pred_contribs=True).reshape(5, 3, 4)[:, :, 3]
    np.testing.assert_allclose(bias, base, atol=1e-6)


def test_a_given_base_score_starts_every_class():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(500, 3)).astype(np.float32)
    y = rng.choice(3, size=500, p=[0.6, 0.3, 0.1]).astype(np.float32)
    bst, doc = ours(X, y, None, {"objective": "multi:softprob", "num_class": 3,
                                 "base_score": 0.25, "eta": 1e-7})
    assert "base_margins" not in doc
    np.testing.assert_allclose(bst.predict(X[:3], output_margin=True),
                               np.full((3, 3), 0.25, dtype=np.float32), atol=1e-6)


def test_the_export_carries_the_intercepts(tmp_path):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(700, 4)).astype(np.float32)
    y = rng.choice(4, size=700, p=[0.4, 0.3, 0.2, 0.1]).astype(np.float32)
    bst, doc = ours(X, y, None, {"objective": "multi:softprob", "num_class": 4}, rounds=5)
    path = tmp_path / "xgb.json"
    bst.export_xgboost(str(path))
    theirs = xgb.Booster(model_file=str(path))
    np.testing.assert_allclose(theirs.predict(xgb.DMatrix(X), output_margin=True),
                               bst.predict(X, output_margin=True), rtol=1e-6, atol=1e-6)
    config = json.loads(theirs.save_config())["learner"]["learner_model_param"]
    np.testing.assert_array_equal(np.array(json.loads(config["base_score"]), dtype=np.float32),
                                  np.array(doc["base_margins"], dtype=np.float32))

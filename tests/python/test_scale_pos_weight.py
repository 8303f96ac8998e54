"""scale_pos_weight (XGBoost's): rows of label 1 weigh more in training,
as in XGBoost; the metrics and the cuts do not see it."""
import json

import numpy as np
import pytest

import gpulayer

xgb = pytest.importorskip("xgboost")


def imbalanced(seed=0, rows=4000):
    r = np.random.default_rng(seed)
    x = r.normal(size=(rows, 5)).astype(np.float32)
    z = x[:, 0] + 0.5 * x[:, 1] * x[:, 2] - 2.0
    y = (z + r.logistic(size=rows) > 0).astype(np.float32)
    return x, y


@pytest.mark.parametrize("objective", ["binary:logistic", "reg:logistic", "reg:squarederror"])
def test_base_score_is_xgboosts(objective):
    x, y = imbalanced()
    ours = gpulayer.train({"objective": objective, "scale_pos_weight": 5}, gpulayer.Dataset(x, y), 1)
    theirs = xgb.train({"objective": objective, "scale_pos_weight": 5}, xgb.DMatrix(x, y), 1)
    their_base = json.loads(theirs.save_config())["learner"]["learner_model_param"]["base_score"]
    ours_base = json.loads(ours.save_raw())["base_score"]
    assert ours_base == pytest.approx(float(their_base.strip("[]")), rel=1e-5)


def test_predictions_follow_xgboosts():
    from sklearn.metrics import roc_auc_score
    x, y = imbalanced(1, rows=8000)
    xt, yt = imbalanced(11, rows=8000)
    params = {"objective": "binary:logistic", "scale_pos_weight": 6, "max_depth": 4, "eta": 0.1}
    plain = gpulayer.train({**params, "scale_pos_weight": 1}, gpulayer.Dataset(x, y), 100)
    ours = gpulayer.train(params, gpulayer.Dataset(x, y), 100).predict(gpulayer.Dataset(xt))
    theirs = xgb.train({**params, "tree_method": "hist"}, xgb.DMatrix(x, y), 100).predict(
        xgb.DMatrix(xt))
    # Positives weigh more: the mean prediction moves up, by XGBoost's amount.
    assert abs(ours.mean() - theirs.mean()) < 0.01
    assert ours.mean() > plain.predict(gpulayer.Dataset(xt)).mean() + 0.1
    assert roc_auc_score(yt, ours) >= roc_auc_score(yt, theirs) * (1 - 0.005)


def test_one_is_no_scale_and_metrics_are_unweighted():
    x, y = imbalanced(2)
    data = gpulayer.Dataset(x, y)
    a = gpulayer.train({"objective": "binary:logistic"}, data, 5)
    b = gpulayer.train({"objective": "binary:logistic", "scale_pos_weight": 1}, data, 5)
    np.testing.assert_array_equal(a.predict(data), b.predict(data))
    log = {}
    c = gpulayer.train({"objective": "binary:logistic", "scale_pos_weight": 4,
                        "eval_metric": "logloss"}, data, 5, evals=[(data, "train")],
                       evals_result=log)
    p = np.clip(c.predict(data).astype(np.float64), 1e-15, 1 - 1e-15)
    unweighted = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    assert log["train"]["logloss"][-1] == pytest.approx(unweighted, rel=1e-5)


def test_objectives_without_it_ignore_it():
    r = np.random.default_rng(3)
    x = r.normal(size=(500, 3)).astype(np.float32)
    y = r.poisson(2.0, size=500).astype(np.float32)
    data = gpulayer.Dataset(x, y)
    a = gpulayer.train({"objective": "count:poisson"}, data, 3)
    b = gpulayer.train({"objective": "count:poisson", "scale_pos_weight": 9}, data, 3)
    np.testing.assert_array_equal(a.predict(data), b.predict(data))

"""survival:cox: XGBoost's gradients (its CoxRegression written out in
numpy here: risk sets by |label|, Breslow's ties, negative labels
censored), its cox-nloglik metric, and the model in XGBoost."""
import json

import numpy as np
import pytest

import gpulayer


def xgboost_gradients(margins, label, weight):
    """CoxRegression::GetGradient of XGBoost, step for step."""
    order = np.argsort(np.abs(label), kind="stable")
    exp_p = np.exp(margins.astype(np.float64))
    exp_p_sum = exp_p.sum()
    r_k = s_k = last_exp_p = last_abs_y = accumulated = 0.0
    g, h = np.zeros(len(label)), np.zeros(len(label))
    for i in order:
        y = float(label[i])
        accumulated += last_exp_p
        if last_abs_y < abs(y):
            exp_p_sum -= accumulated
            accumulated = 0.0
        if y > 0:
            r_k += 1.0 / exp_p_sum
            s_k += 1.0 / (exp_p_sum * exp_p_sum)
        g[i] = (exp_p[i] * r_k - (y > 0)) * weight[i]
        h[i] = (exp_p[i] * r_k - exp_p[i] * exp_p[i] * s_k) * weight[i]
        last_abs_y, last_exp_p = abs(y), exp_p[i]
    return g, h


def nloglik(label, pred):
    pred = np.asarray(pred, dtype=np.float64)
    order = np.argsort(np.abs(label), kind="stable")
    risk, passed, out, events = float(np.sum(pred.astype(np.float64))), 0.0, 0.0, 0
    for i, r in enumerate(order):
        if label[r] > 0:
            out -= np.log(pred[r]) - np.log(risk)
            events += 1
        passed += pred[r]
        if i == len(order) - 1 or abs(label[r]) < abs(label[order[i + 1]]):
            risk -= passed
            passed = 0.0
    return out / events


def data(rows=1500, seed=5):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 4)).astype(np.float32)
    time = np.round(rng.exponential(np.exp(-(x[:, 0] - 0.5 * x[:, 1]))) * 20) / 20 + 0.05
    censored = rng.random(rows) < 0.3
    y = np.where(censored, -time, time).astype(np.float32)
    w = rng.uniform(0.5, 2.0, rows).astype(np.float32)
    return x, y, w


def test_first_round_leaves_are_newton_steps_of_xgboost_gradients():
    x, y, w = data()
    booster = gpulayer.train({"objective": "survival:cox", "max_depth": 2, "eta": 1.0,
                              "reg_lambda": 0.0, "min_child_weight": 0.0, "nthread": 2},
                             gpulayer.Dataset(x, y, weight=w), 1)
    margins = booster.predict(x, output_margin=True)
    leaves = booster.predict(x, pred_leaf=True)[:, 0]
    g, h = xgboost_gradients(np.zeros(len(y)), y, w.astype(np.float64))
    assert len(np.unique(leaves)) > 1
    for leaf in np.unique(leaves):
        rows = leaves == leaf
        np.testing.assert_allclose(margins[rows], -g[rows].sum() / h[rows].sum(), rtol=1e-5,
                                   err_msg=f"leaf {leaf}")


def test_predictions_metric_and_base_score():
    x, y, w = data()
    result = {}
    dtrain = gpulayer.Dataset(x, y, weight=w)
    # A second set of other rows: each set's order by time is its own
    # (sorted at its first round, then kept).
    held = slice(len(y) // 3, None)
    dvalid = gpulayer.Dataset(x[held], y[held])
    booster = gpulayer.train({"objective": "survival:cox", "max_depth": 3, "nthread": 2},
                             dtrain, 20, evals=[(dtrain, "train"), (dvalid, "valid")],
                             evals_result=result, verbose_eval=False)
    pred = booster.predict(x)
    np.testing.assert_allclose(pred, np.exp(booster.predict(x, output_margin=True)), rtol=1e-6)
    assert list(result["train"]) == ["cox-nloglik"]
    assert result["train"]["cox-nloglik"][-1] == pytest.approx(nloglik(y, pred), rel=1e-6)
    assert result["valid"]["cox-nloglik"][-1] == pytest.approx(nloglik(y[held], pred[held]),
                                                                rel=1e-6)
    assert result["train"]["cox-nloglik"][-1] < result["train"]["cox-nloglik"][0]
    start = gpulayer.train({"objective": "survival:cox"}, dtrain, 0)
    assert np.all(start.predict(x[:3]) == 1.0)


def test_xgboost_loads_the_export(tmp_path):
    xgb = pytest.importorskip("xgboost")
    x, y, w = data()
    booster = gpulayer.train({"objective": "survival:cox", "max_depth": 4, "nthread": 2},
                             gpulayer.Dataset(x, y, weight=w), 15)
    path = tmp_path / "xgboost.json"
    booster.export_xgboost(str(path))
    assert json.loads(path.read_text())["learner"]["objective"]["name"] == "survival:cox"
    theirs = xgb.Booster(model_file=str(path)).predict(xgb.DMatrix(x))
    np.testing.assert_allclose(theirs, booster.predict(x), rtol=1e-5)


def test_labels_must_be_finite():
    x, y, w = data(100)
    y[7] = np.nan
    with pytest.raises(gpulayer.GPULayerError, match="label"):
        gpulayer.train({"objective": "survival:cox"}, gpulayer.Dataset(x, y), 1)

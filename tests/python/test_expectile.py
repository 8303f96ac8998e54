"""reg:expectileerror: XGBoost's gradients, chain and intercepts (from its
expectile_obj.cc, written out in numpy here: XGBoost 3.2, the newest these
machines install, has no such objective), its metric, and the model's
trip through the model file and the XGBoost export."""
import json

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import GPULayerError

GAP = float(np.float32(1e-6))
ALPHAS = [0.2, 0.5, 0.9]


def softplus(x):
    return np.where(x > 0, x + np.log1p(np.exp(-np.abs(x))), np.log1p(np.exp(np.minimum(x, 0))))


def chain(margins):
    out = np.array(margins, dtype=np.float64)
    for k in range(1, out.shape[1]):
        out[:, k] = out[:, k - 1] + GAP + softplus(out[:, k])
    return out


def gradients(margins, y, w, alphas):
    a = np.asarray(alphas)
    diff = chain(margins) - y[:, None]
    c = np.where(diff >= 0, 1.0 - a, a)
    g = np.cumsum((c * diff)[:, ::-1], axis=1)[:, ::-1]
    h = np.cumsum(c[:, ::-1], axis=1)[:, ::-1]
    s = np.ones_like(margins, dtype=np.float64)
    s[:, 1:] = 1.0 / (1.0 + np.exp(-np.asarray(margins, dtype=np.float64)[:, 1:]))
    return s * g * w[:, None], s * s * h * w[:, None]


def intercepts(y, w, alphas):
    mean = np.sum(w * y) / np.sum(w)
    out = []
    for a in alphas:
        diff = mean - y
        c = np.where(diff >= 0, 1.0 - a, a)
        out.append(mean - np.sum(c * diff * w) / np.sum(c * w))
    return np.maximum.accumulate(np.asarray(out))


def data(rows=2000, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, 4)).astype(np.float32)
    y = (2.0 * x[:, 0] - x[:, 1] + rng.standard_t(3, rows)).astype(np.float32)
    w = rng.uniform(0.5, 2.0, rows).astype(np.float32)
    return x, y, w


def train(x, y, w, rounds, **params):
    params = {"objective": "reg:expectileerror", "expectile_alpha": ALPHAS, "nthread": 2,
              **params}
    return gpulayer.train(params, gpulayer.Dataset(x, y, weight=w), rounds)


def test_intercepts_are_xgboosts():
    x, y, w = data()
    booster = train(x, y, w, 0)
    start = chain(booster.predict(x[:5], output_margin=True))
    want = intercepts(y.astype(np.float64), w.astype(np.float64), ALPHAS)
    np.testing.assert_allclose(start, np.tile(want, (5, 1)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(booster.predict(x[:5]), start, rtol=1e-6)


def test_first_round_leaves_are_newton_steps_of_xgboost_gradients():
    """Every output's stump of round 0 holds -G/H of XGBoost's gradients at
    the round's start (the base margins), although output 0's tree moves
    its margins before output 1's is grown."""
    x, y, w = data()
    booster = train(x, y, w, 1, max_depth=1, eta=1.0, reg_lambda=0.0, min_child_weight=0.0)
    base = gpulayer.train({"objective": "reg:expectileerror", "expectile_alpha": ALPHAS},
                          gpulayer.Dataset(x, y, weight=w), 0)
    m0 = base.predict(x, output_margin=True)
    leaf_value = booster.predict(x, output_margin=True) - m0
    leaves = booster.predict(x, pred_leaf=True)
    g, h = gradients(m0, y.astype(np.float64), w.astype(np.float64), ALPHAS)
    for k in range(len(ALPHAS)):
        for leaf in np.unique(leaves[:, k]):
            rows = leaves[:, k] == leaf
            step = -g[rows, k].sum() / h[rows, k].sum()
            np.testing.assert_allclose(leaf_value[rows, k], step, rtol=1e-5,
                                       err_msg=f"output {k} leaf {leaf}")


def test_outputs_never_cross_and_the_metric_is_xgboosts():
    x, y, w = data()
    result = {}
    params = {"objective": "reg:expectileerror", "expectile_alpha": ALPHAS, "max_depth": 4}
    dtrain = gpulayer.Dataset(x, y, weight=w)
    booster = gpulayer.train(params, dtrain, 30, evals=[(dtrain, "train")],
                             evals_result=result, verbose_eval=False)
    pred = booster.predict(x)
    assert pred.shape == (len(y), 3)
    assert (np.diff(pred, axis=1) > 0).all()
    below = [(y < pred[:, k]).mean() for k in range(3)]
    assert below[0] < below[1] < below[2]
    d = pred.astype(np.float64) - y[:, None]
    c = np.where(d >= 0, 1.0 - np.asarray(ALPHAS), np.asarray(ALPHAS))
    per_alpha = (c * d * d * w[:, None]).sum(axis=0) / w.sum()
    figures = result["train"]
    assert list(figures) == ["expectile@0.2", "expectile@0.5", "expectile@0.9", "expectile"]
    for k, a in enumerate(ALPHAS):
        assert figures[f"expectile@{a}"][-1] == pytest.approx(per_alpha[k], rel=1e-5)
    assert figures["expectile"][-1] == pytest.approx(per_alpha.mean(), rel=1e-5)


def test_one_alpha_is_asymmetric_squared_error():
    """With alpha 0.5 the objective is half the squared error: the model of
    squared error with twice the L2 and the hessian floor."""
    x, y, w = data()
    a = train(x, y, w, 10, expectile_alpha=0.5, max_depth=4)
    b = gpulayer.train({"objective": "reg:squarederror", "reg_lambda": 2.0,
                        "min_child_weight": 2.0, "max_depth": 4, "nthread": 2},
                       gpulayer.Dataset(x, y, weight=w), 10)
    np.testing.assert_allclose(a.predict(x), b.predict(x), rtol=1e-5, atol=1e-5)


def test_model_file_and_xgboost_export_keep_the_chain(tmp_path):
    x, y, w = data()
    booster = train(x, y, w, 8, max_depth=3)
    path = tmp_path / "model.json"
    booster.save_model(str(path))
    again = gpulayer.Booster(model_file=str(path))
    assert np.array_equal(again.predict(x), booster.predict(x))
    exported = tmp_path / "xgboost.json"
    booster.export_xgboost(str(exported))
    learner = json.loads(exported.read_text())["learner"]
    assert learner["objective"]["name"] == "reg:expectileerror"
    assert json.loads(learner["objective"]["expectile_loss_param"]["expectile_alpha"]) == ALPHAS
    assert learner["learner_model_param"]["num_target"] == "3"
    base = json.loads(learner["learner_model_param"]["base_score"])
    assert len(base) == 3 and base[0] < base[1] < base[2]
    imported = gpulayer.Booster(model_file=str(exported))
    np.testing.assert_allclose(imported.predict(x), booster.predict(x), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("value", ["1.5", "0", "[0.2,abc]", "[]"])
def test_bad_alphas_are_refused_by_name(value):
    x, y, w = data(100)
    with pytest.raises(GPULayerError, match="expectile_alpha"):
        train(x, y, w, 1, expectile_alpha=value)

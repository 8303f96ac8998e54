"""Evaluation metrics against XGBoost's own figures on the same predictions,
the default metric of each objective, early stopping's direction, and the
errors for bad metric names.

XGBoost is given our model's margins as base_margin and no trees, so it
evaluates exactly the predictions we evaluated; the figures differ only
by XGBoost computing each row's loss in float32 (we use float64).
"""

import math

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError

# XGBoost's per-row float32 losses against our float64 ones differ by a
# few parts in 1e8.
RTOL = 5e-7

COMMON = {"eta": 0.3, "max_depth": 3, "nthread": 2, "device": "cpu"}


def make_data(kind, n=600, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4)).astype(np.float32)
    signal = 0.6 * X[:, 0] - 0.4 * X[:, 1]
    if kind == "positive":
        y = np.exp(signal + 0.3 * rng.normal(size=n))
    elif kind == "count":
        y = rng.poisson(np.exp(signal))
    elif kind == "tweedie":
        y = np.where(rng.random(n) < 0.3, 0.0, rng.gamma(2.0, np.exp(signal)))
    elif kind == "class3":
        y = np.digitize(signal + 0.5 * rng.normal(size=n), [-0.4, 0.4])
    elif kind == "binary":
        y = (rng.random(n) < 1 / (1 + np.exp(-2 * signal))).astype(np.float64)
    else:
        raise ValueError(kind)
    w = rng.uniform(0.2, 3.0, size=n).astype(np.float32)
    return X, y.astype(np.float32), w


def train_ours(params, X, y, w, rounds=2, **kw):
    half = len(y) // 2
    dtrain = gpulayer.Dataset(X[:half], label=y[:half], weight=w[:half])
    dvalid = gpulayer.Dataset(X[half:], label=y[half:], weight=w[half:])
    history = {}
    bst = gpulayer.train({**COMMON, **params}, dtrain, rounds, evals=[(dvalid, "v")],
                         evals_result=history, **kw)
    return bst, history["v"], half


def xgboost_figures(xgb, params, X, y, w, margins, metrics):
    """XGBoost's figures for predictions whose margins are given."""
    d = xgb.DMatrix(X, label=y, weight=w, base_margin=margins)
    booster = xgb.train({**params, "eval_metric": metrics}, d, 0)
    fields = booster.eval_set([(d, "v")]).split("\t")[1:]
    return {name[len("v-"):]: float(value)
            for name, value in (f.rsplit(":", 1) for f in fields)}


CASES = [
    # objective, data, its parameters, metrics
    ("reg:squarederror", "positive", {"huber_slope": 1.5}, ["rmsle", "mape", "mphe"]),
    ("count:poisson", "count", {}, ["poisson-nloglik", "rmse", "mae"]),
    ("reg:gamma", "positive", {}, ["gamma-nloglik", "gamma-deviance", "mape"]),
    ("reg:tweedie", "tweedie", {"tweedie_variance_power": 1.3},
     ["tweedie-nloglik@1.3", "tweedie-nloglik@1.7", "poisson-nloglik"]),
    ("reg:pseudohubererror", "positive", {"huber_slope": 2.0}, ["mphe", "rmsle"]),
    ("reg:squaredlogerror", "positive", {}, ["rmsle"]),
    ("reg:absoluteerror", "positive", {"quantile_alpha": 0.5}, ["mae", "quantile"]),
    ("reg:quantileerror", "positive", {"quantile_alpha": 0.3}, ["quantile", "mae"]),
    ("binary:logistic", "binary", {},
     ["logloss", "error", "error@0.7", "error@0.2", "auc", "aucpr"]),
    ("binary:logitraw", "binary", {}, ["logloss", "error@0", "auc", "aucpr"]),
    ("binary:hinge", "binary", {}, ["error", "error@0.3"]),
    ("reg:logistic", "binary", {}, ["rmse", "logloss", "aucpr"]),
    ("multi:softprob", "class3", {"num_class": 3}, ["mlogloss", "merror"]),
]


@pytest.mark.parametrize("objective,data,extra,metrics", CASES,
                         ids=[c[0] + ":" + ",".join(c[3]) for c in CASES])
def test_figures_equal_xgboost(objective, data, extra, metrics):
    xgb = pytest.importorskip("xgboost")
    X, y, w = make_data(data)
    params = {"objective": objective, **extra}
    bst, ours, half = train_ours({**params, "eval_metric": metrics}, X, y, w)
    assert list(ours) == metrics
    margins = bst.predict(X[half:], output_margin=True)
    theirs = xgboost_figures(xgb, params, X[half:], y[half:], w[half:], margins, metrics)
    assert list(theirs) == metrics
    for name in metrics:
        assert math.isfinite(ours[name][-1]), name
        assert ours[name][-1] == pytest.approx(theirs[name], rel=RTOL), name


def test_quantile_one_figure_per_alpha_then_their_mean():
    xgb = pytest.importorskip("xgboost")
    X, y, w = make_data("positive")
    alphas = [0.1, 0.5, 0.9]
    params = {"objective": "reg:quantileerror", "quantile_alpha": "[0.1,0.5,0.9]",
              "eval_metric": "quantile"}
    bst, ours, half = train_ours(params, X, y, w)
    assert list(ours) == ["quantile@0.1", "quantile@0.5", "quantile@0.9", "quantile"]
    margins = bst.predict(X[half:], output_margin=True)
    assert margins.shape == (len(y) - half, 3)
    both = {"objective": "reg:quantileerror", "quantile_alpha": alphas}
    mean = xgboost_figures(xgb, both, X[half:], y[half:], w[half:], margins, ["quantile"])
    assert ours["quantile"][-1] == pytest.approx(mean["quantile"], rel=RTOL)
    for k, a in enumerate(alphas):
        one = {"objective": "reg:quantileerror", "quantile_alpha": a}
        theirs = xgboost_figures(xgb, one, X[half:], y[half:], w[half:],
                                 margins[:, k].copy(), ["quantile"])
        assert ours[f"quantile@{a:g}"][-1] == pytest.approx(theirs["quantile"], rel=RTOL)
    for r in range(2):
        assert ours["quantile"][r] == pytest.approx(
            np.mean([ours[f"quantile@{a:g}"][r] for a in alphas]), rel=1e-12)


# The metric XGBoost 3.2 reports for each objective when given none.
DEFAULTS = [
    ("reg:squarederror", "positive", {}, "rmse"),
    ("reg:squaredlogerror", "positive", {}, "rmsle"),
    ("reg:pseudohubererror", "positive", {}, "mphe"),
    ("reg:absoluteerror", "positive", {}, "mae"),
    ("reg:quantileerror", "positive", {"quantile_alpha": 0.5}, "quantile"),
    ("reg:gamma", "positive", {}, "gamma-deviance"),
    ("reg:tweedie", "tweedie", {}, "tweedie-nloglik@1.5"),
    ("reg:tweedie", "tweedie", {"tweedie_variance_power": 1.3}, "tweedie-nloglik@1.3"),
    ("count:poisson", "count", {}, "poisson-nloglik"),
    ("reg:logistic", "binary", {}, "rmse"),
    ("binary:logistic", "binary", {}, "logloss"),
    ("binary:logitraw", "binary", {}, "logloss"),
    ("binary:hinge", "binary", {}, "error"),
    ("multi:softprob", "class3", {"num_class": 3}, "mlogloss"),
]


@pytest.mark.parametrize("objective,data,extra,name", DEFAULTS,
                         ids=[f"{c[0]}{c[2]}" for c in DEFAULTS])
def test_default_metric_per_objective(objective, data, extra, name):
    X, y, w = make_data(data)
    _, ours, _ = train_ours({"objective": objective, **extra}, X, y, w)
    assert list(ours) == [name]
    try:
        import xgboost as xgb
    except ImportError:
        return
    d = xgb.DMatrix(X, label=y, weight=w)
    history = {}
    xgb.train({"objective": objective, **extra}, d, 1, evals=[(d, "v")],
              evals_result=history, verbose_eval=False)
    assert list(history["v"]) == [name]


@pytest.mark.parametrize("metric,data,objective,best", [
    ("aucpr", "binary", "binary:logistic", np.argmax),
    ("poisson-nloglik", "count", "count:poisson", np.argmin),
    ("gamma-deviance", "positive", "reg:gamma", np.argmin),
    ("error@0.7", "binary", "binary:logistic", np.argmin),
])
def test_early_stopping_direction(metric, data, objective, best):
    X, y, w = make_data(data, n=1200)
    params = {"objective": objective, "eval_metric": metric, "eta": 0.5, "max_depth": 6}
    bst, ours, _ = train_ours(params, X, y, w, rounds=200, early_stopping_rounds=4)
    values = ours[metric]
    assert len(values) < 200
    # The first best round: ties keep the earlier one.
    assert bst.best_iteration == int(best(values))
    assert len(values) == bst.best_iteration + 5


def test_early_stopping_reads_the_quantile_mean():
    X, y, w = make_data("positive", n=1200)
    params = {"objective": "reg:quantileerror", "quantile_alpha": "[0.2,0.8]",
              "eval_metric": ["mae", "quantile"], "eta": 0.8, "max_depth": 6}
    bst, ours, _ = train_ours(params, X, y, w, rounds=200, early_stopping_rounds=3)
    assert list(ours)[-1] == "quantile"
    assert bst.best_iteration == int(np.argmin(ours["quantile"]))


@pytest.mark.parametrize("metric,rule", [
    ("error@2", r"\[0, 1\]"),
    ("tweedie-nloglik@3", r"\[1, 2\)"),
    ("tweedie-nloglik", "tweedie-nloglik@rho"),
    ("rmse@1", "takes no '@' parameter"),
    ("pinball", "allowed:"),
])
def test_bad_metric_is_refused(metric, rule):
    X, y, w = make_data("binary", n=50)
    with pytest.raises(InvalidArgumentError, match=rule) as err:
        train_ours({"objective": "binary:logistic", "eval_metric": metric}, X, y, w)
    assert metric in str(err.value)


def test_quantile_needs_an_alpha_per_output():
    X, y, w = make_data("positive", n=50)
    params = {"objective": "reg:squarederror", "quantile_alpha": "[0.1,0.9]",
              "eval_metric": "quantile"}
    with pytest.raises(InvalidArgumentError, match="one quantile_alpha value per output"):
        train_ours(params, X, y, w)


def test_get_param_gives_the_metrics_by_name():
    booster = gpulayer.Booster(params={"objective": "binary:logistic"})
    assert booster.get_param("eval_metric") == ""
    booster.set_param("eval_metric", ["error@0.7", "aucpr", "error@0.5", "error"])
    # error@0.5 is error, listed once.
    assert booster.get_param("eval_metric") == "error@0.7,aucpr,error"

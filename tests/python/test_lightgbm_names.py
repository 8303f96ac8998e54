"""LightGBM's objective and metric names are taken as XGBoost's
(docs/porting.md): LightGBM itself takes each name, and GPUlayer trains the
same model, with the same evaluation figures under the XGBoost name, as
from the XGBoost name (LightGBM's names bring LightGBM's defaults,
gpulayer.params.LIGHTGBM_DEFAULTS, so the XGBoost name is given those).
Names whose meaning differs are refused with the reason."""
import numpy as np
import pytest

import gpulayer
from gpulayer.errors import UnsupportedError
from gpulayer.params import with_lightgbm_defaults

lgb = pytest.importorskip("lightgbm")

OBJECTIVES = [
    ("regression", "reg:squarederror", "reg"), ("l2", "reg:squarederror", "reg"),
    ("regression_l1", "reg:absoluteerror", "reg"), ("mae", "reg:absoluteerror", "reg"),
    ("quantile", "reg:quantileerror", "reg"), ("poisson", "count:poisson", "count"),
    ("gamma", "reg:gamma", "positive"), ("tweedie", "reg:tweedie", "count"),
    ("binary", "binary:logistic", "binary"), ("cross_entropy", "reg:logistic", "binary"),
    ("multiclass", "multi:softprob", "multi"), ("softmax", "multi:softprob", "multi"),
    ("lambdarank", "rank:ndcg", "rank"),
]

METRICS = [
    ("rmse", "rmse", "reg"), ("l2_root", "rmse", "reg"), ("l1", "mae", "reg"),
    ("mape", "mape", "positive"), ("poisson", "poisson-nloglik", "count"),
    ("gamma", "gamma-nloglik", "positive"), ("gamma_deviance", "gamma-deviance", "positive"),
    ("binary_logloss", "logloss", "binary"), ("binary_error", "error", "binary"),
    ("auc", "auc", "binary"), ("multi_logloss", "mlogloss", "multi"),
    ("multi_error", "merror", "multi"), ("ndcg", "ndcg", "rank"), ("map", "map", "rank01"),
    ("cross_entropy", "logloss", "prob"), ("xentropy", "logloss", "prob"),
    ("tweedie", "tweedie-nloglik@1.5", "count"),
]

XGB_OBJECTIVE = {"reg": "reg:squarederror", "count": "count:poisson",
                 "positive": "reg:gamma", "binary": "binary:logistic",
                 "multi": "multi:softprob", "rank": "rank:ndcg", "rank01": "rank:map",
                 "prob": "reg:logistic"}


def task_data(task):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(300, 4))
    signal = X[:, 0] + 0.5 * X[:, 1]
    label = {"reg": signal + rng.normal(size=300),
             "count": rng.poisson(np.exp(0.5 * signal)).astype(float),
             "positive": np.exp(0.3 * signal) * rng.gamma(2.0, 1.0, 300),
             "binary": (signal + rng.normal(size=300) > 0).astype(float),
             "multi": np.digitize(signal, [-0.7, 0.7]).astype(float),
             "rank": np.clip(np.round(signal + 1.5), 0, 3),
             "rank01": (signal > 0).astype(float),
             "prob": 1.0 / (1.0 + np.exp(-signal - rng.normal(size=300)))}[task]
    qid = np.repeat(np.arange(30), 10) if task.startswith("rank") else None
    extra = {"num_class": 3} if task == "multi" else {}
    return X, label, qid, extra


def lightgbm_takes(params, X, label, qid):
    group = np.full(30, 10) if qid is not None else None
    lgb.train({**params, "verbose": -1, "num_threads": 1},
              lgb.Dataset(X, label, group=group), 2)


@pytest.mark.parametrize("name,xgboost_name,task", OBJECTIVES)
def test_objective_names(name, xgboost_name, task):
    X, label, qid, extra = task_data(task)
    lightgbm_takes({"objective": name, **extra}, X, label, qid)
    data = gpulayer.Dataset(X, label=label, qid=qid)
    ours = gpulayer.train({"objective": name, "nthread": 1, **extra}, data, 3)
    theirs = gpulayer.train(with_lightgbm_defaults({"objective": xgboost_name, "nthread": 1,
                                                    **extra}), data, 3)
    assert ours.save_raw() == theirs.save_raw()


@pytest.mark.parametrize("name,xgboost_name,task", METRICS)
def test_metric_names(name, xgboost_name, task):
    X, label, qid, extra = task_data(task)
    params = {"objective": XGB_OBJECTIVE[task], "nthread": 1, **extra}
    lightgbm_takes({"objective": {"reg": "regression", "count": "poisson",
                                  "positive": "gamma", "binary": "binary",
                                  "multi": "multiclass", "rank": "lambdarank",
                                  "rank01": "lambdarank", "prob": "cross_entropy"}[task],
                    "metric": name, **extra}, X, label, qid)
    data = gpulayer.Dataset(X, label=label, qid=qid)
    ours, theirs = {}, {}
    gpulayer.train({**params, "metric": name}, data, 3, evals=[(data, "train")],
                   evals_result=ours)
    gpulayer.train(with_lightgbm_defaults({**params, "eval_metric": xgboost_name}), data, 3,
                   evals=[(data, "train")], evals_result=theirs)
    assert ours == theirs and len(next(iter(ours["train"].values()))) == 3


def test_metric_lists_separated_by_commas():
    X, label, qid, _ = task_data("binary")
    data = gpulayer.Dataset(X, label=label)
    log = {}
    gpulayer.train({"objective": "binary", "metric": "auc,binary_logloss"}, data, 2,
                   evals=[(data, "train")], evals_result=log)
    assert list(log["train"]) == ["auc", "logloss"]


@pytest.mark.parametrize("name", ["l2", "mean_squared_error", "mse"])
def test_l2_is_the_mean_squared_error(name):
    X, label, _, _ = task_data("reg")
    data = gpulayer.Dataset(X, label=label)
    log = {}
    bst = gpulayer.train({"objective": "regression", "metric": name + ",rmse"}, data, 3,
                         evals=[(data, "train")], evals_result=log)
    assert list(log["train"]) == ["mse", "rmse"]
    mse = float(np.mean((bst.predict(data).astype(np.float64) - label) ** 2))
    assert log["train"]["mse"][-1] == pytest.approx(mse, rel=1e-6)
    assert log["train"]["mse"][-1] == pytest.approx(log["train"]["rmse"][-1] ** 2, rel=1e-9)


@pytest.mark.parametrize("key,value,reason", [
    ("objective", "huber", "pseudohubererror"),
    ("objective", "multiclassova", "multi:softprob"),
    ("objective", "rank_xendcg", "rank:ndcg"),
    ("metric", "fair", "not implemented"),
])
def test_names_that_mean_something_else_are_refused(key, value, reason):
    X, label, _, _ = task_data("reg")
    with pytest.raises(UnsupportedError, match=reason):
        gpulayer.train({key: value}, gpulayer.Dataset(X, label=label), 2)


def test_cross_entropy_is_lightgbms_value():
    """LightGBM's cross_entropy metric of its own predictions, as GPUlayer
    computes it (logloss, labels in [0, 1])."""
    X, label, _, _ = task_data("prob")
    record = {}
    data = lgb.Dataset(X, label)
    model = lgb.train({"objective": "cross_entropy", "metric": "cross_entropy", "verbose": -1,
                       "num_threads": 1, "num_leaves": 4}, data, 3, valid_sets=[data],
                      callbacks=[lgb.record_evaluation(record)])
    ours = gpulayer.evaluate("logloss", model.predict(X), gpulayer.Dataset(X, label=label))
    assert ours == pytest.approx(record["training"]["cross_entropy"][-1], rel=1e-6)


def lightgbm_figure(params, X, label, weight, metric):
    """LightGBM's last figure of metric on its training data, and its
    predictions."""
    record = {}
    data = lgb.Dataset(X, label, weight=weight)
    model = lgb.train({**params, "metric": metric, "verbose": -1, "num_threads": 1}, data, 3,
                      valid_sets=[data], callbacks=[lgb.record_evaluation(record)])
    return record["training"][metric][-1], model.predict(X)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("leaves", [4, 31])
def test_average_precision_is_lightgbms(weighted, leaves):
    """With ties (4 leaves: few distinct predictions) and without."""
    X, label, _, _ = task_data("binary")
    weight = np.random.default_rng(3).uniform(0.5, 2.0, len(label)) if weighted else None
    theirs, pred = lightgbm_figure({"objective": "binary", "num_leaves": leaves}, X, label,
                                   weight, "average_precision")
    data = gpulayer.Dataset(X, label=label, weight=weight)
    assert gpulayer.evaluate("average_precision", pred, data) == pytest.approx(theirs, rel=1e-9)
    log = {}
    gpulayer.train({"objective": "binary", "metric": "average_precision"}, data, 2,
                   evals=[(data, "train")], evals_result=log)
    assert list(log["train"]) == ["average_precision"]


@pytest.mark.parametrize("alpha", [0.9, 2.0])
def test_huber_is_lightgbms(alpha):
    """LightGBM's huber metric turns linear at its alpha: huber (0.9, its
    default) or huber@alpha here, where alpha is XGBoost's L1 term."""
    X, label, _, _ = task_data("reg")
    weight = np.random.default_rng(4).uniform(0.5, 2.0, len(label))
    theirs, pred = lightgbm_figure({"objective": "regression", "alpha": alpha}, X, label,
                                   weight, "huber")
    name = "huber" if alpha == 0.9 else f"huber@{alpha:g}"
    ours = gpulayer.evaluate(name, pred, gpulayer.Dataset(X, label=label, weight=weight))
    assert ours == pytest.approx(theirs, rel=1e-7)


def test_tweedie_metric_takes_the_training_power():
    X, label, _, _ = task_data("count")
    theirs, pred = lightgbm_figure({"objective": "tweedie", "tweedie_variance_power": 1.2}, X,
                                   label, None, "tweedie")
    data = gpulayer.Dataset(X, label=label)
    assert gpulayer.evaluate("tweedie-nloglik@1.2", pred, data) == pytest.approx(theirs,
                                                                               rel=1e-6)
    log = {}
    gpulayer.train({"objective": "tweedie", "metric": "tweedie", "tweedie_variance_power": 1.2},
                   data, 2, evals=[(data, "train")], evals_result=log)
    assert list(log["train"]) == ["tweedie-nloglik@1.2"]


def test_huber_delta_must_be_positive():
    X, label, _, _ = task_data("reg")
    with pytest.raises(gpulayer.GPULayerError, match="huber@delta"):
        gpulayer.train({"metric": "huber@0"}, gpulayer.Dataset(X, label=label), 1)

"""The ranking metrics (ndcg, map, pre and their @k and '-' forms) against
XGBoost's own figures on the same predictions, early stopping's direction
for them, and their names.

As in test_metrics.py, XGBoost is given our model's margins as base_margin
and no trees, so it ranks exactly the predictions we ranked. The margins of
a few shallow trees are full of ties, which both order by row index.
"""

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError
from gpulayer.training import _is_maximize

TOL = 1e-6

COMMON = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 3, "nthread": 2,
          "device": "cpu"}

NDCG = ["ndcg", "ndcg-", "ndcg@1", "ndcg@3", "ndcg@5-", "ndcg@1000"]
BINARY = ["map", "map-", "map@2", "map@5-", "map@1000", "pre@1", "pre@3", "pre@1000"]


def make_queries(seed, binary, num_queries=60):
    """Queries of 1 to 30 rows (ids sorted), grades 0..4 or 0/1, a signal
    in the first feature, and some queries with nothing relevant."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 31, size=num_queries)
    qid = np.repeat(np.arange(num_queries), sizes)
    n = len(qid)
    X = rng.normal(size=(n, 4)).astype(np.float32)
    score = X[:, 0] + 0.7 * rng.normal(size=n)
    y = np.clip(np.floor(score + 1.0), 0, 4)
    if binary:
        y = (y >= 2).astype(np.float64)
    empty = rng.random(num_queries) < 0.2
    y[empty[qid]] = 0.0
    return X, y.astype(np.float32), qid


def our_figures(X, y, metrics, **dataset_args):
    """Trains 2 rounds on the data and evaluates the metrics on it."""
    d = gpulayer.Dataset(X, label=y, **dataset_args)
    history = {}
    bst = gpulayer.train({**COMMON, "eval_metric": metrics}, d, 2, evals=[(d, "v")],
                         evals_result=history)
    assert list(history["v"]) == metrics
    return bst, {name: values[-1] for name, values in history["v"].items()}


def xgboost_figures(xgb, X, y, margins, metrics, **dmatrix_args):
    d = xgb.DMatrix(X, label=y, base_margin=margins, **dmatrix_args)
    booster = xgb.train({"objective": "reg:squarederror", "eval_metric": metrics}, d, 0)
    fields = booster.eval_set([(d, "v")]).split("\t")[1:]
    return {name[len("v-"):]: float(value)
            for name, value in (f.rsplit(":", 1) for f in fields)}


def assert_same(ours, theirs, metrics):
    assert list(theirs) == metrics
    for name in metrics:
        assert np.isfinite(ours[name]), name
        assert abs(ours[name] - theirs[name]) <= TOL, (name, ours[name], theirs[name])


@pytest.mark.parametrize("binary", [False, True], ids=["graded", "binary"])
def test_one_query_of_all_rows_equals_xgboost(binary):
    """Without query groups both take the whole data as one query."""
    xgb = pytest.importorskip("xgboost")
    X, y, _ = make_queries(5, binary)
    metrics = BINARY if binary else NDCG
    bst, ours = our_figures(X, y, metrics)
    margins = bst.predict(X, output_margin=True)
    assert len(np.unique(margins)) < len(margins) / 4  # ties to order
    assert_same(ours, xgboost_figures(xgb, X, y, margins, metrics), metrics)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("binary", [False, True], ids=["graded", "binary"])
def test_queries_equal_xgboost(binary, seed):
    xgb = pytest.importorskip("xgboost")
    X, y, qid = make_queries(seed, binary)
    metrics = BINARY if binary else NDCG
    bst, ours = our_figures(X, y, metrics, qid=qid)
    margins = bst.predict(X, output_margin=True)
    assert_same(ours, xgboost_figures(xgb, X, y, margins, metrics, qid=qid), metrics)


@pytest.mark.parametrize("binary", [False, True], ids=["graded", "binary"])
def test_query_weights_equal_xgboost(binary):
    """XGBoost weighs queries; our rows of one query carry its weight.
    Every query has a relevant row: XGBoost 3.2's ndcg adds an unweighted
    1 for one that has none (docs/metrics.md)."""
    xgb = pytest.importorskip("xgboost")
    X, y, qid = make_queries(7, binary)
    starts = np.flatnonzero(np.r_[True, qid[1:] != qid[:-1]])
    y[starts] = np.maximum(y[starts], 1.0)
    group_weight = np.random.default_rng(8).uniform(0.2, 3.0, size=len(starts))
    group_weight = group_weight.astype(np.float32)
    metrics = BINARY if binary else NDCG
    bst, ours = our_figures(X, y, metrics, qid=qid, weight=group_weight[qid])
    margins = bst.predict(X, output_margin=True)
    theirs = xgboost_figures(xgb, X, y, margins, metrics, qid=qid, weight=group_weight)
    assert_same(ours, theirs, metrics)


# The metric XGBoost 3.2 reports for each ranking objective given none:
# "ndcg" scores every position, "map" (rank:map with mean) the top 32.
RANK_DEFAULTS = [
    ("rank:ndcg", {}, "ndcg@32"),
    ("rank:ndcg", {"lambdarank_pair_method": "mean"}, "ndcg"),
    ("rank:ndcg", {"lambdarank_num_pair_per_sample": 7}, "ndcg@7"),
    ("rank:pairwise", {}, "ndcg@32"),
    ("rank:pairwise", {"lambdarank_pair_method": "mean"}, "ndcg"),
    ("rank:map", {}, "map@32"),
    ("rank:map", {"lambdarank_pair_method": "mean"}, "map"),
]


@pytest.mark.parametrize("grouped", [False, True],
                         ids=["one-query", "qid"])
@pytest.mark.parametrize("objective,extra,name", RANK_DEFAULTS,
                         ids=[f"{c[0]}{c[1]}" for c in RANK_DEFAULTS])
def test_default_metric_of_ranking_objectives(objective, extra, name, grouped):
    """Name and figure, over one query of all rows (no groups) or over
    queries of up to 30 rows."""
    X, y, qid = make_queries(3, objective == "rank:map")
    groups = {"qid": qid} if grouped else {}
    d = gpulayer.Dataset(X, label=y, **groups)
    history = {}
    bst = gpulayer.train({**COMMON, "objective": objective, **extra}, d, 2,
                         evals=[(d, "v")], evals_result=history)
    assert list(history["v"]) == [name]
    xgb = pytest.importorskip("xgboost")
    margins = bst.predict(X, output_margin=True)
    dm = xgb.DMatrix(X, label=y, base_margin=margins, **groups)
    out = xgb.train({"objective": objective, **extra}, dm, 0).eval_set([(dm, "v")])
    field, = out.split("\t")[1:]
    theirs, value = field.rsplit(":", 1)
    assert theirs == "v-" + name
    assert abs(history["v"][name][-1] - float(value)) <= TOL


@pytest.mark.parametrize("metric,labels", [("ndcg@5", "graded"), ("map@10", "binary")])
def test_early_stopping_maximizes(metric, labels):
    X, y, _ = make_queries(11, labels == "binary", num_queries=80)
    half = len(y) // 2
    dtrain = gpulayer.Dataset(X[:half], label=y[:half])
    dvalid = gpulayer.Dataset(X[half:], label=y[half:])
    history = {}
    params = {**COMMON, "eval_metric": metric, "eta": 0.5, "max_depth": 6}
    bst = gpulayer.train(params, dtrain, 200, evals=[(dvalid, "v")], evals_result=history,
                         early_stopping_rounds=4)
    values = history["v"][metric]
    assert len(values) < 200
    assert bst.best_iteration == int(np.argmax(values))
    assert len(values) == bst.best_iteration + 5


def test_python_direction_rule_as_xgboost():
    """The rule for a custom metric's name: XGBoost's prefixes, mape
    excepted."""
    for name in ["ndcg", "ndcg@10-", "map", "map@5", "pre@3", "auc", "aucpr"]:
        assert _is_maximize(name), name
    for name in ["mape", "rmse", "mae", "logloss", "merror"]:
        assert not _is_maximize(name), name


@pytest.mark.parametrize("metric,rule", [
    ("ndcg@0", "whole number from 1"),
    ("map@x", "whole number from 1"),
    ("pre@", "write pre@k"),
    ("ndcg--", "allowed:"),
])
def test_bad_metric_is_refused(metric, rule):
    X, y, _ = make_queries(1, False, num_queries=5)
    with pytest.raises(InvalidArgumentError, match=rule) as err:
        our_figures(X, y, [metric])
    assert metric in str(err.value)

"""XGBoost's parameters that name what GPUlayer always does: accepted
with their meaning, or refused with the reason and what to write."""
import numpy as np
import pytest

import gpulayer
from gpulayer.errors import GPULayerError


@pytest.fixture
def data():
    r = np.random.default_rng(0)
    x = r.normal(size=(300, 3)).astype(np.float32)
    return gpulayer.Dataset(x, (x[:, 0] > 0).astype(np.float32))


def test_hist_gbtree_and_validation_train_the_same_model(data):
    base = {"objective": "binary:logistic", "max_depth": 3}
    plain = gpulayer.train(base, data, 4).predict(data)
    for extra in ({"tree_method": "hist"}, {"tree_method": "auto"}, {"booster": "gbtree"},
                  {"validate_parameters": True}, {"validate_parameters": False}):
        np.testing.assert_array_equal(gpulayer.train({**base, **extra}, data, 4).predict(data),
                                      plain)


@pytest.mark.parametrize("params,message", [
    ({"tree_method": "exact"}, "exact is not implemented"),
    ({"tree_method": "approx"}, "approx is not implemented"),
    ({"tree_method": "gpu_hist"}, "write tree_method=hist with device=cuda"),
    ({"tree_method": "fast"}, "'fast' is not hist or auto"),
    ({"booster": "dart"}, "dart is not implemented"),
    ({"booster": "gblinear"}, "gblinear is not implemented"),
])
def test_what_gpulayer_does_not_do_is_refused_with_the_reason(data, params, message):
    with pytest.raises(GPULayerError, match=message):
        gpulayer.train(params, data, 2)


def test_unknown_parameters_are_refused_even_without_validation(data):
    with pytest.raises(GPULayerError, match="unknown parameter 'max_dept'"):
        gpulayer.train({"validate_parameters": False, "max_dept": 3}, data, 2)


def test_disable_default_eval_metric(data):
    log = {}
    gpulayer.train({"objective": "binary:logistic", "disable_default_eval_metric": 1}, data, 3,
                   evals=[(data, "train")], evals_result=log)
    assert log == {}
    log = {}
    gpulayer.train({"objective": "binary:logistic", "disable_default_eval_metric": 1,
                    "eval_metric": "auc"}, data, 3, evals=[(data, "train")], evals_result=log)
    assert list(log["train"]) == ["auc"]
    with pytest.raises(GPULayerError, match="early_stopping_rounds needs a metric"):
        gpulayer.train({"objective": "binary:logistic", "disable_default_eval_metric": 1,
                        "early_stopping_rounds": 2}, data, 3, evals=[(data, "train")])


def test_the_estimators_take_them(data):
    from gpulayer.sklearn import GPULayerClassifier
    r = np.random.default_rng(1)
    x = r.normal(size=(200, 3))
    est = GPULayerClassifier(n_estimators=3, tree_method="hist", booster="gbtree",
                             validate_parameters=True, scale_pos_weight=2.0)
    est.fit(x, (x[:, 0] > 0).astype(int))
    assert est.get_booster().get_param("scale_pos_weight") == "2"


def test_lightgbm_names_set_the_same_parameters(data):
    """LightGBM's names (aliases of the table) train XGBoost-named models."""
    xgb_named = {"objective": "binary:logistic", "max_leaves": 7, "grow_policy": "lossguide",
                 "gamma": 0.1, "colsample_bytree": 0.8, "min_child_weight": 2, "eta": 0.2,
                 "booster": "gbtree", "max_bin": 64, "seed": 3}
    lgb_named = {"objective": "binary:logistic", "num_leaves": 7, "grow_policy": "lossguide",
                 "min_gain_to_split": 0.1, "sub_feature": 0.8, "min_sum_hessian_in_leaf": 2,
                 "shrinkage_rate": 0.2, "boosting": "gbdt", "max_bins": 64, "random_seed": 3}
    a = gpulayer.train(xgb_named, data, 4).predict(data)
    b = gpulayer.train(lgb_named, data, 4).predict(data)
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name,value,reason", [
    ("pos_bagging_fraction", 0.8, "use bagging_fraction or subsample"),
    ("extra_trees", True, "not drawn at random"),
    ("is_unbalance", True, "use scale_pos_weight"),
    ("boosting_type", "goss", "goss is not implemented"),
    ("boosting", "rf", "give num_parallel_tree=N with one round"),
])
def test_parameters_not_implemented_say_so_and_what_is_nearest(data, name, value, reason):
    from gpulayer.errors import UnsupportedError
    with pytest.raises(UnsupportedError, match=reason):
        gpulayer.train({name: value}, data, 2)


def test_missing_sentinel_is_missing_everywhere_data_enters():
    """XGBoost's missing=: cells equal to it are missing values, in dense
    arrays, DataFrames and sparse matrices, and in the estimators."""
    import scipy.sparse as sp
    from gpulayer.sklearn import GPULayerRegressor
    r = np.random.default_rng(4)
    x = r.normal(size=(300, 3)).astype(np.float32)
    y = x[:, 0] + x[:, 1]
    sentinel = x.copy()
    sentinel[::5, 1] = -999.0
    nan = np.where(sentinel == -999.0, np.nan, sentinel)
    want = gpulayer.train({"max_depth": 3}, gpulayer.Dataset(nan, y), 4).predict(
        gpulayer.Dataset(nan))
    for data in (sentinel, sp.csr_matrix(sentinel)):
        d = gpulayer.Dataset(data, y, missing=-999.0)
        got = gpulayer.train({"max_depth": 3}, d, 4).predict(d)
        np.testing.assert_array_equal(got, want)
    est = GPULayerRegressor(n_estimators=4, max_depth=3, missing=-999.0).fit(sentinel, y)
    np.testing.assert_array_equal(est.predict(sentinel), want)
    with pytest.raises(TypeError, match="missing must be a number"):
        gpulayer.Dataset(x, y, missing="none")


def test_every_name_docs_porting_md_calls_not_implemented_is_refused(data):
    import os
    import re
    from gpulayer.errors import UnsupportedError
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    text = open(os.path.join(root, "docs", "porting.md")).read()
    section = text.split("## Not implemented")[1].split("\n\n")[2]
    names = [n for row in section.splitlines()[2:]
             for n in re.findall(r"`([a-z_]+)`", row.split("|")[1])]
    assert len(names) > 10
    for name in names:
        with pytest.raises(UnsupportedError, match=f"parameter '{name}' is not implemented"):
            gpulayer.train({name: 1}, data, 1)

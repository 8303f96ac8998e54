"""The scikit-learn estimators as drop-in replacements for XGBoost's and
LightGBM's: extra keyword arguments as booster parameters, evals_result(),
best_iteration and best_score, save_model/load_model, n_jobs and
random_state, LightGBM's estimator arguments, the ranker's qid= and group=,
and fit's callbacks, each checked against xgboost's or lightgbm's estimator
on the same data."""

import json
import os
import re

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression

from gpulayer.errors import InvalidArgumentError, UnsupportedError
from gpulayer.sklearn import (GPULayerClassifier, GPULayerRanker, GPULayerRegressor,
                              LGBMRegressor)

xgb = pytest.importorskip("xgboost")
lgb = pytest.importorskip("lightgbm")

ROUNDS = 8


@pytest.fixture(scope="module")
def regression():
    X, y = make_regression(n_samples=300, n_features=6, noise=5.0, random_state=0)
    return X[:200], y[:200], X[200:], y[200:]


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_classification(n_samples=300, n_features=6, n_informative=4,
                               n_classes=3, random_state=1)
    return X[:200], y[:200], X[200:], y[200:]


def _shape(history):
    """{set: {metric: rounds}} of an evals_result dict."""
    return {name: {metric: len(values) for metric, values in metrics.items()}
            for name, metrics in history.items()}


def _xgb_param(model, section, key):
    config = json.loads(model.get_booster().save_config())["learner"]
    return config[section][key] if section != "tree" else \
        config["gradient_booster"]["tree_train_param"][key]


# ------------------------------------------------------------ **kwargs


def test_extra_keyword_arguments_reach_the_model_as_xgboost(regression):
    X, y, _, _ = regression
    ours = GPULayerRegressor(n_estimators=ROUNDS, eta=0.07, max_bins=32).fit(X, y)
    theirs = xgb.XGBRegressor(n_estimators=ROUNDS, eta=0.07).fit(X, y)
    assert float(ours.get_booster().get_param("eta")) == pytest.approx(0.07)
    assert int(ours.get_booster().get_param("max_bin")) == 32
    assert float(_xgb_param(theirs, "tree", "eta")) == pytest.approx(0.07)


def test_extra_keyword_arguments_survive_get_params_set_params_and_clone():
    for cls in (GPULayerRegressor, xgb.XGBRegressor):
        est = cls(n_estimators=3, eta=0.2)
        assert est.get_params()["eta"] == 0.2
        est.set_params(max_bins=64, eta=0.3)
        copy = clone(est)
        assert copy.get_params()["eta"] == 0.3
        if cls is GPULayerRegressor:  # XGBoost has no max_bins
            assert copy.get_params()["max_bins"] == 64
        assert copy.get_params()["n_estimators"] == 3
        assert "eta=0.3" in repr(copy)


def test_extra_keyword_arguments_are_saved_with_the_model(regression, tmp_path):
    X, y, _, _ = regression
    path = tmp_path / "model.json"
    GPULayerRegressor(n_estimators=2, scale_pos_weight=2, eta=0.11).fit(X, y).save_model(path)
    with open(path) as f:
        params = json.load(f)["params"]
    assert float(params["eta"]) == pytest.approx(0.11)
    assert float(params["scale_pos_weight"]) == 2


def test_an_unknown_keyword_argument_is_the_library_s_error_at_fit(regression):
    X, y, _, _ = regression
    est = GPULayerRegressor(n_estimators=2, not_a_parameter=1)  # no error yet
    with pytest.raises(InvalidArgumentError, match="unknown parameter 'not_a_parameter'"):
        est.fit(X, y)


def test_an_argument_and_its_alias_together_are_refused(regression):
    X, y, _, _ = regression
    with pytest.raises(ValueError, match="max_leaves or num_leaves"):
        GPULayerRegressor(n_estimators=2, max_leaves=4, num_leaves=8).fit(X, y)


# ------------------------------------------------- evals_result, best round


@pytest.mark.parametrize("task", ["regression", "three_classes"])
def test_evals_result_has_xgboost_s_keys_and_shapes(task, request):
    X, y, X_val, y_val = request.getfixturevalue(task)
    kind = "Regressor" if task == "regression" else "Classifier"
    ours = globals()[f"GPULayer{kind}"](n_estimators=ROUNDS)
    theirs = getattr(xgb, f"XGB{kind}")(n_estimators=ROUNDS)
    for est in (ours, theirs):
        est.fit(X, y, eval_set=[(X, y), (X_val, y_val)], verbose=False)
    assert _shape(ours.evals_result()) == _shape(theirs.evals_result())
    assert list(ours.evals_result()) == ["validation_0", "validation_1"]
    metric = "rmse" if task == "regression" else "mlogloss"
    assert len(ours.evals_result()["validation_1"][metric]) == ROUNDS


def test_evals_result_without_eval_set_is_an_error_as_xgboost(regression):
    X, y, _, _ = regression
    with pytest.raises(Exception, match="[Ee]val"):
        xgb.XGBRegressor(n_estimators=2).fit(X, y).evals_result()
    with pytest.raises(Exception, match="eval_set"):
        GPULayerRegressor(n_estimators=2).fit(X, y).evals_result()


def test_best_iteration_and_best_score_after_early_stopping(regression):
    X, y, X_val, y_val = regression
    for cls in (GPULayerRegressor, xgb.XGBRegressor):
        est = cls(n_estimators=200, learning_rate=0.5, early_stopping_rounds=3)
        est.fit(X, y, eval_set=[(X_val, y_val)], verbose=False)
        history = est.evals_result()["validation_0"]["rmse"]
        assert isinstance(est.best_iteration, int)
        assert est.best_iteration == int(np.argmin(history)), cls
        assert est.best_score == pytest.approx(history[est.best_iteration], rel=1e-6)
        assert len(history) < 200


def test_best_iteration_is_none_without_early_stopping(regression):
    X, y, X_val, y_val = regression
    est = GPULayerRegressor(n_estimators=3).fit(X, y, eval_set=[(X_val, y_val)])
    assert est.best_iteration is None and est.best_score is None


# ------------------------------------------------------- save / load


def test_regressor_save_load_round_trip_as_xgboost(regression, tmp_path):
    X, y, X_val, _ = regression
    for cls in (GPULayerRegressor, xgb.XGBRegressor):
        path = tmp_path / f"{cls.__name__}.json"
        fitted = cls(n_estimators=ROUNDS).fit(X, y)
        fitted.save_model(path)
        loaded = cls()
        loaded.load_model(path)
        np.testing.assert_array_equal(loaded.predict(X_val), fitted.predict(X_val))
        assert loaded.n_features_in_ == X.shape[1]


def test_classifier_save_load_restores_the_classes(three_classes, tmp_path):
    X, y, X_val, _ = three_classes
    theirs = xgb.XGBClassifier(n_estimators=ROUNDS).fit(X, y)
    theirs.save_model(tmp_path / "xgb.json")
    xgb_loaded = xgb.XGBClassifier()
    xgb_loaded.load_model(tmp_path / "xgb.json")

    labels = np.array([10, 20, 30])[y]  # labels that are not 0..n-1
    ours = GPULayerClassifier(n_estimators=ROUNDS).fit(X, labels)
    ours.save_model(tmp_path / "ours.json")
    loaded = GPULayerClassifier()
    loaded.load_model(tmp_path / "ours.json")
    assert loaded.n_classes_ == xgb_loaded.n_classes_ == 3
    np.testing.assert_array_equal(loaded.classes_, [10, 20, 30])
    np.testing.assert_array_equal(loaded.predict(X_val), ours.predict(X_val))
    np.testing.assert_array_equal(loaded.predict_proba(X_val), ours.predict_proba(X_val))
    np.testing.assert_array_equal(xgb_loaded.predict(X_val), theirs.predict(X_val))


def test_classifier_loads_a_booster_s_model_with_classes_0_to_n(three_classes, tmp_path):
    X, y, X_val, _ = three_classes
    ours = GPULayerClassifier(n_estimators=ROUNDS).fit(X, y)
    ours.get_booster().save_model(tmp_path / "booster.json")
    loaded = GPULayerClassifier()
    loaded.load_model(tmp_path / "booster.json")
    np.testing.assert_array_equal(loaded.classes_, [0, 1, 2])
    np.testing.assert_array_equal(loaded.predict(X_val), ours.predict(X_val))


def test_save_load_keeps_dataframe_feature_names(regression, tmp_path):
    pd = pytest.importorskip("pandas")
    X, y, X_val, _ = regression
    columns = [f"f{i}" for i in range(X.shape[1])]
    fitted = GPULayerRegressor(n_estimators=ROUNDS).fit(pd.DataFrame(X, columns=columns), y)
    fitted.save_model(tmp_path / "m.json")
    loaded = GPULayerRegressor()
    loaded.load_model(tmp_path / "m.json")
    assert list(loaded.feature_names_in_) == columns
    frame = pd.DataFrame(X_val, columns=columns)
    np.testing.assert_array_equal(loaded.predict(frame), fitted.predict(frame))


def test_loading_a_classifier_s_model_into_a_regressor_is_refused(three_classes, tmp_path):
    X, y, _, _ = three_classes
    GPULayerClassifier(n_estimators=2).fit(X, y).save_model(tmp_path / "c.json")
    with pytest.raises(TypeError, match="classifier"):
        GPULayerRegressor().load_model(tmp_path / "c.json")


# ------------------------------------------------ n_jobs, random_state


def test_n_jobs_and_random_state_are_nthread_and_seed(regression):
    X, y, _, _ = regression
    ours = GPULayerRegressor(n_estimators=2, n_jobs=2, random_state=7).fit(X, y)
    theirs = xgb.XGBRegressor(n_estimators=2, n_jobs=2, random_state=7).fit(X, y)
    assert ours.get_booster().get_param("nthread") == "2"
    assert ours.get_booster().get_param("seed") == "7"
    assert _xgb_param(theirs, "generic_param", "nthread") == "2"
    assert _xgb_param(theirs, "generic_param", "seed") == "7"


# ----------------------------------------------- LightGBM's arguments


LGB_ARGS = dict(num_leaves=7, colsample_bytree=0.5, reg_alpha=0.25, reg_lambda=2.0,
                min_split_gain=0.5, subsample=0.8)
# LightGBM's argument -> the library's parameter
LGB_NAMES = dict(num_leaves="max_leaves", colsample_bytree="colsample_bytree",
                 reg_alpha="alpha", reg_lambda="lambda", min_split_gain="gamma",
                 subsample="subsample")


def test_lightgbm_s_estimator_arguments_reach_the_model(regression):
    X, y, _, _ = regression
    ours = GPULayerRegressor(n_estimators=ROUNDS, grow_policy="lossguide", **LGB_ARGS)
    theirs = lgb.LGBMRegressor(n_estimators=ROUNDS, subsample_freq=1, verbose=-1, **LGB_ARGS)
    ours.fit(X, y)
    theirs.fit(X, y)
    for name, value in LGB_ARGS.items():
        assert float(ours.get_booster().get_param(LGB_NAMES[name])) == pytest.approx(value), name
        assert theirs.get_params()[name] == ours.get_params()[name] == value
    assert clone(ours).get_params()["num_leaves"] == 7


@pytest.mark.parametrize("name, value", [("subsample_freq", 1), ("subsample_for_bin", 1000),
                                         ("class_weight", "balanced")])
def test_lightgbm_s_arguments_without_a_parameter_are_refused_by_name(regression, name,
                                                                      value):
    X, y, _, _ = regression
    lgb.LGBMRegressor(n_estimators=2, verbose=-1, **{name: value}).fit(X, y)  # accepted there
    with pytest.raises(UnsupportedError, match=f"'{name}' is not implemented: .+"):
        GPULayerRegressor(n_estimators=2, **{name: value}).fit(X, y)


@pytest.mark.parametrize("rows", [5, 60])
def test_min_child_samples_limits_every_leaf_as_lightgbm(rows):
    """Squared error gives every row the same hessian, so LightGBM's count
    by hessian is the row count: no leaf of either library holds fewer
    rows, and the test errors agree."""
    X, y = make_regression(n_samples=1500, n_features=8, noise=20.0, random_state=3)
    Xt, yt, Xv, yv = X[:1000], y[:1000], X[1000:], y[1000:]
    args = dict(n_estimators=30, num_leaves=31, min_child_samples=rows)
    ours = LGBMRegressor(**args).fit(Xt, yt)
    theirs = lgb.LGBMRegressor(**args, verbose=-1).fit(Xt, yt)
    assert int(ours.get_booster().get_param("min_data_in_leaf")) == rows
    leaves = ours.get_booster().trees_to_dataframe()
    assert leaves[leaves["Feature"] == "Leaf"]["Cover"].min() >= rows
    counts = theirs.booster_.trees_to_dataframe()
    assert counts[counts["left_child"].isna()]["count"].min() >= rows
    rmse = [float(np.sqrt(np.mean((m.predict(Xv) - yv) ** 2))) for m in (ours, theirs)]
    assert rmse[0] <= rmse[1] * 1.05, rmse


def test_lightgbm_s_split_importance_is_the_split_count(regression):
    X, y, _, _ = regression
    ours = GPULayerRegressor(n_estimators=ROUNDS, importance_type="split").fit(X, y)
    weight = ours.get_booster().feature_importance("weight")
    np.testing.assert_allclose(ours.feature_importances_, weight / weight.sum(), rtol=1e-6)


# ----------------------------------------------------------- ranker


@pytest.fixture(scope="module")
def ranking():
    rng = np.random.default_rng(3)
    sizes = rng.integers(5, 15, size=20)
    qid = np.repeat(np.arange(len(sizes)), sizes)
    X = rng.normal(size=(qid.size, 5))
    y = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=qid.size)),
                0, 4)
    return X, y, qid, sizes


def test_ranker_qid_and_group_give_the_same_model(ranking):
    X, y, qid, sizes = ranking
    half = int(sizes[:10].sum())
    train, val = slice(0, half), slice(half, None)
    models = {}
    for key in ("qid", "group"):
        ours = GPULayerRanker(n_estimators=ROUNDS)
        theirs = xgb.XGBRanker(n_estimators=ROUNDS)
        given = {"qid": (qid[train], qid[val]), "group": (sizes[:10], sizes[10:])}[key]
        for est in (ours, theirs):
            est.fit(X[train], y[train], **{key: given[0]},
                    eval_set=[(X[val], y[val])], **{f"eval_{key}": [given[1]]},
                    verbose=False)
        models[key] = (ours, theirs)
    ours_q, theirs_q = models["qid"]
    ours_g, theirs_g = models["group"]
    np.testing.assert_array_equal(ours_q.predict(X[val]), ours_g.predict(X[val]))
    np.testing.assert_array_equal(theirs_q.predict(X[val]), theirs_g.predict(X[val]))
    assert ours_q.evals_result() == ours_g.evals_result()
    assert list(ours_q.evals_result()) == list(theirs_q.evals_result()) == ["validation_0"]
    rounds = {len(v) for v in ours_q.evals_result()["validation_0"].values()}
    assert rounds == {ROUNDS}


def test_ranker_group_as_lightgbm(ranking):
    X, y, _, sizes = ranking
    ours = GPULayerRanker(n_estimators=ROUNDS).fit(X, y, group=sizes)
    theirs = lgb.LGBMRanker(n_estimators=ROUNDS, verbose=-1).fit(X, y, group=sizes)
    assert ours.predict(X).shape == theirs.predict(X).shape == (X.shape[0],)


# -------------------------------------------------------- callbacks


def test_fit_callbacks_are_called_every_round_and_may_stop(regression):
    X, y, X_val, y_val = regression
    seen = []

    def record(round_index, results):
        seen.append((round_index, [r.metric_name for r in results]))
        return round_index == 4  # stop after round 4

    est = GPULayerRegressor(n_estimators=ROUNDS).fit(
        X, y, eval_set=[(X_val, y_val)], callbacks=[record])
    assert [r for r, _ in seen] == [0, 1, 2, 3, 4]
    assert all(metrics == ["rmse"] for _, metrics in seen)
    assert est.n_estimators_ == 5

    # LightGBM's fit takes callbacks the same way: called once a round
    lgb_rounds = []
    lgb.LGBMRegressor(n_estimators=ROUNDS, verbose=-1).fit(
        X, y, callbacks=[lambda env: lgb_rounds.append(env.iteration)])
    assert len(lgb_rounds) == ROUNDS


def test_constructor_callbacks_are_used_when_fit_has_none(regression):
    X, y, _, _ = regression
    seen = []
    est = GPULayerRegressor(n_estimators=3, callbacks=[lambda r, res: seen.append(r)])
    est.fit(X, y)
    assert seen == [0, 1, 2]
    assert clone(est).get_params()["callbacks"] is not None


# ------------------------------------------------------ docs/porting.md


def _porting_section():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "porting.md")) as f:
        return f.read().split("## The scikit-learn estimators")[1].split("\n## ")[0]


def test_docs_porting_md_names_what_the_estimators_take():
    import inspect

    from gpulayer.params import canonical_names
    table = next(block for block in _porting_section().split("\n\n")
                 if block.startswith("| argument"))
    names = {n for row in table.splitlines()[2:]
             for n in re.findall(r"`(?:\*\*)?([a-z_]+)", row.split("|")[1])}
    assert len(names) > 12
    known = set(canonical_names())
    for cls in (GPULayerRegressor, GPULayerClassifier, GPULayerRanker):
        args = set(inspect.signature(cls.__init__).parameters)
        fit_args = set(inspect.signature(cls.fit).parameters)
        for name in names - {"ranker", "fit"}:
            assert (hasattr(cls, name) or name in args or name in fit_args
                    or name in known or name == "evals_result_"), (cls.__name__, name)
    assert {"qid", "group"} <= set(inspect.signature(GPULayerRanker.fit).parameters)


def test_docs_porting_md_refused_estimator_arguments_are_refused(regression):
    X, y, _, _ = regression
    text = _porting_section().split("are refused at `fit`")[1]
    names = re.findall(r"`([a-z_]+)`(?: \(|,)", text.split(".")[0])
    assert len(names) >= 3
    for name in names:
        with pytest.raises(UnsupportedError, match=f"'{name}' is not implemented"):
            GPULayerRegressor(n_estimators=1, **{name: 1}).fit(X, y)

"""The scikit-learn estimators: scikit-learn's estimator checks, and use in
Pipeline, GridSearchCV and cross_val_score."""

import pickle

import numpy as np
import pytest

pytest.importorskip("sklearn")
pd = pytest.importorskip("pandas")

from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.model_selection import GridSearchCV, cross_val_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from gpulayer import (GPULayerClassifier, GPULayerRanker, GPULayerRegressor,  # noqa: E402
                      GPULayerRFClassifier, GPULayerRFRegressor)
from gpulayer.sklearn import expected_failed_checks  # noqa: E402

# The whole suite; the sample-weight equivalence checks are declared
# expected failures (they pass or fail by the data's rounding; the bound
# is tested below).
@parametrize_with_checks(
    [GPULayerRegressor(n_estimators=5, n_jobs=2),
     GPULayerClassifier(n_estimators=5, n_jobs=2),
     GPULayerRFRegressor(n_estimators=5, n_jobs=2),
     GPULayerRFClassifier(n_estimators=5, n_jobs=2)],
    expected_failed_checks=expected_failed_checks,
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)


def test_expected_failures_name_real_checks():
    import sklearn.utils.estimator_checks as checks
    for est in (GPULayerRegressor(), GPULayerClassifier()):
        declared = expected_failed_checks(est)
        assert set(declared) == {"check_sample_weight_equivalence_on_dense_data",
                                 "check_sample_weight_equivalence_on_sparse_data"}
        for name, reason in declared.items():
            assert callable(getattr(checks, name)), name
            assert "1e-7" in reason
    assert expected_failed_checks(GPULayerRanker()) == {}


@pytest.mark.parametrize("cls, seed", [(GPULayerClassifier, 0), (GPULayerRegressor, 23)])
def test_weights_differ_from_repeated_rows_by_rounding(cls, seed):
    """Why the sample-weight equivalence checks are expected failures: on
    data like theirs (weights 0..2 against rows dropped or repeated) the
    predictions differ, by rounding only. (Where two splits gain almost
    the same, that rounding can also pick the other one.)"""
    rng = np.random.RandomState(seed)
    X = rng.rand(30, 3)
    y = rng.randint(0, 3, 30) if cls is GPULayerClassifier else rng.rand(30)
    w = rng.randint(0, 3, 30)
    weighted = cls(n_estimators=10, n_jobs=2).fit(X, y, sample_weight=w)
    repeated = cls(n_estimators=10, n_jobs=2).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    how = "predict_proba" if cls is GPULayerClassifier else "predict"
    a, b = getattr(weighted, how)(X), getattr(repeated, how)(X)
    relative = float(np.max(np.abs(a - b) / np.abs(b)))
    assert 0.0 < relative < 1e-6


def test_integer_weights_equal_repeated_rows():
    rng = np.random.RandomState(0)
    X, y = rng.rand(30, 3), rng.rand(30)
    w = rng.randint(1, 4, 30)
    weighted = GPULayerRegressor(n_estimators=5).fit(X, y, sample_weight=w)
    repeated = GPULayerRegressor(n_estimators=5).fit(np.repeat(X, w, axis=0),
                                                     np.repeat(y, w))
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))


@pytest.fixture(scope="module")
def classification():
    return make_classification(n_samples=400, n_features=8, n_informative=5,
                               n_classes=3, random_state=0)


def test_classes_of_any_label_type(classification):
    X, y = classification
    names = np.array(["setosa", "versicolor", "virginica"], dtype=object)[y]
    clf = GPULayerClassifier(n_estimators=20, n_jobs=2).fit(X, names)
    assert list(clf.classes_) == ["setosa", "versicolor", "virginica"]
    proba = clf.predict_proba(X)
    assert proba.shape == (400, 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1, rtol=1e-5)
    pred = clf.predict(X)
    assert pred.dtype == object and (pred == names).mean() > 0.9
    np.testing.assert_array_equal(pred, clf.classes_[proba.argmax(axis=1)])

    # Text classes are saved in the model, as the command saves them.
    assert clf.get_booster().class_names == ["setosa", "versicolor", "virginica"]

    binary = np.where(y == 1, 10, -5)
    clf2 = GPULayerClassifier(n_estimators=10, n_jobs=2).fit(X, binary)
    assert list(clf2.classes_) == [-5, 10]
    p2 = clf2.predict_proba(X)
    assert p2.shape == (400, 2)
    np.testing.assert_array_equal(clf2.predict(X), np.where(p2[:, 1] > 0.5, 10, -5))
    assert clf2.get_booster().class_names is None


def test_pipeline_grid_search_and_cross_validation(classification):
    X, y = classification
    pipe = make_pipeline(StandardScaler(), GPULayerClassifier(n_estimators=10, n_jobs=2))
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.mean() > 0.7
    grid = GridSearchCV(GPULayerClassifier(n_estimators=10, n_jobs=2),
                        {"max_depth": [2, 4], "learning_rate": [0.1, 0.3]}, cv=3)
    grid.fit(X, y)
    assert set(grid.best_params_) == {"max_depth", "learning_rate"}
    assert grid.best_score_ > 0.7
    Xr, yr = make_regression(n_samples=300, n_features=5, random_state=0)
    r2 = cross_val_score(GPULayerRegressor(n_estimators=50, n_jobs=2), Xr, yr, cv=3)
    assert r2.mean() > 0.6


def test_parameters_reach_the_booster():
    reg = GPULayerRegressor(n_estimators=7, learning_rate=0.2, max_depth=3,
                            reg_lambda=2.0, reg_alpha=0.5, random_state=9, n_jobs=2,
                            max_bin=64, grow_policy="lossguide", max_leaves=6)
    X, y = make_regression(n_samples=100, n_features=3, random_state=0)
    bst = reg.fit(X, y).get_booster()
    assert bst.num_rounds == 7 and reg.n_estimators_ == 7
    for key, value in [("eta", "0.20000000000000001"), ("max_depth", "3"),
                       ("lambda", "2"), ("alpha", "0.5"), ("seed", "9"),
                       ("nthread", "2"), ("max_bin", "64"),
                       ("grow_policy", "lossguide"), ("max_leaves", "6"),
                       ("device", "cpu"), ("objective", "reg:squarederror")]:
        assert bst.get_param(key) == value, key
    assert reg.feature_importances_.shape == (3,)
    assert abs(reg.feature_importances_.sum() - 1) < 1e-5


def test_eval_set_and_early_stopping(classification):
    X, y = classification
    clf = GPULayerClassifier(n_estimators=300, learning_rate=0.5,
                             early_stopping_rounds=5, eval_metric="merror", n_jobs=2)
    clf.fit(X[:300], y[:300], eval_set=[(X[:300], y[:300]), (X[300:], y[300:])])
    history = clf.evals_result_["validation_1"]["merror"]
    assert len(history) == clf.get_booster().num_rounds < 300
    assert clf.best_iteration == int(np.argmin(history))
    assert clf.best_score == history[clf.best_iteration]
    assert set(clf.evals_result_) == {"validation_0", "validation_1"}
    with pytest.raises(ValueError, match="not seen in training"):
        clf.fit(X, y, eval_set=[(X, y + 7)])


def test_dataframe_with_categorical_columns():
    rng = np.random.default_rng(0)
    n = 600
    df = pd.DataFrame({
        "x": rng.normal(size=n),
        "shop": pd.Categorical(rng.choice(["north", "south", "east"], n)),
        "brand": rng.choice(["acme", "zeta", None], n).astype(object),
    })
    y = np.where((df["shop"] == "south") | (df["brand"] == "zeta"), "yes", "no")
    clf = GPULayerClassifier(n_estimators=20, n_jobs=2).fit(df, y)
    assert list(clf.feature_names_in_) == ["x", "shop", "brand"]
    assert clf.get_booster().feature_names == ["x", "shop", "brand"]
    assert (clf.predict(df) == y).mean() > 0.95
    # Prediction on rows with only some of the categories, in another order.
    part = df[df["shop"] != "east"].copy()
    part["shop"] = part["shop"].cat.remove_unused_categories()
    np.testing.assert_array_equal(clf.predict(part), clf.predict(df)[df["shop"] != "east"])
    restored = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(restored.predict_proba(df), clf.predict_proba(df))


def test_predicting_no_rows_gives_empty_arrays():
    """As XGBoost's estimators: no rows in, empty arrays of the right
    shape out (fitting still needs rows)."""
    X, y = make_classification(n_samples=120, n_features=4, n_informative=3,
                               n_redundant=0, n_classes=3, random_state=0)
    empty = X[:0]
    labels = np.array(["a", "b", "c"])[y]
    multi = GPULayerClassifier(n_estimators=3, n_jobs=2).fit(X, labels)
    assert multi.predict(empty).shape == (0,)
    assert multi.predict(empty).dtype == labels.dtype
    assert multi.predict_proba(empty).shape == (0, 3)
    assert multi.predict(empty, output_margin=True).shape == (0, 3)
    assert multi.predict(empty, pred_contrib=True).shape == (0, 15)
    binary = GPULayerClassifier(n_estimators=3, n_jobs=2).fit(X, y > 0)
    assert binary.predict(empty).shape == (0,)
    assert binary.predict_proba(empty).shape == (0, 2)
    assert binary.predict_proba(pd.DataFrame(empty)).dtype == np.float32
    reg = GPULayerRegressor(n_estimators=3, n_jobs=2).fit(X, y.astype(float))
    assert reg.predict(empty).shape == (0,)
    assert reg.predict(empty, pred_contrib=True).shape == (0, 5)
    with pytest.raises(ValueError, match="0 sample"):
        GPULayerRegressor(n_estimators=3).fit(empty, y[:0])


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="1 class"):
        GPULayerClassifier(n_estimators=2).fit(np.ones((5, 2)), ["a"] * 5)

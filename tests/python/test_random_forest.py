"""Random forests: num_parallel_tree (several trees a round and output,
all fitting the round's gradients, each on its own sample), XGBoost's
XGBRF* estimators, rounds in slicing, pred_leaf and iteration_range, the
model file, and the XGBoost export and import of forests.

Accuracy against XGBoost's forests on real data is in
tests/accuracy/test_forest_accuracy.py; CPU against GPU bits in the
conformance model suites (test_api_random_forest)."""
import json

import numpy as np
import pytest

import gpulayer
from gpulayer import _model_text
from gpulayer.errors import InvalidArgumentError, UnsupportedError

xgb = pytest.importorskip("xgboost")


def data(rows=600, classes=0, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, 5)).astype(np.float32)
    if classes:
        y = np.argmax(X[:, :classes] + 0.5 * rng.standard_normal((rows, classes)), axis=1)
    else:
        y = X[:, 0] * 2 + X[:, 1] * X[:, 2] + 0.3 * rng.standard_normal(rows)
    return X, y.astype(np.float32)


MULTI = dict(objective="multi:softprob", num_class=3, max_depth=3, eta=0.5, subsample=0.7,
             colsample_bynode=0.7, num_parallel_tree=3, nthread=2)


def test_identical_trees_average_to_one_tree():
    """Without sampling every tree of the round is the same, its leaves eta
    / P of one tree's: the forest predicts what one tree does, as XGBoost's."""
    X, y = data()
    params = dict(max_depth=4, eta=0.5, nthread=2)
    one = gpulayer.train(params, gpulayer.Dataset(X, y), 1)
    forest = gpulayer.train(dict(params, num_parallel_tree=4), gpulayer.Dataset(X, y), 1)
    assert forest.num_rounds == 1 and len(forest.get_dump()) == 4
    np.testing.assert_allclose(forest.predict(X), one.predict(X), rtol=1e-6, atol=1e-6)
    ours = forest.predict(X, output_margin=True) - one.predict(X, output_margin=True)
    theirs = [xgb.train(dict(params, num_parallel_tree=p, tree_method="hist"),
                        xgb.DMatrix(X, y), 1).predict(xgb.DMatrix(X)) for p in (1, 4)]
    np.testing.assert_allclose(ours, theirs[1] - theirs[0], atol=1e-6)


def test_trees_of_a_round_fit_the_rounds_gradients():
    """Each tree of a round sees the margins of the round's start: the
    second tree of a round of two without sampling equals the first (a
    boosted second tree would fit the residuals of the first)."""
    X, y = data()
    b = gpulayer.train(dict(max_depth=3, nthread=2, num_parallel_tree=2), gpulayer.Dataset(X, y),
                       2)
    dump = b.get_dump(with_stats=True)
    assert dump[0] == dump[1] and dump[2] == dump[3] and dump[0] != dump[2]


def test_parallel_trees_sample_their_own_rows_and_features():
    X, y = data()
    b = gpulayer.train(dict(max_depth=3, nthread=2, num_parallel_tree=3, subsample=0.6,
                            colsample_bynode=0.6, seed=5), gpulayer.Dataset(X, y), 1)
    dump = b.get_dump()
    assert len(set(dump)) == 3
    again = gpulayer.train(dict(max_depth=3, nthread=2, num_parallel_tree=3, subsample=0.6,
                                colsample_bynode=0.6, seed=5), gpulayer.Dataset(X, y), 1)
    assert again.get_dump() == dump


def test_rounds_slicing_pred_leaf_and_iteration_range():
    X, y = data(classes=3)
    b = gpulayer.train(MULTI, gpulayer.Dataset(X, y), 4)
    assert b.num_rounds == 4 and len(b.get_dump()) == 4 * 3 * 3
    assert b[1:3].num_rounds == 2
    np.testing.assert_array_equal(b[0:2].predict(X), b.predict(X, iteration_range=(0, 2)))
    np.testing.assert_allclose(b[1:3].predict(X, output_margin=True) -
                               b[1:3].predict(X, output_margin=True), 0)
    leaves = b.predict(X, pred_leaf=True)
    assert leaves.shape == (len(X), 36)
    assert b.predict(X, pred_leaf=True, iteration_range=(0, 1)).shape == (len(X), 9)


def test_model_file_keeps_the_forest(tmp_path):
    X, y = data(classes=3)
    b = gpulayer.train(MULTI, gpulayer.Dataset(X, y), 2)
    path = tmp_path / "forest.json"
    b.save_model(path)
    assert json.loads(path.read_text())["num_parallel_tree"] == 3
    loaded = gpulayer.Booster(model_file=path)
    assert loaded.num_rounds == 2
    np.testing.assert_array_equal(loaded.predict(X), b.predict(X))
    one = gpulayer.train(dict(MULTI, num_parallel_tree=1), gpulayer.Dataset(X, y), 1)
    one.save_model(path)
    assert "num_parallel_tree" not in json.loads(path.read_text())


def test_model_with_a_partial_round_is_refused(tmp_path):
    X, y = data()
    b = gpulayer.train(dict(nthread=2, num_parallel_tree=3), gpulayer.Dataset(X, y), 2)
    doc = _model_text.parse(b.save_raw())
    doc["trees"] = doc["trees"][:5]
    path = tmp_path / "partial.json"
    path.write_bytes(_model_text.seal(doc))  # a checksum of its own: only the count is wrong
    with pytest.raises(gpulayer.GPULayerError, match="5 trees is not a whole number of "
                                                    "rounds of 3 trees"):
        gpulayer.Booster(model_file=path)


def test_xgboost_export_and_import_of_forests(tmp_path):
    X, y = data(classes=3)
    ours = gpulayer.train(MULTI, gpulayer.Dataset(X, y), 2)
    ours.save_model(tmp_path / "ours.ubj")
    theirs = xgb.Booster(model_file=str(tmp_path / "ours.ubj"))
    assert theirs.num_boosted_rounds() == 2
    np.testing.assert_allclose(theirs.predict(xgb.DMatrix(X)), ours.predict(X), atol=1e-6)
    np.testing.assert_allclose(theirs.predict(xgb.DMatrix(X), iteration_range=(1, 2)),
                               ours.predict(X, iteration_range=(1, 2)), atol=1e-6)

    trained = xgb.train(dict(MULTI, tree_method="hist"), xgb.DMatrix(X, y), 3)
    trained.save_model(str(tmp_path / "xgb.json"))
    loaded = gpulayer.Booster(model_file=tmp_path / "xgb.json")
    assert loaded.num_rounds == 3
    np.testing.assert_allclose(loaded.predict(X), trained.predict(xgb.DMatrix(X)), atol=1e-6)
    np.testing.assert_allclose(loaded.predict(X, iteration_range=(1, 3)),
                               trained.predict(xgb.DMatrix(X), iteration_range=(1, 3)),
                               atol=1e-6)


def test_continued_training_keeps_num_parallel_tree():
    X, y = data()
    params = dict(nthread=2, num_parallel_tree=2, subsample=0.8)
    first = gpulayer.train(params, gpulayer.Dataset(X, y), 2)
    more = gpulayer.train(params, gpulayer.Dataset(X, y), 1, xgb_model=first)
    assert more.num_rounds == 3 and len(more.get_dump()) == 6
    with pytest.raises(InvalidArgumentError, match="num_parallel_tree=2"):
        gpulayer.train(dict(params, num_parallel_tree=3), gpulayer.Dataset(X, y), 1,
                       xgb_model=first)


def test_custom_objective_is_asked_once_a_round():
    X, y = data()
    calls = []

    def squared(predt, dtrain):
        calls.append(1)
        return predt - dtrain.get_label(), np.ones_like(predt)

    gpulayer.train(dict(nthread=2, num_parallel_tree=3, subsample=0.7), gpulayer.Dataset(X, y),
                   2, obj=squared)
    assert len(calls) == 2


def test_too_many_trees_are_refused():
    X, y = data(rows=50)
    with pytest.raises(InvalidArgumentError, match="more than a model holds"):
        gpulayer.train(dict(num_parallel_tree=100000), gpulayer.Dataset(X, y), 30000)


def test_rf_estimators_take_xgboosts_forest_defaults():
    pytest.importorskip("sklearn")
    assert gpulayer.XGBRFRegressor is gpulayer.GPULayerRFRegressor
    assert gpulayer.XGBRFClassifier is gpulayer.GPULayerRFClassifier
    X, y = data()
    reg = gpulayer.XGBRFRegressor(n_estimators=20, n_jobs=2, random_state=1).fit(X, y)
    booster = reg.get_booster()
    assert booster.num_rounds == 1 and len(booster.get_dump()) == 20
    assert float(booster.get_param("eta")) == 1.0
    assert float(booster.get_param("subsample")) == 0.8
    assert float(booster.get_param("colsample_bynode")) == 0.8
    assert int(booster.get_param("num_parallel_tree")) == 20
    Xc, yc = data(classes=3)
    clf = gpulayer.XGBRFClassifier(n_estimators=10, n_jobs=2, learning_rate=0.5).fit(Xc, yc)
    assert float(clf.get_booster().get_param("eta")) == 0.5
    assert clf.predict_proba(Xc).shape == (len(Xc), 3)
    assert len(clf.get_booster().get_dump()) == 30


def test_rf_estimators_refuse_early_stopping():
    pytest.importorskip("sklearn")
    X, y = data()
    with pytest.raises(UnsupportedError, match="random forests"):
        gpulayer.XGBRFRegressor(n_estimators=5, early_stopping_rounds=2).fit(
            X, y, eval_set=[(X, y)])

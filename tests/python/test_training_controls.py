"""Training controls from Python: interaction_constraints by index and by
feature name (train and the estimators), colsample_bylevel and
colsample_bynode, with XGBoost's forms and clear errors."""

import json

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(3000, 6)).astype(np.float32)
    y = X[:, 0] * X[:, 2] + X[:, 1] * X[:, 3] + (X[:, 4] > 0) * X[:, 5]
    return X, y.astype(np.float32)


def paths(tree, node=0, used=frozenset()):
    """The feature index sets of every root-to-leaf path of a tree of the
    saved model (columns of arrays: left, right, feature)."""
    if tree["left"][node] < 0:
        yield used
        return
    used = used | {tree["feature"][node]}
    yield from paths(tree, tree["left"][node], used)
    yield from paths(tree, tree["right"][node], used)


def all_paths_within(bst, sets):
    for tree in json.loads(bst.save_raw())["trees"]:
        for used in paths(tree):
            if len(used) > 1 and not any(used <= s for s in sets):
                return False
    return True


PARAMS = {"objective": "reg:squarederror", "max_depth": 5, "eta": 0.3, "nthread": 2,
          "device": "cpu"}


def test_interaction_constraints_by_index_and_name(data):
    X, y = data
    names = list("abcdef")
    d = gpulayer.Dataset(X, label=y, feature_names=names)
    free = gpulayer.train(PARAMS, d, 8)
    sets = [{0, 1}, {2, 3}, {4, 5}]
    assert not all_paths_within(free, sets)
    by_name = gpulayer.train(dict(PARAMS, interaction_constraints=[["a", "b"], ["c", "d"],
                                                                   ["e", "f"]]), d, 8)
    assert all_paths_within(by_name, sets)
    by_index = gpulayer.train(dict(PARAMS, interaction_constraints=[[0, 1], [2, 3], [4, 5]]),
                              d, 8)
    as_text = gpulayer.train(dict(PARAMS, interaction_constraints="[[0,1],[2,3],[4,5]]"), d, 8)
    assert by_name.save_raw() == by_index.save_raw() == as_text.save_raw()
    with pytest.raises(InvalidArgumentError, match="no feature named 'z'"):
        gpulayer.train(dict(PARAMS, interaction_constraints=[["a", "z"]]), d, 2)


def test_estimator_takes_interaction_constraints(data):
    pytest.importorskip("sklearn")
    X, y = data
    reg = gpulayer.GPULayerRegressor(n_estimators=6, max_depth=4,
                                     interaction_constraints=[[0, 1], [2, 3], [4, 5]])
    reg.fit(X, y)
    assert all_paths_within(reg.get_booster(), [{0, 1}, {2, 3}, {4, 5}])


def test_column_sampling_rates(data):
    X, y = data
    d = gpulayer.Dataset(X, label=y)
    plain = gpulayer.train(PARAMS, d, 4)
    sampled = gpulayer.train(dict(PARAMS, colsample_bylevel=0.5, colsample_bynode=0.5), d, 4)
    again = gpulayer.train(dict(PARAMS, colsample_bylevel=0.5, colsample_bynode=0.5), d, 4)
    assert sampled.save_raw() == again.save_raw() != plain.save_raw()
    for key in ("colsample_bylevel", "colsample_bynode"):
        with pytest.raises(InvalidArgumentError, match=key):
            gpulayer.train(dict(PARAMS, **{key: 0}), d, 1)


def test_feature_weights(data):
    X, y = data
    w = np.zeros(6)
    w[3] = 2.0
    d = gpulayer.Dataset(X, label=y, feature_weights=w)
    bst = gpulayer.train(dict(PARAMS, colsample_bytree=0.1), d, 4)
    for tree in json.loads(bst.save_raw())["trees"]:
        assert {f for f, left in zip(tree["feature"], tree["left"]) if left >= 0} <= {3}
    with pytest.raises(InvalidArgumentError, match="5 weights, but the dataset has 6"):
        d.set_feature_weights(np.ones(5))
    with pytest.raises(InvalidArgumentError, match="every weight is 0"):
        d.set_feature_weights(np.zeros(6))

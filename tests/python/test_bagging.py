"""LightGBM's bagging: bagging_fraction of the rows, drawn anew every
bagging_freq rounds, and no bagging while bagging_freq is 0; with
XGBoost's subsample, bagging_freq sets how often its rows are drawn. A
tree's root cover is the hessian sum of its rows, so with squared error
and a distinct weight a row it tells which rows a tree drew."""
import json

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import GPULayerError, InvalidArgumentError


@pytest.fixture(scope="module")
def data():
    r = np.random.default_rng(11)
    X = r.normal(size=(2000, 4)).astype(np.float32)
    y = (X[:, 0] - X[:, 1] + r.normal(size=2000)).astype(np.float32)
    w = r.uniform(0.5, 1.5, size=2000).astype(np.float32)
    return gpulayer.Dataset(X, label=y, weight=w), float(w.astype(np.float64).sum())


def root_covers(params, data, rounds=7):
    bst = gpulayer.train({"max_depth": 3, "nthread": 2, **params}, data, rounds)
    return [json.loads(tree)["cover"] for tree in bst.get_dump(dump_format="json",
                                                                with_stats=True)]


def test_rows_are_drawn_every_bagging_freq_rounds(data):
    ds, total = data
    covers = root_covers({"bagging_fraction": 0.5, "bagging_freq": 3}, ds)
    assert covers[0] == covers[1] == covers[2]
    assert covers[3] == covers[4] == covers[5]
    assert len({covers[0], covers[3], covers[6]}) == 3
    assert all(c < 0.6 * total for c in covers)


def test_no_bagging_without_bagging_freq(data):
    ds, total = data
    covers = root_covers({"bagging_fraction": 0.5}, ds)
    assert covers == pytest.approx([total] * 7, rel=1e-6)


def test_bagging_freq_paces_subsample(data):
    ds, _ = data
    every = root_covers({"subsample": 0.5}, ds)
    assert len(set(every)) == 7
    paced = root_covers({"subsample": 0.5, "subsample_freq": 2}, ds)
    assert paced[0] == paced[1] == every[0]
    assert paced[2] == paced[3] == every[2]
    # bagging_fraction with bagging_freq=1 is subsample, draw for draw.
    assert root_covers({"bagging_fraction": 0.5, "bagging_freq": 1}, ds) == every


def test_both_fractions_are_refused(data):
    ds, _ = data
    with pytest.raises(InvalidArgumentError, match="subsample=0.5 and bagging_fraction=0.7"):
        gpulayer.train({"subsample": 0.5, "bagging_fraction": 0.7}, ds, 2)


def test_label_dependent_fractions_are_refused(data):
    ds, _ = data
    with pytest.raises(GPULayerError, match="pos_bagging_fraction.*bagging_fraction"):
        gpulayer.train({"pos_bagging_fraction": 0.5}, ds, 2)

"""Booster.predictor(): the same bits as Booster.predict for one row, small
batches and large ones, margins, fewer rounds, multiclass and missing
values; DataFrames in the model's column order; it outlives its booster;
clear errors for what it does not take."""

import threading

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(2000, 5)).astype(np.float32)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = (np.nan_to_num(X[:, 0]) - np.nan_to_num(X[:, 1]) + rng.normal(size=2000) > 0)
    return X, y.astype(np.float32)


PARAMS = {"objective": "binary:logistic", "max_depth": 4, "nthread": 2, "device": "cpu"}


def booster(X, y, **extra):
    return gpulayer.train(dict(PARAMS, **extra), gpulayer.Dataset(X, label=y,
                                                                  feature_names=list("abcde")),
                          num_boost_round=12)


@pytest.mark.parametrize("rows", [1, 16, 512, 513, 2000])
def test_same_bits_as_predict(data, rows):
    X, y = data
    bst = booster(X, y)
    for margin in (False, True):
        for rounds in (0, 5):
            want = bst.predict(X[:rows], output_margin=margin, num_rounds=rounds)
            got = bst.predictor(output_margin=margin, num_rounds=rounds).predict(X[:rows])
            assert got.dtype == np.float32 and got.shape == want.shape
            np.testing.assert_array_equal(got, want)
    # Fortran order, float64 and a list give the same values.
    p = bst.predictor()
    want = bst.predict(X[:40])
    np.testing.assert_array_equal(p.predict(np.asfortranarray(X[:40])), want)
    np.testing.assert_array_equal(p.predict(X[:40].astype(np.float64)), want)
    np.testing.assert_array_equal(p.predict(X[:40].tolist()), want)


def test_one_row_as_a_vector(data):
    X, y = data
    bst = booster(X, y)
    got = bst.predictor().predict(X[3])
    np.testing.assert_array_equal(got, bst.predict(X[3:4]))


def test_multiclass(data):
    X, _ = data
    y = (np.nan_to_num(X[:, 2]) > 0).astype(np.float32) + (np.nan_to_num(X[:, 3]) > 0.5)
    for objective in ("multi:softprob", "multi:softmax"):
        bst = booster(X, y, objective=objective, num_class=3)
        got = bst.predictor().predict(X[:100])
        np.testing.assert_array_equal(got, bst.predict(X[:100]))
        assert got.shape == ((100, 3) if objective == "multi:softprob" else (100,))


def test_dataframe_columns_by_name(data):
    pd = pytest.importorskip("pandas")
    X, y = data
    bst = booster(X, y)
    df = pd.DataFrame(X[:30], columns=list("abcde"))[list("edcba")]
    np.testing.assert_array_equal(bst.predictor().predict(df), bst.predict(X[:30]))
    with pytest.raises(ValueError, match="no column 'a'"):
        bst.predictor().predict(df.drop(columns=["a"]))
    df["e"] = ["x"] * 30
    with pytest.raises(TypeError, match="Booster.predict"):
        bst.predictor().predict(df)


def test_outlives_its_booster_and_shares_threads(data):
    X, y = data
    bst = booster(X, y)
    want = bst.predict(X)
    p = bst.predictor()
    bst.close()
    results = [None] * 4

    def work(i):
        results[i] = np.concatenate([p.predict(X[r:r + 7]) for r in range(0, 2000, 7)])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, want)


def test_errors(data):
    X, y = data
    with pytest.raises(InvalidArgumentError, match="no model"):
        gpulayer.Booster().predictor()
    bst = booster(X, y)
    with pytest.raises(ValueError, match="num_rounds"):
        bst.predictor(num_rounds=-1)
    p = bst.predictor()
    with pytest.raises(InvalidArgumentError, match="4 columns but the model was trained on 5"):
        p.predict(X[:3, :4])
    with pytest.raises(ValueError, match="2-D"):
        p.predict(X[:8].reshape(2, 4, 5))
    p.close()
    with pytest.raises(ValueError, match="closed"):
        p.predict(X[:1])

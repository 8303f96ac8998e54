"""Property-based tests of the Python API (hypothesis): random shapes,
dtypes, missing-value patterns, categorical columns and parameters. Every
training either succeeds or raises one of the package's documented errors
(gpulayer.errors), and a label the objective cannot take is always
refused; a model that trains predicts the same bits whatever the
thread count, for any slice of the rows, and after a save and load."""
import numpy as np
import pytest

import gpulayer
from gpulayer.errors import GPULayerError

hypothesis = pytest.importorskip("hypothesis")
pd = pytest.importorskip("pandas")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

OBJECTIVES = ["reg:squarederror", "binary:logistic", "count:poisson", "reg:absoluteerror",
              "multi:softprob", "reg:gamma"]


def labels(objective, rng, n):
    if objective == "binary:logistic":
        return rng.integers(0, 2, n).astype(np.float64)
    if objective == "multi:softprob":
        return rng.integers(0, 3, n).astype(np.float64)
    if objective == "count:poisson":
        return rng.poisson(2.0, n).astype(np.float64)
    if objective == "reg:gamma":
        return rng.gamma(2.0, 1.0, n) + 1e-3
    return rng.normal(size=n)


@st.composite
def problems(draw):
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    rows = draw(st.integers(1, 120))
    cols = draw(st.integers(1, 5))
    dtype = draw(st.sampled_from([np.float32, np.float64, np.int32, np.int64]))
    nan_share = draw(st.sampled_from([0.0, 0.1, 0.5, 1.0]))
    values = rng.normal(size=(rows, cols)) * draw(st.sampled_from([1.0, 1e-30, 1e30]))
    if np.issubdtype(dtype, np.integer):
        values = np.clip(np.round(values), -1e6, 1e6)
    X = values.astype(dtype)
    if nan_share and not np.issubdtype(dtype, np.integer):
        X[rng.random(X.shape) < nan_share] = np.nan
    categorical = draw(st.booleans())
    objective = draw(st.sampled_from(OBJECTIVES))
    params = {
        "objective": objective,
        "max_depth": draw(st.integers(1, 6)),
        "eta": draw(st.sampled_from([0.05, 0.3, 1.0])),
        "subsample": draw(st.sampled_from([1.0, 0.5])),
        "max_bin": draw(st.sampled_from([2, 16, 256])),
        "grow_policy": draw(st.sampled_from(["depthwise", "lossguide"])),
        "min_child_weight": draw(st.sampled_from([0.0, 1.0])),
        "seed": seed % 1000,
    }
    if params["grow_policy"] == "lossguide":
        params["max_leaves"] = draw(st.integers(2, 16))
    if objective == "multi:softprob":
        params["num_class"] = 3
    rounds = draw(st.integers(1, 4))
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(cols)])
    if categorical:
        names = np.array(["red", "green", "blue", "a b", "É"])[:draw(st.integers(1, 5))]
        cells = rng.choice(names, rows).astype(object)
        cells[rng.random(rows) < nan_share / 2] = None
        frame["colour"] = pd.Categorical(cells)
    y = labels(objective, rng, rows)
    # A label no objective takes (NaN, infinite), or one this objective
    # does not (negative counts and amounts, a class past num_class).
    bad = draw(st.sampled_from([None, None, None, "nan", "inf", "out of range"]))
    if bad == "nan":
        y[rng.integers(rows)] = np.nan
    elif bad == "inf":
        y[rng.integers(rows)] = -np.inf
    elif bad == "out of range":
        y[rng.integers(rows)] = {"binary:logistic": 2.0, "multi:softprob": 3.0,
                                 "count:poisson": -1.0, "reg:gamma": -1.0}.get(objective, 0.0)
        bad = None if objective in ("reg:squarederror", "reg:absoluteerror") else bad
    return frame, y, params, rounds, bad


def train(frame, y, params, rounds, nthread):
    return gpulayer.train({**params, "nthread": nthread}, gpulayer.Dataset(frame, label=y),
                          rounds)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_training_succeeds_alike_or_raises_a_documented_error(problem):
    frame, y, params, rounds, bad = problem
    if bad:
        with pytest.raises(GPULayerError, match="label"):
            train(frame, y, params, rounds, 1)
        return
    try:
        one = train(frame, y, params, rounds, 1)
    except GPULayerError as e:
        # A documented refusal, with a message that says why.
        assert str(e)
        return
    two = train(frame, y, params, rounds, 2)
    assert one.save_raw() == two.save_raw()
    data = gpulayer.Dataset(frame)
    p = one.predict(data)
    rows = len(frame)
    assert p.shape[0] == rows
    assert not np.isnan(p).any()
    np.testing.assert_array_equal(p, two.predict(data))
    # A slice of the rows predicts as the slice of the predictions.
    half = rows // 2
    np.testing.assert_array_equal(one.predict(gpulayer.Dataset(frame.iloc[half:])), p[half:])
    # A saved and loaded model predicts the same bits.
    again = gpulayer.Booster()
    again.load_raw(one.save_raw())
    np.testing.assert_array_equal(again.predict(data), p)

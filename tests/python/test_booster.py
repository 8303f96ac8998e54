"""The low-level API: train, callbacks, early stopping, model files,
pickling, errors and Ctrl-C."""

import copy
import os
import pickle
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError, ModelError, ParseError

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(1500, 6)).astype(np.float32)
    logit = 2 * X[:, 0] - X[:, 1] + 0.5 * X[:, 2] * X[:, 3]
    y = (rng.random(1500) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    train = gpulayer.Dataset(X[:1000], label=y[:1000], feature_names=list("abcdef"))
    valid = gpulayer.Dataset(X[1000:], label=y[1000:], feature_names=list("abcdef"))
    return X, y, train, valid


PARAMS = {"objective": "binary:logistic", "eta": 0.3, "max_depth": 4, "nthread": 2,
          "device": "cpu"}


def test_train_predict_and_queries(binary):
    X, y, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, num_boost_round=15)
    assert bst.num_rounds == 15 and bst.num_features == 6 and bst.num_outputs == 1
    assert bst.feature_names == list("abcdef")
    assert bst.best_iteration is None
    p = bst.predict(X)
    assert p.shape == (1500,) and p.dtype == np.float32
    assert ((p > 0) & (p < 1)).all()
    margin = bst.predict(X, output_margin=True)
    np.testing.assert_allclose(1 / (1 + np.exp(-margin)), p, rtol=1e-5)
    first5 = bst.predict(X, num_rounds=5)
    np.testing.assert_array_equal(bst.predict(X, iteration_range=(0, 5)), first5)
    assert not np.array_equal(first5, p)
    assert bst.get_param("max_depth") == "4"


def test_feature_importance(binary):
    _, _, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, 10)
    weight = bst.feature_importance("weight")
    gain = bst.feature_importance("total_gain")
    assert weight.shape == (6,) and weight.sum() > 0
    assert np.argmax(gain) == 0  # the strongest feature
    with pytest.raises(ValueError, match="importance_type"):
        bst.feature_importance("nope")


def test_evals_result_callbacks_and_early_stopping(binary):
    _, _, dtrain, dvalid = binary
    history, seen = {}, []
    bst = gpulayer.train(
        {**PARAMS, "eval_metric": ["logloss", "auc"], "eta": 0.5, "max_depth": 6},
        dtrain, 200, evals=[(dtrain, "train"), (dvalid, "valid")],
        early_stopping_rounds=5, evals_result=history,
        callbacks=[lambda r, results: seen.append((r, results))])
    assert set(history) == {"train", "valid"}
    assert set(history["valid"]) == {"logloss", "auc"}
    rounds = len(history["valid"]["auc"])
    assert bst.num_rounds == rounds < 200
    best = bst.best_iteration
    assert best == int(np.argmax(history["valid"]["auc"]))
    assert rounds == best + 6
    assert seen[0][0] == 0 and len(seen) == rounds
    r = seen[0][1][-1]
    assert (r.data_name, r.metric_name) == ("valid", "auc") and 0.5 < r.value <= 1
    # Prediction stops at the best round by default.
    X = np.zeros((1, 6), np.float32)
    np.testing.assert_array_equal(bst.predict(X), bst.predict(X, num_rounds=best + 1))


def test_callback_can_stop_training(binary):
    _, _, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, 50, callbacks=[lambda r, _: r == 6])
    assert bst.num_rounds == 7


def test_callback_exception_propagates(binary):
    _, _, dtrain, _ = binary

    def fail(round_index, results):
        if round_index == 3:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        gpulayer.train(PARAMS, dtrain, 50, callbacks=[fail])


@pytest.fixture
def sigint_default():
    """Python's own SIGINT handler for the test: a process started in the
    background by a shell without job control inherits SIGINT ignored,
    and training then leaves it ignored, as it should."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_sigint_during_training_raises_keyboard_interrupt(binary, sigint_default):
    _, _, dtrain, _ = binary
    rounds = []

    def interrupt(round_index, results):
        rounds.append(round_index)
        if round_index == 2:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        gpulayer.train(PARAMS, dtrain, 50, callbacks=[interrupt])
    assert rounds == [0, 1, 2]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_stops_a_long_run_cleanly(tmp_path):
    """A real SIGINT from outside, while the C library is training."""
    code = textwrap.dedent("""
        import signal, sys, numpy as np, gpulayer
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as sigint_default
        X = np.random.default_rng(0).normal(size=(20000, 20)).astype(np.float32)
        d = gpulayer.Dataset(X, label=X[:, 0])
        def started(r, _):
            if r == 0:
                print("started", flush=True)
        try:
            gpulayer.train({"max_depth": 8, "nthread": 1, "device": "cpu"}, d, 100000,
                           callbacks=[started])
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
    """)
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == "started"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 3, err
    assert "interrupted" in out


def test_errors_carry_the_c_message(binary):
    _, _, dtrain, _ = binary
    with pytest.raises(InvalidArgumentError, match="unknown parameter 'nope'"):
        gpulayer.Booster({"nope": 1})
    with pytest.raises(ValueError, match="max_depth"):
        gpulayer.train({"max_depth": -3}, dtrain)
    bad = gpulayer.Dataset(np.zeros((3, 2)), label=[0, 2, 1])
    with pytest.raises(gpulayer.GPULayerError, match="binary:logistic needs labels"):
        gpulayer.train(PARAMS, bad, 2)
    with pytest.raises(ValueError, match="no model"):
        gpulayer.Booster().predict(np.zeros((1, 2)))


def test_save_and_load_round_trip(binary, tmp_path):
    X, _, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, 10)
    path = tmp_path / "model.json"
    bst.save_model(path)
    loaded = gpulayer.Booster(model_file=path)
    np.testing.assert_array_equal(loaded.predict(X), bst.predict(X))
    assert loaded.feature_names == list("abcdef")
    again = gpulayer.Booster().load_model(str(path))
    np.testing.assert_array_equal(again.predict(X), bst.predict(X))
    damaged = tmp_path / "damaged.json"
    damaged.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(gpulayer.GPULayerError) as info:
        gpulayer.Booster(model_file=damaged)
    assert str(info.value)
    assert isinstance(info.value, (ModelError, ValueError, OSError))


def test_pickle_and_copy(binary):
    X, _, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, 10)
    expected = bst.predict(X)
    for clone in (pickle.loads(pickle.dumps(bst)), copy.deepcopy(bst), bst.copy()):
        np.testing.assert_array_equal(clone.predict(X), expected)
        assert clone.get_param("max_depth") == "4"
    empty = pickle.loads(pickle.dumps(gpulayer.Booster({"max_depth": 3})))
    assert empty.get_param("max_depth") == "3" and empty.num_rounds == 0


def test_multiclass_outputs():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(600, 4)).astype(np.float32)
    y = np.digitize(X[:, 0], [-0.5, 0.5]).astype(np.float32)
    d = gpulayer.Dataset(X, label=y)
    prob = gpulayer.train({"objective": "multi:softprob", "num_class": 3, "nthread": 2,
                           "device": "cpu"}, d, 10).predict(X)
    assert prob.shape == (600, 3)
    np.testing.assert_allclose(prob.sum(axis=1), 1, rtol=1e-5)
    assert (prob.argmax(axis=1) == y).mean() > 0.9
    cls = gpulayer.train({"objective": "multi:softmax", "num_class": 3, "nthread": 2,
                          "device": "cpu"}, d, 10).predict(X)
    assert cls.shape == (600,)
    np.testing.assert_array_equal(cls, prob.argmax(axis=1))


@pytest.mark.parametrize("objective, outputs", [("binary:logistic", 1),
                                                ("multi:softprob", 3),
                                                ("multi:softmax", 3)])
def test_predicting_no_rows_gives_empty_arrays(objective, outputs):
    """Zero rows, as an array, a sparse matrix or a Dataset, predict to
    float32 arrays of the shape that rows would have, every output kind."""
    sparse = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 4)).astype(np.float32)
    y = np.digitize(X[:, 0], [-0.5, 0.5]).astype(np.float32)
    params = {"objective": objective, "nthread": 2, "device": "cpu"}
    if outputs > 1:
        params["num_class"] = outputs
    else:
        y = (y > 0).astype(np.float32)
    bst = gpulayer.train(params, gpulayer.Dataset(X, label=y), 3)
    rows = (outputs,) if outputs > 1 else ()
    predicted = () if objective == "multi:softmax" else rows
    empty = np.empty((0, 4), dtype=np.float64)
    for data in (empty, sparse.csr_matrix(empty), gpulayer.Dataset(empty)):
        for kwargs, shape in [({}, predicted), ({"output_margin": True}, rows),
                              ({"pred_contribs": True}, rows + (5,)),
                              ({"pred_contribs": True, "approx_contribs": True}, rows + (5,)),
                              ({"pred_interactions": True}, rows + (5, 5))]:
            out = bst.predict(data, **kwargs)
            assert out.shape == (0,) + shape, kwargs
            assert out.dtype == np.float32
    assert bst.predictor().predict(empty).shape == (0,) + predicted


def test_training_needs_rows():
    empty = gpulayer.Dataset(np.empty((0, 3)), label=np.empty(0))
    assert empty.shape == (0, 3)
    with pytest.raises(InvalidArgumentError, match="empty"):
        gpulayer.train(PARAMS, empty, 2)
    X = np.arange(30, dtype=np.float32).reshape(10, 3)
    dtrain = gpulayer.Dataset(X, label=(X[:, 0] > 10).astype(np.float32))
    with pytest.raises(InvalidArgumentError, match="evaluation set 0 has no rows"):
        gpulayer.train(PARAMS, dtrain, 2, evals=[(empty, "valid")])


def test_export_xgboost_writes_json(binary, tmp_path):
    _, _, dtrain, _ = binary
    bst = gpulayer.train(PARAMS, dtrain, 3)
    bst.export_xgboost(tmp_path / "xgb.json")
    assert b'"learner"' in (tmp_path / "xgb.json").read_bytes()


def test_training_in_a_worker_thread(binary):
    """Off the main thread no SIGINT handler is installed; training works."""
    import threading

    X, _, dtrain, _ = binary
    out = {}
    worker = threading.Thread(
        target=lambda: out.update(bst=gpulayer.train(PARAMS, dtrain, 5)))
    worker.start()
    worker.join(60)
    assert out["bst"].num_rounds == 5
    assert out["bst"].predict(X).shape == (1500,)


@pytest.mark.parametrize("device", ["vulkan", "cuda"])
def test_predict_on_device_matches_cpu(binary, device):
    X, _, train, _ = binary
    X = X.copy()
    X[::7, 2] = np.nan
    booster = gpulayer.train({"objective": "binary:logistic", "device": "cpu"}, train,
                             num_boost_round=8)
    try:
        on_device = booster.predict(X, device=device)
    except (gpulayer.errors.PlacementError, gpulayer.errors.UnsupportedError,
            gpulayer.errors.DeviceError) as e:
        assert str(e)  # refused with a message, never a crash
        pytest.skip(f"{device} is not usable here: {e}")
    cpu = booster.predict(X)
    assert on_device.view(np.uint32).tolist() == cpu.view(np.uint32).tolist()
    margins = booster.predict(X, output_margin=True, device=device)
    cpu_margins = booster.predict(X, output_margin=True)
    assert margins.view(np.uint32).tolist() == cpu_margins.view(np.uint32).tolist()
    with pytest.raises(gpulayer.errors.GPULayerError):
        booster.predict(X, device="no-such-device")


def test_predict_refuses_text_in_a_numeric_column():
    """A numeric column passed with object dtype and one typo must not be
    read as category codes by a model that learned it as numbers."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = (X["a"] > 0).astype(np.float32).to_numpy()
    booster = gpulayer.train({"objective": "binary:logistic", "num_round": 3,
                              "device": "cpu"}, gpulayer.Dataset(X, label=y))
    bad = X.astype({"a": object})
    bad.loc[5, "a"] = "1,5"
    with pytest.raises(ParseError, match=r"column 'a': it looks numeric, but 1 of its "
                       r"values are not numbers, the first at row 5 .*'1,5'"):
        booster.predict(gpulayer.Dataset(bad))
    # Handed over as a DataFrame, the column is read as the model reads it.
    bad.loc[:, "a"] = "x"
    bad.loc[7, "a"] = 0.5
    with pytest.raises(ParseError, match="the model reads it as numeric.*row 0"):
        booster.predict(bad)
    with pytest.warns(UserWarning, match="1 values that are not numbers"):
        got = booster.predict(gpulayer.Dataset(X.astype({"a": object}).assign(
            a=lambda d: d["a"].where(d.index != 5, "1,5")), bad_numbers="missing"))
    assert got.shape == (200,)


def test_set_param_takes_a_name_and_value_a_dict_or_pairs():
    """XGBoost's forms of Booster.set_param."""
    b = gpulayer.Booster()
    b.set_param("max_depth", 3)
    assert b.get_param("max_depth") == "3"
    b.set_param({"eta": 0.5, "max_depth": 5, "gamma": None})
    assert b.get_param("eta") == "0.5" and b.get_param("max_depth") == "5"
    assert b.get_param("gamma") == "0"
    b.set_param([("max_depth", 7), ("eval_metric", ["auc", "logloss"])])
    assert b.get_param("max_depth") == "7"
    assert b.get_param("eval_metric") == "auc,logloss"
    # The parameters travel with a copy, as set.
    assert b.copy().get_param("max_depth") == "7"


@pytest.mark.parametrize("args, message", [
    (("eta",), r"set_param\('eta'\) needs a value"),
    (({"eta": 0.1}, 0.2), "a value only after a parameter name"),
    ((3,), "got int 3"),
    ((["eta", 0.1],), "got the item 'eta'"),
    (([("eta", 0.1, 2)],), r"got the item \('eta', 0.1, 2\)"),
    (({1: 2},), "a parameter name is a string, got int 1"),
])
def test_set_param_refuses_other_shapes(args, message):
    with pytest.raises(TypeError, match=message):
        gpulayer.Booster().set_param(*args)


def test_a_list_for_a_single_valued_parameter_is_refused():
    """{'eta': [1, 2]} used to set eta to 2, the last element."""
    with pytest.raises(InvalidArgumentError, match="parameter 'eta' takes one value"):
        gpulayer.Booster(params={"eta": [1, 2]})
    booster = gpulayer.Booster(params={"eval_metric": ["auc", "logloss"]})
    assert booster.get_param("eta") == "0.29999999999999999"


def test_a_nul_in_a_parameter_is_refused():
    """The C library read 'binary:logistic\\0x' as 'binary:logistic'."""
    with pytest.raises(InvalidArgumentError, match="contains a NUL character"):
        gpulayer.Booster(params={"objective": "binary:logistic\0x"})

"""Rules the Python package takes from the C library instead of keeping its
own copy: each is checked against a second way into the same C rule, on
inputs near its edges, so that a Python copy that drifted from C fails
here; and the package's sources are checked for such a copy."""

import importlib
import inspect

import numpy as np
import pytest

import gpulayer

# The modules by name: gpulayer.devices is also a function of the package.
devices = importlib.import_module("gpulayer.devices")

# ------------------------------------------------------------ byte sizes

SIZES = ["0", "4096", "1B", "1b", "2K", "2k", "2KiB", "2kib", "3M", "3MiB", "3G", "3GiB",
         "1T", "1TiB", "2KB", "2kb", "3MB", "3GB", "1TB", "1.5GiB", "0.5K", "1e3",
         "1e3K", ".5G", "8 G", " 8G", "8gIb"]
BAD_SIZES = ["", "8 parsecs", "-1", "-1G", "inf", "nan", "G", "8GiBs", "1e30T"]


def request_bytes(text):
    """The size as `gpulayer place --memory` reads it: the C request parser."""
    decision = gpulayer.place(f"cpu,memory={text}")
    return decision.request["min_memory_bytes"]


@pytest.mark.parametrize("text", SIZES)
def test_byte_sizes_are_read_as_the_request_parser_reads_them(text):
    assert devices.parse_bytes(text) == request_bytes(text)


@pytest.mark.parametrize("text", BAD_SIZES)
def test_byte_sizes_refused_as_the_request_parser_refuses_them(text):
    with pytest.raises(ValueError) as python:
        devices.parse_bytes(text)
    with pytest.raises(ValueError) as c:
        request_bytes(text)
    assert str(python.value) in str(c.value)


def test_byte_units():
    assert [devices.parse_bytes(f"1{u}") for u in ("K", "M", "G", "T")] == [
        2**10, 2**20, 2**30, 2**40]
    assert [devices.parse_bytes(f"1{u}iB") for u in ("K", "M", "G", "T")] == [
        2**10, 2**20, 2**30, 2**40]
    assert [devices.parse_bytes(f"1{u}B") for u in ("K", "M", "G", "T")] == [
        10**3, 10**6, 10**9, 10**12]


def test_no_byte_unit_table_in_python():
    source = inspect.getsource(devices).lower()
    assert '"kib"' not in source and "2**30" not in source


# ------------------------------------------------- which metrics maximise

training = importlib.import_module("gpulayer.training")
plotting = importlib.import_module("gpulayer.plotting")

LIBRARY_METRICS = ["auc", "aucpr", "ndcg", "ndcg@20", "ndcg@30-", "ndcg-", "map", "map@4",
                   "map-", "pre", "pre@5", "pre@5-", "error", "error@0.7", "logloss",
                   "rmse", "rmsle", "mae", "poisson-nloglik"]


@pytest.fixture(scope="module")
def binary_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(400, 4)).astype(np.float32)
    y = (X[:, 0] + 0.7 * X[:, 1] + rng.normal(size=400) > 0).astype(np.float32)
    return gpulayer.Dataset(X[:250], label=y[:250]), gpulayer.Dataset(X[250:], label=y[250:])


@pytest.mark.parametrize("metric", LIBRARY_METRICS)
def test_direction_is_the_one_training_uses(binary_data, metric):
    """The C training loop's best round (its own direction per metric) is
    where the Python rule puts the best value."""
    train, valid = binary_data
    history = {}
    bst = gpulayer.train({"objective": "binary:logistic", "eval_metric": metric,
                          "max_depth": 2, "eta": 0.3, "nthread": 1}, train, 12,
                         evals=[(valid, "v")], early_stopping_rounds=100,
                         evals_result=history)
    values = np.array(history["v"][metric])
    assert not np.isnan(values).any() and len(set(values)) > 1
    best = np.argmax(values) if training._is_maximize(metric) else np.argmin(values)
    assert bst.best_iteration == best


@pytest.mark.parametrize("name,maximize", [
    # A caller's own metric names: XGBoost's rule by the start of the name.
    ("auc_weighted", True), ("aucpr-mine", True), ("precision", True), ("ndcg_at_3", True),
    ("mapk", True), ("mape", False), ("mape@1", False), ("my_auc", False), ("f1", False),
    ("AUC", False), ("", False), ("rmse", False), ("error@0.1", False),
    ("tweedie-nloglik@1.5", False), ("quantile@0.9", False), ("ndcg@3-", True),
])
def test_direction_of_names(name, maximize):
    assert training._is_maximize(name) is maximize


def test_no_direction_table_in_python():
    for module in (training, plotting):
        source = inspect.getsource(module)
        assert '"pre"' not in source and '"mape"' not in source, module.__name__

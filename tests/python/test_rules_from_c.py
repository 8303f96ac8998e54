"""Rules the Python package takes from the C library instead of keeping its
own copy: each is checked against a second way into the same C rule, on
inputs near its edges, so that a Python copy that drifted from C fails
here; and the package's sources are checked for such a copy."""

import importlib
import inspect
import re
import warnings

import numpy as np
import pytest

import gpulayer
from gpulayer.errors import ParseError

# The modules by name: gpulayer.devices is also a function of the package.
dataset_module = importlib.import_module("gpulayer.dataset")
devices = importlib.import_module("gpulayer.devices")
plotting = importlib.import_module("gpulayer.plotting")
training = importlib.import_module("gpulayer.training")

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


# --------------------------------------------------------- early stopping

# Chosen so that the error's best value comes back in the rounds after it.
ES_PARAMS = {"objective": "binary:logistic", "max_depth": 2, "eta": 0.2, "nthread": 1}


def replay(values, name):
    """A custom metric that gives back the recorded values round by round."""
    calls = iter(values)
    return lambda preds, dataset: (name, next(calls))


@pytest.mark.parametrize("metric", ["error", "auc", "logloss"])
@pytest.mark.parametrize("maximize_given", [False, True])
def test_early_stopping_decided_in_python_as_in_c(binary_data, metric, maximize_given):
    """The same figures, watched once by the C training loop (a library
    metric) and once through the Python package (a custom metric giving the
    same values), stop at the same round with the same best round, ties
    included."""
    train, valid = binary_data
    full = {}
    gpulayer.train(dict(ES_PARAMS, eval_metric=metric), train, 60, evals=[(valid, "v")],
                   evals_result=full)
    values = full["v"][metric]
    by_c = {}
    c_bst = gpulayer.train(dict(ES_PARAMS, eval_metric=metric), train, 60,
                           evals=[(valid, "v")], early_stopping_rounds=4, evals_result=by_c)
    assert by_c["v"][metric] == values[:len(by_c["v"][metric])]
    best = c_bst.best_iteration
    if metric == "error":
        assert values[best] in by_c["v"][metric][best + 1:]  # a tie to break
    by_python = {}
    maximize = training._is_maximize(metric) if maximize_given else None
    py_bst = gpulayer.train(dict(ES_PARAMS, eval_metric=metric), train, 60,
                            evals=[(valid, "v")], early_stopping_rounds=4,
                            custom_metric=replay(values, metric + "_replay"),
                            maximize=maximize, evals_result=by_python)
    assert len(by_python["v"][metric + "_replay"]) == len(by_c["v"][metric])
    assert py_bst.best_iteration == c_bst.best_iteration


@pytest.mark.parametrize("values,name,maximize,best,rounds", [
    # A tie keeps the earlier round; the stop comes 3 rounds after the best.
    ([0.5, 0.4, 0.4, 0.4, 0.4, 0.1, 0.1], "loss", None, 1, 5),
    ([0.5, 0.6, 0.6, 0.6, 0.6, 0.9, 0.9], "auc_mine", None, 1, 5),
    ([0.5, 0.6, 0.6, 0.6, 0.6, 0.9, 0.9], "loss", True, 1, 5),
    ([0.5, 0.4, 0.6, 0.7, 0.8, 0.9, 0.9], "precision@2", None, 5, 7),
    # NaN is never better: a NaN first round stays the best.
    ([float("nan"), 0.4, 0.3, 0.2, 0.1, 0.1, 0.1], "loss", None, 0, 4),
    ([0.4, float("nan"), 0.5, 0.3, 0.3, 0.3, 0.3], "loss", None, 3, 7),
])
def test_early_stopping_on_figures_of_the_caller(binary_data, values, name, maximize,
                                                 best, rounds):
    train, valid = binary_data
    history = {}
    bst = gpulayer.train(ES_PARAMS, train, len(values), evals=[(valid, "v")],
                         early_stopping_rounds=3, custom_metric=replay(values, name),
                         maximize=maximize, evals_result=history)
    assert (bst.best_iteration, len(history["v"][name])) == (best, rounds)


def test_no_early_stopping_rule_in_python():
    source = inspect.getsource(training._EarlyStopping)
    assert ">=" not in source and "<" not in source.replace("<=", "")


# ------------------------------------------------ typing a column of text

NUMBERS = ["1", "2.5", "1e3", "-3", "+.5", "5.", "inf", "-Infinity", "1E-2", "0"]
# Numbers once the blanks around them are trimmed, as the reader trims a
# field (a categorical column keeps a data frame's blanks in its names).
BLANKS = [" 7 ", "\t8", "9\r", "  -1e-3  "]
MISSING = ["", "NA", "N/A", "nan", "NaN", "NAN", "null", "NULL", "?"]
# Not numbers, not missing: each would be one or the other by another rule.
TEXT = ["x", "0x10", "1,5", "1e", "e3", ".", "-", "None", "na", "Nan", "\u0661\u0662",
        "1_000", "１", "nul", "??", "infinit", "1.2.3", "7 7"]


def numbers(count):
    return [NUMBERS[i % len(NUMBERS)] for i in range(count)]


COLUMNS = {
    # numbers, texts: at least 95% numbers looks numeric, less is categorical
    "95.0% numbers": numbers(19) + ["x"],
    "94.7% numbers": numbers(18) + ["x"],
    "95.0% of 40": numbers(38) + ["x", "y"],
    "94.9% of 39": numbers(37) + ["x", "y"],
    "missing cells do not count": numbers(19) + ["x"] + MISSING * 3,
    "numbers and missing": numbers(20) + MISSING,
    "every non-number text": numbers(len(TEXT) * 19 + 1) + TEXT,
    "one text short": numbers(len(TEXT) * 19 - 1) + TEXT,
    "text": ["a", "b", "1", "c"] * 5,
}


def outcome(make, bad_numbers):
    """How a column was read: refused, or the model trained on it (its
    feature type, categories and trees)."""
    try:
        data = make(bad_numbers)
    except ParseError as exc:
        return "refused", "looks numeric" in str(exc)
    bst = gpulayer.train({"max_depth": 2, "nthread": 1, "min_child_weight": 0}, data, 2)
    return bst.feature_types[0], bst.categories(0), bst.get_dump()


@pytest.mark.parametrize("bad_numbers", ["error", "missing"])
@pytest.mark.parametrize("name", list(COLUMNS))
def test_text_columns_are_typed_as_the_csv_reader_types_them(tmp_path, name, bad_numbers):
    pd = pytest.importorskip("pandas")
    cells = COLUMNS[name]
    label = [float(i % 3) for i in range(len(cells))]
    path = tmp_path / "column.csv"
    pd.DataFrame({"x": cells, "y": label}).to_csv(path, index=False)
    by_reader = outcome(lambda bad: gpulayer.Dataset.from_file(
        path, label="y", bad_numbers=bad), bad_numbers)
    frame = pd.DataFrame({"x": pd.Series(cells, dtype=object)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        by_frame = outcome(lambda bad: gpulayer.Dataset(frame, label=label,
                                                        bad_numbers=bad), bad_numbers)
    assert by_frame == by_reader


@pytest.mark.parametrize("cell", NUMBERS + BLANKS + MISSING + TEXT)
def test_cells_are_read_as_the_csv_reader_reads_them(tmp_path, cell):
    """A column of this cell and numbers: categorical, refused (looks
    numeric) or numeric the same way from a file and from a data frame."""
    pd = pytest.importorskip("pandas")
    cells = numbers(30) + [cell]
    label = [float(i % 2) for i in range(len(cells))]
    path = tmp_path / "cell.csv"
    pd.DataFrame({"x": cells, "y": label}).to_csv(path, index=False)
    by_reader = outcome(lambda bad: gpulayer.Dataset.from_file(path, label="y"), "error")
    frame = pd.DataFrame({"x": pd.Series(cells, dtype=object)})
    by_frame = outcome(lambda bad: gpulayer.Dataset(frame, label=label), "error")
    assert by_frame == by_reader
    assert by_frame[0] == ("refused" if cell in TEXT else "q")


def test_no_number_grammar_in_python():
    source = inspect.getsource(dataset_module)
    assert '"NA"' not in source and "\\d" not in source and "* 20" not in source


# --------------------------------------------------- labels of tree pictures

# Names that a parser of the dump could trip on; the second is unnamed.
PICTURE_NAMES = ["x] yes=1,no=2", "", "back\\slash", "a,b {c}<", "gain=1,cover=2"]
GRAPH_NODE = re.compile(r'^\t(\d+) \[label=(?:"((?:[^"\\]|\\.)*)"|(\S+))')


@pytest.fixture(scope="module")
def picture_model():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(600, 5)).astype(np.float32)
    y = X @ np.array([1.0, 2.0, 1.0, 1.5, 0.5], dtype=np.float32)
    data = gpulayer.Dataset(X, label=y, feature_names=PICTURE_NAMES)
    return gpulayer.train({"max_depth": 3, "nthread": 1}, data, 3)


def dump_labels(text):
    """{node: its dump text} (the split between "[" and the last "] yes=",
    or "leaf=v"), with the statistics after it."""
    labels = {}
    for line in text.strip("\n").split("\n"):
        node, rest = line.lstrip("\t").split(":", 1)
        if rest.startswith("leaf="):
            parts = rest.split(",")
        else:
            split, tail = rest[1:].rsplit("] yes=", 1)
            parts = [split] + [p for p in tail.split(",") if p.startswith(("gain=", "cover="))]
        labels[int(node)] = "\\n".join(p.replace("\\", "\\\\") for p in parts)
    return labels


@pytest.mark.parametrize("with_stats", [False, True])
def test_tree_labels_are_the_dump_text(picture_model, with_stats):
    pytest.importorskip("graphviz")
    for t, text in enumerate(picture_model.get_dump(with_stats=with_stats)):
        graph = gpulayer.to_graphviz(picture_model, tree=t, with_stats=with_stats)
        labels = {int(m[1]): m[2] if m[2] is not None else m[3]
                  for m in map(GRAPH_NODE.match, graph.body) if m}
        assert labels == dump_labels(text)


def test_importance_labels_are_the_dump_names(picture_model):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    ax = gpulayer.plot_importance(picture_model)
    shown = {t.get_text() for t in ax.get_yticklabels()}
    split_names = {line.lstrip("\t").split(":[", 1)[1].rsplit("<", 1)[0]
                   for text in picture_model.get_dump() for line in text.split("\n")
                   if ":[" in line}
    assert shown == split_names and "f1" in shown
    assert {plotting._feature_label(picture_model, f) for f in range(5)} == (
        set(PICTURE_NAMES) - {""}) | {"f1"}


def test_no_tree_text_in_python():
    source = inspect.getsource(plotting)
    assert "leaf_value" not in source and 'f"f{' not in source and ":.9g" not in source


def test_a_nan_metric_under_early_stopping_is_named(binary_data, capfd):
    """A validation set of one class: AUC is NaN every round, and the
    warning names the set and the metric early stopping watches."""
    train, _ = binary_data
    n = 50
    one_class = gpulayer.Dataset(np.zeros((n, train.num_cols), dtype=np.float32), np.zeros(n))
    gpulayer.train({**ES_PARAMS, "eval_metric": "auc", "early_stopping_rounds": 3}, train, 10,
                   evals=[(one_class, "v")])
    err = capfd.readouterr().err
    assert "early stopping watches v-auc" in err and "NaN at round 0" in err
    assert err.count("early stopping watches") == 1

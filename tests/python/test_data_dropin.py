"""Data as XGBoost's and LightGBM's scripts give it: class names as
labels, Arrow tables and polars DataFrames, and tqdm's progress bar."""

import sys
import types

import numpy as np
import pandas as pd
import pytest

import gpulayer
from gpulayer.dataset import to_dense
from gpulayer.progress import ProgressBar, TqdmBar, make_progress_bar

BINARY = {"objective": "binary:logistic", "max_depth": 3, "nthread": 1, "device": "cpu"}
MULTI = {"objective": "multi:softprob", "max_depth": 3, "nthread": 1, "device": "cpu"}


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(7)
    n = 400
    df = pd.DataFrame({
        "num": rng.normal(size=n),
        "count": rng.integers(0, 9, n),
        "flag": rng.random(n) > 0.5,
        "colour": pd.Categorical(rng.choice(["red", "green", "blue"], n)),
        "city": rng.choice(["Oslo", "Lima", "Pune", "Baku"], n).astype(object),
        "small": rng.normal(size=n).astype(np.float32),
    })
    df.loc[[3, 50, 200], "num"] = np.nan
    df.loc[[7, 90], "city"] = None
    score = df["num"].fillna(0) + (df["colour"] == "red") - 0.2 * df["count"]
    names = np.where(score > -0.5, "yes", "no")
    species = np.array(["setosa", "versicolor", "virginica"])[
        np.digitize(score, [-1.2, 0.0])]
    return df, names, species


def model(params, data, label, rounds=6):
    return gpulayer.train(params, gpulayer.Dataset(data, label=label), rounds)


# ------------------------------------------------------------ class names


def test_names_give_the_model_of_codes_and_names_set_by_hand(frame):
    df, _, species = frame
    by_names = gpulayer.Dataset(df, label=list(species))
    assert by_names.label_classes == ["setosa", "versicolor", "virginica"]
    codes = np.searchsorted(["setosa", "versicolor", "virginica"], species)
    by_hand = gpulayer.Dataset(df, label=codes)
    by_hand.set_label_classes(["setosa", "versicolor", "virginica"])
    np.testing.assert_array_equal(by_names.get_label(), codes)
    a, b = gpulayer.train(MULTI, by_names, 6), gpulayer.train(MULTI, by_hand, 6)
    assert a.save_raw() == b.save_raw()
    assert a.class_names == ["setosa", "versicolor", "virginica"]
    assert a.predict(df).shape == (len(df), 3)  # num_class from the names


@pytest.mark.parametrize("kind", ["list", "str", "object", "series", "string",
                                  "categorical", "series_categorical"])
def test_every_kind_of_text_label(frame, kind):
    df, names, _ = frame
    label = {"list": list(names), "str": names.astype(str),
             "object": names.astype(object), "series": pd.Series(names, dtype=object),
             "string": pd.Series(names, dtype="string"),
             "categorical": pd.Categorical(names, categories=["yes", "no", "maybe"]),
             "series_categorical": pd.Series(names, dtype="category")}[kind]
    data = gpulayer.Dataset(df, label=label)
    # Sorted names of the labels present, as the command numbers them.
    assert data.label_classes == ["no", "yes"]
    np.testing.assert_array_equal(data.get_label(), (names == "yes").astype(np.float32))
    assert gpulayer.train(BINARY, data, 3).class_names == ["no", "yes"]


def test_names_as_the_command_numbers_them(tmp_path, cli, frame):
    df, _, species = frame
    numeric = df[["num", "count", "small"]]
    path = tmp_path / "train.csv"
    numeric.assign(y=species).to_csv(path, index=False)
    from_file = gpulayer.Dataset.from_file(path, label="y")
    in_memory = gpulayer.Dataset(numeric, label=species)
    assert in_memory.label_classes == from_file.label_classes
    np.testing.assert_array_equal(in_memory.get_label(), from_file.get_label())


def test_text_numbers_stay_numbers():
    data = gpulayer.Dataset(np.zeros((3, 1)), label=np.array(["1", "0", "2.5"]))
    assert data.label_classes is None
    np.testing.assert_array_equal(data.get_label(), [1, 0, 2.5])


@pytest.mark.parametrize("label, message", [
    (["no", None, "yes"], r"row 1 .*missing"),
    (np.array(["no", "yes", np.nan], dtype=object), r"row 2 .*missing"),
    (pd.Series(["no", "yes", None]), r"row 2 .*missing"),
    (pd.Categorical(["no", None, "yes"]), r"row 1 .*missing"),
    (["no", "NA", "yes"], r"row 1 .*missing"),
    (["1", "0", "cat"], r"'cat' at row 2 .*not a number"),
    (["cat", "dog", 3], r"'3' at row 2 .*is a number"),
])
def test_bad_text_labels_name_the_row(label, message):
    with pytest.raises(ValueError, match=message):
        gpulayer.Dataset(np.zeros((3, 1)), label=label)


def test_set_label_takes_names():
    data = gpulayer.Dataset(np.zeros((4, 1)))
    data.set_label(["b", "a", "c", "a"])
    assert data.label_classes == ["a", "b", "c"]
    np.testing.assert_array_equal(data.get_label(), [1, 0, 2, 0])


def test_an_eval_set_with_some_of_the_classes(frame):
    df, _, species = frame
    dtrain = gpulayer.Dataset(df, label=species)
    keep = species != "setosa"
    dvalid = gpulayer.Dataset(df[keep], label=species[keep])
    assert dvalid.label_classes == ["versicolor", "virginica"]
    history = {}
    gpulayer.train(MULTI, dtrain, 3, evals=[(dvalid, "valid")], evals_result=history)
    assert dvalid.label_classes == ["setosa", "versicolor", "virginica"]
    np.testing.assert_array_equal(dvalid.get_label(),
                                  np.searchsorted(dtrain.label_classes, species[keep]))
    assert len(history["valid"]["mlogloss"]) == 3


def test_classifier_predicts_the_names(frame):
    df, names, _ = frame
    clf = gpulayer.GPULayerClassifier(n_estimators=5, n_jobs=1)
    clf.fit(df, pd.Series(names, dtype="category"))
    assert list(clf.classes_) == ["no", "yes"]
    assert set(clf.predict(df)) <= {"no", "yes"}
    assert clf.get_booster().class_names == ["no", "yes"]
    with pytest.raises(ValueError, match="row 1 .*missing"):
        clf.fit(df.iloc[:3], np.array(["no", None, "yes"], dtype=object))


# ------------------------------------------------------------------ Arrow


def test_arrow_table_and_record_batch_give_the_pandas_model(frame):
    pa = pytest.importorskip("pyarrow")
    df, names, _ = frame
    table = pa.Table.from_pandas(df, preserve_index=False)
    assert pa.types.is_dictionary(table.schema.field("colour").type)
    assert table.column("city").null_count == 2 and table.column("num").null_count == 3  # NaN -> null
    expected = model(BINARY, df, names).save_raw()
    assert model(BINARY, table, names).save_raw() == expected
    assert model(BINARY, table.to_batches()[0], names).save_raw() == expected
    # Chunked columns read as one.
    chunked = pa.concat_tables([table.slice(0, 150), table.slice(150)])
    assert chunked.column(0).num_chunks == 2
    assert model(BINARY, chunked, names).save_raw() == expected


def test_arrow_columns_and_predictions(frame):
    pa = pytest.importorskip("pyarrow")
    df, names, _ = frame
    table = pa.Table.from_pandas(df, preserve_index=False)
    data = gpulayer.Dataset(table, label=names)
    assert data.feature_names == list(df.columns)
    # Categorical features: the dictionary column and the string column.
    assert sorted(data.categories) == [3, 4]
    assert data.categories[3] == ["blue", "green", "red"]
    assert data.categories[4] == ["Baku", "Lima", "Oslo", "Pune"]
    bst = gpulayer.train(BINARY, data, 6)
    assert bst.feature_types == ["q", "q", "q", "c", "c", "q"]
    np.testing.assert_array_equal(bst.predict(table), bst.predict(df))
    # Columns matched by name.
    np.testing.assert_array_equal(bst.predict(table.select(list(reversed(df.columns)))),
                                  bst.predict(df))


def test_arrow_nulls_are_missing():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"i": pa.array([1, None, 3, 4], pa.int64()),
                      "f": pa.array([0.5, 1.5, None, 2.5], pa.float64()),
                      "b": pa.array([True, None, False, True]),
                      "s": pa.array(["a", "b", None, "a"])})
    data = gpulayer.Dataset(table, label=[0, 1, 0, 1])
    same = gpulayer.Dataset(pd.DataFrame({
        "i": [1, np.nan, 3, 4], "f": [0.5, 1.5, np.nan, 2.5],
        "b": [1.0, np.nan, 0.0, 1.0], "s": pd.Categorical(["a", "b", None, "a"])}),
        label=[0, 1, 0, 1])
    dense = to_dense(table)
    expected = np.array([[1, 0.5, 1, 0], [np.nan, 1.5, np.nan, 1], [3, np.nan, 0, np.nan],
                         [4, 2.5, 1, 0]], dtype=np.float32)
    np.testing.assert_array_equal(dense.values, expected)
    assert dense.categories == {3: ["a", "b"]}
    params = dict(BINARY, min_child_weight=0)
    assert (gpulayer.train(params, data, 2).save_raw()
            == gpulayer.train(params, same, 2).save_raw())


def test_arrow_text_numbers_follow_the_dataframe_rule():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"n": ["1", "2.5", None, "4"], "c": ["x", "1", "y", "z"]})
    dense = to_dense(table)
    np.testing.assert_array_equal(dense.values[:, 0], [1, 2.5, np.nan, 4])
    assert dense.categories == {1: ["1", "x", "y", "z"]}
    with pytest.raises(gpulayer.errors.ParseError, match="row 2"):
        to_dense(pa.table({"n": [str(i) for i in range(40)][:2] + ["oops"]
                                         + [str(i) for i in range(40)]}))


def test_arrow_categorical_feature_by_name():
    pa = pytest.importorskip("pyarrow")
    table = pa.table({"code": pa.array([3, 1, None, 3], pa.int32()), "x": [1.0, 2, 3, 4]})
    data = gpulayer.Dataset(table, label=[0, 1, 0, 1], categorical_feature=["code"])
    assert data.categories == {0: ["1", "3"]}


def test_polars_gives_the_pandas_model(frame):
    pl = pytest.importorskip("polars")
    pytest.importorskip("pyarrow")
    df, names, species = frame
    frame_pl = pl.from_pandas(df)
    assert frame_pl.schema["colour"] == pl.Categorical
    assert model(BINARY, frame_pl, names).save_raw() == model(BINARY, df, names).save_raw()
    # Labels as a polars Series of names.
    bst = model(MULTI, frame_pl, pl.Series(species))
    assert bst.class_names == ["setosa", "versicolor", "virginica"]
    np.testing.assert_array_equal(bst.predict(frame_pl), bst.predict(df))


def test_arrow_c_stream_objects(frame):
    pa = pytest.importorskip("pyarrow")
    df, names, _ = frame
    table = pa.Table.from_pandas(df, preserve_index=False)

    class Stream:  # only the Arrow PyCapsule interface
        def __arrow_c_stream__(self, requested_schema=None):
            return table.__arrow_c_stream__(requested_schema)

    assert model(BINARY, Stream(), names).save_raw() == model(BINARY, df, names).save_raw()


def test_estimators_take_arrow(frame):
    pa = pytest.importorskip("pyarrow")
    df, names, _ = frame
    table = pa.Table.from_pandas(df, preserve_index=False)
    a = gpulayer.GPULayerClassifier(n_estimators=4, n_jobs=1).fit(df, names)
    b = gpulayer.GPULayerClassifier(n_estimators=4, n_jobs=1).fit(table, names)
    assert a.get_booster().save_raw() == b.get_booster().save_raw()
    assert list(b.feature_names_in_) == list(df.columns)
    np.testing.assert_array_equal(b.predict(table), a.predict(df))
    assert set(b.predict(table)) <= {"no", "yes"}
    numeric = table.select(["num", "count", "small"])
    reg = gpulayer.GPULayerRegressor(n_estimators=3, n_jobs=1).fit(numeric, df["small"])
    np.testing.assert_array_equal(reg.get_booster().predictor().predict(numeric),
                                  reg.predict(df[["num", "count", "small"]]))


# ------------------------------------------------------------------- tqdm


class FakeTqdm:
    made = []

    def __init__(self, total, **kwargs):
        self.total, self.kwargs, self.n, self.calls = total, kwargs, 0, []
        FakeTqdm.made.append(self)

    def update(self, n):
        self.n += n
        self.calls.append(("update", n))

    def refresh(self):
        self.calls.append(("refresh",))

    def clear(self):
        self.calls.append(("clear",))

    def close(self):
        self.calls.append(("close",))


@pytest.fixture
def fake_tqdm(monkeypatch):
    module = types.ModuleType("tqdm.auto")
    module.tqdm = FakeTqdm
    FakeTqdm.made = []
    monkeypatch.setitem(sys.modules, "tqdm.auto", module)
    return FakeTqdm


def test_tqdm_draws_the_bar_when_installed(fake_tqdm, capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    dtrain = gpulayer.Dataset(X, label=X[:, 0] > 0)
    dvalid = gpulayer.Dataset(X[:50], label=X[:50, 0] > 0)
    gpulayer.train(BINARY, dtrain, 4, evals=[(dvalid, "valid")], verbose_eval=True,
                   progress_bar=True)
    (bar,) = fake_tqdm.made
    assert bar.total == 4 and bar.n == 4 and bar.kwargs["unit"] == "round"
    assert bar.calls[-1] == ("close",)
    # Cleared before each evaluation line (tqdm draws 0/4 at once), then
    # redrawn.
    assert bar.calls.count(("clear",)) == 4 and bar.calls.count(("refresh",)) == 4
    assert "rounds" not in capsys.readouterr().err  # not the built-in line


def test_tqdm_not_used_unasked(fake_tqdm, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    dtrain = gpulayer.Dataset(np.arange(20.0).reshape(10, 2), label=np.arange(10.0))
    gpulayer.train({"nthread": 1}, dtrain, 120)
    gpulayer.train({"nthread": 1}, dtrain, 3, progress_bar=False)
    assert fake_tqdm.made == []


def test_tqdm_by_default_in_a_notebook(fake_tqdm, monkeypatch):
    class ZMQInteractiveShell:
        pass

    ipython = types.ModuleType("IPython")
    ipython.get_ipython = ZMQInteractiveShell
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    dtrain = gpulayer.Dataset(np.arange(20.0).reshape(10, 2), label=np.arange(10.0))
    gpulayer.train({"nthread": 1}, dtrain, 100)
    assert len(fake_tqdm.made) == 1 and fake_tqdm.made[0].n == 100


def test_builtin_bar_without_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert isinstance(make_progress_bar(10), ProgressBar)


def test_real_tqdm_bar(capsys):
    pytest.importorskip("tqdm")
    bar = make_progress_bar(5)
    assert isinstance(bar, TqdmBar)
    for done in range(1, 6):
        bar.update(done)
    bar.close()
    assert "5/5" in capsys.readouterr().err

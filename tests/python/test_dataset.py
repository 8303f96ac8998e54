"""Data types: numpy (float32/float64, C/Fortran order), pandas with
categorical and text columns, scipy.sparse, NaN."""

import numpy as np
import pytest

import gpulayer
from gpulayer import _lib
from gpulayer.dataset import to_dense
from gpulayer.errors import InvalidArgumentError

pd = pytest.importorskip("pandas")
sparse = pytest.importorskip("scipy.sparse")

PARAMS = {"objective": "reg:squarederror", "max_depth": 3, "nthread": 2,
          "device": "cpu"}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 5))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = np.nan_to_num(X[:, 0]) * 2 + np.nan_to_num(X[:, 1]) + rng.normal(0, 0.1, 400)
    return X, y


@pytest.fixture(scope="module")
def reference(data):
    X, y = data
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X.astype(np.float32), label=y), 10)
    return bst, bst.predict(X.astype(np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("order", ["C", "F"])
def test_numpy_dtypes_and_layouts_give_the_same_model(data, reference, dtype, order):
    X, y = data
    Xc = np.asarray(X, dtype=dtype, order=order)
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(Xc, label=y), 10)
    np.testing.assert_array_equal(bst.predict(Xc), reference[1])
    np.testing.assert_array_equal(reference[0].predict(Xc), reference[1])


@pytest.mark.parametrize("order,layout", [("C", _lib.ROW_MAJOR), ("F", _lib.COL_MAJOR)])
def test_float32_contiguous_arrays_are_not_copied(order, layout):
    X = np.asarray(np.random.default_rng(0).normal(size=(50, 4)), np.float32, order=order)
    dense = to_dense(X)
    assert dense.values is X
    assert dense.layout == layout


def test_strided_and_integer_arrays_are_converted():
    X = np.arange(60, dtype=np.int64).reshape(10, 6)
    dense = to_dense(X[:, ::2])
    assert dense.values.dtype == np.float32
    np.testing.assert_array_equal(dense.values, X[:, ::2])
    with pytest.raises(ValueError, match="2-D"):
        to_dense(np.zeros(5))


def test_labels_weights_and_shape():
    X = np.ones((6, 2))
    d = gpulayer.Dataset(X, label=[0, 1, 0, 1, 0, 1], weight=np.full(6, 2.0))
    assert d.shape == (6, 2)
    np.testing.assert_array_equal(d.get_label(), [0, 1, 0, 1, 0, 1])
    with pytest.raises(ValueError, match="label has 3 values"):
        gpulayer.Dataset(X, label=[1, 2, 3])
    assert gpulayer.Dataset(X).feature_names is None
    named = gpulayer.Dataset(X, feature_names=["a", "b"])
    assert named.feature_names == ["a", "b"]
    assert named.select_columns([1]).feature_names == ["b"]


def test_errors_carry_the_c_message():
    X = np.ones((4, 2))
    with pytest.raises(gpulayer.GPULayerError, match="got 3 names") as info:
        gpulayer.Dataset(X, feature_names=["a", "b", "c"])
    assert isinstance(info.value, ValueError)
    assert info.value.status == 1


def frame(rng, rows):
    return pd.DataFrame({
        "x": rng.normal(size=rows),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue"], rows),
                                 categories=["red", "green", "blue"]),
        "city": rng.choice(["Oslo", "Lima", "Pune", None], rows).astype(object),
        "flag": rng.random(rows) < 0.5,
        "count": pd.array(rng.integers(0, 5, rows), dtype="Int64"),
    })


def test_dataframe_columns_become_features_and_categories():
    rng = np.random.default_rng(1)
    df = frame(rng, 300)
    dense = to_dense(df)
    assert dense.feature_names == ["x", "colour", "city", "flag", "count"]
    assert dense.categories == {1: ["blue", "green", "red"], 2: ["Lima", "Oslo", "Pune"]}
    # Codes index the sorted names; missing stays NaN.
    colour = np.array(["blue", "green", "red"])[dense.values[:, 1].astype(int)]
    np.testing.assert_array_equal(colour, df["colour"].astype(str).to_numpy())
    assert np.isnan(dense.values[df["city"].isna().to_numpy(), 2]).all()
    assert dense.values.flags.f_contiguous and dense.layout == _lib.COL_MAJOR
    d = gpulayer.Dataset(df, label=rng.normal(size=300))
    assert d.feature_names == ["x", "colour", "city", "flag", "count"]


def test_categories_are_matched_by_name_at_prediction():
    rng = np.random.default_rng(2)
    df = frame(rng, 600)
    y = (df["colour"] == "green") * 3.0 + (df["city"] == "Pune") * 1.0
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(df, label=y), 20)
    expected = bst.predict(df)
    # The same values with another category order, and with text columns.
    other = df.copy()
    other["colour"] = other["colour"].cat.reorder_categories(["green", "blue", "red"])
    np.testing.assert_array_equal(bst.predict(other), expected)
    other["colour"] = other["colour"].astype(str)
    np.testing.assert_array_equal(bst.predict(other), expected)
    # A subset of rows with fewer categories, and columns in another order.
    subset = df[df["colour"] != "blue"].iloc[:, ::-1]
    np.testing.assert_array_equal(bst.predict(subset), expected[df["colour"] != "blue"])
    assert abs(bst.predict(df[df["colour"] == "green"]).mean() - 3.5) < 0.5


def test_sparse_absent_entries_are_missing():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 6))
    X[rng.random(X.shape) < 0.5] = 0.0
    y = X[:, 0] + X[:, 1]
    csr = sparse.csr_matrix(X)
    dense_nan = np.where(X == 0.0, np.nan, X).astype(np.float32)
    np.testing.assert_array_equal(to_dense(csr).values, dense_nan)
    # An explicitly stored zero stays a zero.
    explicit = sparse.csr_matrix((np.array([0.0, 5.0]), ([0, 1], [0, 1])), shape=(2, 2))
    np.testing.assert_array_equal(to_dense(explicit).values, [[0, np.nan], [np.nan, 5]])
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(csr, label=y), 10)
    np.testing.assert_array_equal(bst.predict(csr), bst.predict(dense_nan))
    np.testing.assert_array_equal(bst.predict(sparse.csc_matrix(X)), bst.predict(csr))


def test_sparse_is_held_sparse_and_trains_the_dense_model(monkeypatch):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(500, 8))
    X[rng.random(X.shape) < 0.6] = 0.0
    y = (X[:, 0] + X[:, 1] > 0).astype(np.float32)
    csr = sparse.csr_matrix(X)
    dense_nan = np.where(X == 0.0, np.nan, X).astype(np.float32)
    params = dict(PARAMS, objective="binary:logistic")
    from_sparse = gpulayer.train(params, gpulayer.Dataset(csr, label=y), 10)
    from_dense = gpulayer.train(params, gpulayer.Dataset(dense_nan, label=y), 10)
    assert from_sparse.save_raw() == from_dense.save_raw()
    # 1,000 rows x 2,000,000 columns would be 8 GB dense; its 20,000
    # entries fit a 64 MB limit.
    monkeypatch.setenv("GPULAYER_MEMORY_LIMIT", "64M")
    at = rng.integers(0, [[1000], [2_000_000]], size=(2, 20_000))
    wide = sparse.csr_matrix((rng.normal(size=20_000), (at[0], at[1])), shape=(1000, 2_000_000))
    data = gpulayer.Dataset(wide)
    assert (data.num_rows, data.num_cols) == (1000, 2_000_000)
    # Unsorted and duplicate entries are summed and sorted first, as scipy does.
    coo = sparse.coo_matrix((np.array([1.0, 2.0, 4.0]), ([0, 0, 1], [2, 2, 0])), shape=(2, 3))
    assert gpulayer.Dataset(coo).num_cols == 3


def test_nan_is_missing_and_learns_a_direction():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(1000, 1))
    y = np.where(X[:, 0] > 0, 1.0, 0.0)
    missing = rng.random(1000) < 0.3
    X[missing] = np.nan
    y[missing] = 5.0
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(X, label=y), 30)
    assert bst.predict(np.array([[np.nan]]))[0] > 4.5


def test_from_file(tmp_path):
    path = tmp_path / "train.csv"
    path.write_text("y,a,b,colour\n1,0.5,2,red\n0,1.5,,blue\n1,2.5,1,red\n")
    d = gpulayer.Dataset.from_file(path, label="y")
    assert d.shape == (3, 3)
    assert d.feature_names == ["a", "b", "colour"]
    np.testing.assert_array_equal(d.get_label(), [1, 0, 1])
    with pytest.raises(OSError, match="nope.csv"):
        gpulayer.Dataset.from_file(tmp_path / "nope.csv")


def test_from_file_needs_the_label_column_named(tmp_path):
    """A CSV/TSV file's label column is named, as XGBoost's label_column:
    the first column was taken as the label when label= was left out."""
    csv = tmp_path / "data.csv"
    csv.write_text("a,b,y\n0.5,2,1\n1.5,3,0\n")
    for unnamed in ({}, {"label": ""}):
        with pytest.raises(InvalidArgumentError,
                           match=r"data.csv: name the label column .* label='none'"):
            gpulayer.Dataset.from_file(csv, **unnamed)
    tsv = tmp_path / "data.tsv"
    tsv.write_text("a\tb\ty\n0.5\t2\t1\n1.5\t3\t0\n")
    with pytest.raises(InvalidArgumentError, match="name the label column"):
        gpulayer.Dataset.from_file(tsv)
    with pytest.raises(InvalidArgumentError, match="name the label column"):
        gpulayer.Dataset.from_file(tsv, format="tsv", no_header=True)
    by_name = gpulayer.Dataset.from_file(csv, label="y")
    by_index = gpulayer.Dataset.from_file(csv, label=2)
    for d in (by_name, by_index):
        assert d.feature_names == ["a", "b"]
        np.testing.assert_array_equal(d.get_label(), [1, 0])
    first = gpulayer.Dataset.from_file(csv, label=0)
    assert first.feature_names == ["b", "y"]
    unlabelled = gpulayer.Dataset.from_file(csv, label="none")
    assert unlabelled.shape == (2, 3)
    # A LibSVM file's label is the first token of each line.
    svm = tmp_path / "data.svm"
    svm.write_text("1 0:0.5 1:2\n0 0:1.5 1:3\n")
    np.testing.assert_array_equal(gpulayer.Dataset.from_file(svm).get_label(), [1, 0])


def test_text_columns_follow_the_csv_rule():
    """An object column of number text was categorical (codes by string
    order), and one with a typo silently so; real text stays categorical."""
    n = 100
    df = pd.DataFrame({
        "num": [str(i * 0.5) for i in range(n)],
        "typo": [str(i) for i in range(n)],
        "text": ["red" if i % 2 else "blue" for i in range(n)],
        "cat": pd.Categorical([str(i % 3) for i in range(n)]),
    })
    dense = to_dense(df.drop(columns="typo"))
    assert 0 not in dense.categories and dense.values[3, 0] == 1.5
    assert dense.categories[1] == ["blue", "red"] and dense.categories[2] == ["0", "1", "2"]
    df.loc[42, "typo"] = "4 2"
    with pytest.raises(gpulayer.errors.ParseError,
                       match=r"column 'typo': it looks numeric, but 1 of its values are "
                             r"not numbers, the first at row 42 .*'4 2'.*'category' dtype"):
        to_dense(df)
    with pytest.warns(UserWarning, match="1 values that are not numbers"):
        dense = to_dense(df, bad_numbers="missing")
    assert np.isnan(dense.values[42, 1]) and dense.values[41, 1] == 41
    with pytest.raises(ValueError, match="bad_numbers must be one of"):
        to_dense(df, bad_numbers="drop")


def test_from_file_numeric_and_categorical_columns(tmp_path):
    path = tmp_path / "d.csv"
    rows = ["y,a,b"] + [f"{i % 2},{i},{i % 3}" for i in range(40)]
    rows[8] = "1,x7,2"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(gpulayer.errors.ParseError, match=r"line 9, column 2 \('a'\)"):
        gpulayer.Dataset.from_file(path, label="y")
    ds = gpulayer.Dataset.from_file(path, label="y", bad_numbers="missing",
                                    categorical_columns=["b"])
    assert ds.num_cols == 2
    with pytest.raises(gpulayer.errors.ParseError, match="must be numeric"):
        gpulayer.Dataset.from_file(path, label="y", numeric_columns=["b", "a"])


# ------------------------------------------------------------------ slice

def test_slice_keeps_rows_labels_weights_names_and_dictionaries():
    rng = np.random.default_rng(3)
    n = 120
    df = pd.DataFrame({
        "x": rng.normal(size=n),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue"], n)),
        "city": rng.choice(["Oslo", "Lima", "Pune", "Kyiv"], n).astype(object),
        "code": rng.integers(0, 5, n).astype(float),
    })
    y = rng.normal(size=n).astype(np.float32)
    w = rng.uniform(0.5, 2, n).astype(np.float32)
    margin = rng.normal(size=n).astype(np.float32)
    full = gpulayer.Dataset(df, label=y, weight=w, base_margin=margin,
                            categorical_feature=["code"], feature_weights=[1, 2, 3, 4])
    rows = np.array([5, 0, 77, 3, 3, 119])
    part = full.slice(rows)
    assert part.shape == (6, 4)
    assert part.feature_names == ["x", "colour", "city", "code"]
    np.testing.assert_array_equal(part.get_label(), y[rows])
    np.testing.assert_array_equal(part.get_weight(), w[rows])
    # The whole data's dictionaries, though a slice may lack some categories.
    assert part.categories == full.categories and set(part.categories) == {1, 2, 3}
    # The slice predicts as the same rows of the whole (base margins kept).
    bst = gpulayer.train(PARAMS, full, 5)
    np.testing.assert_allclose(bst.predict(part), bst.predict(full)[rows], rtol=1e-6)
    # A model trained on a slice is the model of the same rows given directly.
    numeric = np.asarray(df[["x"]], dtype=np.float64)
    direct = gpulayer.Dataset(numeric[rows[:4]], label=y[rows[:4]], feature_names=["x"])
    sliced = gpulayer.Dataset(numeric, label=y, feature_names=["x"]).slice(rows[:4])
    assert (gpulayer.train(PARAMS, sliced, 3).save_raw()
            == gpulayer.train(PARAMS, direct, 3).save_raw())


def test_slice_of_sparse_and_missing_sentinel():
    X = np.array([[1.0, -1.0], [-1.0, 2.0], [3.0, 0.0]])
    dense = gpulayer.Dataset(X, label=[0, 1, 0], missing=-1.0).slice([2, 1])
    X_csr = sparse.csr_matrix(X)  # kept: a Dataset holds its data weakly
    csr = gpulayer.Dataset(X_csr, label=[0, 1, 0], missing=-1.0).slice([2, 1])
    for part in (dense, csr):
        assert part.shape == (2, 2)
        np.testing.assert_array_equal(part.get_label(), [0, 1])


def test_slice_needs_the_data_kept():
    full = gpulayer.Dataset(np.zeros((4, 2)), label=[0, 1, 0, 1])  # the array is freed
    with pytest.raises(ValueError, match="has been freed"):
        full.slice([0, 1])
    rows = [[1.0, 2.0], [3.0, 4.0]]  # a list is held, as it takes no weak reference
    del_later = gpulayer.Dataset(rows, label=[0, 1])
    del rows
    assert del_later.slice([1]).shape == (1, 2)


def test_slice_keeps_whole_queries_and_refuses_a_split_one():
    X = np.arange(14, dtype=np.float64).reshape(7, 2)
    full = gpulayer.Dataset(X, label=[0, 1, 2, 0, 1, 0, 1], qid=[1, 1, 1, 4, 4, 9, 9])
    part = full.slice([5, 6, 0, 1, 2])
    np.testing.assert_array_equal(part.get_group(), [2, 3])
    np.testing.assert_array_equal(full.slice([1, 2, 3]).get_group(), [2, 1])  # parts
    with pytest.raises(ValueError, match="query 0 .* not together"):
        full.slice([0, 3, 1])


def test_slice_refuses_bad_indexes_and_datasets_without_data(tmp_path):
    X = np.zeros((4, 2))
    full = gpulayer.Dataset(X, label=[0, 1, 0, 1])
    with pytest.raises(ValueError, match="row index 4 is out of range for 4 rows"):
        full.slice([0, 4])
    with pytest.raises(ValueError, match="1-D array of integers"):
        full.slice([0.5, 1.0])
    path = tmp_path / "d.csv"
    path.write_text("y,a\n1,2\n0,3\n")
    for made in (gpulayer.Dataset.from_file(path, label="y"), full.select_columns([1])):
        with pytest.raises(ValueError, match=r"no in-memory data .*pandas\.read_csv"):
            made.slice([0])


@pytest.mark.parametrize("what", ["label", "weight", "base_margin"])
def test_values_past_float32_are_named_not_called_infinite(what):
    """1e39 is finite in float64 and infinite in float32: the error names
    the value and float32's range, not an infinity the caller never gave."""
    X = np.random.default_rng(0).random((6, 2))
    values = np.ones(6)
    values[4] = -1e39
    with pytest.raises(ValueError, match=rf"{what}\[4\] is -1e\+39, beyond float32's range"):
        gpulayer.Dataset(X, label=values if what == "label" else np.ones(6),
                         **({} if what == "label" else {what: values}))

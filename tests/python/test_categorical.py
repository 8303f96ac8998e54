"""Which columns are categorical: pandas category, string and object
columns, categorical_feature (LightGBM's name) for integer-coded columns,
enable_categorical (XGBoost's name); prediction with other categories."""

import re

import numpy as np
import pytest

import gpulayer
from gpulayer.dataset import to_dense

pd = pytest.importorskip("pandas")

PARAMS = {"objective": "reg:squarederror", "max_depth": 3, "nthread": 2,
          "device": "cpu"}
SHOPS = [3, 17, 5, 40, 2, 8]
GOOD = [3, 40, 8]  # shops whose rows have a high label


def shop_data(rows=1500, seed=0):
    """A numeric column x and an integer-coded column shop (NaN in a few
    rows); the label depends on whether the shop is one of GOOD."""
    rng = np.random.default_rng(seed)
    shop = rng.choice(SHOPS, size=rows).astype(np.float64)
    x = rng.normal(size=rows)
    y = np.where(np.isin(shop, GOOD), 2.0, -1.0) + 0.1 * x
    shop[:15] = np.nan
    return x, shop, y


def test_category_dictionary_is_sorted_with_unused_categories():
    """Codes follow the sorted names whatever the order of the pandas
    categories, and unused categories stay in the dictionary."""
    df = pd.DataFrame({"c": pd.Categorical(["b", "d", None, "b"],
                                           categories=["d", "unused", "b", "a"])})
    dense = to_dense(df)
    assert dense.categories == {0: ["a", "b", "d", "unused"]}
    np.testing.assert_array_equal(dense.values[[0, 1, 3], 0], [1, 2, 1])
    assert np.isnan(dense.values[2, 0])


def test_string_and_object_columns_are_categorical():
    df = pd.DataFrame({
        "s": pd.array(["x", "y", None, "x"], dtype="string"),
        "o": np.array(["p", None, "q", "p"], dtype=object),
    })
    dense = to_dense(df)
    assert dense.categories == {0: ["x", "y"], 1: ["p", "q"]}
    np.testing.assert_array_equal(dense.values[[0, 1, 3], 0], [0, 1, 0])
    assert np.isnan(dense.values[2, 0]) and np.isnan(dense.values[1, 1])


def test_categorical_feature_by_index_and_by_name_give_one_model():
    x, shop, y = shop_data()
    by_index = gpulayer.Dataset(np.column_stack([x, shop]), label=y,
                                categorical_feature=[1])
    # The values are the category names; NaN stays missing.
    assert by_index.categories == {1: ["17", "2", "3", "40", "5", "8"]}
    frame = pd.DataFrame({"x": x, "shop": shop})
    by_name = gpulayer.Dataset(frame, label=y, categorical_feature=["shop"])
    assert by_name.categories == by_index.categories
    a = gpulayer.train(PARAMS, by_index, 5)
    b = gpulayer.train(PARAMS, by_name, 5)
    assert a.feature_types == ["q", "c"]
    np.testing.assert_array_equal(a.predict(np.column_stack([x, shop])), b.predict(frame))
    # One split separates the GOOD shops from the others.
    assert np.abs(b.predict(frame)[15:] - y[15:]).max() < 0.6


def test_without_categorical_feature_the_column_is_numeric():
    x, shop, y = shop_data()
    plain = gpulayer.Dataset(np.column_stack([x, shop]), label=y)
    assert plain.categories == {}
    assert gpulayer.train(PARAMS, plain, 1).feature_types == ["q", "q"]


@pytest.mark.parametrize("bad, shown", [(-1.0, "-1"), (2.5, "2.5"), (2.0**40, "1.09951e+12")])
def test_categorical_feature_refuses_values_that_are_not_codes(bad, shown):
    x, shop, y = shop_data()
    shop[42] = bad
    with pytest.raises(ValueError, match=rf"categorical feature column 1: row 42 "
                       rf"\(0-based position\) holds {re.escape(shown)}, which is not "
                       "a non-negative integer"):
        gpulayer.Dataset(np.column_stack([x, shop]), label=y, categorical_feature=[1])
    with pytest.raises(ValueError, match=r"categorical feature 'shop': row 42"):
        gpulayer.Dataset(pd.DataFrame({"x": x, "shop": shop}), label=y,
                         categorical_feature="shop")


def test_categorical_feature_names_and_indexes_are_checked():
    x, shop, y = shop_data(rows=50)
    X = np.column_stack([x, shop])
    with pytest.raises(ValueError, match="column index 2 is out of range; the data have 2"):
        gpulayer.Dataset(X, categorical_feature=[2])
    with pytest.raises(ValueError, match="no column is named 'shops'"):
        gpulayer.Dataset(pd.DataFrame({"x": x, "shop": shop}), categorical_feature=["shops"])
    with pytest.raises(ValueError, match="data have no feature names"):
        gpulayer.Dataset(X, categorical_feature=["shop"])
    # feature_names make names usable for an array.
    named = gpulayer.Dataset(X, feature_names=["x", "shop"], categorical_feature=["shop"])
    assert list(named.categories) == [1]
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(TypeError, match="not supported for scipy.sparse"):
        gpulayer.Dataset(sparse.csr_matrix(np.nan_to_num(X)), categorical_feature=[1])


def test_text_column_in_categorical_feature_stays_text():
    """A text column of numbers is numeric by the CSV rule unless named."""
    df = pd.DataFrame({"z": np.array(["1", "2", "10", None], dtype=object)})
    assert to_dense(df).categories == {}
    assert to_dense(df, categorical_feature=["z"]).categories == {0: ["1", "10", "2"]}


def test_prediction_maps_integer_categories_by_name():
    """Prediction reads an integer-coded column as names: a frame or array
    with other, fewer or unseen shops predicts as the training rows do; an
    unseen, negative or fractional shop is missing."""
    x, shop, y = shop_data()
    frame = pd.DataFrame({"x": x, "shop": shop})
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(frame, label=y,
                                                  categorical_feature=["shop"]), 10)
    expected = bst.predict(frame)
    part = frame[shop == 40]
    np.testing.assert_array_equal(bst.predict(part), expected[shop == 40])
    np.testing.assert_array_equal(bst.predict(part.to_numpy()), expected[shop == 40])
    missing = bst.predict(pd.DataFrame({"x": x[:4], "shop": [np.nan] * 4}))
    for odd in (99.0, -3.0, 2.5):
        got = bst.predict(pd.DataFrame({"x": x[:4], "shop": [odd] * 4}))
        np.testing.assert_array_equal(got, missing)
        got = bst.predict(np.column_stack([x[:4], [odd] * 4]))
        np.testing.assert_array_equal(got, missing)


def test_prediction_with_other_pandas_categories():
    """Categories of a prediction frame are matched by name: another order,
    unused ones, and an unseen one (which is missing)."""
    rng = np.random.default_rng(5)
    colour = rng.choice(["red", "green", "blue"], 900)
    x = rng.normal(size=900)
    y = (colour == "green") * 3.0 + 0.1 * x
    train = pd.DataFrame({"x": x, "colour": pd.Categorical(colour)})
    bst = gpulayer.train(PARAMS, gpulayer.Dataset(train, label=y), 10)
    expected = bst.predict(train)
    other = train.assign(colour=pd.Categorical(
        colour, categories=["violet", "red", "green", "blue"]))
    np.testing.assert_array_equal(bst.predict(other), expected)
    unseen = pd.DataFrame({"x": x[:3], "colour": pd.Categorical(["violet"] * 3)})
    nothing = pd.DataFrame({"x": x[:3], "colour": pd.Categorical([None] * 3,
                                                                categories=["red"])})
    np.testing.assert_array_equal(bst.predict(unseen), bst.predict(nothing))


def test_enable_categorical_is_accepted():
    df = pd.DataFrame({"c": pd.Categorical(["a", "b"] * 20), "x": np.arange(40.0)})
    for flag in (True, False, None):
        assert gpulayer.Dataset(df, enable_categorical=flag).categories == {0: ["a", "b"]}
    with pytest.raises(TypeError, match="enable_categorical must be a bool"):
        gpulayer.Dataset(df, enable_categorical="yes")


def test_sklearn_categorical_feature():
    pytest.importorskip("sklearn")
    from sklearn.base import clone

    from gpulayer.sklearn import GPULayerRegressor

    x, shop, y = shop_data()
    X = np.column_stack([x, shop])
    est = GPULayerRegressor(n_estimators=10, max_depth=3, categorical_feature=[1],
                            enable_categorical=True).fit(X, y)
    assert est.get_booster().feature_types == ["q", "c"]
    frame = pd.DataFrame({"x": x, "shop": shop})
    by_name = clone(est).set_params(categorical_feature=["shop"]).fit(frame, y)
    np.testing.assert_array_equal(est.predict(X), by_name.predict(frame))
    # An unseen shop at prediction is missing, not an error.
    odd = np.array([[0.1, np.nan], [0.1, 99], [0.1, -1]])
    got = est.predict(odd)
    assert got[1] == got[0] and got[2] == got[0]
    with pytest.raises(ValueError, match="categorical feature column 1: row 0"):
        clone(est).fit(np.column_stack([x, np.full_like(x, 0.5)]), y)
    plain = GPULayerRegressor(n_estimators=2).fit(X, y)
    assert plain.get_booster().feature_types == ["q", "q"]


def test_sklearn_passes_the_categorical_parameters():
    pytest.importorskip("sklearn")
    from gpulayer.sklearn import GPULayerRegressor

    rng = np.random.default_rng(8)
    colour = rng.choice(["blue", "green", "red", "grey", "pink", "teal"], 600)
    frame = pd.DataFrame({"colour": colour})
    y = np.isin(colour, ["blue", "grey", "teal"]) * 2.0
    params = dict(categorical="partition", max_cat_to_onehot=2, max_cat_threshold=8,
                  cat_smooth=5.0, cat_l2=1.0, min_data_per_group=3.0)
    est = GPULayerRegressor(n_estimators=1, max_depth=1, **params).fit(frame, y)
    booster = est.get_booster()
    for key, value in params.items():
        got = booster.get_param(key)
        assert (got == value if isinstance(value, str) else float(got) == value), key
    # One split by a set separates the three categories of the high label.
    assert booster.get_dump()[0].startswith("0:[colour in {")
    ordered = GPULayerRegressor(n_estimators=1, categorical="ordered").fit(frame, y)
    assert ordered.get_booster().get_param("categorical") == "ordered"


def test_numbers_for_text_categories_are_names_in_every_interface(tmp_path):
    """The same model and file give the same predictions through the
    command and through Booster.predict on pandas' reading of the file:
    a number given for a categorical feature whose categories are text
    names no category (the command reads the cell "1" as the name "1"),
    so its rows go the missing way, with a warning in Python; the names
    give the categories' predictions in both."""
    import os
    import subprocess
    cli = os.environ.get("GPULAYER_CLI", os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "gpulayer"))
    if not os.path.exists(cli):
        pytest.skip(f"the gpulayer command is not built ({cli})")
    rng = np.random.default_rng(4)
    colour = rng.choice(["blue", "green", "red"], size=600)
    x = rng.normal(size=600)
    train = pd.DataFrame({"y": (colour == "red") * 2.0 + 0.1 * x, "x": x, "colour": colour})
    train.to_csv(tmp_path / "train.csv", index=False)
    model = str(tmp_path / "m.json")
    subprocess.run([cli, "train", "--data", str(tmp_path / "train.csv"), "--label", "y",
                    "--model", model, "--objective", "reg:squarederror", "--num-round", "5",
                    "--quiet"], check=True)
    bst = gpulayer.Booster(model_file=model)
    assert bst.categories(1) == ["blue", "green", "red"]

    def both(column):
        test = pd.DataFrame({"x": x[:6], "colour": column})
        path = tmp_path / "test.csv"
        test.to_csv(path, index=False)
        out = tmp_path / "p.txt"
        subprocess.run([cli, "predict", "--model", model, "--data", str(path),
                        "--output", str(out)], check=True, capture_output=True)
        return np.loadtxt(out, delimiter=","), pd.read_csv(path)

    by_cli, frame = both(["red", "blue", "green", "red", "blue", "green"])
    np.testing.assert_array_equal(bst.predict(frame), by_cli.astype(np.float32))
    by_cli, frame = both([2, 0, 1, 2, 0, 1])  # the codes of the names above
    assert frame["colour"].dtype.kind == "i"
    with pytest.warns(UserWarning, match="categorical feature 'colour': none of its "
                      r"values \(0, 1, 2\) names one of the model's categories"):
        by_python = bst.predict(frame)
    np.testing.assert_array_equal(by_python, by_cli.astype(np.float32))
    missing = bst.predict(pd.DataFrame({"x": x[:6], "colour": pd.Categorical([None] * 6)}))
    np.testing.assert_array_equal(by_python, missing)

"""Models of XGBoost (JSON and UBJSON) and LightGBM (text) loaded into
GPUlayer predict as the library that trained them: margins and outputs
within 1e-6 (relative), on real data from ../shared/data, with missing
values in the rows and rows exactly at (and a float either side of) the
models' thresholds. Models GPUlayer cannot represent are refused with the
reason, and continued training of an imported model is refused.

Skipped where xgboost, lightgbm or ../shared/data is absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gpulayer as gl

pd = pytest.importorskip("pandas")

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ROUNDS, DEPTH = 50, 6
RTOL = 1e-6
# LightGBM adds its leaves as doubles, GPUlayer as floats: each of the 50
# additions may round by 2^-24 of the running sum (about 3e-6 in all at
# worst). A row sent down the wrong branch would differ by a whole leaf.
LGB_RTOL = 4e-6


def _csv(folder, name):
    path = DATA / folder / name
    if not path.exists():
        pytest.skip(f"{path} not present (../shared/data is only on project machines)")
    return pd.read_csv(path)


def _float32(df):
    """Numeric columns as float32 values (float64 dtype for the other
    libraries): both then see the same numbers GPUlayer does."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype != "category":
            out[c] = out[c].astype(np.float32).astype(np.float64)
    return out


def load_case(name):
    """(features, label, task) of a named case."""
    if name == "regression_missing":
        df = _csv("ggplot2_txhousing", "txhousing.csv")
        return _float32(df.drop(columns=["median", "city"])), df["median"].to_numpy(), "reg"
    if name == "binary":
        df = _csv("kernlab_spam", "spam.csv")
        return _float32(df.drop(columns=["type"])), df["type"].to_numpy(dtype=np.float64), "binary"
    if name == "multiclass":
        df = _csv("mlbench_vehicle", "vehicle.csv")
        y = pd.Categorical(df["Class"]).codes.astype(np.float64)
        return _float32(df.drop(columns=["Class"])), y, "multi"
    if name == "categorical":
        df = _csv("ggplot2_diamonds", "diamonds.csv").iloc[:12000]
        X = df.drop(columns=["price"])
        for c in ("cut", "color", "clarity"):
            X[c] = X[c].astype("category")
        return _float32(X), df["price"].to_numpy(dtype=np.float64), "reg"
    if name == "poisson":
        df = _csv("aer_nmes1988", "nmes1988.csv")
        X = df[["chronic", "age", "school", "income", "hospital"]]
        return _float32(X), df["visits"].to_numpy(dtype=np.float64), "poisson"
    raise KeyError(name)


CASES = ["regression_missing", "binary", "multiclass", "categorical", "poisson"]


def with_missing(X, seed=7, share=0.1):
    """X with a share of its numeric cells missing."""
    rng = np.random.default_rng(seed)
    out = X.copy()
    for c in out.columns:
        if out[c].dtype != "category":
            col = out[c].to_numpy(copy=True)
            col[rng.random(len(col)) < share] = np.nan
            out[c] = col
    return out


def at_thresholds(X, thresholds, per_feature=24):
    """Rows of X whose one feature sits exactly at a threshold of the
    model, or a float32 step below or above it."""
    base = X.iloc[:2]
    frames = []
    for f, values in thresholds.items():
        values = sorted(values)[:: max(1, len(values) // per_feature)]
        for t in values:
            t32 = np.float32(t)
            for v in (t32, np.nextafter(t32, np.float32(-np.inf)),
                      np.nextafter(t32, np.float32(np.inf))):
                rows = base.copy()
                rows[X.columns[f]] = np.float64(v)
                frames.append(rows)
    return pd.concat(frames, ignore_index=True) if frames else base


def compare(ours, theirs, what, report, rtol=RTOL):
    ours = np.asarray(ours, dtype=np.float64)
    theirs = np.asarray(theirs, dtype=np.float64).reshape(ours.shape)
    diff = np.abs(ours - theirs)
    rel = float(np.max(diff / np.maximum(np.abs(theirs), 1.0)))
    report.append((what, float(diff.max()), rel))
    print(f"MAXDIFF {what}: abs {diff.max():.3g} rel {rel:.3g}")
    assert rel <= rtol, f"{what}: largest difference {diff.max():.3g} (relative {rel:.3g})"


# ------------------------------------------------------------------ XGBoost

XGB_OBJECTIVE = {"reg": "reg:squarederror", "binary": "binary:logistic",
                 "multi": "multi:softprob", "poisson": "count:poisson"}


def xgb_thresholds(path):
    doc = json.loads(Path(path).read_text())
    out = {}
    for tree in doc["learner"]["gradient_booster"]["model"]["trees"]:
        for left, f, cond, kind in zip(tree["left_children"], tree["split_indices"],
                                       tree["split_conditions"],
                                       tree.get("split_type", [0] * len(tree["left_children"]))):
            if left != -1 and kind == 0:
                out.setdefault(f, set()).add(cond)
    return out


@pytest.mark.parametrize("fmt", ["json", "ubj"])
@pytest.mark.parametrize("case", CASES)
def test_xgboost_model_predicts_as_xgboost(case, fmt, tmp_path):
    xgb = pytest.importorskip("xgboost")
    X, y, task = load_case(case)
    params = {"objective": XGB_OBJECTIVE[task], "max_depth": DEPTH, "tree_method": "hist",
              "max_cat_to_onehot": 1, "seed": 1, "nthread": 1}
    if task == "multi":
        params["num_class"] = int(y.max()) + 1
    dtrain = xgb.DMatrix(X, y, enable_categorical=True)
    bst = xgb.train(params, dtrain, ROUNDS)
    path = tmp_path / f"model.{fmt}"
    bst.save_model(path)
    json_path = tmp_path / "model.json"
    bst.save_model(json_path)

    ours = gl.Booster(model_file=path)
    report = []
    for what, rows in (("missing", with_missing(X)),
                       ("thresholds", at_thresholds(X, xgb_thresholds(json_path)))):
        d = xgb.DMatrix(rows, enable_categorical=True)
        compare(ours.predict(rows, output_margin=True), bst.predict(d, output_margin=True),
                f"xgboost {fmt} {case} {what} margin", report)
        compare(ours.predict(rows), bst.predict(d), f"xgboost {fmt} {case} {what} output",
                report)


def test_xgboost_shap_matches(tmp_path):
    """TreeSHAP of an imported model weighs by XGBoost's sum_hessian, as
    XGBoost does."""
    xgb = pytest.importorskip("xgboost")
    X, y, _ = load_case("regression_missing")
    bst = xgb.train({"max_depth": 4, "tree_method": "hist"}, xgb.DMatrix(X, y), 10)
    bst.save_model(tmp_path / "m.json")
    ours = gl.Booster(model_file=tmp_path / "m.json")
    rows = with_missing(X).iloc[:300]
    theirs = bst.predict(xgb.DMatrix(rows), pred_contribs=True)
    mine = ours.predict(rows, pred_contribs=True)
    scale = np.abs(theirs).max()
    assert np.abs(mine - theirs).max() <= 1e-4 * scale


# ----------------------------------------------------------------- LightGBM

LGB_OBJECTIVE = {"reg": "regression", "binary": "binary", "multi": "multiclass",
                 "poisson": "poisson"}


def lgb_thresholds(bst):
    out = {}

    def walk(node):
        if "split_index" not in node:
            return
        if node["decision_type"] == "<=":
            out.setdefault(node["split_feature"], set()).add(node["threshold"])
        walk(node["left_child"])
        walk(node["right_child"])

    for tree in bst.dump_model()["tree_info"]:
        walk(tree["tree_structure"])
    return out


@pytest.mark.parametrize("case", CASES)
def test_lightgbm_model_predicts_as_lightgbm(case, tmp_path):
    lgb = pytest.importorskip("lightgbm")
    X, y, task = load_case(case)
    params = {"objective": LGB_OBJECTIVE[task], "max_depth": DEPTH, "num_leaves": 63,
              "verbose": -1, "seed": 1, "deterministic": True, "num_threads": 1}
    if task == "multi":
        params["num_class"] = int(y.max()) + 1
    train_rows = with_missing(X, seed=3, share=0.05) if case == "regression_missing" else X
    bst = lgb.train(params, lgb.Dataset(train_rows, y), ROUNDS)
    path = tmp_path / "model.txt"
    bst.save_model(path)

    ours = gl.Booster(model_file=path)
    report = []
    for what, rows in (("missing", with_missing(X)),
                       ("thresholds", at_thresholds(X, lgb_thresholds(bst)))):
        compare(ours.predict(rows, output_margin=True), bst.predict(rows, raw_score=True),
                f"lightgbm {case} {what} margin", report, LGB_RTOL)
        compare(ours.predict(rows), bst.predict(rows), f"lightgbm {case} {what} output",
                report, LGB_RTOL)


# ---------------------------------------------------------------- refusals

def _small():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4)).astype(np.float32)
    return X, X[:, 0] + X[:, 1] ** 2 + 0.1 * rng.normal(size=400)


@pytest.mark.parametrize("params,words", [
    ({"booster": "dart"}, "dart"),
    ({"booster": "gblinear"}, "gblinear"),
    ({"multi_strategy": "multi_output_tree", "tree_method": "hist"}, "multi-output tree"),
])
def test_xgboost_unsupported_models_are_refused(params, words, tmp_path):
    xgb = pytest.importorskip("xgboost")
    X, y = _small()
    if "multi_strategy" in params:
        y = np.stack([y, -y], axis=1)
    bst = xgb.train({"nthread": 1, **params}, xgb.DMatrix(X, y), 3)
    path = tmp_path / "refused.json"
    bst.save_model(path)
    with pytest.raises(gl.errors.UnsupportedError, match=words) as e:
        gl.Booster(model_file=path)
    assert "refused.json" in str(e.value)


@pytest.mark.parametrize("params,words", [
    ({"linear_tree": True}, "linear_tree"),
    ({"boosting": "rf", "bagging_freq": 1, "bagging_fraction": 0.5}, "random forest"),
    ({"objective": "huber"}, "huber"),
    ({"zero_as_missing": True}, None),
])
def test_lightgbm_unsupported_models_are_refused(params, words, tmp_path):
    lgb = pytest.importorskip("lightgbm")
    X, y = _small()
    X[::3, 0] = 0.0
    bst = lgb.train({"verbose": -1, "num_leaves": 8, "num_threads": 1, **params}, lgb.Dataset(X, y), 5)
    path = tmp_path / "refused.txt"
    bst.save_model(path)
    if words is None:
        # zero_as_missing: loads where every split sends 0 where its
        # threshold does; otherwise refused, naming zero_as_missing.
        try:
            ours = gl.Booster(model_file=path)
        except Exception as e:  # noqa: BLE001 -- the message is the test
            assert "zero_as_missing" in str(e)
            return
        rows = X.astype(np.float64)
        assert np.allclose(ours.predict(rows, output_margin=True),
                           bst.predict(rows, raw_score=True), rtol=RTOL, atol=RTOL)
        return
    with pytest.raises(gl.errors.UnsupportedError, match=words) as e:
        gl.Booster(model_file=path)
    assert "refused.txt" in str(e.value)


def test_continued_training_of_imported_model_is_refused(tmp_path):
    xgb = pytest.importorskip("xgboost")
    X, y = _small()
    xgb.train({"max_depth": 3}, xgb.DMatrix(X, y), 3).save_model(tmp_path / "m.json")
    imported = gl.Booster(model_file=tmp_path / "m.json")
    with pytest.raises(gl.errors.UnsupportedError, match="imported from XGBoost 3"):
        gl.train({"max_depth": 3}, gl.Dataset(X, y), 2, xgb_model=imported)
    # Saved in GPUlayer's format and read back, it is still an import.
    imported.save_model(tmp_path / "again.json")
    again = gl.Booster(model_file=tmp_path / "again.json")
    assert np.array_equal(again.predict(X), imported.predict(X))
    with pytest.raises(gl.errors.UnsupportedError, match="imported from"):
        gl.train({"max_depth": 3}, gl.Dataset(X, y), 2, xgb_model=again)


# ------------------------------------------------------------ UBJSON writes

def test_save_model_ubj_is_xgboost_ubjson_json_stays_ours(tmp_path):
    X, y = _small()
    bst = gl.train({"max_depth": 3}, gl.Dataset(X, y), 5)
    bst.set_attr(note="kept")
    bst.save_model(tmp_path / "m.ubj")
    bst.save_model(tmp_path / "m.json")
    raw = (tmp_path / "m.ubj").read_bytes()
    assert raw[:2] == b"{L"
    assert b'"learner"' not in (tmp_path / "m.json").read_bytes()[:64]
    back = gl.Booster(model_file=tmp_path / "m.ubj")
    assert np.array_equal(back.predict(X), bst.predict(X))
    xgb = pytest.importorskip("xgboost")
    theirs = xgb.Booster(model_file=str(tmp_path / "m.ubj"))
    assert theirs.attr("note") == "kept"
    np.testing.assert_allclose(theirs.predict(xgb.DMatrix(X)), bst.predict(X), rtol=RTOL)


# ------------------------------------------------------- many categories

def _many_categories(rows=8000, categories=800, seed=5):
    """A shop column of 800 categories, whose effects do not follow their
    codes, beside a number; some shops missing."""
    import pandas as pd
    rng = np.random.default_rng(seed)
    effect = rng.normal(size=categories)
    shop = rng.integers(0, categories, rows)
    x = rng.normal(size=rows).astype(np.float32)
    y = effect[shop] + 0.5 * x
    codes = np.where(rng.random(rows) < 0.03, -1, shop)
    names = [f"s{i:04d}" for i in range(categories)]
    X = pd.DataFrame({"x": x, "shop": pd.Categorical.from_codes(codes, categories=names)})
    return X, y


def test_models_of_many_categories_predict_as_their_library(tmp_path):
    """More than 255 categories a feature: XGBoost's JSON and UBJSON and
    LightGBM's text load with every category its own bin (sets wider than
    a byte's bins) and predict as the library does."""
    xgb = pytest.importorskip("xgboost")
    lgb = pytest.importorskip("lightgbm")
    X, y = _many_categories()
    bst = xgb.train({"max_depth": DEPTH, "tree_method": "hist", "max_cat_to_onehot": 1,
                     "seed": 1, "nthread": 1}, xgb.DMatrix(X, y, enable_categorical=True),
                    ROUNDS)
    want = bst.predict(xgb.DMatrix(X, enable_categorical=True), output_margin=True)
    report = []
    for fmt in ("json", "ubj"):
        path = tmp_path / f"model.{fmt}"
        bst.save_model(path)
        ours = gl.Booster(model_file=path)
        assert len(ours.categories(1)) == 800
        compare(ours.predict(X, output_margin=True), want, f"xgboost {fmt} 800 categories",
                report)
    light = lgb.train({"objective": "regression", "max_depth": DEPTH, "num_leaves": 63,
                       "verbose": -1, "seed": 1, "deterministic": True, "num_threads": 1},
                      lgb.Dataset(X, y), ROUNDS)
    path = tmp_path / "model.txt"
    light.save_model(path)
    ours = gl.Booster(model_file=path)
    compare(ours.predict(X, output_margin=True), light.predict(X, raw_score=True),
            "lightgbm 800 categories", report, LGB_RTOL)

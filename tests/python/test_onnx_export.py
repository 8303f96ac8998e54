"""ONNX export (gpulayer.onnx_export): onnxruntime runs the exported graph
and gives Booster.predict's values within 1e-6, for every objective link,
several outputs, missing values, integer-coded categorical features and
the scikit-learn estimators; a model it cannot express is refused."""

import numpy as np
import pytest

import gpulayer
from gpulayer.onnx_export import to_onnx

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

RNG = np.random.default_rng(7)
X = RNG.normal(size=(600, 5)).astype(np.float32)
X[::9, 1] = np.nan
SIGNAL = X[:, 0] + np.nan_to_num(X[:, 1]) * X[:, 2]
LABELS = {
    "reg": SIGNAL + 0.3 * RNG.normal(size=600),
    "binary": (SIGNAL + RNG.normal(size=600) > 0) * 1.0,
    "prob": 1.0 / (1.0 + np.exp(-SIGNAL)),
    "count": RNG.poisson(np.exp(0.3 * np.clip(SIGNAL, -3, 3))) * 1.0,
    "positive": np.exp(0.3 * np.clip(SIGNAL, -3, 3)) * RNG.gamma(2.0, 1.0, 600),
    "class": np.digitize(SIGNAL, [-0.5, 0.5]) * 1.0,
    "grade": np.clip(np.round(SIGNAL + 1.5), 0, 3),
}
OBJECTIVES = [
    ("reg:squarederror", "reg", {}), ("reg:absoluteerror", "reg", {}),
    ("reg:pseudohubererror", "reg", {}),
    ("reg:quantileerror", "reg", {"quantile_alpha": [0.1, 0.5, 0.9]}),
    ("reg:logistic", "prob", {}), ("binary:logistic", "binary", {}),
    ("binary:logitraw", "binary", {}), ("binary:hinge", "binary", {}),
    ("count:poisson", "count", {}), ("reg:gamma", "positive", {}),
    ("reg:tweedie", "positive", {}),
    ("multi:softprob", "class", {"num_class": 3}), ("multi:softmax", "class", {"num_class": 3}),
    ("rank:ndcg", "grade", {}),
]


def run_onnx(model, data):
    session = ort.InferenceSession(model.SerializeToString())
    return session.run(None, {"input": data})[0]


@pytest.mark.parametrize("objective,task,extra", OBJECTIVES)
def test_onnxruntime_gives_the_predictions(objective, task, extra):
    params = {"objective": objective, "max_depth": 5, "nthread": 2, **extra}
    kw = {"qid": np.repeat(np.arange(60), 10)} if task == "grade" else {}
    booster = gpulayer.train(params, gpulayer.Dataset(X, label=LABELS[task], **kw), 40)
    for margin in (False, True):
        want = booster.predict(gpulayer.Dataset(X), output_margin=margin)
        got = run_onnx(to_onnx(booster, output_margin=margin), X)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_many_deep_trees(tmp_path):
    """Sums of 300 trees of depth 8, written to a file and read back."""
    booster = gpulayer.train({"objective": "binary:logistic", "max_depth": 8, "nthread": 2},
                             gpulayer.Dataset(X, label=LABELS["binary"]), 300)
    path = tmp_path / "m.onnx"
    to_onnx(booster, path)
    got = run_onnx(onnx.load(str(path)), X)
    np.testing.assert_allclose(got, booster.predict(gpulayer.Dataset(X)), rtol=1e-6, atol=1e-6)


def test_integer_categories_and_unseen_values():
    """A categorical_feature column: each category by its number; values
    naming no category (unseen, negative, fractional) and missing ones go
    the missing way, as in Booster.predict."""
    shop = RNG.choice([3, 17, 5, 40, 2, 8], size=600).astype(np.float32)
    shop[::13] = np.nan
    data = np.column_stack([X[:, :2], shop]).astype(np.float32)
    y = np.where(np.isin(shop, [3, 40, 8]), 2.0, -1.0) + 0.1 * X[:, 0]
    booster = gpulayer.train({"objective": "reg:squarederror", "max_depth": 4, "nthread": 2,
                              "max_cat_to_onehot": 1},
                             gpulayer.Dataset(data, label=y, categorical_feature=[2]), 20)
    test = data.copy()
    test[:8, 2] = [99, -3, 2.5, np.nan, 3, 17, 40, 8]
    want = booster.predict(test)
    np.testing.assert_allclose(run_onnx(to_onnx(booster), test), want, rtol=1e-6, atol=1e-6)


def test_text_categories_are_refused():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"x": X[:, 0], "colour": pd.Categorical(
        RNG.choice(["blue", "green", "red"], size=600))})
    booster = gpulayer.train({"objective": "reg:squarederror", "nthread": 2},
                             gpulayer.Dataset(frame, label=LABELS["reg"]), 5)
    with pytest.raises(ValueError, match="categorical feature 'colour' has text categories"):
        to_onnx(booster)


def test_estimators_export():
    model = gpulayer.GPULayerClassifier(n_estimators=20, max_depth=3, n_jobs=2)
    model.fit(X, LABELS["binary"])
    got = run_onnx(to_onnx(model), X)
    np.testing.assert_allclose(got, model.predict_proba(X)[:, 1], rtol=1e-6, atol=1e-6)


# ------------------------------------------------------------ skl2onnx

def skl2onnx_run(model, data, options=None):
    skl2onnx = pytest.importorskip("skl2onnx")
    from gpulayer.onnx_export import register_skl2onnx
    register_skl2onnx()
    onx = skl2onnx.to_onnx(model, data[:1], options=options)
    session = ort.InferenceSession(onx.SerializeToString())
    return session.run(None, {session.get_inputs()[0].name: data})


@pytest.mark.parametrize("cls,objective,task", [
    ("GPULayerRegressor", "reg:squarederror", "reg"), ("XGBRFRegressor", None, "reg"),
    ("GPULayerRegressor", "count:poisson", "count"), ("LGBMRegressor", None, "reg")])
def test_skl2onnx_converts_regressors_in_pipelines(cls, objective, task):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    est = getattr(gpulayer, cls)(n_estimators=20, n_jobs=2, objective=objective)
    pipe = make_pipeline(StandardScaler(), est).fit(X, LABELS[task])
    (got,) = skl2onnx_run(pipe, X)
    assert got.shape == (len(X), 1)
    np.testing.assert_allclose(got[:, 0], pipe.predict(X), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("classes", [[0, 1], [0, 1, 2], ["no", "maybe", "yes"], [2.0, 5.0]],
                         ids=["binary", "three", "text", "float"])
@pytest.mark.parametrize("cls", ["GPULayerClassifier", "XGBRFClassifier"])
def test_skl2onnx_converts_classifiers(cls, classes):
    labels = np.array(classes)[LABELS["class"].astype(int) % len(classes)]
    est = getattr(gpulayer, cls)(n_estimators=15, n_jobs=2).fit(X, labels)
    label, proba = skl2onnx_run(est, X, options={id(est): {"zipmap": False}})
    np.testing.assert_allclose(proba, est.predict_proba(X), rtol=1e-6, atol=1e-6)
    assert (label == est.predict(X)).all()
    index, _ = skl2onnx_run(est, X, options={id(est): {"zipmap": False, "nocl": True}})
    np.testing.assert_array_equal(index, np.argmax(est.predict_proba(X), axis=1))
    _, mapped = skl2onnx_run(est, X)  # zipmap: a dictionary a row, keyed by class
    assert list(mapped[0]) == [c if isinstance(c, str) else int(c) for c in est.classes_]


def test_skl2onnx_refuses_what_has_no_onnx_form():
    est = gpulayer.GPULayerClassifier(n_estimators=5, objective="multi:softmax", n_jobs=2)
    est.fit(X, LABELS["class"])
    with pytest.raises(ValueError, match="gives no probabilities"):
        skl2onnx_run(est, X)

"""Categorical features of more than 255 categories: every category keeps
a bin of its own (16-bit codes) up to max_categories, as XGBoost keeps
them; past it the rarest share one. Training's partition and the saved
model agree, SHAP values add up, the XGBoost export predicts alike;
CUDA and Vulkan train, predict and explain them with the CPU's bits.

The C side (sets past the inline words, damaged codes refused) is in
tests/unit/test_categorical_model.c."""
import json

import numpy as np
import pytest

import gpulayer

pd = pytest.importorskip("pandas")

CATEGORIES = 700


def data(rows=14000, seed=0):
    """A shop column of 700 categories whose effects are independent of
    their codes and frequencies (so grouping the rarest loses signal), and
    a number."""
    rng = np.random.default_rng(seed)
    names = [f"shop{i:04d}" for i in range(CATEGORIES)]
    effect = rng.normal(0.0, 1.0, CATEGORIES)
    shop = rng.integers(0, CATEGORIES, rows)
    x = rng.normal(size=rows)
    y = effect[shop] + 0.5 * x + 0.1 * rng.normal(size=rows)
    frame = pd.DataFrame({"x": x.astype(np.float32),
                          "shop": pd.Categorical.from_codes(shop, categories=names)})
    return frame, y.astype(np.float32)


def params(**extra):
    return dict(dict(objective="reg:squarederror", max_depth=6, eta=0.3, nthread=2,
                     device="cpu", verbosity=0), **extra)


def rmse(a, b):
    return float(np.sqrt(np.mean((np.asarray(a, np.float64) - b) ** 2)))


def test_every_category_keeps_its_bin(tmp_path):
    frame, y = data()
    evals = {}
    b = gpulayer.train(params(), gpulayer.Dataset(frame, y), 20,
                       evals=[(gpulayer.Dataset(frame, y), "train")], evals_result=evals,
                       verbose_eval=False)
    doc = json.loads(b.save_raw())
    assert "category_groups" not in doc
    cuts = doc["cuts"]["cut_ptr"]
    assert cuts[2] - cuts[1] == CATEGORIES - 1  # one bin a category
    codes = [c for tree in doc["trees"] for s in tree.get("categories", []) for c in s]
    assert max(codes) > 254  # sets past the inline 256 bits
    pred = b.predict(gpulayer.Dataset(frame))
    # The partition during training and the model's walk send rows alike.
    assert evals["train"]["rmse"][-1] == pytest.approx(rmse(pred, y), rel=1e-6)
    path = tmp_path / "many.json"
    b.save_model(path)
    again = gpulayer.Booster(model_file=path)
    assert again.save_raw() == b.save_raw()
    assert np.array_equal(again.predict(gpulayer.Dataset(frame)), pred)


def test_keeping_every_category_fits_better_than_grouping():
    frame, y = data()
    test, y_test = frame.iloc[10000:], y[10000:]
    train = gpulayer.Dataset(frame.iloc[:10000], y[:10000])
    kept = gpulayer.train(params(), train, 30)
    grouped = gpulayer.train(params(max_categories=255), train, 30)
    assert "category_groups" in json.loads(grouped.save_raw())
    assert rmse(kept.predict(test), y_test) < 0.9 * rmse(grouped.predict(test), y_test)


def test_shap_values_of_wide_sets_add_up():
    frame, y = data(rows=3000)
    b = gpulayer.train(params(), gpulayer.Dataset(frame, y), 10)
    rows = gpulayer.Dataset(frame.iloc[:100])
    margin = b.predict(rows, output_margin=True)
    contrib = b.predict(rows, pred_contribs=True)
    np.testing.assert_allclose(contrib.sum(axis=1), margin, rtol=1e-5, atol=1e-5)
    inter = b.predict(gpulayer.Dataset(frame.iloc[:20]), pred_interactions=True)
    np.testing.assert_allclose(inter.sum(axis=(1, 2)), margin[:20], rtol=1e-5, atol=1e-5)


def test_the_xgboost_export_predicts_alike(tmp_path):
    xgb = pytest.importorskip("xgboost")
    frame, y = data(rows=4000)
    b = gpulayer.train(params(), gpulayer.Dataset(frame, y), 10)
    path = tmp_path / "xgb.json"
    b.export_xgboost(path)
    theirs = xgb.Booster(model_file=str(path)).predict(
        xgb.DMatrix(frame, enable_categorical=True), output_margin=True)
    np.testing.assert_allclose(theirs, b.predict(frame, output_margin=True), rtol=1e-5,
                               atol=1e-5)


def test_gpu_backends_train_and_predict_with_the_cpus_bits():
    """CUDA and Vulkan train sets of more than 255 categories with the
    CPU's trees (the trees come from the device: no silent fallback), and
    so does max_categories=255; both predict and explain a model of sets
    wider than 256 bits with the CPU's bits. The absolute error refits its
    leaves: on the host for Vulkan (the CPU's trees), through CUDA's
    refit_sort, which walks trees of inline sets only, on CUDA: refused
    there by name. Where no GPU backend can run, the device layer's own
    error is accepted (skip)."""
    frame, y = data(rows=2000)
    wide = gpulayer.train(params(), gpulayer.Dataset(frame, y), 3)
    absolute = gpulayer.train(params(objective="reg:absoluteerror"),
                              gpulayer.Dataset(frame, y), 2)
    tried = 0
    for device in ("vulkan", "cuda"):
        try:
            grouped = gpulayer.train(params(device=device, max_categories=255),
                                     gpulayer.Dataset(frame, y), 3)
        except gpulayer.errors.GPULayerError:
            continue  # the device is absent here
        tried += 1
        cpu = gpulayer.train(params(max_categories=255), gpulayer.Dataset(frame, y), 3)
        assert json.loads(grouped.save_raw())["trees"] == json.loads(cpu.save_raw())["trees"]
        trained = gpulayer.train(params(device=device), gpulayer.Dataset(frame, y), 3)
        assert json.loads(trained.save_raw())["trees"] == json.loads(wide.save_raw())["trees"]
        if device == "cuda":
            with pytest.raises(gpulayer.errors.UnsupportedError,
                               match="cuda backend: its leaf refit takes at most 255"):
                gpulayer.train(params(device=device, objective="reg:absoluteerror"),
                               gpulayer.Dataset(frame, y), 2)
        else:
            refit = gpulayer.train(params(device=device, objective="reg:absoluteerror"),
                                   gpulayer.Dataset(frame, y), 2)
            assert (json.loads(refit.save_raw())["trees"]
                    == json.loads(absolute.save_raw())["trees"])
        rows = gpulayer.Dataset(frame.iloc[:300])
        for how in (dict(), dict(output_margin=True), dict(pred_contribs=True)):
            assert np.array_equal(wide.predict(rows, device=device, **how),
                                  wide.predict(rows, **how))
    if not tried:
        pytest.skip("no GPU backend can run here")


def test_max_categories_bounds():
    frame, y = data(rows=300)
    for bad in (1, 65536):
        with pytest.raises(gpulayer.errors.InvalidArgumentError, match="max_categories"):
            gpulayer.train(params(max_categories=bad), gpulayer.Dataset(frame, y), 1)


def test_prediction_checks_the_sets_memory_first(monkeypatch):
    """Every node of a forest with wide sets takes the widest set's words:
    the total is checked against the memory limit before it is asked for."""
    frame, y = data(rows=3000)
    b = gpulayer.train(params(), gpulayer.Dataset(frame, y), 20)
    rows = gpulayer.Dataset(frame.iloc[:10])
    monkeypatch.setenv("GPULAYER_MEMORY_LIMIT", "32K")
    with pytest.raises(gpulayer.errors.GPULayerError, match="category sets"):
        b.predict(rows)
    monkeypatch.delenv("GPULAYER_MEMORY_LIMIT")
    assert np.isfinite(b.predict(rows)).all()

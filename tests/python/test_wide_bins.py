"""Features of more than 256 bins: max_bin up to 65,536 (16-bit bin codes
where a feature needs them), models whose features have more thresholds
than a byte's bins (trained here, or imported from XGBoost and LightGBM),
their predictions, SHAP values and file round trip; the GPU backends
train, predict and explain them with the CPU's bits (the conformance
suites' test_api_wide_numeric_bins compare whole models too).

Histograms and splits with 16-bit codes against brute force are in
tests/unit/test_cpu_hist.c and tests/unit/test_split.c."""
import json

import numpy as np
import pytest

import gpulayer

ROWS = 6000


def data(rows=ROWS, seed=0):
    """Feature 2 takes 3,000 distinct values and carries a fine-grained
    signal that 255 value bins blur."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, 3)).astype(np.float32)
    X[:, 2] = rng.integers(0, 3000, rows)
    y = np.sin(X[:, 2] / 15.0) + 0.5 * X[:, 0] + 0.05 * rng.standard_normal(rows)
    return X, y.astype(np.float32)


def params(max_bin, **extra):
    """On the CPU unless extra names a device: on a machine with a GPU the
    default device would be the GPU, which refuses wide bins."""
    return dict(dict(objective="reg:squarederror", max_depth=6, eta=0.3, max_bin=max_bin,
                     nthread=2, device="cpu"), **extra)


def cut_counts(booster):
    cuts = json.loads(booster.save_raw("json"))["cuts"]
    ptr = cuts["cut_ptr"]
    return [ptr[f + 1] - ptr[f] for f in range(len(ptr) - 1)]


def split_bins(booster):
    doc = json.loads(booster.save_raw("json"))
    return [b for tree in doc["trees"] for b, left in zip(tree["split_bin"], tree["left"])
            if left >= 0]


def rmse(a, b):
    return float(np.sqrt(np.mean((np.asarray(a, np.float64) - b) ** 2)))


def test_more_bins_fit_a_fine_signal_better():
    X, y = data()
    Xt, yt, Xv, yv = X[:4500], y[:4500], X[4500:], y[4500:]
    errors = {}
    for max_bin in (256, 2048):
        b = gpulayer.train(params(max_bin), gpulayer.Dataset(Xt, yt), 60)
        errors[max_bin] = rmse(b.predict(gpulayer.Dataset(Xv)), yv)
        counts = cut_counts(b)
        assert max(counts) == (254 if max_bin == 256 else 2046)
        if max_bin > 256:
            assert max(split_bins(b)) > 255
    assert errors[2048] < 0.9 * errors[256], errors


def test_a_wide_model_round_trips_and_predicts_its_training_margins(tmp_path):
    X, y = data()
    evals = {}
    b = gpulayer.train(params(4096), gpulayer.Dataset(X, y), 20,
                       evals=[(gpulayer.Dataset(X, y), "train")], evals_result=evals,
                       verbose_eval=False)
    pred = b.predict(gpulayer.Dataset(X))
    # The training's running margins and prediction take the same bins.
    assert evals["train"]["rmse"][-1] == pytest.approx(rmse(pred, y), rel=1e-6)
    path = tmp_path / "wide.json"
    b.save_model(path)
    again = gpulayer.Booster(model_file=path)
    assert np.array_equal(again.predict(gpulayer.Dataset(X)), pred)
    assert again.save_raw("json") == b.save_raw("json")
    # Rows exactly on the thresholds and beside them, and missing values.
    cuts = json.loads(b.save_raw("json"))["cuts"]
    lo, hi = cuts["cut_ptr"][2], cuts["cut_ptr"][3]
    edges = np.asarray(cuts["values"][lo:hi], np.float32)
    probe = np.repeat(X[:1], 3 * len(edges) + 1, axis=0)
    probe[:len(edges), 2] = edges
    probe[len(edges):2 * len(edges), 2] = np.nextafter(edges, np.float32(-np.inf))
    probe[2 * len(edges):3 * len(edges), 2] = np.nextafter(edges, np.float32(np.inf))
    probe[-1, 2] = np.nan
    assert np.array_equal(again.predict(probe), b.predict(probe))


def test_wide_shap_values_add_up_to_the_margin():
    X, y = data(rows=1500)
    b = gpulayer.train(params(1024), gpulayer.Dataset(X, y), 15)
    contrib = b.predict(gpulayer.Dataset(X[:200]), pred_contribs=True)
    margin = b.predict(gpulayer.Dataset(X[:200]), output_margin=True)
    np.testing.assert_allclose(contrib.sum(axis=1), margin, rtol=1e-5, atol=1e-5)
    inter = b.predict(gpulayer.Dataset(X[:50]), pred_interactions=True)
    np.testing.assert_allclose(inter.sum(axis=(1, 2)), margin[:50], rtol=1e-5, atol=1e-5)


def test_max_bin_bounds():
    X, y = data(rows=300)
    for bad in (1, 65537):
        with pytest.raises(gpulayer.errors.InvalidArgumentError, match="max_bin"):
            gpulayer.train(params(bad), gpulayer.Dataset(X, y), 1)
    b = gpulayer.train(params(65536), gpulayer.Dataset(X, y), 2)
    assert max(cut_counts(b)) <= 299  # fewer cuts than rows, whatever max_bin


def test_gpu_backends_train_and_predict_wide_bins_with_the_cpus_bits():
    """16-bit codes on the GPU backends: a backend that is present trains
    on max_bin 1024 with the CPU's trees (no silent fallback: the trees
    come from the device) and predicts and explains a wide model with the
    CPU's bits. Where none can run, the device layer's own error is
    accepted (skip)."""
    X, y = data(rows=500)
    tried = 0
    wide = gpulayer.train(params(1024), gpulayer.Dataset(X, y), 5)
    for device in ("vulkan", "cuda"):
        try:
            gpulayer.train(params(256, device=device), gpulayer.Dataset(X, y), 1)
        except gpulayer.errors.GPULayerError:
            continue  # the device is absent here
        tried += 1
        trained = gpulayer.train(params(1024, device=device), gpulayer.Dataset(X, y), 5)
        assert json.loads(trained.save_raw())["trees"] == json.loads(wide.save_raw())["trees"]
        for how in (dict(), dict(output_margin=True), dict(pred_contribs=True)):
            assert np.array_equal(wide.predict(gpulayer.Dataset(X), device=device, **how),
                                  wide.predict(gpulayer.Dataset(X), **how))
    if not tried:
        pytest.skip("no GPU backend can run here")


def test_xgboost_model_of_many_thresholds_predicts_as_xgboost(tmp_path):
    xgb = pytest.importorskip("xgboost")
    X, y = data()
    bst = xgb.train(dict(params(2048), tree_method="hist", seed=1), xgb.DMatrix(X, y), 30)
    path = tmp_path / "xgb.json"
    bst.save_model(path)
    ours = gpulayer.Booster(model_file=path)
    assert max(cut_counts(ours)) > 254
    rows = np.vstack([X[:2000], np.where(np.arange(3)[None, :] == 2, np.nan, X[:5])])
    want = bst.predict(xgb.DMatrix(rows), output_margin=True)
    got = ours.predict(gpulayer.Dataset(rows), output_margin=True)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-5)


def test_auto_trains_wide_bins_where_it_places(capfd):
    """device=auto places training on a backend that trains 16-bit codes
    (every backend does but the Metal host, which gives way to the CPU):
    the trees are the CPU's either way, and nothing is said of bins."""
    X, y = data(rows=800)
    cpu = gpulayer.train(params(1024), gpulayer.Dataset(X, y), 3)
    capfd.readouterr()
    auto = gpulayer.train(params(1024, device="auto", verbosity=1), gpulayer.Dataset(X, y), 3)
    err = capfd.readouterr().err
    assert json.loads(auto.save_raw())["trees"] == json.loads(cpu.save_raw())["trees"]
    chosen = gpulayer.place("auto", backend=True).accelerator
    if chosen == "mps":
        assert "training on the CPU" in err
    else:
        assert "device auto" not in err


def test_wide_and_categorical_features_together():
    """Sets of categories beside 16-bit numeric codes: the walk reads a
    categorical node's set and a numeric node's wide bin in one tree."""
    pd = pytest.importorskip("pandas")
    X, y = data(rows=3000)
    rng = np.random.default_rng(3)
    colour = rng.choice(list("abcdefghij"), len(y))
    y = y + np.where(np.isin(colour, list("aeiou")), 1.0, 0.0).astype(np.float32)
    frame = pd.DataFrame({"x0": X[:, 0], "x1": X[:, 1], "fine": X[:, 2],
                          "colour": pd.Categorical(colour)})
    evals = {}
    b = gpulayer.train(params(2048), gpulayer.Dataset(frame, y), 20,
                       evals=[(gpulayer.Dataset(frame, y), "train")], evals_result=evals,
                       verbose_eval=False)
    doc = json.loads(b.save_raw())
    by_sets = sum(len(tree.get("categories_nodes", [])) for tree in doc["trees"])
    assert by_sets > 0 and max(split_bins(b)) > 255
    pred = b.predict(gpulayer.Dataset(frame))
    assert evals["train"]["rmse"][-1] == pytest.approx(rmse(pred, y), rel=1e-6)
    for device in ("vulkan", "cuda"):
        try:
            got = b.predict(gpulayer.Dataset(frame), device=device)
        except gpulayer.errors.GPULayerError:
            continue  # the device is absent here
        assert np.array_equal(got, pred)


def test_lightgbm_model_of_many_thresholds_predicts_as_lightgbm(tmp_path):
    lgb = pytest.importorskip("lightgbm")
    X, y = data()
    bst = lgb.train(dict(objective="regression", max_bin=2047, num_leaves=63, verbose=-1,
                         seed=1, deterministic=True, num_threads=1), lgb.Dataset(X, y), 30)
    path = tmp_path / "lgb.txt"
    bst.save_model(path)
    ours = gpulayer.Booster(model_file=path)
    assert max(cut_counts(ours)) > 254
    rows = np.vstack([X[:2000], np.where(np.arange(3)[None, :] == 2, np.nan, X[:5])])
    np.testing.assert_allclose(ours.predict(gpulayer.Dataset(rows), output_margin=True),
                               bst.predict(rows, raw_score=True), rtol=1e-5, atol=1e-5)

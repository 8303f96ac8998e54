"""SHAP values: contributions and bias add up to the margin, and equal
XGBoost's pred_contribs / pred_interactions on our XGBoost export of the
same model."""
import numpy as np
import pytest

import gpulayer
from gpulayer.errors import InvalidArgumentError

xgb = pytest.importorskip("xgboost")


def make_data(rows=300, features=6, seed=0, missing=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, features)).astype(np.float32)
    score = X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - X[:, 3] ** 2
    X[rng.random(X.shape) < missing] = np.nan
    return X, score


def train(objective, depth, rounds=8, seed=0, **extra):
    X, score = make_data(seed=seed)
    if objective == "binary:logistic":
        y = (score > 0).astype(np.float32)
    elif objective == "multi:softprob":
        y = np.digitize(score, [-1.0, 0.0]).astype(np.float32)
        extra["num_class"] = 3
    else:
        y = score.astype(np.float32)
    params = dict({"objective": objective, "max_depth": depth, "eta": 0.3,
                   "nthread": 2, "min_child_weight": 0}, **extra)
    return gpulayer.train(params, gpulayer.Dataset(X, label=y), num_boost_round=rounds), X


def xgb_booster(bst, tmp_path):
    path = tmp_path / "model.json"
    bst.export_xgboost(path)
    return xgb.Booster(model_file=str(path))


def close(ours, theirs, scale):
    """Within 1e-5 relative to the size of the values compared."""
    tol = 1e-5 * max(1.0, float(np.max(np.abs(scale))))
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=tol)


CASES = [("binary:logistic", d) for d in (1, 2, 6, 12)] + [
    ("reg:squarederror", 4), ("reg:squarederror", 12), ("multi:softprob", 5)]


@pytest.mark.parametrize("objective,depth", CASES)
def test_contributions_sum_to_margin(objective, depth):
    bst, X = train(objective, depth)
    margin = bst.predict(X, output_margin=True)
    for approx in (False, True):
        contribs = bst.predict(X, pred_contribs=True, approx_contribs=approx)
        close(contribs.sum(axis=-1), margin, margin)


@pytest.mark.parametrize("objective,depth", CASES)
def test_contributions_equal_xgboost(objective, depth, tmp_path):
    bst, X = train(objective, depth)
    ref = xgb_booster(bst, tmp_path)
    d = xgb.DMatrix(X, missing=np.nan)
    for approx in (False, True):
        ours = bst.predict(X, pred_contribs=True, approx_contribs=approx)
        theirs = ref.predict(d, pred_contribs=True, approx_contribs=approx)
        close(ours, theirs, theirs)


def test_contribution_shapes():
    bst, X = train("multi:softprob", 3, rounds=2)
    assert bst.predict(X, pred_contribs=True).shape == (len(X), 3, X.shape[1] + 1)
    bst, X = train("binary:logistic", 3, rounds=2)
    assert bst.predict(X, pred_contribs=True).shape == (len(X), X.shape[1] + 1)
    assert bst.predict(X, pred_interactions=True).shape == (
        len(X), X.shape[1] + 1, X.shape[1] + 1)


def test_num_rounds_limits_the_trees():
    bst, X = train("reg:squarederror", 4, rounds=6)
    margin = bst.predict(X, output_margin=True, num_rounds=3)
    contribs = bst.predict(X, pred_contribs=True, num_rounds=3)
    close(contribs.sum(axis=-1), margin, margin)
    full = bst.predict(X, output_margin=True)
    assert np.max(np.abs(full - margin)) > 1e-3


def test_unknown_device_is_refused():
    bst, X = train("reg:squarederror", 2, rounds=2)
    for interactions in (False, True):
        with pytest.raises(gpulayer.GPULayerError, match="no-such-device"):
            bst.predict(X, pred_contribs=not interactions, pred_interactions=interactions,
                        device="no-such-device")


def test_wrong_column_count_is_an_error():
    bst, X = train("reg:squarederror", 2, rounds=2)
    with pytest.raises(InvalidArgumentError, match="columns"):
        bst.predict(X[:, :3], pred_contribs=True)


@pytest.mark.parametrize("objective,depth", CASES)
def test_interactions_sum_to_contributions_and_equal_xgboost(objective, depth, tmp_path):
    bst, X = train(objective, depth, rounds=4)
    contribs = bst.predict(X, pred_contribs=True)
    inter = bst.predict(X, pred_interactions=True)
    close(inter.sum(axis=-1), contribs, contribs)
    theirs = xgb_booster(bst, tmp_path).predict(xgb.DMatrix(X, missing=np.nan),
                                                pred_interactions=True)
    close(inter, theirs, theirs)


def test_estimators_give_lightgbm_pred_contrib():
    from gpulayer.sklearn import GPULayerClassifier, GPULayerRegressor
    X, score = make_data()
    reg = GPULayerRegressor(n_estimators=5, max_depth=3).fit(X, score)
    values = reg.predict(X, pred_contrib=True)
    assert values.shape == (len(X), X.shape[1] + 1)
    close(values.sum(axis=1), reg.predict(X), score)
    clf = GPULayerClassifier(n_estimators=5, max_depth=3).fit(X, np.digitize(score, [-1, 0]))
    values = clf.predict(X, pred_contrib=True)
    assert values.shape == (len(X), 3 * (X.shape[1] + 1))
    margin = clf.predict(X, output_margin=True)
    close(values.reshape(len(X), 3, -1).sum(axis=2), margin, margin)


def test_categorical_splits_equal_xgboost(tmp_path):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(5)
    shops = [f"shop{i:02d}" for i in range(12)]
    shop = rng.choice(shops, 2000)
    x = rng.normal(size=2000)
    x[rng.random(2000) < 0.1] = np.nan
    y = np.isin(shop, shops[::3]) * 2.0 + (shop == "shop05") * 1.0 + 0.3 * np.nan_to_num(x)
    frame = pd.DataFrame({"x": x, "shop": pd.Categorical(shop)})
    bst = gpulayer.train({"max_depth": 5, "device": "cpu", "nthread": 2},
                         gpulayer.Dataset(frame, label=y), 10)
    ours = bst.predict(frame, pred_contribs=True)
    margin = bst.predict(frame, output_margin=True)
    close(ours.sum(axis=1), margin, margin)
    codes = frame.assign(shop=pd.Categorical(shop, categories=bst.categories(1)))
    theirs = xgb_booster(bst, tmp_path).predict(xgb.DMatrix(codes, enable_categorical=True),
                                                pred_contribs=True)
    close(ours, theirs, theirs)


def test_trees_deeper_than_the_quadrature_is_exact_for(tmp_path):
    # Depth above 15 takes Algorithm 2's walk instead of the linear one.
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 24)).astype(np.float32)
    y = (np.sin(3 * X).sum(axis=1) + X[:, 0] * X[:, 1] * X[:, 2]).astype(np.float32)
    bst = gpulayer.train({"objective": "reg:squarederror", "max_depth": 20, "eta": 0.3,
                          "min_child_weight": 0, "nthread": 2, "lambda": 0},
                         gpulayer.Dataset(X, label=y), num_boost_round=3)
    depth = max(len(line) - len(line.lstrip("\t")) for line in bst.get_dump()[0].splitlines())
    assert depth > 15
    margin = bst.predict(X, output_margin=True)
    ours = bst.predict(X, pred_contribs=True)
    close(ours.sum(axis=1), margin, margin)
    theirs = xgb_booster(bst, tmp_path).predict(xgb.DMatrix(X), pred_contribs=True)
    close(ours, theirs, theirs)


def test_bias_starts_from_base_margins():
    rng = np.random.default_rng(13)
    X = rng.normal(size=(400, 4)).astype(np.float32)
    y = (X[:, 0] + rng.normal(size=400) > 0).astype(np.float32)
    prior = rng.normal(size=400).astype(np.float32)
    bst = gpulayer.train({"objective": "binary:logistic", "max_depth": 3, "nthread": 2,
                          "device": "cpu"}, gpulayer.Dataset(X, label=y, base_margin=prior), 5)
    d = gpulayer.Dataset(X, base_margin=prior)
    contribs = bst.predict(d, pred_contribs=True)
    margin = bst.predict(d, output_margin=True)
    np.testing.assert_allclose(contribs.sum(axis=1), margin, rtol=1e-5, atol=1e-5)
    inter = bst.predict(d, pred_interactions=True)
    np.testing.assert_allclose(inter.sum(axis=(1, 2)), margin, rtol=1e-5, atol=1e-5)


def test_an_interaction_request_beyond_memory_names_its_size():
    """(features + 1)^2 floats a row: 200,001^2 x 30 rows is 4.5 TiB."""
    from gpulayer.errors import OutOfMemoryError
    r = np.random.default_rng(0)
    x = r.normal(size=(30, 200_000)).astype(np.float32)
    booster = gpulayer.train({"max_depth": 1}, gpulayer.Dataset(x, x[:, 0]), 1)
    with pytest.raises(OutOfMemoryError, match=r"30 rows x 1 output\(s\) x \(features \+ 1\)"
                                               r"\^2 = 200001\^2 floats"):
        booster.predict(gpulayer.Dataset(x), pred_interactions=True)


@pytest.mark.parametrize("device", ["vulkan", "cuda"])
def test_values_on_a_device_are_the_cpus_bits(device):
    bst, X = train("multi:softprob", 5, rounds=4)
    kinds = [dict(pred_contribs=True), dict(pred_contribs=True, approx_contribs=True),
             dict(pred_interactions=True)]
    for kind in kinds:
        try:
            on_device = bst.predict(X, device=device, **kind)
        except (gpulayer.errors.PlacementError, gpulayer.errors.UnsupportedError,
                gpulayer.errors.DeviceError) as e:
            assert device in str(e)  # refused with a message naming it
            pytest.skip(f"{device} is not usable here: {e}")
        cpu = bst.predict(X, **kind)
        assert on_device.shape == cpu.shape
        assert on_device.view(np.uint32).tolist() == cpu.view(np.uint32).tolist()

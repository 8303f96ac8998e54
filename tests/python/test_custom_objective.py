"""Custom objectives and metrics from Python (XGBoost's obj=,
custom_metric=, maximize=; LightGBM's callable objective; the
scikit-learn estimators' callable objective and eval_metric), and the
objectives' parameters."""

import json

import numpy as np
import pytest

import gpulayer as gl
from gpulayer.params import with_lightgbm_defaults
from gpulayer.errors import InvalidArgumentError

ROWS = 1500


def _data(seed=0, binary=False, weights=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(ROWS, 5)).astype(np.float32)
    X[::11, 3] = np.nan
    z = 2 * X[:, 0] - X[:, 1] + rng.normal(size=ROWS)
    y = (z > 0).astype(np.float32) if binary else (5 * z).astype(np.float32)
    w = rng.uniform(0.2, 3.0, size=ROWS).astype(np.float32) if weights else None
    return X, y, w


def _squared_error(preds, dtrain):
    w = dtrain.get_weight()
    grad = preds - dtrain.get_label()
    hess = np.ones_like(preds)
    return (grad * w, hess * w) if w.size else (grad, hess)


def _logistic(preds, dtrain):
    p = 1.0 / (1.0 + np.exp(-preds))
    return p - dtrain.get_label(), p * (1.0 - p)


BASE = {"device": "cpu", "nthread": 2, "max_depth": 5}


# ------------------------------------------------------- same model bits

@pytest.mark.parametrize("extra", [{}, {"subsample": 0.7}, {"weights": True}])
def test_custom_squared_error_is_the_builtin_model(extra):
    X, y, w = _data(weights=extra.get("weights", False))
    params = dict(BASE, objective="reg:squarederror", base_score=0.5,
                  subsample=extra.get("subsample", 1.0))
    builtin = gl.train(params, gl.Dataset(X, y, weight=w), 8)
    custom = gl.train(params, gl.Dataset(X, y, weight=w), 8, obj=_squared_error)
    assert custom.save_raw() == builtin.save_raw()


def test_custom_logistic_is_the_builtin_model():
    X, y, _ = _data(binary=True)
    params = dict(BASE, objective="binary:logistic", base_score=0.3, subsample=0.8)
    builtin = gl.train(params, gl.Dataset(X, y), 8)
    custom = gl.train(params, gl.Dataset(X, y), 8, obj=_logistic)
    assert custom.save_raw() == builtin.save_raw()
    # The objective names the link: probabilities, as the built-in's.
    np.testing.assert_array_equal(custom.predict(X), builtin.predict(X))


@pytest.mark.parametrize("flat", [False, True])
def test_custom_softmax_gets_and_gives_rows_by_classes(flat):
    X, y, _ = _data()
    y = np.digitize(y, [-3, 3]).astype(np.float32)
    shapes = []

    def softmax(preds, dtrain):
        shapes.append(preds.shape)
        e = np.exp(preds - preds.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        onehot = np.eye(3)[dtrain.get_label().astype(int)]
        grad, hess = p - onehot, np.maximum(2.0 * p * (1.0 - p), 1e-16)
        return (grad.reshape(-1), hess.reshape(-1)) if flat else (grad, hess)

    params = dict(BASE, objective="multi:softprob", num_class=3, base_score=0.5)
    custom = gl.train(params, gl.Dataset(X, y), 5, obj=softmax)
    builtin = gl.train(params, gl.Dataset(X, y), 5)
    assert shapes == [(ROWS, 3)] * 5
    np.testing.assert_allclose(custom.predict(X), builtin.predict(X), atol=1e-4)


def test_preds_are_the_margins_before_each_round():
    X, y, _ = _data(binary=True)
    seen = []

    def obj(preds, dtrain):
        seen.append(preds.copy())
        return _logistic(preds, dtrain)

    booster = gl.train(dict(BASE, objective="binary:logistic"), gl.Dataset(X, y), 3, obj=obj)
    assert all(p.dtype == np.float64 and p.shape == (ROWS,) for p in seen)
    # XGBoost's base score of custom objectives: 0.5, margin 0 here.
    np.testing.assert_array_equal(seen[0], np.zeros(ROWS))
    np.testing.assert_array_equal(seen[2], booster.predict(X, output_margin=True,
                                                           num_rounds=2))


def test_lightgbm_style_callable_objective():
    X, y, _ = _data()
    params = dict(BASE, base_score=0.5)
    a = gl.train(dict(params, objective=_squared_error), gl.Dataset(X, y), 4)
    # An objective in params is LightGBM's way, which brings its defaults.
    b = gl.train(with_lightgbm_defaults(params), gl.Dataset(X, y), 4, obj=_squared_error)
    assert a.save_raw() == b.save_raw()
    with pytest.raises(ValueError, match="two custom objectives"):
        gl.train(dict(params, objective=_squared_error), gl.Dataset(X, y), 4,
                 obj=_squared_error)


# ---------------------------------------------------------------- errors

def _broken(kind, at_round=1):
    def obj(preds, dtrain):
        grad, hess = _squared_error(preds, dtrain)
        if obj.calls == at_round:
            if kind == "shape":
                grad = grad[:-1]
            elif kind == "nan":
                grad[7] = np.nan
            elif kind == "negative":
                hess[3] = -0.5
            elif kind == "raise":
                raise KeyError("from the objective")
            elif kind == "not a pair":
                return grad
        obj.calls += 1
        return grad, hess
    obj.calls = 0
    return obj


@pytest.mark.parametrize("kind, error, message", [
    ("shape", InvalidArgumentError,
     r"custom objective, round 2: grad has shape \(1499,\), expected \(1500,\)"),
    ("nan", InvalidArgumentError,
     "custom objective, round 2: the gradient of row 7 is nan"),
    ("negative", InvalidArgumentError,
     "custom objective, round 2: the hessian of row 3 is -0.5; hessians must be >= 0"),
    ("raise", KeyError, "from the objective"),
    ("not a pair", InvalidArgumentError, "round 2: it must return \\(grad, hess\\)"),
])
def test_bad_gradients_are_refused_naming_the_round(kind, error, message):
    X, y, _ = _data()
    with pytest.raises(error, match=message):
        gl.train(BASE, gl.Dataset(X, y), 5, obj=_broken(kind))


def test_multi_output_shape_is_checked():
    X, y, _ = _data()
    y = np.digitize(y, [0]).astype(np.float32)

    def obj(preds, dtrain):
        return np.zeros((ROWS, 3)), np.ones((ROWS, 3))

    with pytest.raises(InvalidArgumentError, match=r"expected \(1500, 2\) or \(3000,\)"):
        gl.train(dict(BASE, objective="multi:softprob", num_class=2), gl.Dataset(X, y), 2,
                 obj=obj)


def test_custom_objective_is_refused_in_distributed_training():
    X, y, _ = _data()
    with pytest.raises(ValueError, match="distributed"):
        gl.train(BASE, gl.Dataset(X, y), 2, obj=_squared_error, distributed=True)


# --------------------------------------------------------------- metrics

def _mae(preds, dataset):
    return "my-mae", float(np.mean(np.abs(preds - dataset.get_label())))


def test_custom_metric_in_evals_result_after_the_library_metrics():
    X, y, _ = _data()
    Xv, yv, _ = _data(seed=1)
    history, printed = {}, []

    def two(preds, dataset):
        return [_mae(preds, dataset), ("count", float(preds.size))]

    gl.train(dict(BASE, eval_metric="rmse"), gl.Dataset(X, y), 4,
             evals=[(gl.Dataset(X, y), "train"), (gl.Dataset(Xv, yv), "valid")],
             custom_metric=two, evals_result=history,
             callbacks=[lambda r, results: printed.append(results)])
    assert list(history["valid"]) == ["rmse", "my-mae", "count"]
    assert history["train"]["count"] == [ROWS] * 4
    assert [r.metric_name for r in printed[0]] == ["rmse", "my-mae", "count"] * 2
    # The library's figure and ours agree: rmse is not mae, mae <= rmse.
    assert all(m <= r for m, r in zip(history["valid"]["my-mae"], history["valid"]["rmse"]))


def test_custom_metric_gets_predictions_or_margins():
    X, y, _ = _data(binary=True)
    seen = {}

    def record(key):
        def metric(preds, dataset):
            seen[key] = preds.copy()
            return "x", 0.0
        return metric

    params = dict(BASE, objective="binary:logistic")
    d = gl.Dataset(X, y)
    b = gl.train(params, d, 2, evals=[(d, "t")], custom_metric=record("probabilities"))
    np.testing.assert_array_equal(seen["probabilities"], b.predict(X))
    b = gl.train(params, d, 2, evals=[(d, "t")], custom_metric=record("margins"), obj=_logistic)
    np.testing.assert_array_equal(seen["margins"], b.predict(X, output_margin=True))


@pytest.mark.parametrize("maximize, name", [(False, "scripted"), (True, "scripted"),
                                           (None, "auc-like")])
def test_early_stopping_on_a_custom_metric(maximize, name):
    X, y, _ = _data()
    Xv, yv, _ = _data(seed=1)
    # Best at round 4 either way; the wrong direction would never stop.
    scores = [5, 4, 3, 3.5, 2, 6, 7, 8, 9, 10, 11, 12]
    if maximize or name == "auc-like":
        scores = [-s for s in scores]
    history = {}

    def scripted(preds, dataset):
        done = len(history["v"][name]) if "v" in history else 0
        return name, scores[done]

    booster = gl.train(BASE, gl.Dataset(X, y), 12, evals=[(gl.Dataset(Xv, yv), "v")],
                       custom_metric=scripted, evals_result=history,
                       early_stopping_rounds=3, maximize=maximize)
    assert booster.best_iteration == 4
    assert len(history["v"][name]) == 8
    assert booster.num_rounds == 8
    np.testing.assert_array_equal(booster.predict(X), booster.predict(X, num_rounds=5))


def test_maximize_applies_to_the_library_metric_too():
    X, y, _ = _data()
    d = gl.Dataset(X, y)
    # rmse falls every round: read as higher-is-better, round 0 stays best.
    booster = gl.train(dict(BASE, eval_metric="rmse"), d, 20, evals=[(d, "t")],
                       early_stopping_rounds=3, maximize=True)
    assert booster.best_iteration == 0
    assert booster.num_rounds == 4


def test_bad_custom_metric_is_refused_naming_the_round():
    X, y, _ = _data()
    d = gl.Dataset(X, y)
    with pytest.raises(InvalidArgumentError, match="custom metric, round 1: it must return"):
        gl.train(BASE, d, 3, evals=[(d, "t")], custom_metric=lambda p, ds: 0.5)


# ------------------------------------------------------------ parameters

@pytest.mark.parametrize("alphas", [[0.1, 0.5, 0.9], (0.1, 0.5, 0.9),
                                    np.array([0.1, 0.5, 0.9])])
def test_quantile_alpha_list_gives_one_output_per_quantile(alphas):
    X, y, _ = _data()
    params = dict(BASE, objective="reg:quantileerror", quantile_alpha=alphas)
    booster = gl.train(params, gl.Dataset(X, y), 10)
    assert booster.get_param("quantile_alpha").startswith("[0.1")
    pred = booster.predict(X)
    assert pred.shape == (ROWS, 3)
    covered = (y[:, None] <= pred).mean(axis=0)
    assert covered[0] < covered[1] < covered[2]
    single = gl.train(dict(params, quantile_alpha=0.5), gl.Dataset(X, y), 10)
    assert single.predict(X).shape == (ROWS,)


def test_dataset_get_weight():
    X, y, w = _data(weights=True)
    assert gl.Dataset(X, y).get_weight().size == 0
    np.testing.assert_array_equal(gl.Dataset(X, y, weight=w).get_weight(), w)


# ---------------------------------------------------------- scikit-learn

def test_sklearn_callable_objective_and_metric():
    sklearn = pytest.importorskip("sklearn")  # noqa: F841
    from gpulayer import GPULayerClassifier, GPULayerRegressor

    X, y, w = _data(weights=True)

    def squared(y_true, y_pred):
        return y_pred - y_true, np.ones_like(y_pred)

    def weighted(y_true, y_pred, sample_weight=None):
        return (y_pred - y_true) * sample_weight, sample_weight.astype(np.float64)

    def mean_abs(y_true, y_pred, sample_weight=None):
        return float(np.average(np.abs(y_true - y_pred), weights=sample_weight))

    builtin = GPULayerRegressor(n_estimators=6, base_score=0.5, n_jobs=2).fit(X, y)
    custom = GPULayerRegressor(n_estimators=6, objective=squared, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(custom.predict(X), builtin.predict(X))
    # Weights go to a function that takes them, and are refused by one that does not.
    builtin_w = GPULayerRegressor(n_estimators=6, base_score=0.5, n_jobs=2).fit(
        X, y, sample_weight=w)
    custom_w = GPULayerRegressor(n_estimators=6, objective=weighted, n_jobs=2).fit(
        X, y, sample_weight=w)
    np.testing.assert_array_equal(custom_w.predict(X), builtin_w.predict(X))
    with pytest.raises(ValueError, match="no sample_weight parameter"):
        GPULayerRegressor(n_estimators=2, objective=squared).fit(X, y, sample_weight=w)
    # eval_metric as a function: named by it, watched by early stopping.
    Xv, yv, wv = _data(seed=1, weights=True)
    model = GPULayerRegressor(n_estimators=200, learning_rate=0.5, eval_metric=mean_abs,
                              early_stopping_rounds=3, n_jobs=2)
    model.fit(X, y, eval_set=[(Xv, yv)], sample_weight_eval_set=[wv])
    history = model.evals_result_["validation_0"]
    assert list(history) == ["rmse", "mean_abs"]
    assert history["mean_abs"][model.best_iteration] == min(history["mean_abs"])
    assert model.best_score == min(history["mean_abs"])
    assert model.n_estimators_ < 200

    yc = (y > 0).astype(int)

    def logistic(y_true, y_pred):
        p = 1.0 / (1.0 + np.exp(-y_pred))
        return p - y_true, p * (1.0 - p)

    clf = GPULayerClassifier(n_estimators=6, objective=logistic, n_jobs=2).fit(X, yc)
    ref = GPULayerClassifier(n_estimators=6, base_score=0.5, n_jobs=2).fit(X, yc)
    np.testing.assert_array_equal(clf.predict_proba(X), ref.predict_proba(X))
    np.testing.assert_array_equal(clf.predict(X), ref.predict(X))


def test_sklearn_objective_parameters():
    pytest.importorskip("sklearn")
    from gpulayer import GPULayerRegressor

    X, y, _ = _data()
    model = GPULayerRegressor(n_estimators=5, objective="reg:quantileerror",
                              quantile_alpha=[0.2, 0.8], n_jobs=2).fit(X, y)
    assert model.predict(X).shape == (ROWS, 2)
    huber = GPULayerRegressor(n_estimators=5, objective="reg:pseudohubererror",
                              huber_slope=2.0, n_jobs=2).fit(X, y)
    assert huber.get_booster().get_param("huber_slope") == "2"


# ------------------------------------------------------------ GPU backends

def _gpu_available(accelerator):
    return any(d.accelerator == accelerator and d.backend_available for d in gl.devices())


@pytest.mark.parametrize("device", ["cuda", "vulkan"])
@pytest.mark.parametrize("subsample", [1.0, 0.7])
def test_custom_objective_on_a_gpu_is_the_cpu_model(device, subsample):
    """The host's pairs reach the device through write_pairs: the model is
    the CPU's, and the built-in objective's, bit for bit."""
    if not _gpu_available(device):
        pytest.skip(f"no {device} device with a built backend")
    X, y, _ = _data(binary=True)
    params = dict(BASE, objective="binary:logistic", base_score=0.5, subsample=subsample)
    cpu = gl.train(params, gl.Dataset(X, y), 8, obj=_logistic)
    gpu = gl.train(dict(params, device=device), gl.Dataset(X, y), 8, obj=_logistic)
    builtin = gl.train(dict(params, device=device), gl.Dataset(X, y), 8)
    assert _model(gpu) == _model(cpu)
    assert gpu.save_raw() == builtin.save_raw()


def _model(booster):
    """The model document without its parameter record (which names the
    device) and checksum."""
    doc = json.loads(booster.save_raw())
    return {k: v for k, v in doc.items() if k not in ("params", "checksum")}

"""Callbacks in cross-validation, against the libraries themselves: the
same script runs with ``xgb`` bound to xgboost or to gpulayer (XGBoost's
cv and its TrainingCallback objects), or ``lgb`` bound to lightgbm or to
gpulayer (LightGBM's cv, its callback functions and CVBooster), and the
keys, the rounds, the calls the callbacks get and the figures are
compared."""

import io
from contextlib import redirect_stdout

import numpy as np
import pytest

import gpulayer
from gpulayer.crossval import _folds

pd = pytest.importorskip("pandas")
xgboost = pytest.importorskip("xgboost")
lightgbm = pytest.importorskip("lightgbm")
datasets = pytest.importorskip("sklearn.datasets")
model_selection = pytest.importorskip("sklearn.model_selection")

RELATIVE = 0.05  # losses: within 5% of the peer's
AUC = 0.01  # absolute


@pytest.fixture(scope="module")
def binary():
    X, y = datasets.make_classification(n_samples=1200, n_features=10, n_informative=5,
                                        random_state=0)
    return X.astype(np.float32), y.astype(np.float32)


def xgb_params(xgb, **extra):
    params = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1}
    params.update(device="cpu", tree_method="hist")
    params.update(extra)
    return params


def lgb_params(lgb, **extra):
    params = {"objective": "binary", "metric": "auc", "learning_rate": 0.3,
              "max_depth": 3, "num_leaves": 8, "min_sum_hessian_in_leaf": 1, "verbose": -1}
    params.update(min_data_in_leaf=1)  # leaves limited by their hessian only
    if lgb is not lightgbm:
        params.update(device="cpu", nthread=1)
    params.update(extra)
    return params


def stop_round(values, rounds, maximize=False):
    """The best round once `rounds` rounds have not improved on it (the
    rule of XGBoost's and LightGBM's early stopping), or None."""
    sign = -1.0 if maximize else 1.0
    best = 0
    for i in range(1, len(values)):
        if sign * values[i] < sign * values[best]:
            best = i
        elif i - best >= rounds:
            return best
    return None


# ------------------------------------------------------------ XGBoost's cv

def recorder_class(xgb):
    class Recorder(xgb.callback.TrainingCallback):
        """Records every call, as a user's subclass would see them."""

        def __init__(self):
            super().__init__()
            self.calls = []
            self.logs = []

        def before_training(self, model):
            self.calls.append(("before_training", type(model).__name__,
                               len(model.cvfolds), model.num_boosted_rounds()))
            return model

        def before_iteration(self, model, epoch, evals_log):
            self.calls.append(("before_iteration", epoch, model.num_boosted_rounds()))
            return False

        def after_iteration(self, model, epoch, evals_log):
            shape = {data: {metric: (len(log), type(log[-1]).__name__, len(log[-1]))
                            for metric, log in per_metric.items()}
                     for data, per_metric in evals_log.items()}
            self.calls.append(("after_iteration", epoch, model.num_boosted_rounds(),
                               [f.bst.num_boosted_rounds() for f in model.cvfolds], shape))
            self.logs.append({data: {metric: tuple(map(float, log[-1]))
                                     for metric, log in per_metric.items()}
                              for data, per_metric in evals_log.items()})
            return False

        def after_training(self, model):
            self.calls.append(("after_training", model.num_boosted_rounds()))
            return model

    return Recorder


def xgb_cv_with_recorder(xgb, X, y):
    recorder = recorder_class(xgb)()
    result = xgb.cv(xgb_params(xgb), xgb.DMatrix(X, label=y), 6, nfold=3, seed=2,
                    metrics=["logloss", "error"], callbacks=[recorder])
    return result, recorder


def test_callback_objects_get_xgboosts_calls(binary):
    X, y = binary
    theirs, their_rec = xgb_cv_with_recorder(xgboost, X, y)
    ours, our_rec = xgb_cv_with_recorder(gpulayer, X, y)
    assert list(ours.columns) == list(theirs.columns)
    assert len(ours) == len(theirs) == 6
    # The same calls with the same arguments: a _PackedBooster of 3 folds,
    # the rounds so far, each fold's model at the round, and evals_log of
    # (mean, std) pairs for train and test.
    assert our_rec.calls == their_rec.calls
    assert our_rec.calls[0] == ("before_training", "_PackedBooster", 3, 0)
    assert our_rec.calls[2][3] == [1, 1, 1]
    assert our_rec.calls[-1] == ("after_training", 6)
    # evals_log holds the result's means and standard deviations.
    for i, log in enumerate(our_rec.logs):
        for data in ("train", "test"):
            for metric in ("logloss", "error"):
                assert log[data][metric] == (ours[f"{data}-{metric}-mean"][i],
                                             ours[f"{data}-{metric}-std"][i])
    np.testing.assert_allclose(ours["test-logloss-mean"], theirs["test-logloss-mean"],
                               rtol=RELATIVE)


def xgb_cv_early_stopping(xgb, X, y, callback_module, rounds=4, **kw):
    es = callback_module.EarlyStopping(rounds=rounds)
    return xgb.cv(xgb_params(xgb, eta=0.5, max_depth=4), xgb.DMatrix(X, label=y), 200,
                  nfold=4, seed=0, callbacks=[es], **kw)


def test_early_stopping_callback_ends_at_the_best_round(binary):
    X, y = binary
    theirs = xgb_cv_early_stopping(xgboost, X, y, xgboost.callback)
    ours = xgb_cv_early_stopping(gpulayer, X, y, gpulayer.callback)
    # XGBoost's own EarlyStopping object works as gpulayer's.
    ours_with_xgboosts = xgb_cv_early_stopping(gpulayer, X, y, xgboost.callback)
    pd.testing.assert_frame_equal(ours, ours_with_xgboosts)
    assert list(ours.columns) == list(theirs.columns)
    assert len(ours) < 200 and len(theirs) < 200
    # The round XGBoost's rule picks on the full history of the same folds.
    full = gpulayer.cv(xgb_params(gpulayer, eta=0.5, max_depth=4),
                       gpulayer.Dataset(X, label=y), 200, nfold=4, seed=0)
    best = stop_round(full["test-logloss-mean"].to_numpy(), 4)
    assert len(ours) == best + 1
    pd.testing.assert_frame_equal(ours, full.iloc[:best + 1])
    # Rounds differ only as far as the figures do (the trees differ a
    # little): the best means agree, and gpulayer's is not worse.
    assert abs(len(ours) - len(theirs)) <= 0.5 * len(theirs)
    np.testing.assert_allclose(ours["test-logloss-mean"].iloc[-1],
                               theirs["test-logloss-mean"].iloc[-1], rtol=2 * RELATIVE)
    assert ours["test-logloss-mean"].iloc[-1] <= theirs["test-logloss-mean"].iloc[-1] * (
        1 + RELATIVE)
    # The argument and the callback stop at the same round.
    argument = gpulayer.cv(xgb_params(gpulayer, eta=0.5, max_depth=4),
                           gpulayer.Dataset(X, label=y), 200, nfold=4, seed=0,
                           early_stopping_rounds=4)
    pd.testing.assert_frame_equal(argument, ours)


def test_save_best_is_refused_in_cv_as_xgboost_refuses_it(binary):
    X, y = binary
    for xgb in (xgboost, gpulayer):
        with pytest.raises(ValueError, match="save_best"):
            xgb.cv(xgb_params(xgb), xgb.DMatrix(X, label=y), 3,
                   callbacks=[xgb.callback.EarlyStopping(rounds=2, save_best=True)])


def xgb_cv_monitor(xgb, X, y):
    out = io.StringIO()
    with redirect_stdout(out):
        result = xgb.cv(xgb_params(xgb), xgb.DMatrix(X, label=y), 8, nfold=3,
                        callbacks=[xgb.callback.EvaluationMonitor(period=3, show_stdv=True)])
    return result, out.getvalue().splitlines()


def test_evaluation_monitor_prints_xgboosts_lines(binary):
    X, y = binary
    theirs, their_lines = xgb_cv_monitor(xgboost, X, y)
    ours, our_lines = xgb_cv_monitor(gpulayer, X, y)
    assert [line.split("\t")[0] for line in our_lines] == [
        line.split("\t")[0] for line in their_lines] == ["[0]", "[3]", "[6]", "[7]"]
    for ours_line, line in zip(our_lines, their_lines):
        fields = [f.split(":")[0] for f in ours_line.split("\t")[1:]]
        assert fields == [f.split(":")[0] for f in line.split("\t")[1:]] == [
            "train-logloss", "test-logloss"]
    last = our_lines[-1].split("\t")[2].split(":")[1]
    assert last == "%.5f+%.5f" % (ours["test-logloss-mean"].iloc[-1],
                                  ours["test-logloss-std"].iloc[-1])


def test_before_iteration_stops_before_the_round(binary):
    X, y = binary
    lengths = []
    for xgb in (xgboost, gpulayer):
        class StopAt(xgb.callback.TrainingCallback):
            def before_iteration(self, model, epoch, evals_log):
                return epoch == 5

        lengths.append(len(xgb.cv(xgb_params(xgb), xgb.DMatrix(X, label=y), 20,
                                  callbacks=[StopAt()])))
    assert lengths == [5, 5]


def test_learning_rate_scheduler_is_applied_round_by_round(binary):
    X, y = binary
    folds = list(model_selection.KFold(3, shuffle=True, random_state=0).split(X))
    rates = [0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.05, 0.05]
    results = {}
    for xgb in (xgboost, gpulayer):
        results[xgb.__name__] = xgb.cv(
            xgb_params(xgb), xgb.DMatrix(X, label=y), 8, folds=folds,
            callbacks=[xgb.callback.LearningRateScheduler(rates)])
    ours, theirs = results["gpulayer"], results["xgboost"]
    np.testing.assert_allclose(ours["test-logloss-mean"], theirs["test-logloss-mean"],
                               rtol=RELATIVE)
    # The folds trained by hand with the same scheduler give the same means.
    test_logloss = []
    for train_rows, test_rows in folds:
        dtrain = gpulayer.Dataset(X[train_rows], label=y[train_rows])
        dtest = gpulayer.Dataset(X[test_rows], label=y[test_rows])
        history = {}
        gpulayer.train(xgb_params(gpulayer), dtrain, 8, evals=[(dtest, "test")],
                       evals_result=history,
                       callbacks=[gpulayer.callback.LearningRateScheduler(rates)])
        test_logloss.append(history["test"]["logloss"])
    np.testing.assert_allclose(ours["test-logloss-mean"], np.mean(test_logloss, axis=0),
                               rtol=1e-6)


def test_set_param_from_a_callback_applies_from_the_next_round(binary):
    """A callback that is not a scheduler changes the rate once, while the
    folds are trained ahead (early stopping): the rounds trained past it
    are trained again with the new rate."""
    X, y = binary

    class Slowdown(gpulayer.callback.TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            if epoch == 3:
                model.set_param("learning_rate", 0.05)
            return False

    dtrain = gpulayer.Dataset(X, label=y)
    params = xgb_params(gpulayer)
    changed = gpulayer.cv(params, dtrain, 14, nfold=3,
                          callbacks=[Slowdown(), gpulayer.callback.EarlyStopping(rounds=50)])
    scheduled = gpulayer.cv(params, dtrain, 14, nfold=3, callbacks=[
        gpulayer.callback.LearningRateScheduler(lambda e: 0.3 if e < 3 else 0.05)])
    pd.testing.assert_frame_equal(changed, scheduled)
    plain = gpulayer.cv(params, dtrain, 14, nfold=3)
    assert not np.allclose(changed["test-logloss-mean"], plain["test-logloss-mean"])


def test_fold_models_are_at_the_callbacks_round(binary):
    """With the folds trained ahead (early stopping), each fold's bst is
    its model at the round the callback is called for."""
    X, y = binary
    seen = []

    class Check(gpulayer.callback.TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            losses = []
            for fold in model.cvfolds:
                p = np.clip(fold.bst.predict(fold.dtest), 1e-7, 1 - 1e-7)
                label = fold.dtest.get_label()
                losses.append(-np.mean(label * np.log(p) + (1 - label) * np.log(1 - p)))
            seen.append((fold.bst.num_boosted_rounds(), float(np.mean(losses)),
                         evals_log["test"]["logloss"][-1][0]))
            return False

    gpulayer.cv(xgb_params(gpulayer), gpulayer.Dataset(X, label=y), 12, nfold=3,
                callbacks=[Check()], early_stopping_rounds=20)
    assert [s[0] for s in seen] == list(range(1, 13))
    for _, by_hand, logged in seen:
        assert by_hand == pytest.approx(logged, rel=1e-4)


# ----------------------------------------------------------- LightGBM's cv

def lgb_cv(lgb, X, y, rounds=60, **kw):
    return lgb.cv(lgb_params(lgb), lgb.Dataset(X, label=y), num_boost_round=rounds,
                  nfold=4, **kw)


def test_lightgbm_cv_keys_and_rounds(binary):
    X, y = binary
    theirs = lgb_cv(lightgbm, X, y, 20, eval_train_metric=True)
    ours = lgb_cv(gpulayer, X, y, 20, eval_train_metric=True)
    assert isinstance(ours, dict)
    assert list(ours) == list(theirs) == ["train auc-mean", "train auc-stdv",
                                          "valid auc-mean", "valid auc-stdv"]
    assert all(len(v) == 20 for v in ours.values())
    assert ours["valid auc-mean"][-1] >= theirs["valid auc-mean"][-1] - AUC
    plain = lgb_cv(gpulayer, X, y, 5)
    assert list(plain) == ["valid auc-mean", "valid auc-stdv"]
    np.testing.assert_allclose(plain["valid auc-mean"], ours["valid auc-mean"][:5])


def test_lightgbm_early_stopping_ends_at_the_best_round(binary):
    X, y = binary
    results = {}
    for lgb in (lightgbm, gpulayer):
        results[lgb.__name__] = lgb_cv(lgb, X, y, 200, return_cvbooster=True,
                                       callbacks=[lgb.early_stopping(5, verbose=False)])
    ours, theirs = results["gpulayer"], results["lightgbm"]
    assert [k for k in ours] == [k for k in theirs]
    full = lgb_cv(gpulayer, X, y, 200)
    best = stop_round(full["valid auc-mean"], 5, maximize=True)
    assert best is not None
    assert len(ours["valid auc-mean"]) == best + 1
    np.testing.assert_allclose(ours["valid auc-mean"], full["valid auc-mean"][:best + 1])
    assert ours["valid auc-mean"][-1] >= theirs["valid auc-mean"][-1] - AUC
    # The CVBooster: LightGBM's best_iteration (a count), the folds' models
    # trained to the stopping round, each stopping at the best one.
    cvbooster = ours["cvbooster"]
    assert isinstance(cvbooster, gpulayer.CVBooster)
    assert cvbooster.best_iteration == best + 1
    assert theirs["cvbooster"].best_iteration == len(theirs["valid auc-mean"])
    assert len(cvbooster.boosters) == 4
    assert [b.num_boosted_rounds() for b in cvbooster.boosters] == [best + 6] * 4
    assert [b.best_iteration for b in cvbooster.boosters] == [best] * 4
    predictions = cvbooster.predict(X[:10])
    assert len(predictions) == 4 and all(p.shape == (10,) for p in predictions)
    # early_stopping_round in params is the same callback.
    from_params = gpulayer.cv(lgb_params(gpulayer, early_stopping_round=5),
                              gpulayer.Dataset(X, label=y), num_boost_round=200, nfold=4)
    np.testing.assert_array_equal(from_params["valid auc-mean"], ours["valid auc-mean"])


def lgb_cv_record(lgb, X, y):
    record = {}
    out = io.StringIO()
    calls = []

    def watcher(env):
        calls.append((env.iteration, env.begin_iteration, env.end_iteration,
                      hasattr(env.model, "boosters"),
                      [(r.dataset_name, r.metric_name, r.maximize, r.is_cv_result(), len(r))
                       for r in env.evaluation_result_list]))

    with redirect_stdout(out):
        result = lgb_cv(lgb, X, y, 6, callbacks=[watcher, lgb.record_evaluation(record),
                                                 lgb.log_evaluation(2)])
    return result, record, out.getvalue().splitlines(), calls


def test_lightgbm_callbacks_get_lightgbms_env(binary):
    X, y = binary
    theirs, their_record, their_lines, their_calls = lgb_cv_record(lightgbm, X, y)
    ours, record, lines, calls = lgb_cv_record(gpulayer, X, y)
    assert calls == their_calls
    assert calls[0] == (0, 0, 6, True, [("valid", "auc", True, True, 5)])
    assert {k: list(v) for k, v in record.items()} == {
        k: list(v) for k, v in their_record.items()} == {"valid": ["auc-mean", "auc-stdv"]}
    assert record["valid"]["auc-mean"] == ours["valid auc-mean"]
    assert record["valid"]["auc-stdv"] == ours["valid auc-stdv"]
    assert [line.split("\t")[0] for line in lines] == [
        line.split("\t")[0] for line in their_lines] == ["[2]", "[4]", "[6]"]
    assert lines[-1] == "[6]\tvalid's auc: %g + %g" % (ours["valid auc-mean"][-1],
                                                        ours["valid auc-stdv"][-1])
    assert their_lines[-1].startswith("[6]\tvalid's auc: ")


def test_lightgbm_feval(binary):
    X, y = binary

    def error_rate(preds, data):
        return "my_error", float(np.mean((preds > 0.5) != data.get_label())), False

    results = {}
    for lgb in (lightgbm, gpulayer):
        results[lgb.__name__] = lgb.cv(lgb_params(lgb, metric="binary_error"),
                                       lgb.Dataset(X, label=y), num_boost_round=10, nfold=4,
                                       feval=error_rate)
    ours, theirs = results["gpulayer"], results["lightgbm"]
    # LightGBM's binary_error is reported under XGBoost's name, error.
    assert list(theirs) == ["valid binary_error-mean", "valid binary_error-stdv",
                            "valid my_error-mean", "valid my_error-stdv"]
    assert list(ours) == ["valid error-mean", "valid error-stdv",
                          "valid my_error-mean", "valid my_error-stdv"]
    np.testing.assert_allclose(ours["valid my_error-mean"], ours["valid error-mean"],
                               atol=1e-9)
    assert abs(ours["valid my_error-mean"][-1] - theirs["valid my_error-mean"][-1]) < 0.03


def test_lightgbm_folds_and_init_model_and_fpreproc(binary):
    X, y = binary
    dataset = gpulayer.Dataset(X, label=y)
    # LightGBM's folds: StratifiedKFold(shuffle, seed) by default, the
    # seeded permutation without stratified; rows in increasing order.
    expected = model_selection.StratifiedKFold(5, shuffle=True, random_state=3).split(X, y)
    for (a, b), (c, d) in zip(_folds(dataset, 5, True, None, 3, True, lightgbm=True),
                              expected):
        np.testing.assert_array_equal(a, np.sort(c))
        np.testing.assert_array_equal(b, np.sort(d))
    parts = np.array_split(np.random.RandomState(3).permutation(len(y)), 5)
    for (_, test_rows), part in zip(_folds(dataset, 5, False, None, 3, True, lightgbm=True),
                                    parts):
        np.testing.assert_array_equal(test_rows, np.sort(part))
    # init_model: each fold continues it.
    init = gpulayer.train(lgb_params(gpulayer), dataset, 3)
    out = gpulayer.cv(lgb_params(gpulayer), dataset, num_boost_round=4, nfold=3,
                      init_model=init, return_cvbooster=True)
    assert [b.num_boosted_rounds() for b in out["cvbooster"].boosters] == [7, 7, 7]
    # fpreproc: each fold's datasets and parameters, used for that fold.
    seen = []

    def shallow(dtrain, dtest, params):
        seen.append((dtrain.num_rows + dtest.num_rows, params["max_depth"]))
        return dtrain, dtest, dict(params, max_depth=1)

    shallowed = gpulayer.cv(lgb_params(gpulayer), dataset, num_boost_round=4, nfold=3,
                            fpreproc=shallow)
    direct = gpulayer.cv(lgb_params(gpulayer, max_depth=1), dataset, num_boost_round=4,
                         nfold=3)
    assert seen == [(len(y), 3)] * 3
    assert shallowed == direct


# --------------------------------------------------------- which library's cv

def test_the_call_tells_which_librarys_cv(binary):
    X, y = binary
    dataset = gpulayer.Dataset(X, label=y)
    xgb_style = {"objective": "binary:logistic", "max_depth": 2}
    assert isinstance(gpulayer.cv(xgb_style, dataset, 2), pd.DataFrame)
    assert isinstance(gpulayer.cv(xgb_style, train_set=dataset, num_boost_round=2), dict)
    assert list(gpulayer.cv(xgb_style, dataset, 2, eval_train_metric=True)) == [
        "train logloss-mean", "train logloss-stdv", "valid logloss-mean",
        "valid logloss-stdv"]
    # LightGBM's objective names or metric key, without either library's
    # own arguments: LightGBM's cv, with its defaults (100 rounds).
    lgb_style = gpulayer.cv({"objective": "binary", "max_depth": 2}, dataset)
    assert isinstance(lgb_style, dict) and len(lgb_style["valid logloss-mean"]) == 100
    assert isinstance(gpulayer.cv({"objective": "binary", "max_depth": 2}, dataset, 2,
                                  as_pandas=True), pd.DataFrame)
    with pytest.raises(ValueError, match="LightGBM's train_set.*XGBoost's as_pandas"):
        gpulayer.cv(xgb_style, train_set=dataset, as_pandas=False)
    with pytest.raises(ValueError, match="LightGBM's callbacks.*XGBoost's callbacks"):
        gpulayer.cv(xgb_style, dataset, 2, callbacks=[gpulayer.early_stopping(2),
                                                      gpulayer.callback.EarlyStopping(2)])
    with pytest.raises(TypeError, match="callbacks must be"):
        gpulayer.cv(xgb_style, dataset, 2, callbacks=[3])
    with pytest.raises(TypeError, match="feval must return"):
        gpulayer.cv(xgb_style, dataset, 2, feval=lambda p, d: ("x", 1.0))
    with pytest.raises(ValueError, match="num_boost_round must be greater than 0"):
        gpulayer.cv(xgb_style, train_set=dataset, num_boost_round=0)

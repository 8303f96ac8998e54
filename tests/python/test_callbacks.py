"""train(callbacks=...) with XGBoost's callback objects, LightGBM's callback
functions and plain functions, and gpulayer.callback."""

import numpy as np
import pytest

import gpulayer
from gpulayer.callback import (EarlyStopping, EvaluationMonitor, LearningRateScheduler,
                               TrainingCallback)

xgb = pytest.importorskip("xgboost")
lgb = pytest.importorskip("lightgbm")

PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3, "nthread": 1,
          "device": "cpu"}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1500, 8)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + 0.7 * rng.normal(size=len(X)) > 0).astype(np.float32)
    dtrain = gpulayer.Dataset(X[:1000], label=y[:1000])
    dvalid = gpulayer.Dataset(X[1000:], label=y[1000:])
    return dtrain, dvalid


def evals_of(data):
    dtrain, dvalid = data
    return [(dtrain, "train"), (dvalid, "valid")]


class Recorder(xgb.callback.TrainingCallback):
    """A user's XGBoost callback: records what it is called with."""

    def __init__(self, stop_at=None):
        super().__init__()
        self.calls = []
        self.logs = []
        self.stop_at = stop_at

    def before_training(self, model):
        self.calls.append(("before_training", model.num_boosted_rounds()))
        return model

    def after_training(self, model):
        self.calls.append(("after_training", model.num_boosted_rounds()))
        return model

    def before_iteration(self, model, epoch, evals_log):
        self.calls.append(("before_iteration", epoch))
        return False

    def after_iteration(self, model, epoch, evals_log):
        self.calls.append(("after_iteration", epoch, model.num_boosted_rounds()))
        self.logs.append({d: {m: list(v) for m, v in ms.items()}
                          for d, ms in evals_log.items()})
        return epoch == self.stop_at


def test_xgboost_subclass_sees_every_round_with_xgboosts_evals_log(data):
    dtrain, _ = data
    cb = Recorder()
    history = {}
    bst = gpulayer.train({**PARAMS, "eval_metric": ["logloss", "error"]}, dtrain, 5,
                         evals=evals_of(data), evals_result=history, callbacks=[cb])
    assert bst.num_rounds == 5
    names = [c[0] for c in cb.calls]
    assert names.count("before_training") == 1 and names.count("after_training") == 1
    assert cb.calls[0] == ("before_training", 0) and cb.calls[-1] == ("after_training", 5)
    assert [c[1:] for c in cb.calls if c[0] == "after_iteration"] == [
        (e, e + 1) for e in range(5)]
    assert [c[1] for c in cb.calls if c[0] == "before_iteration"] == list(range(5))
    # XGBoost's structure, accumulated round by round.
    assert list(cb.logs[-1]) == ["train", "valid"]
    assert list(cb.logs[-1]["valid"]) == ["logloss", "error"]
    assert cb.logs[-1] == history
    assert [len(log["valid"]["logloss"]) for log in cb.logs] == [1, 2, 3, 4, 5]


def test_xgboost_callback_true_stops_training_and_epochs_restart_on_continue(data):
    dtrain, _ = data
    cb = Recorder(stop_at=3)
    bst = gpulayer.train(PARAMS, dtrain, 20, evals=evals_of(data), callbacks=[cb])
    assert bst.num_rounds == 4
    more = Recorder()
    gpulayer.train(PARAMS, dtrain, 2, evals=evals_of(data), callbacks=[more], xgb_model=bst)
    assert more.calls[0] == ("before_training", 4)
    assert [c[1:] for c in more.calls if c[0] == "after_iteration"] == [(0, 5), (1, 6)]


def test_model_in_a_callback_refuses_what_it_cannot_do_yet(data):
    dtrain, dvalid = data

    class Predicts(TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            model.predict(dvalid)

    with pytest.raises(NotImplementedError, match="train\\(\\) returns"):
        gpulayer.train(PARAMS, dtrain, 3, callbacks=[Predicts()])

    class SetsEta(TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            model.set_param("eta", 0.1)

    with pytest.raises(NotImplementedError, match="LearningRateScheduler"):
        gpulayer.train(PARAMS, dtrain, 3, callbacks=[SetsEta()])


def test_early_stopping_is_early_stopping_rounds(data):
    dtrain, _ = data
    reference = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data),
                               early_stopping_rounds=4)
    assert reference.best_iteration is not None and reference.num_rounds < 200
    for es in (EarlyStopping(4), EarlyStopping(rounds=4, data_name="valid"),
               xgb.callback.EarlyStopping(rounds=4),
               # the rule decided here rather than by the C library
               EarlyStopping(4, metric_name="logloss")):
        bst = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data), callbacks=[es])
        assert bst.best_iteration == reference.best_iteration
        assert bst.best_score == reference.best_score
        assert bst.num_rounds == reference.num_rounds
        np.testing.assert_array_equal(bst.predict(data[1]), reference.predict(data[1]))


def replay_xgboost(es, history, data_name="valid", metric="logloss"):
    """XGBoost's own EarlyStopping fed the same scores: (stop epoch, best
    iteration, best score)."""

    class Model:
        attrs = {}

        def num_boosted_rounds(self):
            return 0

        def set_attr(self, **kw):
            self.attrs.update(kw)

    model, log = Model(), {data_name: {metric: []}}
    es.before_training(model)
    for epoch, value in enumerate(history[data_name][metric]):
        log[data_name][metric].append(value)
        if es.after_iteration(model, epoch, log):
            break
    return epoch, int(model.attrs["best_iteration"]), float(model.attrs["best_score"])


@pytest.mark.parametrize("kwargs", [
    {"min_delta": 0.002}, {"metric_name": "error"}, {"data_name": "train", "min_delta": 1e-3},
    {"maximize": False, "metric_name": "auc"}])
def test_early_stopping_rule_is_xgboosts(data, kwargs):
    dtrain, _ = data
    params = {**PARAMS, "eval_metric": ["error", "auc", "logloss"]}
    history = {}
    bst = gpulayer.train(params, dtrain, 200, evals=evals_of(data), evals_result=history,
                         callbacks=[EarlyStopping(3, **kwargs)])
    stop, best, score = replay_xgboost(
        xgb.callback.EarlyStopping(rounds=3, **kwargs), history,
        kwargs.get("data_name", "valid"), kwargs.get("metric_name", "logloss"))
    assert bst.num_rounds == stop + 1 < 200
    assert bst.best_iteration == best and bst.best_score == score


def test_save_best_cuts_the_model(data):
    dtrain, dvalid = data
    for es in (EarlyStopping(4, save_best=True),
               EarlyStopping(4, save_best=True, min_delta=0.001),
               xgb.callback.EarlyStopping(rounds=4, save_best=True)):
        full = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data),
                              callbacks=[EarlyStopping(4, min_delta=es.min_delta
                                                       if hasattr(es, "min_delta")
                                                       else es._min_delta)])
        cut = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data), callbacks=[es])
        assert isinstance(cut, gpulayer.Booster)
        assert cut.num_rounds == full.best_iteration + 1 < full.num_rounds
        assert cut.best_iteration == full.best_iteration
        assert cut.best_score == full.best_score
        np.testing.assert_array_equal(cut.predict(dvalid), full.predict(dvalid))


def test_evaluation_monitor_prints_xgboosts_lines(data, capsys):
    dtrain, _ = data
    history = {}
    gpulayer.train({**PARAMS, "eval_metric": ["logloss", "auc"]}, dtrain, 7,
                   evals=evals_of(data), evals_result=history,
                   callbacks=[EvaluationMonitor(period=3)])
    ours = capsys.readouterr().out.splitlines()
    # XGBoost's monitor given the same history prints the same lines.
    monitor = xgb.callback.EvaluationMonitor(period=3)
    log = {d: {m: [] for m in ms} for d, ms in history.items()}
    for epoch in range(7):
        for d, ms in history.items():
            for m, values in ms.items():
                log[d][m].append(values[epoch])
        monitor.after_iteration(None, epoch, log)
    monitor.after_training(None)
    assert ours == capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in ours] == ["[0]", "[3]", "[6]"]
    assert ours[0] == "[0]\ttrain-logloss:%.5f\ttrain-auc:%.5f\tvalid-logloss:%.5f" \
        "\tvalid-auc:%.5f" % (history["train"]["logloss"][0], history["train"]["auc"][0],
                              history["valid"]["logloss"][0], history["valid"]["auc"][0])


def test_learning_rate_scheduler(data):
    dtrain, dvalid = data
    # A constant rate trains the model of one run, bit for bit.
    plain = gpulayer.train(PARAMS, dtrain, 6, evals=evals_of(data))
    same = gpulayer.train(PARAMS, dtrain, 6, evals=evals_of(data),
                          callbacks=[LearningRateScheduler(lambda epoch: 0.3)])
    np.testing.assert_array_equal(same.predict(dvalid), plain.predict(dvalid))
    # As XGBoost: round 0 with eta, round e + 1 with rates[e] (the last unused).
    rates = [0.2, 0.1, 0.05, 0.5]
    for scheduler in (LearningRateScheduler(rates), xgb.callback.LearningRateScheduler(rates)):
        bst = gpulayer.train(PARAMS, dtrain, 4, callbacks=[scheduler])
        manual = gpulayer.train(PARAMS, dtrain, 1)
        for eta in rates[:3]:
            manual = gpulayer.train({**PARAMS, "eta": eta}, dtrain, 1, xgb_model=manual)
        assert bst.num_rounds == 4
        np.testing.assert_array_equal(bst.predict(dvalid), manual.predict(dvalid))
    # With early stopping and a history, over round by round training.
    history = {}
    es = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data), evals_result=history,
                        early_stopping_rounds=3,
                        callbacks=[LearningRateScheduler(lambda e: 0.3)])
    reference = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data),
                               early_stopping_rounds=3)
    assert (es.best_iteration, es.num_rounds) == (reference.best_iteration,
                                                  reference.num_rounds)
    assert len(history["valid"]["logloss"]) == es.num_rounds


def test_lightgbm_callbacks_unmodified(data, capsys):
    dtrain, _ = data
    recorded = {}
    history = {}
    bst = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data), evals_result=history,
                         callbacks=[lgb.early_stopping(4, verbose=False),
                                    lgb.log_evaluation(2), lgb.record_evaluation(recorded)])
    reference = gpulayer.train(PARAMS, dtrain, 200, evals=evals_of(data),
                               early_stopping_rounds=4)
    # LightGBM watches every set (the training set too) and stops on the first
    # that has not improved; here the valid set.
    assert bst.best_iteration == reference.best_iteration
    assert bst.num_rounds == reference.num_rounds
    assert recorded == history
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "[2]\ttrain's logloss: %g\tvalid's logloss: %g" % (
        history["train"]["logloss"][1], history["valid"]["logloss"][1])
    # Its end-of-training check sets the best iteration as LightGBM does.
    bst = gpulayer.train(PARAMS, dtrain, 5, evals=evals_of(data),
                         callbacks=[lgb.early_stopping(100, verbose=False)])
    assert bst.num_rounds == 5 and bst.best_iteration == int(
        np.argmin(history["valid"]["logloss"][:5]))


def test_lightgbm_env_and_signature_rule(data):
    dtrain, _ = data
    envs, plain = [], []
    bst = gpulayer.train(PARAMS, dtrain, 3, evals=evals_of(data),
                         callbacks=[lambda env: envs.append(env),
                                    lambda r, results: plain.append((r, results))])
    more = gpulayer.train(PARAMS, dtrain, 2, evals=evals_of(data), xgb_model=bst,
                          callbacks=[lambda env: envs.append(env)])
    assert more.num_rounds == 5
    assert [(e.iteration, e.begin_iteration, e.end_iteration) for e in envs] == [
        (0, 0, 3), (1, 0, 3), (2, 0, 3), (3, 3, 5), (4, 3, 5)]
    name, metric, value, higher_better = envs[0].evaluation_result_list[1]
    assert (name, metric, higher_better) == ("valid", "logloss", False)
    assert value == plain[0][1][1].value
    assert envs[0].params["objective"] == "binary:logistic"
    assert [r for r, _ in plain] == [0, 1, 2]

    def stop(env):
        if env.iteration == 1:
            raise lgb.callback.EarlyStopException(0, env.evaluation_result_list)

    bst = gpulayer.train(PARAMS, dtrain, 10, evals=evals_of(data), callbacks=[stop])
    assert bst.num_rounds == 2 and bst.best_iteration == 0


def test_lightgbm_reset_parameter_in_train_and_cv():
    """lgb.reset_parameter sets round i's rate before round i (LightGBM's
    before_iteration); XGBoost's LearningRateScheduler sets it after round
    i for round i + 1. Shifted by one, the two give the same models and
    the same cross-validation, in every fold (it used to be refused)."""
    X = np.random.default_rng(0).random((400, 3))
    d = gpulayer.Dataset(X, label=X[:, 0] * 2 + X[:, 1])
    rate = lambda i: 0.3 * 0.7 ** i  # noqa: E731
    params = {"objective": "regression", "metric": "l2", "nthread": 1}
    by_lightgbm = gpulayer.train(params, d, 5, callbacks=[lgb.reset_parameter(learning_rate=rate)])
    by_xgboost = gpulayer.train({**params, "eta": rate(0)}, d, 5, callbacks=[
        gpulayer.callback.LearningRateScheduler(lambda e: rate(e + 1))])
    np.testing.assert_array_equal(by_lightgbm.predict(d), by_xgboost.predict(d))
    assert not np.array_equal(by_lightgbm.predict(d), gpulayer.train(params, d, 5).predict(d))
    folds = [(np.flatnonzero(np.arange(400) % 3 != k), np.flatnonzero(np.arange(400) % 3 == k))
             for k in range(3)]
    lightgbm_cv = gpulayer.cv(params, d, num_boost_round=5, folds=folds,
                              callbacks=[lgb.reset_parameter(learning_rate=rate)])
    xgboost_cv = gpulayer.cv({**params, "eta": rate(0)}, d, num_boost_round=5, folds=folds,
                             callbacks=[gpulayer.callback.LearningRateScheduler(
                                 lambda e: rate(e + 1))])
    assert lightgbm_cv["valid mse-mean"] == list(xgboost_cv["test-mse-mean"])
    listed = gpulayer.cv(params, d, num_boost_round=5, folds=folds, callbacks=[
        lgb.reset_parameter(learning_rate=[rate(i) for i in range(5)])])
    assert listed["valid mse-mean"] == lightgbm_cv["valid mse-mean"]


def test_plain_callables_and_raising_callbacks(data):
    dtrain, _ = data
    seen = []
    bst = gpulayer.train(PARAMS, dtrain, 10, evals=evals_of(data),
                         callbacks=[lambda r, results: seen.append(r) or r == 4])
    assert seen == [0, 1, 2, 3, 4] and bst.num_rounds == 5

    class Fails(TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            if epoch == 2:
                raise RuntimeError("stop here")

    for callbacks in ([Fails()], [lambda env: Fails().after_iteration(None, env.iteration, {})],
                      [Fails(), LearningRateScheduler(lambda e: 0.3)]):
        with pytest.raises(RuntimeError, match="stop here"):
            gpulayer.train(PARAMS, dtrain, 10, evals=evals_of(data), callbacks=callbacks)
    with pytest.raises(TypeError, match="after_iteration"):
        gpulayer.train(PARAMS, dtrain, 2, callbacks=[object()])


def test_module_and_package_attribute():
    import gpulayer.callback as module
    assert gpulayer.callback is module
    assert module.EarlyStopping is EarlyStopping


def test_optuna_pruning_callback(data):
    optuna = pytest.importorskip("optuna")
    integration = pytest.importorskip("optuna_integration")
    dtrain, _ = data
    pruned = []

    def objective(trial):
        pruning = integration.XGBoostPruningCallback(trial, "valid-logloss")
        bst = gpulayer.train(PARAMS, dtrain, 30, evals=evals_of(data), callbacks=[pruning])
        pruned.append(trial.number)
        return bst.best_score or 0.0

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(pruner=optuna.pruners.ThresholdPruner(upper=0.0))
    study.optimize(objective, n_trials=1)
    assert study.trials[0].state == optuna.trial.TrialState.PRUNED
    assert pruned == []
    history = {}

    def reported(trial):
        pruning = integration.XGBoostPruningCallback(trial, "valid-logloss")
        gpulayer.train(PARAMS, dtrain, 5, evals=evals_of(data), evals_result=history,
                       callbacks=[pruning])
        return 0.0

    study = optuna.create_study(pruner=optuna.pruners.NopPruner())
    study.optimize(reported, n_trials=1)
    assert study.trials[0].intermediate_values == dict(enumerate(history["valid"]["logloss"]))

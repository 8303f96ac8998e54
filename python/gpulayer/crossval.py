"""Cross-validation: :func:`cv`, with the arguments, folds and results of
XGBoost's ``xgboost.cv`` or of LightGBM's ``lightgbm.cv``, and their
callbacks."""

from __future__ import annotations

import collections
import os
from typing import Any, Mapping, Sequence

import numpy as np

from . import callback as _callback
from .booster import Booster
from .dataset import Dataset
from .errors import InvalidArgumentError
from .params import canonical_names, is_lightgbm_params, with_lightgbm_defaults
from .training import (EvalResult, Metric, Objective, _EarlyStopping,
                       _class_names, _is_lightgbm_early_stop, _is_maximize,
                       _is_reset_parameter, _takes_one_argument, train)

__all__ = ["cv", "CVBooster"]

# With early stopping or callbacks, the folds are trained this many rounds
# at a time at least (see cv's docstring).
_MIN_CHUNK = 10

def cv(
    params: Mapping[str, Any] | Sequence[tuple[str, Any]],
    dtrain: Dataset | None = None,
    num_boost_round: int | None = None,
    folds=None,
    nfold: int | None = None,
    stratified: bool | None = None,
    shuffle: bool = True,
    metrics: str | Sequence[str] | None = None,
    feval=None,
    init_model: Booster | str | os.PathLike | None = None,
    fpreproc=None,
    seed: int = 0,
    callbacks: Sequence[Any] | None = None,
    eval_train_metric: bool | None = None,
    return_cvbooster: bool | None = None,
    *,
    train_set: Dataset | None = None,
    obj: Objective | None = None,
    custom_metric: Metric | None = None,
    maximize: bool | None = None,
    early_stopping_rounds: int | None = None,
    as_pandas: bool | None = None,
    verbose_eval: bool | int | None = None,
    show_stdv: bool | None = None,
):
    """Cross-validation, as XGBoost's ``xgboost.cv`` or LightGBM's
    ``lightgbm.cv``.

    The rows of ``dtrain`` are split into folds; for each fold a model is
    trained with :func:`train` on the other folds' rows and evaluated on
    the fold's after every round. The result is, for every round, the mean
    and the standard deviation over the folds of each metric.

    **Which library's cv.** The call is LightGBM's when it passes
    ``train_set=``, one of LightGBM's own arguments (``feval``,
    ``init_model``, ``eval_train_metric``, ``return_cvbooster``) or
    LightGBM's callback functions (``lgb.early_stopping`` and the like);
    else XGBoost's when it passes one of XGBoost's own arguments (``obj``,
    ``custom_metric``, ``maximize``, ``early_stopping_rounds``,
    ``as_pandas``, ``verbose_eval``, ``show_stdv``) or callback objects;
    else LightGBM's when ``params`` use LightGBM's names for the objective
    or the metric (an objective without a colon, such as ``"binary"`` or
    ``"regression"``, a function as objective, or a ``metric`` key), and
    XGBoost's otherwise. Arguments of both libraries together are a
    ValueError. Past ``num_boost_round`` the positional order is
    LightGBM's (XGBoost's are keyword-only).

    **XGBoost's cv** (the defaults ``num_boost_round=10``, ``nfold=3``,
    ``stratified=False``): returns a pandas DataFrame (a dict of lists
    with ``as_pandas=False`` or without pandas) of the columns
    ``train-<metric>-mean``, ``train-<metric>-std``, then the same for
    ``test``, one row per round, metrics in their order; the standard
    deviations are over the folds (population, as numpy's ``std``).

    **LightGBM's cv** (the defaults ``num_boost_round=100``, ``nfold=5``,
    ``stratified=True``): returns a dict of lists ``"valid
    <metric>-mean"`` and ``"valid <metric>-stdv"``, preceded by ``"train
    <metric>-mean"`` and ``-stdv`` with ``eval_train_metric=True``, and
    ``"cvbooster"``, a :class:`CVBooster` of the folds' models, with
    ``return_cvbooster=True``. Metrics are named as :func:`train` names
    them (XGBoost's names: ``rmse``, ``logloss``, ...).

    Parameters
    ----------
    params : dict or list of (name, value)
        Training parameters, as :func:`train` takes them. XGBoost's cv
        ignores a number of rounds there (``num_round`` or an alias): it
        uses ``num_boost_round``; LightGBM's uses the parameter first, as
        LightGBM does. ``early_stopping_rounds`` there (or an alias) is
        early stopping (in LightGBM's cv with ``first_metric_only`` and
        ``early_stopping_min_delta`` from ``params``, as LightGBM's
        ``early_stopping`` callback).
    dtrain, train_set : Dataset
        The data (``train_set`` is LightGBM's name), made from an array, a
        DataFrame or a scipy.sparse matrix (folds are taken with
        :meth:`Dataset.slice`; a Dataset read from a file cannot be split:
        make it from ``pandas.read_csv(path)``).
    num_boost_round : int
        Boosting rounds.
    folds : scikit-learn splitter or list of (train_index, test_index)
        The folds, overriding ``nfold``, ``stratified`` and ``shuffle``:
        an object with a ``split`` method (``KFold``, ``StratifiedKFold``,
        ``GroupKFold``, ...), called with the labels as ``y`` and each
        row's query as ``groups`` (None, or zeros in LightGBM's cv, without
        queries), or one pair of arrays of 0-based row indexes per fold.
    nfold : int
        The number of folds (at least 2, at most the number of rows, or of
        queries for ranking data). Not used when ``folds`` is given.
    stratified : bool
        Split with scikit-learn's ``StratifiedKFold``, which keeps each
        class's share of rows in every fold: shuffled and seeded by
        ``seed`` in XGBoost's cv, shuffled as ``shuffle`` says in
        LightGBM's. XGBoost's cv refuses it for ranking data; LightGBM's
        splits ranking data with ``GroupKFold`` whatever it says.
    shuffle : bool
        Shuffle the rows (the queries, for ranking data in XGBoost's cv)
        before they are split into ``nfold`` consecutive folds.
    metrics : str or list of str
        Metrics to report, in place of ``params["eval_metric"]`` (or
        ``metric``); by default that, or the objective's default metric.
    feval : callable or list of callables, optional
        LightGBM's custom metric: ``feval(preds, eval_data) ->
        (eval_name, eval_result, is_higher_better)`` or a list of such
        tuples, given each fold's predictions (raw margins with a custom
        objective) and Dataset; its figures follow the metrics'.
    init_model : Booster or path, optional
        LightGBM's: every fold continues training this model.
    fpreproc : callable, optional
        ``fpreproc(dtrain, dtest, params) -> (dtrain, dtest, params)``,
        called for each fold with its Datasets and a copy of the
        parameters; the fold is trained with what it returns.
    seed : int
        Seed of the shuffled and stratified folds (XGBoost's and LightGBM's
        folds for the same seed: numpy's ``RandomState(seed)``). The
        training seed is ``params["seed"]``.
    callbacks : list, optional
        XGBoost's cv: XGBoost's callback objects (anything with
        ``after_iteration``: :class:`gpulayer.callback.TrainingCallback`
        subclasses, ``EarlyStopping``, ``EvaluationMonitor``,
        ``LearningRateScheduler``, XGBoost's own), called as
        ``xgboost.cv`` calls them: ``before_training(model)`` first, then
        for each round ``before_iteration(model, epoch, evals_log)`` and
        ``after_iteration(model, epoch, evals_log)``, and
        ``after_training(model)`` once the result is made. ``model`` is a
        ``_PackedBooster`` standing for all the folds (``cvfolds``, a list
        of the folds, each with ``bst``, its model at that round,
        ``dtrain``, ``dtest`` and ``watchlist``; ``set_param``,
        ``set_attr``, ``attr``, ``num_boosted_rounds``,
        ``best_iteration``, ``best_score``); ``evals_log`` is
        ``{"train": {metric: [(mean, std), ...]}, "test": {...}}``. As in
        XGBoost, once a callback returns True the ones after it are not
        called that round, and training stops: after the round (the
        results then end at ``model.best_iteration`` when a callback set
        it, as ``EarlyStopping`` does, else at that round) or, from
        ``before_iteration``, before it. Plain functions
        ``callback(round, results)`` (``results`` a list of
        :class:`EvalResult` holding the means) are called among them, in
        list order, after each round.

        LightGBM's cv: LightGBM's callback functions (``lgb.early_stopping``,
        ``lgb.log_evaluation``, ``lgb.record_evaluation``, your
        ``callback(env)``), ordered by their ``order`` attribute and
        called with a :class:`gpulayer.callback.CallbackEnv` whose
        ``model`` is the :class:`CVBooster` and whose
        ``evaluation_result_list`` holds
        :class:`gpulayer.callback.CallbackEvalResult` entries with the
        means and standard deviations (``dataset_name`` ``"train"`` or
        ``"valid"``). An ``EarlyStopException`` ends the results at its
        best round.
    eval_train_metric : bool
        LightGBM's: also report the metrics on each fold's training rows.
    return_cvbooster : bool
        LightGBM's: add ``"cvbooster"``, a :class:`CVBooster` of the
        folds' models, to the result.
    obj, custom_metric : callable, optional
        XGBoost's custom objective and metric, passed to :func:`train` for
        each fold. The custom metric's figures follow each set's own
        metrics.
    maximize : bool, optional
        Whether ``early_stopping_rounds`` looks for the largest value; by
        default as :func:`train` decides it for the metric watched.
    early_stopping_rounds : int, optional
        XGBoost's: stop when the mean over the folds of the last metric on
        ``test`` has not improved for this many rounds; the results then
        end at the best round (XGBoost's rule). 0 or None: off.
    as_pandas : bool
        XGBoost's: return a pandas DataFrame (when pandas is installed;
        the default); otherwise a dict of lists.
    verbose_eval : bool or int, optional
        XGBoost's: print the results every round (True) or every n rounds
        (rounds 0, n, 2n, ... and the last one) on stdout, as XGBoost's
        ``EvaluationMonitor``:
        ``[0]\\ttrain-rmse:0.51234+0.00321\\ttest-rmse:...``. None or
        False: nothing.
    show_stdv : bool
        XGBoost's: print the standard deviations with the means (the
        results always have them).

    Raises
    ------
    ValueError
        For ``nfold`` out of range, folds that are not pairs of row index
        arrays, indexes out of range, a query split between the training
        and test rows of a fold, a Dataset with no data to take folds
        from, or arguments of both libraries.
    TypeError
        For callbacks of neither kind, or of the other library's cv.

    Notes
    -----
    Folds without an explicit ``folds`` are the library's: the rows (or,
    in XGBoost's cv, the queries, which stay whole) in a random order
    drawn from ``seed``, or in order with ``shuffle=False``, cut into
    ``nfold`` nearly equal parts. LightGBM's cv takes each fold's rows in
    increasing order, as LightGBM does.

    Each fold is trained by :func:`train`, which collects its history;
    the folds are not trained with their own early stopping: all stop
    together on the mean over the folds. Without early stopping or
    callbacks each fold trains all its rounds in one call. With them, the
    folds advance together ``max(early_stopping_rounds, 10)`` rounds at a
    time (continued training, which gives the model of training in one
    go), and the callbacks are then called round by round with the
    rounds' means, each fold's ``bst`` (or the CVBooster's ``boosters``)
    being the fold's model cut at that round. A callback that sets a
    parameter (``set_param``, as ``LearningRateScheduler`` does) makes the
    folds drop the rounds trained past it and go on one round at a time,
    so that the parameter applies from the next round as in XGBoost;
    with a ``LearningRateScheduler`` they train one round at a time from
    the start. Fewer than ``max(early_stopping_rounds, 10)`` rounds a fold
    are trained past the stopping round and dropped.
    """
    if train_set is not None:
        if dtrain is not None:
            raise ValueError("two training sets: dtrain and train_set")
        dtrain = train_set
    if not isinstance(dtrain, Dataset):
        raise TypeError("dtrain must be a gpulayer.Dataset")
    callbacks = list(callbacks or ())
    lightgbm = _is_lightgbm_call(
        params, callbacks,
        lightgbm_args={"train_set": train_set, "feval": feval, "init_model": init_model,
                       "eval_train_metric": eval_train_metric,
                       "return_cvbooster": return_cvbooster},
        xgboost_args={"obj": obj, "custom_metric": custom_metric, "maximize": maximize,
                      "early_stopping_rounds": early_stopping_rounds,
                      "as_pandas": as_pandas, "verbose_eval": verbose_eval,
                      "show_stdv": show_stdv})
    if lightgbm:
        return _lightgbm_cv(
            params, dtrain, 100 if num_boost_round is None else num_boost_round, folds,
            5 if nfold is None else nfold, True if stratified is None else stratified,
            shuffle, metrics, feval, init_model, fpreproc, seed, callbacks,
            bool(eval_train_metric), bool(return_cvbooster))
    return _xgboost_cv(
        params, dtrain, 10 if num_boost_round is None else num_boost_round,
        3 if nfold is None else nfold, bool(stratified), folds, metrics, obj,
        custom_metric, maximize, early_stopping_rounds, fpreproc,
        True if as_pandas is None else as_pandas, verbose_eval,
        True if show_stdv is None else show_stdv, seed, callbacks, shuffle)


# ------------------------------------------------------- which library's cv

# Keys of params that only LightGBM's scripts use.


def _callback_kind(cb) -> str:
    if callable(getattr(cb, "after_iteration", None)):
        return "xgboost"
    if callable(cb):
        return "lightgbm" if _takes_one_argument(cb) else "plain"
    raise TypeError(
        "callbacks must be XGBoost's callback objects (with after_iteration), functions "
        "callback(round, results), or LightGBM's functions callback(env); got "
        f"{type(cb).__name__}")


def _is_lightgbm_call(params, callbacks, lightgbm_args: dict, xgboost_args: dict) -> bool:
    """Whether cv was called as LightGBM's cv (see cv's docstring)."""
    lightgbm = [name for name, value in lightgbm_args.items() if value is not None]
    xgboost = [name for name, value in xgboost_args.items() if value is not None]
    kinds = [_callback_kind(cb) for cb in callbacks]
    if "lightgbm" in kinds:
        lightgbm.append("callbacks=[LightGBM's callback(env) functions]")
    if "xgboost" in kinds:
        xgboost.append("callbacks=[XGBoost's callback objects]")
    if "plain" in kinds:
        xgboost.append("callbacks=[callback(round, results) functions]")
    if lightgbm and xgboost:
        raise ValueError(
            f"cv got LightGBM's {', '.join(lightgbm)} and XGBoost's {', '.join(xgboost)}: "
            "give the arguments of one library's cv")
    if lightgbm or xgboost:
        return bool(lightgbm)
    return is_lightgbm_params(params)


# ---------------------------------------------------------- the two flavours

def _xgboost_cv(params, dtrain, num_boost_round, nfold, stratified, folds, metrics, obj,
                custom_metric, maximize, early_stopping_rounds, fpreproc, as_pandas,
                verbose_eval, show_stdv, seed, callbacks, shuffle):
    num_boost_round = int(num_boost_round)
    if num_boost_round < 0:
        raise ValueError(f"num_boost_round must be at least 0, got {num_boost_round}")
    params, early_stopping_rounds, _ = _cv_params(params, metrics, early_stopping_rounds)
    splits = _folds(dtrain, nfold, stratified, folds, seed, shuffle)
    packs = _make_folds(dtrain, splits, params, fpreproc, ("train", "test"), None)

    # XGBoost's order: the callbacks given, then verbose_eval's monitor,
    # then early_stopping_rounds.
    entries = list(callbacks)
    if verbose_eval:
        period = 1 if verbose_eval is True else int(verbose_eval)
        if period < 0:
            raise ValueError(f"verbose_eval must be a bool or a positive int, "
                             f"got {verbose_eval!r}")
        entries.append(_callback.EvaluationMonitor(period=period, show_stdv=show_stdv))
    if early_stopping_rounds:
        entries.append(_MeanEarlyStopping(early_stopping_rounds, maximize))
    kinds = [_callback_kind(cb) for cb in entries]
    objects = [cb for cb, kind in zip(entries, kinds) if kind == "xgboost"]
    run = _Run(packs, num_boost_round, _step(num_boost_round, entries, early_stopping_rounds),
               obj, custom_metric)
    packed = _PackedBooster(run)
    for cb in objects:
        packed = _checked_model(cb, cb.before_training(model=packed), "before_training")

    results: dict[str, list[float]] = {}
    evals_log: dict = collections.OrderedDict()
    for i in range(num_boost_round):
        run.show(i)
        if any(bool(cb.before_iteration(packed, i, evals_log)) for cb in objects
               if callable(getattr(cb, "before_iteration", None))):
            break
        run.params_set(i)
        run.train_to(i + 1)
        run.show(i + 1)
        aggregated = run.aggregate(i)
        for data_name, metric_name, mean, std in aggregated:
            evals_log.setdefault(data_name, collections.OrderedDict()).setdefault(
                metric_name, []).append((mean, std))
        means = [EvalResult(d, m, mean) for d, m, mean, _ in aggregated]
        stop = False
        for cb, kind in zip(entries, kinds):  # as XGBoost's any(): the first True
            if kind == "xgboost":                # ends the round
                stop = bool(cb.after_iteration(packed, i, evals_log))
            else:
                stop = bool(cb(i, means))
            if stop:
                break
        for data_name, metric_name, mean, std in aggregated:
            key = f"{data_name}-{metric_name}"
            results.setdefault(f"{key}-mean", []).append(mean)
            results.setdefault(f"{key}-std", []).append(std)
        run.params_set(i + 1)
        if stop:
            best = packed.best_iteration
            if best is not None:
                results = {k: v[:best + 1] for k, v in results.items()}
            break
    run.show(None)

    if as_pandas:
        try:
            import pandas as pd
        except ImportError:
            pass
        else:
            results = pd.DataFrame.from_dict(results)
    for cb in objects:
        packed = _checked_model(cb, cb.after_training(model=packed), "after_training")
    return results


def _lightgbm_cv(params, train_set, num_boost_round, folds, nfold, stratified, shuffle,
                 metrics, feval, init_model, fpreproc, seed, callbacks, eval_train_metric,
                 return_cvbooster):
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a dict, got {type(params).__name__}")
    lgb_params = with_lightgbm_defaults(params)
    first_metric_only = bool(lgb_params.pop("first_metric_only", False))
    min_delta = lgb_params.pop("early_stopping_min_delta", 0.0)
    verbosity = lgb_params.get("verbosity", lgb_params.get("verbose", 1))
    fold_params, early_stopping_rounds, rounds = _cv_params(lgb_params, metrics, None)
    if rounds is not None:  # LightGBM: the parameter wins over the argument
        num_boost_round = rounds
    num_boost_round = int(num_boost_round)
    if num_boost_round <= 0:
        raise ValueError(f"num_boost_round must be greater than 0, got {num_boost_round}")
    if init_model is not None and not isinstance(init_model, Booster):
        init_model = Booster(model_file=init_model)
    metric = _LightGBMMetric(feval) if feval is not None else None

    callbacks = list(callbacks)
    for cb in callbacks:
        if _callback_kind(cb) != "lightgbm":
            raise TypeError(
                "LightGBM's cv takes callback functions callback(env) (lgb.early_stopping, "
                f"lgb.log_evaluation, ...); got {type(cb).__name__}")
    if early_stopping_rounds is not None and early_stopping_rounds > 0:
        callbacks.append(_callback.early_stopping(
            early_stopping_rounds, first_metric_only=first_metric_only,
            verbose=int(verbosity) > 0, min_delta=min_delta))
    n = len(callbacks)
    order = {id(cb): getattr(cb, "order", i - n) for i, cb in enumerate(callbacks)}
    callbacks.sort(key=lambda cb: order[id(cb)])
    before = [cb for cb in callbacks if getattr(cb, "before_iteration", False)]
    after = [cb for cb in callbacks if not getattr(cb, "before_iteration", False)]

    splits = _folds(train_set, nfold, stratified, folds, seed, shuffle, lightgbm=True)
    names = ("train", "valid") if eval_train_metric else ("valid",)
    packs = _make_folds(train_set, splits, fold_params, fpreproc, names, init_model)
    stopping = max((getattr(cb, "stopping_rounds", 0) for cb in callbacks), default=0)
    run = _Run(packs, num_boost_round, _step(num_boost_round, callbacks, stopping),
               None, metric)
    cvbooster = CVBooster()
    cvbooster._run = run
    env_params = dict(lgb_params, num_iterations=num_boost_round)
    directions: dict[str, bool] = {}

    def higher_better(name: str) -> bool:
        if metric is not None and name in metric.higher_better:
            return metric.higher_better[name]
        if name not in directions:
            directions[name] = _is_maximize(name)
        return directions[name]

    results: dict[str, list] = collections.defaultdict(list)
    stopped_at = None
    for i in range(num_boost_round):
        run.show(i)
        for cb in before:
            # reset_parameter sets every fold's parameters for the rounds to come.
            model = (_callback._ResetTarget(lambda p: run.set_params(list(p.items())))
                     if _is_reset_parameter(cb) else cvbooster)
            cb(_callback.CallbackEnv(model, env_params, i, 0, num_boost_round, None))
        run.params_set(i)
        run.train_to(i + 1)
        run.show(i + 1)
        entries = [_callback.CallbackEvalResult(d, m, mean, higher_better(m), std)
                   for d, m, mean, std in run.aggregate(i)]
        for r in entries:
            results[f"{r.dataset_name} {r.metric_name}-mean"].append(r.metric_value)
            results[f"{r.dataset_name} {r.metric_name}-stdv"].append(r.metric_std_dev)
        try:
            for cb in after:
                cb(_callback.CallbackEnv(cvbooster, env_params, i, 0, num_boost_round,
                                         entries))
        except Exception as exc:
            if not _is_lightgbm_early_stop(exc):
                raise
            best = int(exc.best_iteration)
            cvbooster.best_iteration = best + 1  # LightGBM's count
            results = {k: v[:best + 1] for k, v in results.items()}
            stopped_at = (i, best)
            break
    run.show(None)
    if stopped_at is not None:
        run.drop_after(stopped_at[0] + 1)  # the rounds LightGBM's folds would have
        for fold in packs:
            fold.booster.best_iteration = fold.init_rounds + stopped_at[1]
    out = dict(results)
    if return_cvbooster:
        cvbooster._run = None
        cvbooster.boosters = [fold.booster for fold in packs]
        out["cvbooster"] = cvbooster
    return out


# ------------------------------------------------------------------ helpers

def _step(num_boost_round: int, callbacks: list, early_stopping_rounds) -> int:
    """Rounds the folds train at a time."""
    if any(isinstance(cb, _callback.LearningRateScheduler)
           or ("xgboost", "LearningRateScheduler") in _class_names(cb)
           or _is_reset_parameter(cb) for cb in callbacks):
        return 1
    if callbacks or early_stopping_rounds:
        return max(int(early_stopping_rounds or 0), _MIN_CHUNK)
    return max(num_boost_round, 1)


def _checked_model(cb, model, method: str):
    if not isinstance(getattr(model, "cvfolds", None), list):
        raise TypeError(f"{type(cb).__name__}.{method} must return the model it was "
                        f"given, got {type(model).__name__}")
    return model


def _cv_params(params, metrics, early_stopping_rounds) -> tuple[dict, int | None, int | None]:
    """The folds' training parameters (metrics in place of eval_metric,
    without a number of rounds or early stopping, which cv does itself),
    the early-stopping rounds (the argument, else the parameter) and the
    number of rounds the parameters give (None if none)."""
    if isinstance(params, Mapping):
        items = list(params.items())
    else:  # XGBoost's list of pairs, where eval_metric may repeat
        items = [tuple(pair) for pair in params]
    names = canonical_names()
    out: dict[str, Any] = {}
    eval_metrics: list = []
    rounds = None
    for key, value in items:
        name = names.get(key, key)
        if name == "early_stopping_rounds":
            if early_stopping_rounds is None:
                early_stopping_rounds = value
        elif name == "eval_metric":
            eval_metrics += (list(value) if isinstance(value, (list, tuple, set, frozenset))
                             else [value])
        elif name == "num_round":
            if rounds is None or key == "num_iterations":
                rounds = int(value)
        else:
            out[key] = value
    if isinstance(metrics, str):
        metrics = [metrics]
    metrics = list(metrics or ()) or eval_metrics
    if metrics:
        out["eval_metric"] = metrics
    if early_stopping_rounds is not None:
        early_stopping_rounds = int(early_stopping_rounds)
        if early_stopping_rounds < 0:
            raise ValueError(f"early_stopping_rounds must be at least 0, "
                             f"got {early_stopping_rounds}")
    return out, early_stopping_rounds, rounds


class _LightGBMMetric:
    """LightGBM's feval (a function or a list of them) as train()'s
    custom_metric, keeping each name's direction."""

    def __init__(self, feval):
        self.fevals = list(feval) if isinstance(feval, (list, tuple)) else [feval]
        for f in self.fevals:
            if not callable(f):
                raise TypeError(f"feval must be a function or a list of functions, got "
                                f"{type(f).__name__}")
        self.higher_better: dict[str, bool] = {}

    def __call__(self, preds, dataset):
        out = []
        for f in self.fevals:
            result = f(preds, dataset)
            items = [result] if isinstance(result, tuple) else list(result)
            for item in items:
                if not (isinstance(item, tuple) and len(item) == 3
                        and isinstance(item[0], str)):
                    raise TypeError("feval must return (eval_name, eval_result, "
                                    "is_higher_better) or a list of them, got "
                                    f"{result!r}")
                name, value, higher = item
                self.higher_better[name] = bool(higher)
                out.append((name, float(value)))
        return out


class _MeanEarlyStopping(_callback.TrainingCallback):
    """early_stopping_rounds: the library's rule (that of train) on the
    mean over the folds of the last metric of the last set, setting the
    model's best_iteration and best_score as XGBoost's EarlyStopping."""

    def __init__(self, rounds: int, maximize: bool | None):
        super().__init__()
        self.stopper = _EarlyStopping(rounds, maximize)
        self.best = -1

    def after_iteration(self, model, epoch: int, evals_log) -> bool:
        data_name = list(evals_log)[-1]
        metric_name = list(evals_log[data_name])[-1]
        mean = evals_log[data_name][metric_name][-1][0]
        stop = self.stopper.update(epoch, [EvalResult(data_name, metric_name, mean)])
        if self.stopper.best_round != self.best:
            self.best = self.stopper.best_round
            model.set_attr(best_iteration=str(self.best),
                           best_score=str(self.stopper._best_score.value))
        return stop


class _Fold:
    """One fold, as XGBoost's ``CVPack``: its training and test rows
    (``dtrain``, ``dtest``, ``watchlist``), its parameters, its model
    (``bst``: the model at the round the callbacks are at) and the history
    of its rounds ({"train": {metric: [...]}, "test": {...}})."""

    def __init__(self, dtrain: Dataset, dtest: Dataset, params: dict, names: tuple,
                 init: Booster | None):
        self.dtrain = dtrain
        self.dtest = dtest
        self.params = params
        self.watchlist = ([(dtrain, "train")] if "train" in names else []) + [
            (dtest, names[-1])]
        self.init = init
        self.init_rounds = init.num_rounds if init is not None else 0
        self.booster: Booster | None = init
        self.rounds = 0  # trained in this cross-validation
        self.history: dict[str, dict[str, list[float]]] = {}
        self.shown: int | None = None  # the round callbacks see, None: all
        self._view: Booster | None = None

    @property
    def bst(self) -> Booster:
        if self.shown is not None and self.shown < self.rounds:
            if self._view is None:
                self._view = self._cut(self.shown)
            booster = self._view
        else:
            booster = self.booster
        return booster if booster is not None else Booster()

    def _cut(self, rounds: int) -> Booster | None:
        if rounds == 0:
            return self.init
        return self.booster[:self.init_rounds + rounds]

    def show(self, rounds: int | None) -> None:
        if rounds != self.shown:
            self.shown = rounds
            self._view = None

    def train(self, rounds: int, obj, custom_metric) -> None:
        """Train rounds more rounds, continuing the model so far."""
        history: dict = {}
        self.booster = train(self.params, self.dtrain, rounds, evals=self.watchlist,
                             evals_result=history, obj=obj, custom_metric=custom_metric,
                             xgb_model=self.booster, progress_bar=False)
        for data_name, per_metric in history.items():
            for metric_name, values in per_metric.items():
                self.history.setdefault(data_name, {}).setdefault(metric_name, []).extend(
                    values)
        self.rounds += rounds
        self._view = None

    def drop_after(self, rounds: int) -> None:
        """Keep the first rounds rounds only."""
        if rounds >= self.rounds:
            return
        self.booster = self._cut(rounds)
        for per_metric in self.history.values():
            for values in per_metric.values():
                del values[rounds:]
        self.rounds = rounds
        self._view = None


def _make_folds(dataset: Dataset, splits, params: dict, fpreproc, names: tuple,
                init: Booster | None) -> list[_Fold]:
    if fpreproc is not None and not callable(fpreproc):
        raise TypeError(f"fpreproc must be a function, got {type(fpreproc).__name__}")
    source = dataset._row_source()
    packs = []
    for train_rows, test_rows in splits:
        fold_train = dataset._take_rows(source, train_rows)
        fold_test = dataset._take_rows(source, test_rows)
        fold_params = dict(params)
        if fpreproc is not None:
            fold_train, fold_test, fold_params = fpreproc(fold_train, fold_test, fold_params)
            if not (isinstance(fold_train, Dataset) and isinstance(fold_test, Dataset)):
                raise TypeError("fpreproc must return (dtrain, dtest, params) with "
                                "gpulayer Datasets")
            fold_params = dict(fold_params)
        packs.append(_Fold(fold_train, fold_test, fold_params, names, init))
    return packs


class _Run:
    """The folds trained together: rounds trained ahead of the callbacks
    in steps, dropped again when a callback sets a parameter."""

    def __init__(self, packs: list[_Fold], total: int, step: int, obj, custom_metric):
        self.packs = packs
        self.total = total
        self.step = step
        self.obj = obj
        self.custom_metric = custom_metric
        self.trained = 0
        self.params_changed = False

    def train_to(self, rounds: int) -> None:
        """Make sure the folds hold at least rounds rounds."""
        if self.trained >= rounds:
            return
        more = min(max(self.step, rounds - self.trained), self.total - self.trained)
        for fold in self.packs:
            fold.train(more, self.obj, self.custom_metric)
        self.trained += more

    def show(self, rounds: int | None) -> None:
        for fold in self.packs:
            fold.show(rounds)

    def drop_after(self, rounds: int) -> None:
        if self.trained > rounds:
            for fold in self.packs:
                fold.drop_after(rounds)
            self.trained = rounds

    def params_set(self, rounds: int) -> None:
        """After callbacks ran with rounds rounds trained: when one set a
        parameter, drop the rounds trained past them and go on one round
        at a time."""
        if self.params_changed:
            self.params_changed = False
            self.drop_after(rounds)
            self.step = 1

    def set_params(self, pairs: list[tuple[str, Any]]) -> None:
        names = canonical_names()
        for fold in self.packs:
            for key, value in pairs:
                name = names.get(key, key)
                for old in [k for k in fold.params if names.get(k, k) == name]:
                    del fold.params[old]
                fold.params[key] = value
        self.params_changed = True

    def aggregate(self, round_index: int) -> list[tuple[str, str, float, float]]:
        return _aggregate([fold.history for fold in self.packs], round_index)


class _PackedBooster:
    """The model XGBoost's callbacks get in cv: all the folds
    (``cvfolds``), as XGBoost's ``_PackedBooster``."""

    def __init__(self, run: _Run):
        self._run = run
        self._attrs: dict[str, str] = {}

    @property
    def cvfolds(self) -> list[_Fold]:
        return self._run.packs

    def set_attr(self, **kwargs: Any) -> None:
        """Set attributes of every fold (None deletes one)."""
        for key, value in kwargs.items():
            if value is None:
                self._attrs.pop(key, None)
            else:
                self._attrs[key] = str(value)

    def attr(self, key: str) -> str | None:
        return self._attrs.get(key)

    def set_param(self, params, value: Any = None) -> None:
        """Set parameters of every fold, from the next round on."""
        if isinstance(params, str):
            if value is None:
                raise TypeError(f"set_param({params!r}) needs a value")
            pairs = [(params, value)]
        elif isinstance(params, Mapping):
            pairs = list(params.items())
        else:
            pairs = [tuple(pair) for pair in params]
        self._run.set_params([(k, v) for k, v in pairs if v is not None])

    def num_boosted_rounds(self) -> int:
        """The rounds of the folds' models the callbacks see."""
        shown = self._run.packs[0].shown if self._run.packs else None
        return self._run.trained if shown is None else shown

    @property
    def best_iteration(self) -> int | None:
        value = self._attrs.get("best_iteration")
        return None if value is None else int(value)

    @best_iteration.setter
    def best_iteration(self, iteration: int) -> None:
        self.set_attr(best_iteration=iteration)

    @property
    def best_score(self) -> float | None:
        value = self._attrs.get("best_score")
        return None if value is None else float(value)

    @best_score.setter
    def best_score(self, score: float) -> None:
        self.set_attr(best_score=score)


class CVBooster:
    """LightGBM's ``CVBooster``: the folds' models of a LightGBM-style
    :func:`cv` (``boosters``), and ``best_iteration``, LightGBM's count
    of rounds up to the best one (-1 without early stopping; each
    booster's own ``best_iteration`` is 0-based, gpulayer's). Other
    methods are called on every booster and return the list of their
    results: ``cvbooster.predict(X)`` is a list of predictions.

    During cross-validation, the callbacks see ``boosters`` as the folds'
    models at the round they are called for."""

    def __init__(self) -> None:
        self._boosters: list[Booster] = []
        self._run: _Run | None = None
        self._train_data_name = "train"  # the set early stopping leaves out
        self.best_iteration = -1

    @property
    def boosters(self) -> list[Booster]:
        if self._run is not None:
            return [fold.bst for fold in self._run.packs]
        return self._boosters

    @boosters.setter
    def boosters(self, boosters: list[Booster]) -> None:
        self._boosters = list(boosters)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def call_each(*args, **kwargs):
            return [getattr(booster, name)(*args, **kwargs) for booster in self.boosters]

        return call_each


def _aggregate(histories: list[dict], round_index: int) -> list[tuple[str, str, float, float]]:
    """(data name, metric, mean, std) over the folds for one round, in the
    order of the folds' results."""
    out = []
    for data_name, per_metric in histories[0].items():
        for metric_name in per_metric:
            try:
                values = np.array([h[data_name][metric_name][round_index] for h in histories],
                                  dtype=np.float64)
            except (KeyError, IndexError):
                raise InvalidArgumentError(
                    f"round {round_index}: the folds did not all report "
                    f"{data_name}-{metric_name}") from None
            out.append((data_name, metric_name, float(np.mean(values)), float(np.std(values))))
    return out


def _labels(dataset: Dataset) -> np.ndarray:
    try:
        return dataset.get_label()
    except InvalidArgumentError:
        raise ValueError("cross-validation needs a Dataset with labels") from None


def _folds(dtrain: Dataset, nfold, stratified: bool, folds, seed: int,
           shuffle: bool, lightgbm: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (train rows, test rows) of each fold, checked: XGBoost's folds,
    or LightGBM's (lightgbm=True: rows in increasing order in each)."""
    if lightgbm:
        return [(np.sort(a), np.sort(b))
                for a, b in _lightgbm_folds(dtrain, nfold, stratified, folds, seed, shuffle)]
    rows = dtrain.num_rows
    sizes = dtrain.get_group()
    query = np.repeat(np.arange(sizes.size), sizes) if sizes.size else None
    if folds is not None:
        if hasattr(folds, "split"):
            label = _labels(dtrain)
            splits = list(folds.split(X=label, y=label, groups=query))
        else:
            splits = _listed_folds(folds)
        return _checked_folds(splits, rows, sizes, query)

    nfold = _checked_nfold(nfold)
    if stratified:
        if query is not None:
            raise ValueError("stratified folds would split queries: ranking data are "
                             "split by whole queries (leave stratified off), or pass "
                             "folds=")
        if nfold > rows:
            raise ValueError(f"nfold={nfold} is more than the {rows} rows")
        try:
            from sklearn.model_selection import StratifiedKFold
        except ImportError:
            raise ImportError("stratified folds need scikit-learn "
                              "(pip install scikit-learn)") from None
        label = _labels(dtrain)
        splitter = StratifiedKFold(n_splits=nfold, shuffle=True, random_state=seed)
        return [(np.asarray(a), np.asarray(b)) for a, b in splitter.split(X=label, y=label)]

    units = sizes.size if query is not None else rows
    if nfold > units:
        what = "queries" if query is not None else "rows"
        raise ValueError(f"nfold={nfold} is more than the {units} {what}")
    order = np.random.RandomState(seed).permutation(units) if shuffle else np.arange(units)
    parts = np.array_split(order, nfold)
    if query is not None:  # parts of queries, as parts of rows
        starts = np.concatenate(([0], np.cumsum(sizes)))
        parts = [np.concatenate([np.arange(starts[q], starts[q + 1]) for q in part])
                 for part in parts]
    return [(np.concatenate([parts[j] for j in range(nfold) if j != k]), parts[k])
            for k in range(nfold)]


def _lightgbm_folds(dtrain: Dataset, nfold, stratified: bool, folds, seed: int,
                    shuffle: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """LightGBM's folds: GroupKFold for ranking data, StratifiedKFold when
    stratified, else the rows in XGBoost's order cut in nfold parts."""
    rows = dtrain.num_rows
    sizes = dtrain.get_group()
    query = np.repeat(np.arange(sizes.size), sizes) if sizes.size else None
    if folds is not None:
        if hasattr(folds, "split"):
            groups = query if query is not None else np.zeros(rows, dtype=np.int32)
            splits = list(folds.split(X=np.empty(rows), y=_labels(dtrain), groups=groups))
        else:
            splits = _listed_folds(folds)
        return _checked_folds(splits, rows, sizes, query)
    nfold = _checked_nfold(nfold)
    units = sizes.size if query is not None else rows
    if nfold > units:
        what = "queries" if query is not None else "rows"
        raise ValueError(f"nfold={nfold} is more than the {units} {what}")
    if query is not None or stratified:
        try:
            from sklearn.model_selection import GroupKFold, StratifiedKFold
        except ImportError:
            raise ImportError("stratified and ranking folds need scikit-learn "
                              "(pip install scikit-learn)") from None
        if query is not None:
            splitter = GroupKFold(n_splits=nfold)
            splits = splitter.split(X=np.empty(rows), groups=query)
        else:
            splitter = StratifiedKFold(n_splits=nfold, shuffle=bool(shuffle),
                                       random_state=seed if shuffle else None)
            splits = splitter.split(X=np.empty(rows), y=_labels(dtrain))
        return [(np.asarray(a), np.asarray(b)) for a, b in splits]
    order = np.random.RandomState(seed).permutation(rows) if shuffle else np.arange(rows)
    parts = np.array_split(order, nfold)
    return [(np.concatenate([parts[j] for j in range(nfold) if j != k]), parts[k])
            for k in range(nfold)]


def _listed_folds(folds) -> list:
    """folds given as (train_index, test_index) pairs, listed."""
    try:
        return list(folds)
    except TypeError:
        raise ValueError("folds must be a scikit-learn splitter (with a split method) or a "
                         "list of (train_index, test_index) pairs, got "
                         f"{type(folds).__name__}") from None


def _checked_nfold(nfold) -> int:
    if isinstance(nfold, (bool, np.bool_)) or not isinstance(nfold, (int, np.integer)):
        raise TypeError(f"nfold must be an integer, got {nfold!r}")
    if nfold < 2:
        raise ValueError(f"nfold must be at least 2, got {nfold}")
    return int(nfold)


def _checked_folds(splits, rows: int, sizes: np.ndarray, query) -> list:
    """The folds given, as (train rows, test rows) int64 arrays, checked."""
    if not splits:
        raise ValueError("folds holds no fold")
    out = []
    for k, fold in enumerate(splits):
        if not (isinstance(fold, (tuple, list)) and len(fold) == 2):
            raise ValueError(f"folds[{k}] must be a (train_index, test_index) pair, "
                             f"got {type(fold).__name__}"
                             + (f" of {len(fold)}" if isinstance(fold, (tuple, list)) else ""))
        pair = []
        for part, index in zip(("train_index", "test_index"), fold):
            index = np.asarray(index)
            if index.ndim != 1 or index.size == 0 or index.dtype.kind not in "iu":
                raise ValueError(f"folds[{k}]: {part} must be a non-empty 1-D array of "
                                 f"integer row indexes, got shape {index.shape} and "
                                 f"dtype {index.dtype}")
            outside = index[(index < 0) | (index >= rows)]
            if outside.size:
                raise ValueError(f"folds[{k}]: {part} holds row {int(outside[0])}, out of "
                                 f"range for {rows} rows")
            if query is not None:
                taken = np.bincount(query[index], minlength=sizes.size)
                split = np.flatnonzero((taken > 0) & (taken != sizes))
                if split.size:
                    raise ValueError(f"folds[{k}]: {part} takes part of query "
                                     f"{int(split[0])} (0-based): a query's rows must all "
                                     "be in one fold's training or test rows")
            pair.append(index.astype(np.int64))
        out.append(tuple(pair))
    return out

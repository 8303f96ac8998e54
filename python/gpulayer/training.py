"""Training: :func:`train`, with per-round callbacks, evaluation history,
early stopping, custom objectives and metrics, and Ctrl-C that stops
training cleanly between rounds."""

from __future__ import annotations

import collections
import inspect
import os

import signal
import threading
from ctypes import byref, c_double, c_int32, c_void_p
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

from . import _lib
from . import distributed as _distributed
from . import callback as _callback
from .booster import Booster, _Training, interaction_text, monotone_text
from .dataset import Dataset
from .errors import InvalidArgumentError, error_for_status
from .params import is_lightgbm_params, with_lightgbm_defaults
from .progress import ProgressBar, TqdmBar, make_progress_bar, wants_progress_bar

__all__ = ["train", "EvalResult"]

# A callback's return value that asks the C library to stop: 1 is a normal
# stop (like early stopping), any other non-zero value an interruption.
_CONTINUE, _STOP, _INTERRUPT = 0, 1, 2


class EvalResult(NamedTuple):
    """One metric of one evaluation set after one round."""

    data_name: str
    metric_name: str
    value: float


RoundCallback = Callable[[int, Sequence[EvalResult]], Any]
Objective = Callable[[np.ndarray, Dataset], tuple]
Metric = Callable[[np.ndarray, Dataset], Any]

def _is_maximize(metric_name: str) -> bool:
    """Whether early stopping looks for the metric's largest value: the C
    library's rule (its own metrics know their direction; other names
    follow XGBoost's rule by name)."""
    return bool(_lib.get().gpulayer_metric_maximize(_lib.encode(metric_name)))


def _predictions(values, rows: int, outputs: int) -> np.ndarray:
    """A C array of rows x outputs floats as float64 numpy: (rows,) for one
    output, (rows, outputs) otherwise. float64 so that arithmetic on them
    is in double, as the built-in objectives compute."""
    flat = np.ctypeslib.as_array(values, shape=(rows * outputs,)).astype(np.float64)
    return flat if outputs == 1 else flat.reshape(rows, outputs)


class _CustomObjective:
    """The Python side of gpulayer_objective_callback: calls
    ``obj(preds, dtrain)`` with the margins before each round and hands
    back its (grad, hess), checked for shape here; the C library checks
    the values (NaN, infinity, negative hessians)."""

    def __init__(self, obj: Objective, dtrain: Dataset):
        self.obj = obj
        self.dtrain = dtrain
        self.error: BaseException | None = None
        self.c_callback = _lib.OBJECTIVE_CALLBACK(self._on_round)

    def _on_round(self, user_data, round_index, margins, rows, outputs, grad, hess) -> int:
        try:
            preds = _predictions(margins, rows, outputs)
            result = self.obj(preds, self.dtrain)
            if not (isinstance(result, (tuple, list)) and len(result) == 2):
                raise InvalidArgumentError(
                    f"custom objective, round {round_index + 1}: it must return "
                    f"(grad, hess), got {type(result).__name__}")
            size = rows * outputs
            for name, values, out in (("grad", result[0], grad), ("hess", result[1], hess)):
                array = np.asarray(values, dtype=np.float64)
                if array.shape not in {(rows, outputs), (size,)}:
                    expected = f"({rows},)" if outputs == 1 else f"({rows}, {outputs}) or ({size},)"
                    raise InvalidArgumentError(
                        f"custom objective, round {round_index + 1}: {name} has shape "
                        f"{array.shape}, expected {expected} like the predictions")
                np.ctypeslib.as_array(out, shape=(size,))[:] = array.reshape(-1)
            return _CONTINUE
        except BaseException as exc:  # re-raised by train() once C returns
            self.error = exc
            return _INTERRUPT


class _CustomMetric:
    """The Python side of gpulayer_eval_callback: calls
    ``custom_metric(preds, dataset)`` for each evaluation set after every
    round and keeps its (name, value) pairs for the round's results."""

    def __init__(self, metric: Metric, evals: Sequence[tuple[Dataset, str]], raw: bool):
        self.metric = metric
        self.evals = list(evals)
        self.raw = raw  # margins (with a custom objective) or predictions
        self.results: dict[int, list[EvalResult]] = {}
        self.error: BaseException | None = None
        self.c_callback = _lib.EVAL_CALLBACK(self._on_eval)

    def _on_eval(self, user_data, round_index, index, margins, predictions, rows,
                 outputs) -> int:
        try:
            dataset, name = self.evals[index]
            preds = _predictions(margins if self.raw else predictions, rows, outputs)
            self.results[index] = [
                EvalResult(name, metric, value)
                for metric, value in self._pairs(self.metric(preds, dataset), round_index)
            ]
            return _CONTINUE
        except BaseException as exc:  # re-raised by train() once C returns
            self.error = exc
            return _INTERRUPT

    @staticmethod
    def _pairs(result, round_index: int) -> list[tuple[str, float]]:
        pairs = [result] if (isinstance(result, tuple) and len(result) == 2
                             and isinstance(result[0], str)) else result
        try:
            pairs = list(pairs)
            if not pairs or not all(isinstance(p, tuple) and len(p) == 2
                                    and isinstance(p[0], str) for p in pairs):
                raise TypeError
            return [(name, float(value)) for name, value in pairs]
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                f"custom metric, round {round_index + 1}: it must return (name, value) "
                f"or a list of them, got {result!r}") from None

    def merge(self, results: list[EvalResult]) -> list[EvalResult]:
        """The round's results with each set's custom metrics after its own
        (XGBoost's order); the C library lists sets in order, each with the
        same number of metrics."""
        per_set = len(results) // len(self.evals)
        merged = []
        for i in range(len(self.evals)):
            merged += results[i * per_set:(i + 1) * per_set] + self.results.pop(i, [])
        return merged


class _EarlyStopping:
    """Early stopping when the metric watched is not the C library's own
    (a custom metric) or maximize is given: the round's decision is the C
    library's (gpulayer_early_stopping_update), on the last metric of the
    last evaluation set, as training decides it."""

    def __init__(self, rounds: int, maximize: bool | None):
        self.rounds = rounds
        self.maximize = maximize
        self._best_round = c_int32(-1)
        self._best_score = c_double(0.0)

    @property
    def best_round(self) -> int:
        return self._best_round.value

    def update(self, round_index: int, results: list[EvalResult]) -> bool:
        """Records the round; True when training should stop."""
        if not results:
            return False
        last = results[-1]
        maximize = self.maximize if self.maximize is not None else _is_maximize(
            last.metric_name)
        return bool(_lib.get().gpulayer_early_stopping_update(
            self.rounds, int(maximize), round_index, last.value,
            byref(self._best_round), byref(self._best_score)))


class _InterruptGuard:
    """While active in the main thread, SIGINT sets a flag instead of
    raising KeyboardInterrupt, so the round callback can ask the C library
    to stop and training ends cleanly.

    ctypes releases the GIL for the C call; the Python-level handler runs
    when the main thread next executes Python code, which during training
    is the round callback. Nothing is installed outside the main thread or
    when SIGINT is not handled by Python (ignored, or default action).
    """

    def __init__(self):
        self.interrupted = False
        self._previous = None

    def _on_sigint(self, signum, frame):
        self.interrupted = True

    def __enter__(self) -> "_InterruptGuard":
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if callable(previous):
                self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


class _RoundReporter:
    """The Python side of gpulayer_round_callback: records the evaluation
    history, prints progress, runs the user's callbacks, and turns Ctrl-C
    or a callback's exception into a stop request."""

    def __init__(self, callbacks: "_CallbackRunner",
                 history: dict | None, verbose_eval: int,
                 guard: _InterruptGuard, metric: _CustomMetric | None = None,
                 early_stopping: _EarlyStopping | None = None,
                 progress: ProgressBar | TqdmBar | None = None):
        self.callbacks = callbacks
        self.metric = metric
        self.early_stopping = early_stopping
        self.history = history
        self.verbose_eval = verbose_eval
        self.guard = guard
        self.progress = progress
        self.rounds_done = 0
        # The last figure of each round: the one early stopping watches.
        self.watched: dict[int, float] = {}
        # The last round's line when verbose_eval skipped it, printed once
        # training ends, as XGBoost does.
        self.unprinted: str | None = None
        self.error: BaseException | None = None
        # Round by round training: the C call's round, handled once it returns.
        self.deferred = False
        self.pending: tuple[int, list[EvalResult]] | None = None
        # The C function pointer must stay alive while training runs.
        self.c_callback = _lib.ROUND_CALLBACK(self._on_round)

    def _on_round(self, user_data, round_index, results_ptr, num_results) -> int:
        try:
            results = [
                EvalResult(_lib.decode(r.data_name), _lib.decode(r.metric_name),
                           float(r.value))
                for r in (results_ptr[:num_results] if num_results > 0 else [])
            ]
            if self.deferred:
                self.pending = (round_index, results)
                return _CONTINUE
            stop = self.round_done(round_index, results)
            if self.guard.interrupted:
                return _INTERRUPT
            return _STOP if stop else _CONTINUE
        except BaseException as exc:  # re-raised by train() once C returns
            self.error = exc
            return _INTERRUPT

    def round_done(self, round_index: int, results: list[EvalResult]) -> bool:
        """Handles a round's results; True when training should stop."""
        if self.metric is not None:
            results = self.metric.merge(results)
        self._record(round_index, results)
        if results:
            self.watched[round_index] = results[-1].value
        self.rounds_done += 1
        if self.progress is not None:
            self.progress.update(self.rounds_done)
        stop = (self.early_stopping is not None
                and self.early_stopping.update(round_index, results))
        return self.callbacks.after_round(round_index, results) or stop

    def _record(self, round_index: int, results: list[EvalResult]) -> None:
        if self.history is not None:
            for r in results:
                self.history.setdefault(r.data_name, {}).setdefault(
                    r.metric_name, []).append(r.value)
        if not (self.verbose_eval and results):
            return
        text = "\t".join(f"{r.data_name}-{r.metric_name}:{r.value:.5f}" for r in results)
        self.unprinted = f"[{round_index}]\t{text}"
        if round_index % self.verbose_eval == 0:
            self.print_unprinted()

    def print_unprinted(self) -> None:
        if self.unprinted is not None:
            if self.progress is not None:
                self.progress.clear()
            print(self.unprinted, flush=True)
            self.unprinted = None


def _takes_one_argument(fn) -> bool:
    """Whether fn is called with one positional argument (LightGBM's
    ``callback(env)``) rather than two (``callback(round, results)``)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to read: the plain form
        return False

    def binds(*args) -> bool:
        try:
            signature.bind(*args)
            return True
        except TypeError:
            return False

    return binds(None) and not binds(None, None)


def _class_names(obj) -> set[tuple[str, str]]:
    return {(c.__module__.split(".")[0], c.__name__) for c in type(obj).__mro__}


def _is_reset_parameter(cb) -> bool:
    """Whether cb is LightGBM's reset_parameter callback."""
    return ("lightgbm", "_ResetParameterCallback") in _class_names(cb)


def _is_lightgbm_early_stop(exc: BaseException) -> bool:
    return (isinstance(exc, _callback.EarlyStopException)
            or ("lightgbm", "EarlyStopException") in _class_names(exc))


# optuna's pruning callback for XGBoost, which tells train() from cv() by
# whether the model is an xgboost.Booster.
_OPTUNA_PRUNING = {("optuna_integration", "XGBoostPruningCallback"),
                   ("optuna", "XGBoostPruningCallback")}


def _from_xgboost(cb):
    """XGBoost's own EarlyStopping as gpulayer's (XGBoost's checks that the
    model is an xgboost.Booster); other objects as they are."""
    if type(cb).__module__ == "xgboost.callback" and type(cb).__name__ == "EarlyStopping":
        return _callback.EarlyStopping(
            rounds=cb.rounds, metric_name=cb.metric_name, data_name=cb.data,
            maximize=cb.maximize, save_best=cb.save_best,
            min_delta=getattr(cb, "_min_delta", 0.0))
    return cb


class _CallbackRunner:
    """The callbacks given to train(), each called in its own protocol:
    plain functions ``callback(round, results)``, XGBoost's callback objects
    (``after_iteration`` and the rest) and LightGBM's functions of one
    ``env``. LightGBM's are called together, ordered by their ``order``
    attribute as LightGBM orders them, where the first of them is in the
    list."""

    def __init__(self, callbacks: Sequence[Any], params: Mapping[str, Any]):
        self.entries: list[tuple[str, Any]] = []
        lightgbm: list[Any] = []
        for cb in callbacks:
            if callable(getattr(cb, "after_iteration", None)):
                self.entries.append(("xgboost", _from_xgboost(cb)))
            elif callable(cb):
                if _takes_one_argument(cb):
                    if not lightgbm:
                        self.entries.append(("lightgbm", lightgbm))
                    lightgbm.append(cb)
                else:
                    self.entries.append(("plain", cb))
            else:
                raise TypeError(
                    "callbacks must be functions callback(round, results) or "
                    "callback(env) (LightGBM's), or objects with after_iteration "
                    f"(XGBoost's TrainingCallback); got {type(cb).__name__}")
        n = len(lightgbm)
        order = {id(cb): getattr(cb, "order", i - n) for i, cb in enumerate(lightgbm)}
        lightgbm.sort(key=lambda cb: order[id(cb)])
        self.lightgbm_before = [cb for cb in lightgbm if getattr(cb, "before_iteration", False)]
        self.lightgbm_after = [cb for cb in lightgbm
                               if not getattr(cb, "before_iteration", False)]
        self.objects = [cb for kind, cb in self.entries if kind == "xgboost"]
        self.delegated: set[int] = set()  # EarlyStopping left to train's own
        self.params = dict(params)
        self.evals_log: dict = collections.OrderedDict()
        self.model: Booster | None = None
        self.first = 0
        self.rounds = 0
        self.maximize: bool | None = None
        self._directions: dict[str, bool] = {}

    def steps_rounds(self) -> bool:
        """Whether a callback changes the learning rate between rounds, which
        needs training one round at a time."""
        return any(("xgboost", "LearningRateScheduler") in _class_names(cb)
                   or isinstance(cb, _callback.LearningRateScheduler)
                   for cb in self.objects) or any(
            _is_reset_parameter(cb) for cb in self.lightgbm_before)

    def _higher_better(self, metric: str) -> bool:
        if self.maximize is not None:
            return self.maximize
        if metric not in self._directions:
            self._directions[metric] = _is_maximize(metric)
        return self._directions[metric]

    def _env(self, iteration: int, results: list[EvalResult] | None):
        entries = None if results is None else [
            _callback.CallbackEvalResult(r.data_name, r.metric_name, r.value,
                                         self._higher_better(r.metric_name))
            for r in results]
        return _callback.CallbackEnv(self.model, self.params, iteration, self.first,
                                     self.first + self.rounds, entries)

    def _run_lightgbm(self, group: list[Any], env) -> bool:
        try:
            for cb in group:
                # reset_parameter sets the parameters of the rounds to come,
                # which round by round training then applies.
                cb(env._replace(model=_callback._ResetTarget(self.model.set_params))
                   if _is_reset_parameter(cb) else env)
        except Exception as exc:
            if not _is_lightgbm_early_stop(exc):
                raise
            self.model.best_iteration = int(exc.best_iteration)
            return True
        return False

    def before_training(self, model: Booster) -> Booster:
        for cb in self.objects:
            before = getattr(cb, "before_training", None)
            if before is not None:
                model = before(model)
                if model is not self.model:
                    raise TypeError(f"{type(cb).__name__}.before_training must return "
                                    "the model it was given")
                if _class_names(cb) & _OPTUNA_PRUNING and getattr(cb, "_is_cv", False):
                    cb._is_cv = False  # it takes a model not xgboost's for cv's
        return model

    def before_round(self, epoch: int) -> bool:
        stop = False
        for cb in self.objects:
            before = getattr(cb, "before_iteration", None)
            if before is not None:
                stop = bool(before(self.model, epoch, self.evals_log)) or stop
        if self.lightgbm_before:
            stop = self._run_lightgbm(self.lightgbm_before,
                                      self._env(self.first + epoch, None)) or stop
        return stop

    def after_round(self, round_index: int, results: list[EvalResult]) -> bool:
        epoch = round_index - self.first
        if self.model._training is not None:
            self.model._training.rounds = round_index + 1
        if self.objects:
            for r in results:
                self.evals_log.setdefault(r.data_name, collections.OrderedDict()).setdefault(
                    r.metric_name, []).append(r.value)
        stop = False
        for kind, cb in self.entries:
            if kind == "plain":
                stop = bool(cb(round_index, results)) or stop
            elif kind == "xgboost":
                if id(cb) not in self.delegated:
                    stop = bool(cb.after_iteration(self.model, epoch, self.evals_log)) or stop
            elif self.lightgbm_after:
                stop = self._run_lightgbm(self.lightgbm_after,
                                          self._env(round_index, results)) or stop
        if not stop and epoch + 1 < self.rounds:
            stop = self.before_round(epoch + 1)
        return stop

    def after_training(self, model: Booster) -> Booster:
        for cb in self.objects:
            after = getattr(cb, "after_training", None)
            if after is not None:
                model = after(model)
                if not isinstance(model, Booster):
                    raise TypeError(f"{type(cb).__name__}.after_training must return "
                                    f"a gpulayer.Booster, got {type(model).__name__}")
        return model


def _train_round_by_round(booster: Booster, init: Booster | None, dtrain: Dataset,
                          evals: list, eval_handles, eval_names, rounds: int,
                          objective, metric, reporter: _RoundReporter,
                          guard: _InterruptGuard):
    """Trains one round per run of the C library, each continuing the model
    of the last, so that parameters a callback sets after a round (the
    learning rate) apply to the next. Returns the first error, or None."""
    lib = _lib.get()
    source = init
    training = booster._training
    assert training is not None
    reporter.deferred = True
    for _ in range(rounds):
        handle = c_void_p()
        _lib.call("gpulayer_booster_create", byref(handle))
        try:
            for key, value in booster._params:
                _lib.call("gpulayer_booster_set_param", handle, _lib.encode(key),
                          _lib.encode(value))
            _lib.call("gpulayer_booster_set_param", handle, b"num_round", b"1")
            if source is not None:
                _lib.call("gpulayer_booster_set_init_model", handle, source.handle)
            if objective is not None:
                _lib.call("gpulayer_booster_set_objective_callback", handle,
                          objective.c_callback, None)
            if metric is not None:
                _lib.call("gpulayer_booster_set_eval_callback", handle, metric.c_callback,
                          None)
            reporter.pending = None
            status = lib.gpulayer_booster_train(
                handle, dtrain.handle, eval_handles if evals else None,
                eval_names if evals else None, len(evals), reporter.c_callback, None)
            error = error_for_status(status, _lib.last_error()) if status else None
        except BaseException:
            lib.gpulayer_booster_free(handle)
            raise
        if error is not None or reporter.pending is None:
            lib.gpulayer_booster_free(handle)
            return error
        booster._replace_handle(handle)  # the booster's parameters, num_round included
        source = booster
        training.has_trees = True
        stop = reporter.round_done(*reporter.pending)
        if stop or guard.interrupted:
            break
    return None


def _lightgbm_verbosity(params: dict) -> None:
    """LightGBM's ``verbose`` (an alias of its ``verbosity``: < 0 fatal
    errors only, 0 warnings, 1 information, > 1 debugging) as the
    library's ``verbosity`` (0 silent, 1 warnings, 2 information, 3
    debugging)."""
    if "verbose" not in params:
        return
    value = params.pop("verbose")
    if "verbosity" in params or value is None:
        return
    level = int(value)
    params["verbosity"] = 0 if level < 0 else min(level + 1, 3)


def _lightgbm_evals(dtrain: Dataset, valid_sets, valid_names) -> list[tuple[Dataset, str]]:
    """LightGBM's valid_sets and valid_names as evals: a set that is the
    training set itself is named "training" (or its valid_names entry),
    the others "valid_<i>" unless valid_names names them."""
    if isinstance(valid_sets, Dataset):
        valid_sets = [valid_sets]
    valid_sets = list(valid_sets)
    if valid_names is not None:
        valid_names = [valid_names] if isinstance(valid_names, str) else list(valid_names)
    evals = []
    for i, data in enumerate(valid_sets):
        if not isinstance(data, Dataset):
            raise TypeError(f"valid_sets[{i}] should be a gpulayer.Dataset, got "
                            f"{type(data).__name__}")
        if valid_names is not None and i < len(valid_names):
            name = valid_names[i]
        elif data is dtrain:
            name = _callback.TRAINING_SET_NAME
        else:
            name = f"valid_{i}"
        evals.append((data, name))
    return evals


def _align_eval_classes(dtrain: Dataset, evals) -> None:
    """Number the class names of evaluation sets as the training data's: a
    set made from its own class names (Dataset(X, label=names)) holds only
    the classes present in it, so its codes are renumbered to the training
    data's classes, as the command reads a validation file with them. A
    name the training data lack stays an error of the library."""
    classes = dtrain.label_classes
    if classes is None:
        return
    index = {name: k for k, name in enumerate(classes)}
    for data, _ in evals:
        own = data.label_classes
        if own is None or own == classes or not all(n in index for n in own):
            continue
        codes = np.asarray([index[n] for n in own], dtype=np.float32)
        labels = codes[data.get_label().astype(np.int64)]
        data.set_label(labels)  # numbers: forgets the names
        data.set_label_classes(classes)


def train(
    params: Mapping[str, Any],
    dtrain: Dataset | None = None,
    num_boost_round: int | None = None,
    evals: Iterable[tuple[Dataset, str]] = (),
    early_stopping_rounds: int | None = None,
    callbacks: Sequence[Any] | None = (),
    evals_result: dict | None = None,
    verbose_eval: bool | int = False,
    distributed: bool | str = False,
    obj: Objective | None = None,
    custom_metric: Metric | None = None,
    maximize: bool | None = None,
    xgb_model: Booster | str | os.PathLike | None = None,
    init_model: Booster | str | os.PathLike | None = None,
    progress_bar: bool | None = None,
    valid_sets: Dataset | Sequence[Dataset] | None = None,
    valid_names: str | Sequence[str] | None = None,
    train_set: Dataset | None = None,
    keep_training_booster: bool = False,
) -> Booster:
    """Train a model.

    Parameters
    ----------
    params : dict
        Training parameters with the C library's (XGBoost's) names, e.g.
        ``{"objective": "binary:logistic", "eta": 0.1, "max_depth": 6,
        "eval_metric": ["logloss", "auc"]}``. ``params["objective"]`` is
        one of the objectives below, or a function as ``obj`` takes
        (LightGBM's way of giving a custom objective).
    dtrain, train_set : Dataset
        Training data with labels (``train_set`` is LightGBM's name).
    num_boost_round : int, optional
        Boosting rounds; by default ``params["num_round"]`` or the library's
        default (10, as XGBoost's; LightGBM's default is 100).
    evals : list of (Dataset, name)
        Evaluation sets, reported after every round. Early stopping watches
        the last metric of the last set.
    valid_sets, valid_names : LightGBM's way of giving the evaluation sets
        A Dataset or a list of them, after ``evals``, named by
        ``valid_names`` or else, as LightGBM names them, ``"training"`` for
        ``dtrain`` itself and ``"valid_0"``, ``"valid_1"``, ... by
        position. LightGBM's ``params["verbose"]`` is taken as
        ``verbosity``.
    keep_training_booster : bool
        LightGBM's; accepted and ignored (the booster returned can always
        be trained on and predicted with).
    early_stopping_rounds : int, optional
        Stop when that metric has not improved for this many rounds; the
        model then predicts with rounds up to the best one
        (``booster.best_iteration``).
    callbacks : list
        Called after every round, in list order; any of three kinds, mixed:

        - an object with an ``after_iteration`` method: XGBoost's protocol
          (:class:`gpulayer.callback.TrainingCallback`, XGBoost's own
          ``TrainingCallback`` subclasses, optuna's
          ``XGBoostPruningCallback``). ``before_training(model)`` first,
          ``before_iteration(model, epoch, evals_log)`` before each round,
          ``after_iteration`` after it, ``after_training(model)`` last,
          whose return is what ``train`` returns. ``model`` is the booster
          being trained; ``epoch`` counts from 0 in this call; ``evals_log``
          is ``{data_name: {metric_name: [values]}}`` so far. While the C
          library trains, the booster reports its rounds done
          (``num_boosted_rounds``) and keeps the ``best_iteration`` and
          ``best_score`` set on it for when training returns, but has no
          trees yet (predict, save and slicing raise NotImplementedError)
          and takes no parameter. ``xgboost.callback.EarlyStopping`` is
          taken as :class:`gpulayer.callback.EarlyStopping`.
        - a function of one positional argument: LightGBM's
          (``lgb.early_stopping``, ``lgb.log_evaluation``,
          ``lgb.record_evaluation``), called with a
          :class:`gpulayer.callback.CallbackEnv`; LightGBM's run together,
          ordered by their ``order`` attribute, where the first one is in
          the list. ``lightgbm.callback.EarlyStopException`` stops training
          with its ``best_iteration``. ``lgb.reset_parameter`` sets its
          parameters before each round, which train() then trains one at
          a time.
        - any other callable: ``callback(round, results)``, with ``results``
          a list of :class:`EvalResult` and ``round`` counted on from the
          rounds of a model training continues.

        The kind of a callable is told by its signature
        (``inspect.signature``): one that binds one positional argument
        but not two is LightGBM's; any other, or one whose signature
        cannot be read, is called as ``callback(round, results)``.
        A True return stops training after the round as early stopping
        does; a callback that raises stops training and the exception
        propagates from ``train``. Every callback is called every round,
        also after one asked to stop.

        :class:`gpulayer.callback.EarlyStopping` with the defaults of
        ``metric_name``, ``data_name`` and ``min_delta`` is this function's
        ``early_stopping_rounds`` (decided by the C library; with both,
        the smaller count); otherwise it decides after every round by
        XGBoost's rule. A :class:`gpulayer.callback.LearningRateScheduler`
        (or XGBoost's) makes ``train`` train one round per run of the C
        library, each continuing the last, so that the rate it sets
        applies to the next round; that re-bins the data and recomputes
        the evaluation margins every round (slower), and is not done in
        distributed training.
    evals_result : dict, optional
        Filled with the history: ``{name: {metric: [value per round]}}``.
    verbose_eval : bool or int
        Print the evaluation results every round (True) or every n rounds
        (rounds 0, n, 2n, ... and the last one), on stdout as XGBoost does:
        ``[0]``, then ``valid-logloss:0.69315`` for each metric of each
        evaluation set, separated by tabs.
    distributed : bool or "auto"
        Train across the ranks of an MPI job (see :mod:`gpulayer.distributed`):
        each rank passes its own rows as ``dtrain`` (rank order is row
        order) and the same ``evals``, and every rank gets the model one
        process would train on all the rows. The job is joined if it was
        not (:func:`gpulayer.distributed.init`); ``nthread`` defaults to the
        rank's share of its host's cores. ``"auto"``: when started by an MPI
        launcher. Needs a library built with MPI.
    obj : callable, optional
        A custom objective, as XGBoost's: ``obj(preds, dtrain) -> (grad,
        hess)``, called at the start of every round with the raw margins
        before the round (float64, shape ``(rows,)`` for one output,
        ``(rows, outputs)`` otherwise) and the training Dataset. ``grad``
        and ``hess`` are the first and second derivatives of the loss per
        row, weights applied, of the same shape (or flat, row-major).
        The objective parameter still names the link of the predictions
        and the default metric; without ``base_score`` the base score is
        0.5, as in XGBoost. A wrong shape, a NaN or infinite value or a
        negative hessian stops training with an error naming the round.
        Trains on the CPU and CUDA, in one process.
    custom_metric : callable, optional
        ``custom_metric(preds, dataset) -> (name, value)`` or a list of such
        pairs, called for each evaluation set after every round; ``preds``
        are the predictions (probabilities, values; raw margins when
        ``obj`` is given), shaped as for ``obj``. Its figures follow each
        set's own metrics in the results and ``evals_result``, so early
        stopping watches the custom metric (the last one it returns).
    maximize : bool, optional
        Whether early stopping looks for the largest value of the metric
        it watches. By default: for names that start with auc, aucpr, map,
        ndcg or pre, mape excepted (XGBoost's rule); the library's own
        metrics know their direction.
    xgb_model, init_model : Booster or path, optional
        Continue training this model (XGBoost's and LightGBM's names): its
        cuts, base score and trees are kept and ``num_boost_round`` rounds
        are added, numbered on from its own, so that 50 rounds and then 50
        more give the same model as 100 in one go (same data and
        parameters). The data must have the model's features, and the
        objective must be the model's. The given booster is not changed.
    progress_bar : bool, optional
        Show a bar with the rounds done, the time spent and the time left:
        tqdm's (``tqdm.auto``, a widget in a notebook) when tqdm is
        installed, else one line on stderr rewritten after each round. By
        default (None) it is shown when ``verbose_eval`` is off, there are
        at least 100 rounds and stderr is a terminal or this runs in a
        Jupyter notebook with tqdm installed; True or False force it.

    Objectives (``params["objective"]``), with their parameters:

    - ``reg:squarederror`` (default), ``reg:absoluteerror`` (leaves refit
      to the median of their residuals), ``reg:squaredlogerror`` (labels
      > -1), ``reg:pseudohubererror`` (``huber_slope``, default 1),
      ``reg:quantileerror`` (``quantile_alpha``, default 0.5: a number, or
      a list such as ``[0.1, 0.5, 0.9]`` that trains one output per
      quantile, predicted as ``(rows, quantiles)``; leaves refit to the
      quantile of their residuals), ``reg:expectileerror``
      (``expectile_alpha``, default 0.5, a number or a list as
      ``quantile_alpha``: asymmetric squared error; the outputs of a list
      are chained as XGBoost's so that they never cross)
    - ``reg:logistic`` (values in [0, 1]), ``binary:logistic``
      (probability), ``binary:logitraw`` (margin), ``binary:hinge``
      (0/1 prediction)
    - ``survival:cox`` (labels are times, negative for a censored row;
      predicts the hazard ratio ``exp(margin)``)
    - ``count:poisson`` (``max_delta_step``, default 0.7), ``reg:gamma``
      (labels > 0), ``reg:tweedie`` (``tweedie_variance_power`` in
      [1, 2), default 1.5): predictions are exp(margin)
    - ``multi:softprob`` (class probabilities) and ``multi:softmax`` (class
      index), with ``num_class``

    The base score is estimated as XGBoost does for each objective unless
    ``base_score`` is given.

    Called LightGBM's way (``train_set``, ``valid_sets``, a LightGBM
    objective name such as ``"regression"`` or ``"binary"``, or ``metric``),
    the parameters not given take LightGBM's defaults where they differ
    from XGBoost's (:data:`gpulayer.params.LIGHTGBM_DEFAULTS`): leaf-wise
    growth (``grow_policy="lossguide"``) to 31 leaves with no depth
    limit, learning rate 0.1, ``lambda`` 0, ``min_child_weight`` 1e-3;
    LightGBM's ``max_depth=-1`` is no limit.

    Ctrl-C during training stops it at the end of the current round and
    raises KeyboardInterrupt.
    """
    if train_set is not None:
        if dtrain is not None:
            raise ValueError("two training sets: dtrain and train_set")
        dtrain = train_set
    if not isinstance(dtrain, Dataset):
        raise TypeError("dtrain must be a gpulayer.Dataset")
    evals = list(evals)
    if valid_sets is not None:
        evals += _lightgbm_evals(dtrain, valid_sets, valid_names)
    for pair in evals:
        if not (isinstance(pair, tuple) and len(pair) == 2
                and isinstance(pair[0], Dataset)):
            raise TypeError("evals must be a list of (Dataset, name) pairs")
    _align_eval_classes(dtrain, evals)
    if distributed == "auto":
        distributed = _distributed.is_launched()
    elif not isinstance(distributed, bool):
        raise ValueError(f"distributed must be True, False or 'auto', got {distributed!r}")
    lightgbm_call = (train_set is not None or valid_sets is not None
                     or is_lightgbm_params(params))
    params = dict(params)
    if lightgbm_call:
        params = with_lightgbm_defaults(params)
    _lightgbm_verbosity(params)
    if params.get("interaction_constraints") is not None:  # names need the data's
        params["interaction_constraints"] = interaction_text(
            params["interaction_constraints"], dtrain.feature_names)
    if params.get("monotone_constraints") is not None:
        params["monotone_constraints"] = monotone_text(
            params["monotone_constraints"], dtrain.feature_names)
    if callable(params.get("objective")):
        if obj is not None:
            raise ValueError("two custom objectives: params['objective'] and obj")
        obj = params.pop("objective")
    if obj is not None and not callable(obj):
        raise TypeError(f"obj must be a function, got {type(obj).__name__}")
    if custom_metric is not None and not callable(custom_metric):
        raise TypeError(f"custom_metric must be a function, got {type(custom_metric).__name__}")
    if distributed and obj is not None:
        raise ValueError("a custom objective cannot be used in distributed training: "
                         "train in one process")
    if xgb_model is not None and init_model is not None:
        raise ValueError("two initial models: xgb_model and init_model")
    init = xgb_model if xgb_model is not None else init_model
    if init is not None and not isinstance(init, Booster):
        init = Booster(model_file=init)
    if distributed:
        _distributed.init()
    booster = Booster(params)
    # The training set's name among the evaluation sets, which LightGBM's
    # early stopping does not watch.
    booster._train_data_name = next(
        (name for data, name in evals if data is dtrain), _callback.TRAINING_SET_NAME)
    if init is not None:
        _lib.call("gpulayer_booster_set_init_model", booster.handle, init.handle)
    if distributed and "nthread" not in params:
        booster.set_param("nthread", _distributed.default_threads())
    if num_boost_round is not None:
        booster.set_param("num_round", int(num_boost_round))
    if early_stopping_rounds is None and "early_stopping_rounds" in params:
        early_stopping_rounds = params["early_stopping_rounds"]
    runner = _CallbackRunner(callbacks or (), params)
    stepwise = runner.steps_rounds()
    if stepwise and distributed:
        raise NotImplementedError("LearningRateScheduler trains round by round, which "
                                  "distributed training does not do")
    # EarlyStopping objects that ask for train's own rule (the last metric
    # of the last set, no min_delta) are decided by it, once.
    for cb in runner.objects:
        if (type(cb) is _callback.EarlyStopping and cb.rounds > 0 and evals
                and cb.min_delta == 0 and cb.metric_name is None
                and cb.data_name in (None, evals[-1][1])
                and (cb.maximize is None or maximize is None or cb.maximize == maximize)):
            runner.delegated.add(id(cb))
            if early_stopping_rounds is None or int(early_stopping_rounds) <= 0:
                early_stopping_rounds = cb.rounds
            early_stopping_rounds = min(int(early_stopping_rounds), cb.rounds)
            if cb.maximize is not None:
                maximize = cb.maximize
    runner.maximize = maximize
    # The C library stops on its own metrics; a custom metric or an
    # explicit direction is watched here instead, and so is early stopping
    # over round by round training.
    stopper = None
    if early_stopping_rounds is not None and int(early_stopping_rounds) > 0 and (
            custom_metric is not None or maximize is not None or stepwise):
        if not evals:
            raise ValueError("early_stopping_rounds needs at least one evaluation set")
        stopper = _EarlyStopping(int(early_stopping_rounds), maximize)
        booster.set_param("early_stopping_rounds", 0)
    elif early_stopping_rounds is not None:
        booster.set_param("early_stopping_rounds", int(early_stopping_rounds))
    objective = _CustomObjective(obj, dtrain) if obj is not None else None
    metric = (_CustomMetric(custom_metric, evals, raw=obj is not None)
              if custom_metric is not None and evals else None)
    lib = _lib.get()
    if objective is not None:
        _lib.call("gpulayer_booster_set_objective_callback", booster.handle,
                  objective.c_callback, None)
    if metric is not None:
        _lib.call("gpulayer_booster_set_eval_callback", booster.handle, metric.c_callback,
                  None)

    eval_handles = (c_void_p * max(len(evals), 1))(*[d.handle for d, _ in evals])
    eval_names = _lib.string_array([name for _, name in evals])
    verbose = int(verbose_eval)  # True -> every round
    rounds = int(booster.get_param("num_round"))
    progress = (make_progress_bar(rounds)
                if wants_progress_bar(progress_bar, rounds, verbose) else None)

    first = init.num_rounds if init is not None else 0
    runner.model, runner.first, runner.rounds = booster, first, rounds
    training = _Training(first, params_allowed=stepwise)
    booster._training = training
    try:
        with _InterruptGuard() as guard:
            reporter = _RoundReporter(runner, evals_result, verbose, guard, metric, stopper,
                                      progress)
            try:
                runner.before_training(booster)
                skip = rounds > 0 and runner.before_round(0)
                if skip:  # stopped before the first round: the initial model
                    error = None
                    if init is not None:
                        clone = init.copy()
                        handle, clone._handle = clone._handle, c_void_p()
                        booster._replace_handle(handle)
                elif stepwise:
                    error = _train_round_by_round(
                        booster, init, dtrain, evals, eval_handles, eval_names, rounds,
                        objective, metric, reporter, guard)
                else:
                    train_fn = (lib.gpulayer_booster_train_distributed if distributed
                                else lib.gpulayer_booster_train)
                    status = train_fn(
                        booster.handle,
                        dtrain.handle,
                        eval_handles if evals else None,
                        eval_names if evals else None,
                        len(evals),
                        reporter.c_callback,
                        None,
                    )
                    # The last error is per thread: read it here, right after the call.
                    error = error_for_status(status, _lib.last_error()) if status else None
            finally:
                # The functions are the caller's: the booster keeps no reference.
                if objective is not None:
                    lib.gpulayer_booster_set_objective_callback(
                        booster.handle, _lib.OBJECTIVE_CALLBACK(), None)
                if metric is not None:
                    lib.gpulayer_booster_set_eval_callback(booster.handle,
                                                           _lib.EVAL_CALLBACK(), None)
                if progress is not None:
                    progress.close()
    finally:
        booster._training = None
    if guard.interrupted:
        raise KeyboardInterrupt
    for part in (objective, metric, reporter):
        if part is not None and part.error is not None:
            raise part.error
    if error is not None:
        raise error
    reporter.print_unprinted()
    if stopper is not None and stopper.best_round >= 0:
        _lib.call("gpulayer_booster_set_best_round", booster.handle, stopper.best_round)
    if init is not None:
        booster.set_attr(**{k: v for k, v in init._attrs.items() if k != "best_score"})
    if training.best_set:  # a callback's early stopping
        booster.best_iteration = training.best_iteration
    best = booster.best_iteration
    if best is not None and best in reporter.watched and not training.best_score_set:
        booster.set_attr(best_score=repr(reporter.watched[best]))
    return runner.after_training(booster)

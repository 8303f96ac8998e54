"""Training callbacks with XGBoost's protocol and names:
:class:`TrainingCallback`, :class:`EarlyStopping`,
:class:`EvaluationMonitor` and :class:`LearningRateScheduler`, for
``gpulayer.train(..., callbacks=[...])``.

:func:`gpulayer.train` also takes, in the same list, XGBoost's own
callback objects (anything with an ``after_iteration`` method, such as a
subclass of ``xgboost.callback.TrainingCallback``), LightGBM's callback
functions (``lgb.early_stopping``, ``lgb.log_evaluation``,
``lgb.record_evaluation`` or a function of one argument, given a
:class:`CallbackEnv`), and plain functions ``callback(round, results)``;
its docstring says how each is called.

:func:`early_stopping`, :func:`log_evaluation` and
:func:`record_evaluation` are LightGBM's callbacks of those names, so
that scripts written for LightGBM run without it (``gpulayer.early_stopping``
and the others at the package's top level).
"""

from __future__ import annotations

import collections
import collections.abc
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Union

import numpy

__all__ = [
    "TrainingCallback",
    "EarlyStopping",
    "EvaluationMonitor",
    "LearningRateScheduler",
    "CallbackEnv",
    "CallbackEvalResult",
    "EarlyStopException",
    "early_stopping",
    "log_evaluation",
    "record_evaluation",
]

# {data_name: {metric_name: [value per round]}}, as XGBoost's.
EvalsLog = Dict[str, Dict[str, List[float]]]


class TrainingCallback:
    """Base of training callbacks, with XGBoost's methods. Each method gets
    the :class:`gpulayer.Booster` being trained; those of the rounds
    (``before_iteration`` and ``after_iteration``) also get ``epoch``, the
    round counted from 0 in this call to ``train`` (not counting the rounds
    of a model training continues), and ``evals_log``, the evaluation
    history of this call, ``{data_name: {metric_name: [values]}}``. They
    return True to stop training after the round (``before_iteration``:
    before it)."""

    def __init__(self) -> None:
        pass

    def before_training(self, model):
        """Run before training starts; returns the model."""
        return model

    def after_training(self, model):
        """Run after training; returns the model ``train`` returns."""
        return model

    def before_iteration(self, model, epoch: int, evals_log: EvalsLog) -> bool:
        """Run before each round; True stops training."""
        return False

    def after_iteration(self, model, epoch: int, evals_log: EvalsLog) -> bool:
        """Run after each round; True stops training."""
        return False


# XGBoost's rule for a metric's direction when maximize is not given, and
# LightGBM's average_precision, which XGBoost does not have.
_MAXIMIZE_PREFIXES = ("auc", "aucpr", "pre", "pre@", "map", "ndcg",
                      "auc@", "aucpr@", "map@", "ndcg@", "average_precision")


def _xgboost_maximize(metric: str) -> bool:
    return metric != "mape" and any(metric.startswith(p) for p in _MAXIMIZE_PREFIXES)


def _score(value) -> float:
    """A round's figure: in cross-validation (mean, std), the mean."""
    return value[0] if isinstance(value, tuple) else value


class EarlyStopping(TrainingCallback):
    """Stop training when a metric has not improved for ``rounds`` rounds,
    as XGBoost's ``EarlyStopping``.

    Parameters
    ----------
    rounds : int
        Rounds without improvement before training stops.
    metric_name, data_name : str, optional
        The metric and evaluation set watched; by default the last metric
        of the last evaluation set.
    maximize : bool, optional
        Whether larger is better; by default by the metric's name
        (XGBoost's rule: names starting with auc, aucpr, pre, map or ndcg,
        mape excepted).
    save_best : bool
        Return the model cut at the best round (``bst[:best + 1]``) rather
        than the whole model whose predictions stop at the best round.
        Not for :func:`gpulayer.cv`, which returns no model (ValueError,
        as XGBoost).
    min_delta : float
        A score is an improvement when better than the best by more than
        this.

    The booster's ``best_iteration`` and ``best_score`` are set as
    XGBoost sets them. In :func:`gpulayer.cv` the history holds (mean,
    std) pairs over the folds, and the mean is watched. When neither ``metric_name``, ``data_name`` (other
    than the last set's name) nor ``min_delta`` is given, :func:`train`
    hands the decision to its own early stopping (``early_stopping_rounds``,
    the same rule, decided by the C library); otherwise this callback
    decides it after every round.
    """

    def __init__(self, rounds: int, metric_name: Optional[str] = None,
                 data_name: Optional[str] = None, maximize: Optional[bool] = None,
                 save_best: Optional[bool] = False, min_delta: float = 0.0) -> None:
        if min_delta < 0:
            raise ValueError("min_delta must be greater or equal to 0.")
        self.rounds = int(rounds)
        self.metric_name = metric_name
        self.data = data_name
        self.maximize = maximize
        self.save_best = save_best
        self._min_delta = float(min_delta)
        self.stopping_history: EvalsLog = {}
        self.best_scores: dict = {}
        self.current_rounds = 0
        self.starting_round = 0
        super().__init__()

    @property
    def data_name(self) -> Optional[str]:
        return self.data

    @property
    def min_delta(self) -> float:
        return self._min_delta

    def before_training(self, model):
        self.starting_round = model.num_boosted_rounds()
        if self.save_best and hasattr(model, "cvfolds"):
            raise ValueError("`save_best` is not applicable to the `cv` function as it "
                             "doesn't return a model.")
        self.stopping_history = {}
        self.best_scores = {}
        self.current_rounds = 0
        return model

    def _improved(self, new, best) -> bool:
        new, best = _score(new), _score(best)
        if self.maximize:
            return bool(numpy.greater(new - self._min_delta, best))
        return bool(numpy.greater(best - self._min_delta, new))

    def after_iteration(self, model, epoch: int, evals_log: EvalsLog) -> bool:
        epoch += self.starting_round  # continued training
        if len(evals_log) < 1:
            raise ValueError("Must have at least 1 validation dataset for early stopping.")
        data_name = self.data if self.data else list(evals_log)[-1]
        if data_name not in evals_log:
            raise ValueError(f"No dataset named: {data_name}")
        data_log = evals_log[data_name]
        metric = self.metric_name if self.metric_name else list(data_log)[-1]
        if metric not in data_log:
            raise ValueError(f"No metric named: {metric}")
        score = data_log[metric][-1]
        if self.maximize is None:
            self.maximize = _xgboost_maximize(metric)
        if not self.stopping_history:  # first round
            self.current_rounds = 0
            self.stopping_history = {data_name: {metric: [score]}}
            self.best_scores = {data_name: {metric: [score]}}
            model.set_attr(best_score=str(_score(score)), best_iteration=str(epoch))
        elif not self._improved(score, self.best_scores[data_name][metric][-1]):
            self.stopping_history[data_name][metric].append(score)
            self.current_rounds += 1
        else:
            self.stopping_history[data_name][metric].append(score)
            self.best_scores[data_name][metric].append(score)
            model.set_attr(best_score=str(_score(score)), best_iteration=str(epoch))
            self.current_rounds = 0
        return self.current_rounds >= self.rounds

    def after_training(self, model):
        if not self.save_best:
            return model
        best_iteration = model.best_iteration
        best_score = model.best_score
        if best_iteration is None or best_score is None:
            return model
        cut = model[: best_iteration + 1]
        cut.best_iteration = best_iteration
        cut.best_score = best_score
        return cut


class EvaluationMonitor(TrainingCallback):
    """Print the evaluation results every ``period`` rounds (and the last
    round), in XGBoost's format: ``[0]\\tvalid-logloss:0.69315``, one tab
    separated ``data-metric:value`` for each metric of each set.
    ``logger`` takes each line (``print`` by default). ``rank``: in
    distributed training, the rank that prints."""

    def __init__(self, rank: int = 0, period: int = 1, show_stdv: bool = False,
                 logger: Optional[Callable[[str], None]] = None) -> None:
        if period <= 0:
            raise ValueError(f"period must be positive, got {period}")
        self.printer_rank = rank
        self.period = period
        self.show_stdv = show_stdv
        self._logger = logger if logger is not None else (
            lambda msg: print(msg.strip(), flush=True))
        self._latest: Optional[str] = None
        super().__init__()

    def _fmt_metric(self, data: str, metric: str, score: float,
                    std: Optional[float]) -> str:
        if std is not None and self.show_stdv:
            return f"\t{data + '-' + metric}:{score:.5f}+{std:.5f}"
        return f"\t{data + '-' + metric}:{score:.5f}"

    @staticmethod
    def _rank() -> int:
        from . import distributed
        try:
            return distributed.rank()
        except Exception:  # not joined, or a library without MPI
            return 0

    def after_iteration(self, model, epoch: int, evals_log: EvalsLog) -> bool:
        if not evals_log:
            return False
        if self._rank() != self.printer_rank:
            return False
        msg = f"[{epoch}]"
        for data, metrics in evals_log.items():
            for metric_name, log in metrics.items():
                last = log[-1]
                score, stdv = (last[0], last[1]) if isinstance(last, tuple) else (last, None)
                msg += self._fmt_metric(data, metric_name, score, stdv)
        msg += "\n"
        if epoch % self.period == 0 or self.period == 1:
            self._logger(msg)
            self._latest = None
        else:
            self._latest = msg
        return False

    def after_training(self, model):
        if self._latest is not None:
            self._logger(self._latest)
            self._latest = None
        return model


class LearningRateScheduler(TrainingCallback):
    """Change the learning rate during training, as XGBoost's
    ``LearningRateScheduler``: ``learning_rates`` is a function of the
    round (``epoch``) or a sequence indexed by it. As in XGBoost, the rate
    is set after round ``epoch`` (``model.set_param("learning_rate",
    learning_rates(epoch))``), so round 0 trains with the parameters' eta
    and round ``epoch + 1`` with ``learning_rates(epoch)``.

    The C library reads the parameters once per training run, so with a
    scheduler :func:`train` trains one round per run, each continuing the
    last (``xgb_model``): the same model as one run when the rate does
    not change, but each round bins the data again and recomputes the
    evaluation sets' margins from every earlier tree, so it is slower, more
    so with many rounds."""

    def __init__(self, learning_rates: Union[Callable[[int], float], Sequence[float]]) -> None:
        if not callable(learning_rates) and not isinstance(
                learning_rates, collections.abc.Sequence):
            raise TypeError("Invalid learning rates, expecting callable or sequence, got: "
                            f"{type(learning_rates)}")
        if callable(learning_rates):
            self.learning_rates = learning_rates
        else:
            rates = list(learning_rates)
            self.learning_rates = lambda epoch: rates[epoch]
        super().__init__()

    def after_iteration(self, model, epoch: int, evals_log: EvalsLog) -> bool:
        model.set_param("learning_rate", self.learning_rates(epoch))
        return False


# ------------------------------------------------------ LightGBM's callbacks

class CallbackEvalResult(NamedTuple):
    """One metric of one evaluation set after one round, as LightGBM's
    ``EvalResult``: it unpacks as the 4-tuple ``(data_name, eval_name,
    value, is_higher_better)`` and has LightGBM 4.7's attribute names."""

    dataset_name: str
    metric_name: str
    metric_value: float
    maximize: bool
    metric_std_dev: Optional[float] = None

    def __len__(self) -> int:
        return 4 if self.metric_std_dev is None else 5

    def __iter__(self):
        for i in range(len(self)):
            yield getattr(self, self._fields[i])

    def is_cv_result(self) -> bool:
        return self.metric_std_dev is not None

    @property
    def is_higher_better(self) -> bool:
        return self.maximize


class _ResetTarget:
    """What LightGBM's ``reset_parameter`` callback sees as ``env.model``:
    its ``boosters`` each take ``reset_parameter(params)``, which here sets
    the parameters for the rounds still to train (the training model's,
    or every fold's in cv)."""

    def __init__(self, apply):
        self.boosters = [self]
        self._apply = apply

    def reset_parameter(self, params) -> "_ResetTarget":
        self._apply(dict(params))
        return self


class CallbackEnv(NamedTuple):
    """What a LightGBM callback gets after (or, for one whose
    ``before_iteration`` attribute is true, before) each round, with
    LightGBM's fields: ``iteration`` counts the rounds of a model training
    continues, from ``begin_iteration`` to ``end_iteration`` (excluded);
    ``evaluation_result_list`` holds :class:`CallbackEvalResult` entries
    (None before a round)."""

    model: Any
    params: Dict[str, Any]
    iteration: int
    begin_iteration: int
    end_iteration: int
    evaluation_result_list: Optional[List[CallbackEvalResult]]


# -------------------------------------- LightGBM's callbacks, without LightGBM

# The name lgb.train gives an evaluation set that is the training set itself.
TRAINING_SET_NAME = "training"


class EarlyStopException(Exception):
    """Raised by a LightGBM callback to stop training: ``best_iteration``
    (0-based) becomes the booster's ``best_iteration``."""

    def __init__(self, best_iteration: int, best_score) -> None:
        super().__init__()
        self.best_iteration = best_iteration
        self.best_score = best_score


def _format_result(result, show_stdv: bool = True) -> str:
    value = f"{result[2]:g}"
    if show_stdv and len(result) > 4 and result[4] is not None:
        value += f" + {result[4]:g}"
    return f"{result[0]}'s {result[1]}: {value}"


class _LogEvaluation:
    def __init__(self, period: int, show_stdv: bool) -> None:
        self.order = 10
        self.before_iteration = False
        self.period = period
        self.show_stdv = show_stdv

    def __call__(self, env: CallbackEnv) -> None:
        if (self.period > 0 and env.evaluation_result_list
                and (env.iteration + 1) % self.period == 0):
            text = "\t".join(_format_result(r, self.show_stdv)
                              for r in env.evaluation_result_list)
            print(f"[{env.iteration + 1}]\t{text}", flush=True)


def log_evaluation(period: int = 1, show_stdv: bool = True) -> _LogEvaluation:
    """LightGBM's ``log_evaluation``: print the evaluation results every
    ``period`` rounds, in LightGBM's format
    (``[10]\tvalid_0's l2: 0.25``)."""
    return _LogEvaluation(period, show_stdv)


class _RecordEvaluation:
    def __init__(self, eval_result: dict) -> None:
        if not isinstance(eval_result, dict):
            raise TypeError("eval_result should be a dictionary")
        self.order = 20
        self.before_iteration = False
        self.eval_result = eval_result

    def __call__(self, env: CallbackEnv) -> None:
        if env.iteration == env.begin_iteration:
            self.eval_result.clear()
        for result in env.evaluation_result_list or ():
            data_name, metric_name, value = result[0], result[1], result[2]
            per_set = self.eval_result.setdefault(data_name, collections.OrderedDict())
            if len(result) > 4 and result[4] is not None:  # cv: mean and stdv
                per_set.setdefault(f"{metric_name}-mean", []).append(value)
                per_set.setdefault(f"{metric_name}-stdv", []).append(result[4])
            else:
                per_set.setdefault(metric_name, []).append(value)


def record_evaluation(eval_result: dict) -> _RecordEvaluation:
    """LightGBM's ``record_evaluation``: fill ``eval_result`` (cleared
    first) with ``{data_name: {metric_name: [value per round]}}``; in
    :func:`gpulayer.cv`, ``{"valid": {"<metric>-mean": [...],
    "<metric>-stdv": [...]}}``."""
    return _RecordEvaluation(eval_result)


class _LightGBMEarlyStopping:
    def __init__(self, stopping_rounds: int, first_metric_only: bool, verbose: bool,
                 min_delta) -> None:
        if not isinstance(stopping_rounds, int):
            raise TypeError("early_stopping_round should be an integer. "
                            f"Got '{type(stopping_rounds).__name__}'")
        self.order = 30
        self.before_iteration = False
        self.enabled = stopping_rounds > 0
        self.stopping_rounds = stopping_rounds
        self.first_metric_only = first_metric_only
        self.verbose = verbose
        self.min_delta = min_delta
        self._reset()

    def _reset(self) -> None:
        self.best_score: List[float] = []
        self.best_iter: List[int] = []
        self.best_score_list: List[Any] = []
        self.maximize: List[bool] = []
        self.deltas: List[float] = []
        self.first_metric = ""

    def _init(self, env: CallbackEnv) -> None:
        results = env.evaluation_result_list
        if not results:
            raise ValueError("For early stopping, at least one dataset and eval metric "
                             "is required for evaluation")
        self.train_name = getattr(env.model, "_train_data_name", TRAINING_SET_NAME)
        if all(r[0] == self.train_name for r in results):
            self.enabled = False
            return
        if self.verbose:
            print("Training until validation scores don't improve for "
                  f"{self.stopping_rounds} rounds", flush=True)
        self._reset()
        n_metrics = len({r[1] for r in results})
        n_sets = len(results) // n_metrics
        if isinstance(self.min_delta, list):
            if not all(d >= 0 for d in self.min_delta):
                raise ValueError("Values for early stopping min_delta must be non-negative.")
            if not self.min_delta:
                deltas = [0.0] * len(results)
            elif len(self.min_delta) == 1:
                deltas = self.min_delta * len(results)
            elif len(self.min_delta) != n_metrics:
                raise ValueError("Must provide a single value for min_delta or as many "
                                 "as metrics.")
            else:
                deltas = self.min_delta * n_sets
        else:
            if self.min_delta < 0:
                raise ValueError("Early stopping min_delta must be non-negative.")
            deltas = [float(self.min_delta)] * len(results)
        self.first_metric = results[0][1]
        for result, delta in zip(results, deltas):
            self.best_iter.append(0)
            self.maximize.append(bool(result[3]))
            self.best_score.append(float("-inf") if result[3] else float("inf"))
            self.deltas.append(float(delta))

    def _better(self, i: int, value: float) -> bool:
        if self.maximize[i]:
            return value > self.best_score[i] + self.deltas[i]
        return value < self.best_score[i] - self.deltas[i]

    def _stop(self, i: int, message: str) -> None:
        if self.verbose:
            text = "\t".join(_format_result(r) for r in self.best_score_list[i])
            print(f"{message}, best iteration is:\n[{self.best_iter[i] + 1}]\t{text}",
                  flush=True)
        raise EarlyStopException(self.best_iter[i], self.best_score_list[i])

    def __call__(self, env: CallbackEnv) -> None:
        if env.iteration == env.begin_iteration:
            self._init(env)
        if not self.enabled:
            return
        results = env.evaluation_result_list or []
        first_time = not self.best_score_list
        for i, result in enumerate(results):
            if first_time or self._better(i, result[2]):
                self.best_score[i] = result[2]
                self.best_iter[i] = env.iteration
                if first_time:
                    self.best_score_list.append(results)
                else:
                    self.best_score_list[i] = results
            if self.first_metric_only and self.first_metric != result[1]:
                continue
            if result[0] == self.train_name:
                continue
            if env.iteration - self.best_iter[i] >= self.stopping_rounds:
                self._stop(i, "Early stopping")
            if env.iteration == env.end_iteration - 1:
                self._stop(i, "Did not meet early stopping")


def early_stopping(stopping_rounds: int, first_metric_only: bool = False,
                   verbose: bool = True, min_delta: Union[float, List[float]] = 0.0):
    """LightGBM's ``early_stopping``: stop when a metric of an evaluation
    set has not improved (by more than ``min_delta``) for
    ``stopping_rounds`` rounds; every metric of every set is watched
    (``first_metric_only``: the first metric only), the training set
    excepted when it is among them. The booster's ``best_iteration`` is
    the best round of the metric that stopped training, 0-based as
    gpulayer's (LightGBM's counts from 1)."""
    return _LightGBMEarlyStopping(stopping_rounds, first_metric_only, verbose, min_delta)

"""Training: :func:`train`, with per-round callbacks, evaluation history,
early stopping, and Ctrl-C that stops training cleanly between rounds."""

from __future__ import annotations

import signal
import threading
from ctypes import c_void_p
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from . import _lib
from . import distributed as _distributed
from .booster import Booster
from .dataset import Dataset
from .errors import error_for_status

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

    def __init__(self, callbacks: Sequence[RoundCallback],
                 history: dict | None, verbose_eval: int,
                 guard: _InterruptGuard):
        self.callbacks = list(callbacks)
        self.history = history
        self.verbose_eval = verbose_eval
        self.guard = guard
        self.error: BaseException | None = None
        # The C function pointer must stay alive while training runs.
        self.c_callback = _lib.ROUND_CALLBACK(self._on_round)

    def _on_round(self, user_data, round_index, results_ptr, num_results) -> int:
        try:
            results = [
                EvalResult(_lib.decode(r.data_name), _lib.decode(r.metric_name),
                           float(r.value))
                for r in (results_ptr[:num_results] if num_results > 0 else [])
            ]
            self._record(round_index, results)
            stop = False
            for callback in self.callbacks:
                stop = bool(callback(round_index, results)) or stop
            if self.guard.interrupted:
                return _INTERRUPT
            return _STOP if stop else _CONTINUE
        except BaseException as exc:  # re-raised by train() once C returns
            self.error = exc
            return _INTERRUPT

    def _record(self, round_index: int, results: list[EvalResult]) -> None:
        if self.history is not None:
            for r in results:
                self.history.setdefault(r.data_name, {}).setdefault(
                    r.metric_name, []).append(r.value)
        if self.verbose_eval and results and round_index % self.verbose_eval == 0:
            text = "\t".join(f"{r.data_name}-{r.metric_name}:{r.value:.5f}"
                             for r in results)
            print(f"[{round_index}]\t{text}", flush=True)


def train(
    params: Mapping[str, Any],
    dtrain: Dataset,
    num_boost_round: int | None = None,
    evals: Iterable[tuple[Dataset, str]] = (),
    early_stopping_rounds: int | None = None,
    callbacks: Sequence[RoundCallback] = (),
    evals_result: dict | None = None,
    verbose_eval: bool | int = False,
    distributed: bool | str = False,
) -> Booster:
    """Train a model.

    Parameters
    ----------
    params : dict
        Training parameters with the C library's (XGBoost's) names, e.g.
        ``{"objective": "binary:logistic", "eta": 0.1, "max_depth": 6,
        "eval_metric": ["logloss", "auc"]}``.
    dtrain : Dataset
        Training data with labels.
    num_boost_round : int, optional
        Boosting rounds; by default ``params["num_round"]`` or the library's
        default (10).
    evals : list of (Dataset, name)
        Evaluation sets, reported after every round. Early stopping watches
        the last metric of the last set.
    early_stopping_rounds : int, optional
        Stop when that metric has not improved for this many rounds; the
        model then predicts with rounds up to the best one
        (``booster.best_iteration``).
    callbacks : list of callables
        Each is called after every round as ``callback(round, results)``,
        with ``results`` a list of :class:`EvalResult`. A callback that
        returns True stops training as early stopping does; one that raises
        stops training and the exception propagates from ``train``.
    evals_result : dict, optional
        Filled with the history: ``{name: {metric: [value per round]}}``.
    verbose_eval : bool or int
        Print the evaluation results every round (True) or every n rounds.
    distributed : bool or "auto"
        Train across the ranks of an MPI job (see :mod:`gpulayer.distributed`):
        each rank passes its own rows as ``dtrain`` (rank order is row
        order) and the same ``evals``, and every rank gets the model one
        process would train on all the rows. The job is joined if it was
        not (:func:`gpulayer.distributed.init`); ``nthread`` defaults to the
        rank's share of its host's cores. ``"auto"``: when started by an MPI
        launcher. Needs a library built with MPI.

    Ctrl-C during training stops it at the end of the current round and
    raises KeyboardInterrupt.
    """
    if not isinstance(dtrain, Dataset):
        raise TypeError("dtrain must be a gpulayer.Dataset")
    evals = list(evals)
    for pair in evals:
        if not (isinstance(pair, tuple) and len(pair) == 2
                and isinstance(pair[0], Dataset)):
            raise TypeError("evals must be a list of (Dataset, name) pairs")
    if distributed == "auto":
        distributed = _distributed.is_launched()
    elif not isinstance(distributed, bool):
        raise ValueError(f"distributed must be True, False or 'auto', got {distributed!r}")
    if distributed:
        _distributed.init()
    booster = Booster(params)
    if distributed and "nthread" not in params:
        booster.set_param("nthread", _distributed.default_threads())
    if num_boost_round is not None:
        booster.set_param("num_round", int(num_boost_round))
    if early_stopping_rounds is not None:
        booster.set_param("early_stopping_rounds", int(early_stopping_rounds))

    eval_handles = (c_void_p * max(len(evals), 1))(*[d.handle for d, _ in evals])
    eval_names = _lib.string_array([name for _, name in evals])
    verbose = int(verbose_eval)  # True -> every round

    with _InterruptGuard() as guard:
        reporter = _RoundReporter(callbacks, evals_result, verbose, guard)
        lib = _lib.get()
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
    if guard.interrupted:
        raise KeyboardInterrupt
    if reporter.error is not None:
        raise reporter.error
    if error is not None:
        raise error
    return booster

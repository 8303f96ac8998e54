"""Cross-validation: :func:`cv`, with the arguments, folds and results of
XGBoost's ``xgboost.cv``."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from .booster import Booster
from .dataset import Dataset
from .errors import InvalidArgumentError
from .params import canonical_names
from .training import EvalResult, Metric, Objective, RoundCallback, _EarlyStopping, train

__all__ = ["cv"]

# With early stopping or callbacks, the folds are trained this many rounds
# at a time at least (see cv's docstring).
_MIN_CHUNK = 10


def cv(
    params: Mapping[str, Any] | Sequence[tuple[str, Any]],
    dtrain: Dataset,
    num_boost_round: int = 10,
    nfold: int = 3,
    stratified: bool = False,
    folds=None,
    metrics: str | Sequence[str] = (),
    obj: Objective | None = None,
    custom_metric: Metric | None = None,
    maximize: bool | None = None,
    early_stopping_rounds: int | None = None,
    as_pandas: bool = True,
    verbose_eval: bool | int | None = None,
    show_stdv: bool = True,
    seed: int = 0,
    callbacks: Sequence[RoundCallback] | None = None,
    shuffle: bool = True,
):
    """Cross-validation, as XGBoost's ``xgboost.cv``.

    The rows of ``dtrain`` are split into folds; for each fold a model is
    trained with :func:`train` on the other folds' rows and evaluated on
    the fold's after every round. The result is, for every round, the mean
    and the standard deviation over the folds of each metric on the
    training rows (``train``) and the held-out rows (``test``).

    Parameters
    ----------
    params : dict or list of (name, value)
        Training parameters, as :func:`train` takes them. A number of
        rounds there (``num_round`` or an alias) is not used:
        ``num_boost_round`` is. ``early_stopping_rounds`` there (or an
        alias) is used when the argument is not given.
    dtrain : Dataset
        The data, made from an array, a DataFrame or a scipy.sparse matrix
        (folds are taken with :meth:`Dataset.slice`; a Dataset read from a
        file cannot be split: make it from ``pandas.read_csv(path)``).
    num_boost_round : int
        Boosting rounds.
    nfold : int
        The number of folds (at least 2, at most the number of rows, or of
        queries for ranking data). Not used when ``folds`` is given.
    stratified : bool
        Split with scikit-learn's ``StratifiedKFold`` (shuffled, seeded by
        ``seed``, as XGBoost does), which keeps each class's share of rows
        in every fold. Not for ranking data.
    folds : scikit-learn splitter or list of (train_index, test_index)
        The folds, overriding ``nfold``, ``stratified`` and ``shuffle``:
        an object with a ``split`` method (``KFold``, ``StratifiedKFold``,
        ``GroupKFold``, ...), called as ``split(X=label, y=label,
        groups=query)`` (``query`` is each row's query for ranking data,
        else None), or one pair of arrays of 0-based row indexes per fold.
    metrics : str or list of str
        Metrics to report, in place of ``params["eval_metric"]``; by
        default that, or the objective's default metric.
    obj, custom_metric : callable, optional
        A custom objective and metric, passed to :func:`train` for each
        fold. The custom metric's figures follow each set's own metrics.
    maximize : bool, optional
        Whether early stopping looks for the largest value; by default as
        :func:`train` decides it for the metric watched.
    early_stopping_rounds : int, optional
        Stop when the mean over the folds of the last metric on ``test``
        has not improved for this many rounds; the results then end at the
        best round (XGBoost's rule). 0 or None: off.
    as_pandas : bool
        Return a pandas DataFrame (when pandas is installed); otherwise a
        dict of lists.
    verbose_eval : bool or int, optional
        Print the results every round (True) or every n rounds (rounds 0,
        n, 2n, ... and the last one) on stdout, as XGBoost does:
        ``[0]\\ttrain-rmse:0.51234+0.00321\\ttest-rmse:...``. None or False:
        nothing.
    show_stdv : bool
        Print the standard deviations with the means (the results always
        have them).
    seed : int
        Seed of the shuffled and stratified folds (XGBoost's folds for the
        same seed, numpy's ``RandomState(seed)``). The training seed is
        ``params["seed"]``.
    callbacks : list of callables, optional
        Called after every round as ``callback(round, results)`` with
        ``results`` a list of :class:`EvalResult` holding the means over
        the folds; one that returns True stops the cross-validation after
        that round. XGBoost's ``TrainingCallback`` objects are not
        supported.
    shuffle : bool
        Shuffle the rows (the queries, for ranking data) before they are
        split into ``nfold`` consecutive folds.

    Returns
    -------
    pandas.DataFrame or dict
        Columns ``train-<metric>-mean``, ``train-<metric>-std``, then the
        same for ``test``, one row per round (metrics in their order).
        Standard deviations are over the folds (population, as numpy's
        ``std``).

    Raises
    ------
    ValueError
        For ``nfold`` out of range, folds that are not pairs of row index
        arrays, indexes out of range, a query split between the training
        and test rows of a fold, or a Dataset with no data to take folds
        from.
    TypeError
        For callbacks that are not functions.

    Notes
    -----
    Folds without an explicit ``folds`` are XGBoost's: the rows (or the
    queries, which stay whole) in a random order drawn from ``seed``, or in
    order with ``shuffle=False``, cut into ``nfold`` nearly equal parts;
    for ranking data each fold keeps whole queries.

    Each fold is trained by :func:`train`, which collects its history
    (``evals_result``); the folds are not trained with their own early
    stopping, since XGBoost stops all folds on the mean over the folds.
    Without early stopping or callbacks each fold trains all its rounds in
    one call. With them, the folds advance together ``max(
    early_stopping_rounds, 10)`` rounds at a time (continued training,
    which gives the model of training in one go); after each step the
    rounds' means are passed, round by round, to the callbacks and to the
    library's early-stopping rule (that of :func:`train`), and the
    cross-validation ends at the first round either stops. So fewer than
    ``max(early_stopping_rounds, 10)`` rounds a fold are trained past the
    stopping round, and callbacks run after each step rather than while
    the folds train.
    """
    if not isinstance(dtrain, Dataset):
        raise TypeError("dtrain must be a gpulayer.Dataset")
    callbacks = list(callbacks or ())
    for callback in callbacks:
        if not callable(callback):
            raise TypeError(
                f"callbacks must be functions callback(round, results) -> stop, as "
                f"train() takes; got {type(callback).__name__} (XGBoost's "
                "TrainingCallback objects are not supported)")
    num_boost_round = int(num_boost_round)
    if num_boost_round < 0:
        raise ValueError(f"num_boost_round must be at least 0, got {num_boost_round}")
    params, early_stopping_rounds = _cv_params(params, metrics, early_stopping_rounds)
    splits = _folds(dtrain, nfold, stratified, folds, seed, shuffle)
    source = dtrain._row_source()
    packs = [_Fold(dtrain._take_rows(source, train_rows), dtrain._take_rows(source, test_rows))
             for train_rows, test_rows in splits]

    stopper = (_EarlyStopping(early_stopping_rounds, maximize)
               if early_stopping_rounds else None)
    step = (max(early_stopping_rounds or 0, _MIN_CHUNK) if stopper or callbacks
            else max(num_boost_round, 1))
    printer = _Printer(verbose_eval, show_stdv)
    results: dict[str, list[float]] = {}
    done, stopped = 0, False
    while done < num_boost_round and not stopped:
        rounds = min(step, num_boost_round - done)
        for fold in packs:
            fold.train(params, rounds, obj, custom_metric)
        for round_index in range(done, done + rounds):
            aggregated = _aggregate([fold.history for fold in packs], round_index)
            for data_name, metric_name, mean, std in aggregated:
                key = f"{data_name}-{metric_name}"
                results.setdefault(f"{key}-mean", []).append(mean)
                results.setdefault(f"{key}-std", []).append(std)
            means = [EvalResult(d, m, mean) for d, m, mean, _ in aggregated]
            stop = False
            for callback in callbacks:
                stop = bool(callback(round_index, means)) or stop
            printer.round(round_index, aggregated)
            if stopper is not None and stopper.update(round_index, means):
                results = {k: v[:stopper.best_round + 1] for k, v in results.items()}
                stop = True
            if stop:
                stopped = True
                break
        done += rounds
    printer.finish()

    if as_pandas:
        try:
            import pandas as pd
        except ImportError:
            return results
        return pd.DataFrame.from_dict(results)
    return results


def _cv_params(params, metrics, early_stopping_rounds) -> tuple[dict, int | None]:
    """The folds' training parameters (metrics in place of eval_metric,
    without a number of rounds or early stopping, which cv does itself)
    and the early-stopping rounds (the argument, else the parameter)."""
    if isinstance(params, Mapping):
        items = list(params.items())
    else:  # XGBoost's list of pairs, where eval_metric may repeat
        items = [tuple(pair) for pair in params]
    names = canonical_names()
    out: dict[str, Any] = {}
    eval_metrics: list = []
    for key, value in items:
        name = names.get(key, key)
        if name == "early_stopping_rounds":
            if early_stopping_rounds is None:
                early_stopping_rounds = value
        elif name == "eval_metric":
            eval_metrics += list(value) if isinstance(value, (list, tuple)) else [value]
        elif name != "num_round":
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
    return out, early_stopping_rounds


class _Fold:
    """One fold: its training and test rows, the model so far and the
    history of its rounds ({"train": {metric: [...]}, "test": {...}})."""

    def __init__(self, dtrain: Dataset, dtest: Dataset):
        self.dtrain = dtrain
        self.dtest = dtest
        self.booster: Booster | None = None
        self.history: dict[str, dict[str, list[float]]] = {}

    def train(self, params: dict, rounds: int, obj, custom_metric) -> None:
        """Train rounds more rounds, continuing the model so far."""
        history: dict = {}
        self.booster = train(params, self.dtrain, rounds,
                             evals=[(self.dtrain, "train"), (self.dtest, "test")],
                             evals_result=history, obj=obj, custom_metric=custom_metric,
                             xgb_model=self.booster, progress_bar=False)
        for data_name, per_metric in history.items():
            for metric_name, values in per_metric.items():
                self.history.setdefault(data_name, {}).setdefault(metric_name, []).extend(
                    values)


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


class _Printer:
    """verbose_eval's lines, as XGBoost's EvaluationMonitor prints them."""

    def __init__(self, verbose_eval, show_stdv: bool):
        self.period = int(verbose_eval) if verbose_eval else 0  # True -> every round
        if self.period < 0:
            raise ValueError(f"verbose_eval must be a bool or a positive int, "
                             f"got {verbose_eval!r}")
        self.show_stdv = show_stdv
        self.unprinted: str | None = None

    def round(self, round_index: int, aggregated) -> None:
        if not self.period or not aggregated:
            return
        line = f"[{round_index}]"
        for data_name, metric_name, mean, std in aggregated:
            line += f"\t{data_name}-{metric_name}:{mean:.5f}"
            if self.show_stdv:
                line += f"+{std:.5f}"
        self.unprinted = line
        if round_index % self.period == 0:
            self.finish()

    def finish(self) -> None:
        """Print the last round's line if its period skipped it."""
        if self.unprinted is not None:
            print(self.unprinted, flush=True)
            self.unprinted = None


def _labels(dataset: Dataset) -> np.ndarray:
    try:
        return dataset.get_label()
    except InvalidArgumentError:
        raise ValueError("cross-validation needs a Dataset with labels") from None


def _folds(dtrain: Dataset, nfold, stratified: bool, folds, seed: int,
           shuffle: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (train rows, test rows) of each fold, checked."""
    rows = dtrain.num_rows
    sizes = dtrain.get_group()
    query = np.repeat(np.arange(sizes.size), sizes) if sizes.size else None
    if folds is not None:
        if hasattr(folds, "split"):
            label = _labels(dtrain)
            splits = list(folds.split(X=label, y=label, groups=query))
        else:
            try:
                splits = list(folds)
            except TypeError:
                raise ValueError("folds must be a scikit-learn splitter (with a split "
                                 "method) or a list of (train_index, test_index) "
                                 f"pairs, got {type(folds).__name__}") from None
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

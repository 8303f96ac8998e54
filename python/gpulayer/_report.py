"""The training report: the HTML page of ``gpulayer train --report``, written
by the library for a booster trained from Python."""

from __future__ import annotations

import os
import shlex
import sys
from ctypes import byref, c_char_p, c_double, c_void_p
from typing import Mapping, Sequence

from . import _lib
from .booster import Booster
from .dataset import Dataset


def report(
    booster: Booster,
    path: str | os.PathLike,
    evals: Sequence[tuple[Dataset, str]] = (),
    evals_result: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
    dtrain: Dataset | None = None,
    *,
    train_seconds: float | None = None,
    model_path: str | os.PathLike | None = None,
    command: str | None = None,
) -> None:
    """Write the training report on ``booster`` to ``path``: one HTML page
    that opens in a browser with no network, the page ``gpulayer train
    --report`` writes (README).

    Parameters
    ----------
    booster : Booster
        The trained model.
    path : str or os.PathLike
        The page to write (atomically: a failure leaves an earlier file as
        it was).
    evals : sequence of (Dataset, str)
        The evaluation sets, as given to :func:`train`; the last one gets
        the validation section (ROC and precision-recall curves, confusion
        matrix and calibration, or residuals; each feature's mean |SHAP
        value|).
    evals_result : dict, optional
        Every round's metrics, as :func:`train` fills its ``evals_result``
        (``{set: {metric: [value a round]}}``): the learning curves.
    dtrain : Dataset, optional
        The training rows: the data summary.
    train_seconds : float, optional
        The training's time, shown with the mean time a round.
    model_path : str or os.PathLike, optional
        Where the model was saved, shown in the summary.
    command : str, optional
        The command line shown; by default this program's (``sys.argv``).
    """
    if not isinstance(booster, Booster):
        raise TypeError(f"booster must be a gpulayer.Booster, not {type(booster).__name__}")
    sets = list(evals)
    for item in sets:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Dataset)):
            raise TypeError("evals must be (Dataset, name) pairs, as train() takes them")
    if dtrain is not None and not isinstance(dtrain, Dataset):
        raise TypeError(f"dtrain must be a gpulayer.Dataset, not {type(dtrain).__name__}")
    series, rounds = [], 0
    for name, metrics in (evals_result or {}).items():
        for metric, values in metrics.items():
            series.append((str(name), str(metric), [float(v) for v in values]))
    if series:
        rounds = len(series[0][2])
        for name, metric, values in series:
            if len(values) != rounds:
                raise ValueError(f"evals_result[{name!r}][{metric!r}] has {len(values)} "
                                 f"values, the first series {rounds}: one a round each")
    if command is None and sys.argv and sys.argv[0]:
        command = shlex.join([os.path.basename(sys.executable) or "python"] + sys.argv)
    keep = []  # the encoded strings live until the call returns

    def text(value):
        raw = _lib.encode(value)
        keep.append(raw)
        return raw

    def strings(values):
        array = (c_char_p * max(len(values), 1))(*[text(v) for v in values])
        keep.append(array)
        return array

    info = _lib.ReportInfo()
    info.command = text(command)
    info.data = text("the training rows" if dtrain is not None else None)
    info.train = dtrain.handle if dtrain is not None else None
    handles = (c_void_p * max(len(sets), 1))(*[d.handle.value for d, _ in sets])
    info.valid = handles
    info.valid_names = strings([name for _, name in sets])
    info.num_valid = len(sets)
    info.model = text(model_path)
    info.train_seconds = -1.0 if train_seconds is None else float(train_seconds)
    info.ranks = 1
    info.num_series = len(series)
    info.num_rounds = rounds
    info.first_round = max(booster.num_boosted_rounds() - rounds, 0) if rounds else 0
    info.series_data = strings([s[0] for s in series])
    info.series_metric = strings([s[1] for s in series])
    flat = [v for r in range(rounds) for s in series for v in (s[2][r],)]
    info.values = (c_double * max(len(flat), 1))(*flat)
    _lib.call("gpulayer_report_write", _lib.encode(path), booster.handle, byref(info))


"""evaluate(): a metric of given predictions, outside training."""

from __future__ import annotations

from ctypes import POINTER, byref, c_double, c_float

import numpy as np

from . import _lib
from .dataset import Dataset


def evaluate(metric: str, predictions, data: Dataset) -> float:
    """The value of ``metric`` (an ``eval_metric`` name: ``"rmse"``,
    ``"auc"``, ``"ndcg@10"``, ...) of ``predictions`` (as
    :meth:`Booster.predict` gives them: one value a row, or rows x outputs)
    against the labels, weights and query groups of ``data``."""
    pred = np.ascontiguousarray(predictions, dtype=np.float32)
    rows = data.num_rows
    outputs = 1 if pred.ndim == 1 else pred.shape[1]
    if pred.size != rows * outputs:
        raise ValueError(f"evaluate: {pred.size} predictions for {rows} rows")
    out = c_double()
    _lib.call("gpulayer_evaluate", data.handle, metric.encode("utf-8"),
              pred.ctypes.data_as(POINTER(c_float)), rows, outputs, byref(out))
    return float(out.value)

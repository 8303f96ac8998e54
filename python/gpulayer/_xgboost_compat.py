"""XGBoost's data classes, :class:`DMatrix` and :class:`QuantileDMatrix`,
as :class:`gpulayer.Dataset` with XGBoost's constructor arguments, so that
scripts written for XGBoost run with ``import gpulayer as xgb``."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .dataset import Dataset

__all__ = ["DMatrix", "QuantileDMatrix"]


def _categorical_from_types(feature_types: Sequence[str] | None):
    """The categorical columns that XGBoost's feature_types marks with "c"
    ("auto" when none is: the data's own column kinds decide)."""
    if feature_types is None:
        return "auto"
    if isinstance(feature_types, str):
        raise TypeError("feature_types must be a list with one type per feature")
    columns = [i for i, kind in enumerate(feature_types) if kind == "c"]
    return columns if columns else "auto"


class DMatrix(Dataset):
    """XGBoost's ``DMatrix``: a :class:`gpulayer.Dataset` built from
    XGBoost's arguments.

    ``data``, ``label``, ``weight``, ``base_margin``, ``missing`` (None:
    NaN), ``feature_names``, ``group``, ``qid`` and ``enable_categorical``
    mean what they mean to :class:`gpulayer.Dataset`. ``feature_types``:
    the features marked ``"c"`` are categorical; other types ("q", "int",
    "float", "i") are read as numbers. Accepted and ignored: ``nthread``
    and ``silent`` (reading the data is not threaded),
    ``data_split_mode``. ``feature_weights`` is passed on;
    ``label_lower_bound`` and ``label_upper_bound`` (survival objectives)
    are refused (NotImplementedError).
    """

    def __init__(self, data, label=None, *, weight=None, base_margin=None,
                 missing: float | None = None, silent: bool = False,
                 feature_names: Sequence[str] | None = None,
                 feature_types: Sequence[str] | None = None,
                 nthread: int | None = None, group=None, qid=None,
                 label_lower_bound=None, label_upper_bound=None,
                 feature_weights=None, enable_categorical: bool = False,
                 data_split_mode: Any = None) -> None:
        if label_lower_bound is not None or label_upper_bound is not None:
            raise NotImplementedError(
                "label_lower_bound and label_upper_bound (survival:aft) are not supported")
        categorical = _categorical_from_types(feature_types)
        super().__init__(
            data, label=label, weight=weight, feature_names=feature_names,
            categorical_feature=categorical,
            enable_categorical=True if categorical != "auto" else enable_categorical,
            qid=qid, group=group, base_margin=base_margin,
            feature_weights=feature_weights,
            missing=np.nan if missing is None else missing)
        self.feature_types = list(feature_types) if feature_types is not None else None


class QuantileDMatrix(DMatrix):
    """XGBoost's ``QuantileDMatrix``: the same as :class:`DMatrix` (the
    data are binned when training starts, by the booster's ``max_bin``).
    ``max_bin`` and ``ref`` are accepted and ignored: the bins are the
    training data's, as the reference's would be."""

    def __init__(self, data, label=None, *, weight=None, base_margin=None,
                 missing: float | None = None, silent: bool = False,
                 feature_names: Sequence[str] | None = None,
                 feature_types: Sequence[str] | None = None,
                 nthread: int | None = None, max_bin: int | None = None,
                 ref: Dataset | None = None, group=None, qid=None,
                 label_lower_bound=None, label_upper_bound=None,
                 feature_weights=None, enable_categorical: bool = False,
                 data_split_mode: Any = None, max_quantile_batches: int | None = None
                 ) -> None:
        super().__init__(
            data, label, weight=weight, base_margin=base_margin, missing=missing,
            silent=silent, feature_names=feature_names, feature_types=feature_types,
            nthread=nthread, group=group, qid=qid, label_lower_bound=label_lower_bound,
            label_upper_bound=label_upper_bound, feature_weights=feature_weights,
            enable_categorical=enable_categorical, data_split_mode=data_split_mode)

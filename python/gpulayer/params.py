"""The training parameters, from the C library's one table of them: what
:func:`train`'s ``params``, :meth:`Booster.set_param` and the scikit-learn
estimators accept (docs/parameters.md is made from the same table)."""

from __future__ import annotations

import ctypes
import functools
from typing import Any, Mapping

from . import _lib

__all__ = ["parameters", "canonical_names", "LIGHTGBM_DEFAULTS", "is_lightgbm_params",
           "with_lightgbm_defaults"]

# LightGBM's defaults where they differ from XGBoost's, for a call made
# LightGBM's way (lgb.train, lgb.cv, the LGBM* estimators): leaf-wise
# growth to 31 leaves with no depth limit, learning rate 0.1, no L2, a
# leaf's hessian sum at least 1e-3 and its rows at least 20.
LIGHTGBM_DEFAULTS = {"grow_policy": "lossguide", "max_depth": 0, "max_leaves": 31,
                     "eta": 0.1, "lambda": 0.0, "min_child_weight": 1e-3,
                     "min_data_in_leaf": 20}
# Keys only LightGBM's scripts give.
_LIGHTGBM_KEYS = ("metric", "metrics", "metric_types", "verbose", "first_metric_only",
                  "early_stopping_min_delta")


@functools.lru_cache(maxsize=1)
def _table() -> tuple:
    lib = _lib.get()
    rows = []
    for i in range(lib.gpulayer_param_count()):
        info = _lib.ParamInfo()
        _lib.check(lib.gpulayer_param_info_get(i, ctypes.byref(info)))
        row = {name: _lib.decode(getattr(info, name)) for name, _ in info._fields_}
        row["aliases"] = [a for a in row["aliases"].split(",") if a]
        rows.append(row)
    return tuple(rows)


def parameters() -> list[dict]:
    """Every training parameter as a dict: ``name``, ``aliases`` (a list),
    ``group``, ``type``, ``default_value`` (in parentheses where it depends
    on other parameters), ``range``, ``applies`` and ``doc``."""
    return [dict(row, aliases=list(row["aliases"])) for row in _table()]


def canonical_names() -> dict[str, str]:
    """Every accepted name, aliases included, mapped to the parameter's
    own name (``learning_rate`` -> ``eta``)."""
    out = {}
    for row in _table():
        out[row["name"]] = row["name"]
        for alias in row["aliases"]:
            out[alias] = row["name"]
    return out


def is_lightgbm_params(params) -> bool:
    """Whether params are LightGBM's: a dict with a key only LightGBM's
    scripts give, or an objective named LightGBM's way (no colon) or given
    as a function."""
    if not isinstance(params, Mapping):
        return False  # XGBoost's list of pairs
    names = canonical_names()
    for key, value in params.items():
        if key in _LIGHTGBM_KEYS:
            return True
        if names.get(key, key) == "objective" and (
                callable(value) or (isinstance(value, str) and ":" not in value)):
            return True
    return False


def with_lightgbm_defaults(params: Mapping[str, Any]) -> dict:
    """params with LIGHTGBM_DEFAULTS for the parameters they do not set
    (by any name), and LightGBM's max_depth <= 0 (no limit) as 0."""
    names = canonical_names()
    out = dict(params)
    given = {names.get(key, key) for key, value in out.items() if value is not None}
    for key, value in LIGHTGBM_DEFAULTS.items():
        if key not in given:
            out[key] = value
    for key, value in out.items():
        if names.get(key, key) == "max_depth" and isinstance(value, int) and value < 0:
            out[key] = 0
    return out

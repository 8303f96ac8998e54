"""The training parameters, from the C library's one table of them: what
:func:`train`'s ``params``, :meth:`Booster.set_param` and the scikit-learn
estimators accept (docs/parameters.md is made from the same table)."""

from __future__ import annotations

import ctypes
import functools

from . import _lib

__all__ = ["parameters", "canonical_names"]


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

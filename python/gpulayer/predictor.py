"""A model prepared for many small predictions.

``Booster.predict`` flattens the trees on every call, which costs far more
than walking a few rows. A :class:`Predictor`, made once with
``booster.predictor()``, keeps the prepared model (its own copy: the
booster may be retrained or closed afterwards) and predicts numeric arrays
with one call into the library; up to 512 rows run on the calling thread.
It may be used from several threads at once.
"""

from __future__ import annotations

from ctypes import byref, c_void_p

import numpy as np

from . import _lib
from .dataset import (_arrow_kind, arrow_table, is_arrow, is_dataframe, is_sparse,
                      to_dense)

__all__ = ["Predictor"]


class Predictor:
    """Predictions of one model on numeric rows (see the module).

    Made by :meth:`Booster.predictor`. ``predict(X)`` takes a 2-D array of
    rows (or one row as a 1-D array), missing values as NaN and
    categorical features as codes of the model's categories; a DataFrame
    of numeric columns is taken in the model's feature order when the
    model has feature names. It returns what ``Booster.predict`` returns
    for the same rows, bit for bit.
    """

    def __init__(self, booster, output_margin: bool = False, num_rounds: int = 0):
        if num_rounds < 0:
            raise ValueError(f"num_rounds must be >= 0, got {num_rounds}")
        self._handle = c_void_p()
        flags = _lib.PREDICT_MARGIN if output_margin else _lib.PREDICT_DEFAULT
        _lib.call("gpulayer_booster_predictor_create", booster.handle, flags, int(num_rounds),
                  byref(self._handle))
        lib = _lib.get()
        self._lib = lib
        self._predict = lib.gpulayer_predictor_predict_dense
        self.width = int(lib.gpulayer_predictor_width(self._handle))
        self.num_features = int(lib.gpulayer_predictor_num_features(self._handle))
        self.feature_names = booster.feature_names

    def close(self) -> None:
        """Free the C predictor now (it is also freed when garbage-collected)."""
        handle, self._handle = getattr(self, "_handle", None), c_void_p()
        if handle is not None and handle.value:
            self._lib.gpulayer_predictor_free(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to free with
            pass

    def _rows(self, data) -> np.ndarray:
        if is_sparse(data):
            raise TypeError("Predictor takes dense rows; use Booster.predict for "
                            "scipy.sparse data")
        if is_arrow(data):
            table = arrow_table(data)
            names = self.feature_names
            columns = [str(c) for c in table.column_names]
            if names is not None and None not in names and columns != names:
                missing = [n for n in names if n not in columns]
                if missing:
                    raise ValueError(f"the data have no column {missing[0]!r}, a feature "
                                     f"of the model ({len(missing)} missing)")
                table = table.select([columns.index(n) for n in names])
            if not all(_arrow_kind(f.type) == "numeric" for f in table.schema):
                raise TypeError("Predictor takes numeric columns; use Booster.predict for "
                                "Arrow data with text or categorical columns")
            data = to_dense(table).values
        elif is_dataframe(data):
            names = self.feature_names
            if names is not None and None not in names and list(map(str, data.columns)) != names:
                columns = {str(c): c for c in data.columns}
                missing = [n for n in names if n not in columns]
                if missing:
                    raise ValueError(f"the data have no column {missing[0]!r}, a feature "
                                     f"of the model ({len(missing)} missing)")
                data = data.loc[:, [columns[n] for n in names]]
            if not all(isinstance(t, np.dtype) and (np.issubdtype(t, np.number) or t == bool)
                       for t in data.dtypes):
                raise TypeError("Predictor takes numeric columns; use Booster.predict for "
                                "DataFrames with text or categorical columns")
        x = np.asarray(data, dtype=np.float32)
        if x.ndim == 1:
            x = x.reshape(1, -1)
        if x.ndim != 2:
            raise ValueError(f"expected rows as a 2-D array, got {x.ndim} dimensions")
        return x if x.flags.c_contiguous else np.ascontiguousarray(x)

    def predict(self, data) -> np.ndarray:
        """Predictions of the rows of data: shape (rows,) for a model with
        one value a row, (rows, outputs) otherwise."""
        if not self._handle.value:
            raise ValueError("the predictor has been closed")
        x = self._rows(data)
        n = x.shape[0]
        out = np.empty((n, self.width), dtype=np.float32)
        status = self._predict(self._handle, x.ctypes.data, n, x.shape[1], _lib.ROW_MAJOR,
                               out.ctypes.data, out.size)
        if status:
            _lib.check(status)
        return out[:, 0] if self.width == 1 else out


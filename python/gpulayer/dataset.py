"""Training and prediction data: :class:`Dataset`, a handle on a
``gpulayer_dataset``, and the conversion of Python data to a dense float32
matrix.

Accepted data:

* numpy arrays of any numeric dtype, 2-D. A float32 array that is C- or
  Fortran-contiguous is handed to the C library as it is (row-major or
  column-major); anything else is first converted to float32. The library
  copies the values into its own column-major store either way. NaN marks
  a missing value.
* pandas DataFrames. Numeric and boolean columns become float values
  (pandas' NA is missing). Columns of ``category`` dtype become categorical
  features: their values, as text, make the column's dictionary (sorted),
  and each row holds the code of its value. Columns of ``string`` or
  ``object`` dtype follow the rule of the CSV reader: one whose values are
  all numbers (or number text) is numeric; one where at most 5% of the
  non-missing values are not numbers "looks numeric" and is refused, naming
  the row and value (``bad_numbers="missing"`` reads those values as
  missing, with one warning); any other is categorical.
  At prediction the library maps names to the codes of the training
  dictionary, so a DataFrame may list its categories in any order; a value
  unseen in training is treated as missing. Column names become feature
  names.
* ``categorical_feature`` (LightGBM's parameter) names further columns,
  by index or name, that are categorical. A numeric column there holds
  integer codes: each distinct value is a category named by its text
  ("3", "17"), NaN is missing, and a negative or fractional value is an
  error naming the column, row and value. At prediction a value names its
  category in every interface, as the command reads a file's cells: a
  number of a categorical feature's column, in a DataFrame or an array,
  is the name it prints as (never a code into a dictionary of text); a
  value unseen in training, negative or fractional, is missing. ``enable_categorical`` (XGBoost's
  parameter) is accepted and changes nothing: category, string and object
  columns are categorical either way.
* scipy.sparse matrices. They are densified, and **an absent entry is a
  missing value** (NaN), as in LibSVM files, not a zero; an explicitly
  stored zero stays a zero.
* Arrow data: a pyarrow Table or RecordBatch, a polars DataFrame, or any
  object with ``__arrow_c_stream__`` (the Arrow PyCapsule interface),
  read with pyarrow column by column, not through pandas, as the
  equivalent DataFrame is: numeric and boolean columns as float32 (null
  is missing), dictionary columns (categoricals) categorical with their
  dictionary as names, string columns by the DataFrame rule above.
  Column names become feature names. Needs pyarrow.
* anything numpy can turn into a 2-D numeric array (lists of lists, ...).

Labels are numbers, or class names: text labels (a list or array of str,
a pandas Series of strings or a Categorical, ...) are read as the
command reads a file's label column: the first label decides whether
they are numbers or names, the names sorted are the classes 0..K-1, and
a missing label is an error naming its row.
"""

from __future__ import annotations

import os
import sys
import warnings
import weakref
from ctypes import POINTER, byref, c_char_p, c_float, c_int, c_int32, c_int64, c_void_p, cast
from typing import NamedTuple, Sequence

import numpy as np

from . import _lib
from .errors import InvalidArgumentError, ParseError

__all__ = ["Dataset", "DenseMatrix", "to_dense", "is_arrow", "arrow_table"]


def _missing_value(missing) -> float | None:
    """XGBoost's missing= sentinel as a float, or None for NaN (which is
    missing anyway)."""
    try:
        value = float(missing)
    except (TypeError, ValueError):
        raise TypeError(f"missing must be a number, got {missing!r}") from None
    return None if np.isnan(value) else value


def _sentinel_as_missing(dense, missing):
    """The numeric cells equal to missing as NaN (a copy; categorical
    columns, whose cells are codes, are left as they are)."""
    if missing is None:
        return dense
    values = np.array(dense.values, dtype=np.float32, order="K", copy=True)
    numeric = np.ones(values.shape[1], dtype=bool)
    numeric[list(dense.categories)] = False
    block = values[:, numeric]
    block[block == np.float32(missing)] = np.nan
    values[:, numeric] = block
    return dense._replace(values=values)


class DenseMatrix(NamedTuple):
    """Data ready for ``gpulayer_dataset_from_dense``."""

    values: np.ndarray  # float32, 2-D, C- or F-contiguous
    layout: int  # _lib.ROW_MAJOR or _lib.COL_MAJOR
    feature_names: list[str] | None
    categories: dict[int, list[str]]  # column -> sorted category names


def _module(name: str):
    """A module if it has already been imported, else None: data of a
    library the caller never imported cannot be of its types."""
    return sys.modules.get(name)


def is_dataframe(data) -> bool:
    """Whether data is a pandas DataFrame."""
    pd = _module("pandas")
    return pd is not None and isinstance(data, pd.DataFrame)


def is_sparse(data) -> bool:
    """Whether data is a scipy.sparse matrix or array."""
    sp = _module("scipy.sparse")
    return sp is not None and sp.issparse(data)


def to_dense(data, bad_numbers: str = "error", kinds=None,
             categorical_feature="auto", feature_names=None) -> DenseMatrix:
    """Convert supported data to a dense float32 matrix (see the module
    documentation for the rules). bad_numbers is "error" or "missing" (see
    there); kinds lists per column, as a model reads them, "numeric",
    "category" (categorical; a number names the category that is its
    text, and one that is not an integer is missing) or None (decide by
    the rule). categorical_feature lists the
    columns, by index or by name (feature_names, else a DataFrame's
    columns), that are categorical; numbers there must be integer codes."""
    _check_bad_numbers(bad_numbers)
    if is_sparse(data):
        if not _is_auto(categorical_feature):
            raise TypeError("categorical_feature is not supported for "
                            "scipy.sparse data; pass a dense array or a DataFrame")
        return DenseMatrix(_from_sparse(data), _lib.COL_MAJOR, None, {})
    if is_dataframe(data):
        names = (list(feature_names) if feature_names is not None
                 else [str(c) for c in data.columns])
        forced = _categorical_set(categorical_feature, data.shape[1], names)
        return _from_dataframe(data, bad_numbers, kinds, forced)
    if is_arrow(data):
        table = arrow_table(data)
        names = (list(feature_names) if feature_names is not None
                 else [str(c) for c in table.column_names])
        forced = _categorical_set(categorical_feature, table.num_columns, names)
        return _from_arrow(table, bad_numbers, kinds, forced)
    values, layout = _from_array(data)
    forced = _categorical_set(categorical_feature, values.shape[1], feature_names)
    lenient = {j for j, k in enumerate(kinds or ()) if k == "category"} - forced
    if not forced and not lenient:
        return DenseMatrix(values, layout, None, {})
    raw = data if isinstance(data, np.ndarray) else np.asarray(data)
    values = np.array(values, dtype=np.float32, order="F")
    categories: dict[int, list[str]] = {}
    for j in sorted(forced | lenient):
        name = feature_names[j] if feature_names is not None else None
        categories[j], values[:, j] = _integer_categories(
            raw[:, j].astype(np.float64), name, j, strict=j in forced)
    return DenseMatrix(values, _lib.COL_MAJOR, None, categories)


def _is_auto(spec) -> bool:
    return spec is None or (isinstance(spec, str) and spec == "auto")


def _categorical_set(spec, num_cols: int, names) -> set[int]:
    """The column indexes that categorical_feature names (LightGBM's rule:
    "auto" or None = none beyond the column types, else a list of indexes
    or names)."""
    if _is_auto(spec):
        return set()
    if isinstance(spec, (str, int, np.integer)):
        spec = [spec]
    out = set()
    for item in spec:
        if isinstance(item, (bool, np.bool_)):
            raise TypeError(f"categorical_feature lists column indexes or names, "
                            f"got {item!r}")
        if isinstance(item, (int, np.integer)):
            if not 0 <= item < num_cols:
                raise ValueError(f"categorical_feature: column index {int(item)} is out "
                                 f"of range; the data have {num_cols} columns")
            out.add(int(item))
            continue
        if names is None:
            raise ValueError(f"categorical_feature: column {item!r} is named, but the "
                             "data have no feature names; give column indexes or "
                             "feature_names")
        names = [str(n) for n in names]
        if str(item) not in names:
            raise ValueError(f"categorical_feature: no column is named {item!r} "
                             f"(columns: {names[:10]}{' ...' if len(names) > 10 else ''})")
        out.add(names.index(str(item)))
    return out


_INT32_MAX = 2**31 - 1


def _integer_categories(values: np.ndarray, name, col: int, strict: bool):
    """(sorted names, float codes) of a column of integer-coded categories:
    each distinct integer's text is a category name, NaN stays missing.
    strict (training): a negative, fractional or too large value is an
    error naming the column, row and value; else (prediction) it is
    missing, as an unseen category is."""
    present = ~np.isnan(values)
    ok = present & (values >= 0) & (values <= _INT32_MAX) & (np.floor(values) == values)
    bad = present & ~ok
    if strict and bad.any():
        row = int(np.flatnonzero(bad)[0])
        what = f"categorical feature {name!r}" if name is not None else \
            f"categorical feature column {col}"
        raise ValueError(
            f"{what}: row {row} (0-based position) holds {float(values[row]):g}, which is "
            "not a non-negative integer; a column in categorical_feature must hold "
            "integer codes 0, 1, 2, ... (NaN for missing)"
        )
    if not strict:
        ok = present & (np.floor(values) == values) & (np.abs(values) <= _INT32_MAX)
    ints = values[ok].astype(np.int64)
    uniq, inverse = np.unique(ints, return_inverse=True)
    codes = np.full(len(values), -1, dtype=np.int64)
    codes[ok] = inverse.reshape(-1)
    return _sorted_dictionary([str(int(u)) for u in uniq], codes)


def _from_array(data) -> tuple[np.ndarray, int]:
    arr = data if isinstance(data, np.ndarray) else np.asarray(data)
    if arr.ndim != 2:
        raise ValueError(
            f"expected a 2-D array of shape (rows, features), got {arr.ndim}-D "
            f"with shape {arr.shape}"
        )
    if arr.dtype != np.float32:
        if arr.dtype.kind not in "fiub":
            raise TypeError(
                f"expected numeric data, got dtype {arr.dtype}; use a pandas "
                "DataFrame for categorical (string) columns"
            )
        arr = arr.astype(np.float32, order="K")
    if arr.flags.c_contiguous:
        return arr, _lib.ROW_MAJOR
    if arr.flags.f_contiguous:
        return arr, _lib.COL_MAJOR
    return np.ascontiguousarray(arr), _lib.ROW_MAJOR


def _from_sparse(data) -> np.ndarray:
    csr = data.tocsr(copy=True)
    csr.sum_duplicates()
    rows, cols = csr.shape
    out = np.full((rows, cols), np.nan, dtype=np.float32, order="F")
    row_of_entry = np.repeat(np.arange(rows), np.diff(csr.indptr))
    out[row_of_entry, csr.indices] = csr.data
    return out


def _sorted_dictionary(names: Sequence[str], codes: np.ndarray):
    """Re-number codes so that they index the sorted list of names.

    The C library requires a dictionary in sorted (byte-wise UTF-8) order;
    Python's code-point order of str is the same order.
    """
    names = [str(n) for n in names]
    if len(set(names)) != len(names):
        raise ValueError(
            "categories that are equal as text cannot be told apart: "
            f"{names[:10]}"
        )
    order = sorted(range(len(names)), key=names.__getitem__)
    rank = np.empty(len(names), dtype=np.int64)
    rank[order] = np.arange(len(names))
    values = np.full(codes.shape, np.nan, dtype=np.float32)
    present = codes >= 0
    values[present] = rank[codes[present]]
    return [names[i] for i in order], values


def _categorical_column(column):
    """(sorted names, float codes) of a category/string/object column."""
    pd = _module("pandas")
    if isinstance(column.dtype, pd.CategoricalDtype):
        return _sorted_dictionary(
            list(column.cat.categories), column.cat.codes.to_numpy()
        )
    missing = column.isna().to_numpy()
    text = np.array([str(v) for v in column.to_numpy(dtype=object)[~missing]],
                    dtype=object)
    names, inverse = np.unique(text.astype(str), return_inverse=True)
    codes = np.full(len(column), -1, dtype=np.int64)
    codes[~missing] = inverse.reshape(-1)
    return _sorted_dictionary(list(names), codes)


def _check_bad_numbers(bad_numbers: str) -> None:
    if bad_numbers not in _lib.BAD_NUMBERS:
        raise ValueError(
            f"bad_numbers must be one of {sorted(_lib.BAD_NUMBERS)}, got {bad_numbers!r}"
        )


def _cell_kinds(cells) -> tuple[np.ndarray, np.ndarray]:
    """(kinds, float32 values) of the non-missing cells of a string/object
    column: text as the CSV reader reads a cell (gpulayer_read_text_cells:
    missing-value markers, numbers, text); a Python number is a number,
    any other object (a bool, a date) text."""
    kinds = np.full(len(cells), _lib.CELL_TEXT, dtype=np.int32)
    values = np.full(len(cells), np.nan, dtype=np.float32)
    at, texts = [], []
    for i, value in enumerate(cells):
        if isinstance(value, (bool, np.bool_)):
            continue
        if isinstance(value, (int, float, np.integer, np.floating)):
            kinds[i], values[i] = _lib.CELL_NUMBER, float(value)
        elif isinstance(value, str) and "\0" not in value:  # C would stop at a NUL
            at.append(i)
            texts.append(value.encode("utf-8", "surrogatepass"))
    if texts:
        text_kinds = np.empty(len(texts), dtype=np.int32)
        text_values = np.empty(len(texts), dtype=np.float32)
        _lib.call("gpulayer_read_text_cells", (c_char_p * len(texts))(*texts), len(texts),
                  _float_pointer(text_values), text_kinds.ctypes.data_as(POINTER(c_int32)))
        kinds[at], values[at] = text_kinds, text_values
    return kinds, values


def _numeric_text_column(column, name, bad_numbers: str, must_be_numeric: bool):
    """The float values of a string/object column that is numeric by the
    CSV reader's rule, or None when it is categorical (text)."""
    cells = column.to_numpy(dtype=object)
    present = np.flatnonzero(~column.isna().to_numpy())
    present_kinds, present_values = _cell_kinds(cells[present])
    kinds = np.full(len(cells), _lib.CELL_MISSING, dtype=np.int32)
    values = np.full(len(cells), np.nan, dtype=np.float32)
    kinds[present], values[present] = present_kinds, present_values
    return _numeric_by_kinds(kinds, values, cells.__getitem__, name, bad_numbers,
                             must_be_numeric, stacklevel=5)


def _numeric_by_kinds(kinds, values, cell, name, bad_numbers: str, must_be_numeric: bool,
                      stacklevel: int):
    """The CSV reader's rule on a text column whose rows are read as kinds
    (CELL_*) and values: the values when the column is numeric, None when
    it is categorical, or an error (a warning with bad_numbers="missing")
    naming the first value that is not a number, cell(row)."""
    numbers = int(np.count_nonzero(kinds == _lib.CELL_NUMBER))
    text_at = np.flatnonzero(kinds == _lib.CELL_TEXT)
    texts = len(text_at)
    if texts == 0:
        return values if numbers > 0 or must_be_numeric else None
    if not must_be_numeric and not _lib.get().gpulayer_column_looks_numeric(numbers, texts):
        return None
    row = int(text_at[0])
    text = cell(row)
    where = f"row {row} (0-based position)"
    if bad_numbers == "missing":
        warnings.warn(
            f"column {name!r}: {texts} values that are not numbers were read as "
            f"missing values (the first at {where}: {text!r})",
            stacklevel=stacklevel,
        )
        return values
    why = ("the model reads it as numeric" if must_be_numeric
           else "it looks numeric")
    raise ParseError(
        f"column {name!r}: {why}, but {texts} of its values are not numbers, the "
        f"first at {where}: {text!r}; correct them, pass bad_numbers='missing' "
        "to read them as missing values, or give the column the 'category' dtype"
    )


def _is_categorical_dtype(dtype) -> bool:
    pd = _module("pandas")
    return (
        isinstance(dtype, pd.CategoricalDtype)
        or pd.api.types.is_string_dtype(dtype)
        or pd.api.types.is_object_dtype(dtype)
    )


def _from_dataframe(df, bad_numbers: str = "error", kinds=None,
                    forced=frozenset()) -> DenseMatrix:
    pd = _module("pandas")
    rows, cols = df.shape
    values = np.empty((rows, cols), dtype=np.float32, order="F")
    categories: dict[int, list[str]] = {}
    for j in range(cols):
        column = df.iloc[:, j]
        dtype = column.dtype
        kind = kinds[j] if kinds is not None else None
        if j in forced:
            kind = "categorical"
        if kind == "category" and _is_categorical_dtype(dtype):
            kind = "categorical"
        if (not _is_categorical_dtype(dtype) and (j in forced or kind == "category")
                and (pd.api.types.is_bool_dtype(dtype)
                     or pd.api.types.is_numeric_dtype(dtype))):
            categories[j], values[:, j] = _integer_categories(
                column.to_numpy(dtype=np.float64, na_value=np.nan),
                str(df.columns[j]), j, strict=j in forced)
            continue
        numeric = None
        if (_is_categorical_dtype(dtype) and kind != "categorical"
                and not isinstance(dtype, pd.CategoricalDtype)):
            numeric = _numeric_text_column(column, df.columns[j], bad_numbers,
                                           kind == "numeric")
        if numeric is not None:
            values[:, j] = numeric
        elif _is_categorical_dtype(dtype):
            categories[j], values[:, j] = _categorical_column(column)
        elif pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype):
            values[:, j] = column.to_numpy(dtype=np.float32, na_value=np.nan)
        else:
            raise TypeError(
                f"column {df.columns[j]!r} has dtype {dtype}: only numeric, "
                "boolean, category, string and object columns are supported"
            )
    names = [str(c) for c in df.columns]
    return DenseMatrix(values, _lib.COL_MAJOR, names, categories)


# ------------------------------------------------------------------ Arrow


def is_arrow(data) -> bool:
    """Whether data is Arrow tabular data: a pyarrow Table or RecordBatch,
    a polars DataFrame, or another object with ``__arrow_c_stream__`` (the
    Arrow PyCapsule interface). A pandas DataFrame, which may have that
    method too, is read as a DataFrame."""
    if is_dataframe(data) or isinstance(data, np.ndarray):
        return False
    pa = _module("pyarrow")
    if pa is not None and isinstance(data, (pa.Table, pa.RecordBatch)):
        return True
    pl = _module("polars")
    if pl is not None and isinstance(data, pl.DataFrame):
        return True
    return hasattr(type(data), "__arrow_c_stream__")


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.compute  # noqa: F401  (pyarrow.compute, used below)
    except ImportError:
        raise ImportError(
            "reading Arrow data (a pyarrow Table, a polars DataFrame or another "
            "object with __arrow_c_stream__) needs pyarrow: pip install pyarrow"
        ) from None
    return pyarrow


def arrow_table(data):
    """Arrow tabular data (see is_arrow) as a pyarrow Table; the columns'
    buffers are shared, not copied, where their types allow."""
    pa = _pyarrow()
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    pl = _module("polars")
    if pl is not None and isinstance(data, pl.DataFrame):
        return data.to_arrow()
    try:
        return pa.table(data)
    except (TypeError, ValueError, pa.ArrowException) as e:
        raise TypeError(f"cannot read {type(data).__name__} as a table through its "
                        f"__arrow_c_stream__: {e}") from None


def _arrow_kind(dtype) -> str:
    """"numeric", "text", "dictionary" or "other" for an Arrow type."""
    pa = _module("pyarrow")
    types = pa.types
    if types.is_dictionary(dtype):
        return "dictionary"
    if (types.is_integer(dtype) or types.is_floating(dtype) or types.is_boolean(dtype)
            or types.is_decimal(dtype)):
        return "numeric"
    if (types.is_string(dtype) or types.is_large_string(dtype) or types.is_null(dtype)
            or (hasattr(types, "is_string_view") and types.is_string_view(dtype))):
        return "text"
    return "other"


def _arrow_floats(column, dtype=np.float32) -> np.ndarray:
    """A numeric or boolean Arrow column as floats, null as NaN."""
    pa = _module("pyarrow")
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if pa.types.is_decimal(array.type):
        array = array.cast(pa.float64())
    if array.null_count == 0:
        return array.to_numpy(zero_copy_only=False).astype(dtype, copy=False)
    nulls = array.is_null().to_numpy(zero_copy_only=False)
    filled = array.fill_null(False if pa.types.is_boolean(array.type) else 0)
    values = filled.to_numpy(zero_copy_only=False).astype(dtype)
    values[nulls] = np.nan
    return values


def _arrow_codes(indices) -> np.ndarray:
    """Arrow integer indices as int64, null as -1."""
    nulls = indices.is_null().to_numpy(zero_copy_only=False) if indices.null_count else None
    if nulls is not None:
        indices = indices.fill_null(0)
    codes = indices.to_numpy(zero_copy_only=False).astype(np.int64)
    if nulls is not None:
        codes[nulls] = -1
    return codes


def _arrow_text(column):
    """(distinct texts, int64 codes into them, -1 for null) of a text
    column, by dictionary encoding in Arrow."""
    pa = _module("pyarrow")
    pc = pa.compute
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not (pa.types.is_string(array.type) or pa.types.is_large_string(array.type)):
        array = array.cast(pa.large_string())
    encoded = pc.dictionary_encode(array)
    return encoded.dictionary.to_pylist(), _arrow_codes(encoded.indices)


def _from_arrow(table, bad_numbers: str = "error", kinds=None,
                forced=frozenset()) -> DenseMatrix:
    """A pyarrow Table read as _from_dataframe reads the equivalent pandas
    DataFrame: numeric and boolean columns as floats (null missing),
    dictionary columns as categorical (their dictionary the names), and
    string columns by the CSV reader's rule (numbers, or categorical)."""
    pa = _module("pyarrow")
    if any(pa.types.is_dictionary(f.type) for f in table.schema):
        table = table.unify_dictionaries()
    rows, cols = table.num_rows, table.num_columns
    values = np.empty((rows, cols), dtype=np.float32, order="F")
    categories: dict[int, list[str]] = {}
    names = [str(c) for c in table.column_names]
    for j in range(cols):
        column = table.column(j)
        what = _arrow_kind(column.type)
        kind = kinds[j] if kinds is not None else None
        if j in forced or (kind == "category" and what != "numeric"):
            kind = "categorical"
        if what == "numeric" and (j in forced or kind == "category"):
            categories[j], values[:, j] = _integer_categories(
                _arrow_floats(column, np.float64), names[j], j, strict=j in forced)
        elif what == "numeric":
            values[:, j] = _arrow_floats(column)
        elif what == "dictionary":
            array = column.combine_chunks()
            if isinstance(array, pa.ChunkedArray):  # no chunks
                array = pa.array([], type=column.type)
            categories[j], values[:, j] = _sorted_dictionary(
                [str(v) for v in array.dictionary.to_pylist()], _arrow_codes(array.indices))
        elif what == "text":
            texts, codes = _arrow_text(column)
            numeric = None
            if kind != "categorical":
                # The rule on the distinct texts, spread over the rows.
                text_kinds, text_values = _cell_kinds(np.array(texts, dtype=object))
                present = codes >= 0
                row_kinds = np.full(rows, _lib.CELL_MISSING, dtype=np.int32)
                row_values = np.full(rows, np.nan, dtype=np.float32)
                row_kinds[present] = text_kinds[codes[present]]
                row_values[present] = text_values[codes[present]]
                numeric = _numeric_by_kinds(
                    row_kinds, row_values, lambda r: texts[codes[r]], names[j],
                    bad_numbers, kind == "numeric", stacklevel=5)
            if numeric is not None:
                values[:, j] = numeric
            else:
                categories[j], values[:, j] = _sorted_dictionary(texts, codes)
        else:
            raise TypeError(
                f"column {names[j]!r} has Arrow type {column.type}: only numeric, "
                "boolean, dictionary (categorical) and string columns are supported"
            )
    return DenseMatrix(values, _lib.COL_MAJOR, names, categories)


# ----------------------------------------------------------------- labels


def _is_text_value(value) -> bool:
    return isinstance(value, (str, bytes, np.str_, np.bytes_))


def _label_array(label) -> np.ndarray:
    """Labels of any accepted type as a 1-D numpy array (text as object)."""
    if is_dataframe(label):
        label = label.to_numpy()
    pa = _module("pyarrow")
    if pa is not None and isinstance(label, (pa.Array, pa.ChunkedArray)):
        if isinstance(label, pa.ChunkedArray):
            label = label.combine_chunks() if label.num_chunks else pa.array(
                [], type=label.type)
        if pa.types.is_dictionary(label.type):
            label = label.dictionary_decode()
        return label.to_numpy(zero_copy_only=False).reshape(-1)
    pl = _module("polars")
    if pl is not None and isinstance(label, pl.Series):
        return label.to_numpy().reshape(-1)
    pd = _module("pandas")
    if pd is not None and isinstance(label, (pd.Series, pd.Categorical, pd.Index)):
        dtype = label.dtype
        if (isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype)
                or pd.api.types.is_object_dtype(dtype)):
            return np.asarray(label, dtype=object).reshape(-1)
        if not isinstance(label, pd.Categorical):
            return label.to_numpy(dtype=np.float64, na_value=np.nan).reshape(-1)
    return np.asarray(label).reshape(-1)


def _label_vector(label, rows: int):
    """(float32 labels, class names or None): numbers as they are; text
    (str, object or categorical data holding strings) as class names,
    numbered as the command numbers a file's: sorted, the first 0."""
    arr = _label_array(label)
    if arr.shape[0] != rows:
        raise ValueError(f"label has {arr.shape[0]} values, the data {rows} rows")
    if arr.dtype.kind in "USO" and (arr.dtype.kind != "O"
                                    or any(_is_text_value(v) for v in arr)):
        return _text_labels(arr)
    return _as_float32(arr, "label"), None


def _is_missing_cell(value) -> bool:
    if value is None:
        return True
    if isinstance(value, (float, np.floating)):
        return bool(np.isnan(value))
    pd = _module("pandas")
    return pd is not None and (value is pd.NA or value is pd.NaT)


def _text_labels(arr: np.ndarray):
    """Labels holding text, read as a label column of a file is: the first
    label decides whether they are numbers or class names, and a label of
    the other kind or a missing one is an error naming its row."""
    rows = len(arr)
    kinds = np.full(rows, _lib.CELL_MISSING, dtype=np.int32)
    values = np.full(rows, np.nan, dtype=np.float32)
    if arr.dtype.kind in "US":
        cells = np.char.decode(arr, "utf-8") if arr.dtype.kind == "S" else arr
        text_rows, texts = np.arange(rows), cells
    else:
        cells = arr
        text_rows, texts = [], []
        for r, value in enumerate(cells):
            if isinstance(value, (bytes, np.bytes_)):
                text_rows.append(r)
                texts.append(value.decode("utf-8"))
            elif isinstance(value, str):
                text_rows.append(r)
                texts.append(value)
            elif _is_missing_cell(value):
                continue
            elif isinstance(value, (bool, np.bool_, int, float, np.integer, np.floating)):
                kinds[r], values[r] = _lib.CELL_NUMBER, float(value)
            else:  # another object (a date, ...): its text
                text_rows.append(r)
                texts.append(str(value))
        text_rows = np.asarray(text_rows, dtype=np.int64)
        texts = np.array(texts, dtype=object)
    # Distinct texts in sorted (code point, so UTF-8 byte) order.
    distinct, inverse = np.unique(texts, return_inverse=True)
    text_kinds, text_values = _cell_kinds(np.asarray(distinct, dtype=object))
    inverse = inverse.reshape(-1)
    kinds[text_rows] = text_kinds[inverse]
    values[text_rows] = text_values[inverse]
    text_of = np.full(rows, -1, dtype=np.int64)
    text_of[text_rows] = inverse

    def shown(r):
        return repr(str(distinct[text_of[r]])) if text_of[r] >= 0 else repr(cells[r])

    first = int(kinds[0]) if rows else _lib.CELL_NUMBER
    other = _lib.CELL_TEXT if first == _lib.CELL_NUMBER else _lib.CELL_NUMBER
    bad = np.flatnonzero((kinds == _lib.CELL_MISSING) | (kinds == other))
    if bad.size:
        r = int(bad[0])
        where = f"row {r} (0-based position)"
        if kinds[r] == _lib.CELL_MISSING:
            raise ValueError(f"label at {where} is missing ({shown(r)}); every row needs "
                             "a label, a number or a class name")
        before = "numbers" if first == _lib.CELL_NUMBER else "class names"
        this = "is not a number" if first == _lib.CELL_NUMBER else "is a number"
        raise ValueError(f"label {shown(r)} at {where} {this}, but the labels before it "
                         f"are {before} (row 0: {shown(0)}); labels must be all numbers "
                         "or all class names")
    if first == _lib.CELL_NUMBER:
        return values, None
    # Every row is a class name here: the distinct texts are the classes.
    return text_of.astype(np.float32), [str(t) for t in distinct]


def _as_float32(values, what: str) -> np.ndarray:
    """values as a contiguous float32 array; a finite value past float32's
    range is an error naming its position, not an infinity the library
    would then call "not finite"."""
    arr = np.asarray(values)
    with np.errstate(over="ignore"):
        out = np.ascontiguousarray(arr, dtype=np.float32)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 4:
        past = np.isinf(out) & np.isfinite(arr)
        if past.any():
            at = np.unravel_index(int(np.flatnonzero(past.reshape(-1))[0]), arr.shape)
            index = ", ".join(str(int(i)) for i in at)
            raise ValueError(f"{what}[{index}] is {float(arr[at]):g}, beyond float32's range "
                             f"(about 3.4e38 either way): {what} is kept as float32")
    return out


def _float_vector(values, rows: int, what: str) -> np.ndarray:
    if is_dataframe(values):
        values = values.to_numpy()
    vec = _as_float32(np.asarray(values).reshape(-1), what)
    if vec.shape[0] != rows:
        raise ValueError(f"{what} has {vec.shape[0]} values, the data {rows} rows")
    return vec


def _int64_vector(values, what: str) -> np.ndarray:
    """A contiguous int64 copy of integer values (query ids, group sizes);
    a value that is not a whole number is an error naming its position."""
    if is_dataframe(values):
        values = values.to_numpy()
    arr = np.asarray(values).reshape(-1)
    if arr.dtype.kind in "iu":
        return np.ascontiguousarray(arr, dtype=np.int64)
    if arr.dtype.kind == "b" or arr.dtype.kind not in "f":
        raise TypeError(f"{what} must hold integers, got dtype {arr.dtype}")
    bad = ~np.isfinite(arr) | (np.floor(arr) != arr)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{what}: position {row} (0-based) holds {float(arr[row]):g}, "
                         "which is not a whole number")
    return np.ascontiguousarray(arr, dtype=np.int64)


def _query_runs(queries: np.ndarray) -> np.ndarray:
    """Query ids 0, 1, ... for the runs of equal values of queries (each
    row's query); a query in two runs is an error."""
    if queries.size == 0:
        return queries
    starts = np.flatnonzero(np.diff(queries)) + 1
    heads = queries[np.concatenate(([0], starts))]
    if np.unique(heads).size != heads.size:
        _, first = np.unique(heads, return_index=True)
        split = heads[np.setdiff1d(np.arange(heads.size), first)[0]]
        raise ValueError(f"the rows of query {int(split)} (0-based) are not together in the "
                         "row indexes: a query's rows must be consecutive")
    return np.repeat(np.arange(heads.size), np.diff(np.concatenate(([0], starts,
                                                                    [queries.size]))))


def _float_pointer(arr: np.ndarray | None):
    return None if arr is None else arr.ctypes.data_as(POINTER(c_float))


class Dataset:
    """A data matrix with optional labels, weights, feature names and
    categorical columns, held by the C library (a ``gpulayer_dataset``).

    Parameters
    ----------
    data : array-like, pandas.DataFrame, Arrow data or scipy.sparse matrix
        The feature matrix, rows by features (see the module documentation
        for how each type is read; NaN, Arrow nulls and absent sparse
        entries are missing). Arrow data: a pyarrow Table or RecordBatch, a
        polars DataFrame, anything with ``__arrow_c_stream__``.
    label : array-like, optional
        One label per row: the target value, 0/1 for ``binary:logistic``,
        the class index 0..num_class-1 for ``multi:*`` objectives; or
        class names (text: str or object arrays, lists, pandas Series of
        strings, Categoricals), numbered 0..K-1 in sorted order and kept
        as :attr:`label_classes`.
    weight : array-like, optional
        One non-negative weight per row.
    feature_names : list of str, optional
        Names of the features; by default a DataFrame's column names.
    bad_numbers : {"error", "missing"}
        A value that is not a number in a text column that looks numeric
        (see the module documentation): an error naming column, row and
        value (default), or read as missing with one warning.
    categorical_feature : "auto" or list of int or str
        LightGBM's parameter: columns, by index or by name, that are
        categorical besides those of category dtype ("auto", the default:
        none). A numeric column listed here holds integer codes: each
        distinct value is a category named by its text ("3", "17"), NaN is
        missing, and a negative or fractional value is an error naming
        the column, row and value. A text column listed here is
        categorical even when its values are numbers.
    enable_categorical : bool, optional
        XGBoost's parameter, accepted for compatibility: category, string
        and object columns of a DataFrame are categorical either way.
    qid : array-like of int, optional
        Query groups for ranking, as XGBoost's ``qid``: one query id per
        row, the rows of one query together and the ids non-decreasing
        (sort the rows by qid first); else an error names the first row
        out of order.
    group : array-like of int, optional
        Query groups as consecutive group sizes (XGBoost's and LightGBM's
        ``group``), each at least 1, adding up to the row count. At most
        one of qid and group.
    feature_weights : array-like, optional
        XGBoost's ``feature_weights``: one non-negative weight a column;
        ``colsample_bytree``, ``colsample_bylevel`` and ``colsample_bynode``
        then draw features in proportion to them.
    base_margin, init_score : array-like, optional
        Each row's starting margin (XGBoost's ``base_margin``, LightGBM's
        ``init_score``) in place of the model's base score: one a row, or
        ``(rows, outputs)`` for multiclass models. Training starts from
        them, and evaluation and prediction on this Dataset add the trees
        to them (on the CPU).
    reference, free_raw_data :
        LightGBM's, taken for its scripts and without effect: a validation
        set is binned with the training data's cuts whatever its
        reference, and the library always holds its own copy of the data.

    Notes
    -----
    The library holds its own copy of the data; the Dataset also keeps a
    weak reference to ``data`` as given (a strong one for objects that
    take none, such as lists), from which :meth:`slice` takes rows while
    the caller keeps the data.
    """

    def __init__(self, data, label=None, weight=None, feature_names=None,
                 bad_numbers: str = "error", categorical_feature="auto",
                 enable_categorical: bool | None = None, qid=None, group=None,
                 base_margin=None, init_score=None, feature_weights=None,
                 missing: float = np.nan, reference=None, free_raw_data: bool = True):
        del reference, free_raw_data  # LightGBM's; no effect (docstring)
        if qid is not None and group is not None:
            raise ValueError("give the query groups once: qid or group, not both")
        if base_margin is not None and init_score is not None:
            raise ValueError("give the base margins once: base_margin or init_score")
        self._missing = _missing_value(missing)
        # The data as given, for slice(): weakly held, so that the caller's
        # deleting it still frees it.
        try:
            held = weakref.ref(data)
        except TypeError:
            held = (lambda d: lambda: d)(data)
        self._source = (held, feature_names, bad_numbers, categorical_feature)
        self._init(data, label, weight, feature_names, bad_numbers, categorical_feature,
                   enable_categorical)
        if base_margin is not None or init_score is not None:
            self.set_base_margin(base_margin if base_margin is not None else init_score)
        if feature_weights is not None:
            self.set_feature_weights(feature_weights)
        if qid is not None:
            self.set_qid(qid)
        if group is not None:
            self.set_group(group)

    def _init(self, data, label, weight, feature_names, bad_numbers, categorical_feature,
              enable_categorical):
        self._handle = c_void_p()
        if isinstance(data, Dataset):
            raise TypeError("data is already a Dataset")
        if isinstance(data, (str, bytes, os.PathLike)):
            raise TypeError(
                "Dataset(data) takes in-memory data; use Dataset.from_file(path) "
                "to read a file"
            )
        if enable_categorical not in (None, True, False):
            raise TypeError(f"enable_categorical must be a bool, got {enable_categorical!r}")
        if isinstance(data, DenseMatrix):
            if not _is_auto(categorical_feature):
                raise ValueError("categorical_feature applies when the data are "
                                 "converted; pass it to to_dense()")
            dense = data
        elif is_sparse(data):
            if not _is_auto(categorical_feature):
                raise TypeError("categorical_feature is not supported for "
                                "scipy.sparse data; pass a dense array or a DataFrame")
            self._init_sparse(data, label, weight, feature_names)
            return
        else:
            dense = to_dense(data, bad_numbers, categorical_feature=categorical_feature,
                             feature_names=feature_names)
        dense = _sentinel_as_missing(dense, getattr(self, "_missing", None))
        rows, cols = dense.values.shape
        label_vec, classes = (None, None) if label is None else _label_vector(label, rows)
        weight_vec = None if weight is None else _float_vector(weight, rows, "weight")
        _lib.call(
            "gpulayer_dataset_from_dense",
            dense.values.ctypes.data,
            rows,
            cols,
            dense.layout,
            _float_pointer(label_vec),
            _float_pointer(weight_vec),
            byref(self._handle),
        )
        self.categories = dict(dense.categories)
        names = feature_names if feature_names is not None else dense.feature_names
        if names is not None:
            self.set_feature_names(names)
        for col, cat_names in dense.categories.items():
            _lib.call(
                "gpulayer_dataset_set_categories",
                self._handle,
                col,
                _lib.string_array(cat_names),
                len(cat_names),
            )
        if classes is not None:
            self.set_label_classes(classes)

    def _init_sparse(self, data, label, weight, feature_names):
        """scipy.sparse data stay sparse: compressed rows handed to the
        library (absent cells are missing, stored zeros are zeros)."""
        csr = data.tocsr(copy=True)
        if getattr(self, "_missing", None) is not None:
            csr.data = np.where(csr.data == self._missing, np.nan, csr.data)
        csr.sum_duplicates()
        csr.sort_indices()
        rows, cols = csr.shape
        indptr = np.ascontiguousarray(csr.indptr, dtype=np.int64)
        indices = np.ascontiguousarray(csr.indices, dtype=np.int32)
        values = np.ascontiguousarray(csr.data, dtype=np.float32)
        label_vec, classes = (None, None) if label is None else _label_vector(label, rows)
        weight_vec = None if weight is None else _float_vector(weight, rows, "weight")
        _lib.call(
            "gpulayer_dataset_from_csr",
            indptr.ctypes.data,
            indices.ctypes.data,
            values.ctypes.data,
            rows,
            cols,
            _float_pointer(label_vec),
            _float_pointer(weight_vec),
            byref(self._handle),
        )
        self.categories = {}
        if feature_names is not None:
            self.set_feature_names(feature_names)
        if classes is not None:
            self.set_label_classes(classes)

    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike,
        label: str | int | None = None,
        format: str = "auto",
        no_header: bool = False,
        ignore_columns: str | Sequence[str] | None = None,
        weight_column: str | None = None,
        num_features: int = 0,
        bad_numbers: str = "error",
        categorical_columns: Sequence[str] | None = None,
        numeric_columns: Sequence[str] | None = None,
        qid_column: str | int | None = None,
        group_file: str | os.PathLike | None = None,
        base_margin_file: str | os.PathLike | None = None,
    ) -> "Dataset":
        """Read a CSV, TSV (optionally gzip-compressed) or LibSVM file.

        ``label`` names the label column of a CSV/TSV file, by name or
        0-based index (``label="y"``, ``label=0``), or is ``"none"`` for a
        file without labels (data to predict). It must be given for a
        CSV/TSV file: without it the file is refused, as XGBoost's
        ``label_column`` must be given, rather than a column taken as the
        label unasked (``gpulayer train --label`` defaults to the first
        column; this does not). String-valued columns become categorical
        features. In a LibSVM file the label is the first token of each
        line, so ``label`` is not needed, and absent entries are missing
        values; ``num_features`` fixes the feature count (0 infers it from
        the largest index).

        A CSV/TSV column counts as numeric when at least 95% of its
        non-missing cells are numbers; a cell that is not a number there is
        an error naming file, line, column and text, or with
        ``bad_numbers="missing"`` a missing value (one warning gives the
        count). ``numeric_columns`` must be numeric whatever they hold;
        ``categorical_columns`` are categorical even where they hold numbers.

        Query groups (ranking): ``qid_column`` names the CSV/TSV column of
        query ids (by name or 0-based index; not a feature), whose rows of
        one query must be together with ids non-decreasing; LibSVM files
        give ``qid:N`` tokens instead. ``group_file`` is a file of group
        sizes, one a line (LightGBM's query file), for any format.
        ``base_margin_file`` holds each row's base margins, one line a row
        (see ``base_margin`` of the constructor).
        """
        _check_bad_numbers(bad_numbers)
        try:
            fmt = _lib.FORMATS[format]
        except KeyError:
            raise ValueError(
                f"format must be one of {sorted(_lib.FORMATS)}, got {format!r}"
            ) from None
        if ignore_columns is not None and not isinstance(ignore_columns, str):
            ignore_columns = ",".join(str(c) for c in ignore_columns)
        # The library's default label is the first column. Without a label
        # the file is read as having none, and refused below if it is a
        # CSV/TSV file (a LibSVM file always has its labels).
        unnamed_label = label is None or label == ""
        options = _lib.ReadOptions(
            format=fmt,
            label=_lib.encode("none" if unnamed_label else label),
            no_header=int(bool(no_header)),
            ignore_columns=_lib.encode(ignore_columns),
            weight_column=_lib.encode(weight_column),
            num_features=int(num_features),
            bad_numbers=_lib.BAD_NUMBERS[bad_numbers],
            qid_column=_lib.encode(None if qid_column is None else str(qid_column)),
            group_file=_lib.encode(None if group_file is None else os.fspath(group_file)),
            base_margin_file=_lib.encode(None if base_margin_file is None
                                         else os.fspath(base_margin_file)),
        )
        keep = []
        for field, names in (("numeric_columns", numeric_columns),
                             ("categorical_columns", categorical_columns)):
            if names is None:
                continue
            if isinstance(names, str):
                names = [names]
            array = _lib.string_array([str(n) for n in names] + [None])
            keep.append(array)
            setattr(options, field, cast(array, POINTER(c_char_p)))
        self = cls.__new__(cls)
        self._handle = c_void_p()
        self.categories = {}
        _lib.call(
            "gpulayer_dataset_read_file",
            _lib.encode(os.fspath(path)),
            byref(options),
            byref(self._handle),
        )
        if unnamed_label:
            try:
                self.get_label()
            except InvalidArgumentError:  # read without labels: CSV/TSV
                self.close()
                raise InvalidArgumentError(
                    f"{os.fspath(path)}: name the label column of a CSV/TSV file with "
                    "label='name' or label=0 (a 0-based index), or pass label='none' "
                    "for a file without labels"
                ) from None
        return self

    @classmethod
    def _adopt(cls, handle: c_void_p, categories=None) -> "Dataset":
        self = cls.__new__(cls)
        self._handle = handle
        self.categories = dict(categories or {})
        return self

    # ------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Free the C dataset now (it is also freed when garbage-collected)."""
        handle, self._handle = getattr(self, "_handle", None), c_void_p()
        if handle is not None and handle.value:
            _lib.get().gpulayer_dataset_free(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to free with
            pass

    def __enter__(self) -> "Dataset":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def handle(self) -> c_void_p:
        """The ``gpulayer_dataset *`` handle."""
        if not self._handle.value:
            raise ValueError("the dataset has been closed")
        return self._handle

    # ------------------------------------------------------------ contents

    @property
    def num_rows(self) -> int:
        return int(_lib.get().gpulayer_dataset_num_rows(self.handle))

    @property
    def num_cols(self) -> int:
        return int(_lib.get().gpulayer_dataset_num_cols(self.handle))

    @property
    def shape(self) -> tuple[int, int]:
        return self.num_rows, self.num_cols

    @property
    def feature_names(self) -> list[str | None] | None:
        """The feature names (None for an unnamed column), or None when no
        column has a name."""
        lib = _lib.get()
        names = [
            _lib.decode(lib.gpulayer_dataset_feature_name(self.handle, c))
            for c in range(self.num_cols)
        ]
        return names if any(n is not None for n in names) else None

    def set_feature_names(self, names: Sequence[str] | None) -> None:
        """Set (or with None, forget) the feature names."""
        if names is None:
            _lib.call("gpulayer_dataset_set_feature_names", self.handle, None, 0)
            return
        names = [str(n) for n in names]
        _lib.call(
            "gpulayer_dataset_set_feature_names",
            self.handle,
            _lib.string_array(names),
            len(names),
        )

    @property
    def label_classes(self) -> list[str] | None:
        """The class names of labels that are class codes (a file's text
        labels, or set_label_classes), or None."""
        lib = _lib.get()
        count = int(lib.gpulayer_dataset_num_label_classes(self.handle))
        if count == 0:
            return None
        return [_lib.decode(lib.gpulayer_dataset_label_class(self.handle, k))
                for k in range(count)]

    def set_label_classes(self, names: Sequence[str] | None) -> None:
        """Name the classes of labels 0..K-1 (names sorted and unique); a
        model trained on the dataset keeps them. None forgets them."""
        if names is None:
            _lib.call("gpulayer_dataset_set_label_classes", self.handle, None, 0)
            return
        names = [str(n) for n in names]
        _lib.call("gpulayer_dataset_set_label_classes", self.handle,
                  _lib.string_array(names), len(names))

    def get_label(self) -> np.ndarray:
        """The labels as a float32 array (an error when there are none)."""
        out = np.empty(self.num_rows, dtype=np.float32)
        _lib.call(
            "gpulayer_dataset_get_label", self.handle, _float_pointer(out), out.size
        )
        return out

    def get_weight(self) -> np.ndarray:
        """The per-row weights as a float32 array; empty when the dataset
        has none (as XGBoost's ``DMatrix.get_weight``)."""
        has = c_int(0)
        _lib.call("gpulayer_dataset_get_weight", self.handle, None, 0, byref(has))
        if not has.value:
            return np.empty(0, dtype=np.float32)
        out = np.empty(self.num_rows, dtype=np.float32)
        _lib.call("gpulayer_dataset_get_weight", self.handle, _float_pointer(out),
                  out.size, byref(has))
        return out

    def set_label(self, label) -> None:
        """Set the labels: numbers, or class names (text), which become the
        codes of the sorted names, the names the label classes."""
        vec, classes = _label_vector(label, self.num_rows)
        _lib.call("gpulayer_dataset_set_label", self.handle, _float_pointer(vec), vec.size)
        if classes is not None:
            self.set_label_classes(classes)

    def set_weight(self, weight) -> None:
        vec = _float_vector(weight, self.num_rows, "weight")
        _lib.call("gpulayer_dataset_set_weight", self.handle, _float_pointer(vec), vec.size)

    def set_base_margin(self, margin) -> None:
        """Set each row's starting margin (see ``base_margin`` of the
        constructor); None removes them."""
        if margin is None:
            _lib.call("gpulayer_dataset_set_base_margin", self.handle, None, 0)
            self._base_margin = None
            return
        values = _as_float32(margin, "base_margin")
        if values.ndim == 0 or values.shape[0] != self.num_rows or values.ndim > 2:
            raise ValueError(f"base_margin needs one value a row ({self.num_rows} rows) or "
                             f"(rows, outputs); got shape {values.shape}")
        _lib.call("gpulayer_dataset_set_base_margin", self.handle, _float_pointer(values),
                  values.size)
        self._base_margin = values  # kept for slice()

    def set_feature_weights(self, weights) -> None:
        """Set the column-sampling weights (see ``feature_weights`` of the
        constructor); None removes them."""
        if weights is None:
            _lib.call("gpulayer_dataset_set_feature_weights", self.handle, None, 0)
            self._feature_weights = None
            return
        values = _as_float32(np.asarray(weights).reshape(-1), "feature_weights")
        _lib.call("gpulayer_dataset_set_feature_weights", self.handle, _float_pointer(values),
                  values.size)
        self._feature_weights = values  # kept for slice()

    def set_qid(self, qid) -> None:
        """Set the query groups from one query id per row (see ``qid`` of
        the constructor); None removes them."""
        if qid is None:
            _lib.call("gpulayer_dataset_set_qid", self.handle, None, 0)
            return
        vec = _int64_vector(qid, "qid")
        if vec.size != self.num_rows:
            raise ValueError(f"qid has {vec.size} values, the data {self.num_rows} rows")
        _lib.call("gpulayer_dataset_set_qid", self.handle,
                  vec.ctypes.data_as(POINTER(c_int64)), vec.size)

    def set_group(self, group) -> None:
        """Set the query groups from consecutive group sizes (see ``group``
        of the constructor); None removes them."""
        if group is None:
            _lib.call("gpulayer_dataset_set_group", self.handle, None, 0)
            return
        vec = _int64_vector(group, "group")
        _lib.call("gpulayer_dataset_set_group", self.handle,
                  vec.ctypes.data_as(POINTER(c_int64)), vec.size)

    def num_groups(self) -> int:
        """The number of query groups (0 when the dataset has none)."""
        return int(_lib.get().gpulayer_dataset_num_groups(self.handle))

    def get_group(self) -> np.ndarray:
        """The query group sizes as an int64 array; empty when the dataset
        has none."""
        n = self.num_groups()
        out = np.empty(n, dtype=np.int64)
        if n:
            _lib.call("gpulayer_dataset_get_group", self.handle,
                      out.ctypes.data_as(POINTER(c_int64)), n)
        return out

    def select_columns(self, columns: Sequence[int]) -> "Dataset":
        """A new Dataset of the given columns, in that order (names,
        categories, labels, weights and query groups kept)."""
        cols = np.ascontiguousarray(np.asarray(columns, dtype=np.int32).reshape(-1))
        handle = c_void_p()
        _lib.call(
            "gpulayer_dataset_select_columns",
            self.handle,
            cols.ctypes.data_as(POINTER(c_int32)),
            cols.size,
            byref(handle),
        )
        categories = {
            new: self.categories[old]
            for new, old in enumerate(cols.tolist())
            if old in self.categories
        }
        return Dataset._adopt(handle, categories)

    def slice(self, rindex) -> "Dataset":
        """A new Dataset of the given rows, in that order (XGBoost's
        ``DMatrix.slice``).

        The rows are taken from the data the Dataset was made from, which
        the caller keeps (the Dataset holds it weakly) and has not changed
        since. Categorical columns keep the whole data's
        dictionaries, so that the codes of a slice are those of the
        Dataset. Feature names, labels, label classes, weights, base
        margins, feature weights and query groups are kept. A query may be
        taken in part, but its rows must be together in ``rindex``; each
        run of rows of one query is a query of the slice.

        Parameters
        ----------
        rindex : array-like of int
            Row indexes (0-based; each in ``[0, num_rows)``).

        Raises
        ------
        ValueError
            For a Dataset read from a file or made by
            :meth:`select_columns`, which hold no data to take rows from;
            for an index out of range, or a query split in ``rindex``.
        """
        return self._take_rows(self._row_source(), rindex)

    def _row_source(self):
        """The data to take rows from: a scipy.sparse CSR matrix, or a
        DenseMatrix of the whole data (categorical dictionaries as the
        Dataset's). Computed once for many slices (cross-validation)."""
        source = getattr(self, "_source", None)
        if source is None:
            raise ValueError(
                "this Dataset holds no in-memory data to take rows from (it was read "
                "by Dataset.from_file or made by select_columns); make it from an array "
                "or a DataFrame instead, e.g. Dataset(pandas.read_csv(path), label=...)")
        held, feature_names, bad_numbers, categorical_feature = source
        data = held()
        if data is None:
            raise ValueError(
                "the data this Dataset was made from has been freed: slice() takes rows "
                "from it, so keep the array or DataFrame while slicing")
        if is_sparse(data):
            rows = data.tocsr()
        elif isinstance(data, DenseMatrix):
            rows = data
        else:
            with warnings.catch_warnings():  # given once, when the Dataset was made
                warnings.simplefilter("ignore")
                rows = to_dense(data, bad_numbers, categorical_feature=categorical_feature,
                                feature_names=feature_names)
        count = rows.shape[0] if is_sparse(rows) else rows.values.shape[0]
        if count != self.num_rows:
            raise ValueError("the data this Dataset was made from changed its row count")
        return rows

    def _take_rows(self, source, rindex) -> "Dataset":
        """slice() on the data of _row_source()."""
        n = self.num_rows
        rows = np.asarray(rindex)
        if rows.ndim != 1 or (rows.size and rows.dtype.kind not in "iu"):
            raise ValueError(f"row indexes must be a 1-D array of integers, got "
                             f"shape {rows.shape} and dtype {rows.dtype}")
        rows = rows.astype(np.int64)
        if rows.size and (rows.min() < 0 or rows.max() >= n):
            bad = rows[(rows < 0) | (rows >= n)][0]
            raise ValueError(f"row index {int(bad)} is out of range for {n} rows")
        try:
            label = self.get_label()
        except InvalidArgumentError:  # no labels
            label = None
        weight = self.get_weight()
        names = self.feature_names
        base_margin = getattr(self, "_base_margin", None)
        feature_weights = getattr(self, "_feature_weights", None)
        missing = getattr(self, "_missing", None)
        if is_sparse(source):
            data = source[rows]
        else:
            values = np.ascontiguousarray(np.asarray(source.values)[rows])
            data = source._replace(values=values, layout=_lib.ROW_MAJOR)
        out = Dataset(
            data,
            label=None if label is None else label[rows],
            weight=weight[rows] if weight.size else None,
            feature_names=names if names is not None and None not in names else None,
            base_margin=None if base_margin is None else base_margin[rows],
            feature_weights=feature_weights,
            missing=np.nan if missing is None else missing,
        )
        classes = self.label_classes
        if classes is not None:
            out.set_label_classes(classes)
        sizes = self.get_group()
        if sizes.size:
            out.set_qid(_query_runs(np.repeat(np.arange(sizes.size), sizes)[rows]))
        return out

    def __repr__(self) -> str:
        if not self._handle.value:
            return "<gpulayer.Dataset (closed)>"
        return f"<gpulayer.Dataset {self.num_rows} rows x {self.num_cols} features>"

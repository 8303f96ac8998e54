"""The trained model: :class:`Booster`, a handle on a ``gpulayer_booster``."""

from __future__ import annotations

import copy
import ctypes
import os
import re
from ctypes import POINTER, byref, c_double, c_float, c_void_p
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np

from . import _lib
from .dataset import Dataset, is_dataframe, is_sparse, to_dense
from .errors import InvalidArgumentError, OutOfMemoryError

if TYPE_CHECKING:
    from .predictor import Predictor

__all__ = ["Booster", "format_param"]

# The text of an integer as categorical_feature names a category.
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")


def format_param(value: Any) -> str:
    """A parameter value as the text gpulayer_booster_set_param expects."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    return str(value)


# Parameters that may be given several times; any other takes one value.
_MULTI_VALUED = {"eval_metric"}
# Parameters whose one value may be a list, sent as "[a,b,c]".
_LIST_VALUED = {"quantile_alpha"}


def _format_list(key: str, value) -> str:
    """A list parameter's text: "[0.1,0.5,0.9]" (a single value as is)."""
    values = np.asarray(value, dtype=np.float64).reshape(-1)
    if values.size == 0:
        raise InvalidArgumentError(f"parameter '{key}' needs at least one value")
    return "[" + ",".join(repr(float(v)) for v in values) + "]"


def _feature_index(param: str, f, feature_names) -> int:
    """A feature given by index or, where the data have names, by name."""
    if not isinstance(f, str):
        return int(f)
    if feature_names is None or f not in list(feature_names):
        raise InvalidArgumentError(
            f"parameter '{param}': no feature named {f!r}"
            + ("" if feature_names is not None else " (the data have no names)"))
    return list(feature_names).index(f)


def interaction_text(value, feature_names=None) -> str:
    """interaction_constraints as the library's text "[[0,1],[2,3]]": from
    a list of lists of feature indices or, given the data's feature names,
    of names (XGBoost's forms); text passes as it is."""
    if isinstance(value, str):
        return value
    sets = []
    for group in value:
        indices = [str(_feature_index("interaction_constraints", f, feature_names))
                   for f in group]
        sets.append("[" + ",".join(indices) + "]")
    return "[" + ",".join(sets) + "]"


def monotone_text(value, feature_names=None) -> str:
    """monotone_constraints as the library's text "(1,-1,0)": from a list
    of 1, -1 and 0 a feature or a dict by feature index or, given the
    data's feature names, by name (XGBoost's forms); text passes as it is.
    Features a dict leaves out are free."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        signs = {_feature_index("monotone_constraints", f, feature_names): sign
                 for f, sign in value.items()}
        value = [signs.get(f, 0) for f in range(max(signs) + 1)] if signs else []
    entries = []
    for sign in np.asarray(value).reshape(-1).tolist():
        if sign not in (-1, 0, 1):
            raise InvalidArgumentError(
                f"parameter 'monotone_constraints': {sign!r} is not 1, -1 or 0")
        entries.append(str(int(sign)))
    return "(" + ",".join(entries) + ")" if entries else ""


def _param_pairs(params) -> list[tuple[str, Any]]:
    """The (name, value) pairs of a dict or of a sequence of pairs (as
    XGBoost takes them); a TypeError saying what was given otherwise."""
    if isinstance(params, Mapping):
        pairs = list(params.items())
    elif isinstance(params, Iterable) and not isinstance(params, (str, bytes)):
        pairs = list(params)
        for item in pairs:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                raise TypeError("parameters are a dict or a sequence of (name, value) "
                                f"pairs; got the item {item!r}")
    else:
        raise TypeError("parameters are a dict or a sequence of (name, value) pairs, "
                        f"got {type(params).__name__} {params!r}")
    for key, _ in pairs:
        if not isinstance(key, str):
            raise TypeError(f"a parameter name is a string, got {type(key).__name__} {key!r}")
    return pairs


def _param_items(params: Mapping[str, Any] | Iterable[tuple[str, Any]]):
    """(key, text) pairs; a list or tuple value (eval_metric) gives one
    pair per element, None values are skipped."""
    for key, value in _param_pairs(params):
        if value is None:
            continue
        if key in _LIST_VALUED and isinstance(value, (list, tuple, np.ndarray)):
            yield key, _format_list(key, value)
            continue
        if key == "interaction_constraints":
            yield key, interaction_text(value)
            continue
        if key == "monotone_constraints":
            yield key, monotone_text(value)
            continue
        if isinstance(value, (list, tuple)) and key not in _MULTI_VALUED:
            # Setting each element in turn would keep the last one only.
            raise InvalidArgumentError(
                f"parameter '{key}' takes one value, got {type(value).__name__} {value!r}")
        if isinstance(value, (list, tuple)):
            for v in value:
                yield key, format_param(v)
        else:
            yield key, format_param(value)


class Booster:
    """A gradient-boosted tree model and its training parameters.

    Create one with :func:`gpulayer.train`, load a saved model with
    ``Booster(model_file=path)``, or make an untrained one with parameters.
    Parameter names are the C library's (XGBoost's): objective, eta,
    max_depth, min_child_weight, lambda, alpha, gamma, subsample,
    colsample_bytree, colsample_bylevel, colsample_bynode, max_bin, num_round,
    seed, nthread, base_score, num_class, grow_policy, max_leaves, eval_metric, early_stopping_rounds,
    device, verbosity; for categorical features categorical, max_cat_to_onehot,
    max_cat_threshold, cat_smooth, cat_l2, min_data_per_group.

    Boosters pickle (the model travels as its JSON text) and copy.
    """

    def __init__(self, params: Mapping[str, Any] | None = None,
                 model_file: str | os.PathLike | None = None):
        self._handle = c_void_p()
        self._params: list[tuple[str, str]] = []
        if model_file is not None:
            _lib.call("gpulayer_booster_load", _lib.encode(os.fspath(model_file)),
                      byref(self._handle))
        else:
            _lib.call("gpulayer_booster_create", byref(self._handle))
        if params:
            self.set_params(params)

    # ------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Free the C booster now (it is also freed when garbage-collected)."""
        handle, self._handle = getattr(self, "_handle", None), c_void_p()
        if handle is not None and handle.value:
            _lib.get().gpulayer_booster_free(handle)

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to free with
            pass

    @property
    def handle(self) -> c_void_p:
        """The ``gpulayer_booster *`` handle."""
        if not self._handle.value:
            raise ValueError("the booster has been closed")
        return self._handle

    def _replace_handle(self, handle: c_void_p) -> None:
        self.close()
        self._handle = handle
        for key, value in self._params:
            _lib.call("gpulayer_booster_set_param", handle, _lib.encode(key),
                      _lib.encode(value))

    # ---------------------------------------------------------- parameters

    def set_param(self, params: str | Mapping[str, Any] | Iterable[tuple[str, Any]],
                  value: Any = None) -> None:
        """Set parameters as XGBoost's ``Booster.set_param`` does: one by
        name, ``set_param("eta", 0.1)``, or several at once,
        ``set_param({"eta": 0.1, "max_depth": 4})`` or a sequence of
        (name, value) pairs (None values are then skipped). A list value
        sets the parameter once per element, as eval_metric allows."""
        if isinstance(params, str):
            if value is None:
                raise TypeError(f"set_param({params!r}) needs a value: "
                                f"set_param({params!r}, value)")
            params = {params: value}
        elif value is not None:
            raise TypeError("set_param takes a value only after a parameter name; "
                            "a dict or pairs carry their own values")
        self.set_params(params)

    def set_params(self, params: Mapping[str, Any] | Iterable[tuple[str, Any]]
                   ) -> None:
        """Set several parameters; None values are skipped."""
        for key, text in _param_items(params):
            _lib.call("gpulayer_booster_set_param", self.handle, _lib.encode(key),
                      _lib.encode(text))
            self._params.append((key, text))

    def get_param(self, key: str) -> str:
        """The current value of a parameter, as text."""
        buf = ctypes.create_string_buffer(512)
        _lib.call("gpulayer_booster_get_param", self.handle, _lib.encode(key),
                  buf, len(buf))
        return buf.value.decode("utf-8", "replace")

    # ------------------------------------------------------------- queries

    @property
    def num_features(self) -> int:
        """Features the model was trained on (0 before training)."""
        return int(_lib.get().gpulayer_booster_num_features(self.handle))

    @property
    def num_rounds(self) -> int:
        """Boosting rounds in the model."""
        return int(_lib.get().gpulayer_booster_num_rounds(self.handle))

    def num_boosted_rounds(self) -> int:
        """Boosting rounds in the model (XGBoost's name)."""
        return self.num_rounds

    @property
    def num_outputs(self) -> int:
        """Outputs per row: num_class for multi:softprob, else 1."""
        return int(_lib.get().gpulayer_booster_num_outputs(self.handle))

    @property
    def best_iteration(self) -> int | None:
        """The 0-based best round found by early stopping, or None."""
        best = int(_lib.get().gpulayer_booster_best_round(self.handle))
        return best if best >= 0 else None

    @property
    def feature_names(self) -> list[str | None] | None:
        """The model's feature names, or None when it has none."""
        lib = _lib.get()
        names = [
            _lib.decode(lib.gpulayer_booster_feature_name(self.handle, f))
            for f in range(self.num_features)
        ]
        return names if any(n is not None for n in names) else None

    @property
    def class_names(self) -> list[str] | None:
        """For a model trained on class names (a file's text labels): the
        name of each class code, sorted; None for numeric labels."""
        lib = _lib.get()
        count = int(lib.gpulayer_booster_num_class_names(self.handle))
        if count == 0:
            return None
        return [_lib.decode(lib.gpulayer_booster_class_name(self.handle, k))
                for k in range(count)]

    @property
    def feature_types(self) -> list[str]:
        """Per feature "c" (categorical) or "q" (numeric), as XGBoost's
        feature_types."""
        lib = _lib.get()
        return ["c" if lib.gpulayer_booster_feature_is_categorical(self.handle, f)
                else "q" for f in range(self.num_features)]

    def categories(self, feature: int) -> list[str] | None:
        """The category names of a categorical feature in code order (sorted),
        or None for a numeric feature."""
        lib = _lib.get()
        count = int(lib.gpulayer_booster_num_categories(self.handle, feature))
        if not lib.gpulayer_booster_feature_is_categorical(self.handle, feature):
            return None
        return [_lib.decode(lib.gpulayer_booster_category_name(self.handle, feature, c))
                for c in range(count)]

    def get_dump(self, with_stats: bool = False, dump_format: str = "text",
                 max_depth: int = 0) -> list[str]:
        """The trees as text, one string a tree, in XGBoost's layout:
        ``0:[age<41.5] yes=1,no=2,missing=1`` for a numeric split,
        ``0:[colour in {blue, red}] yes=1,no=2,missing=2`` for a
        categorical one (the listed categories go to yes; missing and
        unseen categories to missing), ``1:leaf=0.25`` for a leaf.
        ``with_stats`` adds gain and cover; ``max_depth`` > 0 cuts each tree
        at that depth (a deeper split reads ``9:...``)."""
        if dump_format != "text":
            raise ValueError(f"dump_format must be 'text', got {dump_format!r}")
        trees = int(_lib.get().gpulayer_booster_num_trees(self.handle))
        return [
            _lib.take_buffer("gpulayer_booster_dump_tree", self.handle, t,
                             int(bool(with_stats)), int(max_depth)).decode("utf-8")
            for t in range(trees)
        ]

    def dump_model(self, path: str | os.PathLike, with_stats: bool = False) -> None:
        """Write every tree as text (see :meth:`get_dump`), each after a
        ``booster[t]:`` line, as XGBoost's dump_model."""
        text = _lib.take_buffer("gpulayer_booster_dump_model", self.handle,
                                int(bool(with_stats)))
        with open(path, "wb") as f:
            f.write(text)

    def feature_importance(self, importance_type: str = "weight") -> np.ndarray:
        """Per-feature importance: 'weight' (number of splits), 'gain'
        (mean gain of its splits), 'cover' (mean hessian sum),
        'total_gain' or 'total_cover'. :attr:`feature_types` says which
        features are categorical."""
        try:
            kind = _lib.IMPORTANCE_TYPES[importance_type]
        except KeyError:
            raise ValueError(
                f"importance_type must be one of {sorted(_lib.IMPORTANCE_TYPES)}, "
                f"got {importance_type!r}"
            ) from None
        out = np.zeros(self.num_features, dtype=np.float64)
        _lib.call("gpulayer_booster_feature_importance", self.handle, kind,
                  out.ctypes.data_as(POINTER(c_double)), out.size)
        return out

    # ------------------------------------------------------------- predict

    def predict(self, data, output_margin: bool = False,
                iteration_range: tuple[int, int] | None = None,
                num_rounds: int = 0, device: str = "cpu",
                pred_contribs: bool = False, approx_contribs: bool = False,
                pred_interactions: bool = False) -> np.ndarray:
        """Predict every row of data (a Dataset or anything Dataset accepts).

        Returns float32 values of shape (rows,) when the model has one output
        (regression, binary probability, multi:softmax class index) and
        (rows, outputs) otherwise. ``output_margin`` gives raw margins.
        ``num_rounds`` (or ``iteration_range=(0, n)``) uses only the first n
        rounds; by default all rounds, or up to the best round when the model
        was trained with early stopping. ``device`` ("cpu", "cuda[:N]",
        "vulkan[:N]" or "auto") runs binning and the tree walk there, with
        the same output bits as the cpu.

        ``pred_contribs`` gives each feature's contribution to the margin
        (exact TreeSHAP; Saabas' approximation with ``approx_contribs``),
        the last column the bias: shape (rows, features + 1), or (rows,
        outputs, features + 1) for several outputs. ``pred_interactions``
        gives SHAP interaction values, (rows, features + 1, features + 1)
        or (rows, outputs, features + 1, features + 1). These run on the
        cpu only.
        """
        if iteration_range is not None:
            begin, end = iteration_range
            if begin != 0:
                raise ValueError("iteration_range must start at 0")
            num_rounds = int(end)
        if num_rounds < 0:
            raise ValueError(f"num_rounds must be >= 0, got {num_rounds}")
        dataset = self._prediction_data(data)
        if pred_contribs or pred_interactions:
            return self._predict_shap(dataset, num_rounds, device, approx_contribs,
                                      pred_interactions)
        flags = _lib.PREDICT_MARGIN if output_margin else _lib.PREDICT_DEFAULT
        width = int(_lib.get().gpulayer_booster_prediction_width(self.handle, flags))
        if width < 1:
            raise ValueError("the booster has no model: train or load one first")
        rows = dataset.num_rows
        out = np.empty((rows, width), dtype=np.float32)
        _lib.call("gpulayer_booster_predict_device", self.handle, dataset.handle,
                  _lib.encode(device), flags, int(num_rounds),
                  out.ctypes.data_as(POINTER(c_float)), out.size)
        return out[:, 0] if width == 1 else out

    def _predict_shap(self, dataset, num_rounds: int, device: str, approx: bool,
                      interactions: bool) -> np.ndarray:
        if device not in ("cpu", "", None):
            raise ValueError(f"SHAP values are computed on the cpu only, not on "
                             f"device {device!r}: use device='cpu'")
        if interactions and approx:
            raise ValueError("approx_contribs applies to pred_contribs, not to "
                             "pred_interactions")
        lib = _lib.get()
        outputs = int(lib.gpulayer_booster_prediction_width(self.handle, _lib.PREDICT_MARGIN))
        if outputs < 1:
            raise ValueError("the booster has no model: train or load one first")
        cols = int(lib.gpulayer_booster_num_features(self.handle)) + 1
        shape = (dataset.num_rows, outputs, cols) + ((cols,) if interactions else ())
        try:
            out = np.empty(shape, dtype=np.float32)
        except (MemoryError, ValueError) as e:  # ValueError: beyond the address space
            need = 4.0 * np.prod(np.array(shape, dtype=np.float64))
            what = (f"{dataset.num_rows} rows x {outputs} output(s) x (features + 1)^2 = "
                    f"{cols}^2" if interactions else
                    f"{dataset.num_rows} rows x {outputs} output(s) x (features + 1) = {cols}")
            raise OutOfMemoryError(
                f"SHAP {'interaction values' if interactions else 'values'} need {what} "
                f"floats ({need / 2**30:.1f} GiB), more than this host can allocate; "
                "explain fewer rows at a time") from e
        ptr = out.ctypes.data_as(POINTER(c_float))
        if interactions:
            _lib.call("gpulayer_booster_predict_interactions", self.handle, dataset.handle,
                      0, int(num_rounds), ptr, out.size)
        else:
            _lib.call("gpulayer_booster_predict_contribs", self.handle, dataset.handle,
                      _lib.CONTRIBS_APPROX if approx else 0, int(num_rounds), ptr, out.size)
        return out[:, 0] if outputs == 1 else out

    def predictor(self, output_margin: bool = False, num_rounds: int = 0) -> "Predictor":
        """The model prepared for many small predictions (a service answering
        one request at a time): see :class:`gpulayer.Predictor`. Its
        ``predict(X)`` gives what ``predict(X, output_margin, num_rounds)``
        gives, bit for bit, without preparing the trees again each call."""
        from .predictor import Predictor
        return Predictor(self, output_margin=output_margin, num_rounds=num_rounds)

    def _feature_kinds(self) -> list[str]:
        """How prediction data are read, per feature: "numeric";
        "integer" for a categorical feature whose categories are all
        integers (categorical_feature columns: numbers are the names);
        "categorical" for other categorical features (numbers are codes)."""
        kinds = []
        for f, kind in enumerate(self.feature_types):
            if kind == "q":
                kinds.append("numeric")
            else:
                names = self.categories(f)
                kinds.append("integer" if names and all(_INTEGER.fullmatch(n) for n in names)
                             else "categorical")
        return kinds

    def _prediction_data(self, data) -> Dataset:
        """data as a Dataset whose columns are the model's features: a
        DataFrame or named Dataset with other or more columns is matched
        to the model's feature names."""
        names = self.feature_names
        if names is not None and None in names:
            names = None  # partly unnamed: match by position only
        if is_dataframe(data):
            columns = {str(c): c for c in data.columns}
            if names is not None and list(columns) != names:
                missing = [n for n in names if n not in columns]
                if missing:
                    raise ValueError(
                        f"the data have no column {missing[0]!r}, a feature of the "
                        f"model ({len(missing)} missing)"
                    )
                data = data.loc[:, [columns[n] for n in names]]
            # Text columns are read as the model reads them, so that a
            # typo in a numeric feature is reported at its row.
            if data.shape[1] == self.num_features:
                return Dataset(to_dense(data, kinds=self._feature_kinds()))
            return Dataset(data)
        if not isinstance(data, Dataset):
            kinds = None if is_sparse(data) else self._feature_kinds()
            if kinds is None or "integer" not in kinds:
                return Dataset(data)
            return Dataset(to_dense(data, kinds=kinds))
        data_names = data.feature_names
        if names is None or data_names is None or data_names == names:
            return data
        index = {n: i for i, n in enumerate(data_names) if n is not None}
        missing = [n for n in names if n not in index]
        if missing:
            raise ValueError(
                f"the data have no column {missing[0]!r}, a feature of the model "
                f"({len(missing)} missing)"
            )
        return data.select_columns([index[n] for n in names])

    # -------------------------------------------------------- model files

    def save_model(self, path: str | os.PathLike) -> None:
        """Write the model as versioned JSON (atomically)."""
        _lib.call("gpulayer_booster_save", self.handle, _lib.encode(os.fspath(path)))

    def load_model(self, path: str | os.PathLike) -> "Booster":
        """Replace this booster's model with one read from a file; the
        parameters set on this object are applied again. Returns self."""
        handle = c_void_p()
        _lib.call("gpulayer_booster_load", _lib.encode(os.fspath(path)), byref(handle))
        self._replace_handle(handle)
        return self

    def save_raw(self) -> bytes:
        """The model as JSON text (bytes)."""
        return _lib.take_buffer("gpulayer_booster_save_to_buffer", self.handle)

    def load_raw(self, raw: bytes) -> "Booster":
        """Replace this booster's model with one from save_raw(). Returns self."""
        handle = c_void_p()
        raw = bytes(raw)
        _lib.call("gpulayer_booster_load_from_buffer", raw, len(raw), byref(handle))
        self._replace_handle(handle)
        return self

    def export_xgboost(self, path: str | os.PathLike) -> None:
        """Write the model in XGBoost's JSON model format, for
        ``xgboost.Booster(model_file=path)``."""
        _lib.call("gpulayer_booster_export_xgboost", self.handle,
                  _lib.encode(os.fspath(path)))

    # ---------------------------------------------------- pickle and copy

    def _has_model(self) -> bool:
        return self.num_rounds > 0 or self.num_features > 0

    def __getstate__(self) -> dict:
        return {
            "params": list(self._params),
            "model": self.save_raw() if self._has_model() else None,
        }

    def __setstate__(self, state: dict) -> None:
        self._handle = c_void_p()
        self._params = list(state["params"])
        handle = c_void_p()
        if state["model"] is not None:
            raw = state["model"]
            _lib.call("gpulayer_booster_load_from_buffer", raw, len(raw), byref(handle))
        else:
            _lib.call("gpulayer_booster_create", byref(handle))
        self._replace_handle(handle)

    def __copy__(self) -> "Booster":
        return self.__deepcopy__({})

    def __deepcopy__(self, memo) -> "Booster":
        clone = Booster.__new__(Booster)
        clone.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return clone

    def copy(self) -> "Booster":
        """An independent copy of this booster."""
        return self.__deepcopy__({})

    def __repr__(self) -> str:
        if not self._handle.value:
            return "<gpulayer.Booster (closed)>"
        return (f"<gpulayer.Booster {self.num_rounds} rounds, "
                f"{self.num_features} features>")

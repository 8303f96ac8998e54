"""The trained model: :class:`Booster`, a handle on a ``gpulayer_booster``."""

from __future__ import annotations

import copy
import ctypes
import json
import os
import warnings
from ctypes import POINTER, byref, c_double, c_float, c_void_p
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np

from . import _lib
from . import _model_text
from . import _tree_dump
from .dataset import (Dataset, arrow_table, is_arrow, is_dataframe, is_sparse,
                      to_dense)
from .errors import InvalidArgumentError, OutOfMemoryError

if TYPE_CHECKING:
    from .predictor import Predictor

__all__ = ["Booster", "format_param"]


def format_param(value: Any) -> str:
    """A parameter value as the text gpulayer_booster_set_param expects."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return repr(value)
    return str(value)


# Parameters that may be given several times (eval_metric and LightGBM's
# names of it); any other takes one value.
_MULTI_VALUED = {"eval_metric", "metric", "metrics", "metric_types"}
# Parameters whose one value may be a list, sent as "[a,b,c]".
_LIST_VALUED = {"quantile_alpha", "expectile_alpha"}


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
        if isinstance(value, (set, frozenset)):
            value = list(value)  # LightGBM's metric={"l2", "l1"}, in its order
        if isinstance(value, (list, tuple)) and key not in _MULTI_VALUED:
            # Setting each element in turn would keep the last one only.
            raise InvalidArgumentError(
                f"parameter '{key}' takes one value, got {type(value).__name__} {value!r}")
        if isinstance(value, (list, tuple)):
            for v in value:
                yield key, format_param(v)
        else:
            yield key, format_param(value)


# ----------------------------------------------------- model file members

def _read_attributes(raw: bytes) -> dict[str, str]:
    """The attributes a model text carries (set_attr's), or {}."""
    if b'"' + _model_text.ATTRIBUTES.encode() + b'"' not in raw:
        return {}
    attrs = _model_text.parse(raw).get(_model_text.ATTRIBUTES) or {}
    return {str(k): str(v) for k, v in attrs.items()}


def _read_attributes_file(path: str) -> dict[str, str]:
    with open(path, "rb") as f:
        raw = f.read()
    # XGBoost's and LightGBM's files keep no attributes of this library's.
    if _foreign_model(raw):
        return {}
    return _read_attributes(raw)


def _foreign_model(raw: bytes) -> bool:
    """Whether raw is a model file of XGBoost (JSON or UBJSON) or LightGBM."""
    head = raw[:64].lstrip()
    return (raw.startswith(b"tree\n") or raw.startswith(b"tree\r")
            or (raw[:1] == b"{" and raw[1:2] in (b"i", b"U", b"I", b"l", b"L", b"$", b"#"))
            or head.startswith(b'{"learner"'))


def _with_attributes(raw: bytes, attrs: Mapping[str, str]) -> bytes:
    """The model text raw carrying attrs, checksum renewed."""
    if not attrs:
        return raw
    doc = _model_text.parse(raw)
    doc[_model_text.ATTRIBUTES] = dict(attrs)
    return _model_text.seal(doc)


# XGBoost's attributes that the model itself holds or that slicing drops.
_BEST_ITERATION, _BEST_SCORE = "best_iteration", "best_score"

# The metric evaluation reports for an objective when eval_metric is not
# given: XGBoost 3.2's, as the library's training reports it.
_DEFAULT_METRIC = {
    "binary:logistic": "logloss", "binary:logitraw": "logloss", "binary:hinge": "error",
    "multi:softmax": "mlogloss", "multi:softprob": "mlogloss",
    "reg:absoluteerror": "mae", "count:poisson": "poisson-nloglik",
    "reg:gamma": "gamma-deviance", "reg:squaredlogerror": "rmsle",
    "reg:pseudohubererror": "mphe", "reg:quantileerror": "quantile",
    "reg:expectileerror": "expectile", "survival:cox": "cox-nloglik",
}


class _Training:
    """What a :class:`Booster` answers while :func:`gpulayer.train` runs
    its callbacks on it: the rounds done so far, and the best round and
    score callbacks set, applied once training returns (the C library
    swaps the model in at the end of its run). ``has_trees``: whether the
    booster holds the rounds reported (round by round training) or not
    yet (one run of the C library); ``params_allowed``: whether a
    parameter set now applies to the next round."""

    def __init__(self, rounds: int, params_allowed: bool):
        self.rounds = rounds
        self.params_allowed = params_allowed
        self.has_trees = False
        self.best_iteration: int | None = None
        self.best_set = False
        self.best_score_set = False


class Booster:
    """A gradient-boosted tree model and its training parameters.

    Create one with :func:`gpulayer.train`, load a saved model with
    ``Booster(model_file=path)``, or make an untrained one with parameters.
    Parameter names are the C library's (XGBoost's): objective, eta,
    max_depth, min_child_weight, lambda, alpha, gamma, subsample,
    colsample_bytree, colsample_bylevel, colsample_bynode, max_bin, num_round,
    seed, nthread, base_score, num_class, grow_policy, max_leaves, eval_metric, early_stopping_rounds,
    device, verbosity; for categorical features categorical, max_cat_to_onehot,
    max_cat_threshold, max_categories, cat_smooth, cat_l2, min_data_per_group.

    Boosters pickle (the model travels as its JSON text) and copy.

    XGBoost's ``Booster`` methods are there under their names: attributes
    (:meth:`attr`, :meth:`set_attr`, :meth:`attributes`, :attr:`best_score`),
    configuration (:meth:`save_config`, :meth:`load_config`), importance
    (:meth:`get_score`, :meth:`get_fscore`), dumps (:meth:`get_dump`,
    :meth:`trees_to_dataframe`), evaluation (:meth:`eval`, :meth:`eval_set`),
    one more round (:meth:`update`) and slicing (``bst[a:b]``, ``iter(bst)``).
    """

    def __init__(self, params: Mapping[str, Any] | None = None,
                 model_file: str | os.PathLike | None = None):
        self._handle = c_void_p()
        self._params: list[tuple[str, str]] = []
        self._attrs: dict[str, str] = {}
        self._training: _Training | None = None
        if model_file is not None:
            path = os.fspath(model_file)
            _lib.call("gpulayer_booster_load", _lib.encode(path), byref(self._handle))
            self._attrs = _read_attributes_file(path)
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

    def _check_trees(self, what: str) -> None:
        """Refuses what needs the trees while one run of the C library
        trains them: they reach the booster when train() returns."""
        training = getattr(self, "_training", None)
        if training is not None and not training.has_trees:
            raise NotImplementedError(
                f"{what} is not available in a training callback: the trees reach "
                "the booster when train() returns (use after_training)")

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
        training = getattr(self, "_training", None)
        if training is not None and not training.params_allowed:
            raise NotImplementedError(
                "parameters cannot change while the C library trains: the learning "
                "rate changes through gpulayer.callback.LearningRateScheduler, with "
                "which train() trains round by round")
        for key, text in _param_items(params):
            if key not in _MULTI_VALUED:  # the last value is the one that counts
                self._params = [p for p in self._params if p[0] != key]
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
        training = getattr(self, "_training", None)
        if training is not None:
            return training.rounds
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
        training = getattr(self, "_training", None)
        if training is not None and training.best_set:
            return training.best_iteration
        best = int(_lib.get().gpulayer_booster_best_round(self.handle))
        return best if best >= 0 else None

    @best_iteration.setter
    def best_iteration(self, iteration: int | None) -> None:
        training = getattr(self, "_training", None)
        if training is not None:
            training.best_iteration = None if iteration is None else int(iteration)
            training.best_set = True
            return
        _lib.call("gpulayer_booster_set_best_round", self.handle,
                  -1 if iteration is None else int(iteration))

    @property
    def best_score(self) -> float | None:
        """The value, at :attr:`best_iteration`, of the metric early stopping
        watched (the last metric of the last evaluation set), as XGBoost's
        ``best_score``; None when training did not stop early (as
        :attr:`best_iteration`; XGBoost raises AttributeError)."""
        value = self._attrs.get(_BEST_SCORE)
        return float(value) if value is not None and self.best_iteration is not None else None

    @best_score.setter
    def best_score(self, score: float | None) -> None:
        self.set_attr(best_score=score)

    # --------------------------------------------------------- attributes

    def attr(self, key: str) -> str | None:
        """The attribute key as a string, or None when it is not set."""
        return self.attributes().get(key)

    def attributes(self) -> dict[str, str]:
        """Every attribute, as XGBoost's ``Booster.attributes``: those of
        :meth:`set_attr`, and ``best_iteration`` and ``best_score`` after
        early stopping."""
        attrs = dict(self._attrs)
        best = self.best_iteration
        if best is None:
            attrs.pop(_BEST_SCORE, None)
        else:
            attrs[_BEST_ITERATION] = str(best)
        return attrs

    def set_attr(self, **kwargs: Any) -> None:
        """Set attributes, each value kept as ``str(value)``; None deletes
        one. They are saved with the model (:meth:`save_model`,
        :meth:`save_raw`, pickling) and read back by :meth:`load_model`;
        the library and the ``gpulayer`` command ignore them.
        ``best_iteration`` sets the round prediction stops at."""
        for key, value in kwargs.items():
            if not isinstance(key, str):
                raise TypeError(f"an attribute name is a string, got {key!r}")
            if key == _BEST_ITERATION:
                self.best_iteration = None if value is None else int(value)
            elif value is None:
                self._attrs.pop(key, None)
            else:
                self._attrs[key] = str(value)
            training = getattr(self, "_training", None)
            if key == _BEST_SCORE and training is not None:
                training.best_score_set = True

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

    def _trees_per_round(self) -> int:
        """The trees of one round: an output's num_parallel_tree trees for
        every output (multi:softmax included)."""
        lib = _lib.get()
        rounds = int(lib.gpulayer_booster_num_rounds(self.handle))
        return int(lib.gpulayer_booster_num_trees(self.handle)) // rounds if rounds else 1

    def _tree_texts(self, with_stats: bool, max_depth: int = 0) -> list[str]:
        self._check_trees("the trees' dump")
        trees = int(_lib.get().gpulayer_booster_num_trees(self.handle))
        return [
            _lib.take_buffer("gpulayer_booster_dump_tree", self.handle, t,
                             int(bool(with_stats)), int(max_depth)).decode("utf-8")
            for t in range(trees)
        ]

    def _feature_labels(self) -> list[str]:
        """Each feature as the dump names it: its name, or f<index>."""
        return [_lib.take_buffer("gpulayer_booster_feature_label", self.handle, f
                                 ).decode("utf-8") for f in range(self.num_features)]

    def _renamer(self, fmap) -> Any:
        """The dump's feature label -> the name a feature map file gives
        (XGBoost's fmap: lines "index<TAB>name<TAB>type"); identity for ""."""
        if fmap is None or (isinstance(fmap, (str, os.PathLike)) and not os.fspath(fmap)):
            return str
        if isinstance(fmap, bool):
            raise TypeError("fmap is a feature map file name; with_stats is the second "
                            "argument (get_dump(with_stats=True))")
        names = _tree_dump.read_fmap(os.path.expanduser(os.fspath(fmap)))
        index = {label: f for f, label in enumerate(self._feature_labels())}
        return lambda label: names.get(index.get(label, -1), label)

    def _trees(self, with_stats: bool = True) -> list[list["_tree_dump.Node"]]:
        """Every tree's nodes, read from the library's dump."""
        return [_tree_dump.parse_tree(t) for t in self._tree_texts(with_stats)]

    def _category_codes(self, label: str, names: list[str]) -> list[int]:
        """The codes of a categorical split's category names."""
        f = self._feature_labels().index(label)
        order = {n: c for c, n in enumerate(self.categories(f) or [])}
        return [order[n] for n in names]

    def get_dump(self, fmap: str | os.PathLike = "", with_stats: bool = False,
                 dump_format: str = "text", max_depth: int = 0) -> list[str]:
        """The trees, one string a tree, as XGBoost's ``get_dump``.

        ``dump_format="text"``: ``0:[age<41.5] yes=1,no=2,missing=1`` for
        a numeric split, ``0:[colour in {blue, red}] yes=1,no=2,missing=2``
        for a categorical one (the listed categories go to yes; missing and
        unseen categories to missing), ``1:leaf=0.25`` for a leaf, one line
        a node indented by depth. ``"json"``: XGBoost's JSON layout, nodes
        with nodeid, depth, split, split_condition (for a categorical split
        the list of category codes going to yes; :meth:`categories` names
        them), yes, no, missing, children, leaves with nodeid and leaf.
        ``with_stats`` adds gain and cover. ``fmap`` names a feature map
        file (``index<TAB>name<TAB>type`` lines) whose names replace the
        model's. ``max_depth`` > 0 cuts each text tree at that depth (a
        deeper split reads ``9:...``)."""
        rename = self._renamer(fmap)
        if dump_format == "text":
            texts = self._tree_texts(with_stats, max_depth)
            if rename is str:
                return texts
            return [_tree_dump.render_text(_tree_dump.parse_tree(t), rename) for t in texts]
        if dump_format == "json":
            if max_depth:
                raise ValueError("max_depth cuts text dumps only")
            return [_tree_dump.render_json(nodes, with_stats, rename, self._category_codes)
                    for nodes in self._trees(with_stats)]
        raise ValueError(f"dump_format must be 'text' or 'json', got {dump_format!r}")

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

    def get_score(self, fmap: str | os.PathLike = "",
                  importance_type: str = "weight") -> dict[str, float]:
        """Feature importance as XGBoost's ``get_score``: ``{feature: value}``
        for the features some split uses (features without a name are
        ``f<index>``; ``fmap`` renames them as in :meth:`get_dump`).
        ``importance_type``: 'weight' (number of splits), 'gain' (mean gain
        of its splits), 'cover' (mean hessian sum), 'total_gain' or
        'total_cover'."""
        values = self.feature_importance(importance_type)
        used = self.feature_importance("weight") > 0
        rename = self._renamer(fmap)
        return {rename(label): float(values[f])
                for f, label in enumerate(self._feature_labels()) if used[f]}

    def get_fscore(self, fmap: str | os.PathLike = "") -> dict[str, float]:
        """The number of splits on each feature used: ``get_score(fmap,
        "weight")``."""
        return self.get_score(fmap, importance_type="weight")

    def trees_to_dataframe(self, fmap: str | os.PathLike = ""):
        """The trees as a pandas DataFrame, one row a node, with XGBoost's
        columns: Tree, Node, ID ("tree-node"), Feature ("Leaf" for a leaf),
        Split (numeric threshold; NaN for leaves and categorical splits),
        Yes, No, Missing (IDs of the children), Gain (a leaf's value for a
        leaf, as XGBoost's), Cover and Category (the codes, as strings, of
        the categories a categorical split sends to yes; NaN otherwise)."""
        from pandas import DataFrame

        rename = self._renamer(fmap)
        nan = float("nan")
        rows = []
        for t, nodes in enumerate(self._trees(with_stats=True)):
            for n in nodes:
                if n.feature is None:
                    rows.append((t, n.nodeid, "Leaf", nan, nan, nan, nan,
                                 float(n.leaf), float(n.cover), nan))
                    continue
                category = (None if n.categories is None else
                            [str(c) for c in self._category_codes(n.feature, n.categories)])
                rows.append((t, n.nodeid, rename(n.feature),
                             nan if n.condition is None else float(n.condition),
                             f"{t}-{n.yes}", f"{t}-{n.no}", f"{t}-{n.missing}",
                             float(n.gain), float(n.cover), category))
        columns = ["Tree", "Node", "Feature", "Split", "Yes", "No", "Missing", "Gain",
                   "Cover", "Category"]
        table = {c: [r[i] for r in rows] for i, c in enumerate(columns)}
        table["ID"] = [f"{t}-{n}" for t, n in zip(table["Tree"], table["Node"])]
        df = DataFrame({c: table[c] for c in ["Tree", "Node", "ID"] + columns[2:]})
        return df.sort_values(["Tree", "Node"]).reset_index(drop=True)

    # ------------------------------------------------------------- predict

    def predict(self, data, output_margin: bool = False,
                iteration_range: tuple[int, int] | None = None,
                num_rounds: int = 0, device: str = "cpu",
                pred_contribs: bool = False, approx_contribs: bool = False,
                pred_interactions: bool = False, pred_leaf: bool = False,
                num_iteration: int | None = None) -> np.ndarray:
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
        or (rows, outputs, features + 1, features + 1). Both run on
        ``device`` too, with the cpu's values bit for bit (docs/shap.md).

        ``iteration_range=(a, b)`` with a > 0 predicts with rounds a to
        b - 1 and the base score, as XGBoost does (b = 0: to the last
        round): the model ``self[a:b]``. ``pred_leaf`` gives the index of
        the leaf each row reaches in each tree (as the dumps number nodes),
        float32 of shape (rows, trees), trees round by round.

        ``num_iteration`` is LightGBM's name for ``num_rounds``: a count of
        rounds; None or <= 0 the default above. LightGBM counts its
        ``best_iteration`` from 1 and this Booster's from 0 (XGBoost's), so
        ``num_iteration=bst.best_iteration`` uses one round less than the
        best model, which predict uses without the argument.
        """
        self._check_trees("predict")
        if num_iteration is not None and int(num_iteration) > 0:
            if num_rounds or iteration_range is not None:
                raise ValueError("give one of num_iteration, num_rounds and iteration_range")
            num_rounds = int(num_iteration)
        if iteration_range is not None:
            begin, end = (int(v) for v in iteration_range)
            if begin < 0 or end < 0 or (end and end < begin):
                raise ValueError(f"iteration_range must be (begin, end) with "
                                 f"0 <= begin <= end, got {tuple(iteration_range)}")
            if begin > 0:
                return self[begin:end or self.num_rounds].predict(
                    data, output_margin=output_margin, device=device,
                    pred_contribs=pred_contribs, approx_contribs=approx_contribs,
                    pred_interactions=pred_interactions, pred_leaf=pred_leaf)
            num_rounds = end
        if num_rounds < 0:
            raise ValueError(f"num_rounds must be >= 0, got {num_rounds}")
        dataset = self._prediction_data(data)
        if pred_leaf:
            return self._predict_leaf(dataset, num_rounds, device)
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
        where = _lib.encode(device or "cpu")
        if interactions:
            _lib.call("gpulayer_booster_predict_interactions_device", self.handle,
                      dataset.handle, where, 0, int(num_rounds), ptr, out.size)
        else:
            _lib.call("gpulayer_booster_predict_contribs_device", self.handle, dataset.handle,
                      where, _lib.CONTRIBS_APPROX if approx else 0, int(num_rounds), ptr,
                      out.size)
        return out[:, 0] if outputs == 1 else out

    def _predict_leaf(self, dataset: Dataset, num_rounds: int, device: str) -> np.ndarray:
        """Leaf indices: the margins of a model whose trees are these trees,
        each an output of its own, with the node index as leaf value and no
        base score; the rows' own base margins are left out."""
        rounds = self.num_rounds if num_rounds == 0 else min(num_rounds, self.num_rounds)
        width = self._trees_per_round()
        if rounds == 0:
            return np.zeros((dataset.num_rows, 0), dtype=np.float32)
        doc = _model_text.parse(_lib.take_buffer("gpulayer_booster_save_to_buffer",
                                                 self.handle))
        trees = doc["trees"][:rounds * width]
        for tree in trees:
            tree["leaf_value"] = [_model_text.Number(i) for i in range(len(tree["left"]))]
        n = len(trees)
        doc["trees"] = trees
        doc["objective"] = "multi:softprob" if n > 1 else "reg:squarederror"
        doc["num_class"] = doc["num_outputs"] = _model_text.Number(n)
        doc["base_score"] = doc["base_margin"] = _model_text.Number(0)
        doc.pop("base_margins", None)
        doc.pop("num_parallel_tree", None)
        doc["best_round"] = _model_text.Number(-1)
        doc.pop("class_names", None)
        doc.pop("objective_params", None)
        params = doc["params"]
        params["objective"] = doc["objective"]
        params["num_class"] = str(n if n > 1 else 0)
        params.pop("quantile_alpha", None)
        params.pop("expectile_alpha", None)
        leaves = Booster().load_raw(_model_text.seal(doc))
        plain = dataset.select_columns(range(dataset.num_cols))
        plain.set_base_margin(None)
        out = leaves.predict(plain, output_margin=True, device=device)
        return out.reshape(dataset.num_rows, n).astype(np.float32)

    def predictor(self, output_margin: bool = False, num_rounds: int = 0) -> "Predictor":
        """The model prepared for many small predictions (a service answering
        one request at a time): see :class:`gpulayer.Predictor`. Its
        ``predict(X)`` gives what ``predict(X, output_margin, num_rounds)``
        gives, bit for bit, without preparing the trees again each call."""
        self._check_trees("predictor")
        from .predictor import Predictor
        return Predictor(self, output_margin=output_margin, num_rounds=num_rounds)

    def _feature_kinds(self) -> list[str]:
        """How prediction data are read, per feature: "numeric", or
        "category" for a categorical feature, whose values name its
        categories in every interface: text as it is, a number by its
        text ("3"), as the command reads a file's cells."""
        return ["numeric" if kind == "q" else "category" for kind in self.feature_types]

    def _named_categories(self, dense) -> Dataset:
        """dense as a Dataset, with a warning for each categorical feature
        none of whose values names a category of the model (numbers given
        for text categories, say): those rows go the missing way."""
        names = self.feature_names
        for col, given in sorted(dense.categories.items()):
            known = self.categories(col)
            if not given or not known or set(given) & set(known):
                continue
            label = repr(names[col]) if names and names[col] is not None else f"column {col}"
            warnings.warn(
                f"categorical feature {label}: none of its values "
                f"({', '.join(given[:3])}{', ...' if len(given) > 3 else ''}) names one "
                f"of the model's categories ({', '.join(known[:3])}"
                f"{', ...' if len(known) > 3 else ''}), so every row goes the missing "
                "way; a category is given by its name, text or a number whose text "
                "is the name, in every interface (docs/categorical.md)",
                UserWarning, stacklevel=4)
        return Dataset(dense)

    def _prediction_data(self, data) -> Dataset:
        """data as a Dataset whose columns are the model's features: a
        DataFrame or named Dataset with other or more columns is matched
        to the model's feature names."""
        names = self.feature_names
        if names is not None and None in names:
            names = None  # partly unnamed: match by position only
        if is_arrow(data):
            table = arrow_table(data)
            columns = [str(c) for c in table.column_names]
            if names is not None and columns != names:
                missing = [n for n in names if n not in columns]
                if missing:
                    raise ValueError(
                        f"the data have no column {missing[0]!r}, a feature of the "
                        f"model ({len(missing)} missing)"
                    )
                table = table.select([columns.index(n) for n in names])
            if table.num_columns == self.num_features:
                return self._named_categories(to_dense(table, kinds=self._feature_kinds()))
            return Dataset(table)
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
                return self._named_categories(to_dense(data, kinds=self._feature_kinds()))
            return Dataset(data)
        if not isinstance(data, Dataset):
            kinds = None if is_sparse(data) else self._feature_kinds()
            if kinds is None or "category" not in kinds:
                return Dataset(data)
            return self._named_categories(to_dense(data, kinds=kinds))
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
        """Write the model as versioned JSON (atomically), with the
        attributes of :meth:`set_attr`. A path ending in ``.ubj`` gets
        XGBoost's binary model format instead (UBJSON), as XGBoost's
        ``save_model`` writes it: the :meth:`export_xgboost` document, with
        the attributes, which ``xgboost.Booster(model_file=path)`` and this
        library both read."""
        self._check_trees("save_model")
        path = os.fspath(path)
        if path.lower().endswith(".ubj"):
            self._save_ubjson(path)
            return
        if not self._attrs:
            _lib.call("gpulayer_booster_save", self.handle, _lib.encode(path))
            return
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "wb") as f:
                f.write(self.save_raw())
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def _save_ubjson(self, path: str) -> None:
        from . import _ubjson
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            self.export_xgboost(tmp)
            with open(tmp, "rb") as f:
                doc = json.load(f)
            if self._attrs:
                doc["learner"].setdefault("attributes", {}).update(self._attrs)
            with open(tmp, "wb") as f:
                f.write(_ubjson.encode(doc))
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def load_model(self, path: str | os.PathLike) -> "Booster":
        """Replace this booster's model and attributes with those read from
        a file; the parameters set on this object are applied again.
        Reads this library's JSON, XGBoost's JSON and UBJSON (``.ubj``)
        models and LightGBM's text models (docs/model-import.md).
        Returns self."""
        path = os.fspath(path)
        handle = c_void_p()
        _lib.call("gpulayer_booster_load", _lib.encode(path), byref(handle))
        self._replace_handle(handle)
        self._attrs = _read_attributes_file(path)
        return self

    def save_raw(self, raw_format: str = "json") -> bytes:
        """The model as JSON text (bytes), with its attributes.

        ``raw_format`` is XGBoost's argument: GPUlayer's model is JSON, so
        "json" is the one format; XGBoost's "ubj" and "deprecated" are
        refused (``export_xgboost`` writes XGBoost's JSON model)."""
        if raw_format != "json":
            raise InvalidArgumentError(
                f"save_raw: raw_format '{raw_format}' is not a GPUlayer model format; the "
                f"model is JSON (raw_format='json'), and export_xgboost writes XGBoost's")
        self._check_trees("save_raw")
        raw = _lib.take_buffer("gpulayer_booster_save_to_buffer", self.handle)
        return _with_attributes(raw, self._attrs)

    def load_raw(self, raw: bytes) -> "Booster":
        """Replace this booster's model with one from save_raw(). Returns self."""
        handle = c_void_p()
        raw = bytes(raw)
        _lib.call("gpulayer_booster_load_from_buffer", raw, len(raw), byref(handle))
        self._replace_handle(handle)
        self._attrs = _read_attributes(raw)
        return self

    def export_xgboost(self, path: str | os.PathLike) -> None:
        """Write the model in XGBoost's JSON model format, for
        ``xgboost.Booster(model_file=path)``, with the feature names (when
        XGBoost takes them all) and types ("c" or "float"); see
        docs/objectives.md, "XGBoost export"."""
        _lib.call("gpulayer_booster_export_xgboost", self.handle,
                  _lib.encode(os.fspath(path)))

    # -------------------------------------------------------- slicing

    def __getitem__(self, val) -> "Booster":
        """The model of some rounds, as XGBoost's slicing: ``bst[a:b]``,
        ``bst[a:b:step]``, ``bst[i]`` (one round), ``bst[...]`` (all). The
        slice keeps the base score, features, parameters and attributes;
        ``best_iteration`` and ``best_score`` are dropped."""
        self._check_trees("slicing")
        rounds = self.num_rounds
        if isinstance(val, (int, np.integer)):
            val = slice(int(val), int(val) + 1)
        if val is Ellipsis:
            val = slice(0, 0)
        if isinstance(val, tuple):
            raise ValueError("only one dimension (rounds) can be sliced")
        if not isinstance(val, slice):
            raise TypeError(f"a Booster is sliced by an int or a slice, not "
                            f"{type(val).__name__}")
        start = 0 if val.start in (None, Ellipsis) else int(val.start)
        stop = rounds if val.stop in (None, Ellipsis) or val.stop == 0 else int(val.stop)
        step = 1 if val.step is None else int(val.step)
        if step < 1:
            raise ValueError(f"slice step must be positive, got {step}")
        if stop < start:
            raise ValueError(f"invalid slice {val}: stop before start")
        if start < 0 or stop > rounds or start >= stop:
            raise IndexError(f"rounds {start}:{stop} are out of range: the model has "
                             f"{rounds} rounds")
        width = self._trees_per_round()
        doc = _model_text.parse(_lib.take_buffer("gpulayer_booster_save_to_buffer",
                                                 self.handle))
        doc["trees"] = [doc["trees"][r * width + k]
                        for r in range(start, stop, step) for k in range(width)]
        doc["best_round"] = _model_text.Number(-1)
        attrs = {k: v for k, v in self._attrs.items() if k != _BEST_SCORE}
        sliced = Booster()
        sliced._params = list(self._params)
        sliced.load_raw(_model_text.seal(doc))
        sliced._attrs = attrs
        return sliced

    def __iter__(self):
        """One booster a round (``self[i]``), as XGBoost's iteration."""
        for i in range(self.num_rounds):
            yield self[i]

    # --------------------------------------------------- configuration

    def save_config(self) -> str:
        """The parameters as a JSON string, ``{"params": {name: value}}``,
        every parameter of the library's table with its current value as
        text and eval_metric as a list; :meth:`load_config` applies it."""
        from .params import parameters
        values: dict[str, Any] = {}
        for info in parameters():
            value = self.get_param(info["name"])
            if info["name"] == "eval_metric":
                value = [m for m in value.split(",") if m]
            values[info["name"]] = value
        return json.dumps({"params": values})

    def load_config(self, config: str) -> None:
        """Apply the parameters of a :meth:`save_config` string (through
        :meth:`set_param`). eval_metric entries are added to those set;
        none is removed."""
        if not isinstance(config, str):
            raise TypeError(f"config is a JSON string, got {type(config).__name__}")
        params = json.loads(config).get("params")
        if not isinstance(params, dict):
            raise ValueError("config has no \"params\" object: give a save_config() text")
        params = dict(params)
        metrics = params.pop("eval_metric", [])
        if isinstance(metrics, str):
            metrics = [m for m in metrics.split(",") if m]
        current = [m for m in self.get_param("eval_metric").split(",") if m]
        self.set_param(params)
        for metric in metrics:
            if metric not in current:
                self.set_param("eval_metric", metric)

    # ------------------------------------------------------ evaluation

    def _metric_names(self) -> list[str]:
        """The metrics evaluation reports: eval_metric, else the
        objective's default (XGBoost 3.2's, as training reports it)."""
        names = [m for m in self.get_param("eval_metric").split(",") if m]
        if names or self.get_param("disable_default_eval_metric") in ("1", "true"):
            return names
        objective = self.get_param("objective")
        if objective == "reg:tweedie":
            return [f"tweedie-nloglik@{float(self.get_param('tweedie_variance_power')):g}"]
        if objective.startswith("rank:"):
            return ["map" if objective == "rank:map" else "ndcg"]
        return [_DEFAULT_METRIC.get(objective, "rmse")]

    def _eval_predictions(self, data: Dataset) -> np.ndarray:
        """What metrics read: predictions of every round (probabilities for
        multi:softmax, not class indices)."""
        if self.get_param("objective") == "multi:softmax":
            margin = self.predict(data, output_margin=True, num_rounds=self.num_rounds)
            margin = margin.astype(np.float64)
            e = np.exp(margin - margin.max(axis=1, keepdims=True))
            return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return self.predict(data, num_rounds=self.num_rounds)

    def eval_set(self, evals: Iterable[tuple[Dataset, str]], iteration: int = 0,
                 feval=None, output_margin: bool = True) -> str:
        """The metrics of the model (every round) on each (data, name)
        pair, in XGBoost's format: ``[iteration]\tname-metric:value`` for
        each set and metric, tab separated. The metrics are eval_metric's
        or the objective's default, computed by the library as training
        reports them. ``feval(predictions, data)`` returns (name, value)
        or a list of them, added after each set's own; it reads margins
        unless ``output_margin`` is False (XGBoost's rule)."""
        self._check_trees("eval_set")
        from .evaluation import evaluate
        metrics = self._metric_names()
        parts = [f"[{int(iteration)}]"]
        for pair in evals:
            if not (isinstance(pair, tuple) and len(pair) == 2
                    and isinstance(pair[0], Dataset) and isinstance(pair[1], str)):
                raise TypeError("evals must be a list of (Dataset, name) pairs")
        for data, name in evals:
            if metrics:
                preds = self._eval_predictions(data)
                for metric in metrics:
                    parts.append(f"{name}-{metric}:{evaluate(metric, preds, data)!r}")
            if feval is not None:
                result = feval(self.predict(data, output_margin=output_margin,
                                            num_rounds=self.num_rounds), data)
                for metric, value in (result if isinstance(result, list) else [result]):
                    parts.append(f"{name}-{metric}:{float(value):f}")
        return "\t".join(parts)

    def eval(self, data: Dataset, name: str = "eval", iteration: int = 0) -> str:
        """``eval_set([(data, name)], iteration)``: ``[0]\teval-rmse:0.123``."""
        return self.eval_set([(data, name)], iteration)

    def update(self, dtrain: Dataset, iteration: int, fobj=None) -> None:
        """Add one boosting round on dtrain to this booster, in place, as
        XGBoost's ``update``: continued training (:func:`gpulayer.train`
        with ``xgb_model=self``) of one round with the model's parameters,
        so n rounds and then update() give the model of n + 1 rounds.
        ``fobj(preds, dtrain) -> (grad, hess)`` is a custom objective.
        Rounds are numbered on from the model's; ``iteration`` is not
        used."""
        from .training import train
        params = json.loads(self.save_config())["params"] if self._has_model() else {}
        params = {k: v for k, v in params.items()
                  if k not in ("num_round", "early_stopping_rounds") and v != ""}
        if not params.get("eval_metric"):
            params.pop("eval_metric", None)
        params.update(dict(self._params))
        params.pop("num_round", None)
        params.pop("early_stopping_rounds", None)
        trained = train(params, dtrain, 1, obj=fobj,
                        xgb_model=self if self._has_model() else None)
        handle, trained._handle = trained._handle, c_void_p()
        self._replace_handle(handle)
        self._attrs.pop(_BEST_SCORE, None)

    def boost(self, dtrain: Dataset, iteration: int, grad=None, hess=None,
              fobj=None) -> None:
        """Add one boosting round on dtrain with the given gradient and
        hessian (one value a row, or rows x outputs), in place, as
        XGBoost's ``boost``: :meth:`update` with an objective that returns
        them, or with ``fobj`` where they are not given. ``grad`` and
        ``hess`` may be given by position, as XGBoost before 3.0 took them.
        Rounds are numbered on from the model's; ``iteration`` is not
        used."""
        if grad is None and hess is None:
            if fobj is None:
                raise InvalidArgumentError("boost: give grad and hess, or fobj")
            self.update(dtrain, iteration, fobj=fobj)
            return
        if grad is None or hess is None:
            raise InvalidArgumentError("boost: give both grad and hess")
        grad, hess = np.asarray(grad), np.asarray(hess)
        if grad.shape != hess.shape:
            raise InvalidArgumentError(
                f"boost: grad has shape {grad.shape} but hess has shape {hess.shape}")
        self.update(dtrain, iteration, fobj=lambda preds, data: (grad, hess))

    # ---------------------------------------------------- pickle and copy

    def _has_model(self) -> bool:
        return self.num_rounds > 0 or self.num_features > 0

    def __getstate__(self) -> dict:
        return {
            "params": list(self._params),
            "model": self.save_raw() if self._has_model() else None,
            "attributes": dict(self._attrs),
        }

    def __setstate__(self, state: dict) -> None:
        self._handle = c_void_p()
        self._params = list(state["params"])
        self._attrs = dict(state.get("attributes", {}))
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

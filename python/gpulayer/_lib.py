"""Loading libgpulayer with ctypes: where it is found, its C prototypes, and
turning a failed call into a Python exception.

The library is loaded on first use, never at import: importing gpulayer
loads no native code and creates no device. Lookup order:

1. the ``GPULAYER_LIBRARY`` environment variable (a path to the library);
2. the library bundled in the package (``gpulayer/lib/``), as installed by
   ``pip install ./python``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_char_p,
    c_double,
    c_float,
    c_int,
    c_int32,
    c_int64,
    c_size_t,
    c_uint64,
    c_void_p,
)
from pathlib import Path

from .errors import (LibraryNotFoundError, GPULayerError, InvalidArgumentError,
                     error_for_status)

# --------------------------------------------------------------- constants

OK = 0
ERR_INTERRUPTED = 8
ERR_PLACEMENT = 9

ROW_MAJOR = 0
COL_MAJOR = 1

FORMATS = {"auto": 0, "csv": 1, "tsv": 2, "libsvm": 3}

PREDICT_DEFAULT = 0
PREDICT_MARGIN = 1
CONTRIBS_APPROX = 1

IMPORTANCE_TYPES = {
    "weight": 0,
    "gain": 1,
    "cover": 2,
    "total_gain": 3,
    "total_cover": 4,
}

MEMORY_KINDS = {"any": 0, "host": 1, "dedicated": 2, "unified": 3}
JOB_KINDS = {"independent": 0, "distributed": 1}
RENDER_FORMATS = {"text": 0, "json": 1, "markdown": 2}
PLACE_BACKEND = 1  # gpulayer_place_flags
PLACE_NARROW = 2

# ---------------------------------------------------------------- structs


class EvalResult(Structure):
    """gpulayer_eval_result: one metric of one evaluation set."""

    _fields_ = [
        ("data_name", c_char_p),
        ("metric_name", c_char_p),
        ("value", c_double),
    ]


class ReportInfo(Structure):
    """gpulayer_report_info: what the training report shows beside the model."""

    _fields_ = [
        ("command", c_char_p),
        ("data", c_char_p),
        ("train", c_void_p),
        ("valid", POINTER(c_void_p)),
        ("valid_names", POINTER(c_char_p)),
        ("num_valid", c_int32),
        ("model", c_char_p),
        ("train_seconds", c_double),
        ("ranks", c_int32),
        ("num_series", c_int32),
        ("num_rounds", c_int32),
        ("first_round", c_int32),
        ("series_data", POINTER(c_char_p)),
        ("series_metric", POINTER(c_char_p)),
        ("values", POINTER(c_double)),
    ]


class ParamInfo(Structure):
    """gpulayer_param_info: one training parameter of the library's table."""

    _fields_ = [
        ("name", c_char_p),
        ("aliases", c_char_p),
        ("group", c_char_p),
        ("type", c_char_p),
        ("default_value", c_char_p),
        ("range", c_char_p),
        ("applies", c_char_p),
        ("doc", c_char_p),
    ]


class ReadOptions(Structure):
    """gpulayer_read_options."""

    _fields_ = [
        ("format", c_int),
        ("label", c_char_p),
        ("no_header", c_int),
        ("ignore_columns", c_char_p),
        ("weight_column", c_char_p),
        ("num_features", c_int32),
        ("numeric_columns", POINTER(c_char_p)),
        ("bad_numbers", c_int),
        ("categorical_columns", POINTER(c_char_p)),
        ("qid_column", c_char_p),
        ("group_file", c_char_p),
        ("base_margin_file", c_char_p),
        ("label_classes", POINTER(c_char_p)),
    ]


BAD_NUMBERS = {"error": 0, "missing": 1}
# gpulayer_cell_kind: what a cell of a text column holds.
CELL_MISSING, CELL_NUMBER, CELL_TEXT = 0, 1, 2


class DeviceInfo(Structure):
    """gpulayer_device_info."""

    _fields_ = [
        ("accelerator", c_char_p),
        ("index", c_int32),
        ("name", c_char_p),
        ("stable_id", c_char_p),
        ("memory_kind", c_int),
        ("memory_bytes", c_uint64),
        ("usable_bytes", c_uint64),
        ("capabilities", c_char_p),
        ("backend_built", c_int),
        ("backend_available", c_int),
        ("backend_reason", c_char_p),
    ]


class DeviceRequest(Structure):
    """gpulayer_device_request."""

    _fields_ = [
        ("accelerator", c_char_p),
        ("min_memory_bytes", c_uint64),
        ("memory_kind", c_int),
        ("capabilities", POINTER(c_char_p)),
        ("num_capabilities", c_int32),
        ("device_count", c_int32),
        ("job_kind", c_int),
        ("num_processes", c_int32),
    ]


# int (*)(void *user_data, int round, const gpulayer_eval_result *, int n)
ROUND_CALLBACK = CFUNCTYPE(c_int, c_void_p, c_int, POINTER(EvalResult), c_int)
# int (*)(void *user_data, int round, const float *margins, int64_t rows,
#         int32_t outputs, double *grad, double *hess)
OBJECTIVE_CALLBACK = CFUNCTYPE(c_int, c_void_p, c_int, POINTER(c_float), c_int64,
                               c_int32, POINTER(c_double), POINTER(c_double))
# int (*)(void *user_data, int round, int eval_index, const float *margins,
#         const float *predictions, int64_t rows, int32_t outputs)
EVAL_CALLBACK = CFUNCTYPE(c_int, c_void_p, c_int, c_int, POINTER(c_float),
                          POINTER(c_float), c_int64, c_int32)

# -------------------------------------------------------------- prototypes

_status = c_int
_handle = c_void_p
_out_handle = POINTER(c_void_p)
_floats = POINTER(c_float)
_names = POINTER(c_char_p)
_out_buffer = (POINTER(c_void_p), POINTER(c_size_t))

# name -> (restype, argtypes)
_PROTOTYPES = {
    "gpulayer_last_error": (c_char_p, []),
    "gpulayer_status_string": (c_char_p, [c_int]),
    "gpulayer_version": (c_char_p, []),
    "gpulayer_param_count": (c_int32, []),
    "gpulayer_param_info_get": (_status, [c_int32, POINTER(ParamInfo)]),
    # dataset
    "gpulayer_dataset_from_dense": (
        _status,
        [c_void_p, c_int64, c_int32, c_int, _floats, _floats, _out_handle],
    ),
    "gpulayer_dataset_from_csr": (
        _status,
        [c_void_p, c_void_p, c_void_p, c_int64, c_int32, _floats, _floats, _out_handle],
    ),
    "gpulayer_dataset_read_file": (
        _status,
        [c_char_p, POINTER(ReadOptions), _out_handle],
    ),
    "gpulayer_dataset_set_label": (_status, [_handle, _floats, c_int64]),
    "gpulayer_dataset_set_weight": (_status, [_handle, _floats, c_int64]),
    "gpulayer_dataset_set_base_margin": (_status, [_handle, _floats, c_int64]),
    "gpulayer_dataset_set_feature_weights": (_status, [_handle, _floats, c_int32]),
    "gpulayer_dataset_set_feature_names": (_status, [_handle, _names, c_int32]),
    "gpulayer_dataset_set_label_classes": (_status, [_handle, _names, c_int32]),
    "gpulayer_dataset_num_label_classes": (c_int32, [_handle]),
    "gpulayer_dataset_label_class": (c_char_p, [_handle, c_int32]),
    "gpulayer_dataset_set_categories": (
        _status,
        [_handle, c_int32, _names, c_int32],
    ),
    "gpulayer_dataset_num_rows": (c_int64, [_handle]),
    "gpulayer_report_write": (_status, [c_char_p, _handle, POINTER(ReportInfo)]),
    "gpulayer_dataset_num_cols": (c_int32, [_handle]),
    "gpulayer_dataset_feature_name": (c_char_p, [_handle, c_int32]),
    "gpulayer_dataset_get_label": (_status, [_handle, _floats, c_int64]),
    "gpulayer_dataset_get_weight": (
        _status, [_handle, _floats, c_int64, POINTER(c_int)]),
    "gpulayer_dataset_select_columns": (
        _status,
        [_handle, POINTER(c_int32), c_int32, _out_handle],
    ),
    "gpulayer_dataset_free": (None, [_handle]),
    "gpulayer_dataset_set_group": (_status, [_handle, POINTER(c_int64), c_int64]),
    "gpulayer_dataset_set_qid": (_status, [_handle, POINTER(c_int64), c_int64]),
    "gpulayer_dataset_num_groups": (c_int64, [_handle]),
    "gpulayer_dataset_get_group": (_status, [_handle, POINTER(c_int64), c_int64]),
    "gpulayer_read_text_cells": (
        _status, [_names, c_int64, _floats, POINTER(c_int32)]),
    "gpulayer_column_looks_numeric": (c_int, [c_int64, c_int64]),
    "gpulayer_evaluate": (
        _status,
        [_handle, c_char_p, _floats, c_int64, c_int32, POINTER(c_double)],
    ),
    # booster
    "gpulayer_booster_create": (_status, [_out_handle]),
    "gpulayer_booster_free": (None, [_handle]),
    "gpulayer_booster_set_param": (_status, [_handle, c_char_p, c_char_p]),
    "gpulayer_booster_get_param": (
        _status,
        [_handle, c_char_p, ctypes.c_char_p, c_size_t],
    ),
    "gpulayer_booster_train": (
        _status,
        [_handle, _handle, POINTER(c_void_p), _names, c_int, ROUND_CALLBACK,
         c_void_p],
    ),
    "gpulayer_booster_train_distributed": (
        _status,
        [_handle, _handle, POINTER(c_void_p), _names, c_int, ROUND_CALLBACK,
         c_void_p],
    ),
    "gpulayer_booster_set_objective_callback": (
        _status, [_handle, OBJECTIVE_CALLBACK, c_void_p]),
    "gpulayer_booster_set_eval_callback": (_status, [_handle, EVAL_CALLBACK, c_void_p]),
    "gpulayer_booster_set_best_round": (_status, [_handle, c_int32]),
    "gpulayer_metric_maximize": (c_int, [c_char_p]),
    "gpulayer_early_stopping_update": (
        c_int, [c_int32, c_int, c_int32, c_double, POINTER(c_int32), POINTER(c_double)]),
    "gpulayer_booster_num_outputs": (c_int32, [_handle]),
    "gpulayer_booster_prediction_width": (c_int32, [_handle, c_int]),
    "gpulayer_booster_num_features": (c_int32, [_handle]),
    "gpulayer_booster_num_rounds": (c_int32, [_handle]),
    "gpulayer_booster_best_round": (c_int32, [_handle]),
    "gpulayer_booster_predict": (
        _status,
        [_handle, _handle, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_predict_device": (
        _status,
        [_handle, _handle, c_char_p, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_set_init_model": (_status, [_handle, _handle]),
    "gpulayer_booster_predictor_create": (
        _status, [_handle, c_int, c_int32, _out_handle],
    ),
    "gpulayer_predictor_width": (c_int32, [_handle]),
    "gpulayer_predictor_num_features": (c_int32, [_handle]),
    "gpulayer_predictor_predict_dense": (
        _status, [_handle, c_void_p, c_int64, c_int32, c_int, c_void_p, c_int64],
    ),
    "gpulayer_predictor_free": (None, [_handle]),
    "gpulayer_booster_predict_dense": (
        _status,
        [_handle, c_void_p, c_int64, c_int32, c_int, c_int, c_int32, _floats,
         c_int64],
    ),
    "gpulayer_booster_predict_contribs": (
        _status,
        [_handle, _handle, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_predict_interactions": (
        _status,
        [_handle, _handle, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_predict_contribs_device": (
        _status,
        [_handle, _handle, c_char_p, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_predict_interactions_device": (
        _status,
        [_handle, _handle, c_char_p, c_int, c_int32, _floats, c_int64],
    ),
    "gpulayer_booster_feature_importance": (
        _status,
        [_handle, c_int, POINTER(c_double), c_int32],
    ),
    "gpulayer_booster_feature_name": (c_char_p, [_handle, c_int32]),
    "gpulayer_booster_feature_is_categorical": (c_int, [_handle, c_int32]),
    "gpulayer_booster_num_categories": (c_int32, [_handle, c_int32]),
    "gpulayer_booster_category_name": (c_char_p, [_handle, c_int32, c_int32]),
    "gpulayer_booster_num_class_names": (c_int32, [_handle]),
    "gpulayer_booster_class_name": (c_char_p, [_handle, c_int32]),
    "gpulayer_booster_num_trees": (c_int32, [_handle]),
    "gpulayer_booster_dump_model": (_status, [_handle, c_int, *_out_buffer]),
    "gpulayer_booster_dump_tree": (
        _status,
        [_handle, c_int32, c_int, c_int32, *_out_buffer],
    ),
    "gpulayer_booster_feature_label": (_status, [_handle, c_int32, *_out_buffer]),
    "gpulayer_booster_save": (_status, [_handle, c_char_p]),
    "gpulayer_booster_load": (_status, [c_char_p, _out_handle]),
    "gpulayer_booster_save_to_buffer": (_status, [_handle, *_out_buffer]),
    "gpulayer_booster_load_from_buffer": (
        _status,
        [c_char_p, c_size_t, _out_handle],
    ),
    "gpulayer_booster_export_xgboost": (_status, [_handle, c_char_p]),
    "gpulayer_free_buffer": (None, [c_void_p]),
    # distributed training
    "gpulayer_dist_built": (c_int, []),
    "gpulayer_dist_launched": (c_int, []),
    "gpulayer_dist_init": (_status, [c_double]),
    "gpulayer_dist_finalize": (None, []),
    "gpulayer_dist_rank": (c_int, []),
    "gpulayer_dist_size": (c_int, []),
    "gpulayer_dist_default_threads": (c_int, []),
    "gpulayer_dist_comm_seconds": (c_double, []),
    "gpulayer_dist_is_shard_pattern": (c_int, [c_char_p]),
    "gpulayer_dist_shard_path": (_status, [c_char_p, c_int, POINTER(c_void_p)]),
    "gpulayer_dist_keep_slice": (_status, [_handle]),
    "gpulayer_dist_row_place": (
        _status,
        [c_int64, POINTER(c_int64), POINTER(c_int64)],
    ),
    "gpulayer_dist_agree": (_status, [c_int]),
    "gpulayer_dist_failure_shared": (c_int, []),
    "gpulayer_dist_abort": (None, [c_char_p, c_int]),
    # device layer
    "gpulayer_device_count": (c_int32, []),
    "gpulayer_device_get": (_status, [c_int32, POINTER(DeviceInfo)]),
    "gpulayer_devices_json": (_status, list(_out_buffer)),
    "gpulayer_diagnose_json": (_status, list(_out_buffer)),
    "gpulayer_devices_report": (_status, [c_int, *_out_buffer]),
    "gpulayer_devices_report_ex": (_status, [c_int, c_int, *_out_buffer]),
    "gpulayer_diagnose_report": (_status, [c_int, *_out_buffer]),
    "gpulayer_place": (_status, [POINTER(DeviceRequest), *_out_buffer]),
    "gpulayer_request_create": (_status, [POINTER(DeviceRequest), _out_handle]),
    "gpulayer_request_free": (None, [_handle]),
    "gpulayer_request_parse": (_status, [_handle, c_char_p]),
    "gpulayer_request_set": (_status, [_handle, c_char_p, c_char_p]),
    "gpulayer_parse_bytes": (_status, [c_char_p, POINTER(c_uint64)]),
    "gpulayer_placement_create": (_status, [_handle, c_int, _out_handle]),
    "gpulayer_placement_free": (None, [_handle]),
    "gpulayer_placement_placed": (c_int, [_handle]),
    "gpulayer_placement_why": (c_char_p, [_handle]),
    "gpulayer_placement_render": (_status, [_handle, c_int, *_out_buffer]),
    "gpulayer_support_matrix": (_status, [c_int, *_out_buffer]),
}

# ------------------------------------------------------------------ loading

def library_file_name() -> str:
    """The platform's file name of the shared library."""
    if sys.platform == "darwin":
        return "libgpulayer.dylib"
    if sys.platform == "win32":
        return "gpulayer.dll"
    return "libgpulayer.so"


def package_dir() -> Path:
    """The directory of the installed gpulayer package."""
    return Path(__file__).resolve().parent


def library_candidates() -> list[Path]:
    """Where the library is looked for, in order."""
    explicit = os.environ.get("GPULAYER_LIBRARY")
    if explicit:
        # An explicit choice is never silently replaced by another copy.
        return [Path(explicit)]
    name = library_file_name()
    pkg = package_dir()
    return [pkg / "lib" / name, pkg / "lib64" / name, pkg / name]


class _Library:
    """The loaded library; attribute access returns a typed C function."""

    def __init__(self, cdll: ctypes.CDLL, path: Path):
        self._cdll = cdll
        self.path = path

    def __getattr__(self, name: str):
        try:
            restype, argtypes = _PROTOTYPES[name]
        except KeyError:
            raise AttributeError(name) from None
        try:
            fn = getattr(self._cdll, name)
        except AttributeError:
            raise GPULayerError(
                f"{self.path} has no function {name}: it was built from an "
                "older source tree; rebuild it"
            ) from None
        fn.restype = restype
        fn.argtypes = argtypes
        setattr(self, name, fn)  # later look-ups skip __getattr__
        return fn


_lock = threading.Lock()
_loaded: _Library | None = None


def get() -> _Library:
    """The loaded library, loading it on first use."""
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is None:
            _loaded = _load()
    return _loaded


def is_loaded() -> bool:
    """Whether libgpulayer has been loaded into this process."""
    return _loaded is not None


def _load() -> _Library:
    candidates = library_candidates()
    for path in candidates:
        if not path.is_file():
            continue
        try:
            cdll = ctypes.CDLL(str(path), mode=getattr(os, "RTLD_LOCAL", 0))
        except OSError as exc:
            raise LibraryNotFoundError(
                f"libgpulayer at {path} could not be loaded: {exc}"
            ) from exc
        return _Library(cdll, path)
    tried = ", ".join(str(p) for p in candidates)
    raise LibraryNotFoundError(
        f"libgpulayer was not found (looked for {tried}). Install the package "
        "with 'pip install ./python' from the GPUlayer source tree, which "
        "builds and bundles the library, or build the library with "
        "'cmake -S . -B build && cmake --build build --target gpulayer_shared' "
        f"and set GPULAYER_LIBRARY=$PWD/build/{library_file_name()}"
    )


# ------------------------------------------------------------------ calling


def last_error() -> str:
    """The calling thread's last error message from the C library."""
    msg = get().gpulayer_last_error()
    return msg.decode("utf-8", "replace") if msg else ""


def check(status: int) -> None:
    """Raise the exception for a non-zero status.

    Call it on the thread that made the failing call, right after it: the
    C library keeps the last error per thread.
    """
    if status != OK:
        raise error_for_status(status, last_error())


def call(name: str, *args) -> None:
    """Call a C function that returns a gpulayer_status; raise on failure."""
    check(getattr(get(), name)(*args))


def take_buffer(name: str, *args) -> bytes:
    """Call a C function that returns a buffer freed with
    gpulayer_free_buffer; return its contents."""
    lib = get()
    ptr, size = c_void_p(), c_size_t()
    status = getattr(lib, name)(*args, ctypes.byref(ptr), ctypes.byref(size))
    try:
        check(status)
        return ctypes.string_at(ptr, size.value) if ptr.value else b""
    finally:
        if ptr.value:
            lib.gpulayer_free_buffer(ptr)


def encode(text: str | os.PathLike | None) -> bytes | None:
    """A Python string or path as a NUL-terminated UTF-8 C string."""
    if text is None:
        return None
    raw = os.fsencode(text) if isinstance(text, os.PathLike) else str(text).encode("utf-8")
    # C would read only up to the NUL: a silently different text.
    if b"\0" in raw:
        raise InvalidArgumentError(f"{str(text)!r} contains a NUL character")
    return raw


def decode(raw: bytes | None) -> str | None:
    """A C string as Python text (None for NULL)."""
    return None if raw is None else raw.decode("utf-8", "replace")


def string_array(items) -> ctypes.Array:
    """A C array of UTF-8 strings (``const char *const *``); a None item
    is a NULL pointer."""
    encoded = [None if s is None else encode(s) for s in items]
    return (c_char_p * len(encoded))(*encoded)


def version() -> str:
    """The version of the loaded C library."""
    return decode(get().gpulayer_version())

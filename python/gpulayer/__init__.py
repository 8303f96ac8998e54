"""GPUlayer: gradient-boosted decision trees on the CPU and GPUs.

A thin layer over the C library ``libgpulayer``:

* :class:`Dataset`, :class:`Booster`, :func:`train` and :func:`cv`
  (cross-validation, as XGBoost's or LightGBM's, with LightGBM's
  :class:`CVBooster`), the low-level API;
* :mod:`gpulayer.callback`, training callbacks with XGBoost's protocol
  (``EarlyStopping``, ``EvaluationMonitor``, ``LearningRateScheduler``);
* :class:`GPULayerRegressor`, :class:`GPULayerClassifier` and
  :class:`GPULayerRanker`, scikit-learn
  estimators (``pip install scikit-learn`` to use them), and the random
  forests :class:`GPULayerRFRegressor` and :class:`GPULayerRFClassifier`;
* :func:`devices` and :func:`place`, device discovery and placement.
* XGBoost's and LightGBM's names, so that their scripts run with
  ``import gpulayer as xgb`` or ``import gpulayer as lgb``:
  :class:`DMatrix`, :class:`QuantileDMatrix`, ``XGBRegressor``,
  ``XGBClassifier``, ``XGBRanker``, ``XGBRFRegressor``,
  ``XGBRFClassifier``; :func:`early_stopping`,
  :func:`log_evaluation`, :func:`record_evaluation`, ``LGBMRegressor``,
  ``LGBMClassifier``, ``LGBMRanker`` (docs/porting.md lists what is
  accepted and ignored).
* :mod:`gpulayer.distributed` and ``train(..., distributed=True)``,
  data-parallel training over MPI;
* :func:`plot_importance`, :func:`plot_metric`, :func:`plot_tree` and
  :func:`to_graphviz`, pictures of a model (``pip install gpulayer[plot]``);
  :func:`report`, the HTML page ``gpulayer train --report`` writes.

Importing the package loads no native code and creates no device: the
library is loaded on first use (from ``GPULAYER_LIBRARY`` or the copy
bundled in the package), and devices are probed only when asked for or
when training on ``device="auto"`` or a GPU.
"""

from __future__ import annotations

from . import callback
from ._xgboost_compat import DMatrix, QuantileDMatrix
from .booster import Booster
from .callback import early_stopping, log_evaluation, record_evaluation
from .crossval import CVBooster, cv
from .dataset import Dataset
from .devices import Device, Placement, devices, diagnose, discovery, place, support_matrix
from .errors import GPULayerError, LibraryNotFoundError
from .evaluation import evaluate
from .params import parameters
from .plotting import plot_importance, plot_metric, plot_tree, to_graphviz
from .predictor import Predictor
from ._report import report
from .training import EvalResult, train

__all__ = [
    "Booster",
    "CVBooster",
    "DMatrix",
    "Dataset",
    "QuantileDMatrix",
    "XGBClassifier",
    "XGBRFClassifier",
    "XGBRFRegressor",
    "XGBRanker",
    "XGBRegressor",
    "LGBMClassifier",
    "LGBMRanker",
    "LGBMRegressor",
    "early_stopping",
    "log_evaluation",
    "record_evaluation",
    "Predictor",
    "Device",
    "EvalResult",
    "GPULayerClassifier",
    "GPULayerRanker",
    "GPULayerError",
    "GPULayerRFClassifier",
    "GPULayerRFRegressor",
    "GPULayerRegressor",
    "LibraryNotFoundError",
    "Placement",
    "callback",
    "cv",
    "devices",
    "diagnose",
    "discovery",
    "evaluate",
    "library_path",
    "library_version",
    "parameters",
    "place",
    "plot_importance",
    "plot_metric",
    "plot_tree",
    "report",
    "support_matrix",
    "to_graphviz",
    "train",
]


def _package_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return "unknown"
    try:
        return version("gpulayer")
    except PackageNotFoundError:  # used from a source tree, not installed
        return "unknown"


__version__ = _package_version()


def library_version() -> str:
    """The version of the C library (loads it)."""
    from . import _lib

    return _lib.version()


def library_path() -> str:
    """The path of the loaded C library (loads it)."""
    from . import _lib

    return str(_lib.get().path)


# The estimators by their own, XGBoost's and LightGBM's names.
_ESTIMATORS = {
    "GPULayerRegressor": "GPULayerRegressor",
    "GPULayerClassifier": "GPULayerClassifier",
    "GPULayerRanker": "GPULayerRanker",
    "XGBRegressor": "GPULayerRegressor",
    "XGBClassifier": "GPULayerClassifier",
    "XGBRanker": "GPULayerRanker",
    "GPULayerRFRegressor": "GPULayerRFRegressor",
    "GPULayerRFClassifier": "GPULayerRFClassifier",
    "XGBRFRegressor": "GPULayerRFRegressor",
    "XGBRFClassifier": "GPULayerRFClassifier",
    "LGBMRegressor": "LGBMRegressor",
    "LGBMClassifier": "LGBMClassifier",
    "LGBMRanker": "LGBMRanker",
}


def __getattr__(name: str):
    # The scikit-learn estimators import scikit-learn, which is optional and
    # slow to import: load them on first access only.
    if name in _ESTIMATORS:
        from . import sklearn as _sklearn

        return getattr(_sklearn, _ESTIMATORS[name])
    raise AttributeError(f"module 'gpulayer' has no attribute {name!r}")

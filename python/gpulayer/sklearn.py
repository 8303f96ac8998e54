"""scikit-learn estimators: :class:`GPULayerRegressor`,
:class:`GPULayerClassifier` and :class:`GPULayerRanker`.

They follow XGBoost's scikit-learn API: ``n_estimators`` (num_round),
``learning_rate`` (eta), ``reg_lambda`` (lambda), ``reg_alpha`` (alpha),
``random_state`` (seed), ``n_jobs`` (nthread); the other parameters keep the
C library's names. A parameter left at None uses the library's default.
Any other keyword argument is a booster parameter, as in XGBoost's
estimators: by its name or an alias (LightGBM's ``num_leaves``,
``min_split_gain``, ``boosting_type``, ...; docs/parameters.md), kept by
``get_params``, ``set_params`` and ``clone``, and refused by the library at
fit when unknown. A parameter and its alias given together are an error.
LightGBM's ``subsample_freq``, ``subsample_for_bin`` and ``class_weight``
mean no parameter and are refused at fit with the reason.
``importance_type`` takes LightGBM's
``"split"`` as ``"weight"``; ``"gain"`` is XGBoost's mean gain.
``fit(X, y, sample_weight=None, eval_set=[(X, y), ...])`` records the
evaluation history, returned by ``evals_result()`` (also ``evals_result_``)
as ``{"validation_0": {"rmse": [...]}, ...}``; with
``early_stopping_rounds`` the best round is in ``best_iteration`` and its
score in ``best_score`` (both None without early stopping).
``fit(..., callbacks=[...])`` (or the constructor's ``callbacks``) are
:func:`gpulayer.train`'s per-round callbacks. ``save_model(path)`` writes
the library's model file with the estimator's kind, classes and feature
names; ``load_model(path)`` makes any estimator, fitted or not, predict
with it.

X may be a numpy array (NaN = missing), a pandas DataFrame (category,
string and object columns are categorical features) or a scipy.sparse
matrix, whose absent entries are missing values, not zeros.
``categorical_feature`` (LightGBM's name; column indexes, or names of a
DataFrame's columns) makes integer-coded numeric columns categorical: in
fit a value there that is not a non-negative integer is an error, in
prediction an unseen, negative or fractional value is missing.
``enable_categorical`` (XGBoost's name) is accepted and changes nothing.
How categorical features are split: ``categorical`` ("partition" or
"ordered"), ``max_cat_to_onehot``, ``max_cat_threshold``, ``max_categories``,
``cat_smooth``, ``cat_l2``, ``min_data_per_group`` (docs/categorical.md).

``objective`` is one of :func:`gpulayer.train`'s objectives (with its
parameter, an estimator parameter of the same name: ``huber_slope``,
``quantile_alpha`` and ``expectile_alpha`` (a number or a list: then
``predict`` gives ``(rows, quantiles)``), ``max_delta_step``, ``tweedie_variance_power``) or, as in XGBoost, a function
``objective(y_true, y_pred) -> (grad, hess)`` with ``y_pred`` the raw
margins (``(rows,)``, or ``(rows, classes)`` for more than two classes);
it is also given ``sample_weight=`` when the data have weights, and must
then take that argument. Predictions keep the default objective's link
(identity for the regressor; the sigmoid or softmax for the classifier).
``eval_metric`` may be a function ``metric(y_true, y_pred) -> value``
(also given ``sample_weight=`` when the evaluation set has weights),
reported under its ``__name__`` after the library's own metric and
watched by early stopping; ``y_pred`` are predictions, raw margins with
a custom objective.

scikit-learn's estimator checks pass, but for the equivalence of integer
sample weights and repeated rows, which holds only to about 1e-7 relative:
gradients are summed as fixed-point integers whose scale follows the
largest gradient (weighted, for weighted rows) and the row count, so a row
of weight 2 and two copies of it may be rounded at different scales.
:func:`expected_failed_checks` names those checks, for scikit-learn's
``check_estimator(est, expected_failed_checks=...)`` and
``parametrize_with_checks(..., expected_failed_checks=...)``.
:class:`GPULayerRanker` is not for those checks: its ``fit`` needs the
query groups, which they do not pass (as with XGBoost's and LightGBM's
rankers).

The estimators train on the CPU by default (``device="cpu"``): placement
with ``device="auto"`` probes the host's GPU runtimes on first use, which
takes a moment and would make every small fit in a grid search pay for it.
Pass ``device="auto"`` or ``"cuda"`` to use a GPU.
"""

from __future__ import annotations

import inspect
import json
import numbers
import os

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_sample_weight,
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from . import _lib
from .booster import Booster
from .dataset import (Dataset, DenseMatrix, _categorical_set, _is_auto, _is_missing_cell,
                      arrow_table, is_arrow, is_dataframe, is_sparse, to_dense)
from .evaluation import evaluate
from .errors import GPULayerError, InvalidArgumentError, UnsupportedError
from .params import canonical_names, with_lightgbm_defaults
from .training import train

__all__ = ["GPULayerRegressor", "GPULayerClassifier", "GPULayerRanker",
           "GPULayerRFRegressor", "GPULayerRFClassifier",
           "LGBMRegressor", "LGBMClassifier", "LGBMRanker", "expected_failed_checks"]

_WEIGHTS_ROUNDED = (
    "integer sample weights match repeated rows to about 1e-7 relative, not exactly: "
    "gradient sums are fixed-point, at a scale set by the largest (weighted) gradient "
    "and the row count, which differ between the two")


def expected_failed_checks(estimator) -> dict:
    """scikit-learn estimator checks that ``estimator`` is expected to fail,
    with the reason: the ``expected_failed_checks`` of scikit-learn's
    ``check_estimator`` and ``parametrize_with_checks`` (a callable taking
    the estimator, for the latter)."""
    if not isinstance(estimator, (GPULayerClassifier, GPULayerRegressor)):
        return {}
    return {
        "check_sample_weight_equivalence_on_dense_data": _WEIGHTS_ROUNDED,
        "check_sample_weight_equivalence_on_sparse_data": _WEIGHTS_ROUNDED,
    }

# Estimator arguments that are not library parameters. Every other argument
# is one of the library's parameters, by its name or an alias
# (n_estimators, learning_rate, reg_lambda, reg_alpha, random_state, n_jobs:
# gpulayer.params.canonical_names), and reaches it under its own name;
# tests/python/test_params.py holds the two lists together.
_ESTIMATOR_ONLY = ("importance_type", "categorical_feature", "enable_categorical", "missing",
                   "callbacks")
# Library parameters that are no estimator argument, and why.
_NOT_ARGUMENTS = {
    "num_class": "fit takes it from the labels",
}
# LightGBM's estimator arguments that no library parameter means, and why
# (LightGBM's others are the table's names or aliases: num_leaves,
# min_split_gain, colsample_bytree, reg_alpha, reg_lambda, boosting_type,
# min_child_samples...).
_LIGHTGBM_ONLY = {
    "subsample_freq": "rows are sampled anew for every tree: subsample alone is "
                      "LightGBM's subsample with subsample_freq=1",
    "subsample_for_bin": "bin boundaries are found from every row",
    "class_weight": "give each row its class's weight in fit's sample_weight "
                    "(or scale_pos_weight for two classes)",
}
# LightGBM's importance_type names that differ from the library's.
_IMPORTANCE_ALIASES = {"split": "weight"}


class _GPULayerModel(BaseEstimator):
    """The parameters and data handling shared by both estimators."""

    # The LGBM* estimators: parameters not given take LightGBM's defaults
    # (gpulayer.params.LIGHTGBM_DEFAULTS).
    _lightgbm_defaults = False

    def __init__(
        self,
        *,
        n_estimators=100,
        learning_rate=None,
        max_depth=None,
        min_child_weight=None,
        min_data_in_leaf=None,
        reg_lambda=None,
        reg_alpha=None,
        gamma=None,
        subsample=None,
        bagging_fraction=None,
        bagging_freq=None,
        colsample_bytree=None,
        colsample_bylevel=None,
        colsample_bynode=None,
        num_parallel_tree=None,
        interaction_constraints=None,
        monotone_constraints=None,
        monotone_penalty=None,
        monotone_constraints_method=None,
        scale_pos_weight=None,
        booster=None,
        tree_method=None,
        validate_parameters=None,
        disable_default_eval_metric=None,
        max_bin=None,
        grow_policy=None,
        max_leaves=None,
        objective=None,
        base_score=None,
        eval_metric=None,
        early_stopping_rounds=None,
        random_state=None,
        n_jobs=None,
        device="cpu",
        verbosity=None,
        importance_type="gain",
        categorical_feature="auto",
        enable_categorical=None,
        missing=np.nan,
        categorical=None,
        max_cat_to_onehot=None,
        max_cat_threshold=None,
        max_categories=None,
        cat_smooth=None,
        cat_l2=None,
        min_data_per_group=None,
        max_delta_step=None,
        tweedie_variance_power=None,
        huber_slope=None,
        quantile_alpha=None,
        expectile_alpha=None,
        lambdarank_pair_method=None,
        lambdarank_num_pair_per_sample=None,
        ndcg_exp_gain=None,
        lambdarank_normalization=None,
        lambdarank_score_normalization=None,
        lambdarank_unbiased=None,
        lambdarank_bias_norm=None,
        callbacks=None,
        **kwargs,
    ):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.max_depth = max_depth
        self.min_child_weight = min_child_weight
        self.min_data_in_leaf = min_data_in_leaf
        self.reg_lambda = reg_lambda
        self.reg_alpha = reg_alpha
        self.gamma = gamma
        self.subsample = subsample
        self.bagging_fraction = bagging_fraction
        self.bagging_freq = bagging_freq
        self.colsample_bytree = colsample_bytree
        self.colsample_bylevel = colsample_bylevel
        self.colsample_bynode = colsample_bynode
        self.num_parallel_tree = num_parallel_tree
        self.interaction_constraints = interaction_constraints
        self.monotone_constraints = monotone_constraints
        self.monotone_penalty = monotone_penalty
        self.monotone_constraints_method = monotone_constraints_method
        self.scale_pos_weight = scale_pos_weight
        self.booster = booster
        self.tree_method = tree_method
        self.validate_parameters = validate_parameters
        self.disable_default_eval_metric = disable_default_eval_metric
        self.max_bin = max_bin
        self.grow_policy = grow_policy
        self.max_leaves = max_leaves
        self.objective = objective
        self.base_score = base_score
        self.eval_metric = eval_metric
        self.early_stopping_rounds = early_stopping_rounds
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.device = device
        self.verbosity = verbosity
        self.importance_type = importance_type
        self.categorical_feature = categorical_feature
        self.enable_categorical = enable_categorical
        self.missing = missing
        self.categorical = categorical
        self.max_cat_to_onehot = max_cat_to_onehot
        self.max_cat_threshold = max_cat_threshold
        self.max_categories = max_categories
        self.cat_smooth = cat_smooth
        self.cat_l2 = cat_l2
        self.min_data_per_group = min_data_per_group
        self.max_delta_step = max_delta_step
        self.tweedie_variance_power = tweedie_variance_power
        self.huber_slope = huber_slope
        self.quantile_alpha = quantile_alpha
        self.expectile_alpha = expectile_alpha
        self.lambdarank_pair_method = lambdarank_pair_method
        self.lambdarank_num_pair_per_sample = lambdarank_num_pair_per_sample
        self.ndcg_exp_gain = ndcg_exp_gain
        self.lambdarank_normalization = lambdarank_normalization
        self.lambdarank_score_normalization = lambdarank_score_normalization
        self.lambdarank_unbiased = lambdarank_unbiased
        self.lambdarank_bias_norm = lambdarank_bias_norm
        self.callbacks = callbacks
        # Only when given, so that an estimator without them has no
        # attribute its constructor arguments do not name.
        if kwargs:
            self.kwargs = kwargs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True
        return tags

    # ---------------------------------------------------------- parameters

    def _custom_functions(self) -> dict:
        """train()'s obj and custom_metric from a callable objective or
        eval_metric, wrapped as XGBoost's estimators wrap them."""
        out = {}
        if callable(self.objective):
            out["obj"] = _objective_decorator(self.objective)
        if callable(self.eval_metric):
            out["custom_metric"] = _metric_decorator(self.eval_metric)
        return out

    def _objective_name(self) -> str:
        """The library's objective: the estimator's, or the default one
        when it is a function."""
        if self.objective is None or callable(self.objective):
            return self._default_objective()
        return self.objective

    def _default_objective(self) -> str:
        raise NotImplementedError

    def get_params(self, deep=True) -> dict:
        """The constructor arguments, and the extra keyword arguments
        (booster parameters) given to the constructor or set_params."""
        params = super().get_params(deep=deep)
        params.update(self._extra_params())
        return params

    def set_params(self, **params):
        """Set constructor arguments; a name that is none of them is kept
        as a booster parameter (as an extra keyword argument to the
        constructor is), checked by the library at fit."""
        if not params:
            return self
        names = set(self._get_param_names())
        for key, value in params.items():
            if key in names:
                setattr(self, key, value)
            else:
                if not isinstance(getattr(self, "kwargs", None), dict):
                    self.kwargs = {}
                self.kwargs[key] = value
        return self

    def _extra_params(self) -> dict:
        extra = getattr(self, "kwargs", None)
        return dict(extra) if isinstance(extra, dict) else {}

    def _booster_params(self) -> dict:
        """The C library's parameters for this estimator: the constructor
        arguments and the extra keyword arguments, under the library's
        names (an unknown name is passed on for the library to refuse)."""
        names = canonical_names()
        params, given_as = {}, {}
        for name, value in super().get_params(deep=False).items():
            if name in _ESTIMATOR_ONLY or value is None:
                continue
            if name in ("random_state", "n_jobs"):
                value = self._seed() if name == "random_state" else self._nthread()
            params[names.get(name, name)] = value
            given_as[names.get(name, name)] = name
        for name, value in self._extra_params().items():
            if name in _LIGHTGBM_ONLY:
                raise UnsupportedError(
                    f"parameter {name!r} is not implemented: {_LIGHTGBM_ONLY[name]}")
            if value is None:
                continue
            key = names.get(name, name)
            if key in given_as:
                raise InvalidArgumentError(
                    f"give {given_as[key]} or {name}, not both: both set parameter {key!r}")
            params[key] = value
            given_as[key] = name
        params["objective"] = self._objective_name()
        if callable(self.eval_metric):
            params.pop("eval_metric", None)
        if self._lightgbm_defaults:
            params = with_lightgbm_defaults(params)
        return params

    def _seed(self) -> int | None:
        if self.random_state is None:
            return None
        if isinstance(self.random_state, numbers.Integral):
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(0, 2**31 - 1))

    def _nthread(self) -> int:
        """n_jobs as nthread: None or -1 is every core (0), -2 all but one..."""
        if self.n_jobs is None:
            return 0
        if self.n_jobs < 0:
            return max(1, (os.cpu_count() or 1) + 1 + int(self.n_jobs))
        return int(self.n_jobs)

    # ---------------------------------------------------------------- data

    def _validate_X(self, X, y="no_validation", reset=True):
        """(X ready for Dataset, y) with n_features_in_ and
        feature_names_in_ set or checked.

        DataFrames with categorical or text columns skip scikit-learn's
        numeric conversion: the Dataset reads them column by column.
        Columns in categorical_feature become categorical here.
        """
        no_y = isinstance(y, str) and y == "no_validation"
        if self.enable_categorical not in (None, True, False):
            raise TypeError(
                f"enable_categorical must be a bool, got {self.enable_categorical!r}")
        arrow = is_arrow(X)
        if arrow:
            # Read column by column as a DataFrame is (nulls missing,
            # dictionary and text columns categorical).
            X = arrow_table(X)
        if arrow or (is_dataframe(X) and not (_is_auto(self.categorical_feature) and all(
            np.issubdtype(dt, np.number) or np.issubdtype(dt, np.bool_)
            for dt in _numpy_dtypes(X)
        ))):
            validate_data(self, X, skip_check_array=True, reset=reset)
            dense = self._categorical_dense(X, reset)
            if np.isinf(dense.values).any():
                raise ValueError("Input X contains infinity")
            if not no_y:
                y = column_or_1d(y, warn=True)
                check_consistent_length(dense.values, y)
            return dense, y
        check = dict(
            reset=reset,
            accept_sparse=("csr", "csc", "coo"),
            dtype=[np.float32, np.float64],
            ensure_all_finite="allow-nan",
            # Predicting no rows gives no predictions (as XGBoost's
            # estimators do); training needs rows.
            ensure_min_samples=1 if reset else 0,
        )
        if no_y:
            X, y = validate_data(self, X, **check), None
        else:
            X, y = validate_data(self, X, y, **check, **self._y_check())
        if not _is_auto(self.categorical_feature):
            if is_sparse(X):
                raise TypeError("categorical_feature is not supported for "
                                "scipy.sparse data; pass a dense array or a DataFrame")
            X = self._categorical_dense(X, reset)
        return X, y

    def _categorical_dense(self, X, reset):
        """X converted with categorical_feature's columns categorical: in
        fit, a value that is not an integer code there is an error; in
        prediction it is missing, as an unseen category is."""
        names = getattr(self, "feature_names_in_", None)
        names = None if names is None else [str(n) for n in names]
        if reset:
            return to_dense(X, categorical_feature=self.categorical_feature,
                            feature_names=names)
        columns = _categorical_set(self.categorical_feature, X.shape[1], names)
        return to_dense(X, kinds=["category" if j in columns else None
                                  for j in range(X.shape[1])])

    def _y_check(self) -> dict:
        return {}

    def _feature_names(self, X):
        names = getattr(self, "feature_names_in_", None)
        if names is None or isinstance(X, DenseMatrix):
            return None
        return [str(n) for n in names]

    def _dataset(self, X, label=None, weight=None, group=None) -> Dataset:
        extra = {} if group is None else {"group": group}
        return Dataset(X, label=label, weight=weight,
                       feature_names=self._feature_names(X), missing=self.missing, **extra)

    # ----------------------------------------------------------------- fit

    def _fit(self, X, y_encoded, sample_weight, eval_set, sample_weight_eval_set,
             verbose, extra_params=None, group=None, eval_group=None, base_margin=None,
             init_model=None, label_classes=None, callbacks=None, eval_metric=None):
        if sample_weight is not None:
            sample_weight = _check_sample_weight(
                sample_weight, _as_shape_holder(X), dtype=np.float32,
                ensure_non_negative=True)
        params = self._booster_params()
        params.update(extra_params or {})
        if eval_metric is not None:
            params["eval_metric"] = _fit_metrics(params.get("eval_metric"), eval_metric)
        dtrain = self._dataset(X, label=y_encoded, weight=sample_weight, group=group)
        if label_classes is not None:
            dtrain.set_label_classes(label_classes)
        if base_margin is not None:
            dtrain.set_base_margin(base_margin)
        if isinstance(init_model, _GPULayerModel):
            init_model = init_model.get_booster()
        evals = []
        eval_set = list(eval_set or ())
        weights = list(sample_weight_eval_set or [None] * len(eval_set))
        if len(weights) != len(eval_set):
            raise ValueError("sample_weight_eval_set needs one entry per eval_set pair")
        groups = list(eval_group or [None] * len(eval_set))
        for i, ((X_eval, y_eval), w_eval, g_eval) in enumerate(zip(eval_set, weights, groups)):
            X_eval, _ = self._validate_X(X_eval, reset=False)
            evals.append((self._dataset(X_eval, label=self._encode_eval_y(y_eval),
                                        weight=w_eval, group=g_eval), f"validation_{i}"))
        history: dict = {}
        if callbacks is None:
            callbacks = self.callbacks
        self._Booster = train(params, dtrain, evals=evals, evals_result=history,
                              verbose_eval=verbose, xgb_model=init_model,
                              callbacks=list(callbacks or ()), **self._custom_functions())
        self.evals_result_ = history
        return self

    def evals_result(self) -> dict:
        """The evaluation history of fit's eval_set, as XGBoost's
        ``evals_result()``: ``{"validation_0": {"rmse": [value per round],
        ...}, ...}``, the sets named in eval_set's order. An error when fit
        was given no eval_set."""
        check_is_fitted(self, "_Booster")
        if not getattr(self, "evals_result_", None):
            raise GPULayerError("no evaluation results: fit was given no eval_set")
        return self.evals_result_

    @property
    def best_iteration(self) -> int | None:
        """The 0-based best round found by early stopping (the last metric
        of the last eval_set); None when training did not stop early."""
        return self.get_booster().best_iteration

    @property
    def best_iteration_(self) -> int:
        """LightGBM's ``best_iteration_``: the number of rounds up to the
        best one (:attr:`best_iteration` + 1), 0 when training did not stop
        early."""
        best = self.best_iteration
        return 0 if best is None else best + 1

    @property
    def best_score(self) -> float | None:
        """That metric's value at :attr:`best_iteration`; None when
        training did not stop early."""
        return self.get_booster().best_score

    # --------------------------------------------------------- model files

    def save_model(self, path) -> None:
        """Write the model (the booster's JSON model file) with what the
        estimator needs to predict again after :meth:`load_model`: its kind,
        the classes and the feature names. The file is the library's model
        file, for ``gpulayer.Booster(model_file=path)`` and the command."""
        booster = self.get_booster()
        meta = {"_estimator_type": self._estimator_kind(),
                "n_features_in_": int(self.n_features_in_)}
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            meta["feature_names_in_"] = [str(n) for n in names]
        classes = getattr(self, "classes_", None)
        if classes is not None:
            try:
                json.dumps(classes.tolist())
                meta["classes_"] = classes.tolist()
            except TypeError:
                pass  # not JSON: load_model falls back on the model's classes
        booster.set_attr(scikit_learn=json.dumps(meta))
        try:
            booster.save_model(path)
        finally:
            booster.set_attr(scikit_learn=None)

    def load_model(self, path) -> None:
        """Load a model file (of :meth:`save_model`, :meth:`Booster.save_model`
        or ``gpulayer train``) into this estimator, fitted or not, ready to
        predict. A classifier's classes come from the file: those saved by
        :meth:`save_model`, else the model's class names, else 0 ..
        n_classes - 1 (as XGBoost's). Arguments that shape the input
        (``categorical_feature``, ``missing``) are this estimator's."""
        booster = Booster(model_file=path)
        meta_text = booster.attr("scikit_learn")
        meta = json.loads(meta_text) if meta_text else {}
        kind = meta.get("_estimator_type")
        if kind is not None and kind != self._estimator_kind():
            raise TypeError(f"the model file holds a {kind} estimator's model; "
                            f"this is a {self._estimator_kind()}")
        booster.set_attr(scikit_learn=None)
        for name in ("feature_names_in_", "evals_result_"):
            self.__dict__.pop(name, None)
        self._Booster = booster
        self.n_features_in_ = booster.num_features
        if meta.get("feature_names_in_") is not None:
            self.feature_names_in_ = np.asarray(meta["feature_names_in_"], dtype=object)
        self._load_classes(meta, path)

    def _load_classes(self, meta: dict, path) -> None:
        pass

    def _estimator_kind(self) -> str:
        return self.__sklearn_tags__().estimator_type or "ranker"

    def _encode_eval_y(self, y):
        return np.asarray(y, dtype=np.float32)

    # ------------------------------------------------------------- predict

    def _predict_raw(self, X, output_margin=False, num_iteration=None,
                     iteration_range=None):
        check_is_fitted(self, "_Booster")
        X, _ = self._validate_X(X, reset=False)
        return self._Booster.predict(self._dataset(X), output_margin=output_margin,
                                     **_rounds(num_iteration, iteration_range))

    def _predict_contrib(self, X):
        """SHAP values as LightGBM's pred_contrib gives them: (rows,
        features + 1), the bias last; several outputs side by side, (rows,
        outputs * (features + 1))."""
        check_is_fitted(self, "_Booster")
        X, _ = self._validate_X(X, reset=False)
        values = self._Booster.predict(self._dataset(X), pred_contribs=True)
        # The width spelt out: reshape(0, -1) cannot infer it for no rows.
        return values.reshape(values.shape[0], int(np.prod(values.shape[1:])))

    def get_booster(self) -> Booster:
        """The trained :class:`gpulayer.Booster`."""
        check_is_fitted(self, "_Booster")
        return self._Booster

    @property
    def feature_importances_(self) -> np.ndarray:
        """Feature importance by ``importance_type`` (default 'gain'),
        normalised to sum to 1."""
        kind = self.importance_type or "gain"
        scores = self.get_booster().feature_importance(_IMPORTANCE_ALIASES.get(kind, kind))
        total = scores.sum()
        return (scores / total if total > 0 else scores).astype(np.float32)

    @property
    def n_estimators_(self) -> int:
        """Boosting rounds in the trained model."""
        return self.get_booster().num_rounds


def _either(a, b, name_a: str, name_b: str):
    """The one of two synonyms that is given (XGBoost's and LightGBM's)."""
    if a is not None and b is not None:
        raise ValueError(f"give {name_a} or {name_b}, not both")
    return a if a is not None else b


def _model_num_class(path, booster: Booster) -> int:
    """num_class of a model file (0 for one output): the file's field,
    which the loaded booster's parameters do not carry."""
    try:
        with open(path, encoding="utf-8") as f:
            return int(json.load(f).get("num_class") or 0)
    except (OSError, ValueError, TypeError, AttributeError):
        return booster.num_outputs if booster.num_outputs > 1 else 0


def _numpy_dtypes(df):
    """A DataFrame's column dtypes as numpy dtypes (object for pandas
    extension types that have no numpy equivalent)."""
    out = []
    for dt in df.dtypes:
        try:
            out.append(np.dtype(dt))
        except TypeError:
            out.append(np.dtype(object))
    return out


def _objective_decorator(func):
    """obj(preds, dtrain) from XGBoost's scikit-learn signature
    func(y_true, y_pred[, sample_weight=])."""
    takes_weight = "sample_weight" in inspect.signature(func).parameters

    def inner(preds, dtrain):
        weight = dtrain.get_weight()
        if weight.size and not takes_weight:
            raise ValueError("the custom objective has no sample_weight parameter, but "
                             "the training data have weights")
        if weight.size:
            return func(dtrain.get_label(), preds, sample_weight=weight)
        return func(dtrain.get_label(), preds)

    return inner


def _metric_decorator(func):
    """custom_metric(preds, dataset) from func(y_true, y_pred[,
    sample_weight=]), named by the function."""

    def inner(preds, dataset):
        weight = dataset.get_weight()
        if weight.size:
            return func.__name__, func(dataset.get_label(), preds, sample_weight=weight)
        return func.__name__, func(dataset.get_label(), preds)

    return inner


def _as_shape_holder(X):
    """Something with X's number of rows, for _check_sample_weight."""
    if isinstance(X, DenseMatrix):
        return X.values
    return X


class GPULayerRegressor(RegressorMixin, _GPULayerModel):
    """Gradient-boosted trees for regression: objective
    ``reg:squarederror`` by default; ``reg:absoluteerror``,
    ``reg:squaredlogerror``, ``reg:pseudohubererror`` (``huber_slope``),
    ``reg:quantileerror`` (``quantile_alpha``), ``reg:expectileerror``
    (``expectile_alpha``), ``reg:logistic``,
    ``count:poisson`` (``max_delta_step``), ``reg:gamma``, ``reg:tweedie``
    (``tweedie_variance_power``), or a function (see the module
    documentation).

    See the module documentation for the parameters and accepted data.
    """

    def _default_objective(self) -> str:
        return "reg:squarederror"

    def _y_check(self) -> dict:
        return {"y_numeric": True}

    def fit(self, X, y, sample_weight=None, eval_set=None,
            sample_weight_eval_set=None, verbose=False, base_margin=None,
            xgb_model=None, init_score=None, init_model=None, callbacks=None,
            eval_metric=None):
        """Train on X and y; eval_set is a list of (X, y) pairs evaluated
        after every round (the last one drives early stopping).
        ``base_margin`` (or LightGBM's ``init_score``) gives each row's
        starting margin; ``xgb_model`` (or ``init_model``: a fitted
        estimator, a Booster or a model file) continues its training.
        ``callbacks`` (or the constructor's) are :func:`gpulayer.train`'s,
        called after every round. ``eval_metric`` (LightGBM's fit
        argument): metric names evaluated after the constructor's.
        """
        X, y = self._validate_X(X, y, reset=True)
        y = np.asarray(y, dtype=np.float64)
        if y.ndim != 1:
            y = y.reshape(-1)
        return self._fit(X, y.astype(np.float32), sample_weight, eval_set,
                         sample_weight_eval_set, verbose,
                         base_margin=_either(base_margin, init_score, "base_margin",
                                             "init_score"),
                         init_model=_either(xgb_model, init_model, "xgb_model", "init_model"),
                         callbacks=callbacks, eval_metric=eval_metric)

    def predict(self, X, output_margin=False, pred_contrib=False, num_iteration=None,
                iteration_range=None):
        """Predicted values for X; with pred_contrib=True each feature's
        SHAP value and the bias (last column), summing to the margin.
        ``num_iteration`` (LightGBM's) or ``iteration_range`` (XGBoost's)
        use the first rounds only; by default all, or up to the best round
        of early stopping."""
        if pred_contrib:
            return self._predict_contrib(X)
        return self._predict_raw(X, output_margin=output_margin,
                                 num_iteration=num_iteration,
                                 iteration_range=iteration_range)


class GPULayerClassifier(ClassifierMixin, _GPULayerModel):
    """Gradient-boosted trees for classification: ``binary:logistic`` for
    two classes, ``multi:softprob`` for more (``binary:logitraw``,
    ``binary:hinge`` and ``multi:softmax`` may be chosen; a function as
    ``objective`` trains with the default one's link). Labels may be of any type
    (``classes_`` holds them, sorted).

    See the module documentation for the parameters and accepted data.
    """

    def _default_objective(self) -> str:
        return "binary:logistic" if self.n_classes_ == 2 else "multi:softprob"

    def fit(self, X, y, sample_weight=None, eval_set=None,
            sample_weight_eval_set=None, verbose=False, base_margin=None,
            xgb_model=None, init_score=None, init_model=None, callbacks=None,
            eval_metric=None):
        """Train on X and labels y; eval_set is a list of (X, y) pairs
        evaluated after every round (the last one drives early stopping).
        ``base_margin`` (or LightGBM's ``init_score``) gives each row's
        starting margin; ``xgb_model`` (or ``init_model``: a fitted
        estimator, a Booster or a model file) continues its training.
        ``callbacks`` (or the constructor's) are :func:`gpulayer.train`'s,
        called after every round. ``eval_metric`` (LightGBM's fit
        argument): metric names evaluated after the constructor's.
        """
        X, y = self._validate_X(X, y, reset=True)
        _check_no_missing_class(y)
        check_classification_targets(y)
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        self.n_classes_ = len(self.classes_)
        if self.n_classes_ < 2:
            raise ValueError(
                "GPULayerClassifier needs at least 2 classes in y; got 1 class "
                f"({self.classes_[0]!r})"
            )
        objective = self._objective_name()
        extra = {"num_class": self.n_classes_} if objective.startswith("multi:") else {}
        # Text classes go into the model as the command saves them, so that
        # `gpulayer predict` writes them.
        names = ([str(c) for c in self.classes_]
                 if all(isinstance(c, str) for c in self.classes_) else None)
        return self._fit(X, y_encoded.reshape(-1).astype(np.float32), sample_weight,
                         eval_set, sample_weight_eval_set, verbose, extra,
                         base_margin=_either(base_margin, init_score, "base_margin",
                                             "init_score"),
                         init_model=_either(xgb_model, init_model, "xgb_model", "init_model"),
                         label_classes=names, callbacks=callbacks, eval_metric=eval_metric)

    def _load_classes(self, meta: dict, path) -> None:
        booster = self.get_booster()
        if meta.get("classes_") is not None:
            classes = np.asarray(meta["classes_"])
        elif booster.class_names is not None:
            classes = np.asarray(booster.class_names, dtype=object)
        else:
            classes = np.arange(max(2, _model_num_class(path, booster)))
        self.classes_ = classes
        self.n_classes_ = len(classes)

    def _encode_eval_y(self, y):
        y = np.asarray(y).reshape(-1)
        index = np.searchsorted(self.classes_, y)
        index = np.clip(index, 0, self.n_classes_ - 1)
        unknown = self.classes_[index] != y
        if np.any(unknown):
            raise ValueError(
                f"eval_set has labels not seen in training: {np.unique(y[unknown])[:5]}"
            )
        return index.astype(np.float32)

    def predict_proba(self, X, num_iteration=None, iteration_range=None):
        """Class probabilities, shape (rows, n_classes), columns in the
        order of classes_; ``num_iteration`` and ``iteration_range`` as in
        :meth:`GPULayerRegressor.predict`."""
        raw = self._predict_raw(X, num_iteration=num_iteration,
                                iteration_range=iteration_range)
        if raw.ndim == 2:
            return raw
        if self.n_classes_ > 2:
            raise ValueError(
                f"objective {self.objective!r} predicts classes, not probabilities; "
                "use multi:softprob for predict_proba"
            )
        return np.column_stack([1.0 - raw, raw])

    def predict(self, X, output_margin=False, pred_contrib=False, num_iteration=None,
                iteration_range=None):
        """Predicted labels (of the type of classes_), raw margins with
        output_margin=True, or SHAP values with pred_contrib=True (rows,
        features + 1; for more than two classes the classes' blocks side by
        side, as LightGBM gives them); ``num_iteration`` and
        ``iteration_range`` as in :meth:`GPULayerRegressor.predict`."""
        if pred_contrib:
            return self._predict_contrib(X)
        rounds = {"num_iteration": num_iteration, "iteration_range": iteration_range}
        if output_margin:
            return self._predict_raw(X, output_margin=True, **rounds)
        raw = self._predict_raw(X, **rounds)
        if raw.ndim == 2:
            index = np.argmax(raw, axis=1)
        elif self.n_classes_ > 2:  # multi:softmax gives the class index
            index = raw.astype(np.int64)
        else:
            index = (raw > 0.5).astype(np.int64)
        return self.classes_[index]


def _fit_metrics(own, given):
    """The metrics of the constructor's eval_metric and then fit's
    (LightGBM's fit argument), each once."""
    if callable(given) or (isinstance(given, (list, tuple))
                           and any(callable(m) for m in given)):
        raise UnsupportedError("fit's eval_metric takes metric names; give a metric "
                               "function to the constructor's eval_metric")
    names = []
    for part in (own, given):
        if part is None:
            continue
        for name in ([part] if isinstance(part, str) else list(part)):
            if name not in names:
                names.append(name)
    return names


def _rounds(num_iteration, iteration_range) -> dict:
    """Booster.predict's arguments for LightGBM's num_iteration (the first
    n rounds; None or n <= 0: the default) or XGBoost's iteration_range."""
    if num_iteration is not None and iteration_range is not None:
        raise ValueError("give num_iteration or iteration_range, not both")
    if iteration_range is not None and tuple(iteration_range) != (0, 0):
        return {"iteration_range": tuple(iteration_range)}
    if num_iteration is not None and int(num_iteration) > 0:
        return {"num_rounds": int(num_iteration)}
    return {}


def _check_no_missing_class(y) -> None:
    """A missing label (None, NaN) among class labels is an error naming
    its row, as in a file's label column."""
    y = np.asarray(y)
    if y.dtype.kind != "O":
        return
    for row, value in enumerate(y.reshape(-1)):
        if _is_missing_cell(value):
            raise ValueError(f"y: the label at row {row} (0-based position) is missing "
                             f"({value!r}); every row needs a class")


def _query_order(qid, group, rows: int, what: str):
    """(row order, group sizes) from qid (any order: rows are grouped by
    query, stably) or group sizes (rows already grouped)."""
    if (qid is None) == (group is None):
        raise ValueError(f"{what}: give exactly one of qid= and group=")
    if group is not None:
        sizes = np.asarray(group, dtype=np.int64).reshape(-1)
        if sizes.sum() != rows:
            raise ValueError(f"{what}: group sizes add up to {int(sizes.sum())} rows, "
                             f"the data have {rows}")
        return None, sizes
    qid = np.asarray(qid).reshape(-1)
    if qid.shape[0] != rows:
        raise ValueError(f"{what}: qid has {qid.shape[0]} entries, the data have {rows} rows")
    order = np.argsort(qid, kind="stable")
    if np.all(order == np.arange(rows)):
        order = None
    _, sizes = np.unique(qid, return_counts=True)
    return order, sizes.astype(np.int64)


def _take_rows(X, order):
    if order is None:
        return X
    if isinstance(X, DenseMatrix):
        return X._replace(values=np.ascontiguousarray(X.values[order]), layout=_lib.ROW_MAJOR)
    if is_dataframe(X):
        return X.iloc[order]
    return X[order]


def _by_query(X, y, qid, group, weight, what: str, weight_what: str):
    """X and grades y with their rows grouped by query, the group sizes, and
    the per-query weights repeated over the rows (or None)."""
    y = np.asarray(y, dtype=np.float32).reshape(-1)
    order, sizes = _query_order(qid, group, y.shape[0], what)
    if order is not None:
        X, y = _take_rows(X, order), y[order]
    return X, y, sizes, _row_weights(weight, sizes, weight_what)


class GPULayerRanker(_GPULayerModel):
    """Learning to rank (LambdaMART) as XGBoost's ``XGBRanker``: objective
    ``rank:ndcg`` by default, or ``rank:pairwise`` / ``rank:map``, with
    ``lambdarank_pair_method`` ("topk" or "mean"),
    ``lambdarank_num_pair_per_sample``, ``ndcg_exp_gain``,
    ``lambdarank_normalization`` and ``lambdarank_score_normalization``.

    ``fit(X, y, qid=...)`` or ``fit(X, y, group=sizes)``: y holds relevance
    grades; qid gives each row's query (rows are grouped by query for
    training, keeping their order within a query); group gives the sizes of
    consecutive queries. ``sample_weight`` has one weight a query, as in
    XGBoost. ``eval_set`` pairs take ``eval_qid`` or ``eval_group``.
    ``predict`` gives one score a row; ``score`` the NDCG of the scores.
    """

    def _default_objective(self) -> str:
        return "rank:ndcg"

    def _y_check(self) -> dict:
        return {"y_numeric": True}

    def fit(self, X, y, *, group=None, qid=None, sample_weight=None, eval_set=None,
            eval_group=None, eval_qid=None, sample_weight_eval_set=None, verbose=False,
            callbacks=None, eval_metric=None):
        """Train on X, grades y and the queries (qid= or group=); each
        eval_set pair takes its queries from ``eval_qid[i]`` or
        ``eval_group[i]``. ``callbacks`` and ``eval_metric`` as the other
        estimators' fit."""
        X, y = self._validate_X(X, y, reset=True)
        X, y, sizes, weight = _by_query(X, y, qid, group, sample_weight, "fit",
                                        "sample_weight")
        eval_groups, eval_pairs, eval_weights = [], [], []
        for i, (X_eval, y_eval) in enumerate(eval_set or ()):
            q = eval_qid[i] if eval_qid is not None else None
            g = eval_group[i] if eval_group is not None else None
            w = sample_weight_eval_set[i] if sample_weight_eval_set is not None else None
            X_eval, y_eval, e_sizes, e_weight = _by_query(
                X_eval, y_eval, q, g, w, f"eval_set[{i}]", f"sample_weight_eval_set[{i}]")
            eval_pairs.append((X_eval, y_eval))
            eval_groups.append(e_sizes)
            eval_weights.append(e_weight)
        return self._fit(X, y, weight, eval_pairs, eval_weights, verbose, group=sizes,
                         eval_group=eval_groups, callbacks=callbacks,
                         eval_metric=eval_metric)

    def predict(self, X, output_margin=False, pred_contrib=False, num_iteration=None,
                iteration_range=None):
        """One ranking score a row (higher ranks first); SHAP values with
        pred_contrib=True; ``num_iteration`` and ``iteration_range`` as in
        :meth:`GPULayerRegressor.predict`."""
        if pred_contrib:
            return self._predict_contrib(X)
        return self._predict_raw(X, output_margin=output_margin,
                                 num_iteration=num_iteration,
                                 iteration_range=iteration_range)

    def score(self, X, y, *, qid=None, group=None, sample_weight=None):
        """The model's ranking metric of X's scores against grades y over the
        queries (qid= or group=): the last ``eval_metric`` when it names one,
        else the objective's default, as XGBRanker.score (``ndcg@32``)."""
        check_is_fitted(self, "_Booster")
        X, y = self._validate_X(X, y, reset=False)
        X, y, sizes, weight = _by_query(X, y, qid, group, sample_weight, "score",
                                        "sample_weight")
        data = self._dataset(X, label=y, weight=weight, group=sizes)
        return evaluate(self._score_metric(), self._Booster.predict(data), data)

    def _score_metric(self) -> str:
        metric = self.eval_metric
        if isinstance(metric, (list, tuple)) and metric and isinstance(metric[-1], str):
            return metric[-1]
        if isinstance(metric, str):
            return metric
        kind = "map" if self._objective_name() == "rank:map" else "ndcg"
        if self.lambdarank_pair_method == "mean":
            return kind
        return f"{kind}@{self.lambdarank_num_pair_per_sample or 32}"


def _row_weights(weight, sizes, what: str):
    """One weight a query (XGBoost's ranking weights) repeated over its rows."""
    if weight is None:
        return None
    weight = np.asarray(weight, dtype=np.float32).reshape(-1)
    if weight.shape[0] != sizes.shape[0]:
        raise ValueError(f"{what}: {weight.shape[0]} weights for {sizes.shape[0]} queries; "
                         "ranking takes one weight a query")
    return np.repeat(weight, sizes)


class LGBMRegressor(GPULayerRegressor):
    """:class:`GPULayerRegressor` with LightGBM's defaults for the
    parameters not given (``gpulayer.params.LIGHTGBM_DEFAULTS``): leaf-wise
    growth to ``num_leaves=31`` with no depth limit (``max_depth=-1`` is no
    limit), ``learning_rate=0.1``, ``reg_lambda=0``,
    ``min_child_weight=1e-3``, ``min_child_samples=20``; as
    ``lightgbm.LGBMRegressor``."""

    _lightgbm_defaults = True


class LGBMClassifier(GPULayerClassifier):
    """:class:`GPULayerClassifier` with LightGBM's defaults (see
    :class:`LGBMRegressor`); as ``lightgbm.LGBMClassifier``."""

    _lightgbm_defaults = True


class LGBMRanker(GPULayerRanker):
    """:class:`GPULayerRanker` with LightGBM's defaults (see
    :class:`LGBMRegressor`); as ``lightgbm.LGBMRanker``."""

    _lightgbm_defaults = True


class _RandomForest:
    """XGBoost's random forests (``XGBRFRegressor``, ``XGBRFClassifier``):
    ``n_estimators`` trees grown in one round (``num_parallel_tree``), each
    on its own sample of rows and features, their leaves averaged. The
    parameters not given take XGBoost's random-forest defaults."""

    # XGBoost's XGBRF* defaults, under the library's names.
    _FOREST_DEFAULTS = {"eta": 1.0, "subsample": 0.8, "colsample_bynode": 0.8, "lambda": 1e-5}

    def _booster_params(self) -> dict:
        params = super()._booster_params()
        for key, value in self._FOREST_DEFAULTS.items():
            params.setdefault(key, value)
        params["num_parallel_tree"] = params.pop("num_round")
        params["num_round"] = 1
        return params

    def _fit(self, *args, callbacks=None, **kwargs):
        if self.early_stopping_rounds is not None or callbacks or self.callbacks:
            raise UnsupportedError("early_stopping_rounds and callbacks are not implemented "
                                   "for random forests: a forest is one round")
        return super()._fit(*args, callbacks=callbacks, **kwargs)


class GPULayerRFRegressor(_RandomForest, GPULayerRegressor):
    """A random forest for regression, as ``xgboost.XGBRFRegressor``:
    ``n_estimators`` trees in one round, with ``learning_rate=1``,
    ``subsample=0.8``, ``colsample_bynode=0.8`` and ``reg_lambda=1e-5``
    unless given (docs/random-forests.md)."""


class GPULayerRFClassifier(_RandomForest, GPULayerClassifier):
    """A random forest for classification, as ``xgboost.XGBRFClassifier``
    (see :class:`GPULayerRFRegressor`)."""

"""ONNX export: a model as an ONNX graph that onnxruntime (or any runtime
with the ``ai.onnx.ml`` domain) runs without GPUlayer.

    import gpulayer.onnx_export
    model = gpulayer.onnx_export.to_onnx(booster)        # an onnx.ModelProto
    gpulayer.onnx_export.to_onnx(booster, "model.onnx")  # also written there

The graph takes one float32 input ``input`` of shape (rows, features), the
model's features in order, NaN for missing, and gives ``prediction``: what
``Booster.predict`` gives (probabilities, class indices, exp of the margin
and so on; (rows,) for one output, (rows, outputs) for several), or the
margins with ``output_margin=True``. The trees become one
``TreeEnsembleRegressor`` (``ai.onnx.ml`` opset 3, float thresholds: the
model's cut values are float32, so ``x < threshold`` is decided exactly as
GPUlayer decides it); the objective's link follows as standard operators.

The scikit-learn estimators convert with skl2onnx too, alone or in a
pipeline, once registered::

    gpulayer.onnx_export.register_skl2onnx()
    onx = skl2onnx.to_onnx(pipeline, X[:1])

Categorical features: a value names its category by the number it is, as
everywhere in GPUlayer, so a feature whose categories are integers
(``categorical_feature`` columns) is exported as a chain of equality
tests; a value naming no category goes the missing way. A feature whose
categories are text cannot be named by a float input, and such a model
is refused, naming the feature.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from typing import Any

import numpy as np

__all__ = ["to_onnx", "register_skl2onnx"]

# The link from margins to predictions, by objective.
_LINKS = {
    "binary:logistic": "sigmoid", "reg:logistic": "sigmoid",
    "count:poisson": "exp", "reg:gamma": "exp", "reg:tweedie": "exp",
    "multi:softprob": "softmax", "multi:softmax": "argmax", "binary:hinge": "hinge",
}

_ML_OPSET = 3
_OPSET = 17


def _booster_of(model):
    from .booster import Booster
    if isinstance(model, Booster):
        return model
    booster = getattr(model, "get_booster", None)
    if booster is not None:  # the scikit-learn estimators
        return booster()
    raise TypeError(f"to_onnx takes a gpulayer Booster or estimator, not {type(model).__name__}")


def _xgboost_document(booster) -> dict:
    """The trees with raw thresholds, as the XGBoost export writes them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.json")
        booster.export_xgboost(path)
        with open(path, encoding="utf-8") as f:
            return json.load(f)


def _category_values(booster, feature: int, label: str) -> list[float]:
    """The number each category code of a categorical feature names."""
    values = []
    for name in booster.categories(feature) or []:
        try:
            number = int(name)
        except ValueError:
            raise ValueError(
                f"ONNX export: categorical feature {label} has text categories "
                f"({name!r}, ...); an ONNX float input cannot name them. Give the feature "
                "integer codes (categorical_feature) to export it") from None
        if abs(number) > 2**24:
            raise ValueError(f"ONNX export: category {number} of feature {label} is not "
                             "exact as a float32 input")
        values.append(float(number))
    return values


class _Forest:
    """The ensemble's node arrays, as TreeEnsembleRegressor takes them."""

    def __init__(self):
        self.nodes: dict[str, list] = {k: [] for k in (
            "nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes",
            "nodes_values", "nodes_truenodeids", "nodes_falsenodeids",
            "nodes_missing_value_tracks_true", "nodes_hitrates")}
        self.targets: dict[str, list] = {k: [] for k in (
            "target_treeids", "target_nodeids", "target_ids", "target_weights")}

    def add(self, tree: int, node: int, mode: str, feature: int = 0, value: float = 0.0,
            true: int = 0, false: int = 0, missing_true: int = 0) -> None:
        n = self.nodes
        n["nodes_treeids"].append(tree)
        n["nodes_nodeids"].append(node)
        n["nodes_featureids"].append(feature)
        n["nodes_modes"].append(mode)
        n["nodes_values"].append(value)
        n["nodes_truenodeids"].append(true)
        n["nodes_falsenodeids"].append(false)
        n["nodes_missing_value_tracks_true"].append(missing_true)
        n["nodes_hitrates"].append(1.0)

    def leaf(self, tree: int, node: int, target: int, weight: float) -> None:
        self.add(tree, node, "LEAF")
        t = self.targets
        t["target_treeids"].append(tree)
        t["target_nodeids"].append(node)
        t["target_ids"].append(target)
        t["target_weights"].append(weight)


def _add_tree(forest: _Forest, t: int, tree: dict, target: int, category_values,
              base: float | None) -> None:
    """Tree t; base, where given, is added to each leaf (in float32, as
    GPUlayer starts a row's sum from it)."""
    left, right = tree["left_children"], tree["right_children"]
    feature, cond = tree["split_indices"], tree["split_conditions"]
    default_left, split_type = tree["default_left"], tree["split_type"]
    right_sets = {}
    for node, start, size in zip(tree["categories_nodes"], tree["categories_segments"],
                                 tree["categories_sizes"]):
        right_sets[node] = set(tree["categories"][start:start + size])
    num_nodes = len(left)
    extra = num_nodes  # ids of the nodes a categorical split adds
    for i in range(num_nodes):
        if left[i] == -1:
            value = np.float32(cond[i])
            if base is not None:
                value = np.float32(np.float32(base) + value)
            forest.leaf(t, i, target, float(value))
            continue
        f = int(feature[i])
        if split_type[i] == 0:  # x < threshold goes left
            forest.add(t, i, "BRANCH_LT", f, float(cond[i]), left[i], right[i],
                       int(default_left[i]))
            continue
        # A categorical split: a chain of equality tests on the values of
        # one side, whose end is the default side, so that missing and
        # unseen values go where GPUlayer sends them.
        values = category_values(f)
        goes_right = right_sets.get(i, set())
        if default_left[i]:
            tested, hit, end = sorted(c for c in goes_right if c < len(values)), right[i], left[i]
        else:
            tested = [c for c in range(len(values)) if c not in goes_right]
            hit, end = left[i], right[i]
        if not tested:  # every value goes the default way: one test that none passes
            forest.add(t, i, "BRANCH_LT", f, -math.inf, hit, end, 0)
            continue
        ids = [i] + list(range(extra, extra + len(tested) - 1))
        extra += len(tested) - 1
        for k, code in enumerate(tested):
            nxt = ids[k + 1] if k + 1 < len(tested) else end
            forest.add(t, ids[k], "BRANCH_EQ", f, values[code], hit, nxt, 0)


def _base_margins(booster, outputs: int) -> list[float]:
    """Each output's starting margin: the model's per-output margins where
    it has them (multi:softprob's class intercepts), else its one margin."""
    native = json.loads(bytes(booster.save_raw()).decode("utf-8"))
    per_output = native.get("base_margins")
    if per_output:
        return [float(v) for v in per_output]
    return [float(native.get("base_margin", 0.0))] * outputs


def _ensemble(booster) -> tuple[dict, str, int, int]:
    """The trees as TreeEnsembleRegressor's attributes (n_targets, base
    values and node arrays), the objective, the number of outputs and of
    features."""
    doc = _xgboost_document(booster)
    learner = doc["learner"]
    objective = learner["objective"]["name"]
    trees = learner["gradient_booster"]["model"]["trees"]
    tree_info = learner["gradient_booster"]["model"]["tree_info"]
    num_features = int(learner["learner_model_param"]["num_feature"])
    names = booster.feature_names
    from . import _lib
    outputs = int(_lib.get().gpulayer_booster_prediction_width(booster.handle,
                                                               _lib.PREDICT_MARGIN))

    cache: dict[int, list[float]] = {}

    def category_values(f: int) -> list[float]:
        if f not in cache:
            label = repr(names[f]) if names and names[f] is not None else f"{f}"
            cache[f] = _category_values(booster, f, label)
        return cache[f]

    # GPUlayer sums a row's margin from the base margin, tree by tree, in
    # float32; onnxruntime sums the trees and adds base_values last. The
    # base margin goes into the leaves of each output's first tree instead,
    # so that the sums are added in GPUlayer's order.
    forest = _Forest()
    base = _base_margins(booster, outputs)
    started = set()
    for t, (tree, target) in enumerate(zip(trees, tree_info)):
        target = int(target)
        _add_tree(forest, t, tree, target, category_values,
                  None if target in started else base[target])
        started.add(target)
    base_values = [0.0 if k in started else base[k] for k in range(outputs)]
    attrs = dict(n_targets=outputs, aggregate_function="SUM", post_transform="NONE",
                 base_values=base_values, **forest.nodes, **forest.targets)
    return attrs, objective, outputs, num_features


def to_onnx(model, path: str | os.PathLike | None = None, output_margin: bool = False) -> Any:
    """The model (a Booster or a scikit-learn estimator of this package) as
    an ``onnx.ModelProto``, written to ``path`` too when given. Needs the
    ``onnx`` package."""
    try:
        import onnx
        from onnx import TensorProto, helper
    except ImportError as e:
        raise ImportError("ONNX export needs the onnx package (pip install onnx)") from e
    booster = _booster_of(model)
    names = booster.feature_names
    attrs, objective, outputs, num_features = _ensemble(booster)
    ensemble = helper.make_node("TreeEnsembleRegressor", ["input"], ["margin"],
                                domain="ai.onnx.ml", **attrs)
    nodes = [ensemble]
    link = None if output_margin else _LINKS.get(objective)
    last = "margin"
    if link == "sigmoid":
        nodes.append(helper.make_node("Sigmoid", [last], ["linked"]))
    elif link == "exp":
        nodes.append(helper.make_node("Exp", [last], ["linked"]))
    elif link == "softmax":
        nodes.append(helper.make_node("Softmax", [last], ["linked"], axis=1))
    elif link == "argmax":
        nodes += [helper.make_node("ArgMax", [last], ["index"], axis=1, keepdims=1),
                  helper.make_node("Cast", ["index"], ["linked"], to=TensorProto.FLOAT)]
    elif link == "hinge":
        zero = helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0])
        nodes += [helper.make_node("Constant", [], ["zero"], value=zero),
                  helper.make_node("Greater", [last, "zero"], ["positive"]),
                  helper.make_node("Cast", ["positive"], ["linked"], to=TensorProto.FLOAT)]
    if link is not None:
        last = "linked"
    width = 1 if link == "argmax" else outputs
    shape = helper.make_tensor("shape", TensorProto.INT64, [1 if width == 1 else 2],
                               [-1] if width == 1 else [-1, width])
    nodes += [helper.make_node("Constant", [], ["shape"], value=shape),
              helper.make_node("Reshape", [last, "shape"], ["prediction"])]
    graph = helper.make_graph(
        nodes, "gpulayer",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [None, num_features])],
        [helper.make_tensor_value_info("prediction", TensorProto.FLOAT,
                                       [None] if width == 1 else [None, width])])
    out = helper.make_model(graph, producer_name="gpulayer", opset_imports=[
        helper.make_opsetid("", _OPSET), helper.make_opsetid("ai.onnx.ml", _ML_OPSET)])
    out.ir_version = 8
    if names and all(n is not None for n in names):
        helper.set_model_props(out, {"feature_names": json.dumps(list(names))})
    onnx.checker.check_model(out)
    if path is not None:
        onnx.save(out, os.fspath(path))
    return out


# ------------------------------------------------------------ skl2onnx

def _skl2onnx_ensemble(scope, operator, container) -> tuple[str, str]:
    """Adds the trees on the operator's input; the margins' variable name
    and the objective."""
    attrs, objective, _, _ = _ensemble(_booster_of(operator.raw_operator))
    margin = scope.get_unique_variable_name("margin")
    container.add_node("TreeEnsembleRegressor", operator.inputs[0].full_name, margin,
                       op_domain="ai.onnx.ml", op_version=_ML_OPSET,
                       name=scope.get_unique_operator_name("TreeEnsembleRegressor"), **attrs)
    return margin, objective


def _convert_regressor(scope, operator, container) -> None:
    margin, objective = _skl2onnx_ensemble(scope, operator, container)
    link = _LINKS.get(objective)
    op = {None: "Identity", "sigmoid": "Sigmoid", "exp": "Exp"}.get(link)
    if op is None:
        raise ValueError(f"skl2onnx: a regressor of objective {objective} is not converted")
    container.add_node(op, margin, operator.outputs[0].full_name,
                       name=scope.get_unique_operator_name(op))


def _convert_classifier(scope, operator, container) -> None:
    from onnx import TensorProto
    est = operator.raw_operator
    margin, objective = _skl2onnx_ensemble(scope, operator, container)
    probabilities = operator.outputs[1].full_name
    name = scope.get_unique_operator_name
    if objective == "binary:logistic":
        p, one = scope.get_unique_variable_name("p"), scope.get_unique_variable_name("one")
        rest = scope.get_unique_variable_name("rest")
        container.add_initializer(one, TensorProto.FLOAT, [], [1.0])
        container.add_node("Sigmoid", margin, p, name=name("Sigmoid"))
        container.add_node("Sub", [one, p], rest, name=name("Sub"))
        container.add_node("Concat", [rest, p], probabilities, axis=1, name=name("Concat"))
    elif objective == "multi:softprob":
        container.add_node("Softmax", margin, probabilities, axis=1, name=name("Softmax"))
    else:
        raise ValueError(f"skl2onnx: a classifier of objective {objective} gives no "
                         "probabilities; train it with binary:logistic or multi:softprob")
    index = scope.get_unique_variable_name("index")
    if scope.get_options(est, dict(nocl=False))["nocl"]:  # labels are the class indexes
        container.add_node("ArgMax", probabilities, operator.outputs[0].full_name, axis=1,
                           keepdims=0, name=name("ArgMax"))
        return
    container.add_node("ArgMax", probabilities, index, axis=1, keepdims=0, name=name("ArgMax"))
    classes = np.asarray(est.classes_)
    table = scope.get_unique_variable_name("classes")
    if classes.dtype.kind in "iufb":
        container.add_initializer(table, TensorProto.INT64, [len(classes)],
                                  classes.astype(np.int64).tolist())
    else:
        container.add_initializer(table, TensorProto.STRING, [len(classes)],
                                  [str(c).encode("utf-8") for c in classes])
    picked, shape = scope.get_unique_variable_name("picked"), scope.get_unique_variable_name("n")
    container.add_node("ArrayFeatureExtractor", [table, index], picked, op_domain="ai.onnx.ml",
                       name=name("ArrayFeatureExtractor"))
    container.add_initializer(shape, TensorProto.INT64, [1], [-1])
    container.add_node("Reshape", [picked, shape], operator.outputs[0].full_name,
                       name=name("Reshape"))


def register_skl2onnx() -> None:
    """Registers every estimator of this package (by its own, XGBoost's
    and LightGBM's names) with skl2onnx, so that ``skl2onnx.to_onnx`` and
    ``convert_sklearn`` convert them, in pipelines too. Classifiers give
    skl2onnx's two outputs (label, probabilities), with the ``zipmap`` and
    ``nocl`` options of scikit-learn's classifiers. Needs skl2onnx."""
    try:
        from skl2onnx import update_registered_converter
        from skl2onnx.common.shape_calculator import (
            calculate_linear_classifier_output_shapes, calculate_linear_regressor_output_shapes)
    except ImportError as e:
        raise ImportError("register_skl2onnx needs skl2onnx (pip install skl2onnx)") from e
    from . import sklearn as estimators
    for cls in (estimators.GPULayerRegressor, estimators.GPULayerRFRegressor,
                estimators.LGBMRegressor):
        update_registered_converter(cls, f"GPULayer{cls.__name__}",
                                    calculate_linear_regressor_output_shapes, _convert_regressor)
    for cls in (estimators.GPULayerClassifier, estimators.GPULayerRFClassifier,
                estimators.LGBMClassifier):
        update_registered_converter(cls, f"GPULayer{cls.__name__}",
                                    calculate_linear_classifier_output_shapes,
                                    _convert_classifier, options={"zipmap": [True, False, "columns"],
                                             "nocl": [True, False]})
